"""Thanks a Lottery's state (plain data, exact JSON) and its game-specific events."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter

from companion.engine.events import Event, event
from companion.engine.games.thanks_a_lottery.blocks import IDENTICAL, Shape, sequence
from companion.engine.games.thanks_a_lottery.components import NUMBERS, WILD

#: the card ids of the numbers 1-7, in order
NUMBER_IDS = tuple(str(n) for n in NUMBERS)

# Phases of a round, in order. Chance decides in SETUP (deal, roll), DRAW, REROLL and LOTTERY.
SETUP = "setup"          # dealing the hands, then rolling the dice pool
DRAW = "draw"            # the player whose turn it is draws a card
ACT = "act"              # ... then does at most one thing
TAKE = "take"            # ... and takes the dice they earned, one at a time
FINALIZE = "finalize"    # each player with dice says which to re-roll
REROLL = "reroll"        # the picked-up dice are rolled
LOTTERY = "lottery"      # tokens are drawn onto the prize card
OVER = "over"


@dataclass
class Block:
    """A block on the table: whose it is and how it lies (see :class:`blocks.Shape`).

    A block is a run, so its first number and size say which numbers it holds: ``sequential``
    from ``first`` upwards (wrapping 7 to 1), or ``size`` times ``first`` when ``identical``.
    ``wild_at`` is the wild's place (None without a wild). Blocks are called ``b1``, ``b2``...
    in the order they were played this round (their place in ``LotteryState.blocks``).
    """

    owner: int
    kind: str
    first: int
    size: int
    wild_at: int | None = None

    @classmethod
    def from_shape(cls, owner: int, shape: Shape) -> Block:
        """The block that lies as ``shape``."""
        return cls(owner, shape.kind, shape.numbers[0], len(shape.numbers), shape.wild_at)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The numbers in table order, the wild's included."""
        return block_numbers(self.kind, self.first, self.size)

    @property
    def shape(self) -> Shape:
        """The block as an immutable :class:`Shape`."""
        return Shape(self.kind, self.numbers, self.wild_at)

    @property
    def wild_number(self) -> int | None:
        """The number the block's wild stands for, if it has one."""
        if self.wild_at is None or self.kind == IDENTICAL:
            return None if self.wild_at is None else self.first
        return (self.first - 1 + self.wild_at) % len(NUMBERS) + 1  # without listing the run

    def cards(self) -> list[str]:
        """The card ids lying in the block."""
        return list(_cards(self.kind, self.first, self.size, self.wild_at))


#: a block's owner (``has_block`` looks through the blocks at every decision)
_OWNER = attrgetter("owner")


@lru_cache(maxsize=4096)
def hand_summary(hand: tuple[str, ...]) -> tuple[tuple[int, ...], int, int]:
    """(how many of each number 1-7, how many wilds, which numbers as bits: bit ``n - 1`` for
    number ``n``) of a hand: worked out at every decision, and the same hands come back game
    after game."""
    counts = tuple(map(hand.count, NUMBER_IDS))
    return counts, hand.count(WILD), sum(1 << index for index, count in enumerate(counts) if count)


@lru_cache(maxsize=1024)
def block_numbers(kind: str, first: int, size: int) -> tuple[int, ...]:
    """The numbers of a block lying as ``kind`` from ``first``, ``size`` long, in table order."""
    return (first,) * size if kind == IDENTICAL else sequence(first, size)


@lru_cache(maxsize=1024)
def _cards(kind: str, first: int, size: int, wild_at: int | None) -> tuple[str, ...]:
    numbers = block_numbers(kind, first, size)
    return tuple(WILD if i == wild_at else str(n) for i, n in enumerate(numbers))


