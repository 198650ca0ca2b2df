"""Card outlines on tables: every card found once, the whole card or flagged as not whole."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from tests.things_on_cards import cable_across
from vision.card_outlines import CardOutline, _uncovered_area, find_card_candidates
from vision.enrolled import capture_card
from vision.label_boxes import box_iou, box_of
from vision.outline_choice import select_outlines
from vision.taught_scene import lay_out, scene_style, synthetic_face


def one_card(seed: int, table: str = "wood") -> tuple[np.ndarray, np.ndarray]:
    """A frame with one synthetic card and that card's true corners."""
    scene = lay_out([synthetic_face(seed)], seed, style=scene_style(seed, table, card_px=150, tilt=8))
    frame = scene.frame()
    return frame, next(iter(scene.all_placed())).corners


def carpet_scene(seed: int, grain: float = 38.0) -> tuple[np.ndarray, np.ndarray]:
    """A 378x504 photo of one card on beige carpet (speckles ``grain`` grey levels strong, as
    large as a tuft), turned at random; the card's true corners."""
    rng = np.random.default_rng(seed)
    h, w = 504, 378
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.6)
    table = np.clip(np.array([150, 175, 195], np.float32) + (noise / noise.std())[..., None] * grain, 0, 255)
    corners = cv2.boxPoints(((rng.uniform(150, 230), rng.uniform(180, 320)), (100, 140), rng.uniform(0, 360)))
    art = np.array([[0, 279], [0, 0], [199, 0], [199, 279]], np.float32)
    warp = cv2.getPerspectiveTransform(art, corners.astype(np.float32))
    card = cv2.warpPerspective(synthetic_face(seed), warp, (w, h))
    inside = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), warp, (w, h)) > 127
    return np.where(inside[..., None], card, table.astype(np.uint8)), corners


def near(outline: CardOutline, corners: np.ndarray, tolerance: float = 8.0) -> bool:
    return bool(np.linalg.norm(outline.quad.mean(axis=0) - corners.mean(axis=0)) < tolerance)


def test_a_card_in_full_view_is_one_whole_sure_outline() -> None:
    frame, corners = one_card(31)
    found = find_card_candidates(frame)
    assert len(found) == 1 and near(found[0], corners)
    assert found[0].sure and found[0].whole


def test_a_card_cut_by_the_frames_edge_is_found_but_not_whole_and_is_not_taught() -> None:
    frame, corners = one_card(32)
    # Cut the frame through the card, a quarter of the way in from its left-most corner.
    left, right = corners[:, 0].min(), corners[:, 0].max()
    cut = int(left + 0.25 * (right - left))
    cropped = np.ascontiguousarray(frame[:, cut:])
    found = find_card_candidates(cropped)
    assert len(found) == 1 and not found[0].whole
    with pytest.raises(UserError, match="cut by the picture's edge"):
        capture_card(cropped)


@pytest.mark.parametrize("thorough", [False, True])
@pytest.mark.parametrize("seed", [3, 5, 8])
def test_a_card_on_carpet_is_found_once_by_either_search(seed: int, thorough: bool) -> None:
    frame, corners = carpet_scene(seed)
    found = [o for o in find_card_candidates(frame, thorough=thorough) if o.sure]
    assert len(found) == 1 and near(found[0], corners, 6.0) and found[0].whole


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_thorough_search_does_not_take_a_mats_printed_zones_for_cards(seed: int) -> None:
    from vision.simulated import SimulatedTable

    empty_mat = SimulatedTable("bandit", seed=seed).frame()
    sure = [o for o in find_card_candidates(empty_mat, thorough=True) if o.sure]
    # The mat itself may look like a big card (the reader knows it by its markers); a zone's
    # printed frame, or two of them side by side, is not a card.
    assert all(cv2.contourArea(o.quad) > 0.2 * empty_mat.shape[0] * empty_mat.shape[1] for o in sure)


