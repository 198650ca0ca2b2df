"""Identify cards in a single image, for one game or for any game (``companion vision identify``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.markers import MarkerMap, all_marker_owners
from vision.reader import CardReader, Sighting


def identify_any(
    image: np.ndarray, game_id: str | None, use_mat: bool = True, store: Path | None = None
) -> list[Sighting]:
    """The cards in ``image``. With ``game_id``, that game's reader (its mat, its enrolled cards);
    without, markers of every game are reported with their own game (no zones)."""
    from companion.engine import all_games
    from companion.errors import UserError
    from vision.enrolled import EnrolledDeck

    if game_id is None:
        # Any game with cards will do as the host: foreign markers are reported with their game.
        hosts = [g for g, cls in all_games().items() if _has_cards(cls)]
        if not hosts:
            raise UserError("no game with cards is installed")
        reader = CardReader(hosts[0], use_mat=False)
        if use_mat:
            # A game's mat in the picture names the game (and gives zones and millimetres).
            _corners, ids = reader.find_markers(_grey(image))
            owners = all_marker_owners()
            for game in hosts:
                if any(owners.get(i) == game and i in MarkerMap.mat_ids(game) for i in ids):
                    return CardReader(game, use_mat=True).read(image).cards
        return reader.read(image).cards
    enrolled = EnrolledDeck(game_id, store)
    try:
        reader = CardReader(game_id, use_mat=use_mat, enrolled=enrolled)
    except UserError:
        reader = CardReader(game_id, use_mat=False, enrolled=enrolled)
    return reader.read(image).cards


def _grey(image: np.ndarray) -> np.ndarray:
    import cv2

    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _has_cards(cls: object) -> bool:
    try:
        return bool(cls.card_faces())  # type: ignore[attr-defined]
    except Exception:  # a rules module still being written: skip it as a host
        return False
