"""Jackpot Payout's cards: symbols, abilities and the card data file.

Every printed card face is one line of ``jackpot_payout.toml`` (an assumed default composition
that an owner of the printed game may correct); :func:`load_catalogue` reads and checks it, or
an override table passed as ``config.options["components"]``.

>>> card = default_catalogue().cards["int-grapes-cherries-1"]
>>> card.shows("cherries"), card.shows("crown")
(True, False)
>>> default_catalogue().cards["coinless-wild"].shows("crown")
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from companion.engine.data import load_components
from companion.engine.errors import ConfigError

GAME_ID = "jackpot-payout"
SYMBOLS = ("grapes", "cherries", "diamond", "crown", "shamrock")
WILD = "wild"

#: abilities that resolve when the card is revealed, in the order the player chooses
ACTIVE_ABILITIES = (
    "improve-the-odds", "filter-2", "guess-suit", "second-chance", "coin-sync",
    "diversity-dividends", "flush", "generous", "imp", "predict-matches", "thief", "the-house",
)
#: abilities that only change what happens later in the turn (jackpot, display, end of turn)
PASSIVE_ABILITIES = ("consolation-prize", "shopping-spree", "stuck-reel", "jackpot-payout", "jackpot-shuffle")
ABILITIES = ACTIVE_ABILITIES + PASSIVE_ABILITIES

KINDS = ("starting", "regular", "special", "coinless-wild", "house")
SETS = ("starting", "introductory", "expert", "all", "solo")
#: the sets a game can be played with (the display's draw deck)
PLAYABLE_SETS = ("introductory", "expert")
MAX_COINS = 4
#: card ids are action arguments: lowercase words joined by dashes, never a bare number
CARD_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")


@dataclass(frozen=True)
class Card:
    """One printed card face (several copies may exist: ``count``)."""

    id: str
    name: str
    symbols: tuple[str, ...]
    coins: int
    ability: str | None
    kind: str
    set: str
    solo: bool
    multiplayer: bool
    count: int
    #: The House cards only: the coins The House takes (and display cards you may remove)
    house_coins: int = 0

    @cached_property
    def is_wild(self) -> bool:
        """A question-mark card: it matches every symbol."""
        return self.symbols == (WILD,)  # asked for every card at every settle: worked out once

    @cached_property
    def is_special(self) -> bool:
        """A Special card: taking one from the display needs a pair."""
        return self.kind == "special"

    @cached_property
    def is_active(self) -> bool:
        """Its ability resolves when it is revealed (one of :data:`ACTIVE_ABILITIES`)."""
        return self.ability in ACTIVE_ABILITIES

    @cached_property
    def symbol_bits(self) -> int:
        """The symbols this card can show as bits, bit ``i`` for ``SYMBOLS[i]`` (a wild: all)."""
        return sum(1 << i for i, symbol in enumerate(SYMBOLS) if self.shows(symbol))

    def shows(self, symbol: str) -> bool:
        """True when this card can count as ``symbol`` (wilds can show any symbol)."""
        return self.is_wild or symbol in self.symbols

    def label(self) -> str:
        """Short words for the table, e.g. ``Grapes / Cherries (1 coin)``."""
        coins = "1 coin" if self.coins == 1 else f"{self.coins} coins"
        return f"{self.name} ({coins})"


@dataclass(frozen=True)
class Catalogue:
    """The card faces and the numbers of one component table."""

    cards: Mapping[str, Card]
    #: starting coins in the bank, index = number of players
    bank: tuple[int, ...]
    box_coins: int
    display_size: int
    end_coins: int
    end_cards: int
    starting_decks: int
    house_cards_default: int
    ability_text: Mapping[str, str]

    def of_kind(self, kind: str) -> list[Card]:
        """Every face of ``kind`` in file order."""
        return list(self._kinds.get(kind, ()))

    @cached_property
    def _kinds(self) -> dict[str, tuple[Card, ...]]:
        """The faces by kind, in file order: every new game deals from them."""
        kinds: dict[str, list[Card]] = {}
        for card in self.cards.values():
            kinds.setdefault(card.kind, []).append(card)
        return {kind: tuple(cards) for kind, cards in kinds.items()}


def _need(entry: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    value = entry.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"{where}: '{key}' must be a {kind.__name__}, got {value!r}")
    return value


def _card(entry: Any, index: int) -> Card:
    where = f"jackpot-payout card {index + 1}"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where} must be a table with id, name, symbols, coins, kind, set and count")
    card_id = _need(entry, "id", str, where)
    if not CARD_ID.fullmatch(card_id) or card_id.isdigit():
        raise ConfigError(f"{where}: id {card_id!r} must be lowercase words joined by dashes ('my-grapes-2')")
    where = f"jackpot-payout card '{card_id}'"
    symbols = entry.get("symbols")
    if (not isinstance(symbols, list) or not 1 <= len(symbols) <= 2 or len(set(symbols)) != len(symbols)
            or any(s not in (*SYMBOLS, WILD) for s in symbols) or (WILD in symbols and len(symbols) > 1)):
        raise ConfigError(f"{where}: symbols must be one or two of {', '.join(SYMBOLS)}, or [\"wild\"]")
    coins = _need(entry, "coins", int, where)
    if not 0 <= coins <= MAX_COINS:
        raise ConfigError(f"{where}: coins must be 0-{MAX_COINS}, got {coins}")
    ability = entry.get("ability")
    if ability is not None and ability not in ABILITIES:
        raise ConfigError(f"{where}: unknown ability {ability!r} (abilities: {', '.join(ABILITIES)})")
    kind = _need(entry, "kind", str, where)
    if kind not in KINDS:
        raise ConfigError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    card_set = _need(entry, "set", str, where)
    if card_set not in SETS:
        raise ConfigError(f"{where}: set must be one of {', '.join(SETS)}, got {card_set!r}")
    count = _need(entry, "count", int, where)
    if count < 1:
        raise ConfigError(f"{where}: count must be at least 1, got {count}")
    house_coins = entry.get("house_coins", 0)
    if kind == "house" and (not isinstance(house_coins, int) or not 1 <= house_coins <= 3):
        raise ConfigError(f"{where}: a House card needs house_coins 1-3, got {house_coins!r}")
    return Card(
        id=card_id, name=_need(entry, "name", str, where), symbols=tuple(symbols), coins=coins,
        ability=ability, kind=kind, set=card_set, solo=bool(entry.get("solo", True)),
        multiplayer=bool(entry.get("multiplayer", True)), count=count, house_coins=int(house_coins),
    )


def load_catalogue(data: Mapping[str, Any]) -> Catalogue:
    """Check a component table (the TOML's shape) and build the catalogue; raises ConfigError."""
    if not isinstance(data, Mapping):
        raise ConfigError("jackpot-payout components must be a table with [rules] and [catalogue]")
    rules = data.get("rules")
    catalogue = data.get("catalogue")
    if not isinstance(rules, Mapping) or not isinstance(catalogue, Mapping):
        raise ConfigError("jackpot-payout components need a [rules] table and a [catalogue] table")
    entries = catalogue.get("cards")
    if not isinstance(entries, list) or not entries:
        raise ConfigError("jackpot-payout [catalogue] needs 'cards', a list of card tables")
    cards: dict[str, Card] = {}
    for index, entry in enumerate(entries):
        card = _card(entry, index)
        if card.id in cards:
            raise ConfigError(f"jackpot-payout card id '{card.id}' is listed twice")
        cards[card.id] = card
    bank = rules.get("bank")
    if (not isinstance(bank, list) or len(bank) != 5
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in bank)):
        raise ConfigError("jackpot-payout [rules] bank must list 5 whole numbers (index = players)")
    where = "jackpot-payout [rules]"
    keys = ("box_coins", "display_size", "end_coins", "end_cards", "starting_decks", "house_cards_default")
    numbers = {key: _need(rules, key, int, where) for key in keys}
    if max(bank) > numbers["box_coins"]:
        raise ConfigError(f"{where}: a bank larger than the box's {numbers['box_coins']} coins")
    if not any(card.kind == "starting" for card in cards.values()):
        raise ConfigError("jackpot-payout components list no starting cards")
    if sum(1 for card in cards.values() if card.kind == "coinless-wild") != 1:
        raise ConfigError("jackpot-payout components need exactly one coinless-wild line (with its count)")
    text = data.get("abilities", {})
    if not isinstance(text, Mapping):
        raise ConfigError("jackpot-payout [abilities] must map ability ids to their text")
    return Catalogue(cards=cards, bank=tuple(bank), ability_text=dict(text), **numbers)


@cache
def default_catalogue() -> Catalogue:
    """The catalogue of the shipped data file."""
    return load_catalogue(load_components(GAME_ID))
