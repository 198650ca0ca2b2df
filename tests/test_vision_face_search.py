"""Taught cards found by their faces where no outline is: half under another card, and never a guess."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.enrolled import EnrolledDeck
from vision.face_search import FaceSearch
from vision.reader import CardReader
from vision.simulated import SimulatedTable
from vision.taught_scene import scene_style, synthetic_face, teach_synthetic_faces

GAME = "bandit"


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> EnrolledDeck:
    """Four made-up faces (seeds 10-13), each taught from a whole photo of it on a wood table."""
    # Seeds 10-13: the scenes lay face 12 as the bell (the feature search: their corner indices,
    # "34" and "33" alike in the index zone, play no part in it).
    return teach_synthetic_faces(tmp_path_factory.mktemp("store"), (10, 11, 12, 13))


def table(seed: int) -> SimulatedTable:
    return SimulatedTable(GAME, seed=seed, mat=False, style=scene_style(seed, "felt", card_px=160, tilt=10))


def overlapped(scene: SimulatedTable, under: np.ndarray, over: np.ndarray, shift_mm: float) -> None:
    """``under`` laid in the middle, ``over`` laid on top of it ``shift_mm`` to the right (it
    covers the right part of ``under``: no outline of its own)."""
    x, y = scene.centre
    scene.place_art(under, (x, y), 8.0, label="under")
    scene.place_art(over, (x + shift_mm, y + 6.0), 14.0, label="over")


def covered_share(corners: np.ndarray, visible: np.ndarray, shape: tuple[int, ...]) -> float:
    """The share of a card's area that ``visible`` leaves out."""
    card = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(card, np.round(corners).astype(np.int32), 1)
    shows = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(shows, [np.round(visible).astype(np.int32)], 1)
    return 1.0 - float((card & shows).sum()) / float(card.sum())


def corners_off(found: np.ndarray, true: np.ndarray) -> float:
    """How far found corners are from the true ones (px, worst corner), either way up."""
    return min(float(np.linalg.norm(np.roll(found, turn, axis=0) - true, axis=1).max()) for turn in range(4))


def test_a_card_half_under_another_is_named_with_its_corners_and_what_shows(deck: EnrolledDeck) -> None:
    scene = table(31)
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    frame = scene.frame()
    under, over = (p.corners.astype(np.float32) for p in scene.all_placed())
    found = {f.card_id: f for f in FaceSearch(deck.features).search(frame)}
    assert set(found) == {"plum", "bell"}
    plum = found["plum"]
    long_side = float(np.linalg.norm(under[0] - under[3]))
    # Its own corners, under the card lying over it, not the outline of the two together.
    assert corners_off(plum.corners, under) < 0.15 * long_side  # the covered corners are extrapolated
    # What shows of it leaves out the part under the other card, and little else.
    shows = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(shows, np.round(under).astype(np.int32), 1)
    cv2.fillConvexPoly(shows, np.round(over).astype(np.int32), 0)
    truly = 1.0 - float(shows.sum()) / float(cv2.contourArea(under))
    assert truly > 0.25 and abs(covered_share(under, plum.visible, frame.shape) - truly) < 0.2
    centre_over = tuple(float(v) for v in over.mean(axis=0))
    assert cv2.pointPolygonTest(plum.visible.reshape(-1, 1, 2), centre_over, False) < 0
    assert corners_off(found["bell"].corners, over) < 0.08 * long_side


@pytest.mark.parametrize("seed", [33, 36])
def test_an_untaught_face_or_a_look_alike_half_covered_is_never_named(deck: EnrolledDeck, seed: int) -> None:
    search = FaceSearch(deck.features)

    def named(under: np.ndarray, shift_mm: float) -> list[str]:
        scene = table(seed)
        overlapped(scene, under, synthetic_face(12), shift_mm)
        return sorted(f.card_id for f in search.search(scene.frame()))

    # The same places with the taught plum: found (so what follows is not a blind search).
    assert named(synthetic_face(11), 38.0) == named(synthetic_face(11), 45.0) == ["bell", "plum"]
    assert named(synthetic_face(77), 38.0) == ["bell"]  # never taught
    # A plum with one more pip in its middle (a ten beside a taught nine), its middle in view.
    assert named(synthetic_face(11, changed=True), 45.0) == ["bell"]


