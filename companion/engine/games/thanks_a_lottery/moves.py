"""Thanks a Lottery's action words and the block moves a hand can make, with their shapes.

Kept apart from the rules (``game``) so the bot and the transcript can name and look up moves
without importing the game that uses them.
"""

from __future__ import annotations

from functools import lru_cache

from companion.engine.actions import Action, ActionArg
from companion.engine.games.thanks_a_lottery.blocks import (
    IDENTICAL,
    MIN_BLOCK,
    SEQUENTIAL,
    Counts,
    Extension,
    Shape,
    extensions,
    new_blocks,
    sequence,
)
from companion.engine.games.thanks_a_lottery.components import NUMBERS
from companion.engine.games.thanks_a_lottery.state import Block, block_numbers

PLAY, ADD, REPLACE, PASS = "play", "add", "replace", "pass"
TAKE_DIE, REROLL_DICE, KEEP = "take", "reroll", "keep"
LONG_GAME, LUCKY_CARD = "long-game", "lucky-card"


def wild_arg(number: int) -> str:
    """The action argument that declares a wild's number, e.g. ``wild=1``."""
    return f"wild={number}"


#: bit ``n - 1`` set for each number 1-7 outside the run of ``size`` numbers from ``first``
_OUTSIDE = {
    (first, size): sum(1 << (n - 1) for n in NUMBERS if n not in sequence(first, size))
    for first in NUMBERS for size in range(MIN_BLOCK, len(NUMBERS) + 1)
}


@lru_cache(maxsize=4096)
def _held(counts: Counts) -> int:
    """The numbers the hand holds at least one of, as bits (bit ``n - 1`` for number ``n``)."""
    return sum(1 << index for index, count in enumerate(counts) if count)


@lru_cache(maxsize=8192)
def play_moves(counts: Counts, wilds: int) -> dict[Action, Shape]:
    """``play ...`` actions for every block the hand can lay, with their shapes.

    The same moves in the same order as :func:`blocks.new_blocks` gives shapes, put together
    from parts that depend on less of the hand (one number's count; which numbers are held),
    so a hand not seen before costs a few look-ups instead of a fresh search.
    """
    wild = 1 if wilds else 0
    moves: dict[Action, Shape] = {}
    for number, held in enumerate(counts, 1):
        if held + wild >= MIN_BLOCK:
            moves.update(_identical_plays(number, held, wild))
    moves.update(_run_plays(_held(counts), wild))
    return moves


def _play_action(shape: Shape) -> Action:
    tail = () if shape.wild_number is None else (wild_arg(shape.wild_number),)
    return Action.of(PLAY, *shape.real_numbers, *tail)


@lru_cache(maxsize=512)
def _identical_plays(number: int, held: int, wild: int) -> dict[Action, Shape]:
    """The identical blocks of ``number`` from ``held`` of it (and a wild if ``wild``)."""
    counts = tuple(held if n == number else 0 for n in NUMBERS)
    return {_play_action(shape): shape for shape in new_blocks(counts, wild) if shape.kind == IDENTICAL}


@lru_cache(maxsize=256)
def _run_plays(held: int, wild: int) -> dict[Action, Shape]:
    """The sequences a hand holding the numbers ``held`` (bits) can lay (with a wild if ``wild``)."""
    counts = tuple((held >> (n - 1)) & 1 for n in NUMBERS)
    return {_play_action(shape): shape for shape in new_blocks(counts, wild) if shape.kind == SEQUENTIAL}


def add_moves(block_id: str, shape: Shape, counts: Counts, wilds: int) -> dict[Action, Extension]:
    """``add B ...`` actions for every way to grow block ``block_id`` from the hand."""
    first, size = shape.numbers[0], len(shape.numbers)
    return block_moves(block_id, shape.kind, first, size, shape.wild_at, counts, wilds)


def block_moves(block_id: str, kind: str, first: int, size: int, wild_at: int | None,
                counts: Counts, wilds: int) -> dict[Action, Extension]:
    """:func:`add_moves` for the block that lies as ``kind``, ``first``, ``size`` and
    ``wild_at`` (a :class:`state.Block`'s fields, so no :class:`Shape` is built to ask)."""
    part = _part(kind, first, size, counts, _held(counts))
    return _block_moves(block_id, kind, first, size, wild_at, part, 1 if wilds and wild_at is None else 0)


def block_decisions(blocks: list[Block], seat: int, counts: Counts, wilds: int,
                    growths: dict[str, dict[Action, Extension]] | None = None,
                    held: int | None = None) -> list[Action]:
    """Every ``add`` ``seat`` can make now, block by block (b1, b2...) as :func:`block_moves`
    lists them (wilds only into the player's own blocks), then every ``replace``: one pass
    over the table's blocks, as this runs at every decision. ``growths`` (when given) gets
    each block's ``add`` moves with what they add, by block id, as :func:`block_moves` has them;
    ``held``: the numbers the hand holds as bits, when the caller knows them."""
    if held is None:
        held = _held(counts)
    actions: list[Action] = []
    replaces: list[Action] = []
    for index, block in enumerate(blocks):
        kind, first, size, wild_at = block.kind, block.first, block.size, block.wild_at
        block_id = _BLOCK_IDS[index] if index < len(_BLOCK_IDS) else f"b{index + 1}"
        part = counts[first - 1] if kind == IDENTICAL else held & _OUTSIDE[first, size]  # _part
        wild = 1 if wilds and wild_at is None and block.owner == seat else 0
        if part or wild:  # else no card of the hand fits: nothing to look up
            moves = _block_moves(block_id, kind, first, size, wild_at, part, wild)
            actions += moves
            if growths is not None:
                growths[block_id] = moves
        if wild_at is not None and can_replace(block, seat, counts):
            replaces.append(Action.of(REPLACE, block_id))
    actions += replaces
    return actions


