"""The fast marker search: outlines at half size, small markers and close looks at full size."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tests.test_vision_marker_codes import opencv_markers
from tests.test_vision_reader import calm
from vision.marker_codes import detect
from vision.marker_search import SMALL_MARKER_PX, MarkerFinder
from vision.markers import marker_image
from vision.reader import _detector_parameters, marker_finder
from vision.scenes import make_scene
from vision.simulated import SimulatedTable


def test_the_half_size_search_finds_what_the_full_size_search_finds() -> None:
    """Outlines found at half size, corners put back at full size: the markers OpenCV reads at
    full size, all but a rare blurred small one, with corners as close to the truth."""
    finder = marker_finder()
    full = found = 0
    errors: list[float] = []
    for seed in range(40):
        game = ["bandit", "mega-jackpot", "thanks-a-lottery", "jackpot-payout"][seed % 4]
        table = make_scene(game, 52000 + seed, seed % 2 == 1, 7)
        grey = cv2.cvtColor(table.frame(), cv2.COLOR_BGR2GRAY)
        half = cv2.resize(grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA)
        corners, ids = finder.find(grey, half)
        for marker_id, quads in opencv_markers(grey, trusted_only=True).items():
            for quad in quads:
                full += 1
                found += any(
                    np.abs(other - quad).max() < 3.0
                    for other, other_id in zip(corners, ids, strict=True)
                    if other_id == marker_id
                )
        truth = [quad for _placed, quads in table._marker_regions() for quad in quads]
        for quad in corners:
            errors.append(min(float(np.abs(true - quad).max()) for true in truth))
    assert full > 300
    assert found >= 0.98 * full
    assert float(np.median([e for e in errors if e < 5])) < 1.2


def test_a_close_look_reports_markers_in_frame_coordinates() -> None:
    image = np.full((300, 400), 255, np.uint8)
    image[100:160, 250:310] = marker_image(96, 60)
    corners, ids = marker_finder().look_closer(image, [(200, 50, 380, 220), (0, 0, 100, 100)], [], [])
    assert ids == [96]
    assert np.abs(corners[0] - np.array([[250, 100], [309, 100], [309, 159], [250, 159]])).max() < 1.0


def square(centre: tuple[float, float], side: float) -> np.ndarray:
    x, y = centre
    h = side / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]], np.float32)


def test_where_markers_would_be_small_is_searched_again() -> None:
    """Markers shrink from left (40 px) to right (24 px): the right edge, where they would be
    under SMALL_MARKER_PX, is the box; nothing on the left is."""
    finder = MarkerFinder(_detector_parameters(9), _detector_parameters(5, border=1))
    centres = [(100.0, 100.0), (100.0, 600.0), (700.0, 360.0), (1000.0, 200.0)]
    quads = [square(c, 40 - 16 * c[0] / 1000) for c in centres]
    box = finder._small_marker_box(quads, [1, 2, 3, 4], 1280, 720)
    assert box is not None
    x0, y0, x1, y1 = box
    assert 1000 < x0 < 1280 and x1 == 1280 and y0 == 0 and y1 == 720
    big = [square(c, 40) for c in centres]
    assert finder._small_marker_box(big, [1, 2, 3, 4], 1280, 720) is None


def test_too_few_markers_to_fit_means_the_whole_frame() -> None:
    finder = marker_finder()
    assert finder._small_marker_box([square((50, 50), 40)], [5], 1280, 720) == (0, 0, 1280, 720)
    assert finder._small_marker_box([], [], 1280, 720) == (0, 0, 1280, 720)


def test_a_mat_marker_counts_at_its_printed_size() -> None:
    """A 45 px mat corner marker stands for a 29 px card marker there: not small."""
    finder = MarkerFinder(_detector_parameters(9), _detector_parameters(5, border=1), {0: 1.5625})
    quads = [square((x, y), 45) for x, y in [(60, 60), (1220, 60), (1220, 660), (60, 660)]]
    assert finder._small_marker_box(quads, [0, 0, 0, 0], 1280, 720) is None
    as_cards = MarkerFinder(_detector_parameters(9), _detector_parameters(5, border=1))
    assert as_cards._small_marker_box([square((640, 360), 20)] * 3, [1, 2, 3], 1280, 720) is not None


def test_small_cards_the_half_size_search_misses_are_found_at_full_size() -> None:
    """Cards about 55 px wide (markers of ~16 px, under SMALL_MARKER_PX): the half-size pass
    alone finds fewer markers than the full-size search; ``find`` finds the same ones."""
    finder = marker_finder()
    missed_at_half = 0
    for seed in range(3):
        table = SimulatedTable("bandit", seed=seed, mat=False, style=calm(card_px=55, tilt=10))
        table.scatter(6)
        grey = cv2.cvtColor(table.frame(), cv2.COLOR_BGR2GRAY)
        half = cv2.resize(grey, (640, 360), interpolation=cv2.INTER_AREA)
        full_ids = sorted(detect(finder.full_size, grey)[1])
        missed_at_half += len(full_ids) - len(finder._half_size_search(grey, half)[1])
        assert sorted(finder.find(grey, half)[1]) == full_ids
    assert missed_at_half > 0
    assert SMALL_MARKER_PX > 16


def test_without_markers_expected_only_the_outlines_seen_at_half_size_are_searched_again() -> None:
    """No markers found at half size and none expected: the full-size search looks round the
    half-size pass's outlines, not at the whole frame, and still reads a marker it saw there."""
    finder = marker_finder()
    grey = np.full((720, 1280), 210, np.uint8)
    grey[300:340, 600:640] = marker_image(96, 40)
    half = cv2.resize(grey, (640, 360), interpolation=cv2.INTER_AREA)
    boxes: list[list[tuple[int, int, int, int]]] = []
    look_closer = finder.look_closer

    def recording(image: np.ndarray, where: list[tuple[int, int, int, int]], *rest: list) -> tuple:
        boxes.append(where)
        return look_closer(image, where, *rest)

    finder.look_closer = recording  # type: ignore[method-assign]
    _corners, ids = finder.find(grey, half, whole_frame=False)
    assert ids == [96]
    # One marker is too few to fit: looked at again round it (its card), not the whole frame.
    ((x0, y0, x1, y1),) = boxes[0]
    assert x0 < 600 and y0 < 300 and x1 > 640 and y1 > 340 and (x1 - x0) * (y1 - y0) < 0.2 * 1280 * 720
    blank = np.full((720, 1280), 210, np.uint8)
    blank_half = cv2.resize(blank, (640, 360), interpolation=cv2.INTER_AREA)
    assert finder.find(blank, blank_half, whole_frame=False) == ([], [])
    assert boxes[-1] == []  # nothing seen at half size: nothing searched again
    finder.find(blank, blank_half)
    assert boxes[-1] == [(0, 0, 1280, 720)]


