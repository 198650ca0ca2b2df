"""``companion bench screen``: frame times while the reels spin, at 800x480 and 480x320.

Each size plays one spin to warm the caches (symbol cells, blurred cells, text), then times
every frame of further spins at 60 frames per second of simulated time, from the lever pull
until the coins have fallen. Times are per ``Display.draw`` (drawing, rotating, flipping),
both wall-clock and the drawing thread's CPU time; the display runs on SDL's dummy driver
unless ``--driver`` says otherwise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

NAME = "screen"
HELP = "frame times (median, p95) during a spin at 800x480 and 480x320"
SIZES = ((800, 480), (480, 320))
FRAMES_PER_SPIN = 360  # six seconds at 60 fps: the pull, the stops, the win line and the coins


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: which game's table, how many spins, the SDL driver, a rotation."""
    parser.add_argument(
        "--game",
        default="bandit",
        choices=["bandit", "pay-line", "mega-jackpot", "jackpot-payout"],
        help="whose table to spin (default: bandit, the 3x3 grid)",
    )
    parser.add_argument("--spins", type=int, default=3, help="timed spins per size (default 3)")
    parser.add_argument("--rotation", type=int, default=0, choices=[0, 90, 180, 270])
    parser.add_argument("--driver", default="dummy", help="SDL video driver (default: dummy)")


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """Yield one JSON-able figure per screen size."""
    os.environ["SDL_VIDEODRIVER"] = args.driver
    from companion.screen.display import Display
    from companion.screen.views import TableView
    from companion.snapshots import bandit, jackpot_payout, mega_jackpot, pay_line

    # The tables of the docs' pictures: real games at a moment with a win on the reels.
    scenes = {
        "bandit": bandit.claim,
        "pay-line": pay_line.jackpot,
        "mega-jackpot": mega_jackpot.jackpot,
        "jackpot-payout": jackpot_payout.jackpot,
    }
    table = scenes[args.game]().view
    assert isinstance(table, TableView)
    at_rest = table
    if table.reels is not None:  # the same table before the spin: no win showing
        at_rest = replace(table, reels=replace(table.reels, spin_id=0, win_rows=(), payout=0))
    for width, height in SIZES:
        with Display(width, height, rotation=args.rotation) as display:
            times: list[float] = []
            cpu: list[float] = []
            clock = 0.0
            display.draw(at_rest, clock)
            for spin in range(max(1, args.spins) + 1):
                view = (
                    replace(table, reels=replace(table.reels, spin_id=100 + spin)) if table.reels else table
                )
                for _ in range(FRAMES_PER_SPIN):
                    clock += 1.0 / 60.0
                    began, began_cpu = time.perf_counter(), time.thread_time()
                    display.draw(view, clock)
                    took = (time.perf_counter() - began) * 1000.0
                    took_cpu = (time.thread_time() - began_cpu) * 1000.0
                    if spin > 0:  # the first spin fills the caches
                        times.append(took)
                        cpu.append(took_cpu)
                display.pop_cues()
            times.sort()
            cpu.sort()
            yield {
                "bench": NAME,
                "game": args.game,
                "size": f"{width}x{height}",
                "rotation": args.rotation,
                "frames": len(times),
                "median_ms": round(statistics.median(times), 3),
                "p95_ms": round(times[int(0.95 * (len(times) - 1))], 3),
                "max_ms": round(times[-1], 3),
                # CPU time of the drawing thread: the same frames without the time other
                # processes took the core away (a shared machine makes wall-clock p95 noisy)
                "cpu_median_ms": round(statistics.median(cpu), 3),
                "cpu_p95_ms": round(cpu[int(0.95 * (len(cpu) - 1))], 3),
            }
