"""Mega Jackpot: flip Jackpot cards from three reel piles onto three discards; three identical
symbols on top is a jackpot. 2-4 players.

Rulebook: seed 001; decisions: docs/rulings.md "Mega Jackpot". Piles, discards and trays are
numbered from 0 in actions (vision zones ``pile0``..``pile2``, ``discard0``..``discard2``) and
from 1 in words.

Actions (text form):

- ``reveal <reel side>`` (e.g. ``reveal apple-cherry``): the reel side of a pile's new top card;
- ``reveal <symbol>``: the front of a card flipped onto a discard;
- ``reveal genie`` / ``reveal monkey``: the Mega Jackpot tile flipped (variant ``tiles``);
- ``flip P D``: one card from pile P onto discard D; ``flip P D Q E``: two cards at once, from
  piles P < Q onto two different discards D and E;
- ``pay V T``: no jackpot: pay a card worth V points into money tray T (0 or 1) to spin again;
- ``stop``: no jackpot: end the turn;
- ``cash``: a jackpot: take the three cards into your value piles;
- ``attempt T``: a jackpot (variant ``tiles``): bet the three cards in tray T and flip a tile.

A turn (rulebook): a free, mandatory flip of one or two cards. A jackpot is cashed out or
bet; either ends the turn. Without one the player stops or pays to spin again: the first
payment of a turn is one of the player's lowest-value cards, each later one worth more than
the one before. The game ends after the turn in which a reel pile runs out; most points wins
(starting cards count, trays count for no one), equal points share the win.

Hidden information: the reel side of each pile's top card is public, its front is not. The
state never holds a hidden front: ``unknown`` counts every card still in a pile by face id
(``front@reel-side``) and ``pile_tops`` the visible reel sides. Nobody sees how the shuffled
cards were split or ordered, so all cards of one reel side whose front is unknown are equally
likely to be the top card showing that reel side: a flip's front is a chance point weighted by
``unknown`` cards of that reel side, and a new top card's reel side is a chance point weighted
by the buried cards by reel side (unknown cards minus the tops showing). This is the exact
posterior of the per-pile compositions, without a hidden chance point for the split.

Where the rulebook is silent, this module decides (each has a test; docs/rulings.md gives the
reasons):

- Setup (docs/rulings.md): three piles (90 cards: 30 each) reel side up; the top card of each pile
  starts the discard below it. Chance order: the three top reel sides, then discard by
  discard the flipped front and the pile's new top reel side. Seat 0 plays first.
- A jackpot is checked after each flip only. Tops that match after an end-of-turn refill are
  no one's jackpot; the next player's flip decides.
- A jackpot must be cashed out or bet (the rulebook offers nothing else).
- An emptied discard is refilled from the pile above it, else from the next pile to the right
  (wrapping); with every pile empty it stays empty (the game ends with that turn anyway).
- Paying a value held both as a starting card and as a Jackpot card uses the starting card
  first (only values matter for play and score). Paying is offered only when a pile still has
  a card to flip; after paying the player must flip.
- ``stop`` is a decision even when it is the only one (the table presses to end the turn).
- Tiles: face-down tiles are interchangeable, so "flip a tile" is one chance point weighted by
  the face-down tiles. The genie ends the turn like a monkey does. Three genie cards bet and
  the genie tile end the game at once with that player as the only winner (scores are shown
  but not counted).

Modules (game id ``mega-jackpot``): the rules in :mod:`.rules`, transcript lines in
:mod:`.transcript`, the state and events in :mod:`.state`, the components in
:mod:`.components`, the odds advisor in :mod:`.odds`, the heuristic bot in :mod:`.strategy`
and the ``companion adjudicate`` ruling in :mod:`.adjudication`. Importing the package registers the game.
"""

from companion.engine.games.mega_jackpot.odds import FlipOdds, flip_choices, flip_odds
from companion.engine.games.mega_jackpot.rules import TILES_VARIANT, MegaJackpotGame
from companion.engine.games.mega_jackpot.state import MegaJackpotState

__all__ = ["TILES_VARIANT", "FlipOdds", "MegaJackpotGame", "MegaJackpotState", "flip_choices", "flip_odds"]
