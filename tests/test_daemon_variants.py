"""Variants reach the game: from the config file, or from --variant on run and demo."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.config import ConfigFileError, parse_config
from companion.daemon.app import Daemon, RunOptions


def start(tmp_path: Path, game: str, **options: object) -> Daemon:
    daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=tmp_path / "journal.sqlite", seed=3,
                               game=game, mode="cabinet", players=2, **options))  # type: ignore[arg-type]
    daemon.start()
    return daemon


def test_configured_variants_switch_on_in_the_games_that_have_them(tmp_path: Path) -> None:
    config = parse_config({"game": {"variants": ["tiles", "bad-luck"]}})
    daemon = start(tmp_path, "mega-jackpot", config=config)
    try:
        assert daemon.flow is not None
        assert daemon.flow.match.config.variants == ("tiles",), "bad-luck is Bandit's, not Mega Jackpot's"
    finally:
        daemon.close()


def test_command_line_variants_replace_the_configured_ones(tmp_path: Path) -> None:
    config = parse_config({"game": {"variants": ["tiles"]}})
    daemon = start(tmp_path, "mega-jackpot", config=config, variants=())
    try:
        assert daemon.flow is not None and daemon.flow.match.config.variants == ()
    finally:
        daemon.close()


def test_an_unknown_variant_in_the_config_names_the_key() -> None:
    with pytest.raises(ConfigFileError, match="game.variants: 'turbo' is not a variant of any game"):
        parse_config({"game": {"variants": ["turbo"]}})


def test_a_variant_the_game_does_not_have_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["demo", "--game", "pay-line", "--variant", "tiles", "--seconds", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "'tiles' is not a variant of Pay Line" in err and "Traceback" not in err


def test_a_solo_game_the_house_wins_is_summarized_as_won_by_the_house() -> None:
    from companion.engine.events import GameEnded
    from companion.session import _summary

    assert _summary([GameEnded(scores=(9,), winners=())]).endswith("won by The House")
