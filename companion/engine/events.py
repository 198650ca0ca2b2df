"""Events: what ``apply`` reports happened, one event type per happening.

Events are frozen dataclasses made with :func:`event`; ``to_dict`` gives the JSON form the
journal, the screen and the CLI use (``{"type": "JackpotHit", ...}``). Games add their own event
types next to their rules.

>>> JackpotHit(player=0, symbol="bar", amount=200).to_dict()
{'type': 'JackpotHit', 'player': 0, 'symbol': 'bar', 'amount': 200}
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, dataclass
from typing import Any, TypeVar, dataclass_transform

E = TypeVar("E", bound=type)


@dataclass_transform(frozen_default=True)
def event(cls: E) -> E:
    """Class decorator for an event type: ``@dataclass(frozen=True)``, with a faster ``__init__``.

    A frozen dataclass's own ``__init__`` stores each field through ``object.__setattr__``;
    this one writes them straight into the new event's ``__dict__``: the same values in the
    same place, the same equality, hash and immutability afterwards, at a fraction of the cost
    (the rules make an event at nearly every action of every simulated game). Events have
    plain fields (no defaults), which this relies on.
    """
    made: Any = dataclass(frozen=True)(cls)  # the same class, now a frozen dataclass
    fields = dataclasses.fields(made)
    if any(f.default is not MISSING or f.default_factory is not MISSING or not f.init for f in fields):
        raise TypeError(f"{cls.__name__}: an event's fields are plain (no defaults): use @dataclass")
    names = [f.name for f in fields]
    local = "stored"
    while local in names or local == "self":  # a field may be called anything (DiceRerolled.values)
        local += "_"
    stores = "".join(f"    {local}[{name!r}] = {name}\n" for name in names) or "    pass\n"
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {', '.join(names)}):\n    {local} = self.__dict__\n{stores}", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    init.__doc__ = made.__init__.__doc__
    made.__init__ = init
    return cls


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


@event
class ChanceResolved(Event):
    """Something hidden was revealed: ``what`` (in words) came out as ``outcome``."""

    kind: str
    what: str
    outcome: str


@event
class TurnStarted(Event):
    """It is now ``player``'s turn."""

    player: int


@event
class TurnEnded(Event):
    """``player``'s turn is over."""

    player: int


@event
class JackpotHit(Event):
    """``player`` hit a jackpot of ``symbol`` worth ``amount`` (coins, chips or points)."""

    player: int
    symbol: str
    amount: int


@event
class CoinsPaid(Event):
    """``amount`` coins/chips/points moved from ``source`` to ``player``'s score."""

    player: int
    amount: int
    source: str


@event
class CardTaken(Event):
    """``player`` took ``card`` (a card id or symbol) from ``source``."""

    player: int
    card: str
    source: str


@event
class RoundEnded(Event):
    """Round ``round`` is over with these per-player round scores."""

    round: int
    scores: tuple[int, ...]


@event
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
