"""`zona-alfa render-map` refuses every bad argument with one line naming it, exit 2, and writes nothing
(issue 13; GEO-1 points, GEO-7/GEO-26 placements); a model inside a solid piece is drawn with a warning (GEO-7)."""
from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from game.cli import main  # noqa: E402
from tests.paths import MAPS, REPO_ROOT

SANDBOX = MAPS / "sandbox.tmx"
TOWN = MAPS / "bench-town.tmx"
OK = ["--model", "raven=4,4", "--model", "bandit=30,30"]  # two legal spots on the sandbox table


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """main(argv) in-process; argparse's own refusals (SystemExit) count as their exit status."""
    try:
        rc = main(argv)
    except SystemExit as exc:
        rc = int(exc.code or 0)
    out, err = capsys.readouterr()
    return rc, out, err


def refused(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    rc, out, err = run_cli(argv, capsys)
    text = out + err
    assert "Traceback" not in text
    assert rc == 2, text
    assert all(w in err for w in words), err
    if not err.startswith("usage:"):
        assert len(err.strip().splitlines()) == 1, err  # one line, naming the argument
    return err


def _files(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "folder"
    folder.mkdir()
    named = tmp_path / "x.tmx"
    named.mkdir()
    noise = tmp_path / "noise.tmx"
    noise.write_bytes(os.urandom(4096))
    empty = tmp_path / "empty.tmx"
    empty.write_bytes(b"")
    text = tmp_path / "notes.txt"
    text.write_text("not a map\n")
    return {"folder": folder, "named": named, "noise": noise, "empty": empty, "text": text}


@pytest.mark.parametrize("which, words", [
    ("folder", ["is a directory"]), ("named", ["x.tmx", "is a directory"]), ("missing", ["does not exist"]),
    ("noise", ["not well-formed"]), ("empty", ["not well-formed"]), ("text", ["not well-formed"]),
])
def test_map_files_that_are_not_maps_are_refused(tmp_path, capsys, which, words) -> None:  # type: ignore[no-untyped-def]
    files = _files(tmp_path)
    path = files.get(which, tmp_path / "missing.tmx")
    err = refused(["render-map", str(path), "--out", str(tmp_path / "o.png")], capsys, "FILE", str(path), *words)
    assert "render-map" in err
    assert not (tmp_path / "o.png").exists()


def test_an_unreadable_map_is_refused(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A file the user may not read (simulated: the suite may run as root, who reads everything)."""
    secret = tmp_path / "secret.tmx"
    secret.write_bytes(SANDBOX.read_bytes())
    real_open = Path.open

    def deny(self: Path, *a, **k):  # type: ignore[no-untyped-def]
        if self == secret:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *a, **k)

    monkeypatch.setattr(Path, "open", deny)
    refused(["render-map", str(secret), "--out", str(tmp_path / "o.png")], capsys, "cannot be read",
            "Permission denied")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-3", "0", "0.5", "1e9", "101"])
def test_scales_outside_the_range_are_refused(tmp_path, capsys, value) -> None:  # type: ignore[no-untyped-def]
    """Today 0 gave a 48x72 px picture: a scale is 4 to 100 pixels per inch."""
    refused(["render-map", str(SANDBOX), "--out", str(tmp_path / "o.png"), f"--px-per-inch={value}"], capsys,
            "--px-per-inch", "4 to 100")
    assert not list(tmp_path.iterdir())


def test_a_scale_that_is_not_a_number_is_refused_by_argparse(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    refused(["render-map", str(SANDBOX), "--out", str(tmp_path / "o.png"), "--px-per-inch", "big"], capsys,
            "--px-per-inch")


@pytest.mark.parametrize("which, words", [("missing", ["no such folder"]), ("text", ["is a file"]),
                                          ("folder", ["no terrain/grass.png"])])
def test_art_folders_that_are_not_sprites_are_refused(tmp_path, capsys, which, words) -> None:  # type: ignore[no-untyped-def]
    files = _files(tmp_path)
    art = files.get(which, tmp_path / "nonexistent")
    refused(["render-map", str(SANDBOX), "--out", str(tmp_path / "o.png"), "--art", str(art)], capsys, "--art",
            *words)


def test_unwritable_outputs_are_refused(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    files = _files(tmp_path)
    for out, words in [(files["folder"], ["is a directory"]), (f"{files['folder']}/", ["is a directory"]),
                       ("/proc/x.png", ["cannot be written"]), (files["text"] / "o.png", ["cannot be written"]),
                       (tmp_path / "o.jpg", ["ending in .png"])]:
        refused(["render-map", str(SANDBOX), "--out", str(out)], capsys, "--out", *words)


BAD_PLACEMENTS = [
    (["--model", "raven=nan,nan"], ["--model", "finite"]),
    (["--model", "raven=inf,3"], ["--model", "finite"]),
    (["--model", "raven=-5,3"], ["--model", "off the 36x36 in table"]),
    (["--model", "raven=1e300,1"], ["--model", "off the"]),
    (["--model", "raven=0.2,5"], ["--model", "would leave", "GEO-26"]),
    (["--model", "raven=5,5,-1"], ["--model", "z = -1"]),
    (["--model", "raven=5,5,1e9"], ["--model", "z = 1e+09"]),
    (["--model", "raven=4,4", "--model", "raven=8,8"], ["--model", "already used"]),
    (["--model", "ra,ven=4,4"], ["--model", "may not"]),
    (["--model", "7=4,4"], ["--model", "may not be a number"]),
    (["--model", "raven=4,4/dragon"], ["unknown model kind 'dragon'", "bandit"]),
    (["--model", "raven"], ["--model", "NAME="]),
    (["--model", "raven="], ["--model", "NAME="]),
    (["--model", "raven=4"], ["--model", "x,y or x,y,z"]),
    ([*OK, "--path", "raven:nan,nan"], ["--path", "finite"]),
    ([*OK, "--path", "raven:nobody"], ["--path", "'nobody'", "anchors:"]),
    ([*OK, "--path", "raven"], ["--path", "A:B"]),
    ([*OK, "--path", "raven:raven"], ["--path", "same model"]),
    ([*OK, "--path", "raven:99,99"], ["--path", "off the"]),
    ([*OK, "--reach", "raven@-1"], ["--reach", "above 0"]),
    ([*OK, "--reach", "raven@nan"], ["--reach", "above 0"]),
    ([*OK, "--reach", "raven@inf"], ["--reach", "above 0"]),
    ([*OK, "--reach", "raven@1e9"], ["--reach", "at most"]),
    ([*OK, "--reach", "raven@far"], ["--reach", "MODEL@INCHES"]),
    ([*OK, "--reach", "@7"], ["--reach", "name the model"]),
    ([*OK, "--los", "raven"], ["--los", "write A,B"]),
    ([*OK, "--los", "raven,raven"], ["--los", "same model"]),
    ([*OK, "--los", "nan,1:2,3"], ["--los", "finite"]),
    ([*OK, "--los", "raven,ghost"], ["--los", "'ghost'"]),
    ([*OK, "--template", "lbt@nan,nan"], ["--template", "finite"]),
    ([*OK, "--template", "xyz@1,1"], ["--template", "sbt, lbt or flame"]),
    ([*OK, "--template", "lbt@"], ["--template", "KIND@PLACEMENT"]),
    ([*OK, "--template", "flame@raven^nan"], ["--template", "degrees"]),
    ([*OK, "--template", "flame@raven^inf"], ["--template", "degrees"]),
    ([*OK, "--template", "flame@raven"], ["--template", "flame needs"]),
    ([*OK, "--template", "flame@raven>raven"], ["--template", "own attacker"]),
    ([*OK, "--smoke", "nan,nan"], ["--smoke", "finite"]),
    ([*OK, "--smoke", "999,999"], ["--smoke", "off the"]),
    ([*OK, "--smoke", "nowhere"], ["--smoke", "'nowhere'"]),
    (["--no-such-option"], ["--no-such-option"]),
]


@pytest.mark.parametrize("extra, words", BAD_PLACEMENTS, ids=[" ".join(a) for a, _ in BAD_PLACEMENTS])
def test_bad_placements_are_refused(tmp_path, capsys, extra, words) -> None:  # type: ignore[no-untyped-def]
    refused(["render-map", str(SANDBOX), "--out", str(tmp_path / "o.png"), *extra], capsys, *words)
    assert not list(tmp_path.iterdir())  # nothing written, no temporary file left


def test_a_model_inside_a_solid_piece_is_drawn_with_a_warning(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """GEO-7: not a mover, so it is drawn where it was put; one warning line names it and the piece."""
    out = tmp_path / "o.png"
    rc, text, err = run_cli(["render-map", str(TOWN), "--out", str(out), "--px-per-inch", "6", "--model",
                             "stalker=33.5,23", "--model", "bandit=30,30", "--los", "stalker,bandit"], capsys)
    assert rc == 0 and out.exists() and "Traceback" not in text + err
    (line,) = err.strip().splitlines()
    assert "warning" in line and "--model stalker" in line and "impassable" in line and "GEO-7" in line


def test_the_architecture_keeps_render_free_of_rules_it_computes() -> None:
    """The modifiers come from game.core.rules.modifiers: render holds no cover table of its own."""
    src = (REPO_ROOT / "game" / "render" / "attack_mods.py").read_text()
    assert "cover_modifiers" in src and "save_tn" in src and "will_tn" in src and "ca_mod" not in src
