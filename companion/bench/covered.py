"""``companion bench covered``: cards lying beneath another, named from the strip that shows
(:mod:`vision.covered_figures`), on the realcards deck's art and tables."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path
from typing import Any

NAME = "covered"
HELP = "cards beneath another named from the strip that shows: right, wrong, untaught and look-alikes named"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: where the realcards photos are (their single cards' art and their tables)."""
    parser.add_argument("--photos", type=Path, default=None, help="folder of IMG_*.JPG with .xml labels")


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One ``covered`` line per blur: the single-card photos' cut-outs (the enrolment path),
    every other one taught, the rest read beneath a card; then one ``covered.second_digit`` line
    per blur (synthetic faces with two-digit indices and their never-taught look-alikes, on the
    photos' tables)."""
    import cv2

    from companion.bench.realcards import RANKS, capture_singles, default_photos
    from vision.covered_figures import figures, second_digit
    from vision.labelled_photos import load_photos
    from vision.other_decks import table_squares

    cv2.setNumThreads(1)
    photos = load_photos(args.photos or default_photos())
    singles = [photo for photo in photos if len(photo.cards) == 1]
    cutouts = [(RANKS[rank], cutout) for rank, cutout in capture_singles(singles).cutouts]
    tables = table_squares(photos)
    yield from figures(cutouts, tables)
    yield from second_digit(tables)
