"""A second judge for the reader: what a real, cheap camera does to a picture of the table.

The simulated table (``vision.simulated``) draws cards, light, glare and hands, and the
reader was tuned on its frames. So that it is not the only judge, ``RoughCamera`` puts a frame
through what that generator never does, each drawn per scene from its own seed:

- a wide lens's barrel distortion (straight card edges bow; up to ~30 px at the frame corners),
- vignetting (corners up to 35 % darker),
- motion blur (the table knocked during a long exposure in dim light: a streak of up to 3.5 px
  in any direction; a card still sliding smears more, but the tracker waits for it to rest),
- exposure off by up to a stop either way, with clipped highlights,
- shot noise that grows with brightness, as a sensor's does,
- JPEG compression at quality 55-90 (a USB webcam's MJPEG stream), with its colour
  subsampling and 8x8 blocks.

:func:`exposed` alone (exposure and shot noise), :func:`toned`, :func:`webcam_like` and
:func:`turned` make the real-photo bench's copies of its photos in other light, through another
camera's tone curve, by a cheap webcam and turned (``companion bench realcards --light``,
``--tone``, ``realcards.webcam_like``, ``--turn``).

Distortion moves every point, so ``undistort`` maps the reader's corners back to the
undistorted frame the table's ground truth is in (the radial model is exact in that
direction), and the usual scoring applies.

>>> import numpy as np
>>> camera = RoughCamera(3)
>>> frame = np.full((720, 1280, 3), 128, np.uint8)
>>> camera.apply(frame).shape
(720, 1280, 3)
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.reader import Reading


@dataclass(frozen=True)
class RoughLook:
    """One scene's camera faults."""

    k1: float  # r_undistorted = r (1 + k1 r^2), r on the half-diagonal; positive = barrel
    vignette: float
    blur_px: float
    blur_angle: float
    exposure: float
    shot_noise: float
    jpeg_quality: int


class RoughCamera:
    """Applies one seeded ``RoughLook`` to frames of 1280x720 (or any size)."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng([seed, 0x52_4F_55_47])  # "ROUG": apart from the table's seeds
        self.look = RoughLook(
            k1=float(rng.uniform(0.0, 0.04)),
            vignette=float(rng.uniform(0.0, 0.35)),
            blur_px=float(rng.choice([0.0, 0.0, 1.5, 2.5, 3.5])),
            blur_angle=float(rng.uniform(0, math.pi)),
            exposure=float(2 ** rng.uniform(-1.0, 1.0)),
            shot_noise=float(rng.uniform(0.2, 0.7)),
            jpeg_quality=int(rng.integers(55, 91)),
        )
        self._seed = seed
        self._maps: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def apply(self, frame: np.ndarray) -> np.ndarray:
        """The frame as this camera would have delivered it (BGR uint8)."""
        look = self.look
        h, w = frame.shape[:2]
        map_x, map_y = self._distortion_maps(w, h)
        work = cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        if look.blur_px > 0:
            work = cv2.filter2D(work, -1, _streak(look.blur_px, look.blur_angle))
        work = work.astype(np.float32)
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        falloff = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        gain = cv2.resize(look.exposure * (1.0 - look.vignette * falloff), (w, h))
        work *= gain[:, :, None]
        clipped = _shot_noise(work, look.shot_noise, np.random.default_rng([self._seed, 1]))
        ok, encoded = cv2.imencode(".jpg", clipped, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
        assert ok  # encoding a valid uint8 BGR image cannot fail
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR)

    def undistort(self, reading: Reading, size: tuple[int, int] = (1280, 720)) -> Reading:
        """``reading`` with every corner moved back to where it lies in the undistorted frame."""
        cards = []
        for card in reading.cards:
            points = self._undistort_points(np.array(card.corners, np.float64), size)
            corners = tuple((float(x), float(y)) for x, y in points)
            cards.append(dataclasses.replace(card, corners=corners))
        return Reading(cards, reading.mat_found)

    def _undistort_points(self, points: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        w, h = size
        centre = np.array([w / 2, h / 2])
        norm = math.hypot(w / 2, h / 2)
        rel = (points - centre) / norm
        r2 = (rel**2).sum(axis=1, keepdims=True)
        return centre + rel * (1 + self.look.k1 * r2) * norm

    def _distortion_maps(self, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
        """For each pixel of the distorted picture, where it comes from in the undistorted one."""
        if (w, h) not in self._maps:
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
            points = np.stack([xs.ravel(), ys.ravel()], axis=1)
            source = self._undistort_points(points, (w, h))
            self._maps[(w, h)] = (
                source[:, 0].reshape(h, w).astype(np.float32),
                source[:, 1].reshape(h, w).astype(np.float32),
            )
        return self._maps[(w, h)]


def _streak(length: float, angle: float) -> np.ndarray:
    """A motion-blur kernel: a line of ``length`` px at ``angle``, summing to one."""
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (size - 1) / 2
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    cv2.line(
        kernel,
        (round(half - dx), round(half - dy)),
        (round(half + dx), round(half + dy)),
        1.0,
        1,
        cv2.LINE_AA,
    )
    return kernel / kernel.sum()


def _shot_noise(work: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """``work`` (float32 BGR, changed in place) with a sensor's shot noise, growing with the
    brightness, clipped to uint8 (highlights past white lost)."""
    work += rng.standard_normal(work.shape, np.float32) * strength * np.sqrt(np.maximum(work, 0))
    return np.clip(work, 0, 255).astype(np.uint8)


def exposed(image: np.ndarray, stops: float, seed: int, shot_noise: float = 0.5) -> np.ndarray:
    """``image`` (BGR uint8) as if exposed ``stops`` over (positive: light paper clips to white)
    or under (negative: a dim room), with the sensor's shot noise drawn from ``seed``."""
    work = image.astype(np.float32) * np.float32(2.0**stops)
    return _shot_noise(work, shot_noise, np.random.default_rng([seed, 2]))


