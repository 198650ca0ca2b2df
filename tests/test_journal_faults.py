"""Fault injection on the journal: every way issue 15 found to lose, hide or wrongly throw aside a
night's scores, each asserting exactly how many actions are kept.

Real faults where the machine allows them without root tricks: a full disk is a 512 KB tmpfs and
a read-only card a read-only bind mount, both inside a user namespace (``unshare -rm``); where that
is not allowed, the same errors are injected at the store's seams, so the suite holds as root too
(root ignores chmod). Power cuts are SIGKILLs of a child process in the middle of a checkpoint or
a backup.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.journal import (
    Journal,
    JournalBusyError,
    JournalError,
    JournalFullError,
    JournalReadOnlyError,
    open_readonly,
    opening,
)
from companion.journal import lock as lock_module
from companion.journal.backup import backups, newest_intact
from companion.journal.readonly import side_file
from tests.journal_faults import journal_games, played, scribble

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def _files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir()) if p.is_file()}


def _count(path: Path) -> int:
    with open_readonly(path) as journal:
        return sum(record.actions for record in journal.games())


# --- what is not a journal, or not ours to touch: one line, nothing changed -------------------


@pytest.mark.parametrize("kind", ["directory", "config file", "text file", "foreign database"])
def test_a_path_that_is_not_a_journal_is_one_line_and_untouched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "journal.sqlite"
    if kind == "directory":
        path.mkdir()
        (path / "inside").write_text("keep me")
    elif kind == "config file":
        path.write_text('[game]\ndefault = "bandit"\n[journal]\npath = "here"\n')
    elif kind == "text file":
        path.write_text("Tuesday: Ann 120, Bob 85\n" * 50)
    else:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE photos (name TEXT)")
        db.commit()
        db.close()
    before = _files(tmp_path)
    with pytest.raises(JournalError) as caught:
        Journal.open(path)
    assert "\n" not in str(caught.value) and "nothing was changed" in str(caught.value)
    assert _files(tmp_path) == before
    if kind == "directory":
        assert (path / "inside").read_text() == "keep me"


@pytest.mark.parametrize("name", ["night #3.sqlite", "why?.sqlite", "100%25.sqlite"])
def test_odd_characters_in_the_path_never_make_a_healthy_journal_corrupt(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    journal_games(path, [15])
    for _ in range(3):  # every start
        with Journal.open(path) as journal:
            assert journal.recovery is None
            assert journal.actions(1) and len(journal.actions(1)) == 15
    assert not list(tmp_path.glob("*corrupt*"))


@pytest.mark.parametrize("where", ["reading the journal", "the lock file"])
def test_a_permission_problem_is_one_line_and_touches_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    path = tmp_path / "journal.sqlite"
    journal_games(path, [10])
    before = _files(tmp_path)
    denied = OSError(errno.EACCES, "Permission denied")
    if where == "reading the journal":
        real_open = Path.open

        def refuse(self: Path, *args: object, **kwargs: object) -> object:
            if self == path:
                raise denied
            return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Path, "open", refuse)
    else:
        real = os.open
        monkeypatch.setattr(lock_module.os, "open", lambda p, *a, **k: (_ for _ in ()).throw(denied)
                            if str(p).endswith(".lock") else real(p, *a, **k))
    with pytest.raises(JournalError, match="permission denied") as caught:
        Journal.open(path)
    assert not isinstance(caught.value, (JournalFullError, JournalReadOnlyError))
    monkeypatch.undo()
    assert _files(tmp_path) == before and _count(path) == 10


# --- a full disk and a read-only card at boot: pause (retryable), nothing moved ----------------


def _in_namespace(tmp_path: Path, mount: str, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (python) with ``tmp_path/card`` mounted per ``mount`` in a user namespace."""
    if not shutil.which("unshare"):
        pytest.skip("needs unshare(1)")
    card = tmp_path / "card"
    card.mkdir(exist_ok=True)
    commands = {
        "full": f'mount -t tmpfs -o size=512k tmpfs "{card}"',
        "readonly": f'mount --bind "{card}" "{card}" && mount -o remount,bind,ro "{card}"',
    }[mount]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    shell = f'{commands} && exec "{sys.executable}" -c "$0" "$1"'
    done = subprocess.run(["unshare", "-rm", "sh", "-c", shell, textwrap.dedent(script), str(card)],
                          capture_output=True, text=True, timeout=300, env=env)
    if done.returncode != 0 and "mount" in done.stderr and "Traceback" not in done.stderr:
        pytest.skip(f"user namespaces cannot mount here: {done.stderr.strip()[:120]}")
    return done


