"""One daemon per journal: an exclusive ``flock`` on ``journal.sqlite.lock`` beside the journal.

Two daemons writing one journal both number their next action from the same ``MAX(seq)``: one
crashed with ``IntegrityError`` and the log left behind no longer replayed. The lock is taken
before the journal is opened for writing and held until the daemon closes it; the kernel drops
it when the process dies (a pulled plug, SIGKILL), so a stale lock never blocks a restart.

A separate lock file (not the journal itself) because moving a corrupt journal aside gives the
path a new file, and a lock on the old one would no longer exclude anyone. Readers
(``history``, ``export``, the scoreboard) take no lock: SQLite lets them read beside the writer.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite"
>>> first = JournalLock.acquire(path)
>>> JournalLock.acquire(path)
Traceback (most recent call last):
...
companion.journal.lock.JournalBusyError: another companion (pid ...) is already using the journal ...
>>> first.release()
>>> JournalLock.acquire(path).release()
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from pathlib import Path

from companion.journal.reading import JournalError


class JournalBusyError(JournalError):
    """Another process (a second daemon) holds the journal's lock."""


def lock_path(path: Path) -> Path:
    """The lock file of the journal at ``path``."""
    return path.with_name(path.name + ".lock")


class JournalLock:
    """A held lock; :meth:`release` (or process exit) lets the next daemon in."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, journal: Path) -> JournalLock:
        """Take the journal's lock without waiting.

        Raises :class:`JournalBusyError` (one line, with the holder's pid) when another process
        has it, and ``OSError`` when the lock file cannot be made (the caller tells a read-only
        card or a full disk from a permission problem).
        """
        path = lock_path(journal)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = _read_pid(fd)
            os.close(fd)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise JournalBusyError(
                    f"another companion (pid {holder or '?'}) is already using the journal {journal}; "
                    "stop it first (sudo systemctl stop jackpot-companion) or give this one "
                    "its own --journal"
                ) from None
            raise
        # The pid is only for the message above; a failed write (full disk) does not matter.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(fd, path)

    def release(self) -> None:
        """Let go of the lock (idempotent). The file stays: removing it would race a newcomer."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
