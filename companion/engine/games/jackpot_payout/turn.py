"""The turn, the display, the end of the game and the Final Showdown.

A turn: reveal three cards (one fewer per Stuck Reel kept in play) -> resolve their abilities
in the order the player chooses (``resolve SLOT``; a lone ability starts by itself) -> a
jackpot is scored (Jackpot Shuffle may then return discards to the deck), otherwise
Consolation Prize pays and the player may take cards from the display (``take SLOT``,
``take wild``, ``done``) -> each Stuck Reel in play is kept or released (``keep``/``release``)
-> the cards in play go to the discard pile.

End (multiplayer): a player reaches 12 coins, or starts a turn with 6 or fewer cards in deck
plus discard pile; that turn finishes, then the Final Showdown: fewest coins first (equal coins:
lower seat first), each player reveals three cards, resolves them, and repeats while they hit
jackpots. Solo: see ``house.py``.
"""

from __future__ import annotations

from functools import cache

from companion.engine.actions import Action
from companion.engine.events import CardTaken, Event, GameEnded, JackpotHit, TurnEnded, TurnStarted
from companion.engine.games.jackpot_payout.abilities import consolation_prize, shopping_spree, stuck_reel
from companion.engine.games.jackpot_payout.core import (
    STEPS,
    Table,
    queue_reveals,
    start_ability,
    step,
)
from companion.engine.games.jackpot_payout.evaluation import (
    REELS,
    count_ability,
    display_allowance,
    jackpot_coins,
    jackpot_symbol,
)
from companion.engine.games.jackpot_payout.expert import jackpot_shuffle
from companion.engine.games.jackpot_payout.state import (
    CardScored,
    EndTriggered,
    JackpotPayoutState,
    ShowdownStarted,
    add,
    pay,
    total,
)

# --- standings -----------------------------------------------------------------------------------


def owned_coins(table: Table, state: JackpotPayoutState, seat: int) -> int:
    """Coins printed on the cards ``seat`` still owns (deck, discard pile, play area): the tie-break."""
    player = state.seats[seat]
    cards = [*player.deck_top, *player.play]
    cards += [c for pile in (player.deck, player.discard) for c, n in pile.items() for _ in range(n)]
    return sum(table.card(c).coins for c in cards)


def standings(table: Table, state: JackpotPayoutState) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """(scores, winners, details). Solo: the player wins only with more coins than The House."""
    scores = tuple(seat.coins for seat in state.seats)
    if table.solo:
        won = scores[0] > state.house
        verdict = "beats" if won else "does not beat"
        return scores, ((0,) if won else ()), f"player 1 {verdict} The House ({state.house} coins)"
    best = max(scores)
    tied = [s for s, coins in enumerate(scores) if coins == best]
    if len(tied) == 1:
        return scores, tuple(tied), ""
    # Tie: the most coins on the cards the player still owns; then the victory is shared.
    owned = {s: owned_coins(table, state, s) for s in tied}
    top = max(owned.values())
    winners = tuple(s for s in tied if owned[s] == top)
    return scores, winners, "tie broken by coins on owned cards: " + ", ".join(
        f"player {s + 1} {owned[s]}" for s in tied)


def game_over(table: Table, state: JackpotPayoutState) -> list[Event]:
    """The game ends now."""
    state.over, state.step = True, "over"
    state.reveal_queue, state.refill = [], []
    scores, winners, _ = standings(table, state)
    return [GameEnded(scores, winners)]


