"""Thanks a Lottery's action words and the block moves a hand can make, with their shapes.

Kept apart from the rules (``game``) so the bot and the transcript can name and look up moves
without importing the game that uses them.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from companion.engine.actions import Action
from companion.engine.games.thanks_a_lottery.blocks import Extension, Shape, extensions, new_blocks

PLAY, ADD, REPLACE, PASS = "play", "add", "replace", "pass"
TAKE_DIE, REROLL_DICE, KEEP = "take", "reroll", "keep"
LONG_GAME, LUCKY_CARD = "long-game", "lucky-card"


def wild_arg(number: int) -> str:
    """The action argument that declares a wild's number, e.g. ``wild=1``."""
    return f"wild={number}"


@lru_cache(maxsize=8192)
def play_moves(counts: tuple[int, ...], wilds: int) -> dict[Action, Shape]:
    """``play ...`` actions for every block the hand can lay, with their shapes."""
    moves = {}
    for shape in new_blocks(counts, wilds):
        tail = () if shape.wild_number is None else (wild_arg(shape.wild_number),)
        moves[Action.of(PLAY, *shape.real_numbers, *tail)] = shape
    return moves


@lru_cache(maxsize=8192)
def add_moves(block_id: str, shape: Shape, counts: tuple[int, ...], wilds: int) -> dict[Action, Extension]:
    """``add B ...`` actions for every way to grow block ``block_id`` from the hand."""
    moves = {}
    for ext in extensions(shape, counts, wilds):
        tail = () if ext.wild is None else (wild_arg(ext.wild),)
        moves[Action.of(ADD, block_id, *ext.real_added, *tail)] = ext
    return moves


def sub_multisets(values: list[int]) -> list[tuple[int, ...]]:
    """Every non-empty choice of dice by value from ``values`` (sorted), smallest first."""
    distinct = sorted(set(values))
    ranges = [range(values.count(v) + 1) for v in distinct]
    out = []
    for picks in product(*ranges):
        chosen = tuple(v for v, k in zip(distinct, picks, strict=True) for _ in range(k))
        if chosen:
            out.append(chosen)
    return sorted(out, key=lambda c: (len(c), c))