def test_a_full_disk_at_boot_pauses_and_resumes_exactly(tmp_path: Path) -> None:
    done = _in_namespace(tmp_path, "full", """
        import os, sys
        from pathlib import Path
        from companion.journal import Journal, JournalFullError
        from tests.journal_faults import journal_games
        card = Path(sys.argv[1])
        path = card / "journal.sqlite"
        journal_games(path, [20])                      # a clean stop after 20 actions
        filler = os.open(card / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(filler, bytes(4096))
        except OSError:
            os.close(filler)                           # the disk is full
        try:
            Journal.open(path)
            print("opened on a full disk")
        except JournalFullError as error:
            print("paused:", error)
        assert not list(card.glob("*corrupt*")), "a healthy journal was moved aside"
        os.unlink(card / "filler")                     # room again: the retry succeeds
        with Journal.open(path) as journal:
            journal.record_action(1, "spin")
            print("kept", len(journal.actions(1)), "recovered", journal.recovery)
    """)
    assert done.returncode == 0, done.stderr
    assert "paused: cannot open the journal" in done.stdout and "disk is full" in done.stdout
    assert "kept 21 recovered None" in done.stdout


def test_a_readonly_card_at_boot_pauses_and_history_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "card" / "journal.sqlite"
    path.parent.mkdir()
    journal_games(path, [18])
    done = _in_namespace(tmp_path, "readonly", """
        import sys
        from pathlib import Path
        from companion.cli import main
        from companion.journal import Journal, JournalReadOnlyError
        path = Path(sys.argv[1]) / "journal.sqlite"
        try:
            Journal.open(path)
            print("opened a read-only card for writing")
        except JournalReadOnlyError as error:
            print("paused:", error)
        sys.exit(main(["history", "--journal", str(path), "--json"]))
    """)
    assert done.returncode == 0, done.stderr
    # the journal is there: opening it is refused (it is not "cannot create the journal")
    assert "paused: cannot open the journal" in done.stdout and "read-only" in done.stdout
    assert '"actions": 18' in done.stdout


