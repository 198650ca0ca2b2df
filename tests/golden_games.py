"""Golden playthroughs: one seeded heuristic game per registered game, stored with its result.

A golden file holds the configuration, the action log, the final state's canonical JSON and
the transcript. Any change to the rules that changes a played game shows up as a diff here;
if the change is intended, regenerate with ``python -m tests.golden_games`` and review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion.cli.commands.replay import transcript
from companion.engine import GameConfig, HeuristicBot, all_games
from companion.engine.simulate import play_game

GOLDEN_DIR = Path(__file__).parent / "golden"


def golden_config(game_id: str) -> GameConfig:
    """The configuration each game's golden playthrough uses: most seats, seed 2026."""
    cls = all_games()[game_id]
    return GameConfig(game_id, min(cls.max_players, 3), seed=2026)


def record(game_id: str) -> dict[str, Any]:
    """Play the golden game and return what the golden file stores."""
    config = golden_config(game_id)
    played = play_game(config, [HeuristicBot()])
    actions = [str(a) for a in played.match.log]
    return {
        "config": config.to_dict(),
        "actions": actions,
        "final_state": json.loads(played.match.game.encode_state(played.match.state)),
        "transcript": transcript((config, played.match.log)),
    }


def path_for(game_id: str) -> Path:
    """Where a game's golden file lives."""
    return GOLDEN_DIR / f"{game_id}.json"


def main() -> int:
    """Regenerate every golden file."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for game_id in all_games():
        path_for(game_id).write_text(json.dumps(record(game_id), indent=1, sort_keys=True) + "\n")
        print(f"wrote {path_for(game_id)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
