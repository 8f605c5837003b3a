"""A contact sheet of every sprite at 100% and 50%: `python -m game.tools.contact_sheet --out PNG`."""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from game.render.style import BOLD_FONT_FILE, FONT_FILE, PALETTE, font_path

if TYPE_CHECKING:
    import pygame

ROOT = Path(__file__).resolve().parents[2]
MAT = PALETTE.mat  # the olive table mat the sprites are seen on


def contact_sheet(root: Path, *, width: int = 1400) -> pygame.Surface:
    """Every PNG under root, grouped by folder, each at full size and beside it at half size, labelled."""
    import pygame

    pygame.font.init()
    font = pygame.font.Font(font_path(FONT_FILE), 11)
    head = pygame.font.Font(font_path(BOLD_FONT_FILE), 14)
    files = sorted(root.rglob("*.png"))
    cells = []
    for f in files:
        img = pygame.image.load(str(f))
        half = pygame.transform.smoothscale(img, (max(1, img.get_width() // 2), max(1, img.get_height() // 2)))
        label = f.relative_to(root).with_suffix("").as_posix()
        cells.append((label, img, half))
    pad, x, y, row_h = 10, 10, 34, 0
    placed = []
    for label, img, half in cells:
        w = img.get_width() + half.get_width() + 3 * pad
        w = max(w, font.size(label)[0] + 2 * pad)
        h = max(img.get_height(), half.get_height()) + 28
        if x + w > width:
            x, y, row_h = 10, y + row_h + pad, 0
        placed.append((label, img, half, x, y))
        x += w + pad
        row_h = max(row_h, h)
    sheet = pygame.Surface((width, y + row_h + pad))
    sheet.fill(PALETTE.frame)
    sheet.blit(head.render(f"sprites: {len(cells)} files, each at 100% and 50% on the table mat", True,
                           PALETTE.ink), (10, 8))
    for label, img, half, x, y in placed:
        w = img.get_width() + half.get_width() + 3 * pad
        h = max(img.get_height(), half.get_height()) + 8
        pygame.draw.rect(sheet, MAT, pygame.Rect(x, y, w, h))
        sheet.blit(img, (x + pad, y + 4))
        sheet.blit(half, (x + 2 * pad + img.get_width(), y + 4))
        sheet.blit(font.render(label, True, PALETTE.ink), (x + 2, y + h + 2))
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sprites", type=Path, default=ROOT / "sprites")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    sheet = contact_sheet(args.sprites)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(args.out))
    print(f"{args.out}: {sheet.get_width()}x{sheet.get_height()} px")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