@dataclass
class LotteryState:
    """Plain data for one game of Thanks a Lottery (three rounds)."""

    players: int
    dealer: int
    round: int = 1
    phase: str = SETUP
    #: the seat whose turn it is (during FINALIZE: see ``deciders``)
    turn: int = 0
    #: cards still in the deck by id (their order is unknown: chance decides each draw)
    deck: dict[str, int] = field(default_factory=dict)
    #: cards still to deal this round (the next goes to the seat after the last one dealt to)
    to_deal: int = 0
    #: each seat's hand, card ids sorted 1-7 then wild
    hands: list[list[str]] = field(default_factory=list)
    #: blocks on the table, in the order they were played (b1, b2, ...)
    blocks: list[Block] = field(default_factory=list)
    #: dice not yet rolled into the pool this round
    to_roll: int = 0
    #: values of the dice in the pool, sorted
    pool: list[int] = field(default_factory=list)
    #: values of each seat's dice, sorted
    dice: list[list[int]] = field(default_factory=list)
    #: dice the current player has earned and not yet taken from the pool
    dice_owed: int = 0
    #: the seat who caused the round to end (deals the next round)
    ender: int | None = None
    #: seats still to say which dice they re-roll, in order
    deciders: list[int] = field(default_factory=list)
    #: picked-up dice waiting to be re-rolled: the owner's seat once per die, in seat order
    rerolling: list[int] = field(default_factory=list)
    #: tokens on the prize card, lowest space first (the rest are in the tin)
    drawn: list[str] = field(default_factory=list)
    #: each finished round's scores by seat
    round_scores: list[list[int]] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        """Points by seat over the finished rounds."""
        return [sum(scores[seat] for scores in self.round_scores) for seat in range(self.players)]

    def counts(self, seat: int) -> tuple[int, ...]:
        """How many of each number 1-7 ``seat`` holds."""
        return hand_summary(tuple(self.hands[seat]))[0]

    def wilds(self, seat: int) -> int:
        """How many wilds ``seat`` holds."""
        return self.hands[seat].count(WILD)

    def block(self, block_id: str) -> Block | None:
        """The block called ``block_id`` (``b1``, ``b2``, ...) this round, if it exists."""
        digits = block_id[1:]
        if block_id[:1] != "b" or not digits.isdigit() or digits.startswith("0"):
            return None
        index = int(digits) - 1
        return self.blocks[index] if index < len(self.blocks) else None

    def block_id(self, block: Block) -> str:
        """The name of ``block`` this round, e.g. ``b2``."""
        # by identity: two blocks can lie alike (4 4 4 twice)
        return f"b{next(i for i, b in enumerate(self.blocks) if b is block) + 1}"

    def next_block_id(self) -> str:
        """The name the next block played this round will get."""
        return f"b{len(self.blocks) + 1}"

    def has_block(self, seat: int) -> bool:
        """True once ``seat`` has played a block this round (unlocking the other actions)."""
        return seat in map(_OWNER, self.blocks)  # cheaper than any() on a few blocks

    def block_cards(self, seat: int) -> int:
        """How many cards lie in ``seat``'s blocks."""
        return sum(block.size for block in self.blocks if block.owner == seat)


# --- small moves on the cards --------------------------------------------------------------------


def insort_card(hand: list[str], card: str) -> None:
    """Put ``card`` into a sorted hand in its place."""
    bisect.insort(hand, card)  # "1" < ... < "7" < "wild"


def remove_cards(hand: list[str], cards: list[str]) -> None:
    """Take ``cards`` out of a hand (the caller checked they are there)."""
    for card in cards:
        hand.remove(card)


def take_from_deck(state: LotteryState, card: str) -> None:
    """One ``card`` leaves the deck (the caller checked it is there)."""
    state.deck[card] -= 1
    if not state.deck[card]:
        del state.deck[card]


# --- events ------------------------------------------------------------------------------------


@event
class BlockPlayed(Event):
    """``player`` laid a new block ``block`` (its cards, e.g. ``("6", "7", "wild")``)."""

    player: int
    block: str
    cards: tuple[str, ...]


@event
class CardsAdded(Event):
    """``player`` added ``cards`` to ``owner``'s block ``block``."""

    player: int
    block: str
    owner: int
    cards: tuple[str, ...]


@event
class WildReplaced(Event):
    """``player`` put a real ``number`` in place of the wild in ``owner``'s block and took the wild."""

    player: int
    block: str
    owner: int
    number: int


@event
class DieTaken(Event):
    """``player`` took a die showing ``value`` from the pool."""

    player: int
    value: int


@event
class RoundStopped(Event):
    """Turns stopped: ``player`` caused the end of round ``round`` (``reason`` in words)."""

    round: int
    player: int
    reason: str


@event
class DiceRerolled(Event):
    """``player`` picked up dice showing ``values`` to re-roll them."""

    player: int
    values: tuple[int, ...]


@event
class RoundScored(Event):
    """One seat's round score, part by part (the total is never below 0)."""

    player: int
    block_cards: int
    dice: int
    lottery: int
    lucky: int
    hand: int
    score: int
