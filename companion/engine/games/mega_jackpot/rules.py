"""Mega Jackpot's rules (the game as a whole, its actions and rulings: the package docstring)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.codec import to_data
from companion.engine.errors import ConfigError, IllegalActionError
from companion.engine.events import Event, GameEnded, JackpotHit, TurnEnded, TurnStarted
from companion.engine.game import CardFace, Game, GameResult
from companion.engine.games.mega_jackpot import adjudication, strategy
from companion.engine.games.mega_jackpot.components import (
    DISCARDS,
    GENIE,
    MONKEY,
    PILES,
    START_PREFIX,
    SYMBOLS,
    TRAYS,
    Components,
    card_faces_of,
    components_for,
    default_components,
    face_id,
    jackpot_symbol,
    side_symbols,
    split_face,
)
from companion.engine.games.mega_jackpot.odds import FlipOdds, flip_actions, flip_odds
from companion.engine.games.mega_jackpot.state import (
    DiscardRefilled,
    Flipped,
    InstantWin,
    JackpotCashed,
    MegaJackpotAttempted,
    MegaJackpotState,
    Reveal,
    SpinLanded,
    SpinPaid,
    TileFlipped,
    TilesShuffled,
    TrayBankrupt,
    TrayWon,
    add_cards,
    remove_card,
)
from companion.engine.games.mega_jackpot.transcript import describe_action
from companion.engine.registry import register

TILES_VARIANT = "tiles"

# --- the rules -----------------------------------------------------------------------------------


@register
class MegaJackpotGame(Game[MegaJackpotState]):
    """The rules of Mega Jackpot, for ``GameConfig("mega-jackpot", players=2-4, variants=...)``."""

    id = "mega-jackpot"
    title = "Mega Jackpot"
    min_players = 2
    max_players = 4
    variants = {
        TILES_VARIANT: "Mega Jackpot tiles: bet a jackpot in a money tray and flip a tile "
                       "(genie wins the tray, the last monkey empties it)",
    }
    state_type = MegaJackpotState

    def __init__(self, config: Any) -> None:
        super().__init__(config)
        self.components: Components = components_for(self.config.options)
        for kind, per_player in self.components.start_per_player.items():
            if per_player * config.players > self.components.start_total.get(kind, 0):
                raise ConfigError(
                    f"not enough {kind} starting cards in the box for {config.players} players"
                )

    @property
    def tiles(self) -> bool:
        """True when the Mega Jackpot tiles are in play."""
        return self.has_variant(TILES_VARIANT)

    @classmethod
    def card_faces(cls) -> list[CardFace]:
        """Jackpot cards by front + reel side (``apple@apple-cherry``) and the starting cards."""
        return card_faces_of(default_components())

    # --- setup and chance ------------------------------------------------------------------------

    def initial_state(self) -> MegaJackpotState:
        """Piles laid reel side up, starting cards dealt; the table reveals the top reel sides."""
        state = MegaJackpotState(
            in_front=[dict(self.components.start_per_player) for _ in range(self.config.players)],
            pile_sizes=self.components.pile_sizes(),
            pile_tops=[None] * PILES,
            unknown=dict(self.components.cards),
            tiles_down=sum(self.components.tiles.values()) if self.tiles else 0,
            pending=[Reveal("side", pile) for pile in range(PILES)],
            then="start",
        )
        for hand in state.in_front:
            for kind in [k for k, n in hand.items() if n == 0]:
                del hand[kind]
        return state

    def chance_point(self, state: MegaJackpotState) -> ChancePoint | None:
        """The next reel side, card front or tile the table reveals."""
        if state.over or not state.pending:
            return None
        reveal = state.pending[0]
        if reveal.kind == "side":
            return ChancePoint("reel-side", f"the reel side of the top card of pile {reveal.pile + 1}",
                               tuple(self.buried_sides(state).items()))
        if reveal.kind == "front":
            side = state.pile_tops[reveal.pile]
            assert side is not None, "a flipped card always showed its reel side"
            low, high = side_symbols(side)
            outcomes = tuple((front, state.unknown.get(face_id(front, side), 0)) for front in (low, high))
            what = f"the card from pile {reveal.pile + 1} ({low}/{high} reel) on discard {reveal.target + 1}"
            return ChancePoint("flip", what, tuple((front, n) for front, n in outcomes if n > 0))
        down = self.face_down_tiles(state)
        return ChancePoint("tile", f"the Mega Jackpot tile flipped for tray {reveal.target + 1}",
                           tuple((kind, n) for kind, n in down.items() if n > 0))

    def buried_sides(self, state: MegaJackpotState) -> dict[str, int]:
        """Cards under the pile tops by reel side: unknown cards minus the tops showing."""
        counts: dict[str, int] = {}
        for face, count in state.unknown.items():  # asked at every reveal: split_face is cached
            side = split_face(face)[1]
            counts[side] = counts.get(side, 0) + count
        for top in state.pile_tops:
            if top is not None:
                remove_card(counts, top)
        return {side: n for side, n in counts.items() if n > 0}

    def face_down_tiles(self, state: MegaJackpotState) -> dict[str, int]:
        """Face-down tiles by kind (all tiles minus those face up)."""
        return {kind: n - state.tiles_up.count(kind) for kind, n in self.components.tiles.items()}

    def apply_outcome(self, state: MegaJackpotState, point: ChancePoint, outcome: str) -> list[Event]:
        """Apply a revealed reel side, card front or tile."""
        reveal = state.pending.pop(0)
        events: list[Event] = []
        if reveal.kind == "side":
            state.pile_tops[reveal.pile] = outcome
        elif reveal.kind == "front":
            side = state.pile_tops[reveal.pile]
            assert side is not None
            face = face_id(outcome, side)
            remove_card(state.unknown, face)
            state.pile_sizes[reveal.pile] -= 1
            state.pile_tops[reveal.pile] = None
            state.discards[reveal.target].append(face)
        else:
            events += self._tile_flipped(state, reveal.target, outcome)
            state.then = "end_turn"
        if not state.pending and not state.over:
            events += self._all_revealed(state)
        return events

    def _take_top(self, state: MegaJackpotState, pile: int, discard: int) -> None:
        """Queue the reveals of moving pile ``pile``'s top card onto ``discard``."""
        state.pending.append(Reveal("front", pile, discard))

    def _queue_new_tops(self, state: MegaJackpotState, piles: list[int]) -> None:
        for pile in piles:
            if state.pile_sizes[pile] > 1:
                state.pending.append(Reveal("side", pile))

    def _all_revealed(self, state: MegaJackpotState) -> list[Event]:
        """Everything pending is on the table: check the spin, or refill and move on."""
        if state.then == "spin":
            tops = state.discard_tops()
            symbol = jackpot_symbol(tops)
            events: list[Event] = [SpinLanded(state.current, tuple(tops), symbol)]
            if symbol is None:
                state.phase = "spun"
                return events
            state.phase = "jackpot"
            return [*events, JackpotHit(state.current, symbol, 3 * self.components.values[symbol])]
        refill = self._refill_next(state)
        if refill is not None:
            return [refill]
        if state.then == "start":
            return self._start_turn(state, 0)
        return self._end_turn(state)

    def _refill_next(self, state: MegaJackpotState) -> DiscardRefilled | None:
        """Never an empty discard: flip the pile above it (or the next pile to the right)."""
        for discard, stack in enumerate(state.discards):
            if stack:
                continue
            for step in range(PILES):
                pile = (discard + step) % PILES
                if state.pile_sizes[pile] > 0:
                    self._take_top(state, pile, discard)
                    self._queue_new_tops(state, [pile])
                    return DiscardRefilled(discard, pile)
        return None

    def _start_turn(self, state: MegaJackpotState, seat: int) -> list[Event]:
        state.current, state.phase, state.paid, state.spins = seat, "flip", 0, 0
        state.turns += 1
        return [TurnStarted(seat)]

    def _end_turn(self, state: MegaJackpotState) -> list[Event]:
        """The turn is over: the game ends if a reel pile ran out, else the next player."""
        events: list[Event] = [TurnEnded(state.current)]
        if any(size == 0 for size in state.pile_sizes):
            return events + self._end_game(state)
        return events + self._start_turn(state, (state.current + 1) % self.config.players)

    def _end_game(self, state: MegaJackpotState) -> list[Event]:
        state.over, state.phase = True, "over"
        state.pending.clear()
        result = self.result(state)
        return [GameEnded(result.scores, result.winners)]

    # --- decisions ---------------------------------------------------------------------------------

    def is_over(self, state: MegaJackpotState) -> bool:
        """True once the game has ended (a reel pile ran out, or an instant win)."""
        return state.over

    def ever_revealed(self, point: ChancePoint) -> set[str] | None:
        """The reel sides printed on the cards, or the tile kinds; a flipped front depends on
        the card's reel side (unknown here), so that one is not said."""
        if point.kind == "reel-side":
            return {split_face(face)[1] for face in self.components.cards}
        if point.kind == "tile":
            return set(self.components.tiles)
        return None

    def current_player(self, state: MegaJackpotState) -> int | None:
        """The seat whose turn it is, unless the table is revealing something."""
        if state.over or state.pending:
            return None
        return state.current

    def payable_values(self, state: MegaJackpotState) -> list[int]:
        """The card values the current player may pay now to spin again."""
        if state.phase != "spun" or not any(state.pile_sizes):
            return []
        held = sorted({self.components.value(kind) for kind in state.in_front[state.current]})
        if not held:
            return []
        if state.paid == 0:
            return [held[0]]
        return [value for value in held if value > state.paid]

    def decisions(self, state: MegaJackpotState) -> list[Action]:
        """Flip; or after a miss pay or stop; or after a jackpot cash out or attempt."""
        if self.current_player(state) is None:
            return []
        if state.phase == "flip":
            return list(flip_actions(tuple(side is not None for side in state.pile_tops)))
        if state.phase == "jackpot":
            attempts = [Action.of("attempt", tray) for tray in range(TRAYS)] if self.tiles else []
            return [Action.of("cash"), *attempts]
        values = self.payable_values(state)
        pays = [Action.of("pay", value, tray) for value in values for tray in range(TRAYS)]
        return [Action.of("stop"), *pays]

    def apply_decision(self, state: MegaJackpotState, action: Action) -> list[Event]:
        """Check and apply flip, pay, stop, cash or attempt."""
        handlers = {"flip": self._flip, "pay": self._pay, "stop": self._stop,
                    "cash": self._cash, "attempt": self._attempt}
        handler = handlers.get(action.verb)
        if handler is None:
            raise IllegalActionError(
                f"'{action.brief}' is not a Mega Jackpot move: flip, pay, stop, cash or attempt"
            )
        return handler(state, action)

    def _require_phase(self, state: MegaJackpotState, phase: str, doing: str) -> None:
        if state.phase == phase:
            return
        if state.phase == "flip":
            raise IllegalActionError(f"you cannot {doing} now: flip one or two cards first ('flip 0 1')")
        if state.phase == "jackpot":
            choices = "'cash' it or 'attempt' the Mega Jackpot" if self.tiles else "'cash' it"
            raise IllegalActionError(f"you cannot {doing} now: a jackpot is showing; {choices}")
        raise IllegalActionError(f"you cannot {doing} now: no jackpot; 'stop', or 'pay' a card to spin again")

    def _flip(self, state: MegaJackpotState, action: Action) -> list[Event]:
        self._require_phase(state, "flip", "flip")
        args = action.int_args()
        if len(args) not in (2, 4):
            raise IllegalActionError("flip one card ('flip PILE DISCARD') or two ('flip 0 1 2 2')")
        moves = tuple((args[i], args[i + 1]) for i in range(0, len(args), 2))
        for pile, discard in moves:
            if not (0 <= pile < PILES and 0 <= discard < DISCARDS):
                raise IllegalActionError("piles and discards are numbered 0, 1 and 2")
            if state.pile_sizes[pile] == 0:
                raise IllegalActionError(f"pile {pile + 1} is empty: flip from another pile")
        if len(moves) == 2:
            (pile, discard), (other, other_discard) = moves
            if pile == other or discard == other_discard:
                raise IllegalActionError("two cards go from two different piles onto two different discards")
            if pile > other:
                raise IllegalActionError(
                    f"name the lower pile first: 'flip {other} {other_discard} {pile} {discard}'"
                )
        state.spins += 1
        for pile, discard in moves:
            self._take_top(state, pile, discard)
        self._queue_new_tops(state, [pile for pile, _ in moves])
        state.then = "spin"
        return [Flipped(state.current, moves)]

    def _pay(self, state: MegaJackpotState, action: Action) -> list[Event]:
        self._require_phase(state, "spun", "pay to spin")
        args = action.int_args()
        if len(args) != 2:
            raise IllegalActionError("pay a card value into a tray: 'pay 1 0' (a 1-point card into tray 1)")
        value, tray = args
        if not 0 <= tray < TRAYS:
            raise IllegalActionError("the money trays are 0 and 1")
        allowed = self.payable_values(state)
        if value not in allowed:
            raise IllegalActionError(self._why_not_pay(state, value))
        hand = state.in_front[state.current]
        kind = min((k for k in hand if self.components.value(k) == value),
                   key=lambda k: (not k.startswith(START_PREFIX), k))
        remove_card(hand, kind)
        add_cards(state.trays[tray], kind)
        state.paid = value
        state.phase = "flip"
        return [SpinPaid(state.current, value, tray)]

    def _why_not_pay(self, state: MegaJackpotState, value: int) -> str:
        held = {self.components.value(kind) for kind in state.in_front[state.current]}
        if not any(state.pile_sizes):
            return "every reel pile is empty: nothing left to spin"
        if not held:
            return "you have no cards left to pay with: stop your turn"
        if value not in held:
            return f"you have no {value}-point card"
        if state.paid == 0:
            return f"the first spin you pay for costs your lowest card: {min(held)} point(s)"
        return f"each later spin this turn must cost more than the {state.paid} point(s) you paid last"

    def _stop(self, state: MegaJackpotState, action: Action) -> list[Event]:
        self._require_phase(state, "spun", "stop")
        if action.args:
            raise IllegalActionError("'stop' takes nothing after it")
        state.then = "end_turn"
        return self._all_revealed(state)

    def _take_jackpot(self, state: MegaJackpotState) -> tuple[str, list[str]]:
        faces = [stack.pop() for stack in state.discards]
        return split_face(faces[0])[0], faces

    def _cash(self, state: MegaJackpotState, action: Action) -> list[Event]:
        self._require_phase(state, "jackpot", "cash out")
        if action.args:
            raise IllegalActionError("'cash' takes nothing after it")
        symbol, _ = self._take_jackpot(state)
        add_cards(state.in_front[state.current], symbol, 3)
        events: list[Event] = [JackpotCashed(state.current, symbol, 3 * self.components.values[symbol])]
        state.then = "end_turn"
        return events + self._all_revealed(state)

    def _attempt(self, state: MegaJackpotState, action: Action) -> list[Event]:
        if not self.tiles:
            raise IllegalActionError("this game is played without the Mega Jackpot tiles: 'cash' the jackpot")
        self._require_phase(state, "jackpot", "attempt the Mega Jackpot")
        args = action.int_args()
        if len(args) != 1 or not 0 <= args[0] < TRAYS:
            raise IllegalActionError("bet in tray 0 or 1: 'attempt 0' or 'attempt 1'")
        tray = args[0]
        symbol, _ = self._take_jackpot(state)
        add_cards(state.trays[tray], symbol, 3)
        state.bet_symbol = symbol
        state.pending.append(Reveal("tile", target=tray))
        return [MegaJackpotAttempted(state.current, symbol, tray)]

    def _tile_flipped(self, state: MegaJackpotState, tray: int, tile: str) -> list[Event]:
        player = state.current
        events: list[Event] = [TileFlipped(player, tray, tile)]
        state.tiles_down -= 1
        state.tiles_up.append(tile)
        bet, state.bet_symbol = state.bet_symbol, None
        contents = state.trays[tray]
        cards = sum(contents.values())
        if tile == GENIE:
            points = sum(self.components.value(kind) * n for kind, n in contents.items())
            for kind, count in contents.items():
                add_cards(state.in_front[player], kind, count)
            state.trays[tray] = {}
            events.append(TrayWon(player, tray, cards, points))
            events += self._shuffle_tiles(state)
            if bet == GENIE:
                state.instant_winner = player
                events.append(InstantWin(player))
                events.append(TurnEnded(player))
                events += self._end_game(state)
            return events
        if state.tiles_up.count(MONKEY) >= self.components.tiles[MONKEY]:
            for kind, count in contents.items():
                add_cards(state.out_of_game, kind, count)
            state.trays[tray] = {}
            events.append(TrayBankrupt(tray, cards))
            events += self._shuffle_tiles(state)
        return events

    def _shuffle_tiles(self, state: MegaJackpotState) -> list[Event]:
        state.tiles_down += len(state.tiles_up)
        state.tiles_up = []
        return [TilesShuffled()]

    # --- results and checks -------------------------------------------------------------------------

    def points(self, cards: Mapping[str, int]) -> int:
        """The value of a pile of cards by kind."""
        return sum(self.components.value(kind) * n for kind, n in cards.items())

    def result(self, state: MegaJackpotState) -> GameResult:
        """Most points wins, equal shares; three genies with the genie tile win outright."""
        scores = tuple(self.points(hand) for hand in state.in_front)
        if state.instant_winner is not None:
            return GameResult(scores, (state.instant_winner,), "won at once: three genies and the genie tile")
        best = max(scores)
        return GameResult(scores, tuple(seat for seat, s in enumerate(scores) if s == best))

    def conserved(self, state: MegaJackpotState) -> dict[str, int]:
        """Cards by kind wherever they are (piles, discards, players, trays, out of the game), tiles."""
        faces = Counter(state.unknown)
        for stack in state.discards:
            faces.update(stack)
        totals: dict[str, int] = {}
        for face, count in faces.items():
            add_cards(totals, "card " + split_face(face)[0], count)
        for pile in (*state.in_front, *state.trays, state.out_of_game):
            for kind, count in pile.items():
                add_cards(totals, "card " + kind, count)
        totals["tiles"] = state.tiles_down + len(state.tiles_up)
        totals["pile cards"] = sum(state.pile_sizes) - sum(state.unknown.values())
        return totals

    def public_view(self, state: MegaJackpotState, viewer: int | None = None) -> dict[str, Any]:
        """The whole state (it holds no secret: hidden fronts are never stored) plus the
        discard tops, the scores and the face-down tiles."""
        data: dict[str, Any] = to_data(state)
        data["discard_tops"] = state.discard_tops()
        data["scores"] = list(self.result(state).scores)
        return data

    # --- odds, bots, transcript, adjudicate -------------------------------------------------------------

    def odds(self, state: MegaJackpotState) -> list[FlipOdds]:
        """The odds advisor for the current position: every flip with its exact jackpot chance."""
        return flip_odds(state.discard_tops(), state.pile_tops, state.unknown, self.components.values)

    def heuristic_action(self, state: MegaJackpotState, rng: random.Random) -> Action:
        """Flip for the best expected jackpot; pay to spin when that beats the card paid; bet a
        jackpot when the tray is worth the risk (see :mod:`.strategy`)."""
        return strategy.choose(self, state)

    def describe(self, state: MegaJackpotState, action: Action) -> str:
        """A transcript line, e.g. ``player 2 flips pile 1 onto discard 3`` (see ``transcript``)."""
        return describe_action(self, state, action)

    @classmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """``{"discards": [s, s, s]}`` -> ``{"jackpot": s or null, "points": n}``; with
        ``"reel_sides": [[a, b] x3]`` (null for an empty pile) also ``"odds"`` for every flip."""
        return adjudication.adjudicate(situation)


__all__ = ["SYMBOLS", "MegaJackpotGame", "MegaJackpotState", "Reveal"]
