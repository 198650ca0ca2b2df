"""ArUco markers: the dictionary, the fixed id map (``marker_ids.toml``) and the detectors.

Every printed face carries one marker id (two copies, opposite corners); every mat carries four
corner ids. The map is a data file so it never changes by accident: printed decks carry it.

>>> ids = MarkerMap.for_game("bandit")        # doctest: +SKIP
>>> ids.face_for(13).face_id                   # doctest: +SKIP
'cherry'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import UserError

ID_FILE = Path(__file__).with_name("marker_ids.toml")
DICTIONARY_ID = cv2.aruco.DICT_4X4_250
#: Cells across a marker including its one-cell black border (4x4 data bits + border).
MARKER_CELLS = 6


@lru_cache(maxsize=1)
def dictionary() -> Any:
    """The ArUco dictionary every card and mat uses (DICT_4X4_250)."""
    return cv2.aruco.getPredefinedDictionary(DICTIONARY_ID)


@lru_cache(maxsize=1)
def _id_file() -> dict[str, Any]:
    with ID_FILE.open("rb") as handle:
        return tomllib.load(handle)


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a grey image of ``side_px`` square pixels (black border included)."""
    cell = max(1, side_px // MARKER_CELLS)
    image = cv2.aruco.generateImageMarker(dictionary(), marker_id, cell * MARKER_CELLS, borderBits=1)
    if image.shape[0] != side_px:
        image = cv2.resize(image, (side_px, side_px), interpolation=cv2.INTER_NEAREST)
    return image


@dataclass(frozen=True)
class PrintedSide:
    """What one marker id stands for: a face's front, or a reel side printed on a back."""

    game: str
    card_id: str
    side: str  # "front" | "back"
    symbols: tuple[str, ...]
    provisional: bool = False


@dataclass(frozen=True)
class MarkerMap:
    """The marker ids of one game: mat corners and every printed side of its cards."""

    game: str
    mat: tuple[int, ...]
    sides: dict[int, PrintedSide]

    @classmethod
    def for_game(cls, game_id: str) -> MarkerMap:
        """Build the map from the id file and the engine's ``card_faces()`` for ``game_id``."""
        return _map_for(game_id)

    @staticmethod
    def mat_ids(game_id: str) -> tuple[int, ...]:
        """The four mat corner ids of ``game_id`` (TL, TR, BR, BL), straight from the id file."""
        table = _id_file().get(game_id)
        if not isinstance(table, dict) or len(table.get("mat", [])) != 4:
            raise UserError(f"vision/marker_ids.toml names no mat markers for '{game_id}'")
        return tuple(int(i) for i in table["mat"])

    def id_of(self, card_id: str, side: str = "front") -> int:
        """The marker id printed on ``card_id``'s ``side``; raises KeyError if none."""
        for marker_id, printed in self.sides.items():
            if printed.card_id == card_id and printed.side == side:
                return marker_id
        raise KeyError(f"{self.game}: no marker for card '{card_id}' ({side})")

    def face_for(self, marker_id: int) -> PrintedSide | None:
        """The printed side behind ``marker_id`` in this game, or None."""
        return self.sides.get(marker_id)

    @property
    def provisional(self) -> bool:
        """True when some face's id comes from the pool instead of being pinned."""
        return any(side.provisional for side in self.sides.values())


def back_key(symbols: tuple[str, ...]) -> str:
    """The id-file key of a back (reel side): its symbols joined by '/'."""
    return "/".join(symbols)


@cache
def _map_for(game_id: str) -> MarkerMap:
    from companion.engine import get_game

    table = _id_file().get(game_id)
    if table is None:
        raise UserError(f"vision/marker_ids.toml has no section for game '{game_id}'")
    faces = get_game(game_id).card_faces()
    pinned: dict[str, int] = dict(table.get("cards", {}))
    backs: dict[str, int] = dict(table.get("backs", {}))
    pool = [int(i) for i in table.get("pool", [])]
    used = set(pinned.values()) | set(backs.values()) | set(table.get("mat", []))
    pool = [i for i in pool if i not in used]
    sides: dict[int, PrintedSide] = {}
    for face in faces:
        provisional = face.id not in pinned
        if provisional:
            if not pool:
                raise UserError(
                    f"vision/marker_ids.toml: no free marker id left for {game_id} card '{face.id}'"
                )
            pinned[face.id] = pool.pop(0)
        sides[pinned[face.id]] = PrintedSide(game_id, face.id, "front", tuple(face.symbols), provisional)
        if face.back:
            key = back_key(tuple(face.back))
            if key not in backs:
                if not pool:
                    raise UserError(
                        f"vision/marker_ids.toml: no free marker id left for {game_id} back '{key}'"
                    )
                backs[key] = pool.pop(0)
            sides.setdefault(backs[key], PrintedSide(game_id, key, "back", tuple(face.back)))
    return MarkerMap(game_id, tuple(int(i) for i in table.get("mat", [])), sides)


def all_marker_owners() -> dict[int, str]:
    """Every id named in the id file -> the game that owns it (cards, backs, mat and pool)."""
    owners: dict[int, str] = {}
    for game_id, table in _id_file().items():
        if not isinstance(table, dict):
            continue
        ids = [
            *table.get("mat", []),
            *table.get("pool", []),
            *table.get("cards", {}).values(),
            *table.get("backs", {}).values(),
        ]
        for marker_id in ids:
            owners[int(marker_id)] = game_id
    return owners


def all_mat_marker_ids() -> set[int]:
    """The corner marker ids of every game's mat (printed bigger than a card's markers)."""
    return {
        int(marker_id)
        for table in _id_file().values()
        if isinstance(table, dict)
        for marker_id in table.get("mat", [])
    }
