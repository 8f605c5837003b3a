"""`zona-alfa check-map` and the map loader never crash on a path that is not a map (issue 13): a directory lints
its .tmx files, a folder without maps or a path that names no readable file exits 2, a bad map exits 1, and a
multi-file check goes on after a bad one. `demo --map` and `render-map` load through the same `load_map`."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from game.cli import main
from game.maps.loader import UNREADABLE, MapError, load_map
from tests.paths import MAPS

SANDBOX = MAPS / "sandbox.tmx"


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "x.tmx").mkdir()
    (tmp_path / "noise.tmx").write_bytes(os.urandom(4096))
    (tmp_path / "empty.tmx").write_bytes(b"")
    maps = tmp_path / "maps"
    maps.mkdir()
    shutil.copy(SANDBOX, maps / "a.tmx")
    (maps / "b.tmx").write_bytes(b"<map")
    (maps / "sub").mkdir()
    shutil.copy(SANDBOX, maps / "sub" / "c.tmx")  # subfolders are not linted
    return {p.name: p for p in tmp_path.iterdir()} | {"missing": tmp_path / "missing.tmx"}


@pytest.mark.parametrize("name, words", [
    ("folder", ["a directory holding no .tmx map", "*.tmx"]), ("x.tmx", ["a directory holding no .tmx map"]),
])
def test_a_folder_without_maps_exits_2_with_a_hint(paths, capsys, name, words) -> None:  # type: ignore[no-untyped-def]
    rc, out, err = run_cli(["check-map", str(paths[name])], capsys)
    assert rc == 2 and str(paths[name]) in err and all(w in err for w in words)
    assert len(err.strip().splitlines()) == 1


def test_a_folder_lints_the_maps_directly_inside_it(paths, capsys) -> None:  # type: ignore[no-untyped-def]
    rc, out, _ = run_cli(["check-map", "--stats", str(paths["maps"])], capsys)
    assert rc == 1  # b.tmx is broken
    assert f"{paths['maps'] / 'a.tmx'}: ok" in out and f"{paths['maps'] / 'b.tmx'}: 1 problem(s)" in out
    assert "c.tmx" not in out


@pytest.mark.parametrize("name, rc_wanted, words", [
    ("missing", 2, ["does not exist", "[unreadable]"]), ("noise.tmx", 1, ["not well-formed"]),
    ("empty.tmx", 1, ["not well-formed"]),
])
def test_each_file_is_reported_and_the_next_one_checked(paths, capsys, name, rc_wanted, words) -> None:  # type: ignore[no-untyped-def]
    rc, out, _ = run_cli(["check-map", str(paths[name]), str(SANDBOX)], capsys)
    assert rc == rc_wanted
    assert all(w in out for w in words) and str(paths[name]) in out
    assert f"{SANDBOX}: ok" in out  # the multi-file check went on


def test_an_unreadable_file_exits_2(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Simulated (the suite may run as root, who reads everything): a PermissionError on open."""
    secret = tmp_path / "secret.tmx"
    shutil.copy(SANDBOX, secret)
    real_open = Path.open

    def deny(self: Path, *a, **k):  # type: ignore[no-untyped-def]
        if self == secret:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "open", deny)
    rc, out, _ = run_cli(["check-map", str(secret)], capsys)
    assert rc == 2 and "cannot be read (Permission denied)" in out


def test_help_says_what_a_directory_does(capsys) -> None:  # type: ignore[no-untyped-def]
    rc, out, _ = run_cli(["check-map", "--help"], capsys)
    assert rc == 0 and "directory lints the *.tmx files" in " ".join(out.split())


@pytest.mark.parametrize("name, words", [
    ("folder", "is a directory"), ("x.tmx", "is a directory"), ("missing", "does not exist"),
    ("noise.tmx", "not well-formed"), ("empty.tmx", "not well-formed"),
])
def test_load_map_raises_map_error_naming_the_file(paths, name, words) -> None:  # type: ignore[no-untyped-def]
    """The path `demo --map` and `render-map` take: MapError with one problem naming the file, never an OSError."""
    with pytest.raises(MapError, match=words) as err:
        load_map(paths[name])
    (problem,) = err.value.problems
    assert problem.file == str(paths[name]) and "\n" not in err.value.summary()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_devices_and_pipes_are_refused_without_reading(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """/dev/zero never ends and a pipe blocks: both are refused before a byte is read."""
    with pytest.raises(MapError, match="not a regular file") as err:
        load_map("/dev/zero")
    assert err.value.problems[0].code == UNREADABLE
    fifo = tmp_path / "pipe.tmx"
    os.mkfifo(fifo)
    with pytest.raises(MapError, match="not a regular file"):
        load_map(fifo)


def test_map_error_summary_is_one_line_with_the_count() -> None:
    from game.maps.loader import MapProblem

    err = MapError([MapProblem("m.tmx", 3, "crate", "bad-enum", "cover 'heavy'", "fix it"),
                    MapProblem("m.tmx", 4, "box", "missing-height", "top_in", "set it")])
    assert err.summary() == ("m.tmx: object #3 'crate': cover 'heavy' [bad-enum]; fix: fix it "
                             "(and 1 more: run `zona-alfa check-map m.tmx`)")
