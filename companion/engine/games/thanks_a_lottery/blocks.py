"""Blocks: what makes a block, and every block a hand can play or add.

A block is 3 or more cards that are either identical (``4 4 4``) or sequential (``3 4 5``;
sequences wrap from 7 to 1, like ``6 7 1``, but never hold a number twice). A block holds at
most one wild, which stands for one number, declared when it is played and kept after.

A :class:`Shape` is a block's numbers in table order (the wild's declared number included)
and the position of the wild. Sequential shapes are kept in rising order (``6 7 1``); the wild
of an identical block is kept last. The same :func:`classify` decides a block in play and in
``companion adjudicate``.

>>> classify([6, 7, None]).numbers   # a wild after 7 stands for 1
(6, 7, 1)
>>> classify([4, None, 4]).kind
'identical'
>>> classify([3, 5, 6])
Traceback (most recent call last):
...
companion.engine.games.thanks_a_lottery.blocks.BlockError: 3 5 6 is not a block: ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from companion.engine.games.thanks_a_lottery.components import NUMBERS

SEQUENTIAL = "sequential"
IDENTICAL = "identical"
MIN_BLOCK = 3
#: hand counts of the numbers 1-7 (index 0 = number 1)
Counts = tuple[int, ...]


class BlockError(ValueError):
    """The cards do not form a block; the message says why in table words."""


def next_number(n: int) -> int:
    """The number after ``n`` in a sequence (7 wraps to 1)."""
    return n % len(NUMBERS) + 1


def prev_number(n: int) -> int:
    """The number before ``n`` in a sequence (1 wraps to 7)."""
    return (n - 2) % len(NUMBERS) + 1


@dataclass(frozen=True)
class Shape:
    """A block's layout: ``numbers`` in table order (the wild's number included) and
    ``wild_at``, the index of the wild in ``numbers`` (None without a wild)."""

    kind: str
    numbers: tuple[int, ...]
    wild_at: int | None = None

    @property
    def wild_number(self) -> int | None:
        """The number the wild stands for, if there is one."""
        return None if self.wild_at is None else self.numbers[self.wild_at]

    @property
    def real_numbers(self) -> tuple[int, ...]:
        """The numbers of the real (non-wild) cards, in table order."""
        return tuple(n for i, n in enumerate(self.numbers) if i != self.wild_at)

    def cards_text(self) -> str:
        """The block as it lies, e.g. ``6 7 wild(1)``."""
        return " ".join(f"wild({n})" if i == self.wild_at else str(n) for i, n in enumerate(self.numbers))


def _rising(numbers: Sequence[int]) -> bool:
    return all(next_number(a) == b for a, b in zip(numbers, numbers[1:], strict=False))


def classify(cards: Sequence[int | None]) -> Shape:
    """The shape of ``cards`` (numbers in table order, ``None`` for a wild); raises
    :class:`BlockError` with the reason when they are not a block.

    A sequence may be read either way along the table (``5 4 3`` is ``3 4 5``).
    """
    text = " ".join("wild" if c is None else str(c) for c in cards)
    if len(cards) < MIN_BLOCK:
        raise BlockError(f"{text or 'nothing'} is not a block: a block needs at least {MIN_BLOCK} cards")
    wilds = [i for i, c in enumerate(cards) if c is None]
    if len(wilds) > 1:
        raise BlockError(f"{text} is not a block: only one wild per block")
    real = [c for c in cards if c is not None]
    wild_at = wilds[0] if wilds else None
    if len(set(real)) == 1:
        n = real[0]
        return Shape(IDENTICAL, (n,) * len(cards), None if wild_at is None else len(cards) - 1)
    if len(cards) > len(NUMBERS) or len(set(real)) != len(real):
        raise BlockError(f"{text} is not a block: a sequence cannot hold the same number twice")
    for order in (list(cards), list(reversed(cards))):
        first = next(i for i, c in enumerate(order) if c is not None)
        numbers = [0] * len(order)
        numbers[first] = order[first]  # type: ignore[assignment]
        for i in range(first + 1, len(order)):
            numbers[i] = next_number(numbers[i - 1])
        for i in range(first - 1, -1, -1):
            numbers[i] = prev_number(numbers[i + 1])
        if all(c is None or c == n for c, n in zip(order, numbers, strict=True)):
            at = order.index(None) if None in order else None
            return Shape(SEQUENTIAL, tuple(numbers), at)
    raise BlockError(
        f"{text} is not a block: the cards must all be the same number or run in sequence (7 wraps to 1)"
    )


@lru_cache(maxsize=256)
def sequence(start: int, length: int) -> tuple[int, ...]:
    """``length`` numbers in sequence from ``start`` (7 wraps to 1)."""
    numbers = [start]
    while len(numbers) < length:
        numbers.append(next_number(numbers[-1]))
    return tuple(numbers)


@lru_cache(maxsize=8192)
def new_blocks(counts: Counts, wilds: int) -> tuple[Shape, ...]:
    """Every block a hand (``counts`` of 1-7 and ``wilds``) can lay down, each once.

    A wild may fill any one place, including a number the hand also holds (the player's call).
    A full run of all seven numbers is listed once, starting at 1 (its ends take nothing more).
    """
    shapes: list[Shape] = []
    for n in NUMBERS:
        held = counts[n - 1]
        for size in range(MIN_BLOCK, held + 1):
            shapes.append(Shape(IDENTICAL, (n,) * size))
        if wilds:
            for size in range(MIN_BLOCK, held + 2):
                shapes.append(Shape(IDENTICAL, (n,) * size, size - 1))
    for length in range(MIN_BLOCK, len(NUMBERS) + 1):
        starts = NUMBERS if length < len(NUMBERS) else NUMBERS[:1]
        for start in starts:
            numbers = sequence(start, length)
            missing = [i for i, n in enumerate(numbers) if not counts[n - 1]]
            if not missing:
                shapes.append(Shape(SEQUENTIAL, numbers))
            if wilds and len(missing) <= 1:
                places = missing or range(length)
                shapes.extend(Shape(SEQUENTIAL, numbers, i) for i in places)
    return tuple(shapes)


@dataclass(frozen=True)
class Extension:
    """Cards added to a block: ``before`` and ``after`` its current ends (numbers in table
    order, the wild's number included) and the number a new wild stands for, if one is added."""

    before: tuple[int, ...]
    after: tuple[int, ...]
    wild: int | None
    result: Shape

    # Extensions are cached and shared: what they add is worked out once each.
    @cached_property
    def added(self) -> tuple[int, ...]:
        """Every added number in table order (the wild's included)."""
        return self.before + self.after

    @cached_property
    def real_added(self) -> tuple[int, ...]:
        """The added numbers that are real cards from the hand, in table order."""
        out = list(self.added)
        if self.wild is not None:
            out.remove(self.wild)
        return tuple(out)


@lru_cache(maxsize=8192)
def extensions(block: Shape, counts: Counts, wilds: int) -> tuple[Extension, ...]:
    """Every way to add one or more cards from the hand to ``block``.

    ``wilds`` is how many wilds the player may use here: 0 for another player's block or a
    block that already holds one. Identical blocks take more of their number; sequential ones
    grow at either end or both, up to all seven numbers.
    """
    use_wild = wilds > 0 and block.wild_at is None
    out: list[Extension] = []
    if block.kind == IDENTICAL:
        n = block.numbers[0]
        size = len(block.numbers)
        for k in range(1, counts[n - 1] + 1):
            real = Shape(IDENTICAL, (n,) * (size + k), block.wild_at)
            out.append(Extension((), (n,) * k, None, real))
        if use_wild:
            for k in range(counts[n - 1] + 1):
                grown = Shape(IDENTICAL, (n,) * (size + k + 1), size + k)
                out.append(Extension((), (n,) * (k + 1), n, grown))
        return tuple(out)
    room = len(NUMBERS) - len(block.numbers)
    seen: set[frozenset[int]] = set()
    for left in range(room + 1):
        for right in range(room - left + 1):
            if not left and not right:
                continue
            before = tuple(reversed(_back(block.numbers[0], left)))
            after = sequence(next_number(block.numbers[-1]), right) if right else ()
            added = before + after
            key = frozenset(added)
            if key in seen:  # a full run reached two ways is one and the same block
                continue
            seen.add(key)
            numbers = before + block.numbers + after
            shift = len(before)
            old_wild = None if block.wild_at is None else block.wild_at + shift
            missing = [i for i, n in enumerate(added) if not counts[n - 1]]
            if not missing:
                out.append(Extension(before, after, None, Shape(SEQUENTIAL, numbers, old_wild)))
            if use_wild and len(missing) <= 1:
                for i in missing or range(len(added)):
                    at = i if i < len(before) else i + len(block.numbers)
                    out.append(Extension(before, after, added[i], Shape(SEQUENTIAL, numbers, at)))
    return tuple(out)


def _back(first: int, count: int) -> list[int]:
    """The ``count`` numbers before ``first``, nearest first."""
    out: list[int] = []
    n = first
    for _ in range(count):
        n = prev_number(n)
        out.append(n)
    return out

