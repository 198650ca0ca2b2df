"""Golden playthroughs still replay to the same final state and the same transcript."""

from __future__ import annotations

import json

import pytest

from companion.cli.commands.replay import transcript
from companion.engine import GameConfig, all_games, replay
from tests.golden_games import path_for, record


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_golden_playthrough_replays_exactly(game_id: str) -> None:
    path = path_for(game_id)
    assert path.exists(), f"no golden file for {game_id}: run python -m tests.golden_games"
    golden = json.loads(path.read_text())
    config = GameConfig.from_dict(golden["config"])
    match = replay(config, golden["actions"])
    assert json.loads(match.game.encode_state(match.state)) == golden["final_state"]
    assert transcript((config, match.log)) == golden["transcript"]
    assert match.is_over


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_heuristic_bots_still_play_the_golden_game(game_id: str) -> None:
    """Bots and chance from the same seed make the same decisions as when the file was written."""
    golden = json.loads(path_for(game_id).read_text())
    assert record(game_id)["actions"] == golden["actions"]
