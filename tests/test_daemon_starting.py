"""A start is checked before the journal hears of it; resuming is said; the table can end a game.

One bad ``run --game pay-line --mode table`` used to journal the game and then fail, and every
later start failed trying to resume it; a second start silently dropped its --game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import GameConfig
from companion.journal import Journal

RUN = ["run", "--headless", "--fast", "--keyboard"]


def journal_with(path: Path, config: dict[str, object], mode: str, actions: tuple[str, ...] = ()) -> None:
    with Journal.open(path) as journal:
        game_id = journal.start_game(config, ["Ann", "Bob"], mode)
        for action in actions:
            journal.record_action(game_id, action)


def games(path: Path) -> list[tuple[str, str]]:
    with Journal.open(path) as journal:
        return [(g.game, g.status) for g in journal.games()]


def test_a_bad_start_journals_nothing_and_the_next_start_works(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    assert main([*RUN, "--game", "pay-line", "--mode", "table", "--journal", str(journal),
                 "--frames", "1"]) == 2
    assert "Pay Line plays in cabinet mode, not table" in capsys.readouterr().err
    assert not journal.exists()
    for bad in (["--game", "bandit", "--players", "0"], ["--game", "thanks-a-lottery", "--variant", "tiles"],
                ["--game", "nope"], ["--game", "bandit", "--camera", "webcam"]):
        assert main([*RUN, *bad, "--journal", str(journal), "--frames", "1"]) == 2
        assert "Traceback" not in capsys.readouterr().err
    assert not journal.exists()
    assert main([*RUN, "--game", "bandit", "--mode", "cabinet", "--players", "2", "--journal", str(journal),
                 "--frames", "3"]) == 0
    assert games(journal) == [("bandit", "playing")]


@pytest.mark.parametrize(("config", "mode", "why"), [
    (GameConfig("pay-line", 2, seed=1).to_dict(), "table", "plays in cabinet mode"),
    ({**GameConfig("bandit", 2, seed=1).to_dict(), "variants": ["gone"]}, "cabinet", "not a variant"),
    ({**GameConfig("bandit", 2, seed=1).to_dict(), "game": "retired-game"}, "cabinet",
     "no game 'retired-game'"),
])
def test_an_unfinished_game_that_cannot_go_on_never_blocks_a_new_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], config: dict[str, object], mode: str,
        why: str) -> None:
    journal = tmp_path / "journal.sqlite"
    journal_with(journal, config, mode)
    assert main([*RUN, "--game", "bandit", "--mode", "cabinet", "--players", "2", "--journal", str(journal),
                 "--frames", "3"]) == 0
    out = capsys.readouterr().out
    assert "game 1 " in out and "cannot be resumed" in out and why in out and "`companion end 1`" in out
    assert games(journal) == [(str(config["game"]), "playing"), ("bandit", "playing")]
    assert main(["end", "1", "--journal", str(journal)]) == 0
    assert games(journal)[0] == (str(config["game"]), "ended")  # kept in the history, not deleted


def test_resuming_is_said_and_a_different_game_asked_for_is_not_silently_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    journal_with(journal, GameConfig("bandit", 2, seed=1).to_dict(), "cabinet", ("reveal cherry",))
    assert main([*RUN, "--game", "pay-line", "--mode", "cabinet", "--journal", str(journal),
                 "--frames", "2"]) == 0
    out = capsys.readouterr().out
    assert ("resuming game 1 (Bandit, 2 players, cabinet mode) at action 1; to start anew: "
            "`companion run --new`") in out
    assert "not starting --game pay-line: game 1 (Bandit, 2 players, cabinet mode) is unfinished" in out
    assert games(journal) == [("bandit", "playing")]


def test_run_new_ends_the_unfinished_game_and_starts_the_one_asked_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    journal_with(journal, GameConfig("bandit", 2, seed=1).to_dict(), "cabinet", ("reveal cherry",))
    assert main([*RUN, "--new", "--game", "pay-line", "--mode", "cabinet", "--journal", str(journal),
                 "--frames", "2"]) == 0
    assert "ended game 1 (Bandit, 2 players, cabinet mode); starting anew" in capsys.readouterr().out
    assert games(journal) == [("bandit", "ended"), ("pay-line", "playing")]
    with Journal.open(journal) as opened:
        assert opened.game(1).result == {"scores": [0, 0], "winners": []}


def test_end_says_when_there_is_nothing_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    assert main(["end", "--journal", str(journal)]) == 2
    assert "no journal" in capsys.readouterr().err
    journal_with(journal, GameConfig("bandit", 2, seed=1).to_dict(), "cabinet")
    assert main(["end", "--journal", str(journal)]) == 0
    assert main(["end", "--journal", str(journal)]) == 2
    assert "no game is being played" in capsys.readouterr().err
    assert main(["end", "1", "--journal", str(journal)]) == 2
    assert "already ended" in capsys.readouterr().err


def test_the_resuming_line_is_said_once_not_also_as_a_log_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    journal = tmp_path / "journal.sqlite"
    journal_with(journal, GameConfig("bandit", 2, seed=1).to_dict(), "cabinet", ("reveal cherry",))
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    for extra in ([], ["--transcript"]):  # what a host at a terminal sees: stdout and stderr together
        shown = subprocess.run([sys.executable, "-m", "companion", *RUN, *extra, "--journal", str(journal),
                                "--frames", "2"], capture_output=True, text=True, env=env, check=True)
        said = (shown.stdout + shown.stderr).count("resuming game 1 (Bandit, 2 players, cabinet mode)")
        assert said == 1, shown.stdout + shown.stderr
