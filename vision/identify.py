"""Identify cards in a single image, for one game or for any game (``companion vision identify``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
        return CardReader(hosts[0], use_mat=False).read(image).cards
    enrolled = EnrolledDeck(game_id, store)
    try:
        reader = CardReader(game_id, use_mat=use_mat, enrolled=enrolled)
    except UserError:
        reader = CardReader(game_id, use_mat=False, enrolled=enrolled)
    return reader.read(image).cards


def _has_cards(cls: object) -> bool:
    try:
        return bool(cls.card_faces())  # type: ignore[attr-defined]
    except Exception:  # a rules module still being written: skip it as a host
        return False
