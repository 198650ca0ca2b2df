"""Pull the plug: SIGKILL the daemon at 20 random moments of a game and restart it each time.

Every restart must resume the game from the journal: it resumes at or after every action ever
on screen (nothing lost), no shown action is ever shown differently, and the journal ends with
the one game, finished; here (cabinet mode, seeded by log position) the game as finally played
is also action for action the same game played without a single interruption.

No deadline: the guards are counts and a generous silence (a loaded machine is slow, not
wrong). ``companion bench kills`` runs the same over every game and mode.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.bench.kills import kill_sweep
from companion.daemon.app import Daemon, RunOptions
from companion.journal import Journal


def reference_actions(tmp_path: Path) -> list[str]:
    """The same game, uninterrupted, in this process."""
    daemon = Daemon(RunOptions(headless=True, game="bandit", mode="cabinet", seed=11, players=2, fast=True,
                               autoplay=11, exit_when_over=True, journal_path=tmp_path / "reference.sqlite",
                               use_gpio=False))
    daemon.start()
    daemon.run()
    with Journal.open(tmp_path / "reference.sqlite") as journal:
        return journal.actions(journal.games()[0].id)


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_that_was_shown(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    figure = kill_sweep("bandit", "cabinet", kills=20, seed=11, journal=journal)
    assert figure["kills"] == 20 and figure["actions_lost"] == 0 and figure["restarts"] == 21
    with Journal.open(journal) as opened:
        actions = opened.actions(opened.games()[0].id)
    assert actions == reference_actions(tmp_path)
