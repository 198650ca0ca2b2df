"""Outlines scored against labelled boxes (:mod:`vision.label_boxes`), the realcards protocol's rule."""

from __future__ import annotations

import pytest

from vision.label_boxes import box_iou, box_of, placed, read_at


def test_a_box_is_taken_round_the_corners_in_the_labels_pixels() -> None:
    corners = [(20, 10), (60, 12), (58, 90), (18, 88)]
    assert box_of(corners) == (18.0, 10.0, 60.0, 90.0)
    assert box_of(corners, scale=2.0) == (9.0, 5.0, 30.0, 45.0)  # found in a copy twice as large


def test_iou_of_boxes() -> None:
    assert box_iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert box_iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert box_iou((0, 0, 10, 10), (20, 20, 30, 30)) == 0.0
    assert box_iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0  # no area: no overlap, no division by zero


def test_a_card_under_another_is_placed_by_what_shows_of_it_when_that_matches_a_label() -> None:
    shows = (0.0, 0.0, 40.0, 100.0)  # the strip the label surrounds
    lies = (0.0, 0.0, 70.0, 100.0)  # where the whole card lies, partly under the card on top
    labels = [shows, (50.0, 0.0, 120.0, 100.0)]
    assert placed([([lies, shows], "nine")], labels) == [(shows, "nine")]


def test_otherwise_by_whichever_of_its_boxes_overlaps_a_label_most() -> None:
    lies = (0.0, 0.0, 70.0, 100.0)
    shows = (0.0, 0.0, 10.0, 20.0)  # too small a part to match the label
    labels = [(0.0, 0.0, 68.0, 100.0)]
    assert placed([([lies, shows], None)], labels) == [(lies, None)]
    assert placed([([lies], "ten")], []) == [(lies, "ten")]  # no labels: the one box it has


def test_each_label_gets_the_ids_read_on_it_and_outlines_on_no_label_are_phantoms() -> None:
    labels = [(0.0, 0.0, 50.0, 70.0), (100.0, 0.0, 150.0, 70.0), (200.0, 0.0, 250.0, 70.0)]
    seen = [
        ([(1.0, 1.0, 50.0, 70.0)], "nine"),
        ([(100.0, 0.0, 149.0, 69.0)], None),  # found, not named
        ([(300.0, 300.0, 350.0, 370.0)], "ten"),  # where no card is
        ([(310.0, 0.0, 360.0, 70.0)], None),
    ]
    read, phantoms = read_at(labels, seen)
    assert read == [{"nine"}, set(), None]  # the third card: no outline stands for it
    assert phantoms == ["ten", None]
