"""The game journal: every action and observation in SQLite (WAL, synchronous=FULL) before the
screen shows it, so a pulled plug never loses what the table saw. See :mod:`.store`; readers
(``history``, ``export``, the scoreboard) use :func:`open_readonly` (:mod:`.readonly`)."""

from companion.journal.readonly import ReadOnlyJournal, open_readonly
from companion.journal.store import (
    GameRecord,
    Journal,
    JournalBusyError,
    JournalError,
    JournalFullError,
    JournalReadOnlyError,
    JournalUnwritableError,
    default_journal_path,
    open_for_cli,
    state_dir,
)

__all__ = [
    "GameRecord", "Journal", "JournalError", "JournalFullError", "default_journal_path", "open_for_cli",
    "state_dir", "ReadOnlyJournal", "open_readonly", "JournalBusyError", "JournalReadOnlyError",
    "JournalUnwritableError",
]
