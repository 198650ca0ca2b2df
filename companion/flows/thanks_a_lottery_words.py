"""Thanks a Lottery moves in table words, for the one-line prompt.

>>> from companion.engine import Action, GameConfig, make_game
>>> state = make_game(GameConfig("thanks-a-lottery", players=2)).initial_state()
>>> move_words(state, 0, Action.parse("play 6 7 wild=1"), ["Ann", "Ben"])
'play the block 6 7 wild(=1)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine import Action


def _cards(args: Sequence[object]) -> str:
    return " ".join(f"wild(={str(a)[5:]})" if str(a).startswith("wild=") else str(a) for a in args)


def block_name(state: Any, block_id: str, seats: Sequence[str], seat: int) -> str:
    """``your b2`` or ``Ben's b2``."""
    block = state.block(block_id)
    if block is None:
        return block_id
    return f"your {block_id}" if block.owner == seat else f"{seats[block.owner]}'s {block_id}"


def move_words(state: Any, seat: int, action: Action, seats: Sequence[str]) -> str:
    """A turn move as the table would say it (``add 6 to Ben's b2, +1 die``)."""
    if action.verb == "play":
        return f"play the block {_cards(action.args)}"
    if action.verb == "add" and action.args:
        target = str(action.args[0])
        block = state.block(target)
        dice = ""
        if block is not None and block.owner != seat:
            count = len(action.args) - 1
            dice = f", +{count} {'die' if count == 1 else 'dice'}"
        return f"add {_cards(action.args[1:])} to {block_name(state, target, seats, seat)}{dice}"
    if action.verb == "replace" and action.args:
        target = str(action.args[0])
        block = state.block(target)
        number = block.wild_number if block is not None else "?"
        return f"replace the wild in {block_name(state, target, seats, seat)} with a {number}, +1 die"
    if action.verb == "pass":
        return "pass"
    return str(action)
