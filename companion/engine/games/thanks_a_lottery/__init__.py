"""Thanks a Lottery (``thanks-a-lottery``): blocks of numbered cards, dice earned, a lottery.

Rulebook: seed 003; decisions: docs/rulings.md "Thanks a Lottery". 2-6 players, three rounds. Each
round: shuffle, deal 6 cards each (one chance point per card, round the table from the
dealer's left), roll the 15 dice into the pool (one chance point per die). Then turns, starting
left of the dealer: draw a card (a chance point), then at most one action. The round stops at
once when a player starts a turn with an empty hand and at least one die (not in variant
``long-game``), when the deck is empty at a draw, or when the last die leaves the pool. Then
every player with dice may re-roll some once (a decision each, then one chance point per die),
three of the eight tokens are drawn onto the prize card (lowest space first) and the round is
scored: cards in blocks + dice + lottery points (+ lucky-card bonus) - cards in hand, at
least 0. The player who ended the round deals the next. Most points after three rounds wins;
tie: most in the last round; then shared.

Action text forms (card faces and outcome ids: ``1``..``7``, ``wild``; dice ``1``..``6``;
tokens ``1``..``6``, ``all``, ``none``):

- ``reveal X``: a dealt or drawn card, a rolled die, a lottery token;
- ``play 3 4 5`` / ``play 6 7 wild=1`` / ``play 4 4 wild=4``: lay a new block. The real cards
  are listed in table order (sequences rising, e.g. ``6 7 1``) and a wild comes last as
  ``wild=N``, the number it stands for from now on. Before a player's first block of the
  round this (or ``pass``) is the only choice;
- ``add B 6`` / ``add B 1 2 6`` / ``add B wild=7``: add cards to block ``B`` (ids ``b1``,
  ``b2``, ... in the order the blocks were played this round). Added cards are listed in table
  order (those before the block first); wilds only in the player's own blocks, one per block.
  Adding to someone else's block earns one die per card;
- ``replace B``: play the real number the wild in someone else's block ``B`` stands for; the
  wild goes to the hand and one die is earned;
- ``take N``: take one earned die showing ``N`` from the pool (values unchanged). Dice are
  taken one decision at a time so the list of choices stays small; when there is no choice
  (all remaining dice are owed, or they all show one value) they are taken automatically. A
  player owed more dice than remain takes what remains, and the round ends;
- ``pass``: do nothing more this turn;
- ``reroll 1 1 4`` (values in rising order) / ``keep``: finalizing, each player with dice
  in turn from the dealer's left picks up dice by value to re-roll once.

Every listed decision is written exactly one way; another spelling of a legal move is refused
with a message that shows the accepted form.
"""

from companion.engine.games.thanks_a_lottery.game import ThanksALottery

__all__ = ["ThanksALottery"]
