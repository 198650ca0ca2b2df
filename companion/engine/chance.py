"""Chance points and the three ways to answer them.

Whenever the rules reveal something hidden, the game stops at a :class:`ChancePoint` that says
what must be revealed and which outcomes are possible, weighted by what remains (weights are
integer counts, so probabilities are exact). The caller answers with ``Action.reveal(outcome)``
chosen by one of the resolvers:

- :class:`SeededResolver`: the engine's seeded RNG (cabinet mode, simulations);
- :class:`ScriptedResolver`: a fixed list of outcomes (tests);
- :class:`ReportedResolver`: what the camera or a player reported (table mode); an outcome the
  chance point does not allow is refused with :class:`ImpossibleOutcomeError`.

>>> point = ChancePoint("deal", "the card for row 1, column 2", (("bar", 3), ("cherry", 20)))
>>> point.probability("bar")
Fraction(3, 23)
>>> ScriptedResolver(["cherry"]).resolve(point)
'cherry'
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter
from typing import Protocol

from companion.engine.errors import EngineError, ImpossibleOutcomeError
from companion.engine.situation import excerpt

#: an outcome's name (sorting ``(name, count)`` pairs by name alone: the names of a dict of
#: counts are unique, and a deck kept in name order is sorted in one pass)
_name = itemgetter(0)


@dataclass(frozen=True)
class ChancePoint:
    """Something hidden that must be revealed now.

    ``kind`` is a short machine id (``deal``, ``roll``, ``draw``, ``flip``); ``what`` says in
    words what the table reveals; ``outcomes`` pairs each possible outcome with a positive
    integer weight (its count among what remains).
    """

    kind: str
    what: str
    outcomes: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        if not self.outcomes:
            raise EngineError(f"a chance point with no possible outcome: {self.what}")
        weights = [weight for _, weight in self.outcomes]
        if min(weights) <= 0:
            raise EngineError(f"a chance point with an impossible outcome listed: {self.what}")
        # Asked at every reveal: computed once (the point is immutable).
        object.__setattr__(self, "_total", sum(weights))

    @classmethod
    def from_counts(cls, kind: str, what: str, counts: Mapping[str, int]) -> ChancePoint:
        """The point whose outcomes are what ``counts`` holds (cards left in a deck by id),
        sorted by outcome; an outcome with a count of 0 is left out.

        Games build one at every reveal from a dict of positive counts: then the weights are
        checked and summed by the dict's own ``min`` and ``sum``, not outcome by outcome. A dict
        whose names are already in order (a deck dealt from in id order) sorts fastest.
        """
        values = counts.values()
        if not counts or min(values) <= 0:
            return cls(kind, what, tuple(sorted((name, n) for name, n in counts.items() if n)))
        point = object.__new__(cls)
        # Frozen: the fields are written straight into the new instance's __dict__ (what the
        # dataclass's own __init__ does through object.__setattr__, at half the cost: this
        # runs at every card revealed in every simulated game).
        fields = point.__dict__
        fields["kind"] = kind
        fields["what"] = what
        fields["outcomes"] = tuple(sorted(counts.items(), key=_name))  # names are unique
        fields["_total"] = sum(values)
        return point

    @classmethod
    def from_deck(cls, kind: str, what: str, deck: Mapping[str, int]) -> ChancePoint:
        """:meth:`from_counts` for a deck the engine keeps itself, as a dict whose every count
        is 1 or more (a card id leaves it with its last copy), which is therefore not looked
        through again for a count of 0 at every reveal. An empty deck is refused as before.
        """
        if not deck:
            return cls.from_counts(kind, what, deck)
        point = object.__new__(cls)
        fields = point.__dict__  # as from_counts
        fields["kind"] = kind
        fields["what"] = what
        fields["outcomes"] = tuple(sorted(deck.items(), key=_name))
        fields["_total"] = sum(deck.values())
        return point

    @property
    def total(self) -> int:
        """The sum of all weights."""
        total: int = self._total  # type: ignore[attr-defined]
        return total

    def weight(self, outcome: str) -> int:
        """The weight of ``outcome`` (0 when it cannot happen)."""
        for name, weight in self.outcomes:
            if name == outcome:
                return weight
        return 0

    def probability(self, outcome: str) -> Fraction:
        """The exact probability of ``outcome``."""
        return Fraction(self.weight(outcome), self.total)

    def probabilities(self) -> dict[str, Fraction]:
        """Every outcome with its exact probability; they sum to 1."""
        total = self.total
        return {name: Fraction(weight, total) for name, weight in self.outcomes}

    def check(self, outcome: str, ever: Collection[str] | None = None) -> None:
        """Raise :class:`ImpossibleOutcomeError` unless ``outcome`` can happen here.

        ``ever`` is everything this kind of point can ever reveal in the game, when the game
        says: then a used-up outcome is "none is left" and one never in the game is named as
        such, instead of the one claiming the other.

        >>> point = ChancePoint("deal", "the card for row 1, column 2", (("bar", 3),))
        >>> point.check("lemon", ever=("bar", "cherry"))
        Traceback (most recent call last):
        ...
        companion.engine.errors.ImpossibleOutcomeError: there is no 'lemon' in this game ...
        """
        if self.weight(outcome) == 0:
            possible = ", ".join(name for name, _ in self.outcomes)
            quoted = excerpt(outcome)
            if ever is None:
                why = f"{quoted} cannot be {self.what} now"
            elif outcome in ever:
                why = f"{quoted} cannot be {self.what}: none is left"
            else:
                why = f"there is no {quoted} in this game"
            raise ImpossibleOutcomeError(f"{why} (possible now: {possible}); "
                                         f"check {self.what} and report it again")


class Resolver(Protocol):
    """Chooses the outcome of a chance point."""

    def resolve(self, point: ChancePoint) -> str:
        """Return one of ``point``'s outcomes."""
        ...


