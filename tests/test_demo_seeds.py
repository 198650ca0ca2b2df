"""Every game finishes in both modes: a few seeds of ``companion bench sweep`` kept as tests.

Jackpot Payout's table demos with seeds 1 and 2 stalled at action 134 and 124: Second Chance and
Filter 2 put cards back on top of the deck, the engine revealed them at once at the next spin,
and the simulated dealer waited for a spin that had already begun. The whole sweep (50 seeds of
every game and mode) is ``companion bench sweep``. Guards are silences (no new action for
minutes), never a deadline for the game.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from companion.bench.sweep import play
from companion.flows import FLOWS

#: A game that shows no new action for this long is stuck (a loaded machine is slow, not stuck).
STALL_SECONDS = 300.0
LIMIT_SECONDS = 3600.0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_jackpot_payout_table_demos_that_stalled_after_a_second_chance_finish(seed: int) -> None:
    played = play("jackpot-payout", "table", seed, STALL_SECONDS, LIMIT_SECONDS)
    assert played.finished, (played.actions, played.why)


@pytest.mark.slow
@pytest.mark.parametrize("game", list(FLOWS))
def test_every_cabinet_demo_finishes(game: str) -> None:
    for seed in (1, 2):
        played = play(game, "cabinet", seed, STALL_SECONDS, LIMIT_SECONDS)
        assert played.finished, (game, seed, played.actions, played.why)


def test_a_demo_stopped_by_a_signal_says_so_and_exits_non_zero() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "companion", "demo", "--game", "bandit", "--mode", "cabinet", "--paced"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("["):  # the game is under way: stop it as systemctl stop would
            process.send_signal(signal.SIGTERM)
            break
    rest = process.stdout.read()
    assert process.wait() == 128 + signal.SIGTERM
    assert "stopped by SIGTERM before the end of the game" in rest
    assert "(--seconds" not in rest
