"""``companion bench kills``: pull the plug on every game: SIGKILL at random moments, restart, repeat.

For each game and mode a real ``companion run`` process plays (the bot at the buttons; in table
mode the simulated camera and dealer) with its transcript on stdout. After a random number of
newly shown actions (1-3: Pay Line shows only about 70, and every kill must land before its
end) and a random instant (even in the middle of a journal write) it gets SIGKILL; it is
restarted on the same journal until ``--kills`` kills have landed, then left to finish.
Checked at every restart and at the end:

- the restart says it resumes, at an action at or after every action ever shown (nothing lost);
- a table round's moves, shown as ``[74+3]`` and journalled as observations until the round's
  actions are written (Thanks a Lottery), are all brought back by the restart that resumes
  inside the round (its line ``round 2 resumed with its 3 table moves (kept after action 74)``);
- a line shown for action N (or move ``[74+3]``) is never shown differently after a restart;
- the journal ends with exactly one game, ``finished``, whose log replays to the end.

Guards are counts and generous silences, never a deadline for the whole run (a loaded machine
is slow, not wrong): a process that shows nothing for ``--silence`` seconds fails the game.
One JSON line per game and mode: kills, restarts, actions, actions lost (must be 0), ok.
"""

from __future__ import annotations

import argparse
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

from companion.bench import child_env

NAME = "kills"
HELP = "SIGKILL companion run at random moments of every game and mode; count actions lost"

SHOWN = re.compile(r"^\[(\d+)\] (.*)$")
RESUMED = re.compile(r"^resuming game (\d+) \(.*\) at action (\d+);")
#: a table round's move (Thanks a Lottery), journalled as an observation until the round ends
MOVE = re.compile(r"^\[(\d+)\+(\d+)\] (.*)$")
#: the round's moves a restart brought back from the journal
RESTORED = re.compile(r"^round \d+ resumed with its (\d+) table moves? \(kept after action (\d+)\)")


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

    env = child_env()
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


class _Shown:
    """Everything shown so far across restarts, and the checks each new line must pass."""

    def __init__(self) -> None:
        self.actions: dict[int, str] = {}
        #: a table round's moves by (committed actions before the round, move number)
        self.moves: dict[tuple[int, int], str] = {}
        #: after a restart: (round start, moves) the restart must bring back before going on
        self.owed: tuple[int, int] | None = None

    def see(self, line: str) -> bool:
        """Check ``line``; True when it shows an action or a move (what the kill budget counts)."""
        if (match := RESUMED.match(line)) is not None:
            version = int(match[2])
            if version < max(self.actions, default=0):
                raise KillFailure(f"resumed at {version} after action {max(self.actions)} was shown")
            moves = max((k for v0, k in self.moves if v0 == version), default=0)
            self.owed = (version, moves) if moves else None
            return False
        if (match := RESTORED.match(line)) is not None:
            count, v0 = int(match[1]), int(match[2])
            if self.owed is not None and (v0 != self.owed[0] or count < self.owed[1]):
                raise KillFailure(f"moves up to [{self.owed[0]}+{self.owed[1]}] were shown; the restart "
                                  f"brought back {count} after action {v0}")
            self.owed = None
            return False
        move, action = MOVE.match(line), SHOWN.match(line)
        if move is None and action is None:
            return False
        if self.owed is not None:
            raise KillFailure(f"moves up to [{self.owed[0]}+{self.owed[1]}] were shown; the restart went on "
                              "without them")
        if move is not None:
            key, text = (int(move[1]), int(move[2])), move[3]
            if text.startswith("taken back:"):
                self.moves = {k: t for k, t in self.moves.items() if k[0] != key[0] or k[1] < key[1]}
            elif self.moves.setdefault(key, text) != text:
                raise KillFailure(f"move [{key[0]}+{key[1]}] was shown as {self.moves[key]!r}, "
                                  f"later as {text!r}")
            return True
        assert action is not None
        version, text = int(action[1]), action[2]
        if self.actions.setdefault(version, text) != text:
            raise KillFailure(f"action {version} was shown as {self.actions[version]!r}, later as {text!r}")
        return True

    def ended(self) -> None:
        """A process ended by itself: nothing it owed may be left."""
        if self.owed is not None:
            raise KillFailure(f"moves up to [{self.owed[0]}+{self.owed[1]}] were shown; the restart ended "
                              "without them")


def _finished(journal: Path) -> bool:
    """True when the journal's game is over (a kill that landed after its last line)."""
    from companion.journal.readonly import open_readonly

    with open_readonly(journal) as opened:
        return any(g.status == "finished" for g in opened.games())


def kill_sweep(game: str, mode: str, kills: int, seed: int, journal: Path,
               silence: float = 300.0) -> dict[str, Any]:
    """Play ``game`` with ``kills`` SIGKILLs; raises :class:`KillFailure` on any loss.

    Fewer kills land when the game ends first (a kill after its last line); the figure says how many.
    """
    from companion.engine import GameConfig, replay
    from companion.journal import Journal

    rng = random.Random(f"{seed}:{game}:{mode}")
    shown = _Shown()
    landed = restarts = 0
    while True:
        process = _start(game, mode, seed, journal)
        restarts += 1
        budget = rng.randint(1, 3) if landed < kills else None
        seen_here = 0
        killed = False
        try:
            for line in _lines(process, silence):
                if not shown.see(line):
                    continue
                seen_here += 1
                if budget is not None and seen_here >= budget:
                    time.sleep(rng.uniform(0, 0.02))  # land the kill anywhere, even mid-write
                    process.send_signal(signal.SIGKILL)
                    landed += 1
                    killed = True
                    break
        except KillFailure:
            process.kill()
            raise
        process.wait()
        if not killed:
            shown.ended()
            break  # it ran to its end (or exited): the journal says which
        if _finished(journal):
            break  # the kill came after the game's last line
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
    lost = sorted(v for v in shown.actions if v > len(actions))
    if lost:
        raise KillFailure(f"actions {lost[:5]} were shown but are not in the journal")
    return {"figure": "kills", "game": game, "mode": mode, "kills": landed, "restarts": restarts,
            "actions": len(actions), "shown": len(shown.actions), "moves_shown": len(shown.moves),
            "actions_lost": len(lost), "ok": True}


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
