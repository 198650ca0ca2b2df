"""The game being played, as the journal shows it: scores, the bank, whose turn, the last lines.

The journal stores a game as its configuration and its action log; the engine replays them.
:class:`LiveGame` replays incrementally (only the actions written since the last look), so a
reader that looks after every daemon write costs a few actions' work, not the whole game's.
The transcript lines are the engine's own (:meth:`Game.describe`, as the screen's transcript and
``companion replay`` print them), with seat names in place of "player N".
"""

from __future__ import annotations

import re
import sqlite3
from collections import deque
from typing import Any

from companion.engine import GameConfig, Match
from companion.engine.errors import EngineError
from companion.engine.events import event_note
from companion.journal.queries import GAME_TITLES, seat_name
from companion.journal.reading import GameRecord

#: How many transcript lines the scoreboard shows.
LINES = 8
_PLAYER = re.compile(r"\b(?:player|seat) (\d)\b")


def bank_text(game_id: str, state: Any) -> str | None:
    """The short bank/supply line the companion's screen shows in its header ("Bank 18")."""
    if game_id in ("pay-line", "jackpot-payout"):
        return f"Bank {state.bank}"
    if game_id == "bandit":
        return f"Deck {state.deck_size}"
    if game_id == "mega-jackpot":
        return f"Piles {sum(state.pile_sizes)}"
    return None


class LiveGame:
    """Follows one journal game by replaying its new actions each time :meth:`update` is called."""

    def __init__(self) -> None:
        self._record: GameRecord | None = None
        self._match: Match | None = None
        self._seq = 0
        self._applied = 0
        self._lines: deque[str] = deque(maxlen=LINES)
        self._turn: int | None = None
        self._error = ""

    def update(self, db: sqlite3.Connection, record: GameRecord) -> dict[str, Any]:
        """Catch up with ``record`` (a new game starts over) and return its scoreboard view."""
        rewritten = record.actions < self._applied  # the game's entries were rebuilt (journal recovery)
        # A journal moved aside and started anew numbers its games from 1 again: the same id may
        # be another game (its start time tells).
        same = self._record is not None and (self._record.id, self._record.started_at) == (
            record.id, record.started_at)
        if not same or rewritten:
            self._start(record)
        self._record = record
        if self._match is not None:
            rows = db.execute("SELECT seq, text FROM entries WHERE game_id = ? AND kind = 'action' "
                              "AND seq > ? ORDER BY seq", (record.id, self._seq)).fetchall()
            for seq, text in rows:
                self._apply(str(text))
                if self._match is None:
                    break  # it stopped replaying: the view says why
                self._seq = int(seq)
        return self.view()

    def _start(self, record: GameRecord) -> None:
        self._seq, self._applied, self._turn, self._error = 0, 0, None, ""
        self._lines.clear()
        try:
            self._match = Match.new(GameConfig.from_dict(record.config))
        except EngineError as error:
            self._match, self._error = None, f"this game cannot be shown ({error})"

    def _apply(self, text: str) -> None:
        assert self._match is not None and self._record is not None
        match = self._match
        try:
            line, events = match.apply_described(text)
        except EngineError as error:
            self._match, self._error = None, f"the journal does not replay at '{text}' ({error})"
            return
        self._applied += 1
        notes = [n for e in events if (n := event_note(e))]
        self._lines.append(self._names(line + "".join(f" ({n})" for n in notes)))
        current = match.game.current_player(match.state)
        if current is not None:
            self._turn = current

    def _names(self, line: str) -> str:
        seats = self._record.seats if self._record else []
        return _PLAYER.sub(lambda m: seat_name(seats, int(m.group(1)) - 1), line)

    def view(self) -> dict[str, Any]:
        """Players with scores and whose turn, the bank, the last lines (newest last)."""
        record = self._record
        assert record is not None
        match = self._match
        scores: list[int] = list(record.result.get("scores", [])) if record.result else []
        bank = None
        over = record.status != "playing"
        if match is not None:
            scores = list(match.game.scores(match.state))
            bank = bank_text(record.game, match.state)
            over = over or match.is_over
        count = max(len(record.seats), len(scores))
        turn = None if over else self._turn
        return {
            "id": record.id, "game": record.game, "title": GAME_TITLES.get(record.game, record.game),
            "mode": record.mode, "status": record.status, "over": over, "bank": bank,
            "players": [{"name": seat_name(record.seats, i), "score": scores[i] if i < len(scores) else None,
                         "turn": i == turn} for i in range(count)],
            "turn": None if turn is None else seat_name(record.seats, turn),
            "lines": list(self._lines), "actions": self._applied, "error": self._error,
            "started_at": record.started_at,
        }

    @property
    def scores(self) -> list[int]:
        """The scores so far of the game followed (empty before the first update)."""
        if self._match is None:
            return []
        return list(self._match.game.scores(self._match.state))

