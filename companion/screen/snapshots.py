"""PNG snapshots of every screen at 800x480 and 480x320, for the docs.

    python -m companion.screen.snapshots docs/screens

Each table view is played through a whole spin (frames every 1/30 s from the lever pull) and
captured while the coins fall, so the snapshot shows what the table sees after a win.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.screen import samples

SIZES = ((800, 480), (480, 320))
FPS = 30.0


def play_spin(display: object, view: object, until: float) -> None:
    """Draw the table at rest, pull the lever at t=0.1 and draw frames up to ``until`` seconds."""
    from companion.screen.display import Display
    from companion.screen.views import TableView

    assert isinstance(display, Display) and isinstance(view, TableView)
    display.draw(samples.at_rest(view), 0.0)
    t = 0.1
    while t <= until:
        display.draw(view, t)
        t += 1.0 / FPS
    display.pop_cues()


def write_snapshots(folder: Path, sizes: Sequence[tuple[int, int]] = SIZES) -> list[Path]:
    """Render every sample screen at every size into ``folder``; returns the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from companion.screen.display import Display

    written: list[Path] = []
    for width, height in sizes:
        for name, table in samples.tables().items():
            with Display(width, height) as display:
                play_spin(display, table, 9.0)
                path = folder / f"{name}-{width}x{height}.png"
                display.save_png(path)
                written.append(path)
        for name, view in samples.screens().items():
            with Display(width, height) as display:
                display.draw(view, 0.0)
                display.draw(view, 2.0)
                path = folder / f"{name}-{width}x{height}.png"
                display.save_png(path)
                written.append(path)
    with Display(800, 480) as display:
        play_spin(display, samples.bandit_table(), 3.9)  # the coins in the air
        written.append(folder / "table-bandit-win-800x480.png")
        display.save_png(written[-1])
    with Display(800, 480) as display:
        play_spin(display, samples.bandit_table(), 1.1)  # mid-spin: the last reels still turning
        written.append(folder / "table-bandit-spinning-800x480.png")
        display.save_png(written[-1])
    with Display(480, 320, rotation=90) as display:
        play_spin(display, samples.pay_line_table(), 9.0)
        written.append(folder / "table-pay-line-480x320-rotated-90.png")
        display.save_png(written[-1])
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: write the snapshots into the given folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("folder", type=Path, nargs="?", default=Path("docs/screens"))
    args = parser.parse_args(argv)
    for path in write_snapshots(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
