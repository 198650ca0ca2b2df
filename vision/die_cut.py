"""Cards found by their die-cut edge, whatever their face is printed with.

The paper searches (:mod:`vision.card_outlines`) look for light, nearly colourless paper; many
published decks print full-bleed art or a dark face, and there they find nothing, or an art
line or a printed frame taken for a side. What every card has, whatever its print, is its
die-cut edge: a straight step in colour or brightness along the whole length of each of its
four sides (the corners rounded), of a card's aspect seen in perspective.

Here, straight segments (OpenCV's LSD) are looked for in Lab lightness and in both colour
channels (a red card on brown wood steps in colour more than in grey), paired at corners into
card-shaped proposals (:func:`vision.card_lines.corner_quads`), and a proposal is a card only
when:

- straight segments lie along most of every side (an outline through art or texture is
  broken up);
- the colour just inside differs from just outside along nearly the whole length of every
  side (:data:`DIE_STEP`): an art line ends where the art does, a ray of a full-bleed face
  crosses the card's edge, so its inside and outside are the same card ground there; a dark
  face's printed frame line has the same dark ground on both sides of it (each side's colour
  is the median of three depths, so a thin line is one sample, not the step).

Of a proposal inside another that passes (a printed frame, a card's art panel), the outer is
the card: the inner's outside is the card's rim, which steps to the table further out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import UserError
from vision.card_checks import (
    MIN_AREA_SHARE,
    PAPER_CHROMA,
    PAPER_LIGHT,
    inside_share,
    iou,
    order_quad,
    side_colours,
    sides_colours,
)
from vision.card_lines import corner_quads, edge_support, straight_edges
from vision.outline_batches import card_shaped_many, order_quads

#: The search's work copy (as :data:`vision.card_outlines.WORK_PIXELS`).
WORK_PIXELS = 150_000
#: Depths (share of the outline's size) of the samples either side of a side; the median is
#: taken (a printed line beside the edge is one of three, not the step).
DEPTHS = (0.025, 0.045, 0.065)
#: Samples along each side, its rounded ends left out.
ALONG = np.linspace(0.14, 0.86, 18)
#: Two Lab colours differ (summed |dL|+|da|+|db|) at this distance: a card's edge on a table
#: (as :data:`vision.card_capture.STEP`).
STEP = 20.0
#: Every side steps to the table on at least this share of its length: a die-cut edge runs the
#: whole side; a side along art or table texture steps on part of it only.
DIE_STEP = 0.85
#: A side whose rim (the colour just inside) changes by less than ``RIM_NEAR`` from one sample
#: to the next on ``RIM_EVEN`` of its length (a corner index breaks it twice) is a card's even
#: ground; it need only step on ``EVEN_STEP`` of its length (a dark card on a patterned rug,
#: dark in places).
RIM_NEAR = 25.0
RIM_EVEN = 0.85
EVEN_STEP = 0.5
#: Along a side with an even rim a fainter step counts too, on the whole side (``DIE_STEP``):
#: the card's ground hardly varies there, so a faint difference from the table that holds all
#: along the side is its edge (a dark card on dark wood or a dark patch of rug: 10-35 all along).
FAINT_STEP = 10.0
#: A side is moved out onto a parallel edge at most this share of the short side away (a
#: dark face's frame line lies 5 % in) when what lies between is the card's ground on this
#: share of the side.
RIM_REACH = 0.1
RIM_ALIKE = 0.7
#: A side whose rim changes with depth on this share of it is two things layered (see
#: :func:`layered`).
LAYER_SHARE = 0.5
LAYER_DEPTHS = (0.015, 0.03, 0.045, 0.065, 0.085, 0.105)
#: Straight segments cover at least this share of every side, and this share on average.
SIDE_SUPPORT = 0.45
MEAN_SUPPORT = 0.65
#: Colour channels are stretched by this much around neutral before the segment search: Lab's
#: a and b steps between a coloured card and a table are a third of the size of a grey step of
#: the same visibility in 8-bit Lab.
CHROMA_GAIN = 3.0
#: A proposal's side is moved onto a segment at most this share of its short side away.
SNAP_REACH = 0.12


class NoCardEdge(UserError):
    """The paper searches found no card whose edge stands out: the die-cut search may."""


class NoCard(NoCardEdge):
    """Nothing card-shaped in the picture at all (not a card refused): at the companion, the
    table is clear."""


@dataclass(frozen=True)
class DieCut:
    """One card found by its die-cut edge: ``quad`` (4 x 2 float32, frame pixels, TL TR BR BL
    of the card held portrait), the share of each side that steps to the table (``steps``) and
    that straight segments cover (``support``)."""

    quad: np.ndarray
    steps: np.ndarray
    support: np.ndarray

    @property
    def score(self) -> float:
        """How clearly it is a card: its weakest side's step and support together."""
        return float(self.steps.min() + self.support.min())


