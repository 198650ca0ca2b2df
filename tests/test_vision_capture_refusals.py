"""A photo a card cannot be taught from is refused with the reason a player can act on: a
card that was found but not trusted is not reported as "no card found"."""

from __future__ import annotations

import numpy as np
import pytest

from companion.bench.realcards import default_photos
from companion.errors import UserError
from vision.enrolled import capture_card
from vision.image_files import read_image

PHOTOS = default_photos()
real_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no real photos at {PHOTOS}")


@real_photos
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("IMG_2522.JPG", "has a line across it"),  # a ten on starry cloth: a seam seen between its pips
        ("IMG_2471.JPG", "partly covered"),  # a nine half under a bracelet
        ("IMG_2491.JPG", "partly covered"),  # a nine lying on a white sheet: one side does not step
        ("IMG_2523.JPG", "beside other cards or paper"),  # an ace on printed sheets, half under a book
    ],
)
def test_a_card_found_but_not_trusted_is_refused_with_its_reason(name: str, reason: str) -> None:
    with pytest.raises(UserError) as refused:
        capture_card(read_image(PHOTOS / name), "the photo")
    message = str(refused.value)
    assert reason in message and "no card found" not in message
    assert "\n" not in message and message.startswith("the card in the photo ")


def test_an_empty_table_is_still_no_card_found() -> None:
    with pytest.raises(UserError, match="^no card found in the photo: lay one card"):
        capture_card(np.full((720, 1280, 3), 90, np.uint8), "the photo")
