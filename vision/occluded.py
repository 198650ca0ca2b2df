"""A card with something lying across its edge (a chip, a cable, a pen): named by the rest.

A whole card's outline is found and sure, yet no stage names it: the thumbnails, the features'
aligned comparison and the lined-up thumbnail all refuse it because one part of it differs from
every taught picture. When that part is a thing lying on the card, the rest of the card is
compared as the part of a covered card is (:class:`vision.part_match.PartMatcher`: a corner
index must show and agree decisively, what shows must agree window by window).

What counts as a thing lying on the card, and not print that differs (a never-taught look-alike
whose extra pip is, to a camera, a coin lying on the taught face):

1. the pixels of the card that differ from the taught picture most like it (light-normalised,
   at the part comparison's coarse size) by more than ``LYING_DIFFERENCE``;
2. only regions of them that reach the card's edge (``EDGE_REACH``): the outline is sure, so
   the card has a paper margin all round, and print stays inside it; a thing lying across the
   edge does not. A coin lying wholly inside a card stays unidentified;
3. grown by its rim and shadow (``GROWN_BY`` of its size), at most ``MOST_HIDDEN`` of the card,
   and one corner index zone (the wide one) left untouched: the card's rank is read whole.

A thin thing across a whole card is first left out by the features' own aligned comparison
(:mod:`vision.lying_across`, at their finer scale); this stage is for the cards that leaves
unnamed. Here a thin straight thing (a cable, a pen) is hidden all the way across the card
(:func:`_thin_things`): where it crosses print about as dark as it is, it differs from no
picture, so only pieces of it would be found, and the pieces between them (not reaching the
edge) would stay in the comparison and refuse the card.

Measured on the development photos of ``shared/realcards`` with a coin (a brown disc with a rim
and a highlight, a third of a card's width) laid on one card of each photo across its edge: the
card named in 47 of 63 photos before, 49 after; a dark cable crossing the card: 9 before, 14
after (17 with thin things hidden across the card, and no seam found along them); in
both none wrong, also with the card's rank never taught (each of its cards must then come back
unidentified). A coin wholly inside the card: 20 of 63 named, 21 after (the rest is refused, as
a look-alike's pip would be). The held-out photo IMG_2621's ace, a cable across its corner, is
named by it.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision.card_checks import order_quad
from vision.enrolled import EnrolledDeck, covered_view
from vision.face_match import Match
from vision.part_match import FINE_H, FINE_W, INDEX_H, INDEX_WIDE_W, PART_H, PART_W

__all__ = ["OCCLUDED", "lying_on", "named_under"]

#: ``Match.method`` of a card named by what lies round the thing on it.
OCCLUDED = "occluded"
#: Light-normalised brightness (paper about 1) by which a pixel differs from the picture where
#: something lies on it. Over print it differs less than over paper: at 0.3 the rim of a coin
#: lying over a ten's red pips stayed in view and the window check refused the card (0.82
#: against 0.8); at 0.2 it was hidden and the card named (0.46).
LYING_DIFFERENCE = 0.2
#: A region reaches the card's edge when it comes this close to it (working px, of 45 x 63).
EDGE_REACH = 2
#: A region is grown by this share of its radius, plus a pixel (its rim, its shadow).
GROWN_BY = 0.4
#: At most this share of the card may be hidden.
MOST_HIDDEN = 0.5
#: A thin thing: a region reaching the edge at least this many times as long as it is wide,
#: at least ``THIN_LENGTH`` of the card's width long and ``THIN_WIDTH`` working px wide (a
#: cable 3 mm or more across; a print's edge a pixel off makes slivers a pixel wide).
THIN_TIMES, THIN_LENGTH, THIN_WIDTH = 4.0, 1 / 3, 1.8

_OPEN = np.ones((3, 3), np.uint8)
_INDEX_Y, _INDEX_X = int(np.ceil(INDEX_H * PART_H)), int(np.ceil(INDEX_WIDE_W * PART_W))


def lying_on(image: np.ndarray, picture: np.ndarray, shift: tuple[int, int]) -> np.ndarray | None:
    """The working-size 0/1 map of what lies on a card across its edge (see the module), from
    its coarse image and the picture most like it at ``shift``
    (:meth:`vision.part_match.PartMatcher.closest`); None when nothing does, or so much that the
    rest cannot be read."""
    dx, dy = shift
    s = max(abs(dx), abs(dy))
    # The image's pixel x + (dx, dy) against the picture's x, then back at the image's own place.
    seen = np.pad(image, s, mode="edge")[s + dy : s + dy + PART_H, s + dx : s + dx + PART_W]
    raw = (np.abs(seen - picture) > LYING_DIFFERENCE).astype(np.uint8)

    def in_place(differs: np.ndarray) -> np.ndarray:
        return np.pad(differs, s)[s - dy : s - dy + PART_H, s - dx : s - dx + PART_W]

    differs = in_place(cv2.morphologyEx(raw, cv2.MORPH_OPEN, _OPEN))  # a print's edge a pixel off
    # The opening cuts a thin thing lying aslant into pieces: thin things are found unopened.
    hidden = _thin_things(in_place(raw))
    for region in _at_edge(differs):
        one = np.zeros_like(differs)
        cv2.drawContours(one, [region], -1, 1, -1)  # holes filled: all inside it is hidden
        reach = 1 + int(GROWN_BY * np.sqrt(cv2.contourArea(region) / np.pi))
        hidden |= cv2.dilate(one, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1,) * 2))
    if not hidden.any() or hidden.mean() > MOST_HIDDEN:
        return None
    if hidden[:_INDEX_Y, :_INDEX_X].any() and hidden[-_INDEX_Y:, -_INDEX_X:].any():
        return None
    return hidden


def _at_edge(differs: np.ndarray) -> list[np.ndarray]:
    """The outer contours of the regions of the 0/1 map ``differs`` that reach the card's edge."""
    regions, _hierarchy = cv2.findContours(differs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    reaching = []
    for region in regions:
        x, y, w, h = cv2.boundingRect(region)
        if min(x, y, PART_W - x - w, PART_H - y - h) <= EDGE_REACH:
            reaching.append(region)
    return reaching


def _thin_things(differs: np.ndarray) -> np.ndarray:
    """The 0/1 map of the thin straight things (see ``THIN_TIMES``) among the regions of
    ``differs`` reaching the card's edge, each drawn on straight across the whole card with a
    pixel of rim each side."""
    hidden = np.zeros_like(differs)
    for region in _at_edge(differs):
        (x, y), (w, h), angle = cv2.minAreaRect(region)
        length, width = max(w, h), min(w, h)
        if length < THIN_TIMES * width or length < THIN_LENGTH * PART_W or width < THIN_WIDTH:
            continue
        along = np.deg2rad(angle if w >= h else angle + 90)
        reach = 2 * PART_H * np.array([np.cos(along), np.sin(along)])
        ends = [tuple(int(v) for v in np.round(np.array([x, y]) + sign * reach)) for sign in (-1, 1)]
        cv2.line(hidden, ends[0], ends[1], 1, int(round(width)) + 2)
    return hidden


def named_under(deck: EnrolledDeck, frame: np.ndarray, quad: np.ndarray) -> Match | None:
    """The taught face of the card at ``quad`` (a sure, whole outline no stage named) with
    something lying across its edge, compared without it; None when nothing lies on it that way
    or the rest does not name it."""
    ordered = order_quad(quad)
    # The card rectified as a covered card's is, all of it in view.
    card, shown = covered_view(frame, ordered, ordered)
    closest = deck.parts.closest(card)
    if closest is None:
        return None
    hidden = lying_on(*closest)
    if hidden is None:
        return None
    fine = cv2.resize(hidden, (FINE_W, FINE_H), interpolation=cv2.INTER_NEAREST)
    named = deck.parts.match(card, shown & (1 - fine))
    if named.card_id is None:
        return None
    return dataclasses.replace(named, method=OCCLUDED, corners=ordered)
