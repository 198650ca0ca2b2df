"""Pay Line's rules: turns, rolls, jackpots, double or nothing, the end (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.errors import ConfigError, EngineError, IllegalActionError, InvalidSituationError
from companion.engine.events import CoinsPaid, Event, GameEnded, JackpotHit, TurnEnded, TurnStarted
from companion.engine.game import Game, GameConfig, GameResult
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
    rolling_dice,
    winners,
)
from companion.engine.registry import register
from companion.engine.situation import check_keys, excerpt, require_object, variants

# --- the rules ---------------------------------------------------------------------------------


@register
class PayLineGame(Game[PayLineState]):
    """The rules of Pay Line, for ``GameConfig("pay-line", players=2..4)``."""

    id = "pay-line"
    title = "Pay Line"
    min_players = 2
    max_players = 4
    state_type = PayLineState

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.components = PayLineComponents.from_config(config)
        parts = self.components
        if config.players not in parts.removed_chips:
            raise ConfigError(f"pay-line 'removed_chips' says nothing for {config.players} players")
        self.setup_bank = (
            parts.chips - parts.removed_chips[config.players]
            - parts.start_chips * config.players - sum(parts.boxes.values())
        )
        if self.setup_bank < 0:
            raise ConfigError(
                f"{parts.chips} chips are too few for {config.players} players: setup needs "
                f"{parts.chips - self.setup_bank} (remove fewer chips or add more)"
            )
        faces = tuple((s, n) for s, n in parts.die_faces.items() if n > 0)
        #: one chance point per die, built once: they never change during a game
        self._die_rolls = tuple(ChancePoint("roll", f"die {die + 1}", faces) for die in range(DICE))

    def initial_state(self) -> PayLineState:
        """Bags of 5, tokens dealt, boxes filled from the bank; seat 0 is about to roll."""
        parts = self.components
        return PayLineState(
            bags=[parts.start_chips] * self.config.players,
            tokens=[parts.tokens] * self.config.players,
            turns=[0] * self.config.players,
            bank=self.setup_bank,
            removed=parts.removed_chips[self.config.players],
            boxes=dict(parts.boxes),
        )

    def chance_point(self, state: PayLineState) -> ChancePoint | None:
        """The next die to come up, weighted by the faces of each colour."""
        rolling = rolling_dice(state)
        if state.over or not rolling:
            return None
        return self._die_rolls[rolling[0]]

    def ever_revealed(self, point: ChancePoint) -> tuple[str, ...]:
        """A die shows one of the game's colours."""
        return SYMBOLS

    def current_player(self, state: PayLineState) -> int | None:
        """The seat whose turn it is, unless dice are rolling or the game is over."""
        if state.over or None in state.dice:
            return None
        return state.current

    def is_over(self, state: PayLineState) -> bool:
        """The bank could not refill a box (or pay a double)."""
        return state.over

    # --- decisions -------------------------------------------------------------------------

    def can_take(self, state: PayLineState) -> bool:
        """True when the dice show a jackpot that pays now."""
        symbol = jackpot_symbol(state.dice)
        return symbol is not None and state.doubling in (None, symbol)

    def decisions(self, state: PayLineState) -> list[Action]:
        """Take the jackpot, go double or nothing, re-roll dice the bag can pay for, or walk."""
        if self.current_player(state) is None:
            return []
        seat = state.current
        actions = []
        if self.can_take(state):
            actions.append(Action.of("take"))
            if state.doubling is None and state.tokens[seat] > 0:
                actions.append(Action.of("double"))
        for size in range(1, min(state.bags[seat], DICE) + 1):
            actions += [Action.of("reroll", *dice) for dice in combinations(range(DICE), size)]
        actions.append(Action.of("walk"))
        return actions

    def apply_decision(self, state: PayLineState, action: Action) -> list[Event]:
        """Take, double, re-roll or walk; illegal ones raise before anything changes."""
        if action.verb == "reroll":
            return self._reroll(state, action)
        handlers = {"take": self._take, "double": self._double, "walk": self._walk}
        if action.verb not in handlers:
            raise IllegalActionError(
                f"'{action.brief}' is not a Pay Line move: take, reroll D, double or walk")
        if action.args:
            raise IllegalActionError(f"'{action.verb}' takes nothing after it")
        return handlers[action.verb](state)

    def _reroll(self, state: PayLineState, action: Action) -> list[Event]:
        dice = action.int_args()
        if not dice or list(dice) != sorted(set(dice)) or not all(0 <= d < DICE for d in dice):
            raise IllegalActionError("name each die to re-roll once, lowest first: 'reroll 0 2' (dice 0-2)")
        seat = state.current
        if state.bags[seat] < len(dice):
            raise IllegalActionError(
                f"re-rolling {len(dice)} dice costs {len(dice)} chips and your bag holds {state.bags[seat]}"
            )
        paid_into = []
        for die in dice:
            colour = state.dice[die]
            assert colour is not None, "every die shows a colour when a player decides"
            state.boxes[colour] += 1
            state.dice[die] = None
            paid_into.append(colour)
        state.bags[seat] -= len(dice)
        return [DiceRerolled(seat, dice, tuple(paid_into))]

    def _take(self, state: PayLineState) -> list[Event]:
        symbol = jackpot_symbol(state.dice)
        if symbol is None:
            raise IllegalActionError("there is no jackpot to take: that needs three of a kind")
        if state.doubling not in (None, symbol):
            raise IllegalActionError(
                f"double or nothing pays only three {state.doubling}: re-roll or walk away"
            )
        if state.doubling is not None:
            return self._pay_double(state, symbol)
        seat, amount = state.current, state.boxes[symbol]
        state.boxes[symbol] = 0
        state.bags[seat] += amount
        events: list[Event] = [JackpotHit(seat, symbol, amount), CoinsPaid(seat, amount, f"the {symbol} box")]
        return events + self._end_turn(state, emptied=symbol)

    def _pay_double(self, state: PayLineState, symbol: str) -> list[Event]:
        """The box's chips plus as much again from the bank; short: the other boxes, fullest first."""
        seat, inside = state.current, state.boxes[symbol]
        state.boxes[symbol] = 0
        from_bank = min(state.bank, inside)
        state.bank -= from_bank
        paid = [(f"the {symbol} box", inside), ("the bank", from_bank)]
        missing = inside - from_bank
        fullest_first = sorted(
            (s for s in SYMBOLS if s != symbol), key=lambda s: (-state.boxes[s], SYMBOLS.index(s))
        )
        for other in fullest_first:
            part = min(missing, state.boxes[other])
            state.boxes[other] -= part
            missing -= part
            paid.append((f"the {other} box", part))
        total = sum(amount for _, amount in paid)
        state.bags[seat] += total
        events: list[Event] = [JackpotHit(seat, symbol, total)]
        events += [CoinsPaid(seat, amount, source) for source, amount in paid if amount]
        if from_bank < inside:
            short = BankShort(symbol, inside, from_bank)
            reason = f"the bank could not pay double or nothing ({inside} due, {from_bank} in the bank)"
            return [*events, short, *self._end_turn(state, emptied=None, end_reason=reason)]
        return events + self._end_turn(state, emptied=symbol)

    def _double(self, state: PayLineState) -> list[Event]:
        symbol = jackpot_symbol(state.dice)
        if state.doubling is not None:
            raise IllegalActionError("you are playing double or nothing already")
        if symbol is None:
            raise IllegalActionError("double or nothing needs a jackpot showing: three of a kind")
        if state.tokens[state.current] <= 0:
            raise IllegalActionError("you have used your double-or-nothing token (once per game)")
        state.tokens[state.current] -= 1
        state.tokens_discarded += 1
        state.doubling = symbol
        state.dice = [None] * DICE
        return [DoubleOrNothing(state.current, symbol)]

    def _walk(self, state: PayLineState) -> list[Event]:
        return [WalkedAway(state.current, state.doubling), *self._end_turn(state, emptied=None)]

    def _end_turn(self, state: PayLineState, emptied: str | None, end_reason: str = "") -> list[Event]:
        """Refill the emptied box from the bank (or end the game), then pass the dice on."""
        events: list[Event] = [TurnEnded(state.current)]
        if emptied is not None:
            needed = max(0, self.components.boxes[emptied] - state.boxes[emptied])
            if needed > state.bank:
                events.append(BankShort(emptied, needed, state.bank))
                end_reason = (
                    f"the bank ({state.bank} chips) could not refill the {emptied} box ({needed} needed)"
                )
            else:
                state.bank -= needed
                state.boxes[emptied] += needed
                events.append(BoxRefilled(emptied, needed))
        state.doubling = None
        if end_reason:
            state.over = True
            state.end_reason = end_reason
            result = self.result(state)
            return [*events, GameEnded(result.scores, result.winners)]
        state.current = (state.current + 1) % len(state.bags)
        state.dice = [None] * DICE
        state.turn_started = False
        return events

    # --- chance ----------------------------------------------------------------------------

    def apply_outcome(self, state: PayLineState, point: ChancePoint, outcome: str) -> list[Event]:
        """The next rolling die shows ``outcome``; the free roll's first die starts the turn."""
        events: list[Event] = []
        if not state.turn_started:
            state.turn_started = True
            state.turns[state.current] += 1
            events.append(TurnStarted(state.current))
        state.dice[rolling_dice(state)[0]] = outcome
        symbol = jackpot_symbol(state.dice)
        if symbol is not None:
            events.append(ThreeOfAKind(state.current, symbol, pays=state.doubling in (None, symbol)))
        return events

    # --- results, checks, views --------------------------------------------------------------

    def result(self, state: PayLineState) -> GameResult:
        """Most chips in the bag wins; tie: fewer turns taken; then shared."""
        return GameResult(tuple(state.bags), winners(state.bags, state.turns), state.end_reason)

    def conserved(self, state: PayLineState) -> dict[str, int]:
        """Every chip is in a bag, a box, the bank or back in the game box; tokens held or discarded."""
        chips = sum(state.bags) + sum(state.boxes.values()) + state.bank + state.removed
        tokens = sum(state.tokens) + state.tokens_discarded
        return {"chips": chips, "tokens": tokens, "dice": len(state.dice)}

    @staticmethod
    def box_chips(state: PayLineState, box: str) -> int:
        """How many chips are in ``box`` (for the shake rattle only: never show this number)."""
        if box not in state.boxes:
            raise EngineError(f"Pay Line has no '{box}' box (boxes: {', '.join(SYMBOLS)})")
        return state.boxes[box]

    def public_view(self, state: PayLineState, viewer: int | None = None) -> dict[str, Any]:
        """The table's view: bags, bank, dice, levels; box contents only once the game is over."""
        boxes: list[dict[str, Any]] = []
        for symbol in SYMBOLS:
            box: dict[str, Any] = {"symbol": symbol, "refill_to": self.components.boxes[symbol]}
            if state.over:
                box["chips"] = state.boxes[symbol]
            boxes.append(box)
        return {
            "game": self.id,
            "bags": list(state.bags),
            "tokens": list(state.tokens),
            "turns": list(state.turns),
            "current": state.current,
            "bank": state.bank,
            "boxes": boxes,
            "dice": list(state.dice),
            "rolling": rolling_dice(state),
            "jackpot": jackpot_symbol(state.dice),
            "doubling": state.doubling,
            "over": state.over,
            "end_reason": state.end_reason,
        }

    def describe(self, state: PayLineState, action: Action) -> str:
        """A transcript line, e.g. ``player 1 re-rolls die 1 (black) and die 3 (yellow): 2 chips``."""
        who = f"player {state.current + 1}"
        if action.is_reveal:
            rolling = rolling_dice(state)
            die = rolling[0] + 1 if rolling else "?"
            return f"die {die} shows {action.args[0] if action.args else '?'}"
        symbol = jackpot_symbol(state.dice)
        if action.verb == "take" and symbol is not None:
            chips = state.boxes[symbol]
            if state.doubling is not None:
                return f"{who} wins double or nothing: the {symbol} box pays {chips} chips twice"
            return f"{who} takes the {symbol} box ({chips} chips)"
        if action.verb == "reroll":
            dice = [d for d in action.args if isinstance(d, int) and 0 <= d < DICE]
            picked = [f"die {d + 1} ({state.dice[d]})" for d in dice]
            chips = len(picked)
            return f"{who} re-rolls {' and '.join(picked)}: {chips} chip{'s' if chips != 1 else ''}"
        if action.verb == "double":
            return f"{who} goes double or nothing on three {symbol}"
        if action.verb == "walk":
            lost = f", losing double or nothing on {state.doubling}" if state.doubling else ""
            return f"{who} walks away{lost}"
        return f"{who}: {action}"

    # --- bots --------------------------------------------------------------------------------

    def heuristic_action(self, state: PayLineState, rng: random.Random) -> Action:
        """A sensible player. It shakes the boxes (as the rulebook encourages) and hears the count.

        - Double or nothing: collect the doubled jackpot; else re-roll the dice not showing its
          colour, as many as the bag pays for; walk away when broke.
        - A jackpot: go double or nothing when the box is large against the expected cost of
          rolling the same colour again (3 x (1 - p) / p chips for a face chance p) and the bag
          can pay that; else take it, except when taking would end the game (the bank cannot
          refill the box) with this player not winning: then walk away and let the game go on.
          A jackpot is never declined to chase another colour: a made jackpot always beats the
          chips a chase costs.
        - No jackpot: with a pair, re-roll the odd die; with three colours, keep the colour whose
          box is worth most after the expected cost of two more of it, re-roll the other two.
          Spend while the bag pays; walk away when broke.
        """
        seat = state.current
        showing = jackpot_symbol(state.dice)
        if state.doubling is not None:
            if showing == state.doubling:
                return Action.of("take")
            return self._reroll_towards(state, state.doubling)
        if showing is not None:
            chips = state.boxes[showing]
            ends_game = self.components.boxes[showing] > state.bank
            winning = self._would_win(state, seat, chips)
            if not (ends_game and winning) and self._double_pays_off(state, showing):
                return Action.of("double")
            if not ends_game or winning:
                return Action.of("take")
            return Action.of("walk")
        counts = {s: state.dice.count(s) for s in SYMBOLS}
        pair = [s for s in SYMBOLS if counts[s] == DICE - 1]
        if pair:
            return self._reroll_towards(state, pair[0])
        rollable = [s for s in SYMBOLS if self.components.die_faces[s] > 0]
        target = max(
            rollable,
            key=lambda s: state.boxes[s] - (DICE - counts[s]) / self.components.die_chance(s),
        )
        return self._reroll_towards(state, target)

    @staticmethod
    def _reroll_towards(state: PayLineState, target: str) -> Action:
        off = [d for d in range(DICE) if state.dice[d] != target]
        affordable = off[: state.bags[state.current]]
        return Action.of("reroll", *affordable) if affordable else Action.of("walk")

    def _double_pays_off(self, state: PayLineState, symbol: str) -> bool:
        chance = self.components.die_chance(symbol)
        expected_cost = DICE * (1 - chance) / chance
        seat = state.current
        affordable = state.bags[seat] >= expected_cost
        return state.tokens[seat] > 0 and affordable and state.boxes[symbol] >= 2 * expected_cost + 2

    @staticmethod
    def _would_win(state: PayLineState, seat: int, gain: int) -> bool:
        bags = list(state.bags)
        bags[seat] += gain
        return seat in winners(bags, state.turns)

    # --- adjudicate ------------------------------------------------------------------------------

    @classmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """Rule on three dice: ``{"dice": [s, s, s]}`` -> ``{"jackpot": colour or null}``.

        >>> PayLineGame.adjudicate({"dice": ["yellow", "yellow", "yellow"]})
        {'jackpot': 'yellow'}
        """
        situation = require_object(situation, cls.id, '{"dice": ["yellow", "yellow", "red"]}')
        check_keys(situation, ("dice",), cls.id)
        variants(situation, cls.variants, cls.id)
        if "dice" not in situation:
            raise InvalidSituationError(f'pay-line needs "dice": three colours ({", ".join(SYMBOLS)})')
        dice = situation["dice"]
        if not isinstance(dice, list):
            raise InvalidSituationError(f'"dice" must be a list of three colours, not {excerpt(dice)}')
        if len(dice) != DICE:
            raise InvalidSituationError(f'"dice" must list exactly three dice, not {len(dice)}')
        for index, die in enumerate(dice):
            if not isinstance(die, str) or die not in SYMBOLS:
                raise InvalidSituationError(
                    f"die {index + 1}: unknown Pay Line colour {excerpt(die)} (colours: {', '.join(SYMBOLS)})"
                )
        return {"jackpot": jackpot_symbol(dice)}
