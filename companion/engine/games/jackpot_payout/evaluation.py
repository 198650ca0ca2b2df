"""Jackpots, pairs and what three cards in play pay: one set of functions for play and adjudicate.

- A jackpot: all three cards in play can show one symbol (wilds match every symbol; a split
  card counts as either of its symbols). Three wilds are a jackpot too (symbol ``wild``).
- A pair (docs/rulings.md): a non-wild symbol that at least two of the cards in play can show. One
  pair lets a Special card be taken from the display; two or more let the player take two cards.
- Jackpot Payout: one in play doubles the jackpot; two pay four times the coins on the third
  card; three pay four times the largest coin value among them.

>>> from companion.engine.games.jackpot_payout.cards import default_catalogue
>>> c = default_catalogue().cards
>>> cards = [c["int-grapes-2"], c["int-wild-1"], c["int-grapes-cherries-1"]]
>>> jackpot_symbol(cards), jackpot_coins(cards)
('grapes', 4)
>>> pair_symbols([c["int-grapes-2"], c["int-wild-1"], c["int-cherries-1"]])
['grapes', 'cherries']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.jackpot_payout.cards import (
    ABILITIES,
    GAME_ID,
    MAX_COINS,
    PLAYABLE_SETS,
    SYMBOLS,
    WILD,
    Card,
    default_catalogue,
)
from companion.engine.situation import check_keys, excerpt, require_object, variants

GAME = GAME_ID
#: the game's variant ids (game.py imports this module, so they are named here; a test keeps
#: them equal)
VARIANT_IDS = dict.fromkeys(("expert", "mixed"), "")

REELS = 3
CONSOLATION_COINS = 2
DIVERSITY_COINS = 2
DIVERSITY_SYMBOLS = 4


def common_symbol(cards: Sequence[Card]) -> str | None:
    """The symbol every card can show (``wild`` when all are wild), or None; None for no cards."""
    if not cards:
        return None
    common = _ALL_SYMBOLS
    for card in cards:
        common &= card.symbol_bits
    if common == _ALL_SYMBOLS and all(card.is_wild for card in cards):  # a wild shows every symbol
        return WILD
    return _SYMBOLS_OF[common][0] if common else None  # the first in SYMBOLS' order


def jackpot_symbol(cards: Sequence[Card]) -> str | None:
    """The symbol all three cards show, ``wild`` for three wilds, or None (no jackpot)."""
    return common_symbol(cards) if len(cards) == REELS else None


def pair_symbols(cards: Sequence[Card]) -> list[str]:
    """The non-wild symbols at least two of the cards can show (each one is a pair)."""
    once = twice = 0
    for card in cards:
        twice |= once & card.symbol_bits
        once |= card.symbol_bits
    return list(_SYMBOLS_OF[twice])


#: every symbol as bits (see ``Card.symbol_bits``), and the symbols of each set of bits in order
_ALL_SYMBOLS = (1 << len(SYMBOLS)) - 1
_SYMBOLS_OF = [tuple(s for i, s in enumerate(SYMBOLS) if bits >> i & 1) for bits in range(_ALL_SYMBOLS + 1)]


def jackpot_coins(cards: Sequence[Card]) -> int:
    """What a jackpot of ``cards`` pays, Jackpot Payout cards included."""
    payouts = [card for card in cards if card.ability == "jackpot-payout"]
    if not payouts:
        return sum(card.coins for card in cards)
    if len(payouts) == 1:
        return 2 * sum(card.coins for card in cards)
    if len(payouts) == 2:
        third = [card for card in cards if card.ability != "jackpot-payout"]
        return 4 * sum(card.coins for card in third)
    return 4 * max(card.coins for card in cards)


def distinct_symbols(cards: Sequence[Card]) -> int:
    """How many different non-wild symbols the cards show (both halves of split cards count)."""
    return len({s for card in cards for s in card.symbols if s != WILD})


def diversity_dividends_pay(cards: Sequence[Card]) -> bool:
    """Diversity Dividends pays when at least four different non-wild symbols are in play."""
    return distinct_symbols(cards) >= DIVERSITY_SYMBOLS


def display_allowance(cards: Sequence[Card]) -> tuple[int, bool]:
    """(cards that may be taken from the display, whether a Special card may be) after no jackpot."""
    pairs = len(pair_symbols(cards))
    return (2 if pairs >= 2 else 1), pairs >= 1


def count_ability(cards: Sequence[Card], ability: str) -> int:
    """How many of ``cards`` carry ``ability``."""
    return list(map(_ABILITY, cards)).count(ability)  # C loops: asked several times a turn


_ABILITY = attrgetter("ability")


# --- adjudicate ----------------------------------------------------------------------------------


CARD_KEYS = ("symbols", "coins", "ability", "id", "name")
CARD_EXAMPLE = '{"symbols": ["grapes"], "coins": 1} or a card id such as "int-grapes-2"'


def _printed_card(card_id: Any, where: str) -> Card:
    """The catalogue card behind an id as ``companion vision identify`` prints it."""
    cards = default_catalogue().cards
    if not isinstance(card_id, str) or card_id not in cards:
        raise InvalidSituationError(f"{where}: no Jackpot Payout card has the id {excerpt(card_id)} "
                                    "(ids as 'companion vision identify' prints them, e.g. int-grapes-2)")
    return cards[card_id]


def _situation_card(entry: Any, index: int) -> Card:
    """One card in play: a card id, or an object with its symbols, coins and ability (and
    optionally its id, which must then agree with them)."""
    where = f"card {index + 1}"
    if isinstance(entry, str):
        return _printed_card(entry, where)
    if not isinstance(entry, Mapping):
        raise InvalidSituationError(f"{where} must be {CARD_EXAMPLE}")
    unknown = [key for key in entry if key not in CARD_KEYS]
    if unknown:
        raise InvalidSituationError(f"{where}: unknown key {excerpt(unknown[0])} "
                                    "(keys: symbols, coins, ability, id)")
    if "id" in entry:
        printed = _printed_card(entry["id"], where)
        given = {"symbols": list(printed.symbols), "coins": printed.coins, "ability": printed.ability}
        for key, value in given.items():
            if key in entry and entry[key] != value:
                raise InvalidSituationError(f"{where}: card {printed.id} has {key} {excerpt(value)}, "
                                            f"not {excerpt(entry[key])}")
        return printed
    symbols = entry.get("symbols")
    if not isinstance(symbols, list) or not 1 <= len(symbols) <= 2:
        raise InvalidSituationError(f'{where}: "symbols" must list one or two symbols, '
                                    f"got {excerpt(symbols)}")
    for symbol in symbols:
        if symbol not in (*SYMBOLS, WILD):
            raise InvalidSituationError(
                f"{where}: unknown symbol {excerpt(symbol)} (symbols: {', '.join((*SYMBOLS, WILD))})"
            )
    if len(set(symbols)) != len(symbols) or (WILD in symbols and len(symbols) > 1):
        raise InvalidSituationError(f"{where}: {excerpt(symbols)} is not a card: two symbols, or wild alone")
    coins = entry.get("coins")
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= MAX_COINS:
        raise InvalidSituationError(f'{where}: "coins" must be a whole number 0-{MAX_COINS}, '
                                    f"got {excerpt(coins)}")
    ability = entry.get("ability")
    if ability is not None and ability not in ABILITIES:
        known = ", ".join(ABILITIES)
        raise InvalidSituationError(f"{where}: unknown ability {excerpt(ability)} (abilities: {known})")
    kind = "special" if ability else "regular"
    return Card(id=f"card-{index + 1}", name=where, symbols=tuple(symbols), coins=coins, ability=ability,
                kind=kind, set="all", solo=True, multiplayer=True, count=1)


def _check_printed_counts(cards: Sequence[Card]) -> None:
    """Cards named by id cannot be in play more often than they are printed."""
    catalogue = default_catalogue().cards
    for card in cards:
        if card.id in catalogue:
            shown = sum(1 for other in cards if other.id == card.id)
            if shown > card.count:
                copies = "one copy" if card.count == 1 else f"{card.count} copies"
                raise InvalidSituationError(f"{shown} cards {card.id} are in play, but the game has {copies} "
                                            "(a player plays their own deck): a misread?")


def adjudicate_situation(situation: Mapping[str, Any]) -> dict[str, Any]:
    """Rule on three cards in play (the ``companion adjudicate jackpot-payout`` contract).

    ``{"cards": [{"symbols": [..], "coins": n, "ability": id?}] x3}`` -> ``{"jackpot", "symbol",
    "coins", "pairs", "may_take", "special_allowed"}`` plus ``shopping_spree`` (true: any number
    of cards more may be taken). ``coins`` is what is paid now without a choice: the jackpot
    (with Jackpot Payout), Consolation Prize (no jackpot) and Diversity Dividends.

    >>> adjudicate_situation({"cards": [{"symbols": ["crown"], "coins": 1}] * 3})["coins"]
    3
    """
    situation = require_object(situation, GAME, '{"cards": [three cards]}')
    check_keys(situation, ("cards",), GAME)
    played = variants(situation, VARIANT_IDS, GAME)
    entries = situation.get("cards")
    if not isinstance(entries, list):
        raise InvalidSituationError('jackpot-payout needs "cards": a list of the three cards in play')
    if len(entries) != REELS:
        raise InvalidSituationError(f"jackpot-payout needs exactly 3 cards in play, got {len(entries)}")
    cards = [_situation_card(entry, index) for index, entry in enumerate(entries)]
    _check_printed_counts(cards)
    # Said which sets are played ("variants" given), a card of another set is a misread.
    sets = PLAYABLE_SETS if "mixed" in played else ("expert",) if "expert" in played else ("introductory",)
    for card in cards:
        if "variants" in situation and card.set in PLAYABLE_SETS and card.set not in sets:
            raise InvalidSituationError(f"card {card.id} is from the {card.set} set, which this game does "
                                        f"not play (variants: {', '.join(sorted(played)) or 'none'})")
    symbol = jackpot_symbol(cards)
    pairs = len(pair_symbols(cards))
    coins = 0
    if symbol is not None:
        coins += jackpot_coins(cards)
        may_take, special_allowed = 0, False
    else:
        coins += CONSOLATION_COINS * count_ability(cards, "consolation-prize")
        may_take, special_allowed = display_allowance(cards)
    if diversity_dividends_pay(cards):
        coins += DIVERSITY_COINS * count_ability(cards, "diversity-dividends")
    return {
        "jackpot": symbol is not None,
        "symbol": symbol,
        "coins": coins,
        "pairs": pairs,
        "may_take": may_take,
        "special_allowed": special_allowed,
        "shopping_spree": symbol is None and count_ability(cards, "shopping-spree") > 0,
    }