class SeededResolver:
    """Draws outcomes with the engine's seeded RNG, weighted by what remains.

    >>> point = ChancePoint("roll", "die 1", (("red", 1), ("black", 3)))
    >>> SeededResolver(7).resolve(point) == SeededResolver(7).resolve(point)
    True
    """

    def __init__(self, seed: int | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        # randrange(n) is _randbelow(n) after argument checks (CPython 3.11-3.13): the same
        # draws, without the checks at every reveal of every simulated game. For a plain
        # Random that is getrandbits(n.bit_length()) until the bits fall below n, which
        # resolve then does itself, without one more call per reveal.
        self._below = self.rng._randbelow  # type: ignore[attr-defined]
        with_bits = getattr(random.Random, "_randbelow_with_getrandbits", 0)
        self._bits = self.rng.getrandbits if getattr(self._below, "__func__", None) is with_bits else None

    def resolve(self, point: ChancePoint) -> str:
        """Pick an outcome with probability proportional to its weight."""
        total: int = point._total  # type: ignore[attr-defined]
        if self._bits is not None:  # Random._randbelow_with_getrandbits, spelt out
            size = total.bit_length()
            ticket = self._bits(size)
            while ticket >= total:
                ticket = self._bits(size)
        else:
            ticket = self._below(total)
        for name, weight in point.outcomes:
            if ticket < weight:
                return name
            ticket -= weight
        raise AssertionError("unreachable: ticket beyond total weight")


class ScriptedResolver:
    """Answers chance points from a fixed script, checking each answer is possible."""

    def __init__(self, outcomes: Iterable[str]) -> None:
        self.script: deque[str] = deque(outcomes)

    def resolve(self, point: ChancePoint) -> str:
        """Return the next scripted outcome; raises if the script is used up or impossible."""
        if not self.script:
            raise EngineError(f"the script has no outcome left for {point.what}")
        outcome = self.script.popleft()
        point.check(outcome)
        return outcome


class ReportedResolver:
    """Answers chance points with what the table reported (camera or buttons).

    Reports are queued with :meth:`report`; an impossible report is refused at once, so the
    flow can ask the table to check the card instead of paying on a misread.
    """

    def __init__(self) -> None:
        self.pending: deque[str] = deque()

    def report(self, outcome: str, point: ChancePoint) -> None:
        """Queue ``outcome`` as the answer to ``point`` after checking it can happen."""
        point.check(outcome)
        self.pending.append(outcome)

    def resolve(self, point: ChancePoint) -> str:
        """Return the oldest report; raises if the table has not reported yet."""
        if not self.pending:
            raise EngineError(f"waiting for the table to reveal {point.what}")
        outcome = self.pending.popleft()
        point.check(outcome)
        return outcome
