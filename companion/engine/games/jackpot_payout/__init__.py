"""Jackpot Payout (seed 000): a slot-machine deck-builder for 1-4 players, solo against The House.

Rulebook: ``shared/seeds/000``; decisions: docs/rulings.md "Jackpot Payout". Modules: ``cards``
(the data file), ``evaluation`` (jackpots, pairs, adjudicate), ``state``, ``core`` (steps,
reveals), ``turn`` (the turn, display, end, Final Showdown), ``abilities`` (starting deck and
Introductory set), ``expert`` (Expert set), ``house`` (solo), ``bots``, ``describe``, ``game``.

Decisions taken where the rulebook is silent (docs/rulings.md gives the reasons):

- Three wilds in play are a jackpot (symbol ``wild``): wilds match every suit.
- A split card showing the guessed suit is a right guess for Guess Suit.
- Shopping Spree lifts the number of cards, not the pair condition: Special cards still need a
  pair. It only matters on a turn without a jackpot (a jackpot ends the turn).
- Generous may give any display card (Special cards too) or a coinless wild; you first, then
  clockwise; the emptied piles are refilled afterwards. Imp reveals your own top card too.
- The House card: coins 0 on the card (assumed); the display cards it removes leave the game,
  and the piles are refilled after the removals.
- A Stuck Reel kept in play stays through the Final Showdown (one fewer card revealed there too).
- Final Showdown: equal coins play in seat order; abilities resolve as in a turn; Consolation
  Prize pays on a showdown reveal without a jackpot; there is no display phase.
- When a deck and its discard pile are both empty, fewer cards are revealed (no jackpot
  without three cards in play).
- Solo: payments after the bank is empty come from the box, then substitute tokens, like in
  multiplayer; both end triggers are checked when the turn ends; equal coins: The House wins.
- Every ability in play must be resolved (its own text says where the player may decline).
- Improve the Odds may take any card of the deck (the deck is looked through, then shuffled).
- Predict Matches reveals all N announced cards even once a mismatch shows (all are discarded).
- Flush names one of the five suits (not wild); wild display cards are flushed with any suit.
- Card marks (assumed): only Thief is multiplayer-only (2+); Improve the Odds is not used solo
  (the rulebook removes it); House cards are solo-only. Solo uses 2 House cards by default.
- The 12-coin trigger is checked when a turn ends (an opponent can reach it by Coin Sync); the
  small-deck trigger when a turn starts. Final Showdown order is fixed when it starts.
- ``adjudicate`` adds ``shopping_spree`` (true: any number of cards more may be taken) to the
  contract's keys; ``may_take`` stays the normal 0-2.
"""

from companion.engine.games.jackpot_payout.game import JackpotPayoutGame
from companion.engine.registry import register

register(JackpotPayoutGame)

__all__ = ["JackpotPayoutGame"]