def toned(image: np.ndarray, gamma: float) -> np.ndarray:
    """``image`` (uint8) through another camera's tone curve: each level v (0-1) becomes
    v ** ``gamma``. Below 1 the shadows and the mid-tones are lifted and the light tones pressed
    together (a camera that brightens a dark room, a phone's flattening of its highlights);
    above 1 the mid-tones sink and the light tones spread (a contrasty picture). Black and white
    stay where they are, and the order of the levels with them.

    >>> picture = np.array([[0, 64, 128, 255]], np.uint8)
    >>> toned(picture, 0.6).tolist(), toned(picture, 1.6).tolist()
    ([[0, 111, 169, 255]], [[0, 28, 85, 255]])
    """
    curve = 255.0 * (np.arange(256) / 255.0) ** gamma
    return cv2.LUT(image, np.clip(curve + 0.5, 0, 255).astype(np.uint8))


def webcam_like(
    image: np.ndarray,
    seed: int,
    blur: float = 1.2,
    cast: tuple[float, float, float] = (0.8, 0.95, 1.15),
    noise: float = 5.0,
    quality: int = 55,
) -> np.ndarray:
    """The photo as a cheap webcam would take it: softer (``blur``, px), a warm colour ``cast``
    (B, G, R gains), noisier (``noise``, grey levels), heavy JPEG compression (``quality``)."""
    rng = np.random.default_rng(seed)
    soft = cv2.GaussianBlur(image, (0, 0), blur).astype(np.float32)
    tinted = soft * np.float32(cast) + rng.normal(0.0, noise, soft.shape)
    compression = [cv2.IMWRITE_JPEG_QUALITY, quality]
    _ok, jpeg = cv2.imencode(".jpg", np.clip(tinted, 0, 255).astype(np.uint8), compression)
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def turned(image: np.ndarray, quarters: int) -> np.ndarray:
    """``image`` turned clockwise by ``quarters`` quarter turns (a camera mounted another way)."""
    return np.ascontiguousarray(np.rot90(image, -(quarters % 4)))


def turned_back(points: np.ndarray, quarters: int, shape: tuple[int, ...]) -> np.ndarray:
    """``points`` (x, y) found in :func:`turned` (``image``, ``quarters``), in ``image``'s own
    pixels; ``shape``: ``image``'s shape.

    >>> picture = np.zeros((3, 5), np.uint8)
    >>> picture[0, 4] = 1  # x 4, y 0
    >>> np.argwhere(turned(picture, 1))  # row 4, column 2
    array([[4, 2]])
    >>> turned_back(np.array([[2, 4]]), 1, picture.shape).tolist()
    [[4.0, 0.0]]
    """
    done = quarters % 4
    back = np.asarray(points, np.float64).reshape(-1, 2)
    for turn in reversed(range(done)):
        # Undo the turn that took a picture of this height (before it) a quarter further.
        height = shape[0] if turn % 2 == 0 else shape[1]
        back = np.stack([back[:, 1], height - 1 - back[:, 0]], axis=1)
    return back
