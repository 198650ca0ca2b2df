"""The read-only open (history, export, scoreboard) reads every committed action, whatever the
path's characters, on a read-only card, and refuses what is not a journal with one line while
changing nothing on disk."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal, JournalError, open_readonly
from companion.journal.readonly import side_file

CONFIG = {"game": "bandit", "players": 2, "variants": [], "seed": 7, "options": {}}


def _journal_with(path: Path, actions: int) -> int:
    with Journal.open(path) as journal:
        gid = journal.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
        for n in range(actions):
            journal.record_action(gid, f"spin {n}")
    return gid


def _listing(directory: Path) -> dict[str, bytes]:
    """The directory's files and contents, leaving out the empty ``-wal``/``-shm`` bookkeeping
    files that SQLite itself makes for any reader of a WAL database (they hold no data)."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())
            if p.is_file() and not (p.name.endswith(("-wal", "-shm")) and p.name.removesuffix("-wal")
                                    .removesuffix("-shm") and _is_bookkeeping(p))}


def _is_bookkeeping(side: Path) -> bool:
    return side.name.endswith("-shm") or side.stat().st_size == 0


@pytest.mark.parametrize("name", ["a #1.sqlite", "what?.sqlite", "100%25.sqlite", "x%3Fy#z?w.sqlite"])
def test_odd_characters_in_the_path_read_the_same_journal(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    gid = _journal_with(path, 3)
    before = _listing(tmp_path)
    with open_readonly(path) as journal:
        assert journal.how == "ro"
        assert journal.actions(gid) == ["spin 0", "spin 1", "spin 2"]
    assert _listing(tmp_path) == before  # nothing created, renamed or changed


def test_a_live_daemons_uncheckpointed_actions_are_read(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    writer = Journal.open(path)
    gid = writer.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
    for n in range(5):
        writer.record_action(gid, f"spin {n}")
    assert side_file(path, "-wal").stat().st_size > 0
    with open_readonly(path) as journal:
        assert len(journal.actions(gid)) == 5
    writer.close()


@pytest.mark.parametrize("kind", ["missing", "directory", "text", "config", "empty", "foreign"])
def test_what_is_not_a_journal_is_one_clear_line_and_untouched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "target"
    if kind == "directory":
        path.mkdir()
    elif kind == "text":
        path.write_text("shopping: milk, eggs\n")
    elif kind == "config":
        path.write_text('[game]\ndefault = "bandit"\n')
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "foreign":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE photos (name TEXT)")
        db.commit()
        db.close()
    before = _listing(tmp_path)
    with pytest.raises(JournalError) as caught:
        open_readonly(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    expected = {"missing": "no journal", "directory": "directory", "text": "not an SQLite database",
                "config": "not an SQLite database", "empty": "empty", "foreign": "another program"}
    assert expected[kind] in message
    assert _listing(tmp_path) == before


def test_a_permission_problem_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite"
    _journal_with(path, 1)
    real_open = Path.open

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        if self == path:
            raise PermissionError(13, "Permission denied")
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    # Injected at the seam so the test holds as root too (root ignores chmod).
    monkeypatch.setattr(Path, "open", refuse)
    with pytest.raises(JournalError, match="permission denied"):
        open_readonly(path)


def _clean_stop_copy(tmp_path: Path, actions: int) -> tuple[Path, int]:
    path = tmp_path / "card" / "journal.sqlite"
    path.parent.mkdir()
    gid = _journal_with(path, actions)
    assert not side_file(path, "-wal").exists()  # a clean close checkpoints and removes the WAL
    return path, gid


def _crash_copy(tmp_path: Path, actions: int, keep_shm: bool) -> tuple[Path, int]:
    """A journal as a pulled plug leaves it: actions only in the WAL (copied while open)."""
    source = tmp_path / "live" / "journal.sqlite"
    source.parent.mkdir()
    writer = Journal.open(source)
    gid = writer.start_game(CONFIG, ["Ann", "Bob"], "cabinet")
    for n in range(actions):
        writer.record_action(gid, f"spin {n}")
    card = tmp_path / "card"
    card.mkdir()
    for suffix in ("", "-wal") + (("-shm",) if keep_shm else ()):
        shutil.copyfile(side_file(source, suffix), side_file(card / "journal.sqlite", suffix))
    writer.close()
    return card / "journal.sqlite", gid


_READ_ON_READONLY_CARD = """
import sys
from pathlib import Path
from companion.journal import open_readonly
with open_readonly(Path(sys.argv[1])) as j:
    print(j.how, len(j.actions(int(sys.argv[2]))))
"""


def _read_on_a_readonly_mount(path: Path, gid: int) -> str:
    """Run the reader with ``path``'s directory bind-mounted read-only (a user namespace)."""
    if not shutil.which("unshare"):
        pytest.skip("needs unshare(1) for a read-only mount")
    card = path.parent
    script = (f'mount --bind "{card}" "{card}" && mount -o remount,bind,ro "{card}" && '
              f'! touch "{card}/probe" 2>/dev/null && exec "{sys.executable}" -c "$0" "$1" "$2"')
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script, _READ_ON_READONLY_CARD, str(path), str(gid)],
                          capture_output=True, text=True, timeout=120, env=os.environ.copy())
    if done.returncode != 0 and "mount" in done.stderr and "Traceback" not in done.stderr:
        pytest.skip(f"cannot make a read-only mount here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_readonly_card_after_a_clean_stop_is_read_whole(tmp_path: Path) -> None:
    path, gid = _clean_stop_copy(tmp_path, 4)
    assert _read_on_a_readonly_mount(path, gid) == "immutable 4"


def test_a_readonly_card_after_a_crash_reads_the_wal(tmp_path: Path) -> None:
    path, gid = _crash_copy(tmp_path, 6, keep_shm=True)
    assert _read_on_a_readonly_mount(path, gid) == "ro 6"


def test_a_readonly_card_with_a_wal_but_no_shm_reads_a_copy(tmp_path: Path) -> None:
    path, gid = _crash_copy(tmp_path, 7, keep_shm=False)
    before = _listing(path.parent)
    assert _read_on_a_readonly_mount(path, gid) == "snapshot 7"
    assert _listing(path.parent) == before


@pytest.mark.parametrize("command", [["history"], ["history", "--nights"], ["export", "1"], ["backup"]])
def test_damage_past_the_first_page_is_one_line_from_every_reader(
        tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The first page (what the open checks) is intact, the tables' pages are not: the commands
    that read a journal say it is damaged in one line and touch nothing (no traceback)."""
    from companion.cli import main
    from tests.journal_faults import scribble

    path = tmp_path / "journal.sqlite"
    _journal_with(path, 300)
    for page in (3, 4, 5):  # the tables' pages (page 1 is the header and schema)
        scribble(path, 4096 * (page - 1) + 8, 100)
    before = _listing(tmp_path)
    target = [str(tmp_path / "copy.sqlite")] if command == ["backup"] else []
    code = main([*command, *target, "--journal", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and "damaged" in err and str(path) in err
    assert _listing(tmp_path) == before
