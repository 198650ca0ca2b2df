"""Readable transcript lines for Mega Jackpot actions (``companion replay``, the screen's log)."""

from __future__ import annotations

from companion.engine.actions import Action
from companion.engine.game import Game
from companion.engine.games.mega_jackpot.state import MegaJackpotState


def describe_action(game: Game[MegaJackpotState], state: MegaJackpotState, action: Action) -> str:
    """A transcript line, e.g. ``player 2 flips pile 1 onto discard 3``."""
    who = f"player {state.current + 1}"
    if action.is_reveal:
        point = game.chance_point(state)
        return f"the table reveals {action.args[0]}: {point.what if point else 'a card'}"
    args = list(action.args)
    if action.verb == "flip":
        moves = [f"pile {int(args[i]) + 1} onto discard {int(args[i + 1]) + 1}"
                 for i in range(0, len(args), 2)]
        return f"{who} flips " + " and ".join(moves)
    if action.verb == "pay":
        return f"{who} pays a {args[0]}-point card into tray {int(args[1]) + 1} to spin again"
    if action.verb == "cash":
        tops = state.discard_tops()
        return f"{who} cashes out three {tops[0]} cards"
    if action.verb == "attempt":
        return f"{who} bets the jackpot in tray {int(args[0]) + 1} and flips a Mega Jackpot tile"
    return f"{who} stops"
