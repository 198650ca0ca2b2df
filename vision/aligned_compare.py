"""The aligned comparison: a taught picture laid over a view of a card, compared detail for detail.

A taught picture warped onto the card it may be (by a homography from matched keypoints, or
lined up on a straightened card) agrees with it when the print's edges lie where the picture's
do: their detail (:func:`detail`, edges over the local brightness) correlates over the part both
show, and no block of the card differs much (a look-alike differs where its pips or index do).
Before comparing, the sharper of the two is blurred to the other's softness
(:func:`same_softness`: a webcam against the phone a card was taught with), and where the camera
clipped much of the card white the taught picture is clipped as the camera clipped it
(:func:`as_clipped`). A cable or a pencil lying across a whole card is left out
(:mod:`vision.lying_across`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.corner_index import CLIPPED_LEVELS
from vision.lying_across import lying_across

#: The grid the detail is compared on (cells of the taught picture's 150 x 210 feature scale),
#: and its blocks.
_GRID_W, _GRID_H = 30, 42
_BLOCKS_X, _BLOCKS_Y = 5, 6


def detail(image: np.ndarray) -> np.ndarray:
    """Where the print is: the strength of its edges over the local brightness. Light
    gradients and shadows (which multiply brightness, softly) hardly change it."""
    x = cv2.GaussianBlur(image.astype(np.float32), (0, 0), 1.5)
    gx = cv2.Sobel(x, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(x, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy) / (cv2.GaussianBlur(x, (0, 0), 8) + 10.0)


def compare_aligned(
    reference: np.ndarray,
    homography: np.ndarray,
    view: np.ndarray,
    visible: np.ndarray | None = None,
    clipped: np.ndarray | None = None,
) -> tuple[float, float]:
    """Detail correlation and worst block difference of ``reference`` warped by
    ``homography`` onto ``view`` (both grey), over the part of ``view`` it covers (and, given
    ``visible``, a mask of ``view``: only where that is set). ``clipped``: where the camera
    clipped ``view`` white (:func:`clipped_pixels` of it as taken, before any evening out)."""
    h, w = view.shape[:2]
    warped = cv2.warpPerspective(reference, homography, (w, h), borderValue=0)
    cover = cv2.warpPerspective(np.full(reference.shape[:2], 255, np.uint8), homography, (w, h))
    if visible is not None:
        cover = np.where(visible > 0, cover, 0).astype(np.uint8)
    covered = cover >= 254
    # A softer camera (a webcam against the phone the card was taught with) blurs the print's
    # edges: compared as they are, the right card's detail no longer lines up. The sharper
    # side is blurred to the other's softness first, so only the drawing is compared.
    if clipped is not None:
        warped = as_clipped(warped, clipped & covered, covered)
    # A cable or a pencil lying across the card is no print of either: left out.
    across = lying_across(warped, view, covered)
    if across is not None:
        cover[across] = 0
        covered &= ~across
    warped, view = same_softness(warped, view, covered)
    a = cv2.resize(detail(warped), (_GRID_W, _GRID_H), interpolation=cv2.INTER_AREA)
    b = cv2.resize(detail(view), (_GRID_W, _GRID_H), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(cover.astype(np.float32), (_GRID_W, _GRID_H), interpolation=cv2.INTER_AREA) >= 254
    mask[:2], mask[-2:], mask[:, :2], mask[:, -2:] = False, False, False, False  # the outline's edge
    if mask.sum() < 0.15 * mask.size:
        return 0.0, float("inf")
    va, vb = a[mask] - a[mask].mean(), b[mask] - b[mask].mean()
    va = va / (float(np.sqrt((va**2).mean())) + 1e-6)
    vb = vb / (float(np.sqrt((vb**2).mean())) + 1e-6)
    score = float((va * vb).mean())
    diff = np.zeros(mask.shape, np.float32)
    diff[mask] = np.abs(va - vb)
    bh, bw = _GRID_H // _BLOCKS_Y, _GRID_W // _BLOCKS_X
    sums = diff.reshape(_BLOCKS_Y, bh, _BLOCKS_X, bw).sum(axis=(1, 3))
    counts = mask.astype(np.float32).reshape(_BLOCKS_Y, bh, _BLOCKS_X, bw).sum(axis=(1, 3))
    full = counts >= 0.5 * bh * bw
    return score, float((sums[full] / counts[full]).max()) if full.any() else float("inf")


#: Extra blur (sigma, feature px) the sharper of two aligned pictures may get so that both look
#: as soft: a phone's taught picture against a webcam's softer, noisier frame.
SOFTEN_STEPS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)
#: Fewer pixels compared than this: too few to measure sharpness on, compared as they are.
_MIN_SHARPNESS_PX = 100


def fine_share(image: np.ndarray, mask: np.ndarray) -> float:
    """How sharp a picture is, whatever its contrast: its finest detail (a band just above the
    pixel noise) over its coarser detail, over ``mask``."""
    x = cv2.GaussianBlur(image.astype(np.float32), (0, 0), 0.7)
    mid = cv2.GaussianBlur(x, (0, 0), 1.5)
    fine = x - mid
    coarse = mid - cv2.GaussianBlur(x, (0, 0), 3.0)
    return float(np.sqrt((fine[mask] ** 2).mean() / max(float((coarse[mask] ** 2).mean()), 1e-6)))


def same_softness(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` (aligned grey pictures of one card), the sharper one blurred by the step
    of ``SOFTEN_STEPS`` that brings its sharpness (:func:`fine_share` over ``mask``) nearest
    the other's."""
    if int(mask.sum()) < _MIN_SHARPNESS_PX:
        return a, b
    share_a, share_b = fine_share(a, mask), fine_share(b, mask)
    sharp, soft, swap = (a, share_b, False) if share_a > share_b else (b, share_a, True)
    best, best_gap = sharp, abs(max(share_a, share_b) - soft)
    for sigma in SOFTEN_STEPS[1:]:
        blurred = cv2.GaussianBlur(sharp, (0, 0), sigma)
        gap = abs(fine_share(blurred, mask) - soft)
        if gap >= best_gap:
            break
        best, best_gap = blurred, gap
    return (a, best) if swap else (best, b)


