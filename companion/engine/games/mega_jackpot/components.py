"""Mega Jackpot's components: symbols and values, the Jackpot cards by reel side, the starting
cards and the tiles, read from ``mega_jackpot.toml`` (assumed defaults) or an override table.

Names used everywhere (state, actions, chance outcomes, vision):

- a *symbol* is one of :data:`SYMBOLS` (``apple`` ... ``genie``);
- a *reel side* id joins its two symbols, lower value first: ``apple-cherry``;
- a Jackpot card's *face id* is ``front@reel-side``, e.g. ``apple@apple-cherry`` (the card that
  shows the apple/cherry reel side and reveals an apple when flipped);
- starting cards are ``start-1`` and ``start-2`` (by value).

>>> side_id("cherry", "apple")
'apple-cherry'
>>> face_id("apple", "apple-cherry")
'apple@apple-cherry'
>>> split_face("genie@carpet-genie")
('genie', 'carpet-genie')
>>> jackpot_symbol(["diamond", "diamond", "diamond"])
'diamond'
>>> jackpot_symbol(["diamond", "apple", "diamond"]) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from companion.engine.data import load_components
from companion.engine.errors import ConfigError
from companion.engine.game import CardFace

GAME_ID = "mega-jackpot"
SYMBOLS = ("apple", "cherry", "diamond", "carpet", "genie")
GENIE = "genie"
MONKEY = "monkey"
TILE_KINDS = (GENIE, MONKEY)
PILES = 3
DISCARDS = 3
TRAYS = 2
START_PREFIX = "start-"
LABELS = {"apple": "Apple", "cherry": "Cherry", "diamond": "Diamond", "carpet": "Magic carpet",
          "genie": "Genie"}


def side_id(first: str, second: str) -> str:
    """The reel side showing ``first`` and ``second`` (in either order)."""
    low, high = sorted((first, second), key=SYMBOLS.index)
    return f"{low}-{high}"


def side_symbols(side: str) -> tuple[str, str]:
    """The two symbols of a reel side id."""
    low, high = side.split("-")
    return low, high


def face_id(front: str, side: str) -> str:
    """The id of the Jackpot card with this front and reel side."""
    return f"{front}@{side}"


@lru_cache(maxsize=4096)
def split_face(face: str) -> tuple[str, str]:
    """``(front, reel side)`` of a face id."""
    front, _, side = face.partition("@")
    return front, side


def jackpot_symbol(tops: Sequence[str | None]) -> str | None:
    """The symbol when the three discard tops are identical (a jackpot), else None."""
    if len(tops) != DISCARDS or tops[0] is None or any(top != tops[0] for top in tops):
        return None
    return tops[0]


@dataclass(frozen=True)
class Components:
    """One configuration's cards and tiles (validated)."""

    #: points per symbol
    values: Mapping[str, int]
    #: Jackpot cards by face id (only faces that exist)
    cards: Mapping[str, int]
    #: starting cards in the box by kind (``start-1``), and dealt to each player
    start_total: Mapping[str, int]
    start_per_player: Mapping[str, int]
    #: tiles by kind (genie, monkey)
    tiles: Mapping[str, int]

    def value(self, kind: str) -> int:
        """Points of one card of ``kind`` (a symbol or a starting-card kind)."""
        if kind.startswith(START_PREFIX):
            return int(kind[len(START_PREFIX):])
        return self.values[kind]

    @property
    def total_cards(self) -> int:
        """How many Jackpot cards there are."""
        return sum(self.cards.values())

    def pile_sizes(self) -> list[int]:
        """The three reel piles: the shuffled cards split as evenly as possible."""
        base, extra = divmod(self.total_cards, PILES)
        return [base + (1 if pile < extra else 0) for pile in range(PILES)]

    def by_symbol(self) -> dict[str, int]:
        """Jackpot cards by front symbol."""
        totals = dict.fromkeys(SYMBOLS, 0)
        for face, count in self.cards.items():
            totals[split_face(face)[0]] += count
        return totals


def _count(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"mega-jackpot components: {where} must be a whole number >= 0, not {value!r}")
    return value


