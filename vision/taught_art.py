"""A game's taught deck as card art for the simulated table (``companion demo --taught``).

The taught-face store (:mod:`vision.enrolled`) files pictures by face; a face stands for every
card id identical in play (:func:`vision.teachable.teachable_faces`). The simulated table lays
cards by card id, so each card id gets the pictures of its face: the demo then deals the group's
own cards, with their real art, and the camera thread must read them as it would at the table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.errors import UserError


def taught_art(game_id: str, store: Path | None = None) -> dict[str, list[np.ndarray]]:
    """Card id -> the taught pictures of its face (BGR, portrait), for the faces taught so far."""
    from vision.enrolled import load_picture, taught_pictures
    from vision.taught_store import default_store
    from vision.teachable import teachable_faces

    # Only the pictures: building a reading deck (thumbnails, keypoints) would read each twice.
    pictures = taught_pictures((store or default_store()) / game_id)
    art: dict[str, list[np.ndarray]] = {}
    for face in teachable_faces(game_id):
        paths = pictures.get(face.face_id, [])
        if not paths:
            continue
        images = [load_picture(path) for path in paths]
        for card_id in face.card_ids:
            art[card_id] = images
    return art


def taught_deck_or_refuse(game_id: str, title: str, store: Path | None = None) -> dict[str, list[np.ndarray]]:
    """:func:`taught_art`, or one line saying how to teach the deck when nothing is taught."""
    from vision.taught_store import default_store

    art = taught_art(game_id, store)
    if not art:
        where = (store or default_store()) / game_id
        raise UserError(
            f"no taught {title} cards in {where}: teach them first (menu > Teach cards, or "
            f"'companion vision enroll {game_id} CARD_ID=PHOTO ...')"
        )
    return art
