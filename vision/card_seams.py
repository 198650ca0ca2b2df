"""Seams inside an outline: the straight edge of a card lying over another card.

Cards that touch, overlap or are fanned out make one light region, and its outline can look
like one big card with an even paper border. What gives it away is a seam: the edge of the
card on top runs straight across the region from one side to the opposite one, as a thin dark
line where it crosses the other card's paper (the shadow of the card's thickness) and a step
where it crosses the other card's print. Inside a single card no straight line crosses
the paper border: a face card's art frame stops short of it, pips and indices are short, and a
shadow's edge across the card is a step from light to shade, not a thin line. A cable or a
pen lying across a single card is a thin line from side to side too, but it runs on straight
beyond the outline over the table (:func:`things_across`); a card's edge ends with the card
under it.

:func:`find_seams` (:func:`find_seams_many`: of several outlines in one go) looks at the
outline flattened to a portrait card and tries every straight line from one side to the
opposite side (within a third of the width of square to them); :func:`split_at_seams` cuts
the outline into the parts between them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.card_checks import order_quad

#: The outline is flattened to this size (px) to look for seams.
_SEAM_W, _SEAM_H = 60, 84
#: A seam is a step (lightness, 0-255) at least this big along most of its length ...
STEP = 10.0
#: ... and a thin line at least this much darker than both sides where it crosses the border.
VALLEY = 6.0
#: The share of its length a seam must show as a step or a thin line.
SEAM_SHARE = 0.75
#: Rows of the flattened card at each end that are the paper border, and how many of them
#: must show the seam as a thin line.
_END_ROWS, _END_HITS = 5, 3
#: Seams are looked for this share of the width or more away from the sides.
_SIDE_MARGIN = 0.12


#: A thin thing's line is followed beyond the outline from this many pixels on, for this share
#: of the seam's length; the line is looked for within ``_LINE_OFFSETS`` of where the seam
#: points (its place is found on a coarse grid), the table either side ``_SIDE_OFFSETS`` away.
_BEYOND_FROM, _BEYOND_SHARE = 2, 0.3
_LINE_OFFSETS, _SIDE_OFFSETS = [-1.5, 0.0, 1.5], [4.0, 6.0]


@dataclass(frozen=True)
class Seam:
    """A straight seam across an outline, in the outline's portrait frame (0..1 each way).

    ``across``: True when it runs from the top side to the bottom side (splitting the card
    into left and right parts), False when from the left side to the right side.
    ``start``, ``end``: where it meets the two sides, as a share of the other side's length.
    """

    across: bool
    start: float
    end: float


def _thin_lines(lightness: np.ndarray) -> np.ndarray:
    """Where each row of ``lightness`` has a thin dark line (a pixel of slack either way)."""
    padded = cv2.copyMakeBorder(lightness, 0, 0, 2, 2, cv2.BORDER_REPLICATE)
    valley = np.minimum(padded[:, :-4], padded[:, 4:]) - padded[:, 2:-2]
    return cv2.dilate(valley, np.ones((1, 3), np.uint8)) > VALLEY


def _line_scores(flats: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every straight line from the first row to the last of each of ``flats`` (Q x n x m):
    which one it crosses, its column at the first and last row, and whether it is a seam (see
    the module's docstring), in order of outline, then start, then stop. Every test runs along
    rows, each row alone: the rows of all outlines go through one set of calls (one outline at a
    time cost ~0.3 ms each, mostly numpy's overhead), with the same values."""
    count, n, m = flats.shape
    # A seam shows as a thin line in most of the first and the last few rows: only lines
    # between such places are followed. A line near a side is a printed frame round the art
    # (or a sliver of a card under another: too little to tell), not a seam.
    margin = int(_SIDE_MARGIN * m)
    inner = np.arange(margin, m - margin)
    ends_of = np.concatenate((flats[:, :_END_ROWS], flats[:, -_END_ROWS:]), axis=1).reshape(-1, m)
    end_rows = _thin_lines(ends_of).reshape(count, 2, _END_ROWS, m)[..., margin : m - margin]
    starts, stops = (end_rows.sum(axis=2) >= _END_HITS).transpose(1, 0, 2)  # Q x inner each
    # Every start with every stop near enough square across (row-major per outline).
    near = np.abs(inner[:, None] - inner[None, :]) <= m // 3
    which, first, last = np.nonzero(starts[:, :, None] & stops[:, None, :] & near)
    if not len(which):
        # Most outlines are one card, with no thin line in the end rows: the rest of the rows
        # need not be looked at.
        return which, np.empty(0, np.intp), np.empty(0, np.intp), np.empty(0, bool)
    rows_of = flats.reshape(-1, m)
    padded = cv2.copyMakeBorder(rows_of, 0, 0, 2, 2, cv2.BORDER_REPLICATE)
    step = np.abs(padded[:, 3:-1] - padded[:, 1:-3])
    # A pixel of slack either way: the line is drawn on a coarse grid.
    step = cv2.dilate(step, np.ones((1, 3), np.uint8)) > STEP
    valley = _thin_lines(rows_of)
    top, bottom = inner[first], inner[last]
    rows = np.arange(n)
    path = np.round(top[:, None] + (bottom - top)[:, None] * rows[None, :] / (n - 1)).astype(np.intp)
    at = (which * n)[:, None] + rows[None, :]  # each line's rows among all outlines' rows
    share = (step | valley)[at, path].mean(axis=1)
    thin = valley[at, path]
    ends = (thin[:, :_END_ROWS].sum(axis=1) >= _END_HITS) & (thin[:, -_END_ROWS:].sum(axis=1) >= _END_HITS)
    return which, top, bottom, ends & (share >= SEAM_SHARE)


