"""The small copy of a camera frame that the outline search works on, made by the camera.

The search (:func:`vision.card_outlines.find_card_candidates`) looks at a copy of the frame
reduced to about ``WORK_PIXELS``; reducing a 1280x720 frame costs the reader 1.4 ms of CPU (of
~20 ms a frame). A Pi camera's ISP resizes a second, "lores" stream from the same exposure for
nothing (the picamera2 manual: main and lores come in one request), so a source may deliver
that copy with each frame, in its ``work`` after ``read()`` (:class:`vision.camera.PiCameraSource`).
The simulated table makes its copy itself, so the camera thread's path runs without a Pi;
sources without one (a USB webcam, a file) leave the reduction to the reader.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.card_outlines import WORK_PIXELS, shrink

__all__ = ["reduced", "work_copy", "work_size"]


def work_size(size: tuple[int, int]) -> tuple[int, int]:
    """The small copy's size (w, h) for frames of ``size``: about the outline search's
    ``WORK_PIXELS``, the width a multiple of 64 (the ISP's best alignment for YUV420 rows) and
    both sides reduced alike (1280x720: 512x288, a scale of 0.4)."""
    w, h = size
    width = max(64, round(w * math.sqrt(WORK_PIXELS / (w * h)) / 64) * 64)
    return width, round(h * width / w / 2) * 2


def reduced(frame: np.ndarray) -> np.ndarray:
    """``frame`` reduced to :func:`work_size` by area averaging (as a camera's resizer filters),
    for sources that have no small stream of their own."""
    w, h = work_size((frame.shape[1], frame.shape[0]))
    small = shrink(frame, w / frame.shape[1])
    return small if small.shape[:2] == (h, w) else cv2.resize(small, (w, h), interpolation=cv2.INTER_AREA)


def work_copy(source: object) -> np.ndarray | None:
    """The small copy of the frame ``source`` read last, when it delivers one (else None: the
    reader reduces the frame itself)."""
    work = getattr(source, "work", None)
    return work if isinstance(work, np.ndarray) else None
