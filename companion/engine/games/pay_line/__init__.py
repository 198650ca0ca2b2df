"""Pay Line: roll three dice, re-roll for three of a kind, win the chips in a secret box.

Rulebook: seed 002; decisions: docs/rulings.md "Pay Line". Three boxes (``black``, ``yellow``,
``red``) hold chips nobody may count; the dice show the same three colours. A turn starts with
a free roll of all three dice. Three of a kind is a jackpot: take the matching box (the turn
ends) or decline. Re-rolling costs one chip per picked die, paid into the box of the colour
that die shows now. Walking away ends the turn. After a turn that took a jackpot the emptied
box is refilled from the bank; when the bank cannot refill it the game ends at once.

Double or nothing (one token per player per game): right after hitting a jackpot, instead of
taking it, the player discards the token and re-rolls all dice free; re-rolls then cost chips
as usual. Only the *same* three of a kind pays: the box's chips plus as much again from the
bank (when the bank is short the rest comes from the other boxes, fullest first, and the game
ends; should they not cover it either, the player gets what there is). Walking away pays
nothing and the chips stay in the box. Another three of a kind during double or nothing is
not a jackpot (docs/rulings.md: "another result pays nothing"): it cannot be taken, and the player
re-rolls on, at the usual price, or walks away.

Actions (text form):

- ``reveal <colour>``: one die comes up (one chance point per die, in die order);
- ``take``: take the jackpot showing (in double or nothing: collect the doubled payout);
- ``reroll D [D D]``: pay one chip per die and re-roll dice D (0-2, each once, lowest first);
- ``double``: go double or nothing on the jackpot showing;
- ``walk``: walk away; the turn ends.

The game ends when the bank cannot refill an emptied box (or pay a double). Most chips in the
bag wins; a tie goes to whoever took fewer turns; then the win is shared. A turn counts from
its free roll (``TurnStarted`` comes with the first die).
"""

from companion.engine.games.pay_line.game import PayLineGame
from companion.engine.games.pay_line.state import (
    DICE,
    SYMBOLS,
    BankShort,
    BoxRefilled,
    DiceRerolled,
    DoubleOrNothing,
    PayLineComponents,
    PayLineState,
    ThreeOfAKind,
    WalkedAway,
    jackpot_symbol,
)

__all__ = [
    "DICE",
    "SYMBOLS",
    "BankShort",
    "BoxRefilled",
    "DiceRerolled",
    "DoubleOrNothing",
    "PayLineComponents",
    "PayLineGame",
    "PayLineState",
    "ThreeOfAKind",
    "WalkedAway",
    "jackpot_symbol",
]
