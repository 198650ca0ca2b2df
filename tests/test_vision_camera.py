"""Camera sources: one interface, and one clear line for every mistake."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.camera import FileSource, PiCameraSource, open_source


def test_an_image_file_gives_the_same_frame_on_every_read(tmp_path: Path) -> None:
    image = np.zeros((72, 128, 3), np.uint8)
    image[10:20, 10:20] = (0, 0, 255)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    source = open_source(f"file:{path}")
    first, second = source.read(), source.read()
    assert first is not None and second is not None
    assert np.array_equal(first, image) and np.array_equal(second, image)
    source.close()
    assert source.read() is None


def test_a_video_file_ends_with_none(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for value in (30, 90):
        writer.write(np.full((48, 64, 3), value, np.uint8))
    writer.release()
    source = FileSource(str(path))
    frames = [source.read(), source.read(), source.read()]
    assert frames[0] is not None and frames[1] is not None and frames[2] is None


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("file:/no/such/picture.png", "no such image or video"),
        ("usb:/dev/v4l/by-id/usb-none-video-index0", "ls /dev/v4l/by-id/"),
        ("webcam", "unknown camera"),
        ("sim:bandit:seven", "seed must be a whole number"),
    ],
)
def test_a_bad_camera_is_one_clear_line(spec: str, says: str) -> None:
    with pytest.raises(UserError, match=says) as error:
        open_source(spec)
    assert "\n" not in str(error.value)


def test_a_corrupt_image_file_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.jpg"
    path.write_bytes(b"not a jpeg")
    with pytest.raises(UserError, match="is not a JPEG, PNG"):
        open_source(f"file:{path}")


def test_the_pi_camera_without_picamera2_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_picamera(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("picamera2"):
            raise ModuleNotFoundError("No module named 'libcamera'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera)
    with pytest.raises(UserError, match="python3-picamera2"):
        PiCameraSource()


def test_the_simulated_camera_is_a_frame_source() -> None:
    source = open_source("sim:thanks-a-lottery:3")
    frame = source.read()
    assert frame is not None and frame.shape == (720, 1280, 3)
    source.close()
    assert source.read() is None