def _shrunk(colour: np.ndarray) -> tuple[np.ndarray, float]:
    scale = min(1.0, math.sqrt(WORK_PIXELS / (colour.shape[0] * colour.shape[1])))
    if scale >= 1.0:
        return colour, 1.0
    return cv2.resize(colour, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def lab_segments(lab: np.ndarray, shortest: float) -> np.ndarray:
    """Straight segments (N x 4) at least ``shortest`` long in Lab's lightness and in its two
    colour channels (stretched by ``CHROMA_GAIN``)."""
    found = [straight_edges(cv2.GaussianBlur(lab[:, :, 0], (3, 3), 0), shortest)]
    for channel in (1, 2):
        stretched = cv2.convertScaleAbs(lab[:, :, channel], alpha=CHROMA_GAIN, beta=128 - 128 * CHROMA_GAIN)
        found.append(straight_edges(cv2.GaussianBlur(stretched, (3, 3), 0), shortest))
    return np.concatenate(found).astype(np.float32)


def _line_cross(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray | None:
    cross = u[0] * v[1] - u[1] * v[0]
    if abs(cross) < 1e-3:
        return None
    t = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
    return p + t * u


def _crossings(points: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Corners where each side's line (P x 4: a point and a direction) crosses the one before:
    P x 4 x 2 (NaN where two lines run parallel)."""
    p, u = np.roll(points, 1, axis=1), np.roll(units, 1, axis=1)
    q, v = points, units
    cross = u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]
    t = ((q[..., 0] - p[..., 0]) * v[..., 1] - (q[..., 1] - p[..., 1]) * v[..., 0]) / np.where(
        np.abs(cross) < 1e-3, np.nan, cross
    )
    return p + t[..., None] * u


def snapped(quads: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """Each of ``quads`` (P x 4 x 2, ordered) with each side moved onto a straight segment lying
    along it (within ``SNAP_REACH`` of its short side, about parallel), its corners where those
    lines cross: once onto the segment covering most of each side, once onto the outermost
    covering at least half of it (a dark face's printed frame line, just inside its edge, runs
    the whole side, where the die-cut edge stops short of the rounded corners). A quad with a
    side no segment covers for ``0.3`` of it is left out. A proposal from one corner guesses
    its far sides from a card's shape: a few pixels off the card's edge, where no step is
    measured. All in one go: (2 x kept) x 4 x 2."""
    p0, p1 = segments[:, :2], segments[:, 2:]
    seg_unit = (p1 - p0) / (np.linalg.norm(p1 - p0, axis=1, keepdims=True) + 1e-6)
    ends = np.roll(quads, -1, axis=1)
    lengths = np.linalg.norm(ends - quads, axis=2) + 1e-6  # P x 4
    e = (ends - quads) / lengths[..., None]
    n = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    outward = ((quads - quads.mean(axis=1, keepdims=True)) * n).sum(axis=2) >= 0
    n = np.where(outward[..., None], n, -n)
    # Projections of every segment's ends on every side's direction and normal: (P x 4) x S,
    # as matrix products (the per-pair sums over two coordinates cost 5 times as much).
    flat_e, flat_n, flat_q = e.reshape(-1, 2), n.reshape(-1, 2), quads.reshape(-1, 2)
    qe, qn = (flat_q * flat_e).sum(axis=1)[:, None], (flat_q * flat_n).sum(axis=1)[:, None]
    off = ((flat_n @ p0.T + flat_n @ p1.T) / 2 - qn).reshape(len(quads), 4, -1)
    t0, t1 = (flat_e @ p0.T - qe).reshape(off.shape), (flat_e @ p1.T - qe).reshape(off.shape)
    top = lengths[..., None]
    cover = np.clip(np.maximum(t0, t1), 0, top) - np.clip(np.minimum(t0, t1), 0, top)
    parallel = (np.abs(flat_e @ seg_unit.T) >= 0.985).reshape(off.shape)
    reach = SNAP_REACH * lengths.min(axis=1)[:, None, None]
    cover = np.where(parallel & (np.abs(off) <= reach), cover, 0.0)
    best = cover.argmax(axis=2)  # P x 4
    ok = (np.take_along_axis(cover, best[..., None], axis=2)[..., 0] >= 0.3 * lengths).all(axis=1)
    long_off = np.where(cover >= 0.5 * lengths[..., None], off, -np.inf)
    outer = np.where(np.isfinite(long_off.max(axis=2)), long_off.argmax(axis=2), best)
    found = [_crossings(p0[pick[ok]], seg_unit[pick[ok]]) for pick in (best, outer)]
    both = np.concatenate(found).astype(np.float32)
    return both[np.isfinite(both).all(axis=(1, 2))]


def _colours_at(lab: np.ndarray, points: np.ndarray) -> np.ndarray:
    h, w = lab.shape[:2]
    at = np.round(points).astype(int)
    return lab[np.clip(at[:, 1], 0, h - 1), np.clip(at[:, 0], 0, w - 1)].astype(np.float32)


def widened(lab: np.ndarray, quad: np.ndarray, segments: np.ndarray) -> np.ndarray:
    """``quad`` (ordered) with each side moved out onto a straight edge parallel just outside
    it (``RIM_REACH`` of its short side at most, along half of it or more) when what lies
    between is of the card's own ground just inside the side (``RIM_ALIKE`` of it): the side
    was a line printed near the edge (a dark face's frame line), the edge is further out. The
    table beyond a card's edge is not the card's ground (the side steps to it)."""
    p0, p1 = segments[:, :2], segments[:, 2:]
    unit = (p1 - p0) / (np.linalg.norm(p1 - p0, axis=1, keepdims=True) + 1e-6)
    ends = np.roll(quad, -1, axis=0)
    lengths = np.linalg.norm(ends - quad, axis=1) + 1e-6
    short = float(min(lengths[0] + lengths[2], lengths[1] + lengths[3]) / 2)
    centre = quad.mean(axis=0)
    lines = []
    for k in range(4):
        e = (ends[k] - quad[k]) / lengths[k]
        n = np.array([-e[1], e[0]], np.float32)
        if float((quad[k] - centre) @ n) < 0:
            n = -n
        line = (quad[k], e)
        off0, off1 = (p0 - quad[k]) @ n, (p1 - quad[k]) @ n
        t0, t1 = (p0 - quad[k]) @ e, (p1 - quad[k]) @ e
        cover = np.clip(np.maximum(t0, t1), 0, lengths[k]) - np.clip(np.minimum(t0, t1), 0, lengths[k])
        near = (np.minimum(off0, off1) >= 1.5) & (np.maximum(off0, off1) <= RIM_REACH * short)
        fits = np.flatnonzero(near & (np.abs(unit @ e) >= 0.985) & (cover >= 0.5 * lengths[k]))
        points = quad[k] + np.outer(ALONG * lengths[k], e)
        ground = _colours_at(lab, points - n * DEPTHS[1] * short)
        for j in fits[np.argsort(-(off0 + off1)[fits])]:
            between = _colours_at(lab, points + n * (off0[j] + off1[j]) / 4)
            if (np.abs(between - ground).sum(axis=1) < STEP).mean() >= RIM_ALIKE:
                line = (p0[j], unit[j])
                break
        else:
            beyond = ground_beyond(lab, points, n, ground, RIM_REACH * short)
            if beyond is not None:
                line = (quad[k] + n * beyond, e)
        lines.append(line)
    corners = [_line_cross(*lines[k - 1], *lines[k]) for k in range(4)]
    return quad if any(c is None for c in corners) else np.array(corners, np.float32)


#: Offsets (px) looked at outward from a side for where the card's ground ends, in this step.
PROFILE_STEP = 0.5
#: A line printed along the side (a dark face's frame line) is this wide at most (px): the
#: card's ground resumes beyond it.
LINE_PX = 2.0
#: Beyond the ground's end the table lies on: for this many px it stays unlike the ground on
#: half the side or more (the step blurred over 1-2 px by the camera is taken at its middle).
TABLE_PX = 2.0


def ground_beyond(
    lab: np.ndarray, points: np.ndarray, outward: np.ndarray, ground: np.ndarray, reach: float
) -> float | None:
    """How far out (px) from a side (``points`` along it, ``outward`` its unit normal) the
    card's own ground (``ground``: its colour just inside each point) runs on before it steps
    to the table, when the straight segments do not say (a dark card's edge on a dark, uneven
    table is a broken line, pieces of a fifth to a half of the side): past a printed line
    (``LINE_PX``), the ground on ``RIM_ALIKE`` of the side, then the table (unlike it on half
    the side or more, for ``TABLE_PX``), within ``reach``; the edge is where half the side has
    left the ground. None: the side is the card's edge already, or the profile says nothing
    clear (a table as dark as the card there)."""
    offsets = np.arange(PROFILE_STEP, reach + 1e-3, PROFILE_STEP)
    at = points[None, :, :] + offsets[:, None, None] * outward[None, None, :]
    colours = _colours_at(lab, at.reshape(-1, 2)).reshape(len(offsets), len(points), 3)
    like = (np.abs(colours - ground[None]).sum(axis=2) < STEP).mean(axis=1)
    start = 0
    while start < len(offsets) and like[start] < RIM_ALIKE and offsets[start] <= LINE_PX:
        start += 1
    end = start
    while end < len(offsets) and like[end] >= RIM_ALIKE:
        end += 1
    while end < len(offsets) and like[end] > 0.5:
        end += 1
    table = round(TABLE_PX / PROFILE_STEP)
    if end - start < 2 or end + table > len(offsets) or (like[end : end + table] > 0.5).any():
        return None
    return float(offsets[end] - PROFILE_STEP / 2)


def side_steps(lab: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """For each side of ``quad`` once ordered, the share of its length where the colour just
    inside differs by ``STEP`` from just outside (0 for a side mostly out of the picture).

    On a patterned table as dark as a dark card in places, the step is missing there; the
    card's rim is still even along the side while the table is not: a side whose rim is even
    (:data:`RIM_EVEN`) counts as stepping all along when it steps on ``EVEN_STEP`` of it."""
    return sides_steps(lab, [quad])[0]


def sides_steps(lab: np.ndarray, quads: list[np.ndarray] | np.ndarray) -> np.ndarray:
    """:func:`side_steps` of each of ``quads`` (Q x 4), all in one go: the die-cut search
    measures hundreds of outlines a settle frame, and numpy's per-call overhead on one
    outline's samples cost more than the work."""
    if not len(quads):
        return np.zeros((0, 4))
    inside, ok_in = sides_colours(lab, list(quads), tuple(-d for d in DEPTHS), ALONG)
    outside, ok_out = sides_colours(lab, list(quads), DEPTHS, ALONG)
    middle = len(DEPTHS) // 2
    inner = np.sort(inside, axis=3)[:, :, :, middle]
    outer = np.sort(outside, axis=3)[:, :, :, middle]
    ok = ok_in.all(axis=3) & ok_out.all(axis=3)
    apart = np.abs(inner - outer).sum(axis=3)
    shares = ((apart >= STEP) & ok).sum(axis=2) / len(ALONG)
    faint = ((apart >= FAINT_STEP) & ok).sum(axis=2) / len(ALONG)
    even = (np.abs(np.diff(inner, axis=2)).sum(axis=3) < RIM_NEAR).mean(axis=2) >= RIM_EVEN
    return np.where(even, np.maximum(np.where(shares >= EVEN_STEP, 1.0, shares), faint), shares)


def rim_paper_share(lab: np.ndarray, quad: np.ndarray) -> float:
    """The share of the rim just inside ``quad`` (its sides' inside samples) that is light,
    nearly colourless paper (:func:`vision.card_checks.light_paper`)."""
    inside, ok = side_colours(lab, quad, tuple(-d for d in DEPTHS), ALONG)
    chroma = np.abs(inside[..., 1] - 128) + np.abs(inside[..., 2] - 128)
    paper = (inside[..., 0] >= PAPER_LIGHT) & (chroma <= PAPER_CHROMA)
    return float(paper[ok].mean()) if ok.any() else 0.0


def layered(lab: np.ndarray, quad: np.ndarray) -> bool:
    """Whether along some side the rim changes from its outer depth to its inner one on
    ``LAYER_SHARE`` of it or more: a step parallel to the side just inside, as where a book's
    cover lies on its pages. A card's rim is one ground in from its edge (full-bleed art, a
    dark ground): the rim has changed where none of its three outer depths' colours is near
    any of its three inner depths' (a line printed in the rim, blurred over two depths, leaves
    the ground at the others). The outer layer is one thing: its three depths alike (a book's
    pages); on a small dark card they are the edge's blur, the ground and a frame line printed
    4 % in, each a px or two apart (28 such cards of 212 on other-decks seeds 0-2 were taken
    for layered)."""
    rim, ok = side_colours(lab, quad, tuple(-d for d in LAYER_DEPTHS), ALONG)
    apart = np.abs(rim[:, :, :3, None] - rim[:, :, None, 3:]).sum(axis=4).min(axis=(2, 3))
    outer = rim[:, :, :3]
    band = np.abs(outer[:, :, :, None] - outer[:, :, None, :]).sum(axis=4).max(axis=(2, 3)) < STEP
    changed = (apart >= STEP) & band & ok.all(axis=2)
    return bool((changed.mean(axis=1) >= LAYER_SHARE).any())


def _one_per_place(quads: np.ndarray, pixels: float) -> np.ndarray:
    """One of ``quads`` (the last) for each set of corners alike when rounded to ``pixels``, in
    the order the sets were first met."""
    places = map(tuple, np.round(quads / pixels).astype(int).reshape(len(quads), -1).tolist())
    return np.stack(list(dict(zip(places, quads, strict=True)).values()))


def die_cut_cards(colour: np.ndarray, least_share: float = MIN_AREA_SHARE) -> list[DieCut]:
    """Cards in a BGR picture found by their die-cut edge (see the module's doc), best first,
    one per card: none inside another (the outer kept), none overlapping another much.
    ``least_share``: the smallest card looked for, as a share of the picture's area: it sets the
    shortest straight edge followed, and smaller card-shaped outlines may be found besides."""
    small, scale = _shrunk(colour)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    image_area = float(small.shape[0] * small.shape[1])
    side = math.sqrt(least_share * image_area)
    segments = lab_segments(lab, 0.4 * side)
    proposals = np.array(corner_quads(segments, side), np.float32).reshape(-1, 4, 2)
    proposals = proposals[card_shaped_many(proposals, image_area)]
    if not len(proposals):
        return []
    # Corners found twice (a corner seen from both its edges) are snapped once.
    moved = snapped(_one_per_place(order_quads(proposals), 2), segments)
    moved = moved[card_shaped_many(moved, image_area)]
    if not len(moved):
        return []
    ordered = order_quads(_one_per_place(moved, 1))
    support = edge_support(ordered, segments)
    lined = (support.min(axis=1) >= SIDE_SUPPORT) & (support.mean(axis=1) >= MEAN_SUPPORT)
    found: list[DieCut] = []
    lined_at = np.flatnonzero(lined)
    for k, steps in zip(lined_at, sides_steps(lab, ordered[lined_at]), strict=True):
        if steps.min() >= DIE_STEP and not layered(lab, ordered[k]):
            found.append(DieCut(widened(lab, ordered[k], segments), steps, support[k]))
    # Best first; of outlines about as clear, the larger first: of two outlines of one card
    # both stepping all round, the inner is a frame printed on it (a dark face's frame line:
    # its outside is the card's narrow rim, then the table, within the depths looked at).
    found.sort(key=lambda card: (-round(card.score, 1), -cv2.contourArea(card.quad)))
    kept: list[DieCut] = []
    for card in found:
        if all(iou(card.quad, other.quad) < 0.5 for other in kept):
            kept.append(card)
    # Of two one inside the other, the outer: the inner's outside is the card's own rim.
    outer = [
        card
        for card in kept
        if not any(
            other is not card
            and cv2.contourArea(other.quad) > cv2.contourArea(card.quad)
            and inside_share(card.quad, other.quad) >= 0.8
            for other in kept
        )
    ]
    return [DieCut(order_quad((c.quad + 0.5) / scale - 0.5), c.steps, c.support) for c in outer]


#: A straight step this far outside a side (shares of the card's short side) and parallel to
#: it, along ``BEYOND_COVER`` of it, is something's edge round the outline: a book's cover over
#: its pages, a frame printed on a card round its art panel, a tray. A card's die-cut edge has
#: the table beyond it, whose edges do not run along the card's sides.
BEYOND_REACH = (0.03, 0.15)
BEYOND_COVER = 0.6
#: ... on at least this many sides.
BEYOND_SIDES = 2


def parallel_beyond(colour: np.ndarray, quad: np.ndarray) -> bool:
    """Whether straight edges run parallel just outside ``quad`` (frame pixels) along most of
    ``BEYOND_SIDES`` of its sides or more (see ``BEYOND_REACH``)."""
    small, scale = _shrunk(colour)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    q = order_quad((np.asarray(quad, np.float32) + 0.5) * scale - 0.5)
    ends = np.roll(q, -1, axis=0)
    lengths = np.linalg.norm(ends - q, axis=1) + 1e-6
    short = float(min(lengths[0] + lengths[2], lengths[1] + lengths[3]) / 2)
    segments = lab_segments(lab, 0.3 * short)
    if len(segments) == 0:
        return False
    p0, p1 = segments[:, :2], segments[:, 2:]
    unit = (p1 - p0) / (np.linalg.norm(p1 - p0, axis=1, keepdims=True) + 1e-6)
    centre = q.mean(axis=0)
    sides = 0
    for k in range(4):
        e = (ends[k] - q[k]) / lengths[k]
        n = np.array([-e[1], e[0]], np.float32)
        if float((q[k] - centre) @ n) < 0:
            n = -n
        off0, off1 = (p0 - q[k]) @ n, (p1 - q[k]) @ n
        near = (np.minimum(off0, off1) >= BEYOND_REACH[0] * short) & (
            np.maximum(off0, off1) <= BEYOND_REACH[1] * short
        )
        t0, t1 = (p0 - q[k]) @ e, (p1 - q[k]) @ e
        cover = np.clip(np.maximum(t0, t1), 0, lengths[k]) - np.clip(np.minimum(t0, t1), 0, lengths[k])
        cover = np.where(near & (np.abs(unit @ e) >= 0.985), cover, 0.0)
        sides += int(cover.max() >= BEYOND_COVER * lengths[k])
    return sides >= BEYOND_SIDES
