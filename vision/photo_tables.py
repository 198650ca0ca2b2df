"""Photos of cards laid on real tables: table patches cut from labelled photos, cards warped on.

The tables are real: squares of carpet, wood and cloth cut from the shared realcards photos
away from every labelled card (:func:`table_patches`), mirrored out to a whole photo
(:func:`table_photo`). Cards (any face, with a die-cut mask) are laid on them as a phone sees
them (:func:`lay_cards`): perspective, a light gradient and a soft shadow over the table, a
glossy highlight on some cards, camera blur, sensor noise and JPEG. Each laid card's box is
what shows of it (the realcards labels' convention: a covered card is boxed by its visible
part), so the realcards bench scores these photos as it scores the real ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: A photo's size: the realcards photos' (378 x 504, portrait).
PHOTO_W, PHOTO_H = 378, 504

#: The smallest table square kept: smaller ones, mirrored out, repeat too visibly.
MIN_PATCH = 120

#: Pixels kept clear round every labelled box (a card's shadow, a label drawn a little tight).
_CLEAR = 12


def _free_square(taken: np.ndarray) -> tuple[int, int, int] | None:
    """The largest square (x, y, side) of ``taken`` (uint8, 1 where a card is) holding no card,
    looked for on an 8 px grid; None when none reaches ``MIN_PATCH``."""
    h, w = taken.shape
    summed = cv2.integral(taken)
    for side in range(min(h, w), MIN_PATCH - 1, -8):
        for y in range(0, h - side + 1, 8):
            for x in range(0, w - side + 1, 8):
                if summed[y + side, x + side] - summed[y, x + side] - summed[y + side, x] + summed[y, x] == 0:
                    return x, y, side
    return None


def table_patches(photos: list[tuple[Path, list[tuple[int, int, int, int]]]]) -> list[np.ndarray]:
    """The largest card-free square of each photo (path, labelled boxes) that has one."""
    from vision.image_files import read_image

    patches = []
    for path, boxes in photos:
        image = read_image(path)
        taken = np.zeros(image.shape[:2], np.uint8)
        for x0, y0, x1, y1 in boxes:
            taken[max(0, y0 - _CLEAR) : y1 + _CLEAR, max(0, x0 - _CLEAR) : x1 + _CLEAR] = 1
        square = _free_square(taken)
        if square is not None:
            x, y, side = square
            patches.append(image[y : y + side, x : x + side].copy())
    return patches


def table_photo(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A whole photo of the table ``patch`` comes from: the patch, scaled a little (another
    distance), mirrored out to ``PHOTO_W`` x ``PHOTO_H`` (mirroring keeps the texture seamless)."""
    scale = float(rng.uniform(1.0, 1.4))
    patch = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    h, w = patch.shape[:2]
    pad_y, pad_x = max(0, PHOTO_H - h), max(0, PHOTO_W - w)
    whole = np.pad(
        patch, ((pad_y // 2, pad_y - pad_y // 2), (pad_x // 2, pad_x - pad_x // 2), (0, 0)), "symmetric"
    )
    return whole[:PHOTO_H, :PHOTO_W].copy()


@dataclass(frozen=True)
class LaidCard:
    """Where a card lies in a photo: its four corners (clockwise from the face's top-left), its
    box, and the box of what shows of it (another card may cover part of it)."""

    corners: np.ndarray
    box: tuple[int, int, int, int]
    visible_box: tuple[int, int, int, int]


def card_corners(
    rng: np.random.Generator, centre: tuple[float, float], short_px: float, aspect: float
) -> np.ndarray:
    """A card's corners in a photo: turned at random, ``short_px`` wide, seen a little tilted
    (each corner moved up to 6 % of the width: a phone held not quite square)."""
    angle = float(rng.uniform(0, 2 * math.pi))
    w, h = short_px, short_px * aspect
    base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    jitter = rng.uniform(-0.06, 0.06, (4, 2)).astype(np.float32) * w
    return (base @ turn.T + jitter + np.array(centre, np.float32)).astype(np.float32)


def _warp(face: np.ndarray, mask: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face and its mask warped onto ``corners`` of a photo (shrunk by area first, so
    small cards are not aliased)."""
    short = float(np.linalg.norm(corners[1] - corners[0]))
    shrink = min(1.0, 1.5 * short / face.shape[1])
    if shrink < 1.0:
        face = cv2.resize(face, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_AREA)
    h, w = face.shape[:2]
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, corners)
    size = (PHOTO_W, PHOTO_H)
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, matrix, size, flags=cv2.INTER_LINEAR)
    return warped.astype(np.float32), alpha


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) round a mask's non-zero pixels; all 0 for an empty mask."""
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    return x, y, x + w, y + h


def lay_cards(
    table: np.ndarray,
    cards: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[LaidCard]]:
    """A phone's photo of ``cards`` (face, die-cut mask, corners) laid in turn on ``table``
    (later ones over earlier ones), and where each lies."""
    photo = table.astype(np.float32)
    alphas = []
    gloss = np.zeros(photo.shape[:2], np.float32)
    for face, mask, corners in cards:
        warped, alpha = _warp(face, mask, corners)
        photo = photo * (1.0 - alpha[:, :, None]) + warped * alpha[:, :, None]
        for earlier in alphas:
            earlier *= 1.0 - alpha
        alphas.append(alpha)
        if rng.random() < 0.35:
            # A glossy coat: the lamp's soft reflection across part of the card.
            centre = corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * np.linalg.norm(
                corners[1] - corners[0]
            )
            blob = np.zeros_like(gloss)
            radius = int(0.35 * np.linalg.norm(corners[1] - corners[0])) + 2
            cv2.circle(blob, (int(centre[0]), int(centre[1])), radius, 1.0, -1)
            blob = cv2.GaussianBlur(blob, (0, 0), radius / 2)
            gloss = np.maximum(gloss, blob * alpha * float(rng.uniform(0.25, 0.5)))
    photo += (255.0 - photo) * gloss[:, :, None]
    photo *= _light(rng)[:, :, None]
    photo = cv2.GaussianBlur(photo, (0, 0), float(rng.uniform(0.4, 1.0)))
    photo += rng.normal(0.0, float(rng.uniform(1.5, 4.0)), photo.shape).astype(np.float32)
    ok, jpeg = cv2.imencode(".jpg", np.clip(photo, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 88])
    image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    laid = []
    for (_face, _mask, corners), alpha in zip(cards, alphas, strict=True):
        whole = _box(cv2.fillConvexPoly(np.zeros(alpha.shape, np.uint8), corners.astype(np.int32), 1))
        laid.append(LaidCard(corners, whole, _box(alpha > 0.5)))
    return image, laid


def _light(rng: np.random.Generator) -> np.ndarray:
    """The light over a photo: a gradient from one side (a lamp, a window) and a soft shadow
    (a hand, a head) somewhere, as factors on the pixel values."""
    ys, xs = np.mgrid[0:PHOTO_H, 0:PHOTO_W].astype(np.float32)
    angle = float(rng.uniform(0, 2 * math.pi))
    along = (xs * math.cos(angle) + ys * math.sin(angle)) / math.hypot(PHOTO_W, PHOTO_H)
    along -= along.min()
    light = float(rng.uniform(0.85, 1.1)) - float(rng.uniform(0.0, 0.35)) * along
    shadow = np.zeros((PHOTO_H, PHOTO_W), np.float32)
    centre = (int(rng.uniform(0, PHOTO_W)), int(rng.uniform(0, PHOTO_H)))
    axes = (int(rng.uniform(40, 140)), int(rng.uniform(40, 140)))
    cv2.ellipse(shadow, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 25)
    return light * (1.0 - float(rng.uniform(0.0, 0.35)) * shadow)
