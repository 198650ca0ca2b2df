"""Teaching a card whose face is not white paper: the one card found by its die-cut edge.

The paper searches (:func:`vision.card_capture.find_paper_card`) decide first. When they find
no card whose edge stands out (:class:`vision.die_cut.NoCardEdge`: full-bleed art, a dark
face), the die-cut search (:mod:`vision.die_cut`) must find exactly one card on its own:
teaching has no taught faces to confirm it. When they take an outline without a paper band
of a card not of light paper that is only a part of one die-cut card (a full-bleed face cut
along its art), that card is taken whole.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.errors import UserError
from vision.card_capture import TEACH_MIN_AREA, find_paper_card
from vision.card_checks import TEACH_ASPECT, aspect, card_paper, inside_share, light_paper, order_quad
from vision.card_outlines import CardOutline
from vision.die_cut import STEP, DieCut, NoCardEdge, die_cut_cards, parallel_beyond, rim_paper_share
from vision.frame_cut import corners_in_view

#: A part of a card taken by the paper searches is at most this share of the die-cut card
#: round it (the full-bleed face cut at its art's ray: half of it); more is the card itself.
PART_AREA = 0.8
#: ... lying this much inside it.
PART_INSIDE = 0.8
#: An outline taken by the paper searches that covers up to this share of the die-cut card round
#: it, and whose band out to the card's edge is the ground just inside it, is a frame printed on
#: the face, not the card (:func:`_printed_frame`; a dark face's frame line on a plain table:
#: 0.84-0.86; a card taken along its own edge: 0.97-0.99).
FRAME_AREA = 0.95
#: Px left out either side of the band between a frame and the card's edge (the frame line, the
#: edge's blur).
FRAME_EDGE_PX = 1
#: A card whose rim is light paper on this share or more is the paper searches' to judge
#: (their refusal stands): they look closely at fans, cards overlapping and covered cards, and
#: on the development photos the die-cut search's one outline round a refused light card was
#: 3 cards in a row, a fan, or a card half under a cloth. A full-bleed face's light index discs
#: reach into its rim at two corners: 0.17 of it at most.
RIM_PAPER = 0.3


def _whole(card: DieCut, shape: tuple[int, ...]) -> bool:
    """Of a card's shape seen from above, every corner in the picture."""
    margin = max(1.0, 0.006 * min(shape[:2]))
    return TEACH_ASPECT[0] <= aspect(card.quad) <= TEACH_ASPECT[1] and all(
        corners_in_view(card.quad, shape, margin)
    )


def _printed_frame(lab: np.ndarray, inner: np.ndarray, card: np.ndarray) -> bool:
    """Whether ``inner`` (an outline lying within the die-cut ``card``, of at most
    ``FRAME_AREA`` of it) is a frame printed on the face: the band between it and the card's
    edge is of the ground just inside it (a line printed on one ground), where a card's edge
    steps to the table or to whatever the card lies on."""
    if cv2.contourArea(inner) > FRAME_AREA * cv2.contourArea(card):
        return False
    kernel = np.ones((2 * FRAME_EDGE_PX + 1, 2 * FRAME_EDGE_PX + 1), np.uint8)
    shape = lab.shape[:2]
    inside = cv2.fillConvexPoly(np.zeros(shape, np.uint8), np.round(inner).astype(np.int32), 1)
    whole = cv2.fillConvexPoly(np.zeros(shape, np.uint8), np.round(card).astype(np.int32), 1)
    band = cv2.erode(whole, kernel) & ~cv2.dilate(inside, kernel) & 1
    # The ground as deep inside the outline as the band is wide beyond it.
    width = max(2, round((np.sqrt(cv2.contourArea(card)) - np.sqrt(cv2.contourArea(inner))) / 2))
    ground = cv2.erode(inside, kernel) & ~cv2.erode(inside, np.ones((2 * width + 1,) * 2, np.uint8)) & 1
    if band.sum() < 20 or ground.sum() < 20:
        return False
    apart = np.abs(np.median(lab[band > 0], axis=0) - np.median(lab[ground > 0], axis=0)).sum()
    return bool(apart < STEP)


def die_cut_card(
    colour: np.ndarray, what: str, refused: UserError, least: float = TEACH_MIN_AREA
) -> CardOutline:
    """The one card in ``colour`` found by its die-cut edge, of at least ``least`` of the
    picture; ``refused`` (the paper searches' refusal) when there is none, UserError when there
    is more than one."""
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB)
    cards = [c for c in die_cut_cards(colour, least) if not parallel_beyond(colour, c.quad)]
    if any(rim_paper_share(lab, c.quad) >= RIM_PAPER for c in cards):
        raise refused
    if len(cards) > 1:
        raise UserError(f"{len(cards)} card-shaped outlines in {what}: show one card alone")
    if not cards:
        raise refused
    # A card to teach is no smaller than ``least`` (the die-cut search's outlines may
    # be: the card-shaped 'd' of a book's title was taught as the card, IMG_2520 turned half
    # round). Smaller ones above still count as rivals (a lattice's cells beside a queen seen
    # through a wire mesh: IMG_2514 is refused).
    if cv2.contourArea(cards[0].quad) < least * colour.shape[0] * colour.shape[1]:
        raise refused
    if not TEACH_ASPECT[0] <= aspect(cards[0].quad) <= TEACH_ASPECT[1]:
        raise refused
    if not _whole(cards[0], colour.shape):
        raise UserError(f"the card in {what} is cut by the picture's edge or covered: show the whole card")
    return CardOutline(cards[0].quad, False, True)


def find_one_card(colour: np.ndarray, what: str, least: float = TEACH_MIN_AREA) -> CardOutline:
    """The one card in a BGR picture to teach from, of at least ``least`` of the picture (see
    the module's doc); UserError (one line) when there is none, more than one, or it is cut by
    the picture's edge or covered."""
    try:
        found = find_paper_card(colour, what, least)
    except NoCardEdge as refused:
        return die_cut_card(colour, what, refused, least)
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB)
    if light_paper(card_paper(lab, order_quad(found.quad))[1]):
        return found
    # Not light paper (even with a band all round, as a full-bleed face's even ground makes):
    # the paper searches' cues say little of where its edge is (a full-bleed cherry was taught
    # along a ray of its art: half the card, its band the red ground; a dark card on a plain
    # table along its printed frame line, 0.85 of the card).
    round_it = [
        c
        for c in die_cut_cards(colour, least)
        if inside_share(found.quad, c.quad) >= PART_INSIDE
        and (
            cv2.contourArea(found.quad) <= PART_AREA * cv2.contourArea(c.quad)
            or _printed_frame(lab, found.quad, c.quad)
        )
        and _whole(c, colour.shape)
        and not parallel_beyond(colour, c.quad)
    ]
    return CardOutline(round_it[0].quad, False, True) if len(round_it) == 1 else found
