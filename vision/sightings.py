"""What the reader reports: each card seen (:class:`Sighting`) and a whole frame (:class:`Reading`)."""

from __future__ import annotations

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


@dataclass(frozen=True)
class Reading:
    """Everything read from one frame."""

    cards: list[Sighting] = field(default_factory=list)
    mat_found: bool = False

    def in_zone(self, zone: str) -> list[Sighting]:
        """The sightings whose centre lies in ``zone``."""
        return [card for card in self.cards if card.zone == zone]
