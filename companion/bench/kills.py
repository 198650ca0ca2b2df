"""``companion bench kills``: pull the plug on every game: SIGKILL at random moments, restart, repeat.

For each game and mode a real ``companion run`` process plays (the bot at the buttons; in table
mode the simulated camera and dealer) with its transcript on stdout. After a random number of
newly shown actions (1-5) and a random instant (even in the middle of a journal write) it gets
SIGKILL; it is restarted on the same journal until ``--kills`` kills have landed, then left to
finish. Checked at every restart and at the end:

- the restart says it resumes, at an action at or after every action ever shown (nothing lost);
- a line shown for action N is never shown differently for N after a restart;
- the journal ends with exactly one game, ``finished``, whose log replays to the end.

Guards are counts and generous silences, never a deadline for the whole run (a loaded machine
is slow, not wrong): a process that shows nothing for ``--silence`` seconds fails the game.
One JSON line per game and mode: kills, restarts, actions, actions lost (must be 0), ok.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

NAME = "kills"
HELP = "SIGKILL companion run at random moments of every game and mode; count actions lost"

SHOWN = re.compile(r"^\[(\d+)\] (.*)$")
RESUMED = re.compile(r"^resuming game (\d+) \(.*\) at action (\d+);")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: kills per game, games, modes, seed, the silence guard."""
    parser.add_argument("--kills", type=int, default=20, help="kills per game and mode (default 20)")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--modes", default="table,cabinet")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--silence", type=float, default=300.0,
                        help="seconds a process may show nothing before the game counts as stuck")


class KillFailure(AssertionError):
    """A kill lost an action, rewrote one shown, or the game never finished."""


def _start(game: str, mode: str, seed: int, journal: Path) -> subprocess.Popen[str]:
    from companion.engine import get_game

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    players = str(get_game(game).min_players)
    # Paced to the screen clock (no --fast): the game cannot race ahead of this reader under load.
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--headless", "--game", game, "--mode", mode,
         "--players", players, "--seed", str(seed), "--autoplay", str(seed), "--exit-when-over",
         "--transcript", "--keyboard", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )


def _lines(process: subprocess.Popen[str], silence: float) -> Iterable[str]:
    """The process's stdout lines; kills it and raises when it is silent for ``silence`` seconds."""
    assert process.stdout is not None
    last = [time.monotonic()]
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(1.0):
            if time.monotonic() - last[0] > silence:
                process.kill()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        for line in process.stdout:
            last[0] = time.monotonic()
            yield line.rstrip("\n")
    finally:
        stop.set()
    if time.monotonic() - last[0] > silence:
        raise KillFailure(f"nothing shown for {silence:.0f} s")


def kill_sweep(game: str, mode: str, kills: int, seed: int, journal: Path,
               silence: float = 300.0) -> dict[str, Any]:
    """Play ``game`` with ``kills`` SIGKILLs; raises :class:`KillFailure` on any loss."""
    from companion.engine import GameConfig, replay
    from companion.journal import Journal

    rng = random.Random(f"{seed}:{game}:{mode}")
    shown: dict[int, str] = {}
    landed = restarts = 0
    while True:
        process = _start(game, mode, seed, journal)
        restarts += 1
        budget = rng.randint(1, 5) if landed < kills else None
        seen_here = 0
        killed = False
        for line in _lines(process, silence):
            if (match := RESUMED.match(line)) is not None:
                if int(match[2]) < max(shown, default=0):
                    process.kill()
                    raise KillFailure(f"resumed at {match[2]} after action {max(shown)} was shown")
                continue
            if (match := SHOWN.match(line)) is None:
                continue
            version, text = int(match[1]), match[2]
            if shown.setdefault(version, text) != text:
                process.kill()
                raise KillFailure(f"action {version} was shown as {shown[version]!r}, later as {text!r}")
            seen_here += 1
            if budget is not None and seen_here >= budget:
                time.sleep(rng.uniform(0, 0.02))  # land the kill anywhere, even mid-write
                process.send_signal(signal.SIGKILL)
                landed += 1
                killed = True
                break
        process.wait()
        if not killed:
            break  # it ran to its end (or exited): the journal says which
        if restarts > kills + 50:
            raise KillFailure(f"{restarts} restarts without the game finishing")
    with Journal.open(journal) as opened:
        games = opened.games()
        if len(games) != 1 or games[0].status != "finished":
            raise KillFailure(f"the journal holds {[(g.id, g.status) for g in games]}, not one finished game")
        actions = opened.actions(games[0].id)
        config = GameConfig.from_dict(games[0].config)
    if not replay(config, actions).is_over:
        raise KillFailure("the journal's log does not replay to the end of the game")
    lost = sorted(v for v in shown if v > len(actions))
    if lost:
        raise KillFailure(f"actions {lost[:5]} were shown but are not in the journal")
    return {"figure": "kills", "game": game, "mode": mode, "kills": landed, "restarts": restarts,
            "actions": len(actions), "shown": len(shown), "actions_lost": len(lost), "ok": True}


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One figure per game and mode."""
    from companion.flows import FLOWS

    games = [g for g in args.games.split(",") if g] or list(FLOWS)
    modes = [m for m in args.modes.split(",") if m]
    for game in games:
        for mode in modes:
            if mode not in FLOWS[game].modes:
                continue
            with tempfile.TemporaryDirectory(prefix="companion-kills-") as tmp:
                started = time.monotonic()
                try:
                    figure = kill_sweep(game, mode, args.kills, args.seed, Path(tmp) / "journal.sqlite",
                                        args.silence)
                except KillFailure as failure:
                    figure = {"figure": "kills", "game": game, "mode": mode, "ok": False, "why": str(failure)}
                figure["wall_s"] = round(time.monotonic() - started, 1)
                yield figure
