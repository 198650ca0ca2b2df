"""Opening the screen, rotating it in the app, saving what it shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from companion.errors import UserError
from companion.screen.display import Display, choose_video_driver
from companion.screen.views import TableView
from tests import screen_samples as samples

FPS = 30.0


def shown(display: Display, view: TableView, until: float = 2.0) -> np.ndarray:
    display.draw(samples.at_rest(view), 0.0)
    t = 0.1
    while t <= until:
        display.draw(view, t)
        t += 1 / FPS
    return pygame.surfarray.array3d(display.screen).copy()


def test_a_pi_console_without_a_desktop_gets_kms_drm() -> None:
    assert choose_video_driver({}) == "kmsdrm"
    assert choose_video_driver({"DISPLAY": ":0"}) is None
    assert choose_video_driver({"WAYLAND_DISPLAY": "wayland-0"}) is None
    assert choose_video_driver({"SDL_VIDEODRIVER": "dummy"}) is None  # an explicit choice wins


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_upside_down_is_the_same_picture_turned_half_round(size: tuple[int, int]) -> None:
    view = samples.bandit_table()
    with Display(*size) as upright:
        normal = shown(upright, view)
    with Display(*size, rotation=180) as flipped:
        turned = shown(flipped, view)
    assert np.array_equal(turned, normal[::-1, ::-1])


@pytest.mark.parametrize("rotation", [90, 270])
def test_a_panel_on_its_side_gets_a_portrait_layout_turned_onto_it(rotation: int) -> None:
    view = samples.pay_line_table()
    with Display(320, 480) as portrait:  # what a portrait panel would show
        upright = shown(portrait, view)
    with Display(480, 320, rotation=rotation) as side:
        assert side.canvas.get_size() == (320, 480)
        turned = shown(side, view)
    assert turned.shape[:2] == (480, 320)
    # surfarray is indexed [x, y]: turning the picture clockwise by 90 maps (x, y) -> (H-1-y, x)
    expect = np.rot90(upright, k=1 if rotation == 90 else -1, axes=(0, 1))
    assert np.array_equal(turned, expect)


def test_rotation_can_change_from_the_menu() -> None:
    with Display(480, 320) as display:
        display.set_rotation(90)
        assert display.rotation == 90 and display.canvas.get_size() == (320, 480)
        display.set_rotation(0)
        assert display.canvas.get_size() == (480, 320)
        with pytest.raises(UserError, match="one of 0, 90, 180, 270"):
            display.set_rotation(45)


def test_a_bad_rotation_in_the_config_is_a_clear_error() -> None:
    with pytest.raises(UserError, match="rotation must be one of 0, 90, 180, 270"):
        Display(800, 480, rotation=80)


def test_save_png_writes_what_the_screen_shows(tmp_path: Path) -> None:
    with Display(480, 320, rotation=180) as display:
        pixels = shown(display, samples.lottery_table(), 0.5)
        path = tmp_path / "deep" / "frame.png"
        display.save_png(path)
    saved = pygame.surfarray.array3d(pygame.image.load(str(path)))
    assert np.array_equal(saved, pixels)


def test_drawing_something_that_is_not_a_view_is_a_type_error() -> None:
    with Display(480, 320) as display, pytest.raises(TypeError, match="cannot draw str"):
        display.draw("attract", 0.0)  # type: ignore[arg-type]


def test_close_is_idempotent() -> None:
    display = Display(480, 320)
    display.close()
    display.close()
