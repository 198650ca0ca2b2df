"""``companion bench sweep``: every game finishes: demos of all five games, both modes, many seeds.

Each game is a ``companion demo`` process (the whole stack: simulated camera and dealer in table
mode, the bot at the buttons, the journal), ``--jobs`` at a time. Cabinet demos run without
pacing; table demos run as the demo always does (the camera thread needs the CPU the screen
clock leaves; unpaced, the loop starves it and the game is slower, not faster). A game "stalls"
when its demo stops before the end: no new action for ``--stall-seconds`` of wall time, or the
process is killed by ``--limit-seconds`` (both generous; they only catch a game that never moves).

One JSON line per game and mode: seeds played, how many finished, the stalled seeds with the
action they stopped at, and CPU seconds per game (children's CPU, measured per process).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from companion.bench import child_env

NAME = "sweep"
HELP = "play table and cabinet demos of every game over many seeds; report any that do not finish"

SHOWN = re.compile(r"^\[(\d+)\] ")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: seeds, games, modes, parallel jobs, the stall limits."""
    parser.add_argument("--seeds", type=int, default=50, help="seeds per game and mode (default 50)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--modes", default="table,cabinet", help="table,cabinet (default both)")
    parser.add_argument("--jobs", type=int, default=2, help="demos at a time (default 2)")
    parser.add_argument("--stall-seconds", type=float, default=120.0,
                        help="no new action for this long is a stall (default 120)")
    parser.add_argument("--limit-seconds", type=float, default=1800.0, help="longest one demo may run")
    parser.add_argument("--each", action="store_true", help="also one line per demo as it ends")


@dataclass(frozen=True)
class Played:
    """One demo's outcome."""

    game: str
    mode: str
    seed: int
    finished: bool
    actions: int
    cpu_s: float
    why: str = ""


def play(game: str, mode: str, seed: int, stall: float, limit: float) -> Played:
    """Run one demo process; watch its transcript for progress."""
    env = child_env()
    process = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--game", game, "--mode", mode,
                                "--seed", str(seed)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=env)
    last = [time.monotonic()]
    actions = [0]
    finished = [False]
    assert process.stdout is not None
    stdout = process.stdout

    def read() -> None:
        for line in stdout:
            match = SHOWN.match(line)
            if match:
                actions[0] = int(match[1])
                last[0] = time.monotonic()
            elif line.startswith("result:"):
                finished[0] = True

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    started = time.monotonic()
    why = ""
    while True:
        # wait4 reaps the child with its own CPU figures (exact with several demos at a time).
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic()
        if not why and (now - last[0] > stall or now - started > limit):
            why = f"no action for {now - last[0]:.0f} s" if now - last[0] > stall else "over the time limit"
            process.kill()
        time.sleep(0.5)
    process.returncode = os.waitstatus_to_exitcode(status)
    reader.join(timeout=10)
    if not finished[0] and not why:
        why = f"exit code {process.returncode}"
    cpu = round(usage.ru_utime + usage.ru_stime, 2)
    return Played(game, mode, seed, finished[0], actions[0], cpu, why)


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """Play every demo; one figure per game and mode, then the total."""
    from companion.flows import FLOWS

    games = [g for g in args.games.split(",") if g] or list(FLOWS)
    modes = [m for m in args.modes.split(",") if m]
    # Seed by seed across the games, so a sweep stopped early still covers every game alike.
    plan = [(game, mode, seed) for seed in range(args.first_seed, args.first_seed + args.seeds)
            for game in games for mode in modes if mode in FLOWS[game].modes]
    results: dict[tuple[str, str], list[Played]] = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(play, game, mode, seed, args.stall_seconds, args.limit_seconds)
                   for game, mode, seed in plan]
        for future in futures:
            played = future.result()
            if args.each:
                yield {"figure": "sweep_game", "game": played.game, "mode": played.mode, "seed": played.seed,
                       "finished": played.finished, "actions": played.actions, "cpu_s": played.cpu_s,
                       "why": played.why}
            results.setdefault((played.game, played.mode), []).append(played)
    for (game, mode), batch in results.items():
        yield _figure(game, mode, batch)
    every = [p for batch in results.values() for p in batch]
    yield {"figure": "sweep_total", "games": len(every), "finished": sum(p.finished for p in every),
           "stalled": sum(not p.finished for p in every)}


def _figure(game: str, mode: str, batch: list[Played]) -> dict[str, Any]:
    stalled = [{"seed": p.seed, "actions": p.actions, "why": p.why} for p in batch if not p.finished]
    cpu = sorted(p.cpu_s for p in batch)
    return {"figure": "sweep", "game": game, "mode": mode, "seeds": len(batch),
            "finished": sum(p.finished for p in batch), "stalled": stalled,
            "mean_actions": round(sum(p.actions for p in batch) / len(batch), 1),
            "cpu_s_median": cpu[len(cpu) // 2]}
