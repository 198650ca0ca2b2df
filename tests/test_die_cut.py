"""Cards whose face is not white paper (full-bleed art, dark faces), found by their die-cut edge.

The paper searches find no such card on real tables (:mod:`vision.die_cut`); these tests teach
one from a whole photo of it alone on a real table square and read it in another photo, and
check that a book lying on a textured table (a card's shape, its pages' edge beside the cover)
is neither taught nor named.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.deck_styles import corner_mask, deck_faces, render_face

REALCARDS = Path(__file__).resolve().parent.parent.parent / "shared" / "realcards" / "photos"
needs_realcards = pytest.mark.skipif(not REALCARDS.is_dir(), reason="no ../shared/realcards beside the clone")


@pytest.fixture(scope="module")
def tables() -> list[np.ndarray]:
    from vision.labelled_photos import load_photos
    from vision.other_decks import table_squares

    return table_squares(load_photos(REALCARDS))


def _taught_and_read(style: str, number: int, tables: list[np.ndarray], tmp_path: Path) -> None:
    """Face ``number`` of ``style`` taught from the other-decks figure's photo of it (seed 0),
    then read alone in a photo on another table: named as itself, where it lies."""
    from vision.enrolled import EnrolledDeck, capture_card
    from vision.label_boxes import box_iou, box_of
    from vision.other_decks import GAME, RIGHT_CUTOUT, teaching_photo
    from vision.photo_tables import card_corners, lay_cards, table_photo
    from vision.reader import CardReader

    face = deck_faces(style)[number]
    photo, laid = teaching_photo(face, tables, np.random.default_rng([0, 1, number]))
    capture = capture_card(photo, "the photo")
    assert box_iou(box_of(capture.quad.tolist()), laid.box) >= RIGHT_CUTOUT
    deck = EnrolledDeck(GAME, tmp_path)
    deck.keep(str(face.card_id), capture.cutout)
    deck = EnrolledDeck(GAME, tmp_path)
    rng = np.random.default_rng(11)
    corners = card_corners(rng, (190.0, 250.0), 110.0, 352 / 252)
    laid = [(render_face(face), corner_mask(), corners)]
    scene, (card,) = lay_cards(table_photo(tables[3], rng), laid, rng)
    cards = CardReader(GAME, use_mat=False, enrolled=deck).read(scene).cards
    named = [c for c in cards if c.card_id is not None]
    assert [c.card_id for c in named] == [face.card_id]
    assert box_iou(box_of(named[0].corners), card.visible_box) >= 0.5


@needs_realcards
def test_a_dark_card_is_taught_and_read(tables: list[np.ndarray], tmp_path: Path) -> None:
    # The bell: near-black with a light frame line 5 % in (the paper searches: an edge does not
    # stand out).
    _taught_and_read("dark", 2, tables, tmp_path)


@needs_realcards
def test_a_full_bleed_card_is_taught_and_read(tables: list[np.ndarray], tmp_path: Path) -> None:
    # The cherry two: red art with rays to every edge (the paper searches found no card).
    _taught_and_read("full_bleed", 0, tables, tmp_path)


def _book_photo(table: np.ndarray) -> np.ndarray:
    """A hard-cover book of a card's shape lying on ``table``: a cover, and beside two of its
    sides the edge of its pages (light), a step parallel to the cover's edge."""
    photo = table.copy()
    cover = np.float32([[120, 150], [262, 170], [240, 365], [98, 345]])
    pages = cover + np.float32([9, 9])
    block = np.concatenate([cover, pages])
    cv2.fillConvexPoly(photo, cv2.convexHull(block).astype(np.int32), (70, 60, 55), cv2.LINE_AA)
    cv2.fillConvexPoly(photo, pages.astype(np.int32), (205, 220, 228), cv2.LINE_AA)
    cv2.fillConvexPoly(photo, cover.astype(np.int32), (120, 70, 40), cv2.LINE_AA)
    return cv2.GaussianBlur(photo, (3, 3), 0.8)


