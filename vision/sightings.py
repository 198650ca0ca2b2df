"""What the reader reports: each card seen (:class:`Sighting`) and a whole frame (:class:`Reading`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass(frozen=True)
class Sighting:
    """One card seen in a frame. ``card_id`` None means a card-shaped object that could not be read.

    ``visible``: the outline of the part that shows of a card partly covered by another (found by
    its face, :mod:`vision.face_search`); None when the card shows whole within ``corners``.
    """

    card_id: str | None
    game: str | None
    symbols: tuple[str, ...]
    zone: str | None
    corners: tuple[tuple[float, float], ...]
    confidence: float
    side: str = "front"
    visible: tuple[tuple[float, float], ...] | None = None

    def to_json(self) -> dict[str, object]:
        """The JSON form used by ``companion vision identify``."""
        shows = (
            {} if self.visible is None else {"visible": [[round(x, 1), round(y, 1)] for x, y in self.visible]}
        )
        return {
            "id": self.card_id,
            "game": self.game,
            "symbols": list(self.symbols),
            "zone": self.zone,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
            "side": self.side,
        } | shows

    def one_card_with(self, other: Sighting) -> bool:
        """Whether this outline and ``other``'s are of one card: their centres closer than a
        third of this one's long side, or this one's middle inside ``other``'s outline (on the
        mat, a card's part joined to its zone's frame lines made a card-shaped outline beside
        it, and the zone, holding two, stayed unsure till something else moved)."""
        mine, theirs = np.array(self.corners, np.float32), np.array(other.corners, np.float32)
        middle = mine.mean(axis=0)
        long_side = float(np.linalg.norm(mine - np.roll(mine, -1, axis=0), axis=1).max())
        if math.dist(middle, theirs.mean(axis=0)) < long_side / 3:
            return True
        spot = (float(middle[0]), float(middle[1]))
        return cv2.pointPolygonTest(theirs.reshape(-1, 1, 2), spot, False) >= 0


@dataclass(frozen=True)
class Reading:
    """Everything read from one frame."""

    cards: list[Sighting] = field(default_factory=list)
    mat_found: bool = False

    def in_zone(self, zone: str) -> list[Sighting]:
        """The sightings whose centre lies in ``zone``."""
        return [card for card in self.cards if card.zone == zone]