def test_a_readers_first_frame_gets_the_thorough_search(
    tmp_path: Path, outline_searches: list[tuple[bool, tuple[int, int, int, int] | None]]
) -> None:
    """A photo read once (a fresh reader) is searched thoroughly; a camera's later frames get
    the plain search where they changed (the thorough one costs several times as much), and the
    frame in which the table settles after a change gets the thorough one, over the part that
    changed."""
    from vision.enrolled import EnrolledDeck
    from vision.reader import CardReader

    asked = outline_searches
    deck = EnrolledDeck("bandit", tmp_path)
    deck.keep("cherry", synthetic_face(0))
    reader = CardReader("bandit", use_mat=False, enrolled=deck)
    frame, corners = carpet_scene(0)
    first = reader.read(frame)
    moved = frame.copy()
    cv2.circle(moved, (40, 40), 25, (255, 255, 255), -1)  # something changed: read again
    reader.read(moved)
    assert [thorough for thorough, _region in asked] == [True, False]
    reader.read(moved.copy())  # the table settled: the thorough search where it changed
    assert [thorough for thorough, _region in asked[2:]] == [True]
    for _thorough, region in asked[1:]:
        assert region is not None and region[0] <= 15 and region[1] <= 15
        assert region[2] >= 65 and region[3] >= 65
        assert (region[2] - region[0]) * (region[3] - region[1]) < 0.5 * frame.shape[0] * frame.shape[1]
    named = [c for c in first.cards if c.card_id == "cherry"]
    assert len(named) == 1
    assert np.linalg.norm(np.mean(named[0].corners, axis=0) - corners.mean(axis=0)) < 6.0


def test_a_card_half_in_sun_half_in_shade_is_sure() -> None:
    frame, corners = one_card(31)
    # A shadow's edge across the table and the card, half way down the card.
    edge = int(corners[:, 1].min() + 0.5 * np.ptp(corners[:, 1]))
    shaded = frame.astype(np.float32)
    shaded[edge:] *= 0.6
    found = find_card_candidates(shaded.astype(np.uint8))
    assert len(found) == 1 and near(found[0], corners)
    assert found[0].sure and found[0].whole


def overlapping_cards(seed: int, down: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A 378x504 photo of two cards on dark wood, the second lying over the first and shifted
    sideways by a quarter of its width or, with ``down``, down by that share of its height (one
    light region, about card-shaped); the union's box."""
    rng = np.random.default_rng(seed)
    h, w = 504, 378
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 2.0)
    frame = np.clip(np.array([40, 60, 90], np.float32) + (noise / noise.std())[..., None] * 8, 0, 255)
    frame = frame.astype(np.uint8)
    art = np.array([[0, 0], [199, 0], [199, 279], [0, 279]], np.float32)
    shift = np.array([0.0, down * 182] if down else [0.25 * 130, 0.0], np.float32)
    for k in range(2):
        corners = np.array([[110, 150], [240, 150], [240, 332], [110, 332]], np.float32) + k * shift
        warp = cv2.getPerspectiveTransform(art, corners)
        card = cv2.warpPerspective(synthetic_face(seed + k), warp, (w, h))
        inside = cv2.warpPerspective(np.full((280, 200), 255, np.uint8), warp, (w, h)) > 127
        frame = np.where(inside[..., None], card, frame)
        # A card's edge over another card shows as a thin dark line (its thickness, its shadow).
        cv2.polylines(frame, [corners.astype(np.int32)], True, (120, 120, 120), 2)
    far = np.array([240, 332], np.float32) + shift
    return frame, np.array([[110, 150], [far[0], 150], far, [110, far[1]]], np.float32)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_two_overlapping_cards_are_never_one_sure_card(seed: int) -> None:
    frame, union = overlapping_cards(seed)
    for thorough in (False, True):
        found = find_card_candidates(frame, thorough=thorough)
        assert not any(o.sure and near(o, union) for o in found)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_card_lying_over_another_splits_them_into_their_visible_parts(seed: int) -> None:
    frame, union = overlapping_cards(seed, down=0.35)
    cut = 150 + 0.35 * 182  # the top card's edge across the one beneath
    under = np.array([[110, 150], [240, 150], [240, cut], [110, cut]], np.float32)
    over = np.array([[110, cut], [240, cut], [240, cut + 182], [110, cut + 182]], np.float32)
    for thorough in (False, True):
        found = find_card_candidates(frame, thorough=thorough)
        assert not any(o.sure and near(o, union) for o in found)
        # The covered card's visible part is sure and never whole (teaching must not take it).
        assert [o.whole for o in found if o.sure and near(o, under)] == [False]
        assert any(o.sure and near(o, over) for o in found)


@pytest.mark.parametrize(("seed", "turn"), [(31, -20), (33, 15)])
def test_a_card_a_cable_lies_across_is_one_sure_whole_card(seed: int, turn: float) -> None:
    # The cable crosses the card's paper border as a thin dark line, as the edge of a card
    # lying over another does; it runs on over the table, so it is no card's edge.
    frame, corners = one_card(seed)
    cabled = cable_across(frame, corners, turn)
    for thorough in (False, True):
        found = [o for o in find_card_candidates(cabled, thorough=thorough) if near(o, corners)]
        assert [(o.sure, o.whole) for o in found] == [(True, True)]


PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "realcards" / "photos"


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards photos not beside the repository")
@pytest.mark.parametrize("name", ["IMG_2393", "IMG_2443"])
def test_real_cards_across_a_shadows_edge_are_sure(name: str) -> None:
    photo = cv2.imread(str(PHOTOS / f"{name}.JPG"))
    found = [o for o in find_card_candidates(photo, thorough=True) if o.sure]
    assert len(found) == 1 and found[0].whole


def test_what_of_a_region_no_outline_covers() -> None:
    """A region is split only when what the outlines found so far leave of it could hold a card."""
    region = np.array([[[10, 10]], [[110, 10]], [[110, 60]], [[10, 60]]], np.int32)
    whole = _uncovered_area(region, [])
    assert 5000 <= whole <= 5200
    left = np.array([[10, 10], [60, 10], [60, 60], [10, 60]], np.float32)
    assert 0.45 * whole <= _uncovered_area(region, [left]) <= 0.55 * whole
    right = np.array([[60, 10], [110, 10], [110, 60], [60, 60]], np.float32)
    assert _uncovered_area(region, [left, right]) == 0


@pytest.mark.parametrize("thorough", [False, True])
def test_a_region_of_the_frame_gives_the_cards_lying_wholly_inside_it(thorough: bool) -> None:
    """The part of the table that changed is looked at as the whole frame would be: its card is
    found where the whole frame's search finds it; a card the region's side cuts through is not
    reported (it may be a part of one), nor is one outside."""
    scene = lay_out([synthetic_face(1), synthetic_face(2)], 61, style=scene_style(61, "wood", 150, 8))
    frame = scene.frame()
    first, second = (p.corners for p in scene.all_placed())
    whole = [o for o in find_card_candidates(frame, thorough=thorough) if o.sure]
    assert len(whole) == 2
    x0, y0 = first.min(axis=0) - 40
    x1, y1 = first.max(axis=0) + 40
    found = find_card_candidates(frame, thorough=thorough, region=(int(x0), int(y0), int(x1), int(y1)))
    assert len(found) == 1 and found[0].sure and found[0].whole and near(found[0], first, 3.0)
    expected = next(o for o in whole if near(o, first))
    assert np.abs(found[0].quad - expected.quad).max() < 1.5  # as placed in the whole frame
    middle = int(first[:, 0].mean())  # the region's side through the first card
    cut = find_card_candidates(frame, thorough=thorough, region=(int(x0), int(y0), middle, int(y1)))
    assert not [o for o in cut if near(o, first, 30.0)] and not [o for o in cut if near(o, second, 30.0)]


def _labelled_box(name: str, index: int) -> tuple[float, float, float, float]:
    """The ``index``-th labelled card's box (Pascal VOC) of a shared photo."""
    from xml.etree import ElementTree

    box = list(ElementTree.parse(PHOTOS / f"{name}.xml").getroot().iter("bndbox"))[index]
    x0, y0, x1, y1 = (float(box.findtext(k, "0")) for k in ("xmin", "ymin", "xmax", "ymax"))
    return x0, y0, x1, y1


def _box_iou(quad: np.ndarray, box: tuple[float, float, float, float]) -> float:
    return box_iou(box_of(quad), box)


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards/photos not beside the repository")
@pytest.mark.parametrize(
    ("name", "index"),
    [
        ("IMG_2431", 0),  # a jack on a light marble table: its paper joins the light veins
        ("IMG_2610", 4),  # a queen cut by the picture's top edge, on dark cloth
        ("IMG_2626", 2),  # a ten lying over an ace: the cards make one region
        ("IMG_2576", 1),  # a nine lying over a queen: likewise
    ],
)
def test_the_plain_search_finds_cards_in_regions_it_cannot_take_whole(name: str, index: int) -> None:
    """Development photos where no region of the plain search's masks is the card: its
    straight edges, looked for only round those regions, give the card a sure outline."""
    photo = cv2.imread(str(PHOTOS / f"{name}.JPG"))
    box = _labelled_box(name, index)
    found = [o for o in find_card_candidates(photo) if o.sure]
    assert any(_box_iou(o.quad, box) >= 0.5 for o in found)


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards/photos not beside the repository")
def test_teaching_refuses_a_card_lying_over_another() -> None:
    """A development photo of an ace lying over a ten: the plain search's outline of the ace
    (found by its straight edges) must not hide the ten from teaching."""
    with pytest.raises(UserError):
        capture_card(cv2.imread(str(PHOTOS / "IMG_2687.JPG")))