def test_full_and_readonly_are_told_apart_at_the_write_seam(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same classification without namespaces (CI as root, containers without userns)."""
    path = tmp_path / "journal.sqlite"
    journal_games(path, [12])
    before = _files(tmp_path)
    real_statvfs = os.statvfs

    class ReadOnlyMount:
        def __init__(self, real: os.statvfs_result) -> None:
            self.f_flag = real.f_flag | os.ST_RDONLY
            self.f_bavail = self.f_bfree = real.f_bfree

    cases: list[tuple[int, bool, type[JournalError]]] = [
        (sqlite3.SQLITE_FULL, False, JournalFullError),
        (sqlite3.SQLITE_READONLY, True, JournalReadOnlyError),
        (sqlite3.SQLITE_IOERR, True, JournalReadOnlyError),
    ]
    for code, read_only, expected in cases:
        error = sqlite3.OperationalError("refused")
        error.sqlite_errorcode = code  # type: ignore[attr-defined]

        def refuse(*args: object, error: sqlite3.Error = error, **kwargs: object) -> object:
            raise error

        monkeypatch.setattr(opening, "connect", refuse)
        if read_only:
            monkeypatch.setattr(opening.os, "statvfs", lambda p: ReadOnlyMount(real_statvfs(p)))
        with pytest.raises(expected):
            Journal.open(path)
        monkeypatch.undo()
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    with Journal.open(path) as journal:
        real_db = journal._db

        class Full:
            def execute(self, sql: str, *args: object) -> object:
                if sql.startswith("INSERT"):
                    raise full
                return real_db.execute(sql, *args)

            in_transaction = property(lambda self: real_db.in_transaction)

        journal._db = Full()  # type: ignore[assignment]
        with pytest.raises(JournalFullError):
            journal.record_action(1, "spin")
        journal._db = real_db
    assert not list(tmp_path.glob("*corrupt*"))
    assert _files(tmp_path)["journal.sqlite"] == before["journal.sqlite"]
    assert _count(path) == 12


# --- one daemon per journal ----------------------------------------------------------------


def test_a_second_daemon_process_is_refused_and_the_journal_replays(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from pathlib import Path
        from companion.journal import Journal
        from tests.journal_faults import played
        config, actions = played(30)
        journal = Journal.open(Path(sys.argv[1]))
        gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
        for action in actions[:15]:
            journal.record_action(gid, action)
        print("holding", flush=True)
        sys.stdin.readline()
        for action in actions[15:]:
            journal.record_action(gid, action)
        journal.close()
    """), str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        second = subprocess.run([sys.executable, "-m", "companion", "run", "--headless", "--game", "bandit",
                                 "--journal", str(path), "--frames", "5"], capture_output=True, text=True,
                                timeout=120,
                                env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"))
        assert second.returncode == 2
        assert "another companion (pid" in second.stderr and "Traceback" not in second.stderr
        assert holder.stdin is not None
        holder.stdin.write("go on\n")
        holder.stdin.close()
        assert holder.wait(timeout=120) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
    from companion.engine import GameConfig, replay

    with open_readonly(path) as journal:
        record = journal.games()[0]
        assert len(journal.games()) == 1 and record.actions == 30
        replay(GameConfig.from_dict(record.config), journal.actions(record.id))


def test_the_lock_is_free_again_after_the_holder_is_killed(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    code = ("import sys, time; from pathlib import Path; from companion.journal import Journal; "
            "j = Journal.open(Path(sys.argv[1])); print('open', flush=True); time.sleep(600)")
    child = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "open"
    with pytest.raises(JournalBusyError):
        Journal.open(path)
    child.send_signal(signal.SIGKILL)  # a pulled plug: no clean close
    child.wait(timeout=60)
    Journal.open(path).close()


# --- damage: only SQLite's verdict, recovery counted exactly ---------------------------------


def test_damage_in_the_wal_after_a_checkpoint_loses_only_the_unchecked_turn(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(12)
    writer = Journal.open(path)
    gid = writer.start_game(config, ["Ann", "Bob"], "cabinet")
    for action in actions[:8]:
        writer.record_action(gid, action)
    assert writer.checkpoint()  # end of a turn: 8 actions in the main file
    for action in actions[8:]:
        writer.record_action(gid, action)
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(side_file(path, suffix), side_file(card / "journal.sqlite", suffix))
    writer.close()
    scribble(side_file(card / "journal.sqlite", "-wal"), 32 + 24 + 100, 64)  # 64 bytes in the first frame
    with Journal.open(card / "journal.sqlite") as journal:
        assert journal.actions(gid) == actions[:8]


@pytest.mark.parametrize("main_file", ["emptied", "deleted"])
def test_a_lost_main_file_is_rebuilt_from_the_wal_with_every_action(tmp_path: Path, main_file: str) -> None:
    path = tmp_path / "journal.sqlite"
    config, actions = played(33)
    writer = Journal.open(path)
    gid = writer.start_game(config, ["Ann", "Bob"], "cabinet")
    for action in actions:
        writer.record_action(gid, action)
    card = tmp_path / "card"
    card.mkdir()
    shutil.copyfile(side_file(path, "-wal"), side_file(card / "journal.sqlite", "-wal"))
    if main_file == "emptied":
        (card / "journal.sqlite").write_bytes(b"")
    writer.close()
    with Journal.open(card / "journal.sqlite") as journal:
        assert journal.recovery is not None and journal.recovery.actions_saved == 33
        assert journal.actions(gid) == actions


# --- power cuts during a checkpoint and during a backup -------------------------------------

_WRITER = """
import sys
from pathlib import Path
from companion.journal import Journal
from tests.journal_faults import played
path, what, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
config, actions = played(count)
journal = Journal.open(path)
gid = journal.start_game(config, ["Ann", "Bob"], "cabinet")
for n, action in enumerate(actions):
    journal.record_action(gid, action)
    journal.record_observation(gid, "x" * 3000)    # a big WAL: the checkpoint takes a while
if what == "checkpoint":
    print("checkpointing", flush=True)
    while True:
        journal.checkpoint()
        journal.record_observation(gid, "y" * 3000)
else:
    import time
    def progress(status, remaining, total):
        print("backing up", remaining, total, flush=True)
        time.sleep(600)                              # the plug is pulled in here
    journal.automatic_backup("warmup")
    from companion.journal.backup import backup_dir, backup
    backup(journal.connection, backup_dir(path) / "journal-99999999T999999-cut.sqlite", progress)
"""


@pytest.mark.parametrize("what", ["checkpoint", "backup"])
def test_a_power_cut_during_a_checkpoint_or_a_backup_keeps_every_action(tmp_path: Path, what: str) -> None:
    path = tmp_path / "journal.sqlite"
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), what, "40"], stdout=subprocess.PIPE,
                             text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.startswith("checkpointing" if what == "checkpoint" else "backing up"), line
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    with Journal.open(path) as journal:
        assert journal.recovery is None
        assert len(journal.actions(1)) == 40
    if what == "backup":
        # The cut copy never became a backup; the complete one is what recovery would use.
        assert [p.name.endswith("-warmup.sqlite") for p in backups(path)] == [True]
        assert newest_intact(path) == backups(path)[0]


def test_a_torn_checkpoint_is_finished_by_the_next_open(tmp_path: Path) -> None:
    """Deterministic power cut mid-checkpoint: half the WAL's pages copied into the main file."""
    path = tmp_path / "journal.sqlite"
    config, actions = played(40)
    writer = Journal.open(path)
    gid = writer.start_game(config, ["Ann", "Bob"], "cabinet")
    for action in actions:
        writer.record_action(gid, action)
    card = tmp_path / "card"
    card.mkdir()
    torn = card / "journal.sqlite"
    for suffix in ("", "-wal"):
        shutil.copyfile(side_file(path, suffix), side_file(torn, suffix))
    writer.close()
    wal = side_file(torn, "-wal").read_bytes()
    page_size = int.from_bytes(wal[8:12], "big")
    frames = (len(wal) - 32) // (24 + page_size)
    main = bytearray(torn.read_bytes())
    for frame in range(frames // 2):  # what a checkpoint writes first, then the plug
        start = 32 + frame * (24 + page_size)
        page = int.from_bytes(wal[start:start + 4], "big")
        data = wal[start + 24:start + 24 + page_size]
        offset = (page - 1) * page_size
        if len(main) < offset + page_size:
            main.extend(bytes(offset + page_size - len(main)))
        main[offset:offset + page_size] = data
    torn.write_bytes(bytes(main))
    with Journal.open(torn) as journal:
        assert journal.recovery is None
        assert journal.actions(gid) == actions
