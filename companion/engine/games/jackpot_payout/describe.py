"""Readable transcript lines for Jackpot Payout actions."""

from __future__ import annotations

from typing import Protocol

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.games.jackpot_payout.core import Table, who
from companion.engine.games.jackpot_payout.state import JackpotPayoutState


class DescribedGame(Protocol):
    """What a transcript line needs of the game (the game itself; a protocol keeps this module below it)."""

    @property
    def table(self) -> Table: ...

    def chance_point(self, state: JackpotPayoutState) -> ChancePoint | None: ...


def describe_action(game: DescribedGame, state: JackpotPayoutState, action: Action) -> str:
    """One line for ``action`` in ``state``, e.g. ``player 2 guesses crown (Guess Suit)``."""
    table = game.table

    def label(card_id: object) -> str:
        card = table.catalogue.cards.get(str(card_id))
        return card.label() if card else str(card_id)

    def pile(slot: object) -> str:
        if slot == "wild":
            return "a coinless wild"
        if isinstance(slot, int) and 0 <= slot < len(state.display) and state.display[slot] is not None:
            return f"{label(state.display[slot])} from display pile {slot + 1}"
        return f"display pile {int(slot) + 1}" if isinstance(slot, int) else f"display pile {slot}"

    if action.is_reveal:
        point = game.chance_point(state)
        return f"revealed {label(action.args[0])} as {point.what if point else 'a card'}"
    me = who(state.current)
    args = action.args
    seat = state.seats[state.current]
    verb = action.verb
    if verb == "resolve" and args and isinstance(args[0], int) and args[0] < len(seat.play):
        return f"{me} resolves {label(seat.play[args[0]])} on reel {args[0] + 1}"
    if verb == "take":
        return f"{me} takes {pile(args[0])}" if args else f"{me} takes a card"
    if verb == "give" and state.seats_left:
        return f"{me} gives {pile(args[0])} to {who(state.seats_left[0])} (Generous)"
    if verb == "improve" and len(args) == 2:
        return f"{me} removes {label(args[1])} from their {args[0]} (Improve the Odds)"
    if verb == "filter":
        discarded = "none" if args == ("none",) else ", ".join(label(state.revealed[int(i)].card)
                                                                for i in args if isinstance(i, int)
                                                                and i < len(state.revealed))
        return f"{me} discards {discarded} (Filter 2)"
    if verb == "guess" and args:
        return f"{me} guesses {args[0]} (Guess Suit)"
    if verb == "replace" and args and isinstance(args[0], int) and args[0] < len(seat.play):
        replaced = label(seat.play[args[0]])
        return f"{me} plays the revealed card over {replaced} on reel {args[0] + 1} (Second Chance)"
    if verb in ("score", "discard") and state.revealed:
        return f"{me} {'scores' if verb == 'score' else 'discards'} {label(state.revealed[0].card)}"
    if verb == "put-back" and state.revealed:
        return f"{me} puts {label(state.revealed[0].card)} back on {who(state.revealed[0].seat)}'s deck (Imp)"
    if verb == "flush" and args:
        return f"{me} flushes {args[0]} from the display"
    if verb == "predict" and args:
        return f"{me} predicts {args[0]} matching cards"
    if verb == "steal" and args and isinstance(args[0], int):
        return f"{me} steals {who(args[0])}'s revealed card (Thief)"
    if verb == "pass":
        return f"{me} steals nothing (Thief)"
    if verb == "shuffle-in" and args:
        return f"{me} shuffles {label(args[0])} into their deck (Jackpot Shuffle)"
    if verb == "remove" and args:
        return f"{me} removes {pile(args[0])} from the game (The House)"
    if verb == "keep":
        return f"{me} keeps the Stuck Reel in play"
    if verb == "release":
        return f"{me} discards the Stuck Reel"
    if verb == "done":
        return f"{me} is done"
    return f"{me}: {action}"
