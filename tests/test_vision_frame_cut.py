"""Cards cut by the frame's edge: completed from the part in view, named only by a corner index.

Synthetic and deterministic: taught faces lie on a textured table with part of the card
beyond the frame's right or bottom border (the frame is cut out of a larger table).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.test_covered_faces import ace_like, lay
from tests.test_covered_faces import taught as taught_faces
from vision.card_outlines import find_card_candidates
from vision.enrolled import CUT, EnrolledDeck
from vision.frame_cut import card_size, completed_cards, cut_card_shaped, is_cut, part_in_view
from vision.label_boxes import box_iou, box_of
from vision.reader import CardReader
from vision.taught_scene import synthetic_face


def taught(folder: Path) -> EnrolledDeck:
    """The synthetic faces 10-13 taught (plum is cut by the frame's edge, named whole or from its
    part in view; the covered-card tests teach a face for bell whose index is not plum's)."""
    return taught_faces(folder, (10, 11, 12, 13))


#: A card lying across the right border of a 400 x 360 frame, landscape: its short side (the
#: face's left one, TL-BL) in view at x ~300, the rest reaching to x ~475.
ACROSS = np.float32([[302, 250], [300, 124], [476, 121], [478, 247]])


def table(width: int = 560, height: int = 360) -> np.ndarray:
    rng = np.random.default_rng(5)
    return cv2.GaussianBlur(rng.normal(90, 25, (height, width, 3)).clip(0, 255).astype(np.uint8), (0, 0), 2.0)


def cut_scene(face: np.ndarray, card: np.ndarray = ACROSS, width: int = 400) -> np.ndarray:
    """The frame (``width`` px of the table) with ``face`` laid at ``card`` (TL TR BR BL of the
    upright face) on the whole table: what lies beyond ``width`` is out of view."""
    frame = table()
    lay(frame, face, card)
    noise = np.random.default_rng(6).normal(0, 3, frame.shape)
    return np.ascontiguousarray((frame + noise).clip(0, 255).astype(np.uint8)[:, :width])


def in_view_part(card: np.ndarray = ACROSS, width: int = 400) -> np.ndarray:
    """The outline the search finds for ``card`` cut at x = width - 1: its part in view."""
    top, bottom = card[1], card[0]
    ends = []
    for start, end in ((top, card[2]), (bottom, card[3])):
        t = (width - 1 - start[0]) / (end[0] - start[0])
        ends.append(start + t * (end - start))
    return np.float32([bottom, top, ends[0], ends[1]])


def king_indexed_ace() -> np.ndarray:
    """The taught ace with a "K" for its corner indices: a look-alike never taught."""
    stranger = ace_like()
    for _turn in range(2):
        stranger[8:52, 8:44] = (232, 236, 238)
        cv2.putText(stranger, "K", (14, 32), cv2.FONT_HERSHEY_DUPLEX, 0.6, (40, 40, 200), 2, cv2.LINE_AA)
        stranger = np.ascontiguousarray(stranger[::-1, ::-1])
    return stranger


def test_a_part_with_a_whole_side_in_view_completes_to_the_card() -> None:
    shape = (360, 400, 3)
    cards = completed_cards(in_view_part(), shape, spread=(1.0,))
    # The side in view is the short one: 88/63 of it reaches past the border; taken for the
    # long side, the card would be shorter than what already shows of it (dropped).
    assert len(cards) == 1
    truth = ACROSS[[3, 0, 1, 2]]  # the completion starts at the far end of the first cut side
    assert np.abs(cards[0] - truth).max() < 4.0
    # Perspective: the length that holds is tried a few % shorter and longer too, never the
    # other way round.
    spread = completed_cards(in_view_part(), shape)
    assert len(spread) == 3 and all(np.abs(card[1:3] - truth[1:3]).max() < 1e-3 for card in spread)
    assert sorted(round(float(np.linalg.norm(c[0] - c[1])) / 176, 2) for c in spread) == [0.93, 1.0, 1.07]
    shown = part_in_view(cards[0], shape)
    assert shown is not None and shown[:, 0].max() <= 399.01


def test_a_part_with_one_corner_in_view_is_not_completed() -> None:
    """Only a corner shows: no side is whole, and without a whole card in view nothing says how
    large the card is. Its square corner may still be a card's: the outline search keeps it
    (the reader completes it once whole cards in view give the size)."""
    corner = np.float32([[340, 300], [399, 250], [399, 359], [380, 359]])
    assert is_cut(corner, (360, 400)) and completed_cards(corner, (360, 400)) == []
    assert cut_card_shaped(corner, (360, 400), 360 * 400.0)


def test_a_card_completed_short_of_the_border_is_no_completion() -> None:
    """Sides running out of view: the card reaches past the border. A completion ending in
    view (its far side would have shown) is dropped, even where what shows along its cut
    sides is within the length tolerance of it."""
    # A 170 px side in view: 170 * 88/63 = 237 px of card; the sides show 249 px to the border.
    reaching = np.float32([[150, 265], [150, 95], [399, 95], [399, 265]])
    assert completed_cards(reaching, (360, 400)) == []  # nor tried a few % longer
    # 225 px show: the card's far side (237 px off) lies beyond the border.
    shorter = reaching + np.float32([[24, 0], [24, 0], [0, 0], [0, 0]])
    assert len(completed_cards(shorter, (360, 400), spread=(1.0,))) == 1


def test_an_outline_inside_the_frame_is_not_cut() -> None:
    assert not is_cut(ACROSS - np.float32([200, 0]), (360, 400))
    assert completed_cards(ACROSS - np.float32([200, 0]), (360, 400)) == []


def test_a_sparse_card_cut_by_the_edge_is_named_by_its_index(tmp_path: Path) -> None:
    """An ace's half in view: too few keypoints for the feature stage; its index names it."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    frame = cut_scene(ace_like())
    part = in_view_part()
    assert deck.identify(frame, part, whole=False, thorough=True).card_id is None
    found = deck.identify(frame, part, whole=False, thorough=True, cut=True)
    assert (found.card_id, found.method) == ("any", CUT)
    assert found.corners is not None and found.corners[:, 0].max() > 460  # the card beyond


@pytest.mark.parametrize("length", [0.92, 1.08])
def test_a_foreshortened_card_cut_by_the_edge_is_named(tmp_path: Path, length: float) -> None:
    """A phone's perspective: the card in view is 8 % shorter or longer than 88/63 of its side
    in view (dev IMG_2611's nine at the right edge, about 7 % shorter); each length is tried a
    few per cent either way."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    card = ACROSS.copy()
    card[2] = ACROSS[1] + (ACROSS[2] - ACROSS[1]) * length
    card[3] = ACROSS[0] + (ACROSS[3] - ACROSS[0]) * length
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(cut_scene(ace_like(), card)).cards
    assert [c.card_id for c in cards] == ["any"]


def test_a_cut_card_never_taught_is_unidentified(tmp_path: Path) -> None:
    """An ace whose index differs (a look-alike never taught) stays unidentified."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    stranger = king_indexed_ace()
    frame = cut_scene(stranger)
    assert deck.identify(frame, in_view_part(), whole=False, thorough=True, cut=True).card_id is None


def test_a_strip_of_a_card_along_the_border_is_an_unsure_outline() -> None:
    """Cut to a strip (too long and thin for a card's aspect): still an outline of the plain
    search (the camera's, every frame), not whole and not sure (a taught face must name it)."""
    across = ACROSS + np.float32([50, 0])  # 49 px of the card's 176 in view: a strip 0.39 wide
    frame = cut_scene(synthetic_face(11), across)
    found = [o for o in find_card_candidates(frame) if o.quad[:, 0].max() > 390]
    assert len(found) == 1 and not found[0].sure and not found[0].whole
    assert np.abs(found[0].quad[:, 0].min() - 351) < 5


def test_the_reader_names_a_card_cut_by_the_edge_where_it_shows(tmp_path: Path) -> None:
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    frame = cut_scene(ace_like())
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(frame).cards
    named = [c for c in cards if c.card_id == "any"]
    assert len(named) == 1 and named[0].confidence >= 0.8
    assert named[0].visible is not None and max(x for x, _y in named[0].visible) <= 400
    assert max(x for x, _y in named[0].corners) > 460


def test_a_card_with_a_corner_on_the_border_is_compared_whole(tmp_path: Path, monkeypatch) -> None:
    """All of it in view but a corner's tip: its outline is not whole (a corner on the border),
    yet it is compared as a whole card (thumbnails, then features), not by a part."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    card = np.float32([[242.6, 289], [230.3, 171.7], [389.4, 155], [401.7, 272.3]])  # BL: 2.7 px out
    frame = cut_scene(ace_like(), card)
    outline = card.copy()
    outline[3, 0] = 399.0
    parts: list[int] = []
    compare = deck.identify_covered
    monkeypatch.setattr(deck, "identify_covered", lambda *a: parts.append(1) or compare(*a))
    found = deck.identify(frame, outline, whole=False, thorough=True, cut=True)
    assert found.card_id == "any" and parts == []


def _box_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of the axis-aligned boxes round two polygons."""
    return box_iou(box_of(a), box_of(b))


def test_a_cut_card_named_from_an_outline_inside_it_shows_all_its_part_in_view(
    tmp_path: Path, monkeypatch
) -> None:
    """The outline search may find only a patch of a card cut by the frame's edge (round its
    picture: dev IMG_2610's jack read at 2.5x); the card named from it lies past the border,
    and what shows of it is all its part in view, not the patch (the bench counted a card where
    none is by the patch, IoU 0.39; zones place a card by what shows)."""
    import vision.die_cut_reading as die_cut_reading
    from vision.card_outlines import CardOutline

    deck = taught(tmp_path)
    frame = cut_scene(synthetic_face(11))
    patch = np.float32([[320, 140], [399, 140], [399, 230], [320, 230]])  # IoU 0.56 with the part
    monkeypatch.setattr(
        die_cut_reading, "find_card_candidates", lambda *a, **k: [CardOutline(patch, False, False)]
    )
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(frame).cards
    named = [c for c in cards if c.card_id == "plum"]
    assert len(named) == 1 and named[0].visible is not None
    assert max(x for x, _y in named[0].corners) > 460  # the card beyond the border
    visible = np.float32(named[0].visible)
    assert visible[:, 0].max() <= 400 and _box_iou(visible, in_view_part()) >= 0.9


#: A card across the frame's bottom right corner (TL TR BR BL of the upright face, 120 x 168
#: px): only its top left corner, with its index, lies in the 400 x 340 frame.
CORNER_CARD = np.float32([[318, 232], [438, 226], [446, 394], [326, 400]])
#: The outline the search finds for it: its part in view.
CORNER_PART = np.float32([[318, 232], [399, 228], [399, 339], [323, 339]])


def corner_scene(face: np.ndarray, others: bool = True, card: np.ndarray = CORNER_CARD) -> np.ndarray:
    """``face`` at ``card``; with ``others``, two whole taught cards of CORNER_CARD's size beside it."""
    frame = table()
    if others:
        lay(frame, synthetic_face(10), np.float32([[40, 40], [160, 40], [160, 208], [40, 208]]))
        lay(frame, synthetic_face(12), np.float32([[190, 60], [309, 66], [301, 234], [182, 228]]))
    lay(frame, face, card)
    noise = np.random.default_rng(6).normal(0, 3, frame.shape)
    return np.ascontiguousarray((frame + noise).clip(0, 255).astype(np.uint8)[:340, :400])


def test_a_corner_alone_in_view_completes_to_the_size_of_the_whole_cards_in_view() -> None:
    shape = (340, 400)
    size = card_size([np.float32([[0, 0], [118, 0], [122, 170], [0, 166]]), CORNER_CARD - 200])
    assert size is not None and abs(size[0] - 120) < 2 and abs(size[1] - 168) < 2
    assert completed_cards(CORNER_PART, shape) == []  # no size: no completion
    cards = completed_cards(CORNER_PART, shape, size)
    # One of them is the card (the view's size taken as it is, the long side downwards).
    assert any(all(np.linalg.norm(card - p, axis=1).min() < 5 for p in CORNER_CARD) for card in cards)
    for card in cards:  # each reaches past the border but by the corner in view
        assert sum(p[0] < 395 and p[1] < 335 for p in card.tolist()) == 1
    # A corner of a few px in view is too little of the card to say anything.
    tip = np.float32([[388, 328], [399, 327], [399, 339], [389, 339]])
    assert completed_cards(tip, shape, size) == []


def test_a_corner_of_a_card_is_named_by_its_index_from_the_size_of_the_cards_in_view(tmp_path: Path) -> None:
    """Dev IMG_2642: an ace's corner at the photo's top left, its index in view."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(corner_scene(ace_like())).cards
    named = [c for c in cards if c.card_id == "any"]
    assert len(named) == 1 and named[0].visible is not None
    assert max(x for x, _y in named[0].corners) > 430 and max(y for _x, y in named[0].corners) > 390
    visible = np.float32(named[0].visible)
    assert visible[:, 0].max() <= 400 and _box_iou(visible, CORNER_PART) >= 0.9
    # Alone in view, nothing says how large the card is: unidentified.
    alone = CardReader("bandit", use_mat=False, enrolled=deck).read(corner_scene(ace_like(), others=False))
    assert not [c for c in alone.cards if c.card_id is not None]


@pytest.mark.parametrize("scale", [0.92, 1.08])
def test_a_corner_of_a_card_nearer_or_further_than_the_others_is_named(tmp_path: Path, scale: float) -> None:
    """A phone's perspective: a card near the camera looks larger than the cards further off
    (dev IMG_2642's ace at the top, 5-10 % larger than the cards below); the view's size is
    tried a few % either way."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    card = CORNER_CARD[0] + (CORNER_CARD - CORNER_CARD[0]) * scale
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(corner_scene(ace_like(), card=card)).cards
    assert [c.card_id for c in cards if max(x for x, _y in c.corners) > 390] == ["any"]


def test_a_corner_of_a_card_never_taught_is_unidentified(tmp_path: Path) -> None:
    """An ace whose index differs (a look-alike never taught) stays unidentified."""
    deck = taught(tmp_path)
    deck.keep("any", ace_like())
    stranger = king_indexed_ace()
    cards = CardReader("bandit", use_mat=False, enrolled=deck).read(corner_scene(stranger)).cards
    assert [c.card_id for c in cards if max(x for x, _y in c.corners) > 390] in ([], [None])
