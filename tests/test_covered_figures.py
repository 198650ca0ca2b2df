"""``companion bench covered``'s figures (vision.covered_figures): the scenes it reads are cards
beneath a card, and what it counts as wrong is wrong (synthetic faces: no shared photos needed)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.covered_figures import BLURS, STRIPS, figures, look_alike, second_digit
from vision.taught_scene import SYNTHETIC_SEEDS, synthetic_face


def _table() -> np.ndarray:
    rng = np.random.default_rng(3)
    return cv2.GaussianBlur(rng.normal(90, 25, (300, 300, 3)).clip(0, 255).astype(np.uint8), (0, 0), 2.0)


def test_covered_cards_are_counted_right_and_never_taught_ones_are_never_named() -> None:
    ids = ("cherry", "plum", "bell", "seven")
    # Each face twice: the odd places are taught, the even ones read.
    cutouts = [
        (card_id, synthetic_face(seed))
        for seed, card_id in zip(SYNTHETIC_SEEDS, ids, strict=True)
        for _twice in range(2)
    ]
    lines = figures(cutouts, [_table()])
    assert [line["blur"] for line in lines] == list(BLURS)
    sharp = lines[0]
    assert sharp["cards"] == len(ids) * len(STRIPS)
    assert sharp["right"] >= len(ids)  # the strip with its index names most of them
    for line in lines:
        assert line["right"] + line["wrong"] + line["unidentified"] == line["cards"]
        assert (line["wrong"], line["untaught_named"], line["look_alike_named"]) == (0, 0, 0)


def test_a_look_alike_keeps_the_art_and_changes_the_index() -> None:
    face = synthetic_face(11)
    changed = look_alike(face)
    assert changed.shape == (280, 200, 3)
    index = (slice(4, 43), slice(4, 28))
    assert np.abs(changed[index].astype(int) - face[index].astype(int)).mean() > 10
    middle = (slice(100, 180), slice(40, 160))
    assert np.array_equal(changed[middle], face[middle])


def test_the_second_digit_figure_reads_the_faces_and_names_no_look_alike_from_a_narrow_strip() -> None:
    """A quarter strip of a two-digit index shows the first digit and part of the second: its
    look-alikes are never named there (vision.rank_extent); a strip of four tenths names the
    taught faces."""
    lines = second_digit([_table()], second_digits="068")
    assert [line["blur"] for line in lines] == list(BLURS)
    # "50" and "46" have one of the three second digits themselves, "34" and "19" none.
    assert {line["narrow"]["strangers"] for line in lines} == {10}
    assert lines[0]["wide"]["right"] == lines[0]["wide"]["faces"] == 4
    for line in lines:
        assert line["narrow"]["named"] == []
        assert set(line["wide"]["named"]) <= {"56", "58", "30", "36", "38", "10", "16", "18", "40", "48"}
