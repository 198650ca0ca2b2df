"""``companion bench engine``: actions per CPU second per game, next to OpenSpiel's Python games.

Random bots, one core (this process), seeded, CPU time (``time.process_time``). Two loops per
game, side by side in one run:

- ``actions_per_cpu_second``: :func:`companion.engine.simulate.play_game`, the path of
  ``companion simulate`` and the bots (one chance point per step, no second check of what the
  engine itself picked);
- ``checked_actions_per_cpu_second``: the same games with every action through
  :meth:`Match.apply` (:func:`companion.engine.simulate.play_game_checked`), as a table's report
  is checked (the chance point asked again, the outcome and each decision checked).

With OpenSpiel installed (``pip install open_spiel``; not a dependency of the companion: pass
``--openspiel PYTHON`` for an interpreter that has it) one more line gives random rollouts of
OpenSpiel's pure-Python liar's poker in the same run, and each game line its ``vs_openspiel``
ratio. Without it that line says why. OpenSpiel runs once before the games and once after, and
the ratio uses the mean of the two (``runs`` shows both): on a shared machine the load drifts
during a run, and one reference at the end would carry all of that drift.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterable
from typing import Any

from companion.engine import GameConfig, RandomBot, all_games
from companion.engine.simulate import play_game, play_game_checked

NAME = "engine"
HELP = "engine speed per game: actions per CPU second (random bots), beside OpenSpiel's Python games"

#: The rollout loop run in an interpreter with OpenSpiel (random play, as OpenSpiel's examples do).
OPENSPIEL_ROLLOUTS = """
import json, random, sys, time
import pyspiel
from open_spiel.python.games import liars_poker  # noqa: F401  (registers python_liars_poker)
game, rng, budget = pyspiel.load_game("python_liars_poker"), random.Random(0), float(sys.argv[1])
actions = games = 0
start = time.process_time()
while time.process_time() - start < budget:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        actions += 1
    games += 1
spent = time.process_time() - start
print(json.dumps({"game": "python_liars_poker", "games": games, "actions": actions,
                  "actions_per_cpu_second": round(actions / spent), "python": sys.version.split()[0]}))
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: CPU-time budget per loop, which games, and the OpenSpiel interpreter."""
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="CPU seconds per loop and game (default 2)")
    parser.add_argument("--game", action="append", help="only these game ids (repeatable)")
    parser.add_argument("--openspiel", metavar="PYTHON", default=sys.executable,
                        help="a Python with open_spiel installed, for the comparison (default: this one)")


def simulated(game_id: str, players: int, seconds: float) -> tuple[int, int, float]:
    """(games, actions, CPU seconds) of whole random games through ``play_game``."""
    bot = RandomBot()
    games = actions = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        actions += len(play_game(GameConfig(game_id, players, seed=games), [bot]).match.log)
        games += 1
    return games, actions, spent


def checked(game_id: str, players: int, seconds: float) -> tuple[int, int, float]:
    """(games, actions, CPU seconds) of the same games with every action through ``Match.apply``."""
    bot = RandomBot()
    games = actions = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        actions += len(play_game_checked(GameConfig(game_id, players, seed=games), [bot]).log)
        games += 1
    return games, actions, spent


def openspiel(python: str, seconds: float) -> dict[str, Any]:
    """OpenSpiel's figure, or why there is none."""
    try:
        done = subprocess.run([python, "-c", OPENSPIEL_ROLLOUTS, str(seconds)], capture_output=True,
                              text=True, timeout=60 + 10 * seconds, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return {"openspiel": None, "why": f"cannot run {python}: {error}"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"openspiel": None, "why": f"{python} cannot run OpenSpiel ({last}); "
                                          "pip install open_spiel there, or pass --openspiel PYTHON"}
    figure: dict[str, Any] = json.loads(done.stdout)
    return figure


def bracketed(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel's figure from the runs before and after the games: their mean rate."""
    rates = [before["actions_per_cpu_second"], after["actions_per_cpu_second"]]
    games, actions = before["games"] + after["games"], before["actions"] + after["actions"]
    return {**after, "games": games, "actions": actions, "actions_per_cpu_second": round(sum(rates) / 2),
            "runs": rates}


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One JSON-ready figure per game, then OpenSpiel's (run before and after them, same budget)."""
    games = all_games()
    before = openspiel(args.openspiel, args.seconds)
    figures = []
    for game_id in args.game or list(games):
        cls = games[game_id]
        players = max(cls.min_players, min(2, cls.max_players))
        played, actions, spent = simulated(game_id, players, args.seconds)
        checked_games, checked_actions, checked_spent = checked(game_id, players, args.seconds)
        figures.append({
            "bench": "engine",
            "game": game_id,
            "players": players,
            "games": played,
            "actions": actions,
            "actions_per_cpu_second": round(actions / spent),
            "checked_actions_per_cpu_second": round(checked_actions / checked_spent),
            "us_per_action": round(spent / actions * 1e6, 2),
        })
    reference = before
    if before.get("actions_per_cpu_second"):
        after = openspiel(args.openspiel, args.seconds)
        reference = bracketed(before, after) if after.get("actions_per_cpu_second") else after
    rate = reference.get("actions_per_cpu_second")
    for figure in figures:
        if rate:
            figure["vs_openspiel"] = round(figure["actions_per_cpu_second"] / rate, 2)
        yield figure
    yield {"bench": "engine", "reference": "openspiel", **reference}
