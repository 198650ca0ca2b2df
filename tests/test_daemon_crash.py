"""Pull the plug: SIGKILL the daemon at 20+ random moments of a simulated game and restart it.

Every restart must resume the game from the journal: every action that was ever on screen is
in the resumed game (nothing lost), the resumed game is exactly the replay of the journal, and
the game finally played equals the same game played without a single interruption.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.daemon.app import Daemon, RunOptions
from companion.engine import GameConfig, replay
from companion.journal import Journal

GAME = ["--game", "bandit", "--mode", "cabinet", "--seed", "11", "--players", "2"]
SHOWN = re.compile(r"^\[(\d+)\] (.*)$")
RESUMED = re.compile(r"^resuming game (\d+) \(.*\) at action (\d+);")


def reference_lines(tmp_path: Path) -> dict[int, str]:
    """The same game, uninterrupted, in this process."""
    lines: list[str] = []
    daemon = Daemon(RunOptions(headless=True, game="bandit", mode="cabinet", seed=11, players=2, fast=True,
                               autoplay=1, exit_when_over=True, journal_path=tmp_path / "reference.sqlite",
                               transcript=lines.append, use_gpio=False))
    daemon.start()
    daemon.run()
    shown = {}
    for line in lines:
        match = SHOWN.match(line)
        if match:
            shown[int(match[1])] = match[2]
    return shown


def start(journal: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        # Paced to the screen clock (no --fast): the game then cannot race ahead of this reader
        # under load and finish before 20 kills have landed.
        [sys.executable, "-m", "companion", "run", "--headless", *GAME, "--autoplay", "1",
         "--exit-when-over", "--transcript", "--keyboard", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_that_was_shown(tmp_path: Path) -> None:
    reference = reference_lines(tmp_path)
    journal_path = tmp_path / "journal.sqlite"
    rng = random.Random(2024)
    shown: dict[int, str] = {}
    resumed_at: list[int] = []
    kills = 0
    finished = False
    deadline = time.monotonic() + 120
    while not finished and time.monotonic() < deadline:
        process = start(journal_path)
        assert process.stdout is not None
        # Kill after this many newly shown actions; after 20 kills let the game run to its end.
        budget = rng.randint(1, 5) if kills < 20 else 10**9
        seen_here = 0
        for line in process.stdout:
            line = line.rstrip("\n")
            if (match := RESUMED.match(line)) is not None:
                resumed_at.append(int(match[2]))
                # Nothing that was on screen before the kill is missing from the resumed game.
                assert int(match[2]) >= max(shown, default=0), (line, max(shown))
                continue
            if (match := SHOWN.match(line)) is not None:
                shown[int(match[1])] = match[2]
                seen_here += 1
                if seen_here >= budget:
                    time.sleep(rng.uniform(0, 0.02))  # land the kill anywhere, even mid-write
                    process.send_signal(signal.SIGKILL)
                    kills += 1
                    break
        process.wait(timeout=30)
        with Journal.open(journal_path) as journal:
            games = journal.games()
            finished = bool(games) and games[0].status == "finished"
    assert finished, "the game did not finish within the time limit"
    assert kills >= 20
    with Journal.open(journal_path) as journal:
        games = journal.games()
        assert len(games) == 1  # no restart ever started a second game
        actions = journal.actions(games[0].id)
        config = GameConfig.from_dict(games[0].config)
    resumed = replay(config, actions)
    assert resumed.is_over
    # The game as finally played is the uninterrupted game, action for action...
    assert len(actions) == max(reference)
    # ...and every line that was ever shown, in any run, is that game's line at that position.
    for version, text in shown.items():
        assert reference[version] == text, (version, text)
    assert len(resumed_at) == kills