def test_a_bare_table_gives_no_card(deck: EnrolledDeck) -> None:
    for seed, kind in ((34, "wood"), (35, "cloth")):
        scene = SimulatedTable(GAME, seed=seed, mat=False, style=scene_style(seed, kind))
        assert FaceSearch(deck.features).search(scene.frame()) == []


def test_the_reader_names_a_covered_card_once_the_table_settles(deck: EnrolledDeck) -> None:
    scene = table(36)
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert reader.taught is not None
    assert reader.read(scene.frame()).cards == []  # the first frame: searched in full
    assert reader.taught.searches == 1
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    moving = reader.read(scene.frame())  # cards just laid: no search in a changed frame
    assert reader.taught.searches == 1 and "plum" not in {c.card_id for c in moving.cards}
    settled = reader.read(scene.frame())  # the same scene again (fresh sensor noise): searched
    assert reader.taught.searches == 2
    plum = [c for c in settled.cards if c.card_id == "plum"]
    assert len(plum) == 1 and plum[0].confidence >= 0.8 and plum[0].visible is not None
    assert "visible" in plum[0].to_json()
    assert not [c for c in settled.cards if c.card_id is None]  # the pair's outline is explained
    again = reader.read(scene.frame())  # still: the reading stands, nothing searched again
    assert reader.taught.searches == 2 and "plum" in {c.card_id for c in again.cards}


def test_a_card_dealt_and_named_by_its_outline_needs_no_search(deck: EnrolledDeck) -> None:
    scene = table(43)
    x, y = scene.centre
    scene.place_art(synthetic_face(11), (x - 50.0, y), 5.0)
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert reader.read(scene.frame()).cards[0].card_id == "plum"
    assert reader.taught is not None and reader.taught.searches == 1
    scene.place_art(synthetic_face(13), (x + 50.0, y), -5.0)  # dealt apart from the first
    reader.read(scene.frame())
    settled = reader.read(scene.frame())
    assert sorted(c.card_id for c in settled.cards) == ["plum", "seven"]
    assert reader.taught.searches == 1  # what changed is the card read by its outline
    scene.place_art(synthetic_face(12), (x - 50.0 + 38.0, y + 6.0), 14.0)  # a bell over the plum
    reader.read(scene.frame())
    settled = reader.read(scene.frame())
    assert reader.taught.searches == 2 and "bell" in {c.card_id for c in settled.cards}


def test_a_found_card_is_dropped_when_it_is_taken_away(deck: EnrolledDeck) -> None:
    scene = table(39)
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    reader = CardReader(GAME, use_mat=False, enrolled=deck)
    assert "plum" in {c.card_id for c in reader.read(scene.frame()).cards}
    scene.loose = scene.loose[1:]  # the covered card slid out from under the other
    assert "plum" not in {c.card_id for c in reader.read(scene.frame()).cards}


def test_the_search_is_limited_to_a_box(deck: EnrolledDeck) -> None:
    scene = table(40)
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    frame = scene.frame()
    search = FaceSearch(deck.features)
    assert search.search(frame, where=(0, 0, 200, 200)) == []
    assert {f.card_id for f in search.search(frame, where=(300, 100, 1000, 650))} == {"plum", "bell"}


def test_a_card_is_not_searched_where_a_named_card_explains_it(deck: EnrolledDeck) -> None:
    scene = table(31)
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    frame = scene.frame()
    _under, over = (p.corners.astype(np.float32) for p in scene.all_placed())
    found = FaceSearch(deck.features).search(frame, explained=[over], lying=[over])
    assert [f.card_id for f in found] == ["plum"]


@pytest.fixture(autouse=True)
def _quiet_cv2() -> None:
    cv2.setNumThreads(1)


def test_nothing_is_searched_without_taught_pictures(tmp_path: Path) -> None:
    scene = table(42)
    overlapped(scene, synthetic_face(11), synthetic_face(12), 38.0)
    assert FaceSearch(EnrolledDeck(GAME, tmp_path).features).search(scene.frame()) == []


def without_indices(face: np.ndarray) -> np.ndarray:
    """``face`` with both corners plain paper: its pips (shapes) where they were, no index."""
    plain = face.copy()
    for corner in (np.s_[4:75, 4:70], np.s_[205:276, 130:196]):
        plain[corner] = face[2, 2]
    return plain


