"""Turn per-frame readings into stable zone observations.

Two rules decide when a zone's reading counts:

- ``agree=N`` (what the daemon uses): the last N frames read the same thing there, and a card
  did not move between them (its centre within ``rest_px``): a card still sliding, a hand over
  it (its marker hidden: unreadable) or an unsure read never counts. Between agreements (a
  card arriving, one bad frame) the zone is ``settling`` for up to ``window`` frames, then
  becomes ``unsure``. It never repeats its last agreed card there: the frame no longer shows
  that card lying still, and a card the flow already knew, repeated while the new one is still
  sliding in or under a hand, would be taken as the new card once the dealer said "cards down"
  (``bench misreads``: all 7 wrong reveals in 1,000 Bandit cards were such a repeat).
- without ``agree``: the same card in most of the last ``window`` frames (a strict majority).

A card is reported ``stable``; ``changed`` on the frame it first counts with a different card
than before; ``empty`` when nothing lies there; ``settling`` (agree rule) between agreements;
``unsure`` otherwise (flicker, an unreadable card, two cards in one zone, another game's card).

>>> tracker = ZoneTracker(["r0c0"], window=3)    # doctest: +SKIP
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from vision.reader import Reading, Sighting

#: What one frame saw in a zone: a card id, "" for nothing, or "?" for something unsure.
_UNSURE = "?"
_EMPTY = ""
#: How far (image px) a card's centre may move between frames and still be at rest: a card lying
#: still moves up to ~2.7 px (measured: the simulated table through the rough camera, one marker
#: seen in one frame and both in the next); a card slid at 150 px/s or faster moves more.
REST_PX = 5.0


@dataclass(frozen=True)
class Observation:
    """A zone's state: ``status`` is "stable", "changed", "empty", "settling" or "unsure"."""

    zone: str
    status: str
    card_id: str | None
    card_ids: tuple[str, ...] = ()


class ZoneTracker:
    """Per zone: ``agree`` consecutive frames at rest, or a majority of the last ``window``."""

    def __init__(self, zones: Iterable[str], window: int = 5, multi: Iterable[str] = (),
                 agree: int | None = None, rest_px: float = REST_PX) -> None:
        if window < 1 or (agree is not None and agree < 1):
            raise ValueError("window and agree must be at least 1")
        self.window = window
        self.agree = agree
        self.rest_px = rest_px
        self.multi = set(multi)
        self._history: dict[str, deque[str]] = {zone: deque(maxlen=window) for zone in zones}
        self._reported: dict[str, str] = {}
        #: agree rule: per zone, the run of identical readings at rest (value, centres, length)
        #: and how many frames ago it last agreed
        self._runs: dict[str, tuple[str, tuple[tuple[float, float], ...], int]] = {}
        self._since: dict[str, int] = {}

    @classmethod
    def for_game(cls, game_id: str, window: int = 5, agree: int | None = None) -> ZoneTracker:
        """A tracker over every zone of ``game_id``'s mat."""
        from vision.mats import mat_layout

        layout = mat_layout(game_id)
        return cls([z.name for z in layout.zones], window, [z.name for z in layout.zones if z.multi],
                   agree=agree)

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
        if self.agree is not None:
            return {zone: self._agreed(zone, reading, game) for zone in self._history}
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

    def _agreed(self, zone: str, reading: Reading, game: str | None) -> Observation:
        """The agree rule for one zone (see the module docstring)."""
        assert self.agree is not None
        value = self._seen(zone, reading, game) if reading.mat_found else _UNSURE
        centres = _centres(reading.in_zone(zone)) if value not in (_EMPTY, _UNSURE) else ()
        last, last_centres, run = self._runs.get(zone, (None, (), 0))
        same = last == value and _at_rest(last_centres, centres, self.rest_px)
        run = run + 1 if same else 1
        self._runs[zone] = (value, centres, run)
        if run >= self.agree and value != _UNSURE:
            self._since[zone] = 0
            previous = self._reported.get(zone)
            self._reported[zone] = value
            return self._observation(zone, value, "changed" if previous != value else "stable")
        if run >= self.agree:  # unreadable, frame after frame: say so at once, and hold that
            self._since[zone] = self.window
            return Observation(zone, "unsure", None)
        since = self._since[zone] = self._since.get(zone, self.window) + 1
        if zone not in self._reported or since > self.window:
            return Observation(zone, "unsure", None)
        return Observation(zone, "settling", None)  # in between: no card, and no alarm yet

    def _observation(self, zone: str, value: str, status: str) -> Observation:
        if value == _EMPTY:
            return Observation(zone, "empty", None)
        ids = tuple(value.split("|")) if zone in self.multi else (value,)
        return Observation(zone, status, None if zone in self.multi else value, ids)


def _centres(cards: Sequence[Sighting]) -> tuple[tuple[float, float], ...]:
    """Each card's centre in the image, in a stable order (by card id, then position)."""
    points = []
    for card in cards:
        xs = [x for x, _ in card.corners] or [0.0]
        ys = [y for _, y in card.corners] or [0.0]
        points.append((str(card.card_id), sum(xs) / len(xs), sum(ys) / len(ys)))
    return tuple((x, y) for _, x, y in sorted(points))


def _at_rest(before: tuple[tuple[float, float], ...], now: tuple[tuple[float, float], ...],
             tolerance: float) -> bool:
    """Whether every card lies where it lay a frame ago (within ``tolerance`` px)."""
    if len(before) != len(now):
        return False
    return all(abs(ax - bx) <= tolerance and abs(ay - by) <= tolerance
               for (ax, ay), (bx, by) in zip(before, now, strict=True))
