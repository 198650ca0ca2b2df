"""Answers kept while the table where they were read does not change: given again for the same
card while its blocks stay, worked out again once they change (at once or by slow drift), and
never kept past a look that did not ask for them."""

from __future__ import annotations

import numpy as np

from vision.frame_blocks import STILL_LEVELS, STILL_SIZE
from vision.kept_answers import SAME_CARD_PX, KeptAnswers, answer_of

SHAPE = (720, 1280, 3)
CARD = np.float32([[100, 100], [200, 100], [200, 240], [100, 240]])
# The part of the frame an answer about CARD was read from, and a block far from it.
REGION = np.float32([[90, 90], [210, 90], [210, 250], [90, 250]])
FAR_BLOCK = (30, 60)  # (row, column) of the small copy: the frame's bottom right


def small(level: float = 100.0) -> np.ndarray:
    return np.full((STILL_SIZE[1], STILL_SIZE[0]), level, np.int16)


class Counter:
    """A question whose every working-out is counted and gives a new answer."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return self.calls


def look(kept: KeptAnswers, copy: np.ndarray, question: Counter, quad: np.ndarray = CARD) -> int:
    kept.settled(copy, SHAPE)
    return kept.answer("paper", quad, REGION, question)


def test_an_answer_is_given_again_while_its_blocks_stay_and_the_card_lies_where_it_lay() -> None:
    kept, question = KeptAnswers(), Counter()
    assert look(kept, small(), question) == 1
    noisy = small()
    noisy += np.random.default_rng(0).integers(-3, 4, noisy.shape).astype(np.int16)
    elsewhere = noisy.copy()
    elsewhere[FAR_BLOCK] += 60  # a card laid far from it
    assert look(kept, noisy, question) == 1
    assert look(kept, elsewhere, question, CARD + SAME_CARD_PX / 2) == 1
    assert question.calls == 1 and kept.reused == 2
    # Another question about the same card, or the same question about a card beside it: new.
    assert kept.answer("strip", CARD, REGION, question) == 2
    assert kept.answer("paper", CARD + 40, REGION + 40, question) == 3


def test_an_answer_is_worked_out_again_once_the_table_changed_where_it_was_read() -> None:
    kept, question = KeptAnswers(), Counter()
    look(kept, small(), question)
    changed = small()
    changed[6, 7] += STILL_LEVELS + 4  # a block of REGION (frame px 140, 120)
    assert look(kept, changed, question) == 2


def test_light_drifting_in_steps_too_small_to_notice_one_by_one_is_noticed() -> None:
    kept, question = KeptAnswers(), Counter()
    look(kept, small(), question)
    step = STILL_LEVELS * 0.6  # each look differs from the one before by less than a change
    assert look(kept, small(100 + step), question) == 1
    assert look(kept, small(100 + 2 * step), question) == 2


def test_an_answer_not_asked_for_in_a_look_is_gone_and_nothing_is_kept_before_a_look() -> None:
    kept, question = KeptAnswers(), Counter()
    assert kept.answer("paper", CARD, REGION, question) == 1  # no look begun: not kept
    assert look(kept, small(), question) == 2
    kept.settled(small(), SHAPE)  # a look that asks nothing about the card (it was taken away)
    assert look(kept, small(), question) == 3
    kept.settled(small(), (480, 640, 3))  # another camera mode: nothing read before holds
    assert kept.answer("paper", CARD, REGION, question) == 4
    assert answer_of(None, "paper", CARD, REGION, question) == 5  # a photo: nothing kept
