"""The table view as the players see it: whose turn, the secret boxes, alerts, claims, sizes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pygame
import pytest

from companion.screen import resources as res
from companion.screen.display import Display
from companion.screen.table import layout, player_cells
from companion.screen.views import PlayerLine, TableView
from companion.screen.widgets import Frame
from tests import screen_samples as samples

FPS = 30.0


def render(size: tuple[int, int], view: TableView, until: float) -> np.ndarray:
    """Open a screen, play the view from the lever pull to ``until`` seconds, read it back."""
    with Display(*size) as display:
        return play(display, view, until)


def play(display: Display, view: TableView, until: float) -> np.ndarray:
    display.draw(samples.at_rest(view), 0.0)
    t = 0.1
    while t <= until:
        display.draw(view, t)
        t += 1.0 / FPS
    return pygame.surfarray.array3d(display.screen).copy()


def cells_of(display: Display, players: tuple[PlayerLine, ...]) -> list[pygame.Rect]:
    frame = Frame(display.canvas, None, None, 0.0)  # type: ignore[arg-type]
    return player_cells(frame, players, layout(frame).players)


def share_of(pixels: np.ndarray, rect: pygame.Rect, color: tuple[int, int, int]) -> float:
    region = pixels[rect.left : rect.right, rect.top : rect.bottom].astype(int)
    return float((np.abs(region - np.array(color)).sum(axis=2) < 12).mean())


@pytest.fixture(params=[(800, 480), (480, 320)], ids=["800x480", "480x320"])
def display(request: pytest.FixtureRequest) -> Iterator[Display]:
    with Display(*request.param) as shown:
        yield shown


@pytest.mark.parametrize("active", [0, 1, 2])
def test_the_player_whose_turn_it_is_is_highlighted(display: Display, active: int) -> None:
    base = samples.pay_line_table()
    players = tuple(replace(p, active=i == active) for i, p in enumerate(base.players))
    pixels = play(display, replace(base, players=players), 0.5)
    shares = [share_of(pixels, cell, res.ACTIVE) for cell in cells_of(display, players)]
    assert shares[active] > 0.5
    assert all(s < 0.05 for i, s in enumerate(shares) if i != active)


def test_pay_line_boxes_never_show_their_chip_count(display: Display) -> None:
    size = display.size
    display.close()
    few = render(size, samples.pay_line_table(chips=(3, 7, 16)), 5.0)
    many = render(size, samples.pay_line_table(chips=(41, 0, 99)), 5.0)
    assert np.array_equal(few, many), "a hidden box count changed what the table sees"


def test_shaking_a_box_does_not_give_its_count_away(display: Display) -> None:
    def shaken(chips: tuple[int, int, int]) -> TableView:
        view = samples.pay_line_table(chips=chips)
        panel = view.panel
        assert panel is not None
        boxes = tuple(replace(b, shaking=True) for b in panel.boxes)  # type: ignore[union-attr]
        return replace(view, panel=replace(panel, boxes=boxes))  # type: ignore[type-var]

    size = display.size
    display.close()
    light = render(size, shaken((1, 1, 1)), 2.0)
    heavy = render(size, shaken((60, 60, 60)), 2.0)
    assert np.array_equal(light, heavy)


def test_box_counts_are_shown_once_the_game_is_over(display: Display) -> None:
    size = display.size
    display.close()
    secret = render(size, samples.pay_line_table(chips=(3, 7, 16)), 5.0)
    revealed = render(size, samples.pay_line_table(chips=(3, 7, 16), revealed=True), 5.0)
    assert not np.array_equal(secret, revealed)


def test_an_alert_is_a_red_band_above_the_prompt(display: Display) -> None:
    view = replace(samples.mega_jackpot_table(), alert="Card in pile 2 is askew: straighten it")
    pixels = play(display, view, 0.3)
    frame = Frame(display.canvas, None, None, 0.0)  # type: ignore[arg-type]
    prompt = layout(frame).prompt
    band = pygame.Rect(0, prompt.y - int(prompt.height * 0.9) + 1, display.size[0], 3)  # its top edge
    region = pixels[band.left : band.right, band.top : band.bottom].astype(int)
    reddish = (region[..., 0] > 150) & (region[..., 1] < 60) & (region[..., 2] < 70)
    assert reddish.mean() > 0.8


def test_claimable_rows_get_a_claim_marker_beside_their_row(display: Display) -> None:
    view = samples.bandit_table()
    display.close()
    for rows in ((1,), (0, 2)):
        panel = replace(view.panel, claimable_rows=rows)  # type: ignore[type-var]
        with Display(*display.size) as shown:
            pixels = play(shown, replace(view, panel=panel), 9.0)
            geo = shown.reel_geometry
            assert geo is not None
            for row, y in enumerate(geo.row_centers):
                marker = pygame.Rect(geo.frame.right + 2, y - 3, shown.size[0] // 12, 6)
                assert (share_of(pixels, marker, res.GOLD) > 0.2) == (row in rows), f"row {row}"


def test_the_prompt_line_changes_only_the_prompt(display: Display) -> None:
    frame = Frame(display.canvas, None, None, 0.0)  # type: ignore[arg-type]
    prompt = layout(frame).prompt
    size = display.size
    display.close()
    a = render(size, samples.lottery_table(), 0.2)
    b = render(size, replace(samples.lottery_table(), prompt="Finalize: re-roll any of your dice once"), 0.2)
    changed = np.argwhere((a != b).any(axis=2))
    assert len(changed) > 0
    assert changed[:, 1].min() >= prompt.top


@pytest.mark.parametrize("name", list(samples.tables()))
def test_every_game_table_renders_at_both_sizes(display: Display, name: str) -> None:
    pixels = play(display, samples.tables()[name], 1.0)
    assert pixels.shape[:2] == display.size
    assert pixels.std() > 20  # something is drawn, not a blank screen


def test_a_symbol_the_art_does_not_know_shows_a_question_mark_not_a_crash(
    display: Display, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.screen.views import ReelSet

    lemon = f"lemon-{display.size[0]}"  # the warning is given once per symbol per process
    view = replace(samples.payout_table(), reels=ReelSet.row(["grapes", lemon, "wild"], spin_id=3))
    with caplog.at_level("WARNING"):
        pixels = play(display, view, 5.0)
    assert pixels.std() > 20
    assert caplog.text.count(f"jackpot-payout has no symbol '{lemon}'") == 1


def test_a_win_reaches_the_score_bank_and_prompt_only_after_the_reels_stop(display: Display) -> None:
    size = display.size
    display.close()
    before = samples.pay_line_table()
    after = replace(
        before,
        prompt="Jackpot! Take the red box",
        players=tuple(replace(p, score=p.score + 16) if p.active else p for p in before.players),
        bank="Bank 36",
    )
    with Display(*size) as shown:
        rows = cells_of(shown, before.players)
        active = next(i for i, p in enumerate(before.players) if p.active)
        lay = layout(Frame(shown.canvas, None, None, 0.0))  # type: ignore[arg-type]
        header, prompt = lay.header, lay.prompt
        old = play(shown, before, 0.2)  # the old score and bank at rest
        spin = replace(after, reels=replace(after.reels, spin_id=99))  # type: ignore[type-var]
        mid = play_from(shown, spin, 0.3, 0.8)  # the reels still turning
        end = play_from(shown, spin, 0.8, 8.0)
    with Display(*size) as fresh:
        new = play(fresh, after, 0.2)  # how the new score and bank look at rest

    def region(p: np.ndarray, r: pygame.Rect) -> np.ndarray:
        return p[r.left : r.right, r.top : r.bottom]

    assert np.array_equal(region(mid, rows[active]), region(old, rows[active])), "the score changed mid-spin"
    assert np.array_equal(region(mid, header), region(old, header)), "the bank changed mid-spin"
    assert np.array_equal(region(end, rows[active]), region(new, rows[active]))
    assert np.array_equal(region(end, header), region(new, header))
    assert np.array_equal(region(mid, prompt), region(old, prompt)), "the prompt told the result mid-spin"
    assert np.array_equal(region(end, prompt), region(new, prompt))


def play_from(display: Display, view: TableView, start: float, until: float) -> np.ndarray:
    t = start
    while t <= until:
        display.draw(view, t)
        t += 1.0 / FPS
    return pygame.surfarray.array3d(display.screen).copy()


def test_a_pay_line_jackpots_three_choices_all_get_a_pill(display: Display) -> None:
    """Pills shrink to fit rather than drop BACK Walk away (it was cut off beside three players)."""
    from companion.screen.table import fit_pills

    frame = Frame(display.canvas, display._res, None, 0.0)  # type: ignore[arg-type]
    labels = ["COLLECT Take", "START Double", "BACK Walk away"]
    size, placed = fit_pills(frame, labels, layout(frame).controls)
    assert [label for label, _ in placed] == labels
    assert size >= 3.0