def can_replace(block: Block, seat: int, counts: Counts) -> bool:
    """``seat`` may swap a real card for the wild in ``block``: someone else's block whose
    wild stands for a number the hand holds."""
    if block.owner == seat or block.wild_at is None:
        return False
    number = block.wild_number
    return number is not None and bool(counts[number - 1])


#: the names of the first blocks of a round (b1, b2...), made once
_BLOCK_IDS = tuple(f"b{index}" for index in range(1, 65))


def _part(kind: str, first: int, size: int, counts: Counts, held: int) -> int:
    """What of the hand decides how a block grows: the count of an identical block's number,
    or which numbers outside a sequence are held (bits); hands alike in it grow it alike, so
    one cached entry serves them all. 0 (with no wild to use): the block cannot grow."""
    return counts[first - 1] if kind == IDENTICAL else held & _OUTSIDE[first, size]


@lru_cache(maxsize=16384)
def _block_moves(block_id: str, kind: str, first: int, size: int, wild_at: int | None,
                 part: int, wild: int) -> dict[Action, Extension]:
    growths = _growths(kind, first, size, wild_at, part, wild)
    return {Action.of(ADD, block_id, *args): ext for args, ext in growths}


@lru_cache(maxsize=8192)
def _growths(kind: str, first: int, size: int, wild_at: int | None,
             part: int, wild: int) -> tuple[tuple[tuple[ActionArg, ...], Extension], ...]:
    """The ``add`` arguments after the block id, with each extension, for any block lying so.

    ``part``: see :func:`_part`; the growths are those of the smallest hand alike in it.
    """
    numbers = block_numbers(kind, first, size)
    if kind == IDENTICAL:
        counts = tuple(part if n == first else 0 for n in NUMBERS)
    else:
        counts = tuple((part >> (n - 1)) & 1 for n in NUMBERS)
    out = []
    for ext in extensions(Shape(kind, numbers, wild_at), counts, wild):
        tail = () if ext.wild is None else (wild_arg(ext.wild),)
        out.append(((*ext.real_added, *tail), ext))
    return tuple(out)


def sub_multisets(values: list[int]) -> list[tuple[int, ...]]:
    """Every non-empty choice of dice by value from ``values`` (sorted), smallest first (by
    size, then by value within a size)."""
    chosen: list[tuple[int, ...]] = [()]
    for value in sorted(set(values)):  # each choice so far, with 0, 1, 2... dice of this value
        runs = [(value,) * k for k in range(values.count(value) + 1)]
        chosen = [c + run for c in chosen for run in runs]
    # Sorted size by size: many small sorts instead of one big one (a hand of 15 dice has
    # over a thousand choices, listed whenever a new hand finalizes).
    by_size: list[list[tuple[int, ...]]] = [[] for _ in range(len(values) + 1)]
    for choice in chosen:
        by_size[len(choice)].append(choice)
    ordered: list[tuple[int, ...]] = []
    for same_size in by_size[1:]:  # without the empty choice
        same_size.sort()
        ordered += same_size
    return ordered


@lru_cache(maxsize=4096)
def finalize_moves(dice: tuple[int, ...]) -> tuple[Action, ...]:
    """``keep`` and every ``reroll ...`` for a player holding ``dice`` (sorted): a hand of 15
    dice has hundreds, so they are listed once per hand (the actions are shared, not copied)."""
    return (Action.of(KEEP), *map(_reroll, sub_multisets(list(dice))))


@lru_cache(maxsize=8192)
def _reroll(chosen: tuple[int, ...]) -> Action:
    return Action.of(REROLL_DICE, *chosen)


@lru_cache(maxsize=128)
def take_moves(values: frozenset[int]) -> tuple[Action, ...]:
    """``take N`` for each value the pool shows, lowest first (made once per set of values)."""
    return tuple(Action.of(TAKE_DIE, v) for v in sorted(values))


def picked_dice(action: Action, dice: list[int]) -> tuple[int, ...] | None:
    """The dice ``action`` picks up to re-roll when it is one of :func:`finalize_moves`'s
    ``reroll`` moves for ``dice``, else None: numbers in rising order that ``dice`` holds."""
    values = action.args
    if action.verb != REROLL_DICE or not values or not all(type(v) is int for v in values):
        return None
    picked = tuple(int(v) for v in values)
    if list(picked) != sorted(picked) or any(picked.count(v) > dice.count(v) for v in set(picked)):
        return None
    return picked
