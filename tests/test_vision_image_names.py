"""A photo whose file name is not UTF-8 (copied from an old camera card) is read, never a crash.

OpenCV's ``imread`` ended the whole process on such a name; ``read_image`` now decodes the bytes
Python read, and lines about the file show its odd bytes escaped.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.image_files import check_image_file, read_image


def odd_name(folder: Path, stem: bytes, suffix: bytes = b".png") -> Path:
    """A path in ``folder`` whose file name holds a byte that is not UTF-8."""
    return Path(os.fsdecode(os.fsencode(folder) + b"/" + stem + b"\xff" + suffix))


def test_a_photo_with_a_name_that_is_not_utf8_is_read(tmp_path: Path) -> None:
    picture = np.full((40, 60, 3), (10, 200, 30), np.uint8)
    path = odd_name(tmp_path, b"card")
    ok, encoded = cv2.imencode(".png", picture)
    assert ok
    path.write_bytes(encoded.tobytes())
    assert np.array_equal(read_image(path), picture)


def test_a_line_about_such_a_name_can_be_printed(tmp_path: Path) -> None:
    with pytest.raises(UserError) as refused:
        check_image_file(odd_name(tmp_path, b"missing"))
    line = str(refused.value)
    line.encode("utf-8")  # printable as it is: the odd byte is escaped
    assert "\\xff" in line


def test_vision_identify_on_such_a_name_answers_instead_of_crashing(tmp_path: Path) -> None:
    path = odd_name(tmp_path, b"table")
    ok, encoded = cv2.imencode(".png", np.full((120, 160, 3), 90, np.uint8))
    assert ok
    path.write_bytes(encoded.tobytes())
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "companion", "vision", "identify", os.fsencode(path)],
                          capture_output=True, env=env, timeout=600)
    assert done.returncode >= 0, f"killed by signal {-done.returncode}"
    assert b"Traceback" not in done.stderr