#: A view whose compared part is clipped over at least this share is compared as clipped (glare
#: on a card in the development photos as taken: 0.03-0.07 of it; half a stop over: 0.2 and more).
CLIPPED_SHARE = 0.15
#: A camera is never taken to have clipped print darker than this share of the paper's level (a
#: whole stop over): print there is print, whatever the view shows.
CLIPPED_FLOOR = 0.5


def clipped_pixels(picture: np.ndarray) -> np.ndarray:
    """Where ``picture`` (BGR or grey, as the camera took it) is clipped white (boolean): the
    light was brighter than the sensor holds (paper under a lamp, a sun patch, a camera metering
    a dark table), within the levels :mod:`vision.corner_index` counts as clipped too."""
    grey = picture if picture.ndim == 2 else cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    return grey >= 255 - CLIPPED_LEVELS


def as_clipped(reference: np.ndarray, clipped: np.ndarray, compared: np.ndarray) -> np.ndarray:
    """``reference`` (grey, aligned with a view) clipped as the camera clipped the view, when
    the view is clipped (``clipped``, boolean) over ``CLIPPED_SHARE`` of the part ``compared``;
    else ``reference`` itself.

    Where the camera clipped a card its light print (a face card's yellows, a faint pattern)
    is flat white, while the taught picture still shows it: compared as they are, the right
    card's detail no longer lines up (realcards IMG_2657 half a stop over: a king's art at 0.87
    against the 0.88 it needs). The taught picture's brightest pixels, as large a share of the
    part compared as the view has clipped, are cut to the level of the least bright of them
    (where the camera clipped, in the taught picture's levels): lost there as in the view. Never
    below ``CLIPPED_FLOOR`` of its paper's level: a look-alike's print where the view shows
    clipped paper (a pip more) is darker than that, so it stays, and still differs."""
    share = int(clipped.sum()) / max(1, int(compared.sum()))
    if share < CLIPPED_SHARE:
        return reference
    paper, clips_at = np.percentile(reference[compared], (75.0, 100.0 * (1.0 - share)))
    level = max(float(clips_at), CLIPPED_FLOOR * float(paper))
    return np.minimum(reference, level).astype(reference.dtype)
