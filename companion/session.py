"""A game being played: the engine's :class:`Match` bound to its journal entry.

Every action goes through :meth:`Session.apply`: the engine checks and applies it, then the
journal commits it; only then does the caller (a flow) get the events to show. If the journal
cannot write (full disk), the match is put back exactly as it was and :class:`JournalFullError`
propagates: nothing is shown that is not on disk, and the same action can be retried.

>>> import tempfile, pathlib
>>> from companion.engine import GameConfig
>>> from companion.journal import Journal
>>> journal = Journal.open(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite")
>>> s = Session.start(journal, GameConfig("bandit", players=2, seed=1), ["Ann", "Bob"], "cabinet")
>>> _ = s.apply("reveal cherry")
>>> journal.actions(s.game_id)
['reveal cherry']
>>> Session.resume(journal).match.log == s.match.log
True
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Iterator, Mapping
from typing import Any

from companion.engine import Action, ChancePoint, GameConfig, Match, SeededResolver, replay
from companion.engine.events import Event
from companion.journal import Journal, JournalError
from companion.journal.store import GameRecord


class Session:
    """One game: match, seat names, mode, and the journal it is written to."""

    def __init__(self, match: Match, journal: Journal, game_id: int, seats: list[str], mode: str,
                 resumed: bool = False) -> None:
        self.match = match
        self.journal = journal
        self.game_id = game_id
        self.seats = seats
        self.mode = mode
        #: True when this session was rebuilt from the journal after a restart.
        self.resumed = resumed
        #: (version, readable line) for every action applied in this process (the transcript)
        self.lines: list[tuple[int, str]] = []
        #: True once the host made this game the first of a new night (the menu's "New night")
        self.new_night = False
        #: inside :meth:`transaction`: the match as it was before its first action (None: no
        #: action yet, or no transaction)
        self._before: tuple[Any, list[Action], int] | None = None
        self._in_transaction = False

    @classmethod
    def start(cls, journal: Journal, config: GameConfig, seats: list[str], mode: str) -> Session:
        """A new game, recorded in the journal before anything is shown."""
        match = Match.new(config)  # validates the config before the journal hears of it
        game_id = journal.start_game(config.to_dict(), seats, mode)
        return cls(match, journal, game_id, seats, mode)

    @classmethod
    def resume(cls, journal: Journal, record: GameRecord | None = None, *,
               close_broken: bool = True) -> Session | None:
        """Rebuild the unfinished game (or ``record``) by replaying its journal; None if none.

        A log that no longer replays (a rules change) is closed as ``abandoned`` rather than
        crashing the daemon at every boot; with ``close_broken=False`` the error is raised instead
        and the journal left as it is (the daemon offers to end such a game: see
        :mod:`companion.daemon.starting`).
        """
        record = record or journal.unfinished()
        if record is None:
            return None
        try:
            match = replay(GameConfig.from_dict(record.config), journal.actions(record.id))
        except ValueError as error:
            if not close_broken:
                raise
            journal.finish_game(record.id, {"error": str(error)}, status="abandoned")
            return None
        return cls(match, journal, record.id, record.seats, record.mode, resumed=True)

    def start_night(self) -> None:
        """Make this game the first of a new night: the night starts at the game's start."""
        if not self.new_night:
            self.journal.start_night(at=self.journal.game(self.game_id).started_at)
            self.new_night = True

    @property
    def config(self) -> GameConfig:
        """The game's configuration."""
        return self.match.config

    @property
    def version(self) -> int:
        """How many actions are applied (and journaled)."""
        return self.match.version

    def apply(self, action: Action | str) -> list[Event]:
        """Apply ``action`` and commit it to the journal; raises (state unchanged) on either failure."""
        parsed = Action.parse(action) if isinstance(action, str) else action
        saved_state, saved_log = copy.deepcopy(self.match.state), list(self.match.log)
        if self._in_transaction and self._before is None:
            self._before = (saved_state, saved_log, len(self.lines))
        line, events = self.match.apply_described(parsed)
        try:
            self.journal.record_action(self.game_id, str(parsed))
        except JournalError:
            self.match.state, self.match.log = saved_state, saved_log
            raise
        self.lines.append((self.version, line + _summary(events)))
        if self.match.is_over:
            result = self.match.game.result(self.match.state)
            self.journal.finish_game(self.game_id, {"scores": list(result.scores),
                                                    "winners": list(result.winners)})
        return events

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Every journal write inside (observations, actions, the game's end) commits as one.

        The daemon wraps each camera update (and each input, each frame's tick) in one, so a
        deal read at once is one commit, not two per card. If the journal refuses it, the match
        goes back to how it was before the block's first action, as for a single
        :meth:`apply`, and the error propagates: nothing is shown that is not on disk.
        """
        if self._in_transaction:
            yield
            return
        self._in_transaction, self._before = True, None
        try:
            with self.journal.transaction():
                yield
        except JournalError:
            if self._before is not None:
                self.match.state, self.match.log, lines = self._before
                del self.lines[lines:]
            raise
        finally:
            self._in_transaction, self._before = False, None

    def observe(self, observation: Mapping[str, Any]) -> None:
        """Journal what the camera or a player reported (kept for the record; not replayed)."""
        self.journal.record_observation(self.game_id, {"version": self.version, **observation})

    def abandon(self) -> None:
        """End the game before its end (the table chose so): ``ended`` in the history, with the
        scores it had and no winner."""
        if not self.match.is_over:
            result = self.match.game.result(self.match.state)
            self.journal.end_game(self.game_id, {"scores": list(result.scores), "winners": []})

    def cabinet_outcome(self, point: ChancePoint) -> str:
        """The machine's answer to ``point``: seeded by the game's seed and the log position.

        Seeding per position (not one RNG for the whole game) means a resumed game deals exactly
        what the uninterrupted game would have dealt.
        """
        rng = random.Random(f"{self.config.seed}:{self.version}")
        return SeededResolver(rng).resolve(point)


def _summary(events: list[Event]) -> str:
    """`` -> jackpot bell (50)`` for the events a transcript reader cares about."""
    from companion.engine.events import GameEnded, JackpotHit, RoundEnded

    notes = []
    for event in events:
        if isinstance(event, JackpotHit):
            notes.append(f"jackpot {event.symbol} ({event.amount}) for seat {event.player + 1}")
        elif isinstance(event, RoundEnded):
            notes.append(f"round {event.round} over, scores {list(event.scores)}")
        elif isinstance(event, GameEnded):
            winners = ", ".join(f"seat {w + 1}" for w in event.winners) or "The House"
            notes.append(f"game over, scores {list(event.scores)}, won by {winners}")
    return (" -> " + "; ".join(notes)) if notes else ""
