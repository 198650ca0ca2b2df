"""``companion adjudicate mega-jackpot``: rule on the three discard tops, with odds on request.

``{"discards": [c, c, c]}`` -> ``{"jackpot": symbol or null}`` and, on a jackpot, ``"points"``
(the three cards' value). A discard top is a symbol (``"apple"``) or the card id ``companion
vision identify`` prints (``"apple@apple-cherry"``: front @ reel side).

With ``"reel_sides": [[a, b], [a, b], [a, b]]`` (the reel side on top of each pile, ``null`` for
an empty pile; a side id ``"apple-cherry"`` or a card id works too) the ruling adds ``"odds"``:
every legal flip with its exact jackpot chance, and ``"best"``, the flip with the best chance.

The odds are exact when the situation says which cards are out of the reel piles: the tops as
card ids, and ``"collected"`` (in front of the players), ``"trays"``, ``"removed"`` (bankrupt
trays) and ``"discarded"`` (under the discard tops) as lists of card ids. Without any of those
lists, every card but the tops named by id counts as still in a pile: a first-turn estimate.

>>> adjudicate({"discards": ["diamond", "diamond", "diamond"]})
{'jackpot': 'diamond', 'points': 9}
>>> adjudicate({"discards": ["diamond", "apple", "diamond"]})
{'jackpot': None}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.mega_jackpot.components import (
    DISCARDS,
    GAME_ID,
    PILES,
    SYMBOLS,
    Components,
    default_components,
    jackpot_symbol,
    side_id,
    side_symbols,
    split_face,
)
from companion.engine.games.mega_jackpot.odds import flip_odds
from companion.engine.situation import check_keys, excerpt, require_object, variants

#: where cards that left the reel piles may be, besides the discard tops
OUT_OF_PLAY = ("collected", "trays", "removed", "discarded")
KEYS = ("discards", "reel_sides", *OUT_OF_PLAY)


def _symbol(value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in SYMBOLS:
        raise InvalidSituationError(
            f"unknown Mega Jackpot symbol {excerpt(value)} in {where} (symbols: {', '.join(SYMBOLS)})"
        )
    return value


def _top(value: Any, where: str, components: Components) -> tuple[str, str | None]:
    """A discard top: ``(symbol, card id or None)``."""
    if isinstance(value, str) and "@" in value:
        if value not in components.cards:
            raise InvalidSituationError(f"no Mega Jackpot card has the id {excerpt(value)} ({where}; ids "
                                        "are front@reel-side, e.g. apple@apple-cherry)")
        return split_face(value)[0], value
    return _symbol(value, where), None


def _side(value: Any, pile: int, known: set[str]) -> str | None:
    """A pile's top reel side as a side id (None: empty pile)."""
    where = f"the reel side of pile {pile + 1}"
    if value is None:
        return None
    if isinstance(value, str):  # a side id, or a card id whose reel side is on top
        side = value.partition("@")[2] if "@" in value else value
        if side not in known:
            raise InvalidSituationError(f"no card has the reel side {excerpt(value)} ({where})")
        return side
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidSituationError(f"reel side of pile {pile + 1} must be two symbols or null, "
                                    f"not {excerpt(value)}")
    first, second = (_symbol(symbol, where) for symbol in value)
    if first == second:
        raise InvalidSituationError(f"reel side of pile {pile + 1} shows {first} twice: a reel side "
                                    "has two different symbols")
    side = side_id(first, second)
    if side not in known:
        raise InvalidSituationError(f"no card has the reel side {first}/{second} (pile {pile + 1})")
    return side


