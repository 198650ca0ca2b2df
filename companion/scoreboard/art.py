"""The games' symbol art for the page: the same drawings the screen and the printed cards use.

:mod:`companion.art` draws with OpenCV and NumPy, which would cost the long-running scoreboard
about 30 MB of resident memory for a few kilobytes of PNGs. So the server renders the symbols
once at start-up in a short-lived child process (``python -m companion.scoreboard.art``) that
prints them as JSON, and keeps only the PNG bytes.
"""

from __future__ import annotations

import base64
import colorsys
import json
import logging
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

#: Pixels per symbol: twice the 48 CSS pixels the page draws them at (sharp on phone screens).
SIZE_PX = 96


@dataclass
class SymbolSheet:
    """PNG bytes by ``(game, symbol)`` and, per game, its symbols (id, label, colour) and accent."""

    png: dict[tuple[str, str], bytes] = field(default_factory=dict)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)

    def manifest(self) -> dict[str, Any]:
        """What the page needs to know: each game's symbols and accent colour."""
        return self.games


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def accent(colors: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The game's most vivid symbol colour (saturation times brightness): its accent on the page."""
    def vivid(rgb: tuple[int, int, int]) -> float:
        _, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
        return s * v

    return max(colors, key=vivid)


def render_all(size_px: int = SIZE_PX) -> dict[str, Any]:
    """Every game's card symbols as base64 PNGs with labels and colours (runs in the child)."""
    import cv2

    from companion.art import game_ids, render_symbol, symbol_color, symbol_ids, symbol_label

    out: dict[str, Any] = {}
    for game in game_ids():
        symbols = []
        for symbol in symbol_ids(game):
            rgba = render_symbol(game, symbol, size_px)
            ok, png = cv2.imencode(".png", cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA),
                                   [cv2.IMWRITE_PNG_COMPRESSION, 9])
            if not ok:
                raise RuntimeError(f"cannot encode {game}/{symbol} as PNG")
            encoded = base64.b64encode(png.tobytes()).decode()
            symbols.append({"id": symbol, "label": symbol_label(game, symbol),
                            "color": symbol_color(game, symbol), "png": encoded})
        out[game] = {"symbols": symbols, "accent": accent([symbol_color(game, s) for s in symbol_ids(game)])}
    return out


def load(timeout_s: float = 120.0) -> SymbolSheet:
    """Render the art in a child process; an empty sheet (the page shows names only) if that fails."""
    try:
        done = subprocess.run([sys.executable, "-m", "companion.scoreboard.art"], capture_output=True,
                              timeout=timeout_s, check=True)
        data = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        detail = getattr(error, "stderr", b"") or b""
        log.warning("the symbol art could not be drawn (%s %s); the page shows names only",
                    error, detail.decode(errors="replace")[-300:])
        return SymbolSheet()
    sheet = SymbolSheet()
    for game, info in data.items():
        symbols = [{"id": s["id"], "label": s["label"], "color": _hex(tuple(s["color"]))}
                   for s in info["symbols"]]
        sheet.games[game] = {"accent": _hex(tuple(info["accent"])), "symbols": symbols}
        for s in info["symbols"]:
            sheet.png[(game, s["id"])] = base64.b64decode(s["png"])
    return sheet


if __name__ == "__main__":
    json.dump(render_all(), sys.stdout)
