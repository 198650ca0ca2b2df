"""``companion bench other-decks``: the ``realcards.other_decks`` lines alone (:mod:`vision.other_decks`).

Decks printed unlike the realcards pinochle deck (full-bleed art, dark faces, coloured borders,
rounded corners), taught from whole photos and read on table squares cut from the realcards
photos; ``companion bench realcards`` prints the same lines unless given ``--no-other-decks``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

NAME = "other-decks"
HELP = "decks printed unlike the realcards one, taught and read on its photos' tables (also in realcards)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: where the realcards photos are (their tables), photos per style, the seed."""
    parser.add_argument("--photos", type=Path, default=None, help="folder of photos, a .xml label by each")
    parser.add_argument("--scenes", type=int, default=24, help="photos read per style")
    parser.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One ``realcards.other_decks`` line per style (as ``companion bench realcards`` prints)."""
    import cv2

    from companion.bench.realcards import default_photos
    from vision.labelled_photos import load_photos
    from vision.other_decks import figures

    cv2.setNumThreads(1)
    yield from figures(load_photos(args.photos or default_photos()), args.scenes, args.seed)
