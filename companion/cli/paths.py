"""Output paths the commands write to: checked before any work, one line when they cannot be used.

``cards print --out``, ``cards mat --out``, ``cards images --out`` and ``export -o`` all go
through here, so a folder given for a file, a file given for a folder, a missing folder or an
unwritable place is one clear line (exit 2) and never a traceback after the work was done.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> output_file(folder / "cards.pdf") == folder / "cards.pdf"
True
>>> output_file(folder)
Traceback (most recent call last):
  ...
companion.errors.UserError: cannot write ... it is a folder; give a file name, e.g. .../out.pdf
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from companion.errors import UserError


def _shown(path: Path) -> str:
    text = str(path)
    return text if len(text) <= 120 else "..." + text[-117:]


def output_file(name: str | Path, example: str = "out.pdf") -> Path:
    """``name`` as a path if a file can be written there; else :class:`UserError` saying what to give."""
    _utf8(name)
    path = Path(name)
    shown = _shown(path)
    with _os_errors(path):
        if path.is_dir():
            raise UserError(f"cannot write {shown}: it is a folder; give a file name, e.g. {shown}/{example}")
        parent = path.parent
        if not parent.exists():
            raise UserError(f"cannot write {shown}: the folder {_shown(parent)} does not exist; create it")
        if not parent.is_dir():
            raise UserError(f"cannot write {shown}: {_shown(parent)} is a file, not a folder")
        if path.exists() and not os.access(path, os.W_OK) or not os.access(parent, os.W_OK | os.X_OK):
            raise UserError(f"cannot write {shown}: permission denied; choose a folder you can write to")
    return path


def output_folder(name: str | Path) -> Path:
    """``name`` as a path if it is a folder or can be made one; else :class:`UserError`."""
    _utf8(name)
    path = Path(name)
    shown = _shown(path)
    with _os_errors(path):
        if path.exists() and not path.is_dir():
            raise UserError(f"cannot write into {shown}: it is a file, not a folder; give a folder name")
        probe = path
        while not probe.exists():
            if probe == probe.parent:
                break
            probe = probe.parent
        if not probe.is_dir():
            raise UserError(f"cannot write into {shown}: {_shown(probe)} is a file, not a folder")
        if not os.access(probe, os.W_OK | os.X_OK):
            raise UserError(f"cannot write into {shown}: permission denied; choose a folder you can write to")
    return path


def _utf8(path: str | Path) -> None:
    """Refuse an empty name, and one that is not UTF-8 (OpenCV's imwrite crashes on one)."""
    if str(path) == "":
        raise UserError("the output name is empty; give a file or folder name")
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        raise UserError(f"cannot write {ascii(str(path))[:120]}: the name is not valid UTF-8; "
                        "choose a name in plain text") from None


@contextlib.contextmanager
def _os_errors(path: Path) -> Iterator[None]:
    _utf8(path)
    try:
        yield
    except OSError as error:
        raise UserError(f"cannot write {_shown(path)}: {error.strerror or error}") from None


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """Turn an ``OSError`` while writing ``path`` (disk full, removed folder) into one line."""
    with _os_errors(path):
        yield