def _box(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


@pytest.mark.parametrize(
    ("card_sure", "pip_sure", "kept"),
    [(False, False, ["card", "pip"]), (True, True, ["pip"]), (True, False, ["card"])],
)
def test_print_inside_a_card_erases_it_only_when_surer_or_both_sure(
    card_sure: bool, pip_sure: bool, kept: list[str]
) -> None:
    """A small card-shaped outline inside a larger one (a diamond's pip on a card, or a card on a
    patch of table): neither sure, both stay for a taught face to tell; both sure, the inner is
    the card (the patch round it goes); else the surer wins."""
    card, pip = _box(100, 100, 100, 140), _box(130, 140, 20, 28)
    scored = [(3.0, 2 if card_sure else 1, card, False), (3.5, 2 if pip_sure else 1, pip, False)]
    chosen = select_outlines(scored, (480, 640), 1.5)
    names = {id(card): "card", id(pip): "pip"}
    assert sorted(names[id(quad)] for _e, quad, _p in chosen) == kept


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards photos not beside the repository")
def test_a_nines_pips_do_not_erase_its_outline_in_a_webcams_soft_photo() -> None:
    """Dev IMG_2570 as a webcam takes it (softer, tinted, noisier): the thorough search (a
    photo's, a settled table's) finds the nine, whose diamond pips are card-shaped outlines too."""
    from vision.rough_camera import webcam_like

    photo = webcam_like(cv2.imread(str(PHOTOS / "IMG_2570.JPG")), 8)  # the bench's copy
    nine = (27, 254, 176, 446)  # its label's box
    found = find_card_candidates(photo, thorough=True)
    assert max(box_iou(box_of(o.quad.tolist()), nine) for o in found) >= 0.9


@pytest.mark.parametrize(
    ("outer", "part", "kept"),
    [
        (_box(100, 100, 300, 140), False, ["card", "outer"]),
        (_box(60, 80, 420, 300), False, ["card"]),
        (_box(0, 100, 300, 140), False, ["outer"]),
        (_box(100, 100, 300, 140), True, ["outer"]),
    ],
    ids=["a row of cards", "a patch of table", "an outline reaching the view's border", "a part"],
)
def test_a_sure_card_inside_a_larger_unsure_outline_that_scored_higher_is_kept(
    outer: np.ndarray, part: bool, kept: list[str]
) -> None:
    """Cards side by side whose outer edges are straight make one larger outline, scored higher
    for its size and straight sides: a sure card filling a third of it or more is no duplicate
    of it and stays, and so does the row, where the cards beside it are looked for (dev IMG_2655
    webcam-like: the ten inside the outline of the ten, king and ace hid all three). A patch of
    table round a sure card goes, as before. An outline reaching the view's border may be
    anything round a card and merges with it as before (dev single IMG_2528 webcam-like: a
    postcard's, with a card-shaped part of its picture; kept apart, teaching saw two cards). So
    does a sure part between seams: it may be no card's (IMG_2655 overexposed, across the king)."""
    card = _box(110, 102, 100, 136)
    chosen = select_outlines([(5.0, 1, outer, False), (4.6, 2, card, part)], (480, 640), 1.5)
    names = {id(card): "card", id(outer): "outer"}
    assert sorted(names[id(quad)] for _e, quad, _p in chosen) == kept


@pytest.mark.skipif(not PHOTOS.is_dir(), reason="shared/realcards photos not beside the repository")
def test_the_ten_in_a_row_of_three_is_found_in_a_webcams_soft_photo() -> None:
    """Dev IMG_2655 as a webcam takes it: the thorough search finds the ten at the row's end
    (the row's own outline, unsure and larger, hid it)."""
    from vision.rough_camera import webcam_like

    photo = webcam_like(cv2.imread(str(PHOTOS / "IMG_2655.JPG")), 70)  # the bench's copy
    ten = (56, 59, 197, 258)  # its label's box
    found = [o for o in find_card_candidates(photo, thorough=True) if o.sure]
    assert max(box_iou(box_of(o.quad.tolist()), ten) for o in found) >= 0.9
