"""The screens around the table: attract, menus, the tile flip, the lottery draw, final scores."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from companion.screen import resources as res
from companion.screen import views as v
from companion.screen.display import Display
from companion.screen.resources import Resources
from tests import screen_samples as samples


@pytest.fixture(params=[(800, 480), (480, 320)], ids=["800x480", "480x320"])
def display(request: pytest.FixtureRequest) -> Iterator[Display]:
    with Display(*request.param) as shown:
        yield shown


def pixels(display: Display) -> np.ndarray:
    return pygame.surfarray.array3d(display.canvas).astype(int)


def color_share(image: np.ndarray, color: tuple[int, int, int], tolerance: int = 12) -> float:
    return float((np.abs(image - np.array(color)).sum(axis=2) < tolerance).mean())


@pytest.mark.parametrize("name", list(samples.screens()))
def test_every_screen_renders_at_both_sizes(display: Display, name: str) -> None:
    display.draw(samples.screens()[name], 0.0)
    display.draw(samples.screens()[name], 1.5)
    image = pixels(display)
    assert image.shape[:2] == display.size and image.std() > 15


def test_attract_mode_keeps_moving(display: Display) -> None:
    display.draw(v.AttractView(), 0.0)
    first = pixels(display)
    display.draw(v.AttractView(), 0.4)
    assert not np.array_equal(first, pixels(display))


@pytest.mark.parametrize("tile", ["monkey", "genie"])
def test_the_tile_flips_over_to_show_what_it_is(display: Display, tile: str) -> None:
    face_down = v.TileFlipView("Ben", None, flip_id=0, tray_value=6)
    display.draw(face_down, 0.0)
    flipped = v.TileFlipView("Ben", tile, flip_id=1, tray_value=6, monkeys_up=1)
    display.draw(flipped, 0.1)
    t = 0.1
    while t < 1.5:
        t += 1 / 30
        display.draw(flipped, t)
    w, h = display.canvas.get_size()
    size = int(min(w * 0.42, h * 0.48))
    cues = [name for name, _ in display.pop_cues()]
    assert cues.count(tile) == 1
    # the face is centred across the screen: slide down it and keep the best-matching tile art
    image = pixels(display)
    surfaces = {t: Resources().symbol("mega-jackpot", f"tile:{t}", size) for t in ("genie", "monkey")}
    arts = {t: pygame.surfarray.array3d(s).astype(int) for t, s in surfaces.items()}
    solid = pygame.surfarray.array_alpha(surfaces["genie"]) > 250  # both tiles share the outline
    solid[1::2, :] = False  # every other column is plenty to tell the tiles apart
    errors = {
        (float(np.abs(image[x : x + size, y : y + size][solid] - art[solid]).mean()), name)
        for x in range((w - size) // 2 - 1, (w - size) // 2 + 2)
        for y in range(0, h - size)
        for name, art in arts.items()
    }
    error, seen = min(errors)
    assert seen == tile and error < 3.0


def test_the_lottery_draw_places_tokens_on_the_spaces_lowest_first(display: Display) -> None:
    view = v.LotteryDrawView(1, (1, 2, 3), ("6", "none"), draw_id=2)
    display.draw(view, 0.0)
    display.draw(view, 2.0)
    w, h = display.canvas.get_size()
    image = pixels(display)
    # two tokens drawn: their white faces and blue rims are on the screen, the third space is empty
    blue = color_share(image, (30, 110, 170), 30)
    assert blue > 0.005
    empty = v.LotteryDrawView(1, (1, 2, 3), (), draw_id=0)
    display.draw(empty, 3.0)
    assert color_share(pixels(display), (30, 110, 170), 30) < blue / 4


def test_final_scores_highlight_the_winner_and_chart_every_player(display: Display) -> None:
    view = samples.screens()["final-scores"]
    assert isinstance(view, v.FinalScoresView)
    display.draw(view, 0.0)
    image = pixels(display)
    from companion.screen.widgets import PLAYER_COLORS

    for index in range(len(view.players)):
        assert color_share(image, PLAYER_COLORS[index], 6) > 0.0005, f"player {index} has no line"
    nobody = v.FinalScoresView(
        view.game_id, view.title, tuple(v.FinalLine(p.name, p.score) for p in view.players), view.history
    )
    display.draw(nobody, 0.0)
    assert (
        color_share(image, res.ACTIVE) > color_share(pixels(display), res.ACTIVE) + 0.01
    )  # the winner's row


def test_the_menu_highlights_one_line_and_it_follows_the_selection(display: Display) -> None:
    centers = []
    for selected in range(4):
        display.draw(v.MenuView(selected=selected), 0.0)
        image = pixels(display)
        lit_rows = np.flatnonzero(
            [color_share(image[:, y : y + 1], res.ACTIVE) > 0.5 for y in range(image.shape[1])]
        )
        assert len(lit_rows) > 10
        assert lit_rows[-1] - lit_rows[0] + 1 == len(lit_rows), "more than one line is highlighted"
        centers.append(float(lit_rows.mean()))
    assert centers == sorted(centers) and len(set(centers)) == 4


def test_camera_setup_shows_the_preview_and_which_corners_are_found(display: Display) -> None:
    import numpy as np

    purple = np.zeros((90, 160, 3), np.uint8)
    purple[:] = (200, 40, 160)  # BGR
    display.draw(v.CameraView(corners=(True, False, False, False), preview=purple), 0.0)
    image = pixels(display)
    assert color_share(image, (160, 40, 200), 6) > 0.2  # shown in RGB, most of the screen
    one = color_share(image, res.GOOD, 6)
    display.draw(v.CameraView(corners=(True, True, True, True), preview=purple), 0.0)
    assert color_share(pixels(display), res.GOOD, 6) > one * 2  # four green corners (and a green title)
    display.draw(v.CameraView(preview=None), 0.0)
    assert color_share(pixels(display), (160, 40, 200), 6) == 0.0