@pytest.mark.parametrize("seed", [33, 36, 40, 41])
def test_a_look_alike_whose_corner_indices_both_show_something_else_is_never_named(
    deck: EnrolledDeck, seed: int
) -> None:
    """The taught picture mapped one pip off onto an untaught look-alike (a ten beside a taught
    nine, IMG_2579 on a webcam-like copy): the shapes near the keypoints agree, both corner
    indices fall on the table or on other pips. Here: the taught shapes with plain corners,
    softened like a webcam, in plain view (the comparison near the keypoints alone passed it)."""
    search = FaceSearch(deck.features)

    def named(face: np.ndarray) -> list[str]:
        scene = table(seed)
        x, y = scene.centre
        scene.place_art(face, (x, y), 8.0, label="alone")
        return [f.card_id for f in search.search(cv2.GaussianBlur(scene.frame(), (0, 0), 1.2))]

    assert named(synthetic_face(11)) == ["plum"]  # the taught face, at the same place: found
    assert named(without_indices(synthetic_face(11))) == []


@pytest.mark.parametrize("off_px", [0.0, 2.0, 6.0])
def test_a_look_alike_is_not_named_when_the_taught_pictures_were_cut_a_little_off(
    tmp_path: Path, off_px: float
) -> None:
    """Teaching cuts a card out a pixel or two off its corners (a webcam, a soft edge). The
    look-alike's plain corners then correlated with the taught digits by chance (and more, the
    more off: the index zone takes in the card's edge): exact corners named it in 1 scene of
    16, 2 px off in 11. A plain corner shows a tenth of the taught index's print; the true card
    is still found in every scene. Cut 6 px off, the index zone's detail agreed in 11 scenes of
    16: where the taught index is ink, the look-alike's corner is paper."""
    from vision.enrolled import CUT_H, CUT_W
    from vision.face_match import rectify
    from vision.taught_scene import SYNTHETIC_IDS, lay_out

    rng = np.random.default_rng(7)
    taught = EnrolledDeck(GAME, tmp_path)
    for i, card_id in enumerate(SYNTHETIC_IDS):
        scene = lay_out([synthetic_face(10 + i)], 200 + i, style=scene_style(200 + i, "wood", 150, 8))
        photo = scene.frame()  # the cards' corners in view are known once it is taken
        true = scene.all_placed()[0].corners.astype(np.float32)
        angles = rng.uniform(0, 2 * np.pi, 4)
        quad = true + off_px * np.stack([np.cos(angles), np.sin(angles)], 1).astype(np.float32)
        taught.keep(card_id, rectify(photo, quad, (CUT_W, CUT_H)))
    search = FaceSearch(taught.features)

    def named(face: np.ndarray, seed: int) -> list[str]:
        scene = table(seed)
        x, y = scene.centre
        scene.place_art(face, (x, y), 8.0, label="alone")
        return [f.card_id for f in search.search(cv2.GaussianBlur(scene.frame(), (0, 0), 1.2))]

    seeds = range(30, 46)
    assert [seed for seed in seeds if named(without_indices(synthetic_face(11)), seed)] == []
    found = [seed for seed in seeds if named(synthetic_face(11), seed) == ["plum"]]
    # Cut that far off, a taught picture no longer lines up everywhere: most scenes are enough.
    assert len(found) == len(seeds) if off_px <= 2.0 else len(found) >= 0.75 * len(seeds)


def test_a_card_placed_past_the_card_it_was_found_on_has_no_paper_border_and_is_refused() -> None:
    """The border check of the face search: a card placed where it lies has its paper all round
    its border; placed a pip off, reaching past the card beneath it onto the table (a taught
    nine mapped onto an untaught ten, IMG_2681), its border there is table, not paper."""
    from vision.face_search import _border_is_paper

    scene = SimulatedTable(GAME, seed=51, mat=False, style=scene_style(51, "dark", card_px=160, tilt=5))
    x, y = scene.centre
    scene.place_art(synthetic_face(11), (x, y), 0.0, label="one")
    grey = cv2.cvtColor(scene.frame(), cv2.COLOR_BGR2GRAY)
    card = next(p.corners for p in scene.all_placed()).astype(np.float32)
    middle = card.mean(axis=0)
    compared = middle + (card - middle) * 0.6
    assert _border_is_paper(grey, card, compared, card)
    up = (card[0] - card[3]) * 0.6  # most of the card's length past its top end, onto the table
    shifted = card + up
    assert not _border_is_paper(grey, shifted, compared + up, shifted)
