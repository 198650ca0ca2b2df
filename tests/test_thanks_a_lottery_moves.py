"""Thanks a Lottery's move lists: the cached, pieced-together lists are exactly (and in the same
order, which the seeded bots depend on) what the plain search over blocks gives."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from companion.engine.actions import Action
from companion.engine.games.thanks_a_lottery.blocks import Extension, Shape, extensions, new_blocks
from companion.engine.games.thanks_a_lottery.moves import (
    ADD,
    KEEP,
    PLAY,
    REPLACE,
    REROLL_DICE,
    add_moves,
    block_decisions,
    finalize_moves,
    picked_dice,
    play_moves,
    sub_multisets,
    wild_arg,
)
from companion.engine.games.thanks_a_lottery.state import Block


def _hand(rng: random.Random) -> tuple[tuple[int, ...], int]:
    numbers = [rng.randint(1, 7) for _ in range(rng.randint(0, 12))]
    return tuple(numbers.count(n) for n in range(1, 8)), rng.choice((0, 0, 1, 2))


def _tail(wild: int | None) -> tuple[str, ...]:
    return () if wild is None else (wild_arg(wild),)


def _plain_plays(counts: tuple[int, ...], wilds: int) -> list[tuple[Action, Shape]]:
    return [(Action.of(PLAY, *s.real_numbers, *_tail(s.wild_number)), s) for s in new_blocks(counts, wilds)]


def _plain_adds(
    block_id: str, shape: Shape, counts: tuple[int, ...], wilds: int
) -> list[tuple[Action, Extension]]:
    grown = extensions(shape, counts, wilds)
    return [(Action.of(ADD, block_id, *e.real_added, *_tail(e.wild)), e) for e in grown]


@pytest.mark.parametrize("seed", range(3))
def test_play_moves_are_every_block_of_the_hand_in_search_order(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(300):
        counts, wilds = _hand(rng)
        assert list(play_moves(counts, wilds).items()) == _plain_plays(counts, wilds), (counts, wilds)


@pytest.mark.parametrize("seed", range(3))
def test_add_moves_are_every_growth_of_the_block_in_search_order(seed: int) -> None:
    rng = random.Random(100 + seed)
    shapes = [s for s in new_blocks((3, 3, 3, 3, 3, 3, 3), 1)]
    for _ in range(600):
        counts, wilds = _hand(rng)
        shape = rng.choice(shapes)
        block_id = f"b{rng.randint(1, 12)}"
        got = list(add_moves(block_id, shape, counts, wilds).items())
        assert got == _plain_adds(block_id, shape, counts, wilds), (shape, counts, wilds)


def test_block_decisions_are_each_blocks_adds_in_table_order_then_the_replaces() -> None:
    """Wilds go only into one's own blocks; a wild in someone else's block can be replaced by
    the number it stands for."""
    rng = random.Random(7)
    shapes = [s for s in new_blocks((3, 3, 3, 3, 3, 3, 3), 1)]
    for _ in range(300):
        counts, wilds = _hand(rng)
        blocks = [Block.from_shape(rng.randint(0, 2), rng.choice(shapes)) for _ in range(rng.randint(0, 6))]
        expected = []
        for index, block in enumerate(blocks, 1):
            usable = wilds if block.owner == 1 else 0
            expected += [action for action, _ in _plain_adds(f"b{index}", block.shape, counts, usable)]
        expected += [Action.of(REPLACE, f"b{index}") for index, block in enumerate(blocks, 1)
                     if block.owner != 1 and block.wild_number is not None and counts[block.wild_number - 1]]
        assert block_decisions(blocks, 1, counts, wilds) == expected


@pytest.mark.parametrize("dice", [[], [4], [1, 1], [2, 3, 3, 6], [1, 1, 2, 2, 2, 5, 6, 6, 6, 6]])
def test_rerolls_are_every_choice_of_dice_by_size_then_value(dice: list[int]) -> None:
    every = {c for k in range(1, len(dice) + 1) for c in combinations(dice, k)}
    expected = sorted(every, key=lambda c: (len(c), c))
    assert sub_multisets(dice) == expected
    moves = finalize_moves(tuple(dice))
    assert list(moves) == [Action.of(KEEP), *(Action.of(REROLL_DICE, *c) for c in expected)]
    for action in moves[1:]:
        assert picked_dice(action, dice) == action.args


@pytest.mark.parametrize("seed", range(3))
def test_a_reroll_is_accepted_exactly_when_it_is_offered(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        dice = sorted(rng.randint(1, 6) for _ in range(rng.randint(0, 8)))
        offered = set(finalize_moves(tuple(dice))[1:])
        picks = [rng.randint(0, 7) for _ in range(rng.randint(0, 4))]
        for action in (Action.of(REROLL_DICE, *picks), Action.of(REROLL_DICE, *sorted(picks)),
                       Action.of(REROLL_DICE, *sorted(picks), "x"), Action.of(KEEP, *picks)):
            assert (picked_dice(action, dice) is not None) == (action in offered), (dice, action)
