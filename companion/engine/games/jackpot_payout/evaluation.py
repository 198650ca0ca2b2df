"""Jackpots, pairs and what three cards in play pay: one set of functions for play and adjudicate.

- A jackpot: all three cards in play can show one symbol (wilds match every symbol; a split
  card counts as either of its symbols). Three wilds are a jackpot too (symbol ``wild``).
- A pair (RULINGS.md): a non-wild symbol that at least two of the cards in play can show. One
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
from typing import Any

from companion.engine.errors import InvalidSituationError
from companion.engine.games.jackpot_payout.cards import (
    ABILITIES,
    MAX_COINS,
    SYMBOLS,
    WILD,
    Card,
)

REELS = 3
CONSOLATION_COINS = 2
DIVERSITY_COINS = 2
DIVERSITY_SYMBOLS = 4


def common_symbol(cards: Sequence[Card]) -> str | None:
    """The symbol every card can show (``wild`` when all are wild), or None; None for no cards."""
    if not cards:
        return None
    if all(card.is_wild for card in cards):
        return WILD
    for symbol in SYMBOLS:
        if all(card.shows(symbol) for card in cards):
            return symbol
    return None


def jackpot_symbol(cards: Sequence[Card]) -> str | None:
    """The symbol all three cards show, ``wild`` for three wilds, or None (no jackpot)."""
    return common_symbol(cards) if len(cards) == REELS else None


def pair_symbols(cards: Sequence[Card]) -> list[str]:
    """The non-wild symbols at least two of the cards can show (each one is a pair)."""
    return [s for s in SYMBOLS if sum(1 for card in cards if card.shows(s)) >= 2]


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
    return sum(1 for card in cards if card.ability == ability)


# --- adjudicate ----------------------------------------------------------------------------------


def _situation_card(entry: Any, index: int) -> Card:
    where = f"card {index + 1}"
    if not isinstance(entry, Mapping):
        raise InvalidSituationError(f'{where} must be an object like {{"symbols": ["grapes"], "coins": 1}}')
    unknown = sorted(set(entry) - {"symbols", "coins", "ability", "id", "name"})
    if unknown:
        raise InvalidSituationError(f"{where}: unknown key {unknown[0]!r} (keys: symbols, coins, ability)")
    symbols = entry.get("symbols")
    if not isinstance(symbols, list) or not 1 <= len(symbols) <= 2:
        raise InvalidSituationError(f'{where}: "symbols" must list one or two symbols, got {symbols!r}')
    for symbol in symbols:
        if symbol not in (*SYMBOLS, WILD):
            raise InvalidSituationError(
                f"{where}: unknown symbol {symbol!r} (symbols: {', '.join((*SYMBOLS, WILD))})"
            )
    if len(set(symbols)) != len(symbols) or (WILD in symbols and len(symbols) > 1):
        raise InvalidSituationError(f"{where}: {symbols!r} is not a card: two symbols, or wild alone")
    coins = entry.get("coins")
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= MAX_COINS:
        raise InvalidSituationError(f'{where}: "coins" must be a whole number 0-{MAX_COINS}, got {coins!r}')
    ability = entry.get("ability")
    if ability is not None and ability not in ABILITIES:
        known = ", ".join(ABILITIES)
        raise InvalidSituationError(f"{where}: unknown ability {ability!r} (abilities: {known})")
    kind = "special" if ability else "regular"
    return Card(id=f"card-{index + 1}", name=where, symbols=tuple(symbols), coins=coins, ability=ability,
                kind=kind, set="all", solo=True, multiplayer=True, count=1)


def adjudicate_situation(situation: Mapping[str, Any]) -> dict[str, Any]:
    """Rule on three cards in play (the ``companion adjudicate jackpot-payout`` contract).

    ``{"cards": [{"symbols": [..], "coins": n, "ability": id?}] x3}`` -> ``{"jackpot", "symbol",
    "coins", "pairs", "may_take", "special_allowed"}`` plus ``shopping_spree`` (true: any number
    of cards more may be taken). ``coins`` is what is paid now without a choice: the jackpot
    (with Jackpot Payout), Consolation Prize (no jackpot) and Diversity Dividends.

    >>> adjudicate_situation({"cards": [{"symbols": ["crown"], "coins": 1}] * 3})["coins"]
    3
    """
    if not isinstance(situation, Mapping):
        raise InvalidSituationError('jackpot-payout needs a JSON object: {"cards": [three cards]}')
    entries = situation.get("cards")
    if not isinstance(entries, list):
        raise InvalidSituationError('jackpot-payout needs "cards": a list of the three cards in play')
    if len(entries) != REELS:
        raise InvalidSituationError(f"jackpot-payout needs exactly 3 cards in play, got {len(entries)}")
    cards = [_situation_card(entry, index) for index, entry in enumerate(entries)]
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
