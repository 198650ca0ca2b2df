"""``python -m companion.art.prerender``: draw every symbol and piece into ``companion/art/rendered``.

The screen shows these pictures (scaled with pygame), so a cabinet needs neither NumPy nor
OpenCV at run time; run this after changing the art (``tests/test_art_symbols.py`` checks the
pictures still match the drawings).
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion import art


def render_all() -> list[Path]:
    """Write one PNG per symbol and piece of every game; returns the paths written."""
    import cv2

    written = []
    for game_id in art.game_ids():
        for symbol_id in [*art.symbol_ids(game_id), *art.piece_ids(game_id)]:
            path = art.rendered_path(game_id, symbol_id)
            rgba = art.render_symbol(game_id, symbol_id, art.RENDERED_PX)
            if not cv2.imwrite(str(path), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)):
                raise OSError(f"cannot write {path}")
            written.append(path)
    return written


def main() -> int:
    """Write them all and say how many."""
    paths = render_all()
    print(f"{len(paths)} symbol pictures in {art.RENDERED_DIR}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
