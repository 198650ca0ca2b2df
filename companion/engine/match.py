"""A game in progress: configuration + state + the action log, with undo and replay.

A game *is* its configuration plus its action log (decisions and revealed outcomes alike):
:func:`replay` rebuilds it exactly, and that log is what the journal stores.

>>> from companion.engine.chance import ScriptedResolver
>>> m = Match.new(GameConfig("pay-line", players=2, seed=1))
>>> m.version
0
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.engine.actions import Action
from companion.engine.chance import ChancePoint, Resolver
from companion.engine.errors import EngineError, IllegalActionError, ReplayError, UndoError
from companion.engine.events import Event
from companion.engine.game import SCHEMA_VERSION, Game, GameConfig
from companion.engine.registry import make_game
from companion.engine.situation import excerpt


@dataclass
class Step:
    """One applied action with the events it produced."""

    action: Action
    events: list[Event]


class Match:
    """Rules, live state and log together; the one way the daemon and the CLI play a game."""

    def __init__(self, game: Game[Any], state: Any) -> None:
        self.game = game
        self.state = state
        self.log: list[Action] = []

    @classmethod
    def new(cls, config: GameConfig) -> Match:
        """A fresh game for ``config``."""
        game = make_game(config)
        return cls(game, game.initial_state())

    @property
    def config(self) -> GameConfig:
        """The configuration this match was started with."""
        return self.game.config

    @property
    def version(self) -> int:
        """How many actions have been applied; an action aimed at an older version is refused."""
        return len(self.log)

    @property
    def chance_point(self) -> ChancePoint | None:
        """What the table must reveal now, if anything."""
        if self.game.is_over(self.state):
            return None
        return self.game.chance_point(self.state)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.game.is_over(self.state)

    def legal_actions(self) -> list[Action]:
        """Everything that may be applied now."""
        return self.game.legal_actions(self.state)

    def apply(self, action: Action | str, expected_version: int | None = None) -> list[Event]:
        """Apply an action (or its text form) and log it; raises without changing anything."""
        if expected_version is not None and expected_version != self.version:
            raise IllegalActionError("the table has moved on since; look at the screen and try again")
        if isinstance(action, str):
            action = Action.parse(action)
        events = self.game.apply(self.state, action)
        self.log.append(action)
        return events

    def apply_described(self, action: Action | str,
                        expected_version: int | None = None) -> tuple[str, list[Event]]:
        """Apply an action like :meth:`apply` and return its transcript line too.

        The line is written in the state before the action, but only once the game has
        accepted it: ``describe`` assumes a legal action (a bare ``claim`` in Bandit, a bare
        ``reveal``), so a malformed one must be refused by the rules first, with their reason.
        """
        if expected_version is not None and expected_version != self.version:
            raise IllegalActionError("the table has moved on since; look at the screen and try again")
        if isinstance(action, str):
            action = Action.parse(action)
        if action not in self.legal_actions():
            # The game's own reason; an action it accepts though it never lists it is refused
            # too (one text per move: the log must hold what legal_actions() offers).
            self.game.apply(copy.deepcopy(self.state), action)
            raise IllegalActionError(f"'{action.brief}' is not one of the moves offered now")
        line = self.game.describe(self.state, action)
        return line, self.apply(action)

    def resolve(self, resolver: Resolver) -> list[Event]:
        """Answer the current chance point with ``resolver``; raises if nothing is hidden."""
        point = self.chance_point
        if point is None:
            raise EngineError("nothing is waiting to be revealed")
        return self.apply(Action.reveal(resolver.resolve(point)))

    def resolve_all(self, resolver: Resolver) -> list[Event]:
        """Answer chance points until a player must decide or the game ends."""
        events: list[Event] = []
        while (point := self.chance_point) is not None:
            events += self.apply(Action.reveal(resolver.resolve(point)))
        return events

    def can_undo(self) -> bool:
        """True when the last action is a decision (reveals are never taken back)."""
        return bool(self.log) and not self.log[-1].is_reveal

    def undo(self) -> Action:
        """Take back the last decision by replaying the log without it; returns it."""
        if not self.log:
            raise UndoError("nothing to undo")
        if self.log[-1].is_reveal:
            raise UndoError("that was revealed already; what the table has seen cannot be undone")
        last = self.log[-1]
        rebuilt = replay(self.config, self.log[:-1])
        self.state, self.log = rebuilt.state, rebuilt.log
        return last

    def to_dict(self) -> dict[str, Any]:
        """The saved-game form that :func:`load_log` reads back."""
        return {
            "schema": SCHEMA_VERSION,
            "config": self.config.to_dict(),
            "actions": [str(a) for a in self.log],
        }


def replay(config: GameConfig, actions: Iterable[Action | str]) -> Match:
    """Rebuild a game from its configuration and action log; raises :class:`ReplayError`."""
    match = Match.new(config)
    for index, action in enumerate(actions):
        try:
            parsed = Action.parse(action) if isinstance(action, str) else action
            match.apply(parsed)
        except IllegalActionError as error:
            shown = excerpt(action)[1:-1] if isinstance(action, str) else action.brief
            raise ReplayError(f"action {index + 1} ('{shown}') does not replay: {error}") from None
    return match


def replay_steps(config: GameConfig, actions: Iterable[Action | str]) -> Iterable[tuple[Match, Step]]:
    """Replay one action at a time, yielding the match and each step (for transcripts)."""
    match = Match.new(config)
    for index, action in enumerate(actions):
        parsed = Action.parse(action) if isinstance(action, str) else action
        try:
            events = match.apply(parsed)
        except IllegalActionError as error:
            raise ReplayError(f"action {index + 1} ('{parsed.brief}') does not replay: {error}") from None
        yield match, Step(parsed, events)


def load_log(data: Mapping[str, Any] | str) -> tuple[GameConfig, list[Action]]:
    """Read a saved game (``Match.to_dict`` JSON); raises :class:`ReplayError` when malformed."""
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as error:
            raise ReplayError(f"the game log is not JSON ({error}); export it again") from None
    if not isinstance(data, Mapping):
        raise ReplayError("a game log is a JSON object with 'config' and 'actions'")
    if data.get("schema", SCHEMA_VERSION) != SCHEMA_VERSION:
        raise ReplayError(f"the game log has schema {data.get('schema')!r}, expected {SCHEMA_VERSION}")
    if "config" not in data or "actions" not in data:
        raise ReplayError("a game log needs 'config' and 'actions'")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReplayError("'actions' must be a list of action texts such as \"spin\"")
    try:
        config = GameConfig.from_dict(data["config"])
        parsed = [Action.parse(a) for a in actions]
    except EngineError as error:
        raise ReplayError(str(error)) from None
    return config, parsed
