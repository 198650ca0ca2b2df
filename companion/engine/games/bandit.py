"""Bandit: two players take turns at a one-armed bandit laid out in playing cards.

Rulebook: seed 004; decisions: docs/rulings.md "Bandit". The grid is 3 rows x 3 columns of stacks
(index ``row * 3 + column``); only the top card of a stack is visible. The first deal is the
first spin. After every spin all three rows are evaluated and each winning row becomes
claimable; the player may claim any of them, or none, and play on.

Actions (text form):

- ``reveal <symbol>``: the dealer lays one card (one chance point per card, row by row);
- ``claim R``: take the three visible cards of claimable row R (0-2);
- ``spin`` / ``spin C C`` / ``spin C``: spin the listed columns (all three when none are
  listed); the others are held. Offered only when the deck holds a card for every spun stack;
- ``stop``: the player ends this game now.

A match is two games with the roles swapped (seat 0 plays first); most points wins, equal
is shared. Between the two games all cards go back into the deck.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.data import load_components
from companion.engine.errors import ConfigError, IllegalActionError, InvalidSituationError
from companion.engine.events import (
    CardTaken,
    Event,
    GameEnded,
    JackpotHit,
    RoundEnded,
    TurnEnded,
    TurnStarted,
    event,
)
from companion.engine.game import CardFace, Game, GameConfig, GameResult
from companion.engine.registry import register
from companion.engine.situation import check_keys, excerpt, require_object, variants

ROWS = COLUMNS = 3
WILD = "any"
BLANK = "blank"
SYMBOLS = ("cherry", "plum", "bell", "seven", "bar", WILD, BLANK)
#: a row of three wilds pays as this symbol
ALL_WILD_PAYS_AS = "bar"
GAMES_PER_MATCH = 2

_COMPONENTS = load_components("bandit")
PAYOUTS: Mapping[str, int] = _COMPONENTS["payouts"]


def bandit_components(override: Any) -> dict[str, dict[str, int]]:
    """The card counts to play with: the TOML's, or ``override``'s tables replacing them.

    Checked like the other games' components, one line naming the bad value: every count a
    whole number of 0 or more, only Bandit's symbols, and enough cards for the first deal.

    >>> bandit_components({"deck": {"cherry": -1}})
    Traceback (most recent call last):
    ...
    companion.engine.errors.ConfigError: bandit components: 'cherry' needs a count of 0 or more, not -1
    """
    if override is None:
        override = {}
    if not isinstance(override, Mapping):
        raise ConfigError("option 'components' must be a table of component counts")
    unknown = [key for key in override if key not in ("deck", "bad_luck", "payouts")]
    if unknown:
        raise ConfigError(f"bandit components: unknown table {excerpt(unknown[0])} (tables: deck, bad_luck)")
    if "payouts" in override and override["payouts"] != _COMPONENTS["payouts"]:
        raise ConfigError("bandit components: the payouts are the rulebook's and cannot be changed")
    tables: dict[str, dict[str, int]] = {}
    for table, allowed in (("deck", SYMBOLS[:-1]), ("bad_luck", (BLANK,))):
        counts = override.get(table, _COMPONENTS[table])
        if not isinstance(counts, Mapping):
            raise ConfigError(f"bandit components: '{table}' must be a table of counts by symbol")
        for symbol, count in counts.items():
            if symbol not in allowed:
                raise ConfigError(f"bandit components: unknown symbol {excerpt(symbol)} in '{table}' "
                                  f"(symbols: {', '.join(allowed)})")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ConfigError(f"bandit components: '{symbol}' needs a count of 0 or more, "
                                  f"not {excerpt(count)}")
        tables[table] = {symbol: count for symbol, count in counts.items() if count}
    if sum(tables["deck"].values()) < ROWS * COLUMNS:
        raise ConfigError(f"bandit components: the deck needs at least {ROWS * COLUMNS} cards "
                          "for the first deal")
    return tables


#: what the dealer lays on each stack, for chance points (built once: asked at every deal)
_DEAL_WHAT = tuple(f"the card for row {stack // 3 + 1}, column {stack % 3 + 1}" for stack in range(9))


#: the spins a deck allows, by how many columns it can refill (0-3): all, two (hold one) or one
_SPINS = tuple(tuple(columns for width in (3, 2, 1) if width <= refillable
                     for columns in combinations(range(COLUMNS), width)) for refillable in range(COLUMNS + 1))
#: the decisions' actions, built once: bots ask for them at every step
_SPIN_ACTIONS = tuple(tuple(Action.of("spin") if len(columns) == COLUMNS else Action.of("spin", *columns)
                            for columns in spins) for spins in _SPINS)
_CLAIMS = tuple(Action.of("claim", row) for row in range(ROWS))
_STOP = Action.of("stop")


def _refillable(state: BanditState) -> int:
    """How many columns the deck can refill (0-3)."""
    refillable = sum(state.deck.values()) // ROWS
    return refillable if refillable < COLUMNS else COLUMNS


def stack_index(row: int, column: int) -> int:
    """The stack at ``row``, ``column`` (both 0-2)."""
    return row * COLUMNS + column


def row_symbol(cards: list[str | None]) -> str | None:
    """The symbol a row of three visible cards wins with, or None.

    ``any`` matches every symbol; three ``any`` pay as ``bar``; ``blank`` and empty stacks
    match nothing.

    >>> row_symbol(["bell", "any", "bell"])
    'bell'
    >>> row_symbol(["any", "any", "any"])
    'bar'
    >>> row_symbol(["any", "blank", "any"]) is None
    True
    """
    if len(cards) != COLUMNS:
        return None
    named = None
    for card in cards:  # a plain loop: asked for every row after every spin
        if card is None or card == BLANK:
            return None
        if card != WILD:
            if named is None:
                named = card
            elif card != named:
                return None
    return named if named is not None else ALL_WILD_PAYS_AS


@dataclass
class BanditState:
    """Plain data for one Bandit match (two games)."""

    #: 0 for the first game (seat 0 plays), 1 for the second (seat 1 plays)
    game_index: int
    #: the cards still in the deck, by symbol (their order is unknown: chance decides)
    deck: dict[str, int]
    #: the nine stacks, bottom card first
    stacks: list[list[str]] = field(default_factory=lambda: [[] for _ in range(ROWS * COLUMNS)])
    #: stacks waiting for the dealer's next card, in dealing order
    pending: list[int] = field(default_factory=list)
    #: True while the pending cards are a spin (rows are evaluated when it is dealt)
    pending_is_spin: bool = True
    #: rows that won on the last spin and have not changed since
    claimable: list[int] = field(default_factory=list)
    #: cards claimed in the current game by the playing seat, by symbol
    won: dict[str, int] = field(default_factory=dict)
    #: cards taken out of the game (variant replace-columns), by symbol
    out_of_game: dict[str, int] = field(default_factory=dict)
    #: points per seat over the match
    scores: list[int] = field(default_factory=lambda: [0, 0])
    #: points per seat after each finished game (for the score chart)
    game_scores: list[list[int]] = field(default_factory=list)
    spins: int = 0
    over: bool = False

    def top(self, row: int, column: int) -> str | None:
        """The visible card of a stack, or None when it is empty."""
        stack = self.stacks[stack_index(row, column)]
        return stack[-1] if stack else None

    def row_cards(self, row: int) -> list[str | None]:
        """The three visible cards of ``row``."""
        return [self.top(row, column) for column in range(COLUMNS)]

    @property
    def deck_size(self) -> int:
        """How many cards are left to deal."""
        return sum(self.deck.values())


@event
class RowsClaimable(Event):
    """After a spin these rows won and may be claimed (``symbols`` and ``points`` per row)."""

    rows: tuple[int, ...]
    symbols: tuple[str, ...]
    points: tuple[int, ...]


@event
class Spun(Event):
    """``player`` spun these columns (the others were held)."""

    player: int
    columns: tuple[int, ...]


@register
class BanditGame(Game[BanditState]):
    """The rules of Bandit, for ``GameConfig("bandit", players=2, variants=...)``."""

    id = "bandit"
    title = "Bandit"
    min_players = 2
    max_players = 2
    variants = {
        "bad-luck": "add the double blank card: it matches nothing, not even 'any'",
        "replace-columns": "a spin removes the spun columns' cards from the game",
    }
    state_type = BanditState

    def __init__(self, config: GameConfig) -> None:
        super().__init__(config)
        self.components = bandit_components(config.options.get("components"))

    # --- components ------------------------------------------------------------------------

    def full_deck(self) -> dict[str, int]:
        """The deck this configuration plays with, by symbol."""
        deck = dict(self.components["deck"])
        if self.has_variant("bad-luck"):
            deck.update(self.components["bad_luck"])
        return deck

    @classmethod
    def card_faces(cls) -> list[CardFace]:
        """One face per symbol; Bandit's card ids are its symbols."""
        counts = {**_COMPONENTS["deck"], **_COMPONENTS["bad_luck"]}
        special = {WILD: "Wild: matches every symbol", BLANK: "Bad luck: matches nothing"}

        def text(symbol: str) -> str:
            return special.get(symbol) or f"Three in a row: {PAYOUTS[symbol]} points"

        return [
            CardFace(id=s, name=s.capitalize(), symbols=(s,), coins=PAYOUTS.get(s), text=text(s),
                     count=counts[s])
            for s in SYMBOLS
        ]

    # --- state ---------------------------------------------------------------------------

    def initial_state(self) -> BanditState:
        """The dealer is about to lay the first nine cards: the first spin."""
        return BanditState(game_index=0, deck=self.full_deck(), pending=list(range(ROWS * COLUMNS)))

    def chance_point(self, state: BanditState) -> ChancePoint | None:
        """The next card the dealer lays, weighted by what is left in the deck."""
        if state.over or not state.pending:
            return None
        # The deck never holds a count of 0: a symbol is dropped when its last card is laid.
        return ChancePoint("deal", _DEAL_WHAT[state.pending[0]], tuple(state.deck.items()))

    def ever_revealed(self, point: ChancePoint) -> Collection[str]:
        """Every card of this configuration's deck (a blank only with bad-luck)."""
        return tuple(self.full_deck())

    def current_player(self, state: BanditState) -> int | None:
        """The seat playing the current game, unless the dealer is dealing."""
        if state.over or state.pending:
            return None
        return state.game_index

    def is_over(self, state: BanditState) -> bool:
        """Both games have been played."""
        return state.over

    # --- decisions -------------------------------------------------------------------------

    def spin_options(self, state: BanditState) -> list[tuple[int, ...]]:
        """The column sets that may be spun now: all, two (hold one) or one (hold two)."""
        return list(_SPINS[_refillable(state)])

    def decisions(self, state: BanditState) -> list[Action]:
        """Claim a winning row, spin (holding columns or not), or stop."""
        if self.current_player(state) is None:
            return []
        return [*(_CLAIMS[row] for row in state.claimable),
                *_SPIN_ACTIONS[_refillable(state)], _STOP]

    def apply_decision(self, state: BanditState, action: Action) -> list[Event]:
        """Claim, spin or stop; illegal ones raise before anything changes."""
        if action.verb == "claim":
            return self._claim(state, action)
        if action.verb == "spin":
            return self._spin(state, action)
        if action.verb == "stop" and not action.args:
            return self._end_game(state)
        raise IllegalActionError(f"'{action.brief}' is not a Bandit move: claim a row, spin, or stop")

    def _claim(self, state: BanditState, action: Action) -> list[Event]:
        args = action.int_args()
        if len(args) != 1 or not 0 <= args[0] < ROWS:
            raise IllegalActionError("claim one row: 'claim 0', 'claim 1' or 'claim 2'")
        row = args[0]
        if row not in state.claimable:
            raise IllegalActionError(
                f"row {row + 1} is not claimable: only a row that won on a spin and has not changed since"
            )
        symbol = row_symbol(state.row_cards(row))
        assert symbol is not None, "a claimable row always shows a win"
        player, points = state.game_index, PAYOUTS[symbol]
        events: list[Event] = [JackpotHit(player, symbol, points)]
        state.claimable.remove(row)
        for column in range(COLUMNS):
            card = state.stacks[stack_index(row, column)].pop()
            state.won[card] = state.won.get(card, 0) + 1
            events.append(CardTaken(player, card, f"row {row + 1}"))
        state.scores[player] += points
        # Empty stacks are refilled at once; the refilled row is not claimable until a spin.
        state.pending = [stack_index(row, c) for c in range(COLUMNS) if not state.stacks[stack_index(row, c)]]
        state.pending = state.pending[: state.deck_size]
        state.pending_is_spin = False
        return events + self._after_deal(state)

    def _spin(self, state: BanditState, action: Action) -> list[Event]:
        columns = action.int_args() or tuple(range(COLUMNS))
        if len(set(columns)) != len(columns) or not all(0 <= c < COLUMNS for c in columns):
            raise IllegalActionError("spin names each column 0-2 at most once, e.g. 'spin 0 2'")
        # One text per move (the log, the journal and legal_actions() agree on it): columns in
        # order, and all three spun by a bare 'spin'.
        if len(columns) == COLUMNS and action.args:
            raise IllegalActionError("to spin all three columns write 'spin'")
        if list(columns) != sorted(columns):
            ordered = " ".join(map(str, sorted(columns)))
            raise IllegalActionError(f"name the columns in order: 'spin {ordered}'")
        if columns not in self.spin_options(state):
            raise IllegalActionError(
                f"the deck has {state.deck_size} cards left: not enough to spin {len(columns)} column(s)"
            )
        if self.has_variant("replace-columns"):
            for column in columns:
                for row in range(ROWS):
                    for card in state.stacks[stack_index(row, column)]:
                        state.out_of_game[card] = state.out_of_game.get(card, 0) + 1
                    state.stacks[stack_index(row, column)].clear()
        state.claimable.clear()
        state.pending = [stack_index(row, c) for row in range(ROWS) for c in columns]
        state.pending_is_spin = True
        state.spins += 1
        return [Spun(state.game_index, columns)]

    # --- chance ----------------------------------------------------------------------------

    def apply_outcome(self, state: BanditState, point: ChancePoint, outcome: str) -> list[Event]:
        """The dealer lays ``outcome`` on the next pending stack."""
        state.deck[outcome] -= 1
        if not state.deck[outcome]:
            del state.deck[outcome]
        state.stacks[state.pending.pop(0)].append(outcome)
        if state.pending:
            return []
        events: list[Event] = []
        if state.pending_is_spin:
            events.append(self._evaluate_rows(state))
        return events + self._after_deal(state)

    def _evaluate_rows(self, state: BanditState) -> RowsClaimable:
        wins = [(row, row_symbol(state.row_cards(row))) for row in range(ROWS)]
        state.claimable = [row for row, symbol in wins if symbol is not None]
        symbols = tuple(symbol for _, symbol in wins if symbol is not None)
        return RowsClaimable(tuple(state.claimable), symbols, tuple(PAYOUTS[s] for s in symbols))

    def _after_deal(self, state: BanditState) -> list[Event]:
        """End the game when no spin can be offered and nothing is left to claim."""
        if state.pending or state.claimable or self.spin_options(state):
            return []
        return self._end_game(state)

    def _end_game(self, state: BanditState) -> list[Event]:
        player = state.game_index
        state.game_scores.append(list(state.scores))
        events: list[Event] = [TurnEnded(player), RoundEnded(state.game_index + 1, tuple(state.scores))]
        if state.game_index + 1 >= GAMES_PER_MATCH:
            state.over = True
            state.pending.clear()
            state.claimable.clear()
            result = self.result(state)
            return [*events, GameEnded(result.scores, result.winners)]
        # The dealer becomes the player: every card goes back and the deck is reshuffled.
        state.game_index += 1
        state.deck = self.full_deck()
        state.stacks = [[] for _ in range(ROWS * COLUMNS)]
        state.won, state.out_of_game, state.claimable = {}, {}, []
        state.pending, state.pending_is_spin = list(range(ROWS * COLUMNS)), True
        return [*events, TurnStarted(state.game_index)]

    # --- results and checks ------------------------------------------------------------------

    def result(self, state: BanditState) -> GameResult:
        """Most points wins; equal points share the win."""
        best = max(state.scores)
        winners = tuple(seat for seat, score in enumerate(state.scores) if score == best)
        return GameResult(tuple(state.scores), winners)

    def conserved(self, state: BanditState) -> dict[str, int]:
        """Every card is in the deck, on the grid, in the player's winnings or out of the game."""
        totals = dict.fromkeys(self.full_deck(), 0)
        for pile in (state.deck, state.won, state.out_of_game):
            for symbol, count in pile.items():
                totals[symbol] += count
        for stack in state.stacks:
            for card in stack:
                totals[card] += 1
        return totals

    def describe(self, state: BanditState, action: Action) -> str:
        """A transcript line, e.g. ``player 1 claims row 2``."""
        who = f"player {state.game_index + 1}"
        if action.is_reveal:
            point = self.chance_point(state)
            return f"dealer lays {action.args[0]} as {point.what if point else 'a card'}"
        if action.verb == "claim":
            return f"{who} claims row {int(action.args[0]) + 1}"
        if action.verb == "spin":
            spun = action.args or (0, 1, 2)
            held = [c + 1 for c in range(COLUMNS) if c not in spun]
            return f"{who} spins" + (f", holding column(s) {', '.join(map(str, held))}" if held else "")
        return f"{who} stops"

    # --- bots --------------------------------------------------------------------------------

    def heuristic_action(self, state: BanditState, rng: random.Random) -> Action:
        """Claim every winning row (a spin would lose it); then hold the columns of the most
        valuable near-win (two of a row matching) and spin the rest; stop when nothing is left."""
        if state.claimable:
            return Action.of("claim", max(state.claimable, key=lambda row: self._row_points(state, row)))
        options = self.spin_options(state)
        if not options:
            return Action.of("stop")
        best: tuple[int, tuple[int, ...]] = (0, options[0])
        for row in range(ROWS):
            cards = state.row_cards(row)
            for held in combinations(range(COLUMNS), 2):
                pair = [cards[c] for c in held]
                symbol = row_symbol([*pair, WILD]) if None not in pair else None
                spun = tuple(c for c in range(COLUMNS) if c not in held)
                if symbol and spun in options and PAYOUTS[symbol] > best[0]:
                    best = (PAYOUTS[symbol], spun)
        spun = best[1]
        return Action.of("spin") if len(spun) == COLUMNS else Action.of("spin", *spun)

    @staticmethod
    def _row_points(state: BanditState, row: int) -> int:
        symbol = row_symbol(state.row_cards(row))
        return PAYOUTS[symbol] if symbol else 0

    # --- adjudicate ------------------------------------------------------------------------------

    @classmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """Rule on a grid: ``{"grid": [[s, s, s] x3]}`` -> the winning rows and their points.

        A ``blank`` card is only in the deck with ``"variants": ["bad-luck"]``.
        """
        situation = require_object(situation, "bandit", '{"grid": [["bar", "bar", "any"], ...]}')
        check_keys(situation, ("grid",), "bandit")
        played = variants(situation, cls.variants, "bandit")
        grid = situation.get("grid")
        if not isinstance(grid, list) or len(grid) != ROWS:
            raise InvalidSituationError('bandit needs "grid": three rows of three symbols (null for empty)')
        deck = dict(_COMPONENTS["deck"])
        if "bad-luck" in played:
            deck.update(_COMPONENTS["bad_luck"])
        counts: dict[str, int] = {}
        for r, row in enumerate(grid):
            if not isinstance(row, list) or len(row) != COLUMNS:
                raise InvalidSituationError(f"grid row {r + 1} must hold exactly three cards")
            for card in row:
                if card is None:
                    continue
                if card == BLANK and BLANK not in deck:
                    raise InvalidSituationError(
                        'a blank card is only in the deck with the bad-luck variant: '
                        'add "variants": ["bad-luck"]'
                    )
                if not isinstance(card, str) or card not in deck:
                    raise InvalidSituationError(
                        f"unknown Bandit card {excerpt(card)} (cards: {', '.join(deck)})"
                    )
                counts[card] = counts.get(card, 0) + 1
        for symbol, count in counts.items():
            if count > deck[symbol]:
                raise InvalidSituationError(
                    f"{count} '{symbol}' cards are showing but the deck has only {deck[symbol]}: a misread?"
                )
        rows = []
        for r, row in enumerate(grid):
            won = row_symbol(list(row))
            if won is not None:
                rows.append({"row": r, "symbol": won, "points": PAYOUTS[won]})
        return {
            "winning_rows": [entry["row"] for entry in rows],
            "points": sum(entry["points"] for entry in rows),
            "rows": rows,
        }
