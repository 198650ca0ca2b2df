"""Jackpot Payout's state (plain data), its events, and the small moves every rule uses.

Hidden information: the order of each player's deck is unknown, so a deck is a count of card
ids (``deck``) plus the cards known to lie on top of it (``deck_top``, put back by Filter 2 or
Imp). Every draw is a chance point over what is left. The display's draw deck is the same
(``supply``) plus the cards Flush put under it (``supply_bottom``, in order).

Coins: the bank, the rest of the box, The House's pile (solo), every score pile, and the
substitute tokens issued once all 66 coins are out. ``bank + box + scores + house -
substitutes`` is always the 66 coins of the box.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.engine.events import CoinsPaid, Event, event


@dataclass
class Seat:
    """One player's cards and coins."""

    #: the unknown part of the deck, by card id (its order is unknown: chance decides)
    deck: dict[str, int] = field(default_factory=dict)
    #: cards known to be on top of the deck, top first
    deck_top: list[str] = field(default_factory=list)
    discard: dict[str, int] = field(default_factory=dict)
    #: the play area, one card per reel, left to right
    play: list[str] = field(default_factory=list)
    #: Stuck Reels kept in play from the last turn, the first cards of ``play`` (this many fewer
    #: cards are revealed); back to 0 once the turn's cards are revealed
    kept: int = 0
    #: coins in the score pile
    coins: int = 0

    @property
    def deck_size(self) -> int:
        """Cards in the deck (known top cards included)."""
        return len(self.deck_top) + sum(self.deck.values())


@dataclass
class Revealed:
    """A card revealed for an ability and not yet put anywhere."""

    seat: int
    card: str


@dataclass
class JackpotPayoutState:
    """Plain data for one game of Jackpot Payout (1-4 players; 1 = solo against The House)."""

    seats: list[Seat]
    #: the display's draw deck (unknown order) by card id
    supply: dict[str, int]
    #: cards Flush put under the display's draw deck, in order (drawn after the rest)
    supply_bottom: list[str] = field(default_factory=list)
    #: the display, one card id per pile (None: empty, waiting or nothing left to refill)
    display: list[str | None] = field(default_factory=list)
    #: coinless wilds still available
    wilds: int = 0
    #: cards removed from the game (scored, Improve the Odds, The House), by card id
    removed: dict[str, int] = field(default_factory=dict)
    bank: int = 0
    #: coins still in the box (payments come from here once the bank is empty)
    box: int = 0
    #: substitute tokens handed out once all the box's coins are out
    substitutes: int = 0
    #: The House's coins (solo)
    house: int = 0
    #: House cards in this game (solo), by card id
    house_cards: dict[str, int] = field(default_factory=dict)
    current: int = 0
    #: what the rules wait for: see ``flow.STEPS``
    step: str = "turn"
    #: a sub-step of an ability (e.g. Guess Suit's "guess" then "revealed")
    stage: str = ""
    turn: int = 0
    #: seats whose top card must be revealed next, in order
    reveal_queue: list[int] = field(default_factory=list)
    #: why those cards are revealed (words for the table)
    reveal_reason: str = ""
    revealed: list[Revealed] = field(default_factory=list)
    #: display piles waiting for a card from the draw deck, in order
    refill: list[int] = field(default_factory=list)
    #: play slots whose ability has not resolved yet
    unresolved: list[int] = field(default_factory=list)
    #: the ability resolving now (None between abilities)
    ability: str | None = None
    #: the play slot of the card whose ability resolves now
    ability_slot: int = -1
    #: a number the ability needs: Predict Matches' count, House N left, Coin Sync's coins...
    number: int = 0
    #: Guess Suit's guess / Flush's suit
    named: str = ""
    #: seats still to act on (Generous recipients, Thief/Imp decisions)
    seats_left: list[int] = field(default_factory=list)
    #: display piles emptied during an ability, refilled when it ends
    emptied: list[int] = field(default_factory=list)
    #: display phase: cards the player may still take (-1: any number, Shopping Spree)
    takes_left: int = 0
    special_ok: bool = False
    #: play slots with a Stuck Reel still to decide on / decided to keep
    stuck_left: list[int] = field(default_factory=list)
    stuck_kept: list[int] = field(default_factory=list)
    #: why the end is coming: "", "coins", "cards" (multiplayer), "bank", "house" (solo)
    end_trigger: str = ""
    in_showdown: bool = False
    #: seats still to play their Final Showdown, in order
    showdown: list[int] = field(default_factory=list)
    over: bool = False