#: Corners of the flattened outline (TL, TR, BR, BL).
_SEAM_CORNERS = np.array([[0, 0], [_SEAM_W - 1, 0], [_SEAM_W - 1, _SEAM_H - 1], [0, _SEAM_H - 1]], np.float32)


def find_seams(grey: np.ndarray, quad: np.ndarray) -> list[Seam]:
    """Seams across the outline ``quad`` (4 x 2) in the ``grey`` image, at most one per place
    (lines found a few pixels apart are one seam)."""
    return find_seams_many(grey, [quad])[0]


def find_seams_many(grey: np.ndarray, quads: list[np.ndarray]) -> list[list[Seam]]:
    """:func:`find_seams` of each of ``quads``, all looked for in one go."""
    if not quads:
        return []
    flats = np.stack(
        [
            cv2.warpPerspective(
                grey, cv2.getPerspectiveTransform(order_quad(quad), _SEAM_CORNERS), (_SEAM_W, _SEAM_H)
            )
            for quad in quads
        ]
    ).astype(np.float32)
    found: list[list[Seam]] = [[] for _quad in quads]
    for across, lightness in ((True, flats), (False, np.ascontiguousarray(flats.transpose(0, 2, 1)))):
        which, top, bottom, is_seam = _line_scores(lightness)
        width = lightness.shape[2] - 1
        which, top, bottom = which[is_seam], top[is_seam], bottom[is_seam]
        for k in np.unique(which).tolist():
            mine = which == k
            starts, stops = top[mine], bottom[mine]
            middles = (starts + stops) / 2
            # The first line of each place is its seam; lines within 4 px of it are the same one.
            left = np.ones(len(middles), bool)
            while left.any():
                j = int(np.argmax(left))
                found[k].append(Seam(across, float(starts[j]) / width, float(stops[j]) / width))
                left &= np.abs(middles - middles[j]) > 4
    return found


def things_across(grey: np.ndarray, quad: np.ndarray, seams: list[Seam]) -> bool:
    """Whether the ``seams`` found across ``quad`` (4 x 2, in ``grey``'s pixels) are all thin
    things lying across one card (each :func:`runs_on`), not the edges of cards lying over
    others. One that does not run on is a card's edge, and the others stay with it: an outline
    larger than its card (the card with a strip of table) has the card's own print beyond its
    side, and a printed frame line running on there is no cable (a flat copy of IMG_2567: a
    phantom part)."""
    return bool(seams) and all(runs_on(grey, quad, seam) for seam in seams)


