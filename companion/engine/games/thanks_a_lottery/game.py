"""The rules of Thanks a Lottery: rounds, turns, blocks, dice, finalizing and the lottery.

See the package docstring for the action text forms. Rulebook: seed 003; docs/rulings.md decides
the rest.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Mapping
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.codec import to_data
from companion.engine.errors import ConfigError, IllegalActionError
from companion.engine.events import (
    CardTaken,
    Event,
    GameEnded,
    JackpotHit,
    RoundEnded,
    TurnEnded,
    TurnStarted,
)
from companion.engine.game import CardFace, Game, GameConfig, GameResult
from companion.engine.games.thanks_a_lottery import adjudication, dice, explain
from companion.engine.games.thanks_a_lottery.blocks import Extension, Shape
from companion.engine.games.thanks_a_lottery.bot import choose
from companion.engine.games.thanks_a_lottery.components import DEFAULT, NUMBERS, WILD, Components
from companion.engine.games.thanks_a_lottery.moves import (
    ADD,
    KEEP,
    LONG_GAME,
    LUCKY_CARD,
    PASS,
    PLAY,
    REPLACE,
    TAKE_DIE,
    block_decisions,
    block_moves,
    can_replace,
    finalize_moves,
    picked_dice,
    play_moves,
    take_moves,
)
from companion.engine.games.thanks_a_lottery.scoring import lucky_number, round_score, space_points
from companion.engine.games.thanks_a_lottery.state import (
    ACT,
    DRAW,
    FINALIZE,
    LOTTERY,
    OVER,
    REROLL,
    SETUP,
    TAKE,
    Block,
    BlockPlayed,
    CardsAdded,
    DiceRerolled,
    DieTaken,
    LotteryState,
    RoundScored,
    RoundStopped,
    WildReplaced,
    hand_summary,
    insort_card,
    remove_cards,
    take_from_deck,
)
from companion.engine.games.thanks_a_lottery.transcript import describe
from companion.engine.registry import register

#: see ``ThanksALottery._offered``
_Offered = tuple[LotteryState, Mapping[Action, Shape], dict[str, dict[Action, Extension]]]
_PASS = Action.of(PASS)


@register
class ThanksALottery(Game[LotteryState]):
    """Thanks a Lottery for 2-6 players: ``GameConfig("thanks-a-lottery", players=4)``.

    Options: ``components`` (a table replacing keys of ``thanks_a_lottery.toml``) and
    ``first_dealer`` (the seat that deals round 1; default the last seat, so seat 0 starts).
    """

    id = "thanks-a-lottery"
    title = "Thanks a Lottery"
    min_players = 2
    max_players = 6
    variants = {
        LUCKY_CARD: "cards in your blocks matching the middle prize token score +1/+2/+3 in rounds 1/2/3",
        LONG_GAME: "an empty hand does not end the round; only an empty dice pool or deck does",
    }
    state_type = LotteryState

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.components = Components.load(config.options.get("components"))
        if self.components.deck_size <= self.components.hand_size * config.players:
            raise ConfigError(
                f"{self.components.deck_size} cards cannot deal {config.players} hands of "
                f"{self.components.hand_size} and leave a deck"
            )
        dealer = config.options.get("first_dealer", config.players - 1)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < config.players:
            raise ConfigError(f"option 'first_dealer' must be a seat 0-{config.players - 1}, not {dealer!r}")
        self.first_dealer = dealer
        self._long_game = self.has_variant(LONG_GAME)  # asked at every turn
        #: what :meth:`decisions` last offered on the act phase, for :meth:`apply_legal_decision`
        #: (a bot's pick from that very list): the state, its ``play`` moves with their shapes,
        #: and its ``add`` moves with their growths by block id. Any move applied forgets it.
        self._offered: _Offered | None = None

    # --- components ------------------------------------------------------------------------

    @classmethod
    def card_faces(cls) -> list[CardFace]:
        """The seven numbers and the wild."""
        faces = [
            CardFace(id=str(n), name=str(n), symbols=(str(n),), count=DEFAULT.cards[str(n)],
                     text="Blocks: 3+ of the same number, or in sequence (7 wraps to 1)")
            for n in NUMBERS
        ]
        faces.append(CardFace(id=WILD, name="Wild", symbols=(WILD,), count=DEFAULT.cards[WILD],
                              text="Stands for one number in your own block; one wild per block"))
        return faces

    # --- state and setup -------------------------------------------------------------------

    def initial_state(self) -> LotteryState:
        """Round 1, about to deal."""
        state = LotteryState(players=self.config.players, dealer=self.first_dealer)
        self._setup_round(state)
        return state

    def _setup_round(self, state: LotteryState) -> None:
        """Every card back in the deck, every die back to be rolled, every token in the tin."""
        players = state.players
        state.phase = SETUP
        state.turn = (state.dealer + 1) % players
        state.deck = {card: n for card, n in self.components.cards.items() if n}
        state.to_deal = self.components.hand_size * players
        state.hands = [[] for _ in range(players)]
        state.blocks = []
        state.to_roll, state.pool = self.components.dice, []
        state.dice = [[] for _ in range(players)]
        state.dice_owed, state.ender, state.deciders = 0, None, []
        state.rerolling, state.drawn = [], []

    def tin(self, state: LotteryState) -> list[str]:
        """The tokens still in the tin: one of each, less those drawn this round."""
        return [token for token in self.components.tokens if token not in state.drawn]

    def prizes(self, state: LotteryState) -> tuple[int, ...]:
        """This round's prize card, lowest space first."""
        return self.components.prizes[state.round]

    # --- whose move ------------------------------------------------------------------------

    def chance_point(self, state: LotteryState) -> ChancePoint | None:
        """Dealing, rolling the pool, drawing, re-rolling and the lottery are chance."""
        if state.phase == SETUP and state.to_deal:
            dealt = self.components.hand_size * state.players - state.to_deal
            seat = (state.dealer + 1 + dealt) % state.players
            return ChancePoint.from_deck("deal", dice.deal_what(dealt // state.players, seat), state.deck)
        if state.phase == SETUP:
            count, faces = self.components.dice, self.components.die_faces
            return dice.pool_roll(count - state.to_roll + 1, count, faces)
        if state.phase == DRAW:
            return ChancePoint.from_deck("draw", dice.draw_what(state.turn), state.deck)
        if state.phase == REROLL:
            return dice.reroll(state.rerolling[0], self.components.die_faces)
        if state.phase == LOTTERY:
            space = len(state.drawn)
            what = f"lottery token {space + 1} (the {self.prizes(state)[space]}-point space)"
            return ChancePoint("draw", what, tuple((token, 1) for token in self.tin(state)))
        return None

    def ever_revealed(self, point: ChancePoint) -> tuple[str, ...]:
        """The card ids, the die faces, or the tokens in the tin."""
        if point.kind == "roll":
            return tuple(name for name, _ in self._faces())
        if point.what.startswith("lottery token"):
            return self.components.tokens
        return tuple(card for card, count in self.components.cards.items() if count)

    def _faces(self) -> tuple[tuple[str, int], ...]:
        return dice.faces(self.components.die_faces)

    def current_player(self, state: LotteryState) -> int | None:
        """The seat on turn (acting or taking dice), or the next seat finalizing its dice."""
        if state.phase in (ACT, TAKE):
            return state.turn
        if state.phase == FINALIZE:
            return state.deciders[0]
        return None

    def is_over(self, state: LotteryState) -> bool:
        """True after the third round's lottery."""
        return state.phase == OVER

    # --- decisions -------------------------------------------------------------------------

    def decisions(self, state: LotteryState) -> list[Action]:
        """Every legal decision of the current player (see the package docstring)."""
        if state.phase == ACT:
            seat = state.turn
            counts, wilds, held = hand_summary(tuple(state.hands[seat]))
            plays = play_moves(counts, wilds)
            actions = list(plays)
            growths: dict[str, dict[Action, Extension]] = {}
            if state.has_block(seat):
                actions += block_decisions(state.blocks, seat, counts, wilds, growths, held)
            actions.append(_PASS)
            self._offered = (state, plays, growths)
            return actions
        if state.phase == TAKE:
            return list(take_moves(frozenset(state.pool)))
        if state.phase == FINALIZE:
            return list(finalize_moves(tuple(state.dice[state.deciders[0]])))
        return []

    def add_options(self, state: LotteryState, seat: int, block: Block) -> dict[Action, Extension]:
        """``add`` actions for ``block`` by ``seat``, with what each adds."""
        # Wilds only go into the player's own blocks.
        wilds = state.wilds(seat) if block.owner == seat else 0
        return block_moves(state.block_id(block), block.kind, block.first, block.size, block.wild_at,
                           state.counts(seat), wilds)

    def _replaceable(self, state: LotteryState, seat: int) -> list[Block]:
        counts = state.counts(seat)
        return [b for b in state.blocks if can_replace(b, seat, counts)]

    def apply_decision(self, state: LotteryState, action: Action) -> list[Event]:
        """Check ``action`` against the legal moves, explaining a refusal; then apply it."""
        self._offered = None
        if state.phase == ACT:
            seat = state.turn
            if action.verb == PLAY:
                moves = play_moves(state.counts(seat), state.wilds(seat))
                shape = moves.get(action)
                if shape is None:
                    raise IllegalActionError(explain.play(state, seat, action, moves))
                return self._play(state, seat, shape)
            if action.verb == ADD and state.has_block(seat) and action.args:
                block_id = str(action.args[0])
                block = state.block(block_id)
                ext = self.add_options(state, seat, block).get(action) if block else None
                if block is not None and ext is not None:
                    return self._add(state, seat, block_id, block, ext)
            if action.verb == REPLACE and len(action.args) == 1 and state.has_block(seat):
                block_id = str(action.args[0])
                block = state.block(block_id)
                if block is not None and block in self._replaceable(state, seat):
                    return self._replace(state, seat, block_id, block)
            if action.verb == PASS and not action.args:
                return self._next_turn(state)
            named = state.block(str(action.args[0])) if action.args else None
            legal = list(self.add_options(state, seat, named)) if named and action.verb == ADD else []
            raise IllegalActionError(explain.act(state, seat, action, legal))
        if state.phase == TAKE:
            if action.verb == TAKE_DIE and len(action.args) == 1 and action.args[0] in state.pool:
                return self._take(state, int(action.args[0]))
            values = ", ".join(str(v) for v in sorted(set(state.pool)))
            raise IllegalActionError(
                f"player {state.turn + 1} takes {state.dice_owed} more die(s) from the pool, one at a "
                f"time by value: 'take N' with N one of {values}"
            )
        if state.phase == FINALIZE:
            seat = state.deciders[0]
            if action.verb == KEEP and not action.args:
                return self._finalize(state, seat, ())
            chosen = picked_dice(action, state.dice[seat])
            if chosen:
                return self._finalize(state, seat, chosen)
            raise IllegalActionError(explain.reroll(state, seat, action))
        raise IllegalActionError("nobody decides now: the table reveals something first")

    def apply_legal_decision(self, state: LotteryState, action: Action) -> list[Event]:
        """:meth:`apply_decision` for a move taken from :meth:`decisions` of this state: the
        move's shape or growth is looked up, not checked and explained again."""
        verb = action.verb
        offered, self._offered = self._offered, None
        if state.phase == ACT:
            seat = state.turn
            if offered is not None and offered[0] is not state:
                offered = None  # offered for another state (a copy): look the move up again
            if verb == PLAY:
                plays = offered[1] if offered else play_moves(state.counts(seat), state.wilds(seat))
                return self._play(state, seat, plays[action])
            if verb == PASS:
                return self._next_turn(state)
            block_id = str(action.args[0])
            block = state.block(block_id)
            assert block is not None  # a move from decisions() names a block of this round
            if verb == ADD:
                growths = offered[2][block_id] if offered else self.add_options(state, seat, block)
                return self._add(state, seat, block_id, block, growths[action])
            return self._replace(state, seat, block_id, block)
        if state.phase == TAKE:
            return self._take(state, int(action.args[0]))
        if state.phase == FINALIZE:
            seat = state.deciders[0]
            return self._finalize(state, seat, action.int_args())  # keep: (), reroll: the dice
        return self.apply_decision(state, action)  # nobody decides now: the usual refusal

    # --- the turn's one action -------------------------------------------------------------

    def _play(self, state: LotteryState, seat: int, shape: Shape) -> list[Event]:
        block, block_id = Block.from_shape(seat, shape), state.next_block_id()
        state.blocks.append(block)
        cards = block.cards()
        remove_cards(state.hands[seat], cards)
        event = BlockPlayed(seat, block_id, tuple(cards))
        return [event, *self._end_action(state, seat)]

    def _add(self, state: LotteryState, seat: int, block_id: str, block: Block,
             ext: Extension) -> list[Event]:
        cards = [str(n) for n in ext.real_added] + ([WILD] if ext.wild is not None else [])
        grown = ext.result  # the block as it lies now: the same run, longer
        block.first, block.size, block.wild_at = grown.numbers[0], len(grown.numbers), grown.wild_at
        remove_cards(state.hands[seat], cards)
        if block.owner != seat:  # one die per card added to someone else's block
            state.dice_owed = len(ext.added)
        event = CardsAdded(seat, block_id, block.owner, tuple(cards))
        return [event, *self._end_action(state, seat)]

    def _replace(self, state: LotteryState, seat: int, block_id: str, block: Block) -> list[Event]:
        number = block.wild_number
        assert number is not None
        block.wild_at = None
        state.hands[seat].remove(str(number))
        insort_card(state.hands[seat], WILD)
        state.dice_owed = 1
        event = WildReplaced(seat, block_id, block.owner, number)
        return [event, *self._end_action(state, seat)]

    def _take(self, state: LotteryState, value: int) -> list[Event]:
        state.pool.remove(value)
        bisect.insort(state.dice[state.turn], value)
        state.dice_owed -= 1
        return [DieTaken(state.turn, value), *self._end_action(state, state.turn)]

    def _end_action(self, state: LotteryState, seat: int) -> list[Event]:
        """Take the dice owed (by hand when there is a choice), then end the turn or the round."""
        events: list[Event] = []
        # No choice left: fewer dice than owed (take what remains), or all show one value.
        while state.dice_owed and state.pool and (
            state.dice_owed >= len(state.pool) or len(set(state.pool)) == 1
        ):
            value = state.pool.pop()
            bisect.insort(state.dice[seat], value)
            state.dice_owed -= 1
            events.append(DieTaken(seat, value))
        if not state.pool:
            return events + self._end_round(state, seat, "took the last die from the pool")
        if state.dice_owed:
            state.phase = TAKE
            return events
        return events + self._next_turn(state)

    def _next_turn(self, state: LotteryState) -> list[Event]:
        seat = state.turn
        return [TurnEnded(seat), *self._start_turn(state, (seat + 1) % state.players)]

    def _start_turn(self, state: LotteryState, seat: int) -> list[Event]:
        state.turn = seat
        events: list[Event] = [TurnStarted(seat)]
        if not self._long_game and not state.hands[seat] and state.dice[seat]:
            return events + self._end_round(state, seat, "started a turn with no cards and at least one die")
        if not sum(state.deck.values()):
            return events + self._end_round(state, seat, "could not draw: the deck ran out")
        state.phase = DRAW
        return events

    # --- the end of a round --------------------------------------------------------------------

    def _end_round(self, state: LotteryState, seat: int, reason: str) -> list[Event]:
        """Turns stop at once; everyone with dice finalizes, starting left of the dealer."""
        state.ender, state.dice_owed = seat, 0
        order = [(state.dealer + 1 + i) % state.players for i in range(state.players)]
        state.deciders = [s for s in order if state.dice[s]]
        state.phase = FINALIZE if state.deciders else LOTTERY
        return [TurnEnded(seat), RoundStopped(state.round, seat, reason)]

    def _finalize(self, state: LotteryState, seat: int, values: tuple[int, ...]) -> list[Event]:
        for value in values:
            state.dice[seat].remove(value)
        state.rerolling += [seat] * len(values)
        state.deciders.pop(0)
        if not state.deciders:
            state.rerolling.sort()
            state.phase = REROLL if state.rerolling else LOTTERY
        return [DiceRerolled(seat, values)] if values else []

    def apply_outcome(self, state: LotteryState, point: ChancePoint, outcome: str) -> list[Event]:
        """Deal, roll, draw, re-roll or draw a lottery token."""
        self._offered = None
        if state.phase == SETUP and state.to_deal:
            dealt = self.components.hand_size * state.players - state.to_deal
            take_from_deck(state, outcome)
            insort_card(state.hands[(state.dealer + 1 + dealt) % state.players], outcome)
            state.to_deal -= 1
            return []
        if state.phase == SETUP:
            bisect.insort(state.pool, int(outcome))
            state.to_roll -= 1
            return [] if state.to_roll else self._start_turn(state, (state.dealer + 1) % state.players)
        if state.phase == DRAW:
            take_from_deck(state, outcome)
            insort_card(state.hands[state.turn], outcome)
            state.phase = ACT
            return [CardTaken(state.turn, outcome, "deck")]
        if state.phase == REROLL:
            bisect.insort(state.dice[state.rerolling.pop(0)], int(outcome))
            if not state.rerolling:
                state.phase = LOTTERY
            return []
        state.drawn.append(outcome)
        if len(state.drawn) < self.components.tokens_drawn:
            return []
        return self._score_round(state)

    def lucky_bonus(self, state: LotteryState, seat: int) -> int:
        """Variant lucky-card: real cards of the middle token's number in ``seat``'s blocks."""
        number = lucky_number(state.drawn)
        if not self.has_variant(LUCKY_CARD) or number is None:
            return 0
        cards = sum(b.cards().count(str(number)) for b in state.blocks if b.owner == seat)
        return cards * self.components.lucky_card_bonus[state.round - 1]

    def _score_round(self, state: LotteryState) -> list[Event]:
        events: list[Event] = []
        scores = []
        for seat in range(state.players):
            won = space_points(self.prizes(state), state.drawn, state.dice[seat])
            for token, points in zip(state.drawn, won, strict=True):
                if points:
                    events.append(JackpotHit(seat, token, points))
            parts = {"block_cards": state.block_cards(seat), "dice": len(state.dice[seat]),
                     "lottery": sum(won), "lucky": self.lucky_bonus(state, seat),
                     "hand": len(state.hands[seat])}
            score = round_score(**parts)
            events.append(RoundScored(seat, score=score, **parts))
            scores.append(score)
        state.round_scores.append(scores)
        events.append(RoundEnded(state.round, tuple(scores)))
        if state.round >= self.components.rounds:
            state.phase = OVER
            result = self.result(state)
            return [*events, GameEnded(result.scores, result.winners)]
        assert state.ender is not None
        state.round += 1
        state.dealer = state.ender  # the player who caused the round to end deals the next
        self._setup_round(state)
        return events

    # --- results and checks ------------------------------------------------------------------

    def result(self, state: LotteryState) -> GameResult:
        """Most points; tie: most points in the last round; then shared."""
        totals = state.totals
        best = max(totals)
        winners = [s for s in range(state.players) if totals[s] == best]
        if len(winners) > 1 and state.phase == OVER:
            last = state.round_scores[-1]
            top = max(last[s] for s in winners)
            winners = [s for s in winners if last[s] == top]
        detail = " / ".join(f"round {i + 1}: {r}" for i, r in enumerate(state.round_scores))
        return GameResult(tuple(totals), tuple(winners), detail)

    def conserved(self, state: LotteryState) -> dict[str, int]:
        """Cards by id (deck, hands, blocks), dice and tokens never change in number."""
        totals = {f"card {card}": 0 for card in self.components.cards}
        for card, n in state.deck.items():
            totals[f"card {card}"] += n
        for hand in state.hands:
            for card in hand:
                totals[f"card {card}"] += 1
        for block in state.blocks:
            for card in block.cards():
                totals[f"card {card}"] += 1
        totals["dice"] = (state.to_roll + len(state.pool) + sum(len(d) for d in state.dice)
                          + len(state.rerolling))
        tin = self.tin(state)
        for token in self.components.tokens:
            totals[f"token {token}"] = tin.count(token) + state.drawn.count(token)
        return totals

    def public_view(self, state: LotteryState, viewer: int | None = None) -> dict[str, Any]:
        """The table's view: the deck's size, not its order; only ``viewer``'s own hand."""
        data: dict[str, Any] = to_data(state)
        data["deck"] = {"cards": sum(state.deck.values())}
        data["hand_sizes"] = [len(hand) for hand in state.hands]
        data["hands"] = [list(hand) if seat == viewer else None for seat, hand in enumerate(state.hands)]
        data["tin"], data["totals"] = self.tin(state), state.totals
        return data

    def describe(self, state: LotteryState, action: Action) -> str:
        """A transcript line, e.g. ``player 2 adds 6 to b1 (player 1's block)``."""
        return describe(self, state, action)

    # --- bots and adjudicate -------------------------------------------------------------------

    def heuristic_action(self, state: LotteryState, rng: random.Random) -> Action:
        """Play blocks, add to others' blocks for dice, end rounds when ahead (see ``bot``)."""
        return choose(self, state, rng)

    @classmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """A block's validity, or a round's lottery points and score (see ``adjudication``)."""
        return adjudication.adjudicate(situation)
