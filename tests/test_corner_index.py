"""The look-alike guard of whole cards (:mod:`vision.corner_index`): a face is vouched for by its
corner index, at the card's own softness, whichever way its print contrasts with its ground."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.corner_index import MAX_DIFFERENCE, CornerIndex, _as_seen, indices_in_view
from vision.deck_styles import FACE_H, FACE_W, corner_mask, deck_faces, render_face
from vision.face_match import rectify

#: Where the card lies in the test frame: about 80 px wide, turned a little (TL TR BR BL).
QUAD = np.float32([[112, 60], [190, 70], [178, 178], [100, 168]])


def _laid(face: np.ndarray, quad: np.ndarray = QUAD, blur: float = 0.0, seed: int = 0) -> np.ndarray:
    """``face`` laid on a mottled grey table at ``quad`` (its rounded corners showing the
    table), with sensor noise and, if ``blur``, a webcam's softness (Gaussian sigma, px)."""
    rng = np.random.default_rng(seed)
    table = cv2.GaussianBlur(rng.normal(120, 25, (240, 300, 3)).astype(np.float32), (0, 0), 3)
    source = np.float32([[0, 0], [FACE_W - 1, 0], [FACE_W - 1, FACE_H - 1], [0, FACE_H - 1]])
    to_frame = cv2.getPerspectiveTransform(source, quad)
    card = cv2.warpPerspective(face.astype(np.float32), to_frame, (300, 240), flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(corner_mask(), to_frame, (300, 240), flags=cv2.INTER_LINEAR)[..., None]
    frame = card * cover + table * (1 - cover)
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    frame += rng.normal(0, 3, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _taught(style: str, *numbers: int) -> tuple[CornerIndex, dict[int, np.ndarray]]:
    """A guard taught the faces of ``style`` with these corner numbers (each from its own
    photo, cut out as teaching does), and every face of that style by number."""
    faces = {face.number: render_face(face) for face in deck_faces(style)}
    guard = CornerIndex()
    for seed, number in enumerate(numbers):
        guard.add(str(number), rectify(_laid(faces[number], seed=10 + seed), QUAD, (200, 280)))
    return guard, faces


@pytest.mark.parametrize("style", ["full_bleed", "dark", "bordered"])
def test_a_look_alike_is_refused_and_the_taught_face_passes(style: str) -> None:
    # Cherry art with 2, 3 and 4 in the corners: only the 3 is taught. Dark: light print on a
    # dark face; the others: dark print on a light disc or paper.
    guard, faces = _taught(style, 3)
    assert guard.shows(_laid(faces[3], seed=1), QUAD, "3")
    for other in (2, 4):
        assert not guard.shows(_laid(faces[other], seed=1), QUAD, "3"), other


@pytest.mark.parametrize("style", ["full_bleed", "dark", "bordered"])
def test_a_soft_card_is_compared_at_its_own_softness(style: str) -> None:
    # Blurred after it was laid (a webcam, a card far off) and taught sharp: the taught corner is
    # blurred to the card's softness, so the taught face passes at a webcam's blur (1.2 px on an
    # 80 px card, half again realcards' webcam-like copies), and its look-alikes still fail as
    # far as their print still differs there (a 4 at that blur; a 2, one stroke from the 3, at
    # half of it).
    guard, faces = _taught(style, 3)
    for blur in (0.6, 1.2):
        assert guard.shows(_laid(faces[3], blur=blur, seed=2), QUAD, "3"), blur
    assert not guard.shows(_laid(faces[4], blur=1.2, seed=2), QUAD, "3")
    assert not guard.shows(_laid(faces[2], blur=0.6, seed=2), QUAD, "3")


def test_the_card_may_lie_either_way_up() -> None:
    guard, faces = _taught("bordered", 3)
    turned = np.roll(QUAD, 2, axis=0)  # the same card lying upside down
    image = _laid(faces[3], turned, seed=3)
    assert guard.shows(image, QUAD, "3")


def test_a_picture_without_an_index_in_its_corners_vouches_for_nothing() -> None:
    # A full-bleed card's middle cut out as if it were the card (a wrong cut-out): its corners
    # are art the look-alike shares, not an index.
    faces = {face.number: render_face(face) for face in deck_faces("full_bleed")}
    middle = np.ascontiguousarray(faces[3][90:262, 60:192])
    guard = CornerIndex()
    guard.add("3", cv2.resize(middle, (200, 280)))
    assert guard.difference(_laid(cv2.resize(faces[2][90:262, 60:192], (FACE_W, FACE_H))), QUAD, "3") > (
        MAX_DIFFERENCE
    )


def test_a_picture_cut_through_its_index_vouches_for_nothing() -> None:
    # A bordered card cut out at its white centre (other-decks seed 1): its numerals cut in
    # half by the picture's edge, where the look-alike's halves agree with them.
    faces = {face.number: render_face(face) for face in deck_faces("bordered")}
    guard = CornerIndex()
    guard.add("3", cv2.resize(np.ascontiguousarray(faces[3][22:-22, 22:-22]), (200, 280)))
    assert guard.difference(_laid(faces[2]), QUAD, "3") == float("inf")
    whole = CornerIndex()  # the same card cut at its edges vouches
    whole.add("3", cv2.resize(faces[3], (200, 280), interpolation=cv2.INTER_AREA))
    assert whole.shows(_laid(faces[3]), QUAD, "3")


def test_untaught_or_tiny_cards_are_never_vouched_for() -> None:
    guard, faces = _taught("bordered", 3)
    assert not guard.shows(_laid(faces[3]), QUAD, "5")
    tiny = QUAD * 0.3  # 24 px wide: an index of a few pixels tells nothing apart
    assert not guard.shows(_laid(faces[3], tiny), tiny, "3")
    guard.remove("3")
    assert not guard.shows(_laid(faces[3]), QUAD, "3")


def test_a_corner_index_shows_unless_covered_or_out_of_the_frame() -> None:
    # Which corner zones of a card found by its face can vouch for it (EnrolledDeck.vouches
    # checks a card whose both zones show: a whole card).
    assert indices_in_view(QUAD, (240, 300), []) == (True, True)
    over_bottom_right = np.float32([[150, 150], [260, 150], [260, 230], [150, 230]])
    assert indices_in_view(QUAD, (240, 300), [over_bottom_right]) == (True, False)
    assert indices_in_view(QUAD - np.float32([0, 70]), (240, 300), []) == (False, True)


#: A small soft view of the card (62 px wide, a webcam's blur): its index a few soft pixels.
SMALL = (QUAD - QUAD.mean(axis=0)) * 0.8 + QUAD.mean(axis=0)


def test_a_taught_look_alike_is_told_apart_by_which_index_agrees_better() -> None:
    # The 2 and the 3 of one art both taught: a 3 seen small and soft is within the limit of a
    # taught 2's corner, yet nearer the 3's; it is never shown as the 2, and shown as the 3.
    guard, faces = _taught("full_bleed", 2, 3)
    image = _laid(faces[3], SMALL, blur=1.4, seed=5)
    assert guard.difference(image, SMALL, "2") <= MAX_DIFFERENCE  # the limit alone lets it pass
    assert not guard.shows(image, SMALL, "2")
    assert guard.shows(image, SMALL, "3")


@pytest.mark.parametrize("blur", [1.0, 1.4])
def test_a_never_taught_sibling_of_a_taught_pair_is_refused_within_the_limit(blur: float) -> None:
    # The 4 of that art never taught, seen small and soft: within the limit of the 2's corner,
    # and about as far from the 3's: no index tells it apart from its taught siblings, so it is
    # shown as neither; the 2 itself still is.
    guard, faces = _taught("full_bleed", 2, 3)
    image = _laid(faces[4], SMALL, blur=blur, seed=5)
    assert guard.difference(image, SMALL, "2") <= MAX_DIFFERENCE
    assert not guard.shows(image, SMALL, "2")
    assert not guard.shows(image, SMALL, "3")
    assert guard.shows(_laid(faces[2], SMALL, blur=blur, seed=5), SMALL, "2")


def test_a_card_with_one_index_in_view_is_judged_by_it(tmp_path: Path) -> None:
    # A card partly covered (its bottom-right corner under another card) shows one index: the
    # never-taught 4 is not named as its taught 2 by it (EnrolledDeck.shows_index, which the
    # face search's cards and the parts the features name go through); the 2 is; a card with
    # no index in view is left to the stages' own checks.
    from vision.enrolled import EnrolledDeck

    faces = {face.number: render_face(face) for face in deck_faces("full_bleed")}
    deck = EnrolledDeck("bandit", tmp_path)
    for seed, (face_id, number) in enumerate((("cherry", 2), ("plum", 3))):
        deck.keep(face_id, rectify(_laid(faces[number], seed=10 + seed), QUAD, (200, 280)))
    over = np.float32([[150, 150], [260, 150], [260, 230], [150, 230]])
    assert indices_in_view(QUAD, (240, 300), [over]) == (True, False)
    assert not deck.shows_index(_laid(faces[4], seed=1), QUAD, "cherry", [over])
    assert deck.shows_index(_laid(faces[2], seed=1), QUAD, "cherry", [over])
    everywhere = np.float32([[0, 0], [299, 0], [299, 239], [0, 239]])
    assert deck.shows_index(_laid(faces[4], seed=1), QUAD, "cherry", [everywhere])


def test_a_part_named_by_its_features_must_show_the_named_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A card cut by the frame's edge or covered is named from its part by the features, which
    # place the whole card (other-decks seed 0: a never-taught 4 named as its taught 2 so). The
    # features here name the part "cherry" and place the card where it lies: its index in view
    # decides.
    from vision.enrolled import EnrolledDeck, part_view
    from vision.face_features import FeatureMatch

    faces = {face.number: render_face(face) for face in deck_faces("full_bleed")}
    deck = EnrolledDeck("bandit", tmp_path)
    for seed, (face_id, number) in enumerate((("cherry", 2), ("plum", 3))):
        deck.keep(face_id, rectify(_laid(faces[number], seed=10 + seed), QUAD, (200, 280)))
    for number, named in ((4, None), (2, "cherry")):
        image = _laid(faces[number], seed=1)
        h, w = part_view(image, QUAD).shape[:2]
        placed = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        found = FeatureMatch("cherry", 40, 5, 0.9, 0.1, "cherry", placed)
        monkeypatch.setattr(deck.features, "match", lambda view, whole, without=None, found=found: found)
        assert deck.identify(image, QUAD, whole=False).card_id == named, number


def test_on_a_paper_deck_the_limit_holds_alone(tmp_path: Path) -> None:
    # One paper card taught under two ids (as realcards' speed scene teaches two nines): its
    # index is as near both. On paper the limit alone decides (a rank's index at 40-60 px is
    # about as near another rank's); the rivals are weighed on decks printed off paper.
    from vision.die_cut_reading import prints_off_paper
    from vision.enrolled import EnrolledDeck
    from vision.taught_scene import synthetic_face

    face = cv2.resize(synthetic_face(11), (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    deck = EnrolledDeck("bandit", tmp_path)
    for seed, face_id in enumerate(("nine", "another nine")):
        deck.keep(face_id, rectify(_laid(face, seed=10 + seed), QUAD, (200, 280)))
    assert not prints_off_paper(deck)
    image = _laid(face, seed=1)
    assert not deck.corners.shows(image, QUAD, "nine")  # the rivals weighed: no index tells them apart
    assert deck.shows_index(image, QUAD, "nine", [])


@pytest.mark.parametrize("stops", [0.5, 0.8])
def test_an_overexposed_look_alike_is_still_refused(stops: float) -> None:
    # Overexposed (a lamp right above, a camera metering a dark table), the paper clips to flat
    # white and the taught corner is fitted to what is not clipped: the taught face passes and
    # its look-alikes still fail.
    guard, faces = _taught("bordered", 3)

    def overexposed(number: int) -> np.ndarray:
        return np.clip(_laid(faces[number], seed=4).astype(np.float32) * 2.0**stops, 0, 255).astype(np.uint8)

    assert guard.shows(overexposed(3), QUAD, "3")
    for other in (2, 4):
        assert not guard.shows(overexposed(other), QUAD, "3"), other


def test_a_corner_clipped_white_is_fitted_to_what_is_not_clipped() -> None:
    # A taught zone seen 1.6 times as contrasty and so bright that its paper clips: the plain
    # fit (every pixel) takes the clipped paper for dimmer print and misses the gain; the fit
    # to the unclipped pixels finds it, and the prediction, clipped, is what the camera shows.
    zone = np.full((20, 16), 210.0, np.float32)
    zone[4:16, 5:8] = zone[13:16, 5:13] = 60.0  # an L of print on paper
    zone = cv2.GaussianBlur(zone, (0, 0), 0.8)
    centred = zone - zone.mean()
    view = np.clip(260.0 + 1.6 * centred, 0, 255).astype(np.float32)
    assert (view >= 255).mean() > 0.3
    plain = float((centred * view).sum()) / float((centred * centred).sum())
    fitted = _as_seen(view, centred, float((centred * centred).sum()))
    assert fitted is not None
    gain, expected = fitted
    assert abs(plain - 1.6) > 0.2 and abs(gain - 1.6) < 0.05
    assert float(np.abs(expected - view).max()) < 1.0
