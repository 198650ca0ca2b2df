"""``companion cards``: print-and-play cards and mats, and the card images as PNGs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.paths import output_file, output_folder, writing
from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``cards print|mat|images``."""
    parser = subparsers.add_parser("cards", help="printable cards and mats (PDF), card images (PNG)")
    inner = parser.add_subparsers(dest="cards_command", metavar="ACTION", required=True)
    p = inner.add_parser("print", help="every card of GAME at poker size (63x88 mm) with cut marks")
    p.add_argument("game")
    p.add_argument("--out", required=True, help="the PDF to write")
    p.add_argument("--paper", default="a4", choices=["a4", "letter"])
    p.set_defaults(func=_print)
    m = inner.add_parser("mat", help="GAME's play mat tiled onto sheets")
    m.add_argument("game")
    m.add_argument("--out", required=True, help="the PDF to write")
    m.add_argument("--paper", default="a4", choices=["a4", "letter"])
    m.set_defaults(func=_mat)
    i = inner.add_parser("images", help="one PNG per distinct card face, named by card id")
    i.add_argument("game")
    i.add_argument("--out", required=True, help="the directory to write into")
    i.set_defaults(func=_images)


def _pdf_file(name: str) -> Path:
    """``--out`` for a PDF: a name ending in .pdf (a PDF written as ``mat.png`` opened as nothing
    in an image viewer, without a word), checked as :func:`output_file` checks any file."""
    if Path(name).suffix.lower() != ".pdf":
        raise UserError(f"--out {name}: this writes a PDF; give a name ending in .pdf")
    return output_file(name)


def _print(args: argparse.Namespace) -> int:
    from vision.markers import MarkerMap
    from vision.printing import cards_pdf

    out = _pdf_file(args.out)
    with writing(out):
        pages = cards_pdf(args.game, out, args.paper)
    print(f"wrote {out} ({pages} pages); print at 100 % (actual size)")
    if MarkerMap.for_game(args.game).provisional:
        print(
            "note: some marker ids are provisional; "
            "pin them in vision/marker_ids.toml before printing for keeps"
        )
    return 0


def _mat(args: argparse.Namespace) -> int:
    from vision.printing import mat_pdf

    out = _pdf_file(args.out)
    with writing(out):
        pages = mat_pdf(args.game, out, args.paper)
    print(f"wrote {out} ({pages} sheets); print at 100 % and tape the sheets together")
    return 0


def _images(args: argparse.Namespace) -> int:
    from vision.printing import card_images

    out = output_folder(args.out)
    with writing(out):
        paths = card_images(args.game, out)
    print(f"wrote {len(paths)} images to {out}")
    return 0
