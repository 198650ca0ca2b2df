"""Symbol art, defined once for the screen and the printable cards.

Every symbol is a vector drawing (polygons, circles, ellipses, lines, a numeral where the
numeral *is* the symbol) rendered with OpenCV's anti-aliasing into an RGBA array with a
transparent background. The screen turns the arrays into pygame surfaces; the print module
pastes the same arrays onto cards: same shapes, same colours.

>>> symbol_ids("bandit")
['cherry', 'plum', 'bell', 'seven', 'bar', 'any', 'blank']
>>> render_symbol("bandit", "cherry", 64).shape
(64, 64, 4)
>>> symbol_label("mega-jackpot", "carpet")
'Magic carpet'
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.art.catalog import CARDS, PIECES, SymbolArt

if TYPE_CHECKING:
    import numpy as np

__all__ = ["RENDERED_PX", "game_ids", "piece_ids", "render_symbol", "rendered_path", "symbol_color",
           "symbol_ids", "symbol_label"]

#: The size of the symbol pictures shipped in ``companion/art/rendered`` (``python -m
#: companion.art.prerender`` makes them): the screen scales them, so it needs neither NumPy nor
#: OpenCV (a cabinet then runs without them: about 31 MB less on a Pi).
RENDERED_PX = 256
RENDERED_DIR = Path(__file__).resolve().parent / "rendered"


def game_ids() -> list[str]:
    """The games that have symbol art."""
    return list(CARDS)


def symbol_ids(game_id: str) -> list[str]:
    """The card symbols of a game, in rulebook order (e.g. bandit: cherry ... blank)."""
    return list(_cards(game_id))


def piece_ids(game_id: str) -> list[str]:
    """A game's other drawn pieces: ``tile:genie``/``tile:monkey``, ``token:1`` ... ``token:none``."""
    _cards(game_id)
    return list(PIECES.get(game_id, {}))


def render_symbol(game_id: str, symbol_id: str, size_px: int) -> np.ndarray:
    """Draw one symbol (or piece) as a ``size_px`` x ``size_px`` x 4 uint8 RGBA array.

    Deterministic; the returned array is a fresh copy the caller may modify. Raises
    :class:`KeyError` for an unknown game or symbol, :class:`ValueError` for sizes under 8 px.
    """
    return _render(game_id, symbol_id, int(size_px)).copy()


def symbol_color(game_id: str, symbol_id: str) -> tuple[int, int, int]:
    """The symbol's main colour (RGB), e.g. for win lines and chart dots."""
    return _lookup(game_id, symbol_id).color


def symbol_label(game_id: str, symbol_id: str) -> str:
    """The name printed under the symbol, e.g. ``"Magic carpet"``."""
    return _lookup(game_id, symbol_id).label


def rendered_path(game_id: str, symbol_id: str) -> Path:
    """Where the shipped ``RENDERED_PX`` picture of a symbol (or piece) is: a PNG with alpha.

    Raises :class:`KeyError` for an unknown game or symbol, as :func:`render_symbol` does.
    """
    _lookup(game_id, symbol_id)
    return RENDERED_DIR / f"{game_id}--{symbol_id.replace(':', '-')}.png"


@lru_cache(maxsize=512)
def _render(game_id: str, symbol_id: str, size_px: int) -> np.ndarray:
    from companion.art.canvas import Canvas

    art = _lookup(game_id, symbol_id)
    canvas = Canvas(size_px)
    art.draw(canvas)
    out = canvas.to_rgba()
    out.setflags(write=False)
    return out


def _cards(game_id: str) -> dict[str, SymbolArt]:
    try:
        return CARDS[game_id]
    except KeyError:
        raise KeyError(f"no symbol art for game {game_id!r}; known games: {', '.join(CARDS)}") from None


def _lookup(game_id: str, symbol_id: str) -> SymbolArt:
    cards = _cards(game_id)
    art = cards.get(symbol_id) or PIECES.get(game_id, {}).get(symbol_id)
    if art is None:
        known = ", ".join([*cards, *PIECES.get(game_id, {})])
        raise KeyError(f"{game_id} has no symbol {symbol_id!r}; known: {known}")
    return art
