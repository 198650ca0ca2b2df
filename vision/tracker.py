"""Turn per-frame readings into stable zone observations.

A zone's card is reported ``stable`` once the same card has been seen there in most of the
last ``window`` frames (a strict majority); ``changed`` on the frame it first becomes stable
with a different card than before; ``empty`` when most recent frames saw nothing there;
``unsure`` otherwise (flicker, an unreadable card, two cards in one zone, another game's card).

>>> tracker = ZoneTracker(["r0c0"], window=3)    # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass

from vision.reader import Reading

#: What one frame saw in a zone: a card id, "" for nothing, or "?" for something unsure.
_UNSURE = "?"
_EMPTY = ""


@dataclass(frozen=True)
class Observation:
    """A zone's state: ``status`` is "stable", "changed", "empty" or "unsure"."""

    zone: str
    status: str
    card_id: str | None
    card_ids: tuple[str, ...] = ()


class ZoneTracker:
    """Votes over the last ``window`` readings per zone."""

    def __init__(self, zones: Iterable[str], window: int = 5, multi: Iterable[str] = ()) -> None:
        if window < 1:
            raise ValueError("window must be at least 1")
        self.window = window
        self.multi = set(multi)
        self._history: dict[str, deque[str]] = {zone: deque(maxlen=window) for zone in zones}
        self._reported: dict[str, str] = {}

    @classmethod
    def for_game(cls, game_id: str, window: int = 5) -> ZoneTracker:
        """A tracker over every zone of ``game_id``'s mat."""
        from vision.mats import mat_layout

        layout = mat_layout(game_id)
        return cls([z.name for z in layout.zones], window, [z.name for z in layout.zones if z.multi])

    def _seen(self, zone: str, reading: Reading, game: str | None) -> str:
        cards = reading.in_zone(zone)
        if not cards:
            return _EMPTY
        if any(card.card_id is None or (game is not None and card.game != game) for card in cards):
            return _UNSURE
        if zone in self.multi:
            return "|".join(sorted(str(card.card_id) for card in cards))
        if len(cards) > 1:
            return _UNSURE  # two cards in one stack's place: which one counts is not ours to guess
        return str(cards[0].card_id)

    def update(self, reading: Reading, game: str | None = None) -> dict[str, Observation]:
        """Add one frame's reading; returns every zone's observation.

        ``game``: the current game; a card of any other game in a zone makes that zone unsure.
        Without a mat no zone can be seen: every zone is unsure.
        """
        out: dict[str, Observation] = {}
        for zone, history in self._history.items():
            history.append(self._seen(zone, reading, game) if reading.mat_found else _UNSURE)
            value, votes = Counter(history).most_common(1)[0]
            if votes * 2 <= self.window or value == _UNSURE:
                out[zone] = Observation(zone, "unsure", None)
                continue
            previous = self._reported.get(zone)
            self._reported[zone] = value
            if value == _EMPTY:
                out[zone] = Observation(zone, "empty", None)
                continue
            ids = tuple(value.split("|")) if zone in self.multi else (value,)
            status = "changed" if previous != value else "stable"
            out[zone] = Observation(zone, status, None if zone in self.multi else value, ids)
        return out
