"""Play mats: where the zones are, the four corner markers, and the mat as an image.

A mat is a sheet (tiled onto A4/Letter pages) with a corner marker in each corner; the four
markers give the homography from the camera image to mat millimetres, so each zone is a fixed
rectangle in mat coordinates and a card's zone is the zone holding its centre.

Zones (mat millimetres, origin at the mat's top-left, markers' top-left one first):

- bandit: ``r0c0`` .. ``r2c2``, the 3x3 grid of stacks (row, column).
- mega-jackpot: ``pile0`` .. ``pile2`` (the reel piles, top row) above ``discard0`` ..
  ``discard2``.
- jackpot-payout: ``reel0`` .. ``reel2``, the three reel slots in the middle of the mat.
- thanks-a-lottery: ``block0`` .. ``block2``, three block rows, one block per row: lay a block's
  cards side by side (4 fit; a longer block continues on the row below) inside its row.
  These zones hold several cards (``Zone.multi``), so the tracker reports the set of cards in a
  row.

Pay Line has no cards and no mat.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.errors import UserError
from vision.layout import CARD_H_MM, CARD_W_MM
from vision.markers import MarkerMap, marker_image

#: A zone is a card plus this much room on every side.
SLOT_PAD_MM = 6.0
SLOT_W_MM = CARD_W_MM + 2 * SLOT_PAD_MM
SLOT_H_MM = CARD_H_MM + 2 * SLOT_PAD_MM
GAP_MM = 8.0
#: Corner markers: 6 cells of 5 mm (30 mm), half as big again as a card's markers.
MAT_MARKER_MM = 30.0
MAT_MARKER_MARGIN_MM = 5.0
#: White round each corner marker (mm; under the 5 mm margin, so it stays on the sheet).
MAT_MARKER_QUIET_MM = 4.0
#: The mat's ground (BGR): a felt green of about half lightness (see :func:`render_mat`).
MAT_GROUND = (110, 135, 85)
#: Zone outlines and labels.
MAT_INK = (228, 234, 232)
#: The zones start inside the band the corner markers occupy.
BAND_MM = MAT_MARKER_MARGIN_MM + MAT_MARKER_MM + 4.0


@dataclass(frozen=True)
class Zone:
    """A named rectangle on the mat (mm): x, y, width, height; ``multi`` if it holds a row of cards."""

    name: str
    x: float
    y: float
    w: float
    h: float
    label: str = ""
    multi: bool = False

    def contains(self, point: tuple[float, float]) -> bool:
        """True when ``point`` (mat mm) lies inside."""
        return self.x <= point[0] <= self.x + self.w and self.y <= point[1] <= self.y + self.h


@dataclass(frozen=True)
class MatLayout:
    """One game's mat: size in mm, corner marker ids and zones."""

    game: str
    width: float
    height: float
    marker_ids: tuple[int, ...]
    zones: tuple[Zone, ...]

    def marker_corners_mm(self) -> list[np.ndarray]:
        """Each corner marker's four corners (its own TL, TR, BR, BL) in mat mm, TL/TR/BR/BL markers."""
        m, s = MAT_MARKER_MARGIN_MM, MAT_MARKER_MM
        origins = [
            (m, m),
            (self.width - m - s, m),
            (self.width - m - s, self.height - m - s),
            (m, self.height - m - s),
        ]
        return [
            np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float32) for x, y in origins
        ]

    def zone_at(self, point: tuple[float, float]) -> Zone | None:
        """The zone holding ``point`` (mat mm), if any."""
        for zone in self.zones:
            if zone.contains(point):
                return zone
        return None

    def zone(self, name: str) -> Zone:
        """The zone called ``name``; raises UserError naming the zones."""
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise UserError(f"{self.game} has no zone '{name}' (zones: {', '.join(z.name for z in self.zones)})")


def _grid(names: list[list[str]], labels: list[list[str]]) -> tuple[list[Zone], float, float]:
    zones = []
    for r, row in enumerate(names):
        for c, name in enumerate(row):
            x = BAND_MM + c * (SLOT_W_MM + GAP_MM)
            y = BAND_MM + r * (SLOT_H_MM + GAP_MM)
            zones.append(Zone(name, x, y, SLOT_W_MM, SLOT_H_MM, labels[r][c]))
    cols = max(len(row) for row in names)
    width = 2 * BAND_MM + cols * SLOT_W_MM + (cols - 1) * GAP_MM
    height = 2 * BAND_MM + len(names) * SLOT_H_MM + (len(names) - 1) * GAP_MM
    return zones, width, height


