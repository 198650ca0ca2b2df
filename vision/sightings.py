"""What the reader reports: each card seen (:class:`Sighting`) and a whole frame (:class:`Reading`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field


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
        x, y = _middle(self.corners)
        ends = self.corners[1:] + self.corners[:1]
        long_side = max(math.dist(a, b) for a, b in zip(self.corners, ends, strict=True))
        if math.dist((x, y), _middle(other.corners)) < long_side / 3:
            return True
        inside = False
        for (x0, y0), (x1, y1) in zip(other.corners, other.corners[1:] + other.corners[:1], strict=True):
            # A ray to the right from the middle crosses this side: inside flips.
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
        return inside


@dataclass(frozen=True)
class Reading:
    """Everything read from one frame."""

    cards: list[Sighting] = field(default_factory=list)
    mat_found: bool = False

    def in_zone(self, zone: str) -> list[Sighting]:
        """The sightings whose centre lies in ``zone``."""
        return [card for card in self.cards if card.zone == zone]


def _middle(corners: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """The mean of an outline's corners."""
    return sum(x for x, _y in corners) / len(corners), sum(y for _x, y in corners) / len(corners)
