"""A small vector painter: shapes in a 100x100 design box, rendered with OpenCV to RGBA.

Every symbol is drawn in the same 100-unit box so strokes, outlines and highlights look
alike at any size. Each primitive is rasterised as an anti-aliased coverage mask at twice the
target size, composited "over" the canvas in premultiplied colour (so edges never get a dark
fringe on the transparent background), and the result is downsampled with area averaging.

>>> canvas = Canvas(64)
>>> canvas.circle((50, 50), 30, fill=(200, 30, 40))
>>> canvas.to_rgba().shape
(64, 64, 4)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import cv2
import numpy as np

from companion.art.palette import INK, RGB, STROKE, Point, mix, star_points

__all__ = ["INK", "RGB", "STROKE", "Canvas", "Point", "mix", "star_points"]
_SHIFT = 4  # cv2 fixed-point bits: sub-pixel precise shapes
_ONE = 1 << _SHIFT


class Canvas:
    """An RGBA drawing surface addressed in design units (0..100 on both axes)."""

    def __init__(self, size_px: int, supersample: int = 2) -> None:
        if size_px < 8:
            raise ValueError(f"symbol size must be at least 8 px, got {size_px}")
        self.size_px = size_px
        self.n = size_px * supersample
        self.k = self.n / 100.0
        self._rgb = np.zeros((self.n, self.n, 3), np.float32)  # premultiplied colour
        self._alpha = np.zeros((self.n, self.n), np.float32)
        self._offset = 0.0
        self._scale = 1.0
        self._scratch = np.zeros((self.n, self.n), np.uint8)
        self._dirty = (0, 0, 0, 0)

    @contextmanager
    def inset(self, offset: float, extent: float) -> Iterator[None]:
        """Draw into the square sub-box (offset, offset, offset+extent) as if it were 0..100."""
        saved = (self._offset, self._scale)
        self._offset = saved[0] + offset * saved[1]
        self._scale = saved[1] * extent / 100.0
        try:
            yield
        finally:
            self._offset, self._scale = saved

    # --- coordinate helpers -------------------------------------------------------------
    def _fx(self, value: float) -> int:
        """A length in design units -> cv2 fixed point."""
        return int(round(value * self._scale * self.k * _ONE))

    def _pt(self, p: Point) -> tuple[int, int]:
        return (self._fx(p[0] + self._offset / self._scale), self._fx(p[1] + self._offset / self._scale))

    def _px(self, units: float) -> int:
        return max(1, int(round(units * self._scale * self.k)))

    def _mask(self) -> np.ndarray:
        # one scratch buffer, cleared only where the previous shape was drawn, instead of a
        # fresh full-size mask for each of a symbol's ~30 shapes
        x, y, w, h = self._dirty
        self._scratch[y : y + h, x : x + w] = 0
        return self._scratch

    def _composite(self, mask: np.ndarray, color: RGB, opacity: float = 1.0) -> None:
        x, y, w, h = cv2.boundingRect(mask)
        self._dirty = (x, y, w, h)
        if w == 0 or h == 0:
            return
        cover = mask[y : y + h, x : x + w].astype(np.float32) * (opacity / 255.0)
        keep = 1.0 - cover
        col = np.asarray(color, np.float32) / 255.0
        rgb = self._rgb[y : y + h, x : x + w]
        rgb *= keep[..., None]
        rgb += cover[..., None] * col
        alpha = self._alpha[y : y + h, x : x + w]
        alpha *= keep
        alpha += cover

    # --- primitives ----------------------------------------------------------------------
    def polygon(
        self,
        points: Sequence[Point],
        fill: RGB | None = None,
        outline: RGB | None = INK,
        stroke: float = STROKE,
        opacity: float = 1.0,
    ) -> None:
        """A closed polygon, filled and outlined."""
        pts = np.array([self._pt(p) for p in points], np.int32).reshape(-1, 1, 2)
        if fill is not None:
            mask = self._mask()
            cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, _SHIFT)
            self._composite(mask, fill, opacity)
        if outline is not None:
            mask = self._mask()
            cv2.polylines(mask, [pts], True, 255, self._px(stroke), cv2.LINE_AA, _SHIFT)
            self._composite(mask, outline, opacity)

    def circle(
        self,
        center: Point,
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = INK,
        stroke: float = STROKE,
        opacity: float = 1.0,
    ) -> None:
        """A filled, outlined circle."""
        self.ellipse(center, (radius, radius), 0.0, fill, outline, stroke, opacity)

    def ellipse(
        self,
        center: Point,
        axes: tuple[float, float],
        angle: float = 0.0,
        fill: RGB | None = None,
        outline: RGB | None = INK,
        stroke: float = STROKE,
        opacity: float = 1.0,
        arc: tuple[float, float] = (0.0, 360.0),
    ) -> None:
        """An ellipse (or an arc of one when ``arc`` is not the full turn)."""
        c = self._pt(center)
        ax = (self._fx(axes[0]), self._fx(axes[1]))
        if fill is not None:
            mask = self._mask()
            cv2.ellipse(mask, c, ax, angle, arc[0], arc[1], 255, -1, cv2.LINE_AA, _SHIFT)
            self._composite(mask, fill, opacity)
        if outline is not None:
            mask = self._mask()
            cv2.ellipse(mask, c, ax, angle, arc[0], arc[1], 255, self._px(stroke), cv2.LINE_AA, _SHIFT)
            self._composite(mask, outline, opacity)

    def line(self, a: Point, b: Point, color: RGB = INK, width: float = STROKE, opacity: float = 1.0) -> None:
        """A straight stroke with round caps."""
        mask = self._mask()
        cv2.line(mask, self._pt(a), self._pt(b), 255, self._px(width), cv2.LINE_AA, _SHIFT)
        self._composite(mask, color, opacity)

    def polyline(
        self, points: Sequence[Point], color: RGB = INK, width: float = STROKE, opacity: float = 1.0
    ) -> None:
        """An open path of straight segments."""
        pts = np.array([self._pt(p) for p in points], np.int32).reshape(-1, 1, 2)
        mask = self._mask()
        cv2.polylines(mask, [pts], False, 255, self._px(width), cv2.LINE_AA, _SHIFT)
        self._composite(mask, color, opacity)

    def stem(self, points: Sequence[Point], color: RGB, width: float) -> None:
        """A thick coloured path with the shared ink outline around it (stalks, handles)."""
        self.polyline(points, INK, width + STROKE * 1.4)
        self.polyline(points, color, width)

    def rounded_rect(
        self,
        box: tuple[float, float, float, float],
        radius: float,
        fill: RGB | None = None,
        outline: RGB | None = INK,
        stroke: float = STROKE,
        opacity: float = 1.0,
    ) -> None:
        """A rectangle (x0, y0, x1, y1) with rounded corners, as one polygon."""
        self.polygon(_rounded_points(box, radius), fill, outline, stroke, opacity)

    def text(
        self,
        text: str,
        center: Point,
        height: float,
        fill: RGB,
        outline: RGB | None = INK,
        weight: float = 0.16,
        font: int = cv2.FONT_HERSHEY_DUPLEX,
    ) -> None:
        """Centred text ``height`` units tall (cap height), stroke ``weight`` x height thick."""
        base_scale = 1.0
        (tw, th), _ = cv2.getTextSize(text, font, base_scale, 1)
        px_height = height * self._scale * self.k
        scale = px_height / th
        thick = max(1, int(round(px_height * weight)))
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
        cx = (self._offset + center[0] * self._scale) * self.k
        cy = (self._offset + center[1] * self._scale) * self.k
        org = (int(round(cx - tw / 2)), int(round(cy + th / 2)))
        if outline is not None:
            mask = self._mask()
            halo = thick + self._px(STROKE) * 2
            cv2.putText(mask, text, org, font, scale, 255, halo, cv2.LINE_AA)
            self._composite(mask, outline)
        mask = self._mask()
        cv2.putText(mask, text, org, font, scale, 255, thick, cv2.LINE_AA)
        self._composite(mask, fill)

    def gloss(self, center: Point, axes: tuple[float, float], angle: float = -30.0) -> None:
        """The shared highlight: a soft white sheen on the upper left of a body."""
        self.ellipse(center, axes, angle, fill=(255, 255, 255), outline=None, opacity=0.45)

    # --- output -------------------------------------------------------------------------
    def to_rgba(self) -> np.ndarray:
        """The finished symbol: size x size x 4 uint8, straight (not premultiplied) alpha."""
        size = (self.size_px, self.size_px)
        rgb = cv2.resize(self._rgb, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(self._alpha, size, interpolation=cv2.INTER_AREA)
        safe = np.where(alpha > 1e-4, alpha, 1.0)
        straight = np.clip(rgb / safe[..., None], 0.0, 1.0)
        out = np.empty((self.size_px, self.size_px, 4), np.uint8)
        out[..., :3] = np.round(straight * 255.0)
        out[..., 3] = np.round(np.clip(alpha, 0.0, 1.0) * 255.0)
        out[out[..., 3] == 0, :3] = 0
        return out


def _rounded_points(box: tuple[float, float, float, float], radius: float) -> list[Point]:
    x0, y0, x1, y1 = box
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    corners = ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180))
    points: list[Point] = []
    for cx, cy, start in corners:
        for step in range(7):
            a = np.deg2rad(start + step * 15)
            points.append((cx + r * float(np.cos(a)), cy + r * float(np.sin(a))))
    return points
