"""Thanks a Lottery blocks: what is a block, and which blocks a hand can lay or grow."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest

from companion.engine.games.thanks_a_lottery.blocks import (
    IDENTICAL,
    SEQUENTIAL,
    BlockError,
    Shape,
    classify,
    extensions,
    new_blocks,
)


def counts(*numbers: int) -> tuple[int, ...]:
    return tuple(numbers.count(n) for n in range(1, 8))


def test_a_sequence_wraps_from_7_to_1() -> None:
    assert classify([6, 7, 1]) == Shape(SEQUENTIAL, (6, 7, 1))
    assert classify([7, 1, 2, 3]).numbers == (7, 1, 2, 3)


def test_a_sequence_read_the_other_way_along_the_table_is_the_same_block() -> None:
    assert classify([5, 4, 3]) == Shape(SEQUENTIAL, (3, 4, 5))
    assert classify([2, 1, 7]) == Shape(SEQUENTIAL, (7, 1, 2))


def test_identical_cards_make_a_block() -> None:
    assert classify([4, 4, 4, 4]) == Shape(IDENTICAL, (4, 4, 4, 4))


def test_a_wild_stands_for_the_number_its_place_needs() -> None:
    assert classify([6, 7, None]) == Shape(SEQUENTIAL, (6, 7, 1), 2)
    assert classify([3, None, 5]) == Shape(SEQUENTIAL, (3, 4, 5), 1)
    assert classify([None, 2, 2]) == Shape(IDENTICAL, (2, 2, 2), 2)


@pytest.mark.parametrize(
    ("cards", "why"),
    [
        ([1, 2], "at least 3 cards"),
        ([], "at least 3 cards"),
        ([1, None, None], "only one wild per block"),
        ([3, 5, 6], "same number or run in sequence"),
        ([1, 2, 3, 4, 5, 6, 7, 1], "same number twice"),
        ([1, 2, 1], "same number twice"),
        ([6, 7, 1, 3], "run in sequence"),
    ],
)
def test_cards_that_are_not_a_block_say_why(cards: list[int | None], why: str) -> None:
    with pytest.raises(BlockError, match=why):
        classify(cards)


def test_a_hand_lists_its_wrap_around_blocks_and_each_block_once() -> None:
    shapes = new_blocks(counts(6, 7, 1, 2), 0)
    assert Shape(SEQUENTIAL, (6, 7, 1)) in shapes
    assert Shape(SEQUENTIAL, (6, 7, 1, 2)) in shapes
    assert Shape(SEQUENTIAL, (7, 1, 2)) in shapes
    assert len(shapes) == len(set(shapes)) == 3


def test_a_wild_fills_one_gap_or_any_place_in_a_new_block() -> None:
    shapes = new_blocks(counts(6, 7), 1)
    assert Shape(SEQUENTIAL, (6, 7, 1), 2) in shapes
    assert Shape(SEQUENTIAL, (5, 6, 7), 0) in shapes
    assert all(shape.wild_at is not None for shape in shapes)
    assert not any(len(shape.numbers) > 3 for shape in shapes)  # one wild fills one place only


def test_a_full_run_of_seven_is_listed_once() -> None:
    full = [s for s in new_blocks(counts(1, 2, 3, 4, 5, 6, 7), 0) if len(s.numbers) == 7]
    assert full == [Shape(SEQUENTIAL, (1, 2, 3, 4, 5, 6, 7))]


def test_identical_blocks_grow_with_more_of_their_number() -> None:
    grown = extensions(Shape(IDENTICAL, (5, 5, 5)), counts(5, 5, 1), 0)
    assert [e.added for e in grown] == [(5,), (5, 5)]


def test_sequential_blocks_grow_at_either_end_or_both() -> None:
    grown = {(e.before, e.after) for e in extensions(Shape(SEQUENTIAL, (6, 7, 1)), counts(5, 2), 0)}
    assert grown == {((5,), ()), ((), (2,)), ((5,), (2,))}


def test_no_wild_goes_into_a_block_that_holds_one() -> None:
    block = Shape(SEQUENTIAL, (3, 4, 5), 1)
    assert all(e.wild is None for e in extensions(block, counts(6), 1))


def test_a_wild_added_to_a_block_declares_its_number() -> None:
    grown = extensions(Shape(SEQUENTIAL, (3, 4, 5)), counts(), 1)
    assert {(e.wild, e.result.numbers) for e in grown} == {(2, (2, 3, 4, 5)), (6, (3, 4, 5, 6))}


def _laid(shape: Shape) -> list[int | None]:
    return [None if i == shape.wild_at else n for i, n in enumerate(shape.numbers)]


@pytest.mark.parametrize("seed", range(4))
def test_every_block_offered_in_play_is_a_block_by_the_adjudicate_rule(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        hand = counts(*(rng.randint(1, 7) for _ in range(rng.randint(3, 9))))
        wilds = rng.randint(0, 2)
        for shape in new_blocks(hand, wilds):
            assert classify(_laid(shape)) == shape
            for ext in extensions(shape, hand, wilds):
                grown = classify(_laid(ext.result))
                assert (grown.kind, sorted(grown.numbers), grown.wild_number) == (
                    ext.result.kind, sorted(ext.result.numbers), ext.result.wild_number)


@pytest.mark.parametrize("hand", [(6, 7, 1, 2, 2), (3, 3, 3, 4, 5), (1, 3, 5, 7, 7)])
def test_every_block_a_hand_can_lay_is_offered(hand: tuple[int, ...]) -> None:
    offered = {(tuple(sorted(s.real_numbers)), s.wild_at is not None) for s in new_blocks(counts(*hand), 1)}
    for size in range(2, len(hand) + 1):
        for reals in set(combinations(sorted(hand), size)):
            for wild in (False, True):
                cards: list[int | None] = [*reals, *([None] if wild else [])]
                is_block = False
                for order in permutations(cards):
                    try:
                        classify(order)
                    except BlockError:
                        continue
                    is_block = True
                    break
                assert is_block == ((reals, wild) in offered), (reals, wild)
