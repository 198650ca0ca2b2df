"""The heuristic player (placeholder filled in below)."""

from __future__ import annotations

import random

from companion.engine.actions import Action
from companion.engine.games.jackpot_payout.core import Table
from companion.engine.games.jackpot_payout.state import JackpotPayoutState


def heuristic_decision(table: Table, state: JackpotPayoutState, options: list[Action],
                       rng: random.Random) -> Action:
    """A sensible decision among ``options``."""
    return options[0]
