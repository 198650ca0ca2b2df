"""Camera sources behind one interface: ``read() -> BGR frame | None`` and ``close()``.

Specs for :func:`open_source`:

- ``picamera``: the Pi camera through picamera2 (imported only here, only when asked for),
  1280x720 video frames.
- ``usb:/dev/v4l/by-id/...``: a USB webcam through OpenCV, by its stable by-id path.
- ``file:PATH``: an image (the same frame every read) or a video (None at its end).
- ``sim`` or ``sim:GAME[:SEED]``: the simulated table (default game bandit).

A source may deliver with each frame a small copy of it for the outline search (its ``work``
after ``read()``; see :mod:`vision.work_copy`): the Pi camera's "lores" stream.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.errors import UserError
from vision.work_copy import work_size

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


class FrameSource(Protocol):
    """Anything that gives camera frames."""

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None when there is none (end of a video, closed)."""

    def close(self) -> None:
        """Release the device; idempotent."""


class PiCameraSource:
    """The Raspberry Pi camera via picamera2 (apt package ``python3-picamera2``).

    ``paced``: ``read()`` waits for the camera's next frame, so the reader takes every frame.
    ``work``: the last frame's small copy (:mod:`vision.work_copy`), from the "lores" stream.
    """

    paced = True

    def __init__(self, size: tuple[int, int] = (1280, 720)) -> None:
        self.work: np.ndarray | None = None
        try:
            from picamera2 import Picamera2  # only on a Pi, only when the Pi camera is asked for
        except Exception as error:  # ImportError, or numpy ABI trouble ("dtype size changed")
            raise UserError(
                f"cannot use the Pi camera: picamera2 does not import ({error}); install "
                "python3-picamera2 and make the venv with --system-site-packages"
            ) from None
        try:
            self._camera: Any = Picamera2()
            try:
                # The lores stream is YUV420 on every Pi (RGB only on a Pi 5), in BT.601's
                # limited range as OpenCV's I420 conversion expects (the picamera2 manual).
                config = self._camera.create_video_configuration(
                    main={"size": size, "format": "RGB888"},
                    lores={"size": work_size(size), "format": "YUV420"},
                    colour_space=_bt601(),
                )
                self._camera.configure(config)
                self._lores = True
            except Exception:  # noqa: BLE001 - a camera stack without that stream: the frame alone
                config = self._camera.create_video_configuration(main={"size": size, "format": "RGB888"})
                self._camera.configure(config)
                self._lores = False
            _keep_highlights(self._camera)
            self._camera.start()
        except Exception as error:
            raise UserError(f"cannot open the Pi camera ({error}); is it connected and enabled?") from None
        self._open = True

    def read(self) -> np.ndarray | None:
        """The next frame; picamera2's "RGB888" arrays are already in BGR order for OpenCV."""
        if not self._open:
            return None
        if not self._lores:
            return np.ascontiguousarray(self._camera.capture_array()[:, :, :3])
        (frame, lores), _metadata = self._camera.capture_arrays(["main", "lores"])
        # YUV420 rows: the Y plane (height rows), then U and V at half size, each padded to
        # the stream's stride; the copy's width is a multiple of 64, so no padding to cut.
        self.work = cv2.cvtColor(np.ascontiguousarray(lores), cv2.COLOR_YUV2BGR_I420)
        return np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        """Stop and release the camera."""
        if self._open:
            self._open = False
            self._camera.stop()
            self._camera.close()


#: libcamera's ``AeConstraintMode`` ConstraintHighlight: the exposure keeps the brightest part
#: of the picture from clipping (the Raspberry Pi cameras' tuning: the brightest 2 % of pixels
#: at most 0.8 of full scale, besides the average it aims for). The cards' paper is the
#: brightest thing on a table: on a dark cloth the default exposure brightens the cloth and
#: clips white cards to one white, where the edge of a card lying over another is lost
#: (``companion bench realcards --light bright``, half a stop over: 233 of 276 cards named,
#: against 265 as photographed).
HIGHLIGHT_CONSTRAINT = 1


def _keep_highlights(camera: Any) -> None:
    """Ask the camera's automatic exposure not to clip highlights, where its camera stack
    offers that control. picamera2 refuses a control libcamera does not advertise; a camera
    without it, or refusing the value, keeps its default exposure rather than failing to open."""
    if "AeConstraintMode" not in getattr(camera, "camera_controls", {}):
        return
    try:
        camera.set_controls({"AeConstraintMode": HIGHLIGHT_CONSTRAINT})
    except Exception:  # noqa: BLE001 - any refusal: the default exposure, the camera still works
        return


def _bt601() -> Any:
    """libcamera's BT.601 limited-range colour space (Smpte170m), what OpenCV's I420 decoding
    assumes; None (picamera2's default) where libcamera offers no such name."""
    try:
        import libcamera  # installed with picamera2
    except Exception:  # noqa: BLE001 - an old or missing libcamera: the default colour space
        return None
    make = getattr(getattr(libcamera, "ColorSpace", None), "Smpte170m", None)
    return make() if callable(make) else None


class UsbSource:
    """A USB webcam opened by its ``/dev/v4l/by-id/...`` path (stable across reboots); ``read()``
    waits for its next frame (``paced``)."""

    paced = True

    def __init__(self, path: str, size: tuple[int, int] = (1280, 720)) -> None:
        if not Path(path).exists():
            raise UserError(f"no camera at {path}; list cameras with: ls /dev/v4l/by-id/")
        self._capture = cv2.VideoCapture(path, cv2.CAP_V4L2)
        if not self._capture.isOpened():
            raise UserError(f"cannot open the camera at {path} (in use by another program?)")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray | None:
        """The next frame, or None if the camera stopped delivering."""
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the device."""
        self._capture.release()


class FileSource:
    """An image file (the same frame on every read) or a video file (None at the end)."""

    def __init__(self, path: str) -> None:
        file = Path(path)
        if not file.is_file():
            raise UserError(f"no such image or video: {path}")
        self._image: np.ndarray | None = None
        self._capture: Any = None
        if file.suffix.lower() in IMAGE_SUFFIXES:
            from vision.image_files import read_image

            self._image = read_image(file)
        else:
            self._capture = cv2.VideoCapture(str(file))
            if not self._capture.isOpened():
                raise UserError(f"cannot read {path} as a video (corrupt or unsupported format?)")
        self._closed = False

    def read(self) -> np.ndarray | None:
        """The image again, or the video's next frame."""
        if self._closed:
            return None
        if self._image is not None:
            return self._image.copy()
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the file."""
        self._closed = True
        if self._capture is not None:
            self._capture.release()


def open_source(spec: str) -> FrameSource:
    """Open a frame source from its spec (see the module docstring); bad specs raise UserError."""
    if spec == "picamera":
        return PiCameraSource()
    if spec.startswith("usb:"):
        return UsbSource(spec[4:])
    if spec.startswith("file:"):
        return FileSource(spec[5:])
    if spec == "sim" or spec.startswith("sim:"):
        from vision.simulated import SimulatedTable

        parts = spec.split(":")
        game = parts[1] if len(parts) > 1 and parts[1] else "bandit"
        try:
            seed = int(parts[2]) if len(parts) > 2 else 0
        except ValueError:
            raise UserError(f"camera spec {spec!r}: the seed must be a whole number") from None
        return SimulatedTable(game, seed=seed)
    raise UserError(f"unknown camera {spec!r}: use picamera, usb:/dev/v4l/by-id/..., file:PATH or sim")
