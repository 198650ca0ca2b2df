"""Mega Jackpot (``mega-jackpot``): the rules in :mod:`.rules`, the state and events in
:mod:`.state`, the components in :mod:`.components`, the odds advisor in :mod:`.odds`, the
heuristic bot in :mod:`.strategy` and the ``companion adjudicate`` ruling in
:mod:`.adjudication`. Importing the package registers the game.
"""

from companion.engine.games.mega_jackpot.odds import FlipOdds, flip_choices, flip_odds
from companion.engine.games.mega_jackpot.rules import TILES_VARIANT, MegaJackpotGame
from companion.engine.games.mega_jackpot.state import MegaJackpotState

__all__ = ["TILES_VARIANT", "FlipOdds", "MegaJackpotGame", "MegaJackpotState", "flip_choices", "flip_odds"]
