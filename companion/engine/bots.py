"""Bots choose decisions for simulations and for empty seats.

>>> import random
>>> from companion.engine.match import Match
>>> from companion.engine.game import GameConfig
>>> m = Match.new(GameConfig("bandit", players=2, seed=3))
>>> _ = m.resolve_all(__import__("companion.engine.chance", fromlist=["x"]).SeededResolver(3))
>>> RandomBot().choose(m.game, m.state, random.Random(1)) in m.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from companion.engine.actions import Action
from companion.engine.errors import ConfigError
from companion.engine.game import Game


class Bot(Protocol):
    """Chooses one of the current player's legal decisions."""

    name: str

    def choose(self, game: Game[Any], state: Any, rng: random.Random) -> Action:
        """Return a legal decision for ``game.current_player(state)``."""
        ...


class RandomBot:
    """Picks uniformly among the legal decisions."""

    name = "random"

    def choose(self, game: Game[Any], state: Any, rng: random.Random) -> Action:
        """A uniformly random legal decision."""
        return rng.choice(game.decisions(state))


class HeuristicBot:
    """Plays the game's own sensible strategy (:meth:`Game.heuristic_action`)."""

    name = "heuristic"

    def choose(self, game: Game[Any], state: Any, rng: random.Random) -> Action:
        """The game's heuristic decision."""
        return game.heuristic_action(state, rng)


BOTS: dict[str, type[RandomBot] | type[HeuristicBot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str) -> Bot:
    """The bot called ``name`` (``random`` or ``heuristic``)."""
    if name not in BOTS:
        raise ConfigError(f"unknown bot '{name}' (bots: {', '.join(BOTS)})")
    return BOTS[name]()
