"""Labelled photos of a real deck (``shared/realcards`` and any set labelled the same way): each
photo with a Pascal VOC ``.xml`` beside it, one ``<object>`` per card, its ``<name>`` the rank
and ``<bndbox>`` its box. Read by ``companion bench realcards``, ``bench covered`` and
``bench other-decks`` (whose tables are cut from these photos)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

#: The ranks of the pinochle deck photographed.
DECK_RANKS = ("nine", "ten", "jack", "queen", "king", "ace")
#: A label's rank as written (lower case) -> the rank.
RANK_NAMES = {rank: rank for rank in DECK_RANKS} | {
    "9": "nine",
    "10": "ten",
    "j": "jack",
    "q": "queen",
    "k": "king",
    "a": "ace",
}
#: Photo files the bench reads (suffix in any case).
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


@dataclass(frozen=True)
class Photo:
    """One labelled photo: its path and (rank, (x0, y0, x1, y1)) per card."""

    path: Path
    cards: tuple[tuple[str, tuple[int, int, int, int]], ...]


def load_photos(folder: Path) -> list[Photo]:
    """Every labelled photo in ``folder`` (JPEG, PNG, BMP or WebP, any case of suffix, each with
    a Pascal VOC ``.xml`` beside it), in name order. Ranks are read in any case, and as 9, 10,
    J, Q, K, A too (another camera's photos, labelled by another hand)."""
    from companion.errors import UserError

    if not folder.is_dir():
        raise UserError(f"no photos at {folder}: give --photos DIR (shared/realcards/photos)")
    photos = []
    images = [path for path in folder.iterdir() if path.suffix.lower() in PHOTO_SUFFIXES and path.is_file()]
    for image in sorted(images, key=lambda path: path.name):
        label = image.with_suffix(".xml")
        if not label.is_file():
            continue
        cards = []
        try:
            objects = list(ElementTree.parse(label).getroot().iter("object"))
        except ElementTree.ParseError as error:
            raise UserError(f"{label}: not a Pascal VOC label file ({error}); fix or remove it") from None
        for obj in objects:
            box = obj.find("bndbox")
            written = obj.findtext("name", "").strip()
            name = RANK_NAMES.get(written.lower())
            if name is None:
                raise UserError(
                    f"{label}: '{written}' is not a rank this deck has; label cards "
                    f"{', '.join(DECK_RANKS)} (or 9, 10, J, Q, K, A)"
                )
            if box is None:
                raise UserError(f"{label}: the {written} has no <bndbox>; box every card or remove it")
            x0, y0, x1, y1 = (int(float(box.findtext(k, "0"))) for k in ("xmin", "ymin", "xmax", "ymax"))
            cards.append((name, (x0, y0, x1, y1)))
        photos.append(Photo(image, tuple(cards)))
    if not photos:
        raise UserError(f"no labelled photos (a photo with its Pascal VOC .xml beside it) in {folder}")
    return photos
