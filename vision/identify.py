"""Readers for a game with its taught faces, and identifying cards in single images.

:func:`reader_for_game` is how ``vision watch``, ``vision identify --game`` and the daemon's
camera thread build their reader: the game's printed marker cards, its mat when it has one,
and the faces taught for it (:mod:`vision.enrolled`), all in one pass.
"""

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
    return reader_for_game(game_id, use_mat, store).read(image).cards


def reader_for_game(
    game_id: str, use_mat: bool = True, store: Path | None = None, skip_damaged: bool = False
) -> CardReader:
    """The reader for ``game_id``: markers, its mat (when asked and it has one) and the faces
    taught for it in ``store`` (default: :func:`vision.taught_store.default_store`); ``skip_damaged``:
    a damaged taught picture is left out (``CardReader.damaged_pictures``) rather than refused."""
    from companion.errors import UserError
    from vision.enrolled import EnrolledDeck

    enrolled = EnrolledDeck(game_id, store, skip_damaged=skip_damaged)
    try:
        return CardReader(game_id, use_mat=use_mat, enrolled=enrolled)
    except UserError:  # a game without a mat
        return CardReader(game_id, use_mat=False, enrolled=enrolled)


def _grey(image: np.ndarray) -> np.ndarray:
    import cv2

    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _has_cards(cls: object) -> bool:
    try:
        return bool(cls.card_faces())  # type: ignore[attr-defined]
    except Exception:  # a rules module still being written: skip it as a host
        return False