def _table(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    table = raw.get(key)
    if not isinstance(table, Mapping):
        raise ConfigError(f"mega-jackpot components: [{key}] must be a table")
    return table


def parse_components(raw: Mapping[str, Any]) -> Components:
    """Validate a components table (the TOML's shape); raises :class:`ConfigError`."""
    values_table = _table(raw, "values")
    values: dict[str, int] = {}
    for symbol in SYMBOLS:
        if symbol not in values_table:
            raise ConfigError(f"mega-jackpot components: [values] needs '{symbol}'")
        values[symbol] = _count(values_table[symbol], f"values.{symbol}")
    cards: dict[str, int] = {}
    for side, fronts in _table(raw, "reel_sides").items():
        parts = side.split("-")
        if len(parts) != 2 or not all(p in SYMBOLS for p in parts) or parts[0] == parts[1] \
                or side_id(*parts) != side:
            raise ConfigError(
                f"mega-jackpot components: reel side '{side}' must be two different symbols, "
                "lower value first, e.g. 'apple-cherry'"
            )
        if not isinstance(fronts, Mapping):
            raise ConfigError(f"mega-jackpot components: reel_sides.{side} must be a table of fronts")
        for front, count in fronts.items():
            if front not in parts:
                raise ConfigError(
                    f"mega-jackpot components: a '{side}' card cannot reveal '{front}' "
                    "(a card's reel side shows its own symbol)"
                )
            if _count(count, f"reel_sides.{side}.{front}"):
                cards[face_id(front, side)] = count
    if sum(cards.values()) < PILES * 2:
        raise ConfigError("mega-jackpot components: need at least 6 Jackpot cards")
    start = _table(raw, "starting_cards")
    totals: dict[str, int] = {}
    per_player: dict[str, int] = {}
    for name, target in (("total", totals), ("per_player", per_player)):
        for key, count in _table(start, name).items():
            if not str(key).isdigit() or int(key) < 1:
                raise ConfigError(
                    f"mega-jackpot components: starting_cards.{name} key {key!r} must be a card value"
                )
            target[f"{START_PREFIX}{int(key)}"] = _count(count, f"starting_cards.{name}.{key}")
    tiles: dict[str, int] = {}
    for kind, count in _table(raw, "tiles").items():
        if kind not in TILE_KINDS:
            raise ConfigError(f"mega-jackpot components: unknown tile '{kind}' (tiles: genie, monkey)")
        tiles[kind] = _count(count, f"tiles.{kind}")
    if tiles.get(GENIE) != 1 or tiles.get(MONKEY, 0) < 1:
        raise ConfigError("mega-jackpot components: [tiles] needs genie = 1 and at least one monkey")
    return Components(values, cards, totals, per_player, tiles)


@cache
def default_components() -> Components:
    """The components in ``mega_jackpot.toml``."""
    return parse_components(load_components(GAME_ID))


def components_for(options: Mapping[str, Any]) -> Components:
    """The components of a configuration: the TOML, with ``options["components"]`` merged over
    it table by table."""
    override = options.get("components")
    if override is None:
        return default_components()
    if not isinstance(override, Mapping):
        raise ConfigError("mega-jackpot option 'components' must be a table like mega_jackpot.toml")
    return parse_components({**load_components(GAME_ID), **override})


def card_faces_of(components: Components) -> list[CardFace]:
    """Every printed card face: one per Jackpot card front + reel side, plus the starting cards.

    A Jackpot card's id is its face id (``apple@apple-cherry``), ``symbols`` its front and
    ``back`` its reel side's two symbols. Starting cards are ``start-1`` and ``start-2``
    (they show the apple and the cherry, unframed, and have no reel side).
    """
    faces = []
    for face, count in components.cards.items():
        front, side = split_face(face)
        low, high = side_symbols(side)
        value = components.values[front]
        faces.append(CardFace(
            id=face, name=f"{LABELS[front]} ({LABELS[low]}/{LABELS[high]} reel)", symbols=(front,),
            coins=value, text=f"{value} point{'s' if value != 1 else ''}", back=(low, high), count=count,
        ))
    by_value = {value: symbol for symbol, value in components.values.items()}
    for kind, count in components.start_total.items():
        value = components.value(kind)
        symbol = by_value.get(value)
        faces.append(CardFace(
            id=kind, name=f"Starting card, {value} point{'s' if value != 1 else ''}",
            symbols=(symbol,) if symbol else (), coins=value,
            text="Starting card: triangles on the long sides, unframed symbol", count=count,
        ))
    return faces