@needs_realcards
def test_a_book_on_a_textured_table_is_no_card(tables: list[np.ndarray], tmp_path: Path) -> None:
    from vision.enrolled import EnrolledDeck, capture_card
    from vision.other_decks import GAME
    from vision.photo_tables import table_photo
    from vision.reader import CardReader

    rng = np.random.default_rng(5)
    photo = _book_photo(table_photo(tables[0], rng))
    with pytest.raises(UserError):
        capture_card(photo, "the photo")
    # Read with a deck printed off paper (the die-cut search on): the book is named as nothing.
    deck = EnrolledDeck(GAME, tmp_path)
    deck.keep("bell", cv2.resize(render_face(deck_faces("dark")[2]), (240, 336)))
    deck = EnrolledDeck(GAME, tmp_path)
    cards = CardReader(GAME, use_mat=False, enrolled=deck).read(photo).cards
    assert all(c.card_id is None for c in cards)


def test_the_die_cut_search_finds_a_full_bleed_card_not_its_art() -> None:
    """On a plain grey table, one full-bleed card: the die-cut search finds the card's edge
    (its rays and art panel are no card), the paper searches' cues are not needed."""
    from vision.die_cut import die_cut_cards
    from vision.label_boxes import box_iou, box_of
    from vision.photo_tables import lay_cards

    rng = np.random.default_rng(2)
    table = np.full((504, 378, 3), 96, np.uint8)
    corners = np.float32([[100, 120], [262, 140], [240, 368], [78, 348]])
    face = render_face(deck_faces("full_bleed")[4])
    photo, (card,) = lay_cards(table, [(face, corner_mask(), corners)], rng)
    found = die_cut_cards(photo, 0.01)
    assert len(found) == 1
    assert box_iou(box_of(found[0].quad.tolist()), card.box) >= 0.9


def _lab_with_lines(frame_line: bool, table_line: bool) -> np.ndarray:
    """Lab of a dark card (100..299 x 80..359) on a grey table, with a light line printed 10 px
    inside its edge and/or a light stripe on the table 8 px outside it."""
    image = np.full((440, 400, 3), 130, np.uint8)
    if table_line:
        cv2.rectangle(image, (92, 72), (307, 367), (215, 215, 215), 2)
    image[80:360, 100:300] = (34, 26, 24)
    if frame_line:
        cv2.rectangle(image, (110, 90), (289, 349), (150, 190, 205), 2)
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def test_a_side_on_a_printed_frame_line_moves_out_to_the_cards_edge() -> None:
    from vision.die_cut import lab_segments, widened

    lab = _lab_with_lines(frame_line=True, table_line=False)
    frame = np.float32([[111, 91], [289, 91], [289, 349], [111, 349]])
    moved = widened(lab, frame, lab_segments(lab, 20.0))
    assert np.abs(moved - np.float32([[100, 80], [300, 80], [300, 360], [100, 360]])).max() <= 2.5


def test_a_cards_edge_stays_where_the_table_lies_beyond_it() -> None:
    from vision.die_cut import lab_segments, widened

    lab = _lab_with_lines(frame_line=False, table_line=True)
    card = np.float32([[100, 80], [300, 80], [300, 360], [100, 360]])
    assert np.abs(widened(lab, card, lab_segments(lab, 20.0)) - card).max() <= 1.5


def test_a_deck_is_printed_off_paper_by_most_of_its_faces(tmp_path: Path) -> None:
    """The die-cut search is on for a deck whose taught faces mostly have no light paper rim;
    a white deck with one face taught in shade stays a paper deck (read as before)."""
    from vision.die_cut_reading import prints_off_paper
    from vision.enrolled import CUT_H, CUT_W, EnrolledDeck

    white = np.full((CUT_H, CUT_W, 3), 235, np.uint8)
    cv2.circle(white, (CUT_W // 2, CUT_H // 2), 50, (30, 30, 200), -1)
    shaded = (white * 0.45).astype(np.uint8)
    dark = cv2.resize(render_face(deck_faces("dark")[2]), (CUT_W, CUT_H))
    paper = EnrolledDeck("bandit", tmp_path / "paper")
    for face_id, picture in (("bell", white), ("bar", white), ("seven", shaded)):
        paper.keep(face_id, picture)
    printed = EnrolledDeck("bandit", tmp_path / "printed")
    for face_id, picture in (("bell", dark), ("bar", dark), ("seven", white)):
        printed.keep(face_id, picture)
    assert not prints_off_paper(EnrolledDeck("bandit", tmp_path / "paper"))
    assert prints_off_paper(EnrolledDeck("bandit", tmp_path / "printed"))


def _dark_card_on(table: tuple[int, int, int], noise: float = 1.5) -> np.ndarray:
    """Lab of a dark card (100..299 x 80..359) on an even table of colour ``table`` (BGR), with
    sensor noise."""
    rng = np.random.default_rng(3)
    image = np.full((440, 400, 3), table, np.float32)
    image[80:360, 100:300] = (34, 26, 24)
    image += rng.normal(0.0, noise, image.shape)
    image = cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (0, 0), 0.8)
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB)


