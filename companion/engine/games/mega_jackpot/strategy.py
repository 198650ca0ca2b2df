"""The heuristic bot for Mega Jackpot: it plays the odds advisor.

- Flip: the flip with the best expected jackpot points (then the best jackpot chance).
- No jackpot: pay to spin again when the best flip's expected points beat the card paid.
- A jackpot with the tiles: bet it when a genie's share of the tray beats cashing out
  (tray + jackpot divided by the face-down tiles > the jackpot); three genies are bet whenever
  the player is not leading or at least one in two face-down tiles is the genie.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from companion.engine.actions import Action
from companion.engine.game import GameResult
from companion.engine.games.mega_jackpot.components import GENIE, TRAYS, Components
from companion.engine.games.mega_jackpot.odds import FlipOdds
from companion.engine.games.mega_jackpot.state import MegaJackpotState


class AdvisedGame(Protocol):
    """What the bot asks of the game (the rules module; a protocol keeps this module below it)."""

    @property
    def tiles(self) -> bool: ...

    @property
    def components(self) -> Components: ...

    def odds(self, state: MegaJackpotState) -> list[FlipOdds]: ...

    def payable_values(self, state: MegaJackpotState) -> list[int]: ...

    def points(self, cards: Mapping[str, int]) -> int: ...

    def result(self, state: MegaJackpotState) -> GameResult: ...


def best_flip(odds: list[FlipOdds]) -> FlipOdds:
    """The flip with the most expected points, then the best chance (first on ties)."""
    return max(odds, key=lambda o: (o.expected_points, o.jackpot))


def choose(game: AdvisedGame, state: MegaJackpotState) -> Action:
    """The heuristic decision for the current player."""
    if state.phase == "flip":
        return best_flip(game.odds(state)).action
    if state.phase == "jackpot":
        return _jackpot_choice(game, state)
    values = game.payable_values(state)
    if values:
        value = min(values)
        if best_flip(game.odds(state)).expected_points > value:
            return Action.of("pay", value, _richest_tray(game, state))
    return Action.of("stop")


def _richest_tray(game: AdvisedGame, state: MegaJackpotState) -> int:
    return max(range(TRAYS), key=lambda tray: (game.points(state.trays[tray]), -tray))


def _jackpot_choice(game: AdvisedGame, state: MegaJackpotState) -> Action:
    if not game.tiles:
        return Action.of("cash")
    symbol = state.discard_tops()[0]
    assert symbol is not None
    jackpot = 3 * game.components.values[symbol]
    face_down = max(state.tiles_down, 1)
    tray = _richest_tray(game, state)
    if symbol == GENIE:
        scores = game.result(state).scores
        others = max(s for seat, s in enumerate(scores) if seat != state.current)
        if scores[state.current] + jackpot <= others or face_down <= 2:
            return Action.of("attempt", tray)
        return Action.of("cash")
    if (game.points(state.trays[tray]) + jackpot) / face_down > jackpot:
        return Action.of("attempt", tray)
    return Action.of("cash")
