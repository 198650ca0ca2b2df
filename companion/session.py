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

Quiet moments: at the end of each turn the scores are noted (what ``history`` keeps if a later
update can no longer replay the log) and the WAL is checkpointed into the main file; at the end
of a game the result is written, then a checkpoint and an automatic backup. If the disk refuses
the result, the game's last action is already on disk: :attr:`Session.result_pending` holds the
result and :meth:`Session.save_result` is retried by the daemon (which shows the pause).
"""

from __future__ import annotations

import contextlib
import copy
import logging
import random
from collections.abc import Iterator, Mapping
from typing import Any

from companion.engine import Action, ChancePoint, GameConfig, Match, SeededResolver, replay
from companion.engine.events import Event, GameEnded, RoundEnded, TurnEnded
from companion.journal import Journal, JournalError, JournalUnwritableError
from companion.journal.store import GameRecord

log = logging.getLogger(__name__)

#: The status of a game whose log no longer replays (an update changed its rules or variants).
UNREPLAYABLE = "unreplayable"


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
        #: The final result while the disk refuses it (the last action is on disk already).
        self.result_pending: dict[str, Any] | None = None
        #: Why the pending result could not be written (what the daemon's pause shows).
        self.result_error: JournalUnwritableError | None = None

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

        A log that no longer replays (an update changed the rules or a variant) is closed as
        :data:`UNREPLAYABLE` with its last known scores and the reason (logged), rather than
        crashing at every boot; its actions stay in the journal for ``export``. With
        ``close_broken=False`` the error is raised instead and the journal left as it is (the
        daemon offers to end such a game: see :mod:`companion.daemon.starting`). A game whose
        last action was written but not its result (power cut, full disk) gets its result now.
        """
        record = record or journal.unfinished()
        if record is None:
            return None
        actions = journal.actions(record.id)
        try:
            match = replay(GameConfig.from_dict(record.config), actions)
        except ValueError as error:
            if not close_broken:
                raise
            kept = last_known_result(journal, record, str(error))
            journal.finish_game(record.id, kept, status=UNREPLAYABLE)
            log.warning("game %d no longer replays (%s); kept with its last known scores; "
                        "`companion export %d` still gives its actions", record.id, error, record.id)
            return None
        session = cls(match, journal, record.id, record.seats, record.mode, resumed=True)
        if match.is_over:
            session.result_pending = session._result()
            session.save_result()
        return session

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
            self.result_pending = self._result()
            self.save_result()
        elif any(isinstance(e, (TurnEnded, RoundEnded, GameEnded)) for e in events):
            self._quiet_moment()
        return events

    def _result(self) -> dict[str, Any]:
        result = self.match.game.result(self.match.state)
        return {"scores": list(result.scores), "winners": list(result.winners)}

    def _quiet_moment(self) -> None:
        """End of a turn: note the scores and checkpoint (after the commit, in a transaction)."""
        scores = list(self.match.game.result(self.match.state).scores)
        if self.journal.batched:
            self.journal.record_scores(self.game_id, self.version, scores)  # part of the block
        else:
            try:
                self.journal.record_scores(self.game_id, self.version, scores)
            except JournalError as error:  # the action itself is on disk; only the note is missing
                log.warning("scores after action %d not noted: %s", self.version, error)
        self.journal.checkpoint()

    def save_result(self) -> bool:
        """Write the pending final result, then checkpoint and back up (end of the game).

        True when nothing is pending any more; False (logged) while the disk refuses it. Inside
        :meth:`transaction` the result joins the block: a refusal rolls back the block's last
        action too and the daemon retries the whole input.
        """
        if self.result_pending is None:
            return True
        if self.journal.batched:
            self.journal.finish_game(self.game_id, self.result_pending)
        else:
            try:
                self.journal.finish_game(self.game_id, self.result_pending)
            except JournalUnwritableError as error:
                if self.result_error is None:
                    log.warning("game %d result not written yet: %s", self.game_id, error)
                self.result_error = error
                return False
        self.result_pending = self.result_error = None
        self.journal.checkpoint()
        self.journal.automatic_backup(f"game{self.game_id}")
        return True

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
                self.result_pending = self.result_error = None  # the game is not over any more
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
            self.journal.checkpoint()
            self.journal.automatic_backup(f"game{self.game_id}")

    def cabinet_outcome(self, point: ChancePoint) -> str:
        """The machine's answer to ``point``: seeded by the game's seed and the log position.

        Seeding per position (not one RNG for the whole game) means a resumed game deals exactly
        what the uninterrupted game would have dealt.
        """
        rng = random.Random(f"{self.config.seed}:{self.version}")
        return SeededResolver(rng).resolve(point)


def last_known_result(journal: Journal, record: GameRecord, reason: str) -> dict[str, Any]:
    """The result kept for a game whose log no longer replays: the scores last noted in play."""
    known = journal.last_scores(record.id)
    scores_at, scores = known if known else (0, [])
    return {"scores": scores, "winners": [], "scores_at": scores_at, "actions": record.actions,
            "reason": reason}


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