# --- events ---------------------------------------------------------------------------------------


@event
class CardRevealed(Event):
    """``card`` was revealed from ``player``'s deck (``reason`` in table words)."""

    player: int
    card: str
    reason: str


@event
class DeckReshuffled(Event):
    """``player``'s deck was empty: the discard pile (``cards`` of them) became the deck."""

    player: int
    cards: int


@event
class CardScored(Event):
    """``player`` scored ``card``: it leaves the game."""

    player: int
    card: str


@event
class CardRemoved(Event):
    """``card`` left the game from ``source`` (Improve the Odds, The House)."""

    card: str
    source: str


@event
class CardDiscarded(Event):
    """``card`` went to ``player``'s discard pile."""

    player: int
    card: str


@event
class DisplayRefilled(Event):
    """Display pile ``slot`` now shows ``card``."""

    slot: int
    card: str


@event
class AbilityResolved(Event):
    """``player`` resolved ``ability`` (``outcome`` in table words)."""

    player: int
    ability: str
    outcome: str


@event
class HouseCoinsPaid(Event):
    """The House took ``amount`` coins (solo)."""

    amount: int


@event
class EndTriggered(Event):
    """The end of the game is coming (``reason``: coins, cards, bank or house)."""

    player: int
    reason: str


@event
class ShowdownStarted(Event):
    """The Final Showdown begins; seats play in ``order``."""

    order: tuple[int, ...]


# --- small moves ----------------------------------------------------------------------------------


def add(pile: dict[str, int], card: str, count: int = 1) -> None:
    """Put ``count`` copies of ``card`` on a counted pile."""
    pile[card] = pile.get(card, 0) + count


def take(pile: dict[str, int], card: str) -> None:
    """Take one ``card`` off a counted pile (the caller checked it is there)."""
    left = pile[card] - 1
    if left:
        pile[card] = left
    else:
        del pile[card]


def total(pile: dict[str, int]) -> int:
    """Cards on a counted pile."""
    return sum(pile.values())


def shuffle_deck(seat: Seat) -> None:
    """Shuffle the deck: the known top cards join the unknown rest."""
    for card in seat.deck_top:
        add(seat.deck, card)
    seat.deck_top.clear()


def draw_coins(state: JackpotPayoutState, amount: int) -> str:
    """Take ``amount`` coins from the bank, then the box, then substitute tokens; returns the source."""
    from_bank = min(amount, state.bank)
    from_box = min(amount - from_bank, state.box)
    substitutes = amount - from_bank - from_box
    state.bank -= from_bank
    state.box -= from_box
    state.substitutes += substitutes
    parts = [name for name, n in (("bank", from_bank), ("box", from_box), ("substitutes", substitutes)) if n]
    return "+".join(parts) or "bank"


def pay(state: JackpotPayoutState, player: int, amount: int) -> list[Event]:
    """Pay ``player`` ``amount`` coins into their score pile."""
    if amount <= 0:
        return []
    source = draw_coins(state, amount)
    state.seats[player].coins += amount
    return [CoinsPaid(player, amount, source)]


def pay_house(state: JackpotPayoutState, amount: int) -> list[Event]:
    """Give The House ``amount`` coins (solo)."""
    if amount <= 0:
        return []
    draw_coins(state, amount)
    state.house += amount
    return [HouseCoinsPaid(amount)]
