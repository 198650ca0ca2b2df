"""The odds advisor: for every possible flip, the exact chance that it makes a jackpot.

A pure function of what the table can see and count: the three discard tops, the reel side
on top of each pile (``None`` for an empty pile), and ``unknown``, the cards whose front is
not known yet (every card still in a reel pile), by face id ``front@reel-side``.

Why that is exact: nobody sees the piles' order, so every card of one reel side whose front is
unknown is equally likely to be the one on top of a pile showing that reel side. A flipped
card therefore reveals ``front`` with weight = unknown cards of (its reel side, that front).
Two cards with the same reel side are drawn without replacement; with different reel sides
they come from different groups and are independent.

>>> from fractions import Fraction
>>> unknown = {"apple@apple-cherry": 8, "cherry@apple-cherry": 6, "genie@carpet-genie": 1,
...            "carpet@carpet-genie": 3}
>>> odds = flip_odds(["apple", "apple", "cherry"], ["apple-cherry", None, "carpet-genie"],
...                  unknown, {"apple": 1, "cherry": 2, "carpet": 5, "genie": 7})
>>> best = max(odds, key=lambda o: o.jackpot)
>>> str(best.action), best.jackpot
('flip 0 2', Fraction(4, 7))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

from companion.engine.actions import Action
from companion.engine.games.mega_jackpot.components import DISCARDS, jackpot_symbol, split_face

#: one flip: (pile, discard) for each card moved; two moves use two piles and two discards
Moves = tuple[tuple[int, int], ...]


def flip_choices(pile_sides: Sequence[str | None]) -> list[Moves]:
    """Every legal flip: one card (any non-empty pile onto any discard) or two (two different
    piles onto two different discards), lower pile first.

    >>> len(flip_choices(["apple-cherry", "apple-genie", "cherry-genie"]))
    27
    >>> flip_choices(["apple-cherry", None, None])
    [((0, 0),), ((0, 1),), ((0, 2),)]
    """
    piles = [pile for pile, side in enumerate(pile_sides) if side is not None]
    choices: list[Moves] = [((pile, discard),) for pile in piles for discard in range(DISCARDS)]
    for first, second in combinations(piles, 2):
        for to_first in range(DISCARDS):
            for to_second in range(DISCARDS):
                if to_first != to_second:
                    choices.append(((first, to_first), (second, to_second)))
    return choices


@cache
def flip_actions(open_piles: tuple[bool, ...]) -> tuple[Action, ...]:
    """The flip actions when the piles marked True have cards (cached: asked at every decision)."""
    sides = ["open" if is_open else None for is_open in open_piles]
    return tuple(flip_action(moves) for moves in flip_choices(sides))


def flip_action(moves: Moves) -> Action:
    """The action text of a flip: ``flip 0 2`` or ``flip 0 2 1 0``."""
    return Action.of("flip", *(n for move in moves for n in move))


def front_weights(side: str, unknown: Mapping[str, int], taken: str | None = None) -> dict[str, int]:
    """What a card with reel side ``side`` may reveal, weighted by the unknown cards left
    (``taken``: a front already drawn from the same group in this flip)."""
    weights: dict[str, int] = {}
    for face, count in unknown.items():
        front, face_side = split_face(face)
        if face_side == side:
            left = count - (1 if front == taken else 0)
            if left > 0:
                weights[front] = left
    return weights


def landings(moves: Moves, pile_sides: Sequence[str | None],
             unknown: Mapping[str, int]) -> list[tuple[tuple[str, ...], Fraction]]:
    """Every way the flipped fronts can land, with its exact probability."""
    sides = []
    for pile, _ in moves:
        side = pile_sides[pile]
        if side is None:
            raise ValueError(f"pile {pile + 1} is empty: nothing to flip")
        sides.append(side)
    first = front_weights(sides[0], unknown)
    total = sum(first.values())
    if total == 0:
        raise ValueError(f"no unknown card has the reel side {sides[0]}")
    out: list[tuple[tuple[str, ...], Fraction]] = []
    for front, weight in first.items():
        p = Fraction(weight, total)
        if len(sides) == 1:
            out.append(((front,), p))
            continue
        second = front_weights(sides[1], unknown, taken=front if sides[1] == sides[0] else None)
        second_total = sum(second.values())
        if second_total == 0:
            raise ValueError(f"not enough unknown cards with the reel side {sides[1]}")
        out += [((front, other), p * Fraction(w, second_total)) for other, w in second.items()]
    return out


@dataclass(frozen=True)
class FlipOdds:
    """The chance that one flip makes a jackpot, in total and by symbol, and its expected
    points (the jackpot's three cards)."""

    moves: Moves
    jackpot: Fraction
    by_symbol: tuple[tuple[str, Fraction], ...]
    expected_points: Fraction

    @property
    def action(self) -> Action:
        """The flip as an action (``flip 0 2``)."""
        return flip_action(self.moves)

    def label(self) -> str:
        """One line for the screen's odds advisor, e.g. ``pile 2 -> discard 3: 77.8%``."""
        moves = " + ".join(f"pile {pile + 1} -> discard {discard + 1}" for pile, discard in self.moves)
        return f"{moves}: {float(self.jackpot) * 100:.1f}%"

    def to_dict(self) -> dict[str, Any]:
        """JSON form: exact fractions as text plus a rounded percentage."""
        return {
            "action": str(self.action),
            "piles": [pile for pile, _ in self.moves],
            "discards": [discard for _, discard in self.moves],
            "probability": str(self.jackpot),
            "percent": round(float(self.jackpot) * 100, 1),
            "by_symbol": {symbol: str(p) for symbol, p in self.by_symbol},
            "expected_points": str(self.expected_points),
        }


def odds_of(moves: Moves, discard_tops: Sequence[str | None], pile_sides: Sequence[str | None],
            unknown: Mapping[str, int], values: Mapping[str, int]) -> FlipOdds:
    """The odds of one flip."""
    by_symbol: dict[str, Fraction] = {}
    for fronts, p in landings(moves, pile_sides, unknown):
        tops = list(discard_tops)
        for (_, discard), front in zip(moves, fronts, strict=True):
            tops[discard] = front
        symbol = jackpot_symbol(tops)
        if symbol is not None:
            by_symbol[symbol] = by_symbol.get(symbol, Fraction(0)) + p
    jackpot = sum(by_symbol.values(), Fraction(0))
    expected = sum((p * 3 * values[s] for s, p in by_symbol.items()), Fraction(0))
    return FlipOdds(moves, jackpot, tuple(sorted(by_symbol.items())), expected)


def flip_odds(discard_tops: Sequence[str | None], pile_sides: Sequence[str | None],
              unknown: Mapping[str, int], values: Mapping[str, int]) -> list[FlipOdds]:
    """The odds of every legal flip, in the order of :func:`flip_choices`."""
    return [odds_of(moves, discard_tops, pile_sides, unknown, values) for moves in flip_choices(pile_sides)]