def test_round_outlines_a_small_one_reaches_to_its_card_a_big_one_stays_close() -> None:
    from vision.marker_search import _round_outlines

    small = square((400, 300), 16)
    big = square((800, 300), 120)
    (sx0, sy0, sx1, sy1), (bx0, by0, bx1, by1) = _round_outlines(np.stack([small, big]), 1280, 720)
    assert sx1 - sx0 >= 16 * 9 and sy1 - sy0 >= 16 * 9
    assert (bx0, by0, bx1, by1) == (728, 228, 872, 372)


def test_a_reader_searches_the_whole_frame_again_once_markers_are_expected() -> None:
    """Off the mat, a reader that has read no marker yet looks again only round outlines; once
    it has read one (printed cards are in use), or with a mat, the whole frame."""
    from vision.reader import CardReader

    asked: list[bool] = []

    def recording(reader: CardReader) -> None:
        find = reader._finder.find

        def wrapped(grey: np.ndarray, half: np.ndarray, whole_frame: bool = True) -> tuple:
            asked.append(whole_frame)
            return find(grey, half, whole_frame)

        reader._finder.find = wrapped  # type: ignore[method-assign]

    reader = CardReader("bandit", use_mat=False)
    recording(reader)
    empty = SimulatedTable("bandit", seed=3, mat=False, style=calm())
    reader.read(empty.frame())
    table = SimulatedTable("bandit", seed=3, mat=False, style=calm())
    table.scatter(2)
    assert reader.read(table.frame()).cards
    reader.read(empty.frame())
    assert asked == [False, False, True]
    on_mat = CardReader("bandit", use_mat=True)
    recording(on_mat)
    on_mat.read(empty.frame())
    assert asked[-1] is True


def test_taught_cards_alone_off_the_mat_need_no_printed_card_outline_search(tmp_path: Path) -> None:
    """A taught card off the mat before any marker was read: no printed-card outline search
    (the taught search reports card-shaped outlines), and the card is still named; a printed
    card's marker, once read, brings the search back."""
    from vision.enrolled import EnrolledDeck, capture_card
    from vision.reader import CardReader
    from vision.taught_scene import lay_out, scene_style, synthetic_face

    deck = EnrolledDeck("bandit", tmp_path)
    photo = lay_out([synthetic_face(10)], 200, style=scene_style(200, "wood", 150, 8)).frame()
    deck.keep("plum", capture_card(photo).cutout)
    reader = CardReader("bandit", use_mat=False, enrolled=deck)
    searched: list[int] = []
    unreadable = reader._unreadable

    def recording(*args: object) -> list:
        searched.append(1)
        return unreadable(*args)  # type: ignore[arg-type]

    reader._unreadable = recording  # type: ignore[method-assign]
    cards = reader.read(lay_out([synthetic_face(10)], 300).frame()).cards
    assert [card.card_id for card in cards] == ["plum"]
    assert searched == []
    printed = SimulatedTable("bandit", seed=3, mat=False, style=calm())
    printed.scatter(2)
    reader.read(printed.frame())
    reader.read(lay_out([synthetic_face(10)], 301).frame())
    assert searched
