"""The Jackpot Payout game class: setup, chance points, decisions, results, views.

Actions (text form): chance ``reveal CARD_ID`` (a card from a player's deck, one chance point
per card; or a card for a display pile); decisions: see ``turn.py``, ``abilities.py``,
``expert.py`` and ``house.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.codec import to_data
from companion.engine.errors import ConfigError, IllegalActionError
from companion.engine.events import Event
from companion.engine.game import CardFace, Game, GameConfig, GameResult
from companion.engine.games.jackpot_payout import abilities, expert, house, turn  # noqa: F401  (steps)
from companion.engine.games.jackpot_payout.bots import heuristic_decision
from companion.engine.games.jackpot_payout.cards import (
    GAME_ID,
    PLAYABLE_SETS,
    Catalogue,
    default_catalogue,
    load_catalogue,
)
from companion.engine.games.jackpot_payout.core import (
    STEPS,
    Table,
    advance,
    needs_chance,
    refill_outcome,
    reveal_outcome,
    who,
)
from companion.engine.games.jackpot_payout.describe import describe_action
from companion.engine.games.jackpot_payout.evaluation import adjudicate_situation
from companion.engine.games.jackpot_payout.state import JackpotPayoutState, Seat, add

#: The FAQ: "You may mix cards from both sets to your liking. Make sure you have at least 60
#: cards in this new deck."
MIXED_DECK_MINIMUM = 60

VARIANTS = {
    "expert": "play with the Expert set instead of the Introductory set",
    "mixed": "shuffle the Introductory and Expert sets together (120 cards)",
}


# What each chance point reveals, in words: the same few texts at every reveal, made once.
@cache
def _reel_what(seat: int, reel: int) -> str:
    return f"{who(seat)}'s card for reel {reel}"


@lru_cache(maxsize=256)
def _draw_what(seat: int, reason: str) -> str:
    return f"the top card of {who(seat)}'s deck ({reason})"


@cache
def _display_what(slot: int) -> str:
    return f"the new card for display pile {slot + 1}"


class JackpotPayoutGame(Game[JackpotPayoutState]):
    """The rules of Jackpot Payout for 1-4 players (1: solo against The House)."""

    id = GAME_ID
    title = "Jackpot Payout"
    min_players = 1
    max_players = 4
    variants = VARIANTS
    state_type = JackpotPayoutState

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        components = config.options.get("components")
        self.catalogue: Catalogue = default_catalogue() if components is None else load_catalogue(components)
        self.table = Table(self.catalogue, config.players)
        if self.table.solo:
            self.house_cards = house.house_cards(self.catalogue, config.options)
        elif "house_cards" in config.options:
            raise ConfigError("house_cards is for solo games (1 player); multiplayer uses no House cards")
        else:
            self.house_cards = {}
        self._supply = self.supply()  # each new game's draw deck starts as a copy
        supply = sum(self._supply.values())
        if supply < self.catalogue.display_size:
            raise ConfigError(f"the chosen sets hold fewer than {self.catalogue.display_size} display cards")
        if self.has_variant("mixed") and supply < MIXED_DECK_MINIMUM:
            raise ConfigError(f"a mixed display deck needs at least {MIXED_DECK_MINIMUM} cards "
                              f"(the rulebook's FAQ); the Introductory and Expert cards here make {supply}")

    # --- setup -------------------------------------------------------------------------------

    @property
    def sets(self) -> tuple[str, ...]:
        """The sets shuffled into the display's draw deck."""
        if self.has_variant("mixed"):
            return PLAYABLE_SETS
        return ("expert",) if self.has_variant("expert") else ("introductory",)

    def usable(self, solo_mark: bool, multiplayer_mark: bool) -> bool:
        """A card's 1+ (solo) / 2+ (multiplayer) mark allows it in this game."""
        return solo_mark if self.table.solo else multiplayer_mark

    def supply(self) -> dict[str, int]:
        """The display's draw deck: the regular and Special cards of the chosen sets, by id.

        In id order: cards only leave it, so it stays in order, and each display reveal's
        chance point (its outcomes sorted by id) then sorts it in one pass.
        """
        sets, cards = self.sets, self.catalogue.of_kind("regular") + self.catalogue.of_kind("special")
        return dict(sorted(
            (card.id, card.count) for card in cards
            if card.set in sets and self.usable(card.solo, card.multiplayer)
        ))

    def starting_deck(self) -> dict[str, int]:
        """One player's starting deck (solo: without Improve the Odds, with the House cards),
        in id order like the supply."""
        deck = {card.id: card.count for card in self.catalogue.of_kind("starting")
                if self.usable(card.solo, card.multiplayer)}
        for card, count in self.house_cards.items():
            add(deck, card, count)
        return dict(sorted(deck.items()))

    def initial_state(self) -> JackpotPayoutState:
        """The display is dealt first (seven chance points), then player 1's first turn."""
        bank = self.catalogue.bank[self.config.players]
        size = self.catalogue.display_size
        state = JackpotPayoutState(
            seats=[Seat(deck=self.starting_deck()) for _ in range(self.config.players)],
            supply=dict(self._supply),
            display=[None] * size,
            refill=list(range(size)),
            wilds=sum(card.count for card in self.catalogue.of_kind("coinless-wild")),
            bank=bank,
            box=self.catalogue.box_coins - bank,
            house_cards=dict(self.house_cards),
        )
        advance(self.table, state)
        return state

    # --- chance ------------------------------------------------------------------------------------

    def chance_point(self, state: JackpotPayoutState) -> ChancePoint | None:
        """The next card to reveal. Kinds: ``reel`` (a card into play), ``draw`` (a top card
        revealed for an ability), ``display`` (a card for a display pile)."""
        # core.needs_chance, spelt out: its answer and the point come from the same look.
        if state.over:
            return None
        if state.reveal_queue:
            seat_index = state.reveal_queue[0]
            seat = state.seats[seat_index]
            if not seat.deck:
                return None
            if state.step == "reveal":  # camera zone reel0..reel2 of the player whose turn it is
                reel = len(seat.play) + len(state.revealed) + 1
                return ChancePoint.from_deck("reel", _reel_what(seat_index, reel), seat.deck)
            return ChancePoint.from_deck("draw", _draw_what(seat_index, state.reveal_reason), seat.deck)
        if not state.refill:
            return None
        return ChancePoint.from_deck("display", _display_what(state.refill[0]), state.supply)

    def apply_outcome(self, state: JackpotPayoutState, point: ChancePoint, outcome: str) -> list[Event]:
        """Put the revealed card where it was revealed for, then run the rules on."""
        if state.reveal_queue:
            events = reveal_outcome(self.table, state, outcome)
        else:
            events = refill_outcome(state, outcome)
        return advance(self.table, state, events)

    # --- decisions ------------------------------------------------------------------------------------

    def ever_revealed(self, point: ChancePoint) -> Mapping[str, Any]:
        """Every card of this game's component table, by id."""
        return self.catalogue.cards

    def current_player(self, state: JackpotPayoutState) -> int | None:
        """The player whose turn it is decides everything (abilities included); None at a reveal."""
        if state.over or needs_chance(state):
            return None
        return state.current

    def decisions(self, state: JackpotPayoutState) -> list[Action]:
        """The current player's legal decisions at this step."""
        if self.current_player(state) is None:
            return []
        return STEPS[state.step].options(self.table, state)

    def apply_decision(self, state: JackpotPayoutState, action: Action) -> list[Event]:
        """Check the decision against the legal ones first, then apply it and run the rules on."""
        current = STEPS[state.step]
        if action not in self.decisions(state):
            reason = current.explain(self.table, state, action) if current.explain else None
            raise IllegalActionError(reason or f"'{action.brief}' is not possible now: {current.hint}")
        return self.apply_legal_decision(state, action)

    def apply_legal_decision(self, state: JackpotPayoutState, action: Action) -> list[Event]:
        """:meth:`apply_decision` without listing the decisions again to check ``action``."""
        return advance(self.table, state, STEPS[state.step].apply(self.table, state, action))

    def is_over(self, state: JackpotPayoutState) -> bool:
        """True once the Final Showdown (or the solo end) is over."""
        return state.over

    # --- results and checks ------------------------------------------------------------------------

    def result(self, state: JackpotPayoutState) -> GameResult:
        """Most coins wins; tie: most coins on the cards still owned; then shared. Solo: beat The House."""
        scores, winners, details = turn.standings(self.table, state)
        return GameResult(scores, winners, details)

    def conserved(self, state: JackpotPayoutState) -> dict[str, int]:
        """Every card is somewhere (per card id) and the coins are the box's 66 plus substitutes."""
        totals: dict[str, int] = {}
        piles: list[Mapping[str, int]] = [state.supply, state.removed]
        loose: list[str] = [*state.supply_bottom, *(c for c in state.display if c is not None)]
        loose += [r.card for r in state.revealed]
        for seat in state.seats:
            piles += [seat.deck, seat.discard]
            loose += [*seat.deck_top, *seat.play]
        for pile in piles:
            for card, count in pile.items():
                add(totals, card, count)
        for card in loose:
            add(totals, card)
        add(totals, self.table.coinless_wild, state.wilds)
        conserved = {f"card:{card}": count for card, count in sorted(totals.items())}
        coins = state.bank + state.box + state.house + sum(s.coins for s in state.seats) - state.substitutes
        conserved["coins"] = coins
        return conserved

    def public_view(self, state: JackpotPayoutState, viewer: int | None = None) -> dict[str, Any]:
        """Everything on the table; deck orders stay hidden (a deck shows its size; its owner
        also sees what is in it), and the display's draw deck shows only its size."""
        data: dict[str, Any] = to_data(state)
        for index, seat in enumerate(data["seats"]):
            seat["deck_count"] = state.seats[index].deck_size
            contents = seat.pop("deck")
            if viewer == index:
                seat["deck_contents"] = contents
        data["supply_count"] = sum(state.supply.values()) + len(state.supply_bottom)
        del data["supply"]
        del data["supply_bottom"]
        return data

    def describe(self, state: JackpotPayoutState, action: Action) -> str:
        """A transcript line, e.g. ``player 1 takes Grapes (2 coins) from display pile 3``."""
        return describe_action(self, state, action)

    # --- bots ------------------------------------------------------------------------------------------

    def heuristic_action(self, state: JackpotPayoutState, rng: random.Random) -> Action:
        """A fair opponent: see ``bots.py``."""
        return heuristic_decision(self.table, state, self.decisions(state), rng)

    # --- table tools -------------------------------------------------------------------------------------

    @classmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """Rule on three cards in play (see ``evaluation.adjudicate_situation``)."""
        return adjudicate_situation(situation)

    @classmethod
    def card_faces(cls) -> list[CardFace]:
        """Every distinct printed card of the data file (ids from the TOML)."""
        catalogue = default_catalogue()
        faces = []
        for card in catalogue.cards.values():
            count = card.count * catalogue.starting_decks if card.kind == "starting" else card.count
            text = catalogue.ability_text.get(card.ability, "") if card.ability else ""
            faces.append(CardFace(id=card.id, name=card.name, symbols=card.symbols, coins=card.coins,
                                  ability=card.ability, text=text, count=count))
        return faces