def test_a_dark_card_on_a_table_nearly_as_dark_steps_all_round() -> None:
    """A dark card on dark wood differs from it by 10-20 (summed Lab) all along a side: on its
    even ground that faint step is its edge (before: refused in teaching, "no card found")."""
    from vision.die_cut import DIE_STEP, side_steps

    card = np.float32([[100, 80], [300, 80], [300, 360], [100, 360]])
    assert side_steps(_dark_card_on((45, 38, 36)), card).min() >= DIE_STEP
    # The card's own ground on both sides of an outline inside it: no step, faint or not.
    inside = np.float32([[130, 110], [270, 110], [270, 330], [130, 330]])
    assert side_steps(_dark_card_on((45, 38, 36)), inside).max() < 0.5


def test_a_frame_line_side_moves_out_by_the_ground_where_no_segment_runs_along_the_edge() -> None:
    """A dark card's edge on an uneven table is a broken line (no segment along half the side):
    the side on its printed frame line moves out across the card's ground to where the table
    begins, and a side on the card's edge stays where it is."""
    from vision.die_cut import widened

    lab = _lab_with_lines(frame_line=True, table_line=False)
    none = np.zeros((0, 4), np.float32)
    frame = np.float32([[111, 91], [289, 91], [289, 349], [111, 349]])
    edge = np.float32([[100, 80], [300, 80], [300, 360], [100, 360]])
    assert np.abs(widened(lab, frame, none) - edge).max() <= 1.5
    assert np.abs(widened(lab, edge, none) - edge).max() <= 0.5


def test_a_small_dark_cards_frame_line_is_not_a_layer() -> None:
    """A card 60 px wide with a light frame line 3 px in: its rim's outer depths (1.5-4.5 % of
    its size, a px or two apart) are the edge's blur, the ground and the line, not one layer
    (a book's pages are: see the book test)."""
    from vision.die_cut import layered

    image = np.full((160, 140, 3), 130, np.uint8)
    image[40:124, 40:100] = (34, 26, 24)
    cv2.rectangle(image, (43, 43), (96, 120), (150, 190, 205), 1)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 0.8), cv2.COLOR_BGR2LAB)
    assert not layered(lab, np.float32([[40, 40], [100, 40], [100, 124], [40, 124]]))


def test_a_card_smaller_than_teaching_takes_is_not_taught() -> None:
    """A dark card of 0.7 % of the picture alone on a plain table: the die-cut search finds it,
    and teaching (a card of at least 1 % of the picture) refuses it, as the paper searches do."""
    from vision.card_capture import TEACH_MIN_AREA
    from vision.die_cut import die_cut_cards
    from vision.enrolled import capture_card

    table = np.clip(np.random.default_rng(3).normal(170, 3, (480, 640, 3)), 0, 255).astype(np.uint8)
    cv2.rectangle(table, (300, 200), (339, 255), (40, 30, 120), -1)
    (card,) = die_cut_cards(table, TEACH_MIN_AREA)
    assert cv2.contourArea(card.quad) < TEACH_MIN_AREA * 480 * 640
    with pytest.raises(UserError, match="no card found"):
        capture_card(table, "the photo")
    # Twice the size, it is taught.
    cv2.rectangle(table, (300, 200), (359, 283), (40, 30, 120), -1)
    assert cv2.contourArea(capture_card(table, "the photo").quad) >= TEACH_MIN_AREA * 480 * 640


@needs_realcards
def test_a_letter_on_a_books_cover_is_not_taught_as_the_card() -> None:
    """IMG_2520 turned half round (a camera mounted the other way): the ten lies half under a
    book, and the die-cut search took the card-shaped 'd' of the book's title, 0.5 % of the
    picture, as the one card to teach."""
    from vision.enrolled import capture_card
    from vision.image_files import read_image
    from vision.rough_camera import turned

    with pytest.raises(UserError):
        capture_card(turned(read_image(REALCARDS / "IMG_2520.JPG"), 2), "IMG_2520.JPG")
