"""Events: what ``apply`` reports happened, one event type per happening.

Events are frozen dataclasses; ``to_dict`` gives the JSON form the journal, the screen and the
CLI use (``{"type": "JackpotHit", ...}``). Games add their own event types next to their rules.

>>> JackpotHit(player=0, symbol="bar", amount=200).to_dict()
{'type': 'JackpotHit', 'player': 0, 'symbol': 'bar', 'amount': 200}
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    """Base of all events."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the class name as ``type`` plus every field."""
        data: dict[str, Any] = {"type": type(self).__name__}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class ChanceResolved(Event):
    """Something hidden was revealed: ``what`` (in words) came out as ``outcome``."""

    kind: str
    what: str
    outcome: str


@dataclass(frozen=True)
class TurnStarted(Event):
    """It is now ``player``'s turn."""

    player: int


@dataclass(frozen=True)
class TurnEnded(Event):
    """``player``'s turn is over."""

    player: int


@dataclass(frozen=True)
class JackpotHit(Event):
    """``player`` hit a jackpot of ``symbol`` worth ``amount`` (coins, chips or points)."""

    player: int
    symbol: str
    amount: int


@dataclass(frozen=True)
class CoinsPaid(Event):
    """``amount`` coins/chips/points moved from ``source`` to ``player``'s score."""

    player: int
    amount: int
    source: str


@dataclass(frozen=True)
class CardTaken(Event):
    """``player`` took ``card`` (a card id or symbol) from ``source``."""

    player: int
    card: str
    source: str


@dataclass(frozen=True)
class RoundEnded(Event):
    """Round ``round`` is over with these per-player round scores."""

    round: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over: final scores and the winning seat(s); several winners share."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


def event_note(event: Event) -> str | None:
    """What a transcript reader cares about in an event (jackpots, round ends, the end), or None.

    ``companion replay`` and the scoreboard print these under an action's line.

    >>> event_note(JackpotHit(player=0, symbol="bar", amount=200))
    'JACKPOT bar for player 1: 200'
    """
    if isinstance(event, JackpotHit):
        return f"JACKPOT {event.symbol} for player {event.player + 1}: {event.amount}"
    if isinstance(event, RoundEnded):
        return f"round {event.round} over: {', '.join(map(str, event.scores))}"
    if isinstance(event, GameEnded):
        return "game over"
    return None
