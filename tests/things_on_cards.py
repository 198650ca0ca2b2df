"""Things lying on a card in a synthetic frame: a chip across its edge, a cable across it; and a
scene of one taught card with such a thing on it, read by the reader."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from vision.reader import CardReader
from vision.taught_scene import lay_out, scene_style, teach_synthetic_faces

GAME = "bandit"

#: What lies on the card: drawn over the frame at the card's corners.
LaysOn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def one_card_under(face: np.ndarray, seed: int, lay_on: LaysOn) -> tuple[np.ndarray, np.ndarray]:
    """A wood table with one card (``face``) laid out by ``seed`` and something lying on it
    (``lay_on``); the card's corners."""
    scene = lay_out([face], seed, style=scene_style(seed, "wood", card_px=130, tilt=10))
    frame = scene.frame()
    corners = scene.all_placed()[0].corners  # (placed as the frame is drawn)
    return lay_on(frame, corners), corners


def read_with(folder: Path, face: np.ndarray, seed: int, lay_on: LaysOn) -> list[str | None]:
    """The ids read where one card (``face``) lies with something on it (``lay_on``), the
    synthetic faces taught in ``folder``."""
    deck = teach_synthetic_faces(folder)
    frame, corners = one_card_under(face, seed, lay_on)
    reading = CardReader(GAME, use_mat=False, enrolled=deck).read(frame)
    centre = corners.mean(axis=0)
    return [c.card_id for c in reading.cards if np.linalg.norm(np.mean(c.corners, axis=0) - centre) < 30]


def chip_across_edge(frame: np.ndarray, corners: np.ndarray, along: float) -> np.ndarray:
    """``frame`` with a brown chip (a third of the card's width across, a rim and a highlight)
    lying across the card's right side (TR to BR), ``along`` of the way down it, a fifth of it
    beyond the card."""
    top_right, bottom_right = corners[1], corners[2]
    width = float(np.linalg.norm(corners[1] - corners[0]))
    radius = int(0.17 * width)
    edge = top_right + along * (bottom_right - top_right)
    inward = corners.mean(axis=0) - edge
    centre = edge + 0.6 * radius * inward / np.linalg.norm(inward)
    c = (int(centre[0]), int(centre[1]))
    out = frame.copy()
    cv2.circle(out, c, radius, (40, 70, 110), -1, cv2.LINE_AA)
    cv2.circle(out, c, radius, (70, 120, 170), max(1, radius // 6), cv2.LINE_AA)
    highlight = (c[0] - radius // 3, c[1] - radius // 3)
    cv2.circle(out, highlight, max(1, radius // 3), (110, 160, 200), -1, cv2.LINE_AA)
    return out


def cable_across(frame: np.ndarray, corners: np.ndarray, turn: float, thickness: float = 0.06) -> np.ndarray:
    """``frame`` with a dark cable (``thickness`` of the card's width across) lying straight
    across the card (corners TL, TR, BR, BL) through its middle, from its left side to its right
    side turned by ``turn`` degrees, and on over the table a card's width each way."""
    left, right = (corners[0] + corners[3]) / 2, (corners[1] + corners[2]) / 2
    angle = np.deg2rad(turn)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    along = rotation @ (right - left)
    centre = corners.mean(axis=0)
    ends = [tuple(int(v) for v in centre + sign * 1.5 * along) for sign in (-1, 1)]
    width = float(np.linalg.norm(corners[1] - corners[0]))
    out = frame.copy()
    cv2.line(out, ends[0], ends[1], (25, 25, 25), max(2, round(thickness * width)), cv2.LINE_AA)
    return out
