"""Teaching a card lying on a table as light as itself (:mod:`vision.light_table_outlines`)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.bench.realcards import default_photos
from companion.errors import UserError
from vision.enrolled import capture_card
from vision.image_files import read_image
from vision.label_boxes import box_iou, box_of
from vision.labelled_photos import load_photos
from vision.light_table_outlines import light_table_cards
from vision.taught_scene import lay_out, scene_style, synthetic_face

PHOTOS = default_photos()
real_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no real photos at {PHOTOS}")

#: Grey-white card paper (BGR) a few Lab units from the simulated light table: the outline
#: searches take it for table.
PAPERS = [(200, 205, 208), (185, 190, 192)]


def light_scene(faces: list[np.ndarray], seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    scene = lay_out(faces, seed, style=scene_style(seed, "light", card_px=150, tilt=8))
    return scene.frame(), [placed.corners for placed in scene.all_placed()]


@pytest.mark.parametrize("paper", PAPERS)
def test_a_card_on_a_table_of_its_colour_is_taught_whole(paper: tuple[int, int, int]) -> None:
    frame, (corners,) = light_scene([synthetic_face(13, paper=paper)], 703)
    found = light_table_cards(frame, 0.01).cards
    assert len(found) == 1 and box_iou(box_of(found[0]), box_of(corners)) >= 0.85
    quad = capture_card(frame, "the photo").quad
    assert box_iou(box_of(quad), box_of(corners)) >= 0.85


@pytest.mark.parametrize(("paper", "seed"), [(PAPERS[0], 3), (PAPERS[0], 7), (PAPERS[1], 0), (PAPERS[1], 6)])
def test_two_cards_on_a_table_of_their_colour_are_refused(paper: tuple[int, int, int], seed: int) -> None:
    """Also when only one of them is printed enough to be sure of: the other's edge shows."""
    faces = [synthetic_face(10 + seed, paper=paper), synthetic_face(30 + seed, paper=paper)]
    frame, _corners = light_scene(faces, 700 + seed)
    with pytest.raises(UserError, match="card") as refused:
        capture_card(frame, "the photo")
    assert "\n" not in str(refused.value)


def test_a_blank_sheet_beside_a_card_on_a_light_table_is_no_second_card() -> None:
    """A card-shaped patch of the table without print (a sheet's margin, a box printed on a
    letter) has a faint edge all round, but no card is blank: the card beside it is taught."""
    frame, (corners,) = light_scene([synthetic_face(13, paper=PAPERS[0])], 703)
    height, width = frame.shape[:2]
    card = np.asarray(corners, np.float32)
    centre = card.mean(axis=0)
    # The same shape in the quarter of the picture farthest from the card, a shade darker.
    far_x = width * (0.25 if centre[0] > width / 2 else 0.75)
    far = np.float32([far_x, height * (0.25 if centre[1] > height / 2 else 0.75)])
    sheet = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(sheet, np.int32(card - centre + far), 255)
    darker = np.clip(frame.astype(np.int16) - 18, 0, 255).astype(np.uint8)
    frame[sheet > 0] = darker[sheet > 0]
    found = light_table_cards(frame, 0.01)
    assert any(np.abs(quad.mean(axis=0) - far).max() < 20 for quad in found.outlined)  # its edge shows
    quad = capture_card(frame, "the photo").quad
    assert box_iou(box_of(quad), box_of(corners)) >= 0.85


@real_photos
@pytest.mark.parametrize(
    "name",
    [
        "IMG_2484.JPG",  # on a white tray painted with birds and leaves
        "IMG_2477.JPG",  # on a white tray, in sun and shade
        "IMG_2526.JPG",  # in a white bowl
        "IMG_2509.JPG",  # a queen on a light counter: the outline searches find only her art
    ],
)
def test_a_real_card_on_a_light_table_is_taught_whole(name: str) -> None:
    photo = next(p for p in load_photos(PHOTOS) if p.path.name == name)
    quad = capture_card(read_image(photo.path), name).quad
    assert box_iou(tuple(float(v) for v in photo.cards[0][1]), box_of(quad)) >= 0.85


@real_photos
@pytest.mark.parametrize(
    "name",
    [
        "IMG_2400.JPG",  # a queen on light carpet: her art's frame is no card
        "IMG_2453.JPG",  # a king on a light table: likewise
        "IMG_2509.JPG",  # a queen on a light counter
        "IMG_2638.JPG",  # three face cards: the frame round a king's index is no card
    ],
)
def test_a_frame_printed_on_a_card_is_not_taken_for_one(name: str) -> None:
    photo = next(p for p in load_photos(PHOTOS) if p.path.name == name)
    for quad in light_table_cards(read_image(photo.path), 0.01).cards:
        assert max(box_iou(tuple(float(v) for v in box), box_of(quad)) for _rank, box in photo.cards) >= 0.85