def runs_on(grey: np.ndarray, quad: np.ndarray, seam: Seam) -> bool:
    """Whether ``seam`` across ``quad`` (4 x 2, in ``grey``'s pixels) runs on beyond both of
    its ends as a thin dark line, straight on over the table: a thin thing lying across the
    outline (a cable, a pen), not the edge of a card lying on another (which ends where the
    card under it ends)."""
    start, end = (np.asarray(p, np.float64) for p in seam_ends(quad, seam))
    length = float(np.linalg.norm(end - start))
    if length < 1:
        return False
    along = (end - start) / length
    across = np.array([-along[1], along[0]])
    steps = np.arange(_BEYOND_FROM, max(_BEYOND_FROM + 1, _BEYOND_SHARE * length))
    h, w = grey.shape[:2]
    offsets = np.array(_LINE_OFFSETS + _SIDE_OFFSETS + [-o for o in _SIDE_OFFSETS])
    for point, direction in ((start, -along), (end, along)):
        centres = point + steps[:, None] * direction  # points on the line beyond this end
        at = np.round(centres[:, None, :] + offsets[None, :, None] * across).astype(np.intp)
        inside = ((at[..., 0] >= 0) & (at[..., 0] < w) & (at[..., 1] >= 0) & (at[..., 1] < h)).all(axis=1)
        if inside.mean() < SEAM_SHARE:
            return False
        values = grey[at[inside, :, 1], at[inside, :, 0]].astype(np.float32)
        line = values[:, : len(_LINE_OFFSETS)].min(axis=1)
        n = len(_SIDE_OFFSETS)
        one_side = values[:, len(_LINE_OFFSETS) : len(_LINE_OFFSETS) + n].max(axis=1)
        other_side = values[:, len(_LINE_OFFSETS) + n :].max(axis=1)
        if ((np.minimum(one_side, other_side) - line) > VALLEY).mean() < SEAM_SHARE:
            return False
    return True


def split_at_seams(quad: np.ndarray, seams: list[Seam]) -> list[np.ndarray]:
    """The parts of ``quad`` between its seams (4 x 2 float32 each, in ``quad``'s pixels): the
    visible parts of the overlapping cards. Seams of the direction that has more of them are
    used (cards fanned one way); none: ``[]``."""
    across = [seam for seam in seams if seam.across]
    along = [seam for seam in seams if not seam.across]
    chosen = across if len(across) >= len(along) else along
    if not chosen:
        return []
    tl, tr, br, bl = order_quad(quad)
    ends = sorted((seam.start, seam.end) for seam in chosen)
    if not chosen[0].across:
        # Seams from the left side to the right: the same cut with the card turned a quarter
        # (its left side, bottom to top, is then the top side).
        tl, tr, br, bl = bl, tl, tr, br
        ends = sorted((1 - start, 1 - end) for start, end in ends)
    cuts = [(0.0, 0.0), *ends, (1.0, 1.0)]
    return [
        np.array(
            [tl + (tr - tl) * s0, tl + (tr - tl) * s1, bl + (br - bl) * e1, bl + (br - bl) * e0], np.float32
        )
        for (s0, e0), (s1, e1) in zip(cuts, cuts[1:], strict=False)
    ]


def seam_ends(quad: np.ndarray, seam: Seam) -> tuple[np.ndarray, np.ndarray]:
    """Where ``seam`` meets the two sides of ``quad`` (4 x 2) it runs between, in its pixels."""
    tl, tr, br, bl = order_quad(quad)
    if seam.across:
        return tl + (tr - tl) * seam.start, bl + (br - bl) * seam.end
    return tl + (bl - tl) * seam.start, tr + (br - tr) * seam.end