def _out_of_play(situation: Mapping[str, Any], components: Components) -> dict[str, int]:
    """Jackpot cards listed as out of the piles, by card id (starting cards are checked and
    left out: they are never in a pile)."""
    cards: dict[str, int] = {}
    starts: dict[str, int] = {}
    for key in OUT_OF_PLAY:
        listed = situation.get(key, [])
        if not isinstance(listed, list):
            raise InvalidSituationError(f'"{key}" must be a list of card ids, e.g. ["apple@apple-cherry"]')
        for card in listed:
            if isinstance(card, str) and card in components.start_total:
                starts[card] = starts.get(card, 0) + 1
                if starts[card] > components.start_total[card]:
                    raise InvalidSituationError(f"more {card} cards listed than the "
                                                f"{components.start_total[card]} in the box")
                continue
            if not isinstance(card, str) or card not in components.cards:
                raise InvalidSituationError(
                    f'no Mega Jackpot card has the id {excerpt(card)} (in "{key}"; ids are front@reel-side, '
                    f"e.g. apple@apple-cherry, or {', '.join(components.start_total)})")
            cards[card] = cards.get(card, 0) + 1
    return cards


def adjudicate(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The ruling; raises :class:`InvalidSituationError` naming the bad value."""
    situation = require_object(situation, GAME_ID, '{"discards": ["apple", "apple", "cherry"]}')
    check_keys(situation, KEYS, GAME_ID)
    variants(situation, {}, GAME_ID)
    components = default_components()
    discards = situation.get("discards")
    if not isinstance(discards, list) or len(discards) != DISCARDS:
        raise InvalidSituationError('mega-jackpot needs "discards": the three top cards, e.g. '
                                    '["apple", "apple", "cherry"] or card ids like "apple@apple-cherry"')
    tops = [_top(value, f"discard {i + 1}", components) for i, value in enumerate(discards)]
    symbols = [symbol for symbol, _ in tops]
    by_symbol = components.by_symbol()
    for symbol in set(symbols):
        if symbols.count(symbol) > by_symbol[symbol]:
            raise InvalidSituationError(
                f"{symbols.count(symbol)} '{symbol}' cards are showing but there are only {by_symbol[symbol]}"
            )
    jackpot = jackpot_symbol(symbols)
    ruling: dict[str, Any] = {"jackpot": jackpot}
    if jackpot is not None:
        ruling["points"] = 3 * components.values[jackpot]
    listed = _out_of_play(situation, components)
    exact = any(key in situation for key in OUT_OF_PLAY)
    if exact and any(card is None for _, card in tops):
        raise InvalidSituationError("with the cards out of play listed, give each discard top as its card id "
                                    "(e.g. apple@apple-cherry) so the odds are exact")
    for _, card in tops:
        if card is not None:
            listed[card] = listed.get(card, 0) + 1
    unknown = dict(components.cards)
    for card, count in listed.items():
        if count > unknown[card]:
            raise InvalidSituationError(f"{count} cards {card} are out of the piles, but the game has "
                                        f"{unknown[card]}: a card listed twice?")
        unknown[card] -= count
    if "reel_sides" not in situation:
        return ruling
    raw = situation["reel_sides"]
    if not isinstance(raw, list) or len(raw) != PILES:
        raise InvalidSituationError('"reel_sides" must list the three piles\' top reel sides, e.g. '
                                    '[["apple", "cherry"], ["apple", "genie"], null]')
    by_side: dict[str, int] = {}
    for face, count in unknown.items():
        side = split_face(face)[1]
        by_side[side] = by_side.get(side, 0) + count
    known = {split_face(face)[1] for face in components.cards}
    sides = [_side(value, pile, known) for pile, value in enumerate(raw)]
    for side in {s for s in sides if s is not None}:
        if sides.count(side) > by_side.get(side, 0):
            low, high = side_symbols(side)
            still = by_side.get(side, 0)
            raise InvalidSituationError(
                f"{sides.count(side)} piles show the {low}/{high} reel side but only {still} "
                + ("card with it is" if still == 1 else "cards with it are") + " still in the piles"
            )
    odds = flip_odds(symbols, sides, unknown, components.values)
    ruling["odds"] = [entry.to_dict() for entry in odds]
    ruling["best"] = str(max(odds, key=lambda o: o.jackpot).action) if odds else None
    return ruling

