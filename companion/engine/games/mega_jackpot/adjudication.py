"""``companion adjudicate mega-jackpot``: rule on the three discard tops, with odds on request.

``{"discards": [s, s, s]}`` -> ``{"jackpot": symbol or null, "points": value of the three
cards}``. With ``"reel_sides": [[a, b], [a, b], [a, b]]`` (the reel side on top of each pile,
``null`` for an empty pile) the ruling adds ``"odds"``: every legal flip with its exact jackpot
chance, and ``"best"``, the flip with the best chance. The adjudicator does not know which
cards have left the piles, so the odds count the full card table (mega_jackpot.toml).

>>> adjudicate({"discards": ["diamond", "diamond", "diamond"]})
{'jackpot': 'diamond', 'points': 9}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.mega_jackpot.components import (
    DISCARDS,
    PILES,
    SYMBOLS,
    default_components,
    jackpot_symbol,
    side_id,
    split_face,
)
from companion.engine.games.mega_jackpot.odds import flip_odds

KEYS = ("discards", "reel_sides")


def _symbol(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in SYMBOLS:
        raise InvalidSituationError(
            f"unknown Mega Jackpot symbol {value!r} in {where} (symbols: {', '.join(SYMBOLS)})"
        )
    return value


def adjudicate(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling; raises :class:`InvalidSituationError` naming the bad value."""
    unknown_keys = [key for key in situation if key not in KEYS]
    if unknown_keys:
        raise InvalidSituationError(f"unknown key {unknown_keys[0]!r}: mega-jackpot takes \"discards\" "
                                    "and optionally \"reel_sides\"")
    discards = situation.get("discards")
    if not isinstance(discards, list) or len(discards) != DISCARDS:
        raise InvalidSituationError('mega-jackpot needs "discards": the three top symbols, e.g. '
                                    '["apple", "apple", "cherry"]')
    tops = [_symbol(value, f"discard {i + 1}") for i, value in enumerate(discards)]
    components = default_components()
    by_symbol = components.by_symbol()
    for symbol in set(tops):
        if tops.count(symbol) > by_symbol[symbol]:
            raise InvalidSituationError(
                f"{tops.count(symbol)} '{symbol}' cards are showing but there are only {by_symbol[symbol]}"
            )
    ruling: dict[str, Any] = {
        "jackpot": jackpot_symbol(tops),
        "points": sum(components.values[symbol] for symbol in tops),
    }
    if "reel_sides" not in situation:
        return ruling
    raw = situation["reel_sides"]
    if not isinstance(raw, list) or len(raw) != PILES:
        raise InvalidSituationError('"reel_sides" must list the three piles\' top reel sides, e.g. '
                                    '[["apple", "cherry"], ["apple", "genie"], null]')
    by_side: dict[str, int] = {}
    for face, count in components.cards.items():
        side = split_face(face)[1]
        by_side[side] = by_side.get(side, 0) + count
    sides: list[str | None] = []
    for pile, pair in enumerate(raw):
        if pair is None:
            sides.append(None)
            continue
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidSituationError(
                f"reel side of pile {pile + 1} must be two symbols or null, not {pair!r}"
            )
        first, second = (_symbol(value, f"the reel side of pile {pile + 1}") for value in pair)
        if first == second:
            raise InvalidSituationError(f"reel side of pile {pile + 1} shows {first} twice: a reel side "
                                        "has two different symbols")
        side = side_id(first, second)
        if not by_side.get(side):
            raise InvalidSituationError(f"no card has the reel side {first}/{second} (pile {pile + 1})")
        sides.append(side)
    for side in set(s for s in sides if s is not None):
        if sides.count(side) > by_side[side]:
            raise InvalidSituationError(f"{sides.count(side)} piles show the {side} reel side but only "
                                        f"{by_side[side]} cards have it")
    odds = flip_odds(tops, sides, components.cards, components.values)
    ruling["odds"] = [entry.to_dict() for entry in odds]
    ruling["best"] = str(max(odds, key=lambda o: o.jackpot).action) if odds else None
    return ruling
