"""Readable transcript lines for Thanks a Lottery actions (``companion replay``)."""

from __future__ import annotations

from companion.engine.actions import Action
from companion.engine.game import Game
from companion.engine.games.thanks_a_lottery.moves import play_moves
from companion.engine.games.thanks_a_lottery.state import LotteryState


def _cards(args: tuple[str | int, ...]) -> str:
    return " ".join(f"a wild as {str(a)[5:]}" if str(a).startswith("wild=") else str(a) for a in args)


def describe(game: Game[LotteryState], state: LotteryState, action: Action) -> str:
    """One line for ``action`` about to be applied to ``state``.

    >>> from companion.engine import GameConfig, make_game
    >>> g = make_game(GameConfig("thanks-a-lottery", players=2))
    >>> describe(g, g.initial_state(), Action.reveal("4"))
    'card 1 dealt to player 1: 4'
    """
    if action.is_reveal:
        point = game.chance_point(state)
        return f"{point.what if point else 'revealed'}: {action.args[0]}"
    seat = game.current_player(state)
    who = f"player {seat + 1}" if seat is not None else "the table"
    if action.verb == "play" and seat is not None:
        shape = play_moves(state.counts(seat), state.wilds(seat)).get(action)
        cards = shape.cards_text() if shape else _cards(action.args)
        return f"{who} plays the block {cards} ({state.next_block_id()})"
    if action.verb == "add" and action.args:
        block = state.block(str(action.args[0]))
        owner = "own block" if block is None or block.owner == seat else f"player {block.owner + 1}'s block"
        return f"{who} adds {_cards(action.args[1:])} to {action.args[0]} ({owner})"
    if action.verb == "replace" and action.args:
        block = state.block(str(action.args[0]))
        number = block.wild_number if block else "?"
        return f"{who} replaces the wild in {action.args[0]} with a {number} and takes the wild"
    if action.verb == "take" and action.args:
        return f"{who} takes a die showing {action.args[0]} from the pool"
    if action.verb == "reroll":
        return f"{who} picks up dice showing {', '.join(str(a) for a in action.args)} to re-roll"
    if action.verb == "keep":
        return f"{who} keeps every die"
    if action.verb == "pass":
        return f"{who} does nothing more this turn"
    return f"{who}: {action}"