#: Thanks a Lottery: how many block rows the mat has and how many cards a row holds side by side.
LOTTERY_BLOCK_ROWS = 3
LOTTERY_ROW_CARDS = 4


def mat_layout(game_id: str) -> MatLayout:
    """The mat of ``game_id``; raises UserError for a game without a mat (Pay Line)."""
    if game_id == "bandit":
        names = [[f"r{r}c{c}" for c in range(3)] for r in range(3)]
        labels = [[f"row {r + 1} col {c + 1}" for c in range(3)] for r in range(3)]
        zones, w, h = _grid(names, labels)
    elif game_id == "mega-jackpot":
        names = [[f"pile{i}" for i in range(3)], [f"discard{i}" for i in range(3)]]
        labels = [[f"reel pile {i + 1}" for i in range(3)], [f"discard {i + 1}" for i in range(3)]]
        zones, w, h = _grid(names, labels)
    elif game_id == "jackpot-payout":
        zones, w, h = _grid([[f"reel{i}" for i in range(3)]], [[f"reel {i + 1}" for i in range(3)]])
    elif game_id == "thanks-a-lottery":
        row_w = LOTTERY_ROW_CARDS * (CARD_W_MM + 2.0) + 2 * SLOT_PAD_MM
        zones = [
            Zone(
                f"block{i}",
                BAND_MM,
                BAND_MM + i * (SLOT_H_MM + GAP_MM),
                row_w,
                SLOT_H_MM,
                f"block row {i + 1}",
                multi=True,
            )
            for i in range(LOTTERY_BLOCK_ROWS)
        ]
        w = 2 * BAND_MM + row_w
        h = 2 * BAND_MM + LOTTERY_BLOCK_ROWS * SLOT_H_MM + (LOTTERY_BLOCK_ROWS - 1) * GAP_MM
    else:
        raise UserError(f"{game_id} has no mat (it has no cards to read)")
    ids = MarkerMap.mat_ids(game_id)
    return MatLayout(game_id, w, h, ids, tuple(zones))


@lru_cache(maxsize=8)
def render_mat(layout: MatLayout, px_per_mm: float) -> np.ndarray:
    """The mat as a BGR image: a mid-tone green sheet (``MAT_GROUND``), zone outlines and labels
    in light ink, corner markers on white squares (cached, read-only).

    Why green: a group's own cards (no markers) are found by their outlines, and a light card on
    a light sheet has no edge to find (tests/test_mat_ground.py: the teach screen cut out 16 of
    36 cards lying in a zone on the light sheet, 31 on this one; the reader named 41 and 47 of 54),
    while a mid-tone ground stands out from white paper and from dark faces alike. The whole
    sheet is one ground, not filled zones: a filled card-sized zone is itself a card-shaped
    outline. Zone frames are drawn crisp, as a printer prints them (anti-aliased on the green, the
    teach screen caught 22 of the 36).
    """
    w, h = round(layout.width * px_per_mm), round(layout.height * px_per_mm)
    image = np.full((h, w, 3), MAT_GROUND, dtype=np.uint8)
    line = max(1, round(0.8 * px_per_mm))
    for zone in layout.zones:
        p1 = (round(zone.x * px_per_mm), round(zone.y * px_per_mm))
        p2 = (round((zone.x + zone.w) * px_per_mm), round((zone.y + zone.h) * px_per_mm))
        cv2.rectangle(image, p1, p2, MAT_INK, line, cv2.LINE_8)
        scale = 3.0 * px_per_mm / 22.0
        cv2.putText(
            image,
            zone.label,
            (p1[0] + round(2 * px_per_mm), p2[1] - round(2 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            MAT_INK,
            max(1, round(0.3 * px_per_mm)),
            cv2.LINE_AA,
        )
    side = round(MAT_MARKER_MM * px_per_mm)
    quiet = round(MAT_MARKER_QUIET_MM * px_per_mm)
    for marker_id, corners in zip(layout.marker_ids, layout.marker_corners_mm(), strict=True):
        x, y = (round(v * px_per_mm) for v in corners[0])
        # A marker is read by its black border against white: its own quiet zone on the green.
        image[max(0, y - quiet) : y + side + quiet, max(0, x - quiet) : x + side + quiet] = 255
        image[y : y + side, x : x + side] = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
    image.setflags(write=False)
    return image
