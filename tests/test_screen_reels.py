"""Reels as the table sees them: a pull spins them, they land exactly on the given symbols."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from companion import art
from companion.screen.display import Display
from companion.screen.reelmotion import ReelPlan
from companion.screen.reels import coin_count
from companion.screen.resources import Resources
from companion.screen.views import BanditPanel, PlayerLine, ReelSet, TableView

FPS = 30.0


@pytest.fixture
def display() -> Iterator[Display]:
    with Display(800, 480) as shown:
        yield shown


def table(game: str, reels: ReelSet) -> TableView:
    panel = BanditPanel() if game == "bandit" else None
    return TableView(
        game, game.title(), (PlayerLine("Ann", 3, active=True),), "Pull the lever", reels=reels, panel=panel
    )


def play(display: Display, view: TableView, start: float, until: float) -> None:
    t = start
    while t <= until:
        display.draw(view, t)
        t += 1.0 / FPS


def seen_symbol(display: Display, game: str, reel: int, row: int) -> tuple[str, float]:
    """Which of the game's symbols the player sees in that reel cell, and how far off it is."""
    geo = display.reel_geometry
    assert geo is not None
    window = geo.windows[reel]
    h = geo.cell_height
    cell = pygame.Rect(window.x, window.y + row * h, window.width, h)
    band = cell.inflate(-cell.width // 5, -h // 2)  # the middle: away from the drum shade
    shown = pygame.surfarray.array3d(display.canvas)[band.left : band.right, band.top : band.bottom].astype(
        int
    )
    res = Resources()
    scores = {}
    for symbol in art.symbol_ids(game):
        expect = pygame.surfarray.array3d(res.cell(game, symbol, window.width, h, False)).astype(int)
        local = band.move(-cell.x, -cell.y)
        scores[symbol] = float(
            np.abs(shown - expect[local.left : local.right, local.top : local.bottom]).mean()
        )
    best = min(scores, key=scores.__getitem__)
    return best, scores[best]


def reel_frames(display: Display, view: TableView, reel: int, until: float) -> list[np.ndarray]:
    """What reel ``reel``'s window shows (below its top edge) in every frame from 0.1 s to ``until``."""
    frames = []
    t = 0.1
    while t < until:
        display.draw(view, t)
        geo = display.reel_geometry
        assert geo is not None
        w = geo.windows[reel]
        shown = pygame.surfarray.array3d(display.canvas)
        frames.append(shown[w.left : w.right, w.top + 20 : w.bottom].copy())
        t += 1.0 / FPS
    return frames


@pytest.mark.parametrize(
    ("game", "symbols"),
    [
        ("pay-line", ["red", "black", "yellow"]),
        ("mega-jackpot", ["carpet", "genie", "apple"]),
        ("jackpot-payout", ["shamrock", "crown", "grapes"]),
        ("thanks-a-lottery", ["7", "wild", "2"]),
    ],
)
def test_a_pull_lands_each_reel_exactly_on_its_symbol(
    display: Display, game: str, symbols: list[str]
) -> None:
    display.draw(table(game, ReelSet.row([art.symbol_ids(game)[0]] * 3)), 0.0)
    spin = table(game, ReelSet.row(symbols, spin_id=1))
    play(display, spin, 0.1, 5.0)
    for reel, symbol in enumerate(symbols):
        seen, error = seen_symbol(display, game, reel, 0)
        assert seen == symbol and error < 2.0, f"reel {reel} shows {seen} (off by {error:.1f}), not {symbol}"


def test_bandit_grid_lands_all_nine_cards_and_keeps_the_held_column_still(display: Display) -> None:
    before = [("plum", "plum", "plum"), ("seven", "bar", "cherry"), ("bell", "bell", "bell")]
    after = [("cherry", "any", "bell"), ("seven", "bar", "cherry"), ("blank", "plum", "seven")]
    display.draw(table("bandit", ReelSet.grid(before)), 0.0)
    spin = table("bandit", ReelSet.grid(after, spin_id=8, held=(False, True, False)))
    held_frames = reel_frames(display, spin, 1, until=5.0)
    for column, symbols in enumerate(after):
        for row, symbol in enumerate(symbols):
            assert seen_symbol(display, "bandit", column, row)[0] == symbol
    assert all(np.array_equal(held_frames[0], f) for f in held_frames), "the held column moved"


def test_reels_are_still_turning_a_moment_after_the_pull(display: Display) -> None:
    display.draw(table("pay-line", ReelSet.row(["black"] * 3)), 0.0)
    spin = table("pay-line", ReelSet.row(["red", "red", "red"], spin_id=1))
    play(display, spin, 0.1, 0.7)
    assert any(seen_symbol(display, "pay-line", r, 0)[1] > 2.0 for r in range(3))


def test_reels_wait_for_symbols_the_camera_has_not_read_yet(display: Display) -> None:
    display.draw(table("mega-jackpot", ReelSet.row(["apple"] * 3)), 0.0)
    play(display, table("mega-jackpot", ReelSet.row([None, None, None], spin_id=2)), 0.1, 6.0)
    geo = display.reel_geometry
    assert geo is not None
    errors = [seen_symbol(display, "mega-jackpot", r, 0)[1] for r in range(3)]
    assert min(errors) > 2.0, "a reel stopped before its symbol was known"
    play(display, table("mega-jackpot", ReelSet.row(["genie", "diamond", "carpet"], spin_id=2)), 6.0, 10.0)
    assert [seen_symbol(display, "mega-jackpot", r, 0)[0] for r in range(3)] == ["genie", "diamond", "carpet"]


def test_stops_left_to_right_and_a_possible_line_makes_the_last_reel_wait() -> None:
    plain = ReelPlan.start(0.0, 3)
    plain.land(0.0, anticipation=False)
    tense = ReelPlan.start(0.0, 3)
    tense.land(0.0, anticipation=True)
    stops = [r.stop_time() for r in plain.reels]
    assert stops == sorted(stops) and len(set(stops)) == 3
    assert tense.reels[2].stop_time() > plain.reels[2].stop_time() + 0.5  # type: ignore[operator]
    assert tense.reels[2].landing_time > plain.reels[2].landing_time


def test_each_reel_overshoots_a_little_then_settles_on_a_whole_cell() -> None:
    plan = ReelPlan.start(0.0, 3)
    plan.land(0.0, anticipation=True)
    for reel in plan.reels:
        end = reel.stop_time()
        assert end is not None and reel.stop_offset is not None
        samples = [reel.offset(end - reel.landing_time + i * reel.landing_time / 200) for i in range(201)]
        assert 0.03 < max(samples) - reel.stop_offset < 0.3
        assert reel.offset(end) == pytest.approx(reel.stop_offset)
        assert reel.offset(end + 5) == reel.stop_offset
        # no jumps: consecutive 1/200 s samples never differ by more than a fifth of a cell
        path = [reel.offset(i / 200) for i in range(int(end * 200) + 2)]
        assert max(abs(a - b) for a, b in zip(path, path[1:], strict=False)) < 0.2


def test_a_win_lights_the_line_plays_the_fanfare_and_showers_coins(display: Display) -> None:
    display.draw(table("pay-line", ReelSet.row(["black"] * 3)), 0.0)
    play(display, table("pay-line", ReelSet.row(["red"] * 3, spin_id=1, win=True, payout=16)), 0.1, 4.6)
    cues = [name for name, _ in display.pop_cues()]
    assert cues.count("reel_stop") == 3 and "fanfare" in cues and "tick" in cues
    win_frame = pygame.surfarray.array3d(display.canvas).copy()
    fanfare = [p for n, p in display.pop_cues() if n == "fanfare"]
    assert fanfare == []  # popped once only
    display.close()

    with Display(800, 480) as quiet:
        quiet.draw(table("pay-line", ReelSet.row(["black"] * 3)), 0.0)
        play(quiet, table("pay-line", ReelSet.row(["red", "red", "black"], spin_id=1)), 0.1, 4.6)
        miss_cues = [name for name, _ in quiet.pop_cues()]
        assert miss_cues.count("reel_stop") == 3 and "fanfare" not in miss_cues and "coin" not in miss_cues
        miss_frame = pygame.surfarray.array3d(quiet.canvas)
    win_red = ((win_frame[..., 0] > 230) & (win_frame[..., 1] < 100) & (win_frame[..., 2] < 120)).sum()
    miss_red = ((miss_frame[..., 0] > 230) & (miss_frame[..., 1] < 100) & (miss_frame[..., 2] < 120)).sum()
    assert win_red > miss_red + 500, "the win line did not light"


def test_coin_shower_grows_with_the_payout() -> None:
    assert coin_count(0) == 0
    assert 0 < coin_count(5) < coin_count(50) < coin_count(200)


def test_the_caption_is_shown_on_the_reels(display: Display) -> None:
    plain = table("pay-line", ReelSet.row(["red", "black", "yellow"]))
    display.draw(plain, 0.0)
    before = pygame.surfarray.array3d(display.canvas).copy()
    display.draw(table("pay-line", ReelSet.row(["red", "black", "yellow"], caption="Re-roll: die 1")), 0.0)
    after = pygame.surfarray.array3d(display.canvas)
    geo = display.reel_geometry
    assert geo is not None
    changed = np.argwhere((before != after).any(axis=2))
    assert len(changed) > 100
    assert abs(float(np.median(changed[:, 1])) - geo.frame.y) < geo.cell_height / 4  # on the frame's top edge


def test_a_still_reel_keeps_still_without_a_held_mark(display: Display) -> None:
    """Mega Jackpot's untouched discards: they do not spin, and nothing says HELD on them."""
    from companion.screen import resources as res

    before = ["carpet", "genie", "apple"]
    display.draw(table("mega-jackpot", ReelSet.row(before)), 0.0)
    after = ["carpet", "genie", "cherry"]
    still = table("mega-jackpot", ReelSet.row(after, spin_id=3, still=(True, True, False)))
    held = table("mega-jackpot", ReelSet.row(after, spin_id=4, held=(True, True, False)))
    frames = reel_frames(display, still, 0, until=5.0)
    assert all(np.array_equal(frames[0], f) for f in frames), "a still reel moved"
    assert seen_symbol(display, "mega-jackpot", 2, 0)[0] == "cherry"

    def held_blue(view: TableView, at: float) -> int:
        display.draw(view, at)
        pixels = pygame.surfarray.array3d(display.canvas).reshape(-1, 3)
        return int(np.all(pixels == np.array(res.HELD), axis=1).sum())

    assert held_blue(still, 5.5) == 0
    assert held_blue(held, 5.6) > 100  # the same reels held by a player do carry the mark
