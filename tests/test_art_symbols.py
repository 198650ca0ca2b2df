"""Symbol art: every docs/rulings.md symbol is drawn, transparent around it, in its own colour."""

from __future__ import annotations

import numpy as np
import pytest

from companion import art

RULINGS_SYMBOLS = {
    "bandit": ["cherry", "plum", "bell", "seven", "bar", "any", "blank"],
    "pay-line": ["black", "yellow", "red"],
    "mega-jackpot": ["apple", "cherry", "diamond", "carpet", "genie"],
    "thanks-a-lottery": ["1", "2", "3", "4", "5", "6", "7", "wild"],
    "jackpot-payout": ["grapes", "cherries", "diamond", "crown", "shamrock", "wild"],
}
ALL = [(g, s) for g, ids in RULINGS_SYMBOLS.items() for s in ids] + [
    (g, p) for g in RULINGS_SYMBOLS for p in art.piece_ids(g)
]


def test_every_game_lists_the_rulings_symbols_in_order() -> None:
    for game, ids in RULINGS_SYMBOLS.items():
        assert art.symbol_ids(game) == ids


def test_mega_jackpot_tiles_and_lottery_tokens_are_drawn_too() -> None:
    assert art.piece_ids("mega-jackpot") == ["tile:genie", "tile:monkey"]
    assert art.piece_ids("thanks-a-lottery") == [f"token:{n}" for n in range(1, 7)] + [
        "token:all",
        "token:none",
    ]


@pytest.mark.parametrize(("game", "symbol"), ALL)
def test_symbol_is_an_rgba_drawing_on_a_transparent_background(game: str, symbol: str) -> None:
    image = art.render_symbol(game, symbol, 96)
    assert image.shape == (96, 96, 4) and image.dtype == np.uint8
    assert image[0, 0, 3] == 0 and image[-1, -1, 3] == 0 or symbol.startswith("tile:")
    opaque = (image[..., 3] > 200).mean()
    assert 0.15 < opaque < 0.95, f"{game}/{symbol} covers {opaque:.0%} of its box"
    # anti-aliased: edges have partial coverage, not just 0 and 255
    assert ((image[..., 3] > 20) & (image[..., 3] < 235)).sum() > 40


@pytest.mark.parametrize(("game", "symbol"), ALL)
def test_symbol_colour_is_what_the_drawing_shows(game: str, symbol: str) -> None:
    image = art.render_symbol(game, symbol, 64).astype(int)
    color = np.array(art.symbol_color(game, symbol))
    solid = image[image[..., 3] == 255][:, :3]
    close = (np.abs(solid - color).sum(axis=1) < 40).mean()
    assert close > 0.05, f"{game}/{symbol}: only {close:.1%} of its pixels are its colour"


def test_symbols_of_a_game_are_all_different() -> None:
    for game in RULINGS_SYMBOLS:
        ids = art.symbol_ids(game) + art.piece_ids(game)
        images = {s: art.render_symbol(game, s, 48).astype(int) for s in ids}
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                assert np.abs(images[a] - images[b]).mean() > 3, f"{game}: {a} looks like {b}"


def test_rendering_is_deterministic_and_returns_a_private_copy() -> None:
    first = art.render_symbol("bandit", "bell", 80)
    first[:] = 0
    again = art.render_symbol("bandit", "bell", 80)
    assert again.any()
    assert np.array_equal(again, art.render_symbol("bandit", "bell", 80))


def test_printable_size_keeps_the_same_drawing() -> None:
    big = art.render_symbol("jackpot-payout", "crown", 300)
    small = art.render_symbol("jackpot-payout", "crown", 60)
    import cv2

    shrunk = cv2.resize(big, (60, 60), interpolation=cv2.INTER_AREA).astype(int)
    assert np.abs(shrunk - small.astype(int)).mean() < 12


def test_labels_name_the_symbol() -> None:
    assert art.symbol_label("mega-jackpot", "carpet") == "Magic carpet"
    assert art.symbol_label("bandit", "cherry") == "Cherry"


def test_unknown_game_or_symbol_raises_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match="no symbol art for game 'poker'"):
        art.symbol_ids("poker")
    with pytest.raises(KeyError, match="bandit has no symbol 'lemon'.*cherry"):
        art.render_symbol("bandit", "lemon", 64)
    with pytest.raises(KeyError):
        art.symbol_color("pay-line", "green")
