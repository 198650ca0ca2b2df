"""Every game's symbols: id -> label, colour and drawing (the docs/rulings.md names).

Card symbols are listed by :func:`companion.art.symbol_ids`. Pieces that are not card symbols
carry a prefix so they never clash with a card id: Mega Jackpot's tiles are ``tile:genie`` and
``tile:monkey``; Thanks a Lottery's tokens are ``token:1`` .. ``token:6``, ``token:all`` and
``token:none`` (listed by :func:`companion.art.piece_ids`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from companion.art import shapes
from companion.art.palette import RGB
from companion.art.shapes import Drawer


@dataclass(frozen=True)
class SymbolArt:
    """One drawable symbol: its printed label, its main colour and how to draw it."""

    label: str
    color: RGB
    draw: Drawer


def _art(label: str, color: RGB, draw: Callable[..., None]) -> SymbolArt:
    return SymbolArt(label, color, partial(draw, color=color))


RED: RGB = (214, 28, 48)
LOTTERY_COLORS: dict[str, RGB] = {
    "1": (214, 40, 48),
    "2": (240, 140, 20),
    "3": (230, 200, 20),
    "4": (50, 160, 70),
    "5": (40, 130, 210),
    "6": (110, 70, 190),
    "7": (200, 60, 150),
}
TOKEN_COLOR: RGB = (30, 110, 170)

CARDS: dict[str, dict[str, SymbolArt]] = {
    "bandit": {
        "cherry": _art("Cherry", RED, shapes.cherries),
        "plum": _art("Plum", (122, 52, 150), shapes.plum),
        "bell": _art("Bell", shapes.GOLD, shapes.bell),
        "seven": _art("Seven", (220, 30, 40), shapes.seven),
        "bar": _art("Bar", (30, 30, 36), shapes.bar),
        "any": SymbolArt("Any (wild)", (250, 200, 30), partial(shapes.wild_star, word="ANY")),
        "blank": _art("Blank", (150, 150, 158), shapes.blank),
    },
    "pay-line": {
        "black": SymbolArt(
            "Black", (40, 40, 46), partial(shapes.die_box, color=(40, 40, 46), emblem="circle")
        ),
        "yellow": SymbolArt(
            "Yellow", (240, 190, 20), partial(shapes.die_box, color=(240, 190, 20), emblem="diamond")
        ),
        "red": SymbolArt("Red", (210, 36, 40), partial(shapes.die_box, color=(210, 36, 40), emblem="star")),
    },
    "mega-jackpot": {
        "apple": _art("Apple", (222, 50, 40), shapes.apple),
        "cherry": _art("Cherry", RED, shapes.cherries),
        "diamond": _art("Diamond", (60, 190, 230), shapes.diamond),
        "carpet": _art("Magic carpet", (150, 40, 160), shapes.carpet),
        "genie": _art("Genie", shapes.GOLD, shapes.lamp),
    },
    "thanks-a-lottery": {
        **{
            n: SymbolArt(n, col, partial(shapes.lottery_ball, numeral=n, color=col))
            for n, col in LOTTERY_COLORS.items()
        },
        "wild": SymbolArt("Wild", (250, 200, 30), partial(shapes.wild_star, word="WILD")),
    },
    "jackpot-payout": {
        "grapes": _art("Grapes", (110, 60, 170), shapes.grapes),
        "cherries": _art("Cherries", RED, shapes.cherries),
        "diamond": _art("Diamond", (60, 190, 230), shapes.diamond),
        "crown": _art("Crown", shapes.GOLD, shapes.crown),
        "shamrock": _art("Shamrock", (40, 160, 70), shapes.shamrock),
        "wild": SymbolArt("Wild", (250, 200, 30), partial(shapes.wild_star, word="WILD")),
    },
}

PIECES: dict[str, dict[str, SymbolArt]] = {
    "mega-jackpot": {
        "tile:genie": SymbolArt(
            "Genie tile",
            (40, 90, 170),
            partial(shapes.tile, face=partial(shapes.lamp, color=shapes.GOLD), color=(40, 90, 170)),
        ),
        "tile:monkey": SymbolArt(
            "Monkey tile",
            (140, 90, 50),
            partial(shapes.tile, face=partial(shapes.monkey, color=(140, 90, 50)), color=(230, 170, 60)),
        ),
    },
    "thanks-a-lottery": {
        **{
            f"token:{n}": SymbolArt(
                f"Token {n}", TOKEN_COLOR, partial(shapes.pip_token, value=n, color=TOKEN_COLOR)
            )
            for n in range(1, 7)
        },
        "token:all": SymbolArt("Token: all", TOKEN_COLOR, partial(shapes.all_token, color=TOKEN_COLOR)),
        "token:none": SymbolArt("Token: none", TOKEN_COLOR, partial(shapes.none_token, color=TOKEN_COLOR)),
    },
}