@step("over", "the game is over")
def over(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Nothing happens after the end."""
    return []


# --- the turn --------------------------------------------------------------------------------------


def begin_reveal(state: JackpotPayoutState) -> None:
    """Reveal three cards into play, one fewer per Stuck Reel kept there."""
    seat = state.seats[state.current]
    queue_reveals(state, [state.current] * (REELS - seat.kept), "the reels")
    state.step = "reveal"


@step("turn", "the turn starts")
def start_turn(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Start ``state.current``'s turn; a small deck triggers the end (multiplayer)."""
    state.turn += 1
    events: list[Event] = [TurnStarted(state.current)]
    seat = state.seats[state.current]
    if (not table.solo and not state.end_trigger
            and seat.deck_size + total(seat.discard) <= table.catalogue.end_cards):
        state.end_trigger = "cards"
        events.append(EndTriggered(state.current, "cards"))
    begin_reveal(state)
    return events


@step("reveal", "the cards are revealed")
def cards_revealed(table: Table, state: JackpotPayoutState) -> list[Event]:
    """The revealed cards go into play; their abilities wait to be resolved."""
    seat, cards = state.seats[state.current], table.catalogue.cards
    play, unresolved = seat.play, []
    seat.kept = 0  # the kept Stuck Reels are simply cards in play from now on
    for revealed in state.revealed:  # a loop, not comprehensions: three cards, every turn
        if cards[revealed.card].is_active:
            unresolved.append(len(play))
        play.append(revealed.card)
    state.revealed, state.unresolved = [], unresolved
    state.step = "order"
    return []


def _order_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    if len(state.unresolved) < 2:
        return []
    return [Action.of("resolve", slot) for slot in sorted(state.unresolved)]


def _order_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    slot = action.int_args()[0]
    state.unresolved.remove(slot)
    return start_ability(table, state, slot)


def _order_offers(table: Table, state: JackpotPayoutState) -> bool:
    return len(state.unresolved) >= 2  # _order_options is not empty


@step("order", "choose the next card whose ability resolves: 'resolve SLOT'", _order_options, _order_apply,
      offers=_order_offers)
def next_ability(table: Table, state: JackpotPayoutState) -> list[Event]:
    """A lone unresolved ability starts by itself; with none left the turn is settled."""
    if state.unresolved:
        return start_ability(table, state, state.unresolved.pop(0))
    state.step = "settle"
    return []


@step("settle", "the reels are settled")
def settle(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Jackpot: score the three cards. Otherwise Consolation Prize pays, then the display."""
    seat = state.seats[state.current]
    cards = table.cards(seat.play)
    symbol = jackpot_symbol(cards)
    events: list[Event] = []
    if symbol is not None:
        amount = jackpot_coins(cards)
        events.append(JackpotHit(state.current, symbol, amount))
        for card in seat.play:
            add(state.removed, card)
            events.append(CardScored(state.current, card))
        seat.play = []
        events += pay(state, state.current, amount)
        if count_ability(cards, "jackpot-shuffle"):
            return events + jackpot_shuffle(table, state)
        return events + after_jackpot(state)
    events += consolation_prize(state, cards)
    if state.in_showdown:
        return events + end_showdown_turn(table, state)
    state.takes_left, state.special_ok = display_allowance(cards)
    if shopping_spree(cards):
        state.takes_left = -1
    state.step = "take"
    return events


def after_jackpot(state: JackpotPayoutState) -> list[Event]:
    """After a jackpot the turn ends; in the Final Showdown the player reveals again."""
    if state.in_showdown:
        begin_reveal(state)
    else:
        state.step = "end-turn"
    return []


@step("jackpot-done", "the jackpot is scored")
def jackpot_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    """After Jackpot Shuffle's choices: the turn goes on as after any jackpot."""
    return after_jackpot(state)


# --- the display -----------------------------------------------------------------------------------


def takeable(table: Table, state: JackpotPayoutState) -> list[Action]:
    """The cards the player may take from the display now."""
    if state.takes_left == 0:
        return []
    cards, special_ok = table.catalogue.cards, state.special_ok
    actions = [
        _take_slot(slot) for slot, card in enumerate(state.display)
        if card is not None and (special_ok or not cards[card].is_special)
    ]
    if state.wilds:
        actions.append(_TAKE_WILD)
    return actions


def _can_take(table: Table, state: JackpotPayoutState) -> bool:
    """``takeable`` is not empty (the take step's ``offers``: asked after every card taken)."""
    if state.takes_left == 0:
        return False
    if state.wilds:
        return True
    cards, special_ok = table.catalogue.cards, state.special_ok
    return any(card is not None and (special_ok or not cards[card].is_special) for card in state.display)


_TAKE_WILD, _DONE = Action.of("take", "wild"), Action.of("done")


@cache
def _pile_words(slot: int) -> str:
    """``display pile N`` for a card taken from pile ``slot`` (the same few, at every take)."""
    return f"display pile {slot + 1}"


@cache
def _take_slot(slot: int) -> Action:
    """``take SLOT``, made once per slot (the display is offered at every take)."""
    return Action.of("take", slot)


def _take_options(table: Table, state: JackpotPayoutState) -> list[Action]:
    actions = takeable(table, state)
    if actions:
        actions.append(_DONE)
    return actions


def _take_apply(table: Table, state: JackpotPayoutState, action: Action) -> list[Event]:
    if action.verb == "done":
        state.takes_left = 0
        return []
    seat = state.seats[state.current]
    if action.args[0] == "wild":
        state.wilds -= 1
        card = table.coinless_wild
        source = "the coinless wilds"
    else:
        slot = int(action.args[0])
        shown = state.display[slot]
        assert shown is not None
        card = shown
        state.display[slot] = None
        state.refill.append(slot)
        source = _pile_words(slot)
    add(seat.discard, card)
    if state.takes_left > 0:
        state.takes_left -= 1
    return [CardTaken(state.current, card, source)]


def _take_explain(table: Table, state: JackpotPayoutState, action: Action) -> str | None:
    if action.verb != "take" or len(action.args) != 1:
        return None
    arg = action.args[0]
    if isinstance(arg, int) and 0 <= arg < len(state.display):
        card = state.display[arg]
        if card is None:
            return f"display pile {arg + 1} is empty"
        if table.card(card).is_special and not state.special_ok and state.takes_left:
            return "you can only take a Special card after revealing a pair"
    if arg == "wild" and not state.wilds:
        return "no coinless wild is left"
    if state.takes_left == 0:
        return "you have taken all the cards you may this turn"
    return None


@step("take", "take a card from the display ('take SLOT' or 'take wild'), or 'done'",
      _take_options, _take_apply, _take_explain, _can_take)
def display_done(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Done with the display: decide on the Stuck Reels in play."""
    state.takes_left, state.special_ok = 0, False
    return stuck_reel(table, state)


# --- end of the turn ---------------------------------------------------------------------------------


@step("end-turn", "the turn ends")
def end_turn(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Cards in play go to the discard pile (kept Stuck Reels stay); then the end triggers."""
    seat, stuck_kept = state.seats[state.current], state.stuck_kept
    discard = seat.discard
    kept = [seat.play[slot] for slot in sorted(stuck_kept)] if stuck_kept else []
    for slot, card in enumerate(seat.play):
        if not stuck_kept or slot not in stuck_kept:
            discard[card] = discard.get(card, 0) + 1  # state.add, at every turn's end
    seat.play, seat.kept, state.stuck_kept = kept, len(kept), []
    events: list[Event] = [TurnEnded(state.current)]
    if table.solo:
        return events + solo_turn_ended(table, state)
    if not state.end_trigger:
        for index, player in enumerate(state.seats):
            if player.coins >= table.catalogue.end_coins:
                state.end_trigger = "coins"
                events.append(EndTriggered(index, "coins"))
                break
    if state.end_trigger:
        return events + start_showdown(table, state)
    state.current = (state.current + 1) % table.players
    state.step = "turn"
    return events


# --- the Final Showdown --------------------------------------------------------------------------------


def showdown_order(state: JackpotPayoutState) -> list[int]:
    """Fewest coins first; equal coins in seat order."""
    return sorted(range(len(state.seats)), key=lambda s: (state.seats[s].coins, s))


def start_showdown(table: Table, state: JackpotPayoutState) -> list[Event]:
    """Everyone proceeds to the Final Showdown."""
    state.in_showdown = True
    state.showdown = showdown_order(state)
    return [ShowdownStarted(tuple(state.showdown)), *next_showdown_player(table, state)]


def next_showdown_player(table: Table, state: JackpotPayoutState) -> list[Event]:
    """The next player reveals; after the last one the game ends."""
    if not state.showdown:
        return game_over(table, state)
    state.current = state.showdown.pop(0)
    begin_reveal(state)
    return [TurnStarted(state.current)]


def end_showdown_turn(table: Table, state: JackpotPayoutState) -> list[Event]:
    """No jackpot: this player's final score is what is in their score pile."""
    seat = state.seats[state.current]
    for card in seat.play:
        add(seat.discard, card)
    seat.play, seat.kept = [], 0
    events: list[Event] = [TurnEnded(state.current)]
    if table.solo:
        return events + game_over(table, state)
    return events + next_showdown_player(table, state)


assert {"turn", "reveal", "order", "settle", "take", "end-turn", "jackpot-shuffle", "stuck"} <= set(STEPS)


# --- the solo end ---------------------------------------------------------------------------------------


def house_cards_eliminated(state: JackpotPayoutState) -> bool:
    """Every House card of this game has left it."""
    return all(state.removed.get(card, 0) >= count for card, count in state.house_cards.items())


def solo_turn_ended(table: Table, state: JackpotPayoutState) -> list[Event]:
    """After each solo turn: an empty bank or no House card left ends the game."""
    events: list[Event] = []
    if state.bank == 0:
        state.end_trigger = "bank"
    elif house_cards_eliminated(state):
        state.end_trigger = "house"
        events += pay(state, 0, state.bank)  # the player takes what is left in the bank
    if not state.end_trigger:
        state.step = "turn"
        return events
    events.append(EndTriggered(0, state.end_trigger))
    if state.seats[0].coins > state.house:
        return events + game_over(table, state)
    # One Final Showdown to overtake The House.
    state.in_showdown, state.showdown = True, []
    begin_reveal(state)
    return [*events, ShowdownStarted((0,)), TurnStarted(0)]
