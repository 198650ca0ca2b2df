"""The game protocol every rules module implements.

In the spirit of OpenSpiel's Python games: a :class:`Game` holds the configuration and the
component data and knows the rules; the state is a plain dataclass it creates and changes.
The caller asks what is legal, applies an action, and gets the events back.

At a chance point the only legal actions are ``reveal <outcome>``; the base class checks the
outcome against the chance point before the game sees it. Everywhere else the game's
:meth:`Game.decisions` lists what the current player may do and :meth:`Game.apply_decision`
checks and applies one. Both must raise an :class:`IllegalActionError` *before* changing
anything, so an illegal action never changes the state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint
from companion.engine.codec import dumps, from_data, to_data
from companion.engine.errors import ConfigError, EngineError, GameOverError, IllegalActionError
from companion.engine.events import ChanceResolved, Event

#: Bumped when the JSON layout of any state changes incompatibly.
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class GameConfig:
    """Everything besides the actions that fixes a game: game id, seats, variants, seed, options.

    >>> GameConfig("bandit", players=2, variants=("bad-luck",), seed=7).to_dict()["variants"]
    ['bad-luck']
    """

    game: str
    players: int
    variants: tuple[str, ...] = ()
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form."""
        return {
            "game": self.game,
            "players": self.players,
            "variants": list(self.variants),
            "seed": self.seed,
            "options": dict(self.options),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        """Read the JSON form; raises :class:`ConfigError` naming the bad key."""
        if not isinstance(data, Mapping):
            raise ConfigError("a game config must be a JSON object")
        game, players = data.get("game"), data.get("players")
        if not isinstance(game, str):
            raise ConfigError("config: 'game' must be a game id such as \"bandit\"")
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("config: 'players' must be a whole number")
        variants = data.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise ConfigError("config: 'variants' must be a list of variant ids")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError("config: 'seed' must be a whole number")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise ConfigError("config: 'options' must be an object")
        return cls(game, players, tuple(variants), seed, dict(options))


@dataclass(frozen=True)
class GameResult:
    """Final scores by seat and the winning seat(s); more than one winner means shared."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    details: str = ""


@dataclass(frozen=True)
class CardFace:
    """One distinct printed card face, as the vision module prints and reads it.

    ``id`` is unique within the game; ``symbols`` are the engine's symbol ids; ``back`` names
    what is printed on the back when that matters to play (Mega Jackpot's reel side).
    """

    id: str
    name: str
    symbols: tuple[str, ...]
    coins: int | None = None
    ability: str | None = None
    text: str = ""
    back: tuple[str, ...] = ()
    count: int = 1


S = TypeVar("S")


class Game(ABC, Generic[S]):
    """Rules of one game for one configuration. Subclasses set the class attributes below."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: variant id -> one-line description
    variants: ClassVar[Mapping[str, str]] = {}
    state_type: ClassVar[type[Any]]

    @classmethod
    def players_problem(cls, players: int) -> str | None:
        """``Bandit is for 2 players, not 3`` (or ``2-6 players``) when ``players`` cannot play; else None."""
        if cls.min_players <= players <= cls.max_players:
            return None
        span = str(cls.min_players)
        if cls.max_players > cls.min_players:
            span += f"-{cls.max_players}"
        return f"{cls.title} is for {span} players, not {players}"

    def __init__(self, config: GameConfig) -> None:
        if config.game != self.id:
            raise ConfigError(f"config is for '{config.game}', not '{self.id}'")
        if (problem := self.players_problem(config.players)) is not None:
            raise ConfigError(problem)
        for variant in config.variants:
            if variant not in self.variants:
                known = ", ".join(self.variants) or "none"
                raise ConfigError(f"{self.title} has no variant '{variant}' (variants: {known})")
        self.config = config

    # --- what each game implements -------------------------------------------------------

    @abstractmethod
    def initial_state(self) -> S:
        """The state before the first reveal (usually at the first chance point)."""

    @abstractmethod
    def chance_point(self, state: S) -> ChancePoint | None:
        """What must be revealed now, or None when a player decides (or the game is over)."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat that decides now; None at a chance point or when the game is over."""

    @abstractmethod
    def decisions(self, state: S) -> list[Action]:
        """Every legal decision of the current player (empty at chance points and at the end)."""

    @abstractmethod
    def apply_decision(self, state: S, action: Action) -> list[Event]:
        """Check and apply a decision; raise :class:`IllegalActionError` before any change."""

    @abstractmethod
    def apply_outcome(self, state: S, point: ChancePoint, outcome: str) -> list[Event]:
        """Apply an outcome the base class already checked against ``point``."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def result(self, state: S) -> GameResult:
        """Scores and winners; valid at any time (the standings so far before the end)."""

    @abstractmethod
    def conserved(self, state: S) -> dict[str, int]:
        """Totals that no action may change (cards of each kind, chips); the harness checks."""

    @classmethod
    @abstractmethod
    def adjudicate(cls, situation: Mapping[str, Any]) -> dict[str, Any]:
        """Rule on one table situation (the ``companion adjudicate`` contract)."""

    # --- optional, with sensible defaults ---------------------------------------------------

    @classmethod
    def card_faces(cls) -> list[CardFace]:
        """Every distinct card face of the game (empty for games without cards)."""
        return []

    def heuristic_action(self, state: S, rng: random.Random) -> Action:
        """A sensible decision for bots and empty seats; by default a random legal one."""
        return rng.choice(self.decisions(state))

    def ever_revealed(self, point: ChancePoint) -> Collection[str] | None:
        """Everything a chance point like ``point`` can ever reveal in this configuration, so
        a refused report can say "none is left" or "not in this game" truly; None: unknown."""
        return None

    def public_view(self, state: S, viewer: int | None = None) -> dict[str, Any]:
        """What the table may see (secrets removed). Default: the whole state."""
        data: dict[str, Any] = to_data(state)
        return data

    def scores(self, state: S) -> tuple[int, ...]:
        """Each seat's score right now (for the screen and the score chart)."""
        return self.result(state).scores

    def describe(self, state: S, action: Action) -> str:
        """A readable transcript line for ``action`` in ``state``; default: its text form."""
        return str(action)

    def apply_legal_decision(self, state: S, action: Action) -> list[Event]:
        """Apply ``action``, taken from :meth:`decisions` of this very ``state`` (a bot's pick in
        :func:`simulate.play_game`), without checking it again.

        By default the same as :meth:`apply_decision`; a game whose check lists every legal
        decision again overrides it to skip that. Anything from outside the engine (a report, a
        button, a log) goes through :meth:`apply`.
        """
        return self.apply_decision(state, action)

    # --- provided by the base class ------------------------------------------------------

    def legal_actions(self, state: S) -> list[Action]:
        """Every legal action now: the possible reveals at a chance point, else the decisions."""
        if self.is_over(state):
            return []
        point = self.chance_point(state)
        if point is not None:
            return [Action.reveal(outcome) for outcome, _ in point.outcomes]
        return self.decisions(state)

    def apply(self, state: S, action: Action) -> list[Event]:
        """Apply ``action`` and return its events, or raise without changing ``state``."""
        if self.is_over(state):
            raise GameOverError("the game is over; start a new one")
        point = self.chance_point(state)
        if point is not None:
            if not action.is_reveal or len(action.args) != 1:
                raise IllegalActionError(f"first the table reveals {point.what}")
            outcome = str(action.args[0])
            if not point.weight(outcome):
                point.check(outcome, self.ever_revealed(point))  # raises, saying why
            events = self.apply_outcome(state, point, outcome)
            return [ChanceResolved(point.kind, point.what, outcome), *events]
        if action.is_reveal:
            raise IllegalActionError("nothing is waiting to be revealed now")
        return self.apply_decision(state, action)

    def encode_state(self, state: S) -> str:
        """The canonical JSON text of ``state`` with the schema version and game id."""
        return dumps({"schema": SCHEMA_VERSION, "game": self.id, "state": to_data(state)})

    def decode_state(self, text: str) -> S:
        """Rebuild a state from :meth:`encode_state` output."""
        import json

        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise EngineError(f"saved state is not JSON: {error}") from None
        if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
            raise EngineError(f"saved state has schema {data.get('schema')!r}; expected {SCHEMA_VERSION}")
        if data.get("game") != self.id:
            raise EngineError(f"saved state is for '{data.get('game')}', not '{self.id}'")
        state: S = from_data(self.state_type, data["state"])
        return state

    def has_variant(self, variant: str) -> bool:
        """True when ``variant`` is switched on in this configuration."""
        return variant in self.config.variants
