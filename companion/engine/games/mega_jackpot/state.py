"""Mega Jackpot's state (plain data, exact JSON) and its game-specific events.

See :mod:`companion.engine.games.mega_jackpot.rules` for what each field means in play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.events import Event, event
from companion.engine.games.mega_jackpot.components import DISCARDS, TRAYS, split_face

# --- state -----------------------------------------------------------------------------------


@dataclass
class Reveal:
    """One hidden thing the table reveals next: ``side`` (a pile's new top reel side),
    ``front`` (the card from ``pile`` flipped onto discard ``target``) or ``tile`` (the tile
    flipped for tray ``target``)."""

    kind: str
    pile: int = -1
    target: int = -1


@dataclass
class MegaJackpotState:
    """Plain data for one game of Mega Jackpot."""

    #: cards in front of each player (their value piles), by kind: a symbol or start-1/start-2
    in_front: list[dict[str, int]]
    #: cards left in each reel pile (the top card included)
    pile_sizes: list[int]
    #: the reel side showing on each pile's top card; None when empty or not revealed yet
    pile_tops: list[str | None]
    #: every card still in a pile, front unknown, by face id front@reel-side
    unknown: dict[str, int]
    #: the three discard stacks by face id, bottom card first (the last card is on top)
    discards: list[list[str]] = field(default_factory=lambda: [[] for _ in range(DISCARDS)])
    #: the two money trays, by kind
    trays: list[dict[str, int]] = field(default_factory=lambda: [{} for _ in range(TRAYS)])
    #: cards removed from the game by a bankruptcy, by kind
    out_of_game: dict[str, int] = field(default_factory=dict)
    #: face-up tiles (monkeys) and how many lie face down
    tiles_up: list[str] = field(default_factory=list)
    tiles_down: int = 0
    #: what the table reveals next, in order; and what happens once it is all revealed:
    #: "start" (the first turn), "spin" (check for a jackpot), "end_turn" (next player)
    pending: list[Reveal] = field(default_factory=list)
    then: str = "start"
    #: "flip" (must flip), "spun" (no jackpot: pay or stop), "jackpot" (cash or attempt)
    phase: str = "flip"
    current: int = 0
    #: value of the last payment this turn (0: none yet)
    paid: int = 0
    #: flips this turn (the free one included)
    spins: int = 0
    #: the symbol of the jackpot bet on the tile being flipped
    bet_symbol: str | None = None
    turns: int = 0
    #: set when a player wins at once with three genie cards and the genie tile
    instant_winner: int | None = None
    over: bool = False

    def discard_tops(self) -> list[str | None]:
        """The front symbol on top of each discard (None for an empty discard)."""
        return [split_face(stack[-1])[0] if stack else None for stack in self.discards]


# --- events ------------------------------------------------------------------------------------


@event
class Flipped(Event):
    """``player`` flips the cards of ``moves`` (pile, discard pairs); the table reveals them."""

    player: int
    moves: tuple[tuple[int, int], ...]


@event
class SpinLanded(Event):
    """After a flip the discards show ``tops``; ``jackpot`` is the symbol if three match."""

    player: int
    tops: tuple[str | None, ...]
    jackpot: str | None


@event
class SpinPaid(Event):
    """``player`` paid a card worth ``value`` into tray ``tray`` to spin again."""

    player: int
    value: int
    tray: int


@event
class JackpotCashed(Event):
    """``player`` took the three ``symbol`` cards into their value piles."""

    player: int
    symbol: str
    points: int


@event
class MegaJackpotAttempted(Event):
    """``player`` bet the three ``symbol`` cards in tray ``tray``; a tile is flipped next."""

    player: int
    symbol: str
    tray: int


@event
class TileFlipped(Event):
    """The tile flipped for ``player``'s attempt on tray ``tray`` is ``tile``."""

    player: int
    tray: int
    tile: str


@event
class TrayWon(Event):
    """The genie: ``player`` takes tray ``tray`` (``cards`` cards worth ``points``)."""

    player: int
    tray: int
    cards: int
    points: int


@event
class TrayBankrupt(Event):
    """The last monkey: tray ``tray``'s ``cards`` cards leave the game."""

    tray: int
    cards: int


@event
class TilesShuffled(Event):
    """All tiles are shuffled and laid face down again."""


@event
class DiscardRefilled(Event):
    """Discard ``discard`` was empty: the top card of pile ``pile`` is flipped onto it."""

    discard: int
    pile: int


@event
class InstantWin(Event):
    """Three genie cards and the genie tile: ``player`` wins the game at once."""

    player: int


def add_cards(pile: dict[str, int], kind: str, count: int = 1) -> None:
    pile[kind] = pile.get(kind, 0) + count


def remove_card(pile: dict[str, int], kind: str) -> None:
    pile[kind] -= 1
    if not pile[kind]:
        del pile[kind]
