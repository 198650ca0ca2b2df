"""Why a decision was refused, in words a player understands.

The rules accept exactly the listed decisions; these functions only build the message of the
:class:`IllegalActionError` for everything else.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.actions import Action
from companion.engine.games.thanks_a_lottery.blocks import BlockError, classify
from companion.engine.games.thanks_a_lottery.components import NUMBERS, WILD
from companion.engine.games.thanks_a_lottery.state import LotteryState

PLAY_HELP = ("write a block as its numbers in table order, a wild last as wild=N: "
             "'play 3 4 5', 'play 6 7 wild=1'")
ADD_HELP = "write 'add B' and the cards in table order, e.g. 'add b1 6' or 'add b2 2 6 wild=7'"


def _cards(args: tuple[str | int, ...]) -> tuple[list[int], int | None] | None:
    """Numbers and the wild's declared number from action arguments; None when malformed."""
    numbers: list[int] = []
    wild: int | None = None
    for i, arg in enumerate(args):
        if isinstance(arg, int) and arg in NUMBERS:
            numbers.append(arg)
        elif isinstance(arg, str) and arg.startswith("wild=") and arg[5:].isdigit() and i == len(args) - 1:
            wild = int(arg[5:])
            if wild not in NUMBERS:
                return None
        else:
            return None
    return numbers, wild


def _missing(state: LotteryState, seat: int, numbers: list[int], wild: int | None) -> str | None:
    hand = list(state.hands[seat])
    for card in [str(n) for n in numbers] + ([WILD] if wild is not None else []):
        if card not in hand:
            return f"you do not hold {'a wild' if card == WILD else 'another ' + card}"
        hand.remove(card)
    return None


def play(state: LotteryState, seat: int, action: Action, legal: Iterable[Action] = ()) -> str:
    """Why ``play ...`` is refused (``legal``: the legal plays it may be a misordering of)."""
    parsed = _cards(action.args)
    if parsed is None or not parsed[0]:
        return PLAY_HELP
    numbers, wild = parsed
    missing = _missing(state, seat, numbers, wild)
    if missing:
        return missing
    # The same cards written another way: point at the form the rules list, never rebuild one
    # (rebuilding wrote the wild's number among the real cards: 'play 2 3 4 wild=2').
    for option in legal:
        same = _cards(option.args)
        if same is not None and sorted(same[0]) == sorted(numbers) and same[1] == wild:
            return f"write that block in rising order with the wild last: '{option}'"
    # Not a block in any order: say why for the cards laid in rising order, the wild where it fits.
    reason = None
    for cards in _arrangements(sorted(numbers), wild):
        try:
            classify(cards)
        except BlockError as error:
            reason = reason or str(error)
            continue
        return "that block is not one you can play now: " + PLAY_HELP
    return reason or PLAY_HELP


def _arrangements(numbers: list[int], wild: int | None) -> list[list[int | None]]:
    """The real numbers in rising order with the wild's number at each place (where the wild
    lies on the table decides whether the run reads as a sequence)."""
    if wild is None:
        return [list(numbers)]
    return [[*numbers[:at], wild, *numbers[at:]] for at in range(len(numbers) + 1)]


def act(state: LotteryState, seat: int, action: Action, legal: list[Action] | None = None) -> str:
    """Why any other turn action is refused (``legal``: the legal moves it may be a misspelling of)."""
    verb = action.verb
    if verb not in ("add", "replace", "pass"):
        return f"'{action.brief}' is not a move here: play a block, add to one, replace a wild, or pass"
    if verb == "pass":
        return "'pass' takes nothing after it"
    if not state.has_block(seat):
        return "play your first block this round before adding to blocks or replacing wilds"
    ids = ", ".join(state.block_id(b) for b in state.blocks)
    if not action.args:
        return f"name the block: '{verb} B' with B one of {ids}"
    block = state.block(str(action.args[0]))
    if block is None:
        return f"there is no block '{action.args[0]}' this round (blocks: {ids})"
    if verb == "replace":
        if len(action.args) != 1:
            return f"'replace {action.args[0]}' takes nothing more: you play the number the wild stands for"
        if block.owner == seat:
            return "you can only replace a wild in someone else's block"
        if block.wild_number is None:
            return f"block {action.args[0]} holds no wild"
        return f"you need a real {block.wild_number} to replace the wild in {action.args[0]}"
    parsed = _cards(action.args[1:])
    if parsed is None or not (parsed[0] or parsed[1] is not None):
        return ADD_HELP
    numbers, wild = parsed
    if wild is not None and block.owner != seat:
        return "you can only play wilds in your own blocks"
    if wild is not None and block.wild_at is not None:
        return f"block {action.args[0]} already holds a wild: only one wild per block"
    missing = _missing(state, seat, numbers, wild)
    if missing:
        return missing
    for option in legal or []:
        same = _cards(option.args[1:])
        if same is not None and sorted(same[0]) == sorted(numbers) and same[1] == wild:
            return f"write it in table order: '{option}'"
    lies = " ".join(block.cards())
    if block.kind == "identical":
        return f"block {action.args[0]} ({lies}) only takes more {block.numbers[0]}s"
    return (f"those cards do not extend block {action.args[0]} ({lies}) at its ends in sequence, "
            "without a number twice; list them in table order")


def reroll(state: LotteryState, seat: int, action: Action) -> str:
    """Why a finalize decision is refused."""
    held = ", ".join(str(v) for v in state.dice[seat])
    if action.verb not in ("reroll", "keep"):
        return f"player {seat + 1} finalizes: 'keep', or 'reroll' and the values to re-roll (dice: {held})"
    if action.verb == "keep":
        return "'keep' takes nothing after it"
    values = [a for a in action.args if isinstance(a, int)]
    if len(values) != len(action.args) or not values:
        return f"re-roll dice by value, e.g. 'reroll 1 1 4' (your dice: {held})"
    if values != sorted(values):
        return f"list the values in rising order: 'reroll {' '.join(str(v) for v in sorted(values))}'"
    return f"you do not have those dice (your dice: {held})"
