"""Choosing the one card in a picture to teach from (:func:`vision.enrolled.capture_card`).

The outline searches (:mod:`vision.card_outlines`) are made for reading cards in play, where an
outline that is only part of a card (the rest under a hand or another card) is still useful.
A picture to teach from is different: the cut-out becomes the card's face for good, so a part
of a card, a patch of table with a card in it, a book or a postcard stored as a face is far
worse than a refusal. The checks here are stricter and look at each side on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import UserError
from vision.card_beneath import cards_beneath
from vision.card_checks import (
    FACE_INK,
    TEACH_ASPECT,
    aspect,
    border_contrast,
    card_paper,
    ink_share,
    light_paper,
    order_quad,
)
from vision.card_outlines import CardOutline, find_card_candidates
from vision.card_seams import find_seams
from vision.die_cut import NoCard, NoCardEdge
from vision.light_table_outlines import light_around, light_table_cards
from vision.outline_sides import STEP, paper_beside_sides, side_steps

#: Shade darkens a card's paper to this share of its lightness at most (as
#: :func:`vision.card_checks.same_paper` allows across one card).
SHADE = 0.5

#: A card to teach from a photo covers at least this share of it (the realcards photos: 4-44 %):
#: smaller, the cut-out is too coarse to keep, and most small card-shaped things are labels,
#: barcodes, pips. The companion's camera sees a card smaller (0.7-1.4 %) and passes its own
#: least share (:data:`companion.daemon.teaching.CAMERA_LEAST_AREA`).
TEACH_MIN_AREA = 0.01
#: An outline that is all there is in the picture, without a paper band or light paper
#: (full-bleed art), is taken only when sharper still (the development photos: a patch of rug
#: with a card in it had sides of 0.75-0.88 and a contrast of 0.9).
ALONE_STEP = 0.9
ALONE_CONTRAST = 0.95
#: A side of the card taught has a step to the table on at least this share of its length (a
#: whole card on the development photos: 0.94 and more on 95 %; an outline that is a part of a
#: card, the rest under a toy or a pan's handle: 0.5 and less on its side across the card).
FIT_STEP = 0.6
#: Another card of the same deck at the same distance covers about the same area: an outline
#: outside this range of the card's area is no second card (a mint box, a book).
RIVAL_AREA = (0.4, 2.5)
#: ... and its short / long side within this range (a little longer than ``TEACH_ASPECT``: a
#: second card seen a little askew must not pass for a postcard, 0.58-0.59 on the photos).
RIVAL_ASPECT = (0.6, TEACH_ASPECT[1])
#: Cards overlapping make one outline of about this share of a card's area (two side by side
#: overlapping by a fifth to nearly all: 1.2-1.8; three fanned: up to 2.5).
OVERLAP_AREA = (1.2, 2.5)
#: ... and, for a card taken without a sure paper band (:data:`CLEAR_STEP`), a wider range.
CLEAR_RIVAL_AREA = (0.15, 7.0)
#: An outline without a sure paper band is taken only when it is this clear: every side
#: a step on most of its length, and a strong border contrast.
CLEAR_STEP = 0.75
CLEAR_CONTRAST = 0.85
#: ... and of a card's shape more closely than a sure one (the sure cards' aspect on the
#: development photos: 2nd to 98th percentile; an outline cut short along the card, or taking
#: in a strip of table, without a paper band to tell, is longer or squarer).
CLEAR_ASPECT = (0.64, 0.84)
#: ... and a card's face (``FACE_INK``) on light, nearly colourless paper (``light_paper``).
#: Paper of the card's colour just outside half of one side: a card lying over or beside
#: another (multi-card photos taken as one card: 0.75, 0.81), or the card going on past the
#: outline (the single cards taught: 0.56 at most, on white paper or a white book's edge).
TOUCH_SHARE = 0.65
#: An outline inside the card of this share of its area, lying mostly (``INSIDE_SHARE``)
#: within it: half of what was taken as one card (two cards edge to edge are 0.5 each).
HALF_AREA = (0.3, 0.7)
INSIDE_SHARE = 0.8
#: Two outlines are one thing when this share of the smaller lies inside the larger.
SAME_SHARE = 0.5
#: An outline round the card (this share of the card inside it) and this much larger, of the
#: card's paper and printed as a card's face (``FACE_INK``): the card lies in a fan or on
#: another card, or what was taken is only a part of a card (the rest in shadow).
AROUND_SHARE = 0.8
AROUND_AREA = (1.2, 4.0)
#: Paper beside the card ending on a straight edge a card's side long, up to this share of the
#: card's depth away, is a card beneath it (the reader stops at 0.8, where a card beside it is
#: found on its own; a fan of cards beside the card taught makes a deeper strip).
BENEATH_DEPTH = 2.0
#: A sure card-shaped outline inside the card at most this share of its area: cards lying on
#: something card-shaped (a clipboard, a tray); a face card's art frame is larger.
HOLDS_AREA = 0.3
#: The table round a card found by the outline searches is light like its paper
#: (:func:`vision.light_table_outlines.light_around`) on this share at most (the single cards
#: taught that way on the development photos: 0.70 at most, a beige floor; a king's index
#: frame taken as a card, IMG_2684: 0.88; cards on light tables, taught by their faint edge:
#: 0.82-0.92).
LIGHT_ALL_ROUND = 0.8


@dataclass(frozen=True)
class _Looked:
    """One outline with what the capture checks measured on it."""

    outline: CardOutline
    area: float
    aspect: float
    evidence: int
    paper: np.ndarray
    ink: float
    seams: int
    steps: np.ndarray
    contrast: float

    @property
    def fits(self) -> bool:
        """Whole, all four sides in view, each a step to the table (not a part of a card)."""
        return self.outline.whole and bool(np.all(self.steps >= FIT_STEP))

    @property
    def card_aspect(self) -> bool:
        """Shaped like a card seen from above (see ``TEACH_ASPECT``)."""
        return TEACH_ASPECT[0] <= self.aspect <= TEACH_ASPECT[1]

    @property
    def strong(self) -> bool:
        """A sure card (paper band all round) that fits, of a card's aspect."""
        return self.outline.sure and self.fits and self.card_aspect

    @property
    def outlined(self) -> bool:
        """A card's shape, whole, stepping clearly to the table on every side."""
        return (
            self.evidence >= 1
            and self.fits
            and bool(np.all(self.steps >= CLEAR_STEP))
            and self.card_aspect
            and self.contrast >= CLEAR_CONTRAST
        )

    @property
    def alone_clear(self) -> bool:
        """Outlined more sharply still: every side a step nearly all along (see ``ALONE_STEP``)."""
        return bool(np.all(self.steps >= ALONE_STEP)) and self.contrast >= ALONE_CONTRAST

    @property
    def clear(self) -> bool:
        """Not sure of its paper band, but unmistakably one card on the table: clearly
        outlined, light paper with ink on it, no card's edge across it (a fan of cards)."""
        return (
            self.outlined
            and CLEAR_ASPECT[0] <= self.aspect <= CLEAR_ASPECT[1]
            and self.ink >= FACE_INK
            and self.paper_like
            and not self.seams
        )

    @property
    def paper_like(self) -> bool:
        """Its border is light, nearly colourless paper, as a card's."""
        return light_paper(self.paper)


def _look(lab: np.ndarray, outline: CardOutline) -> _Looked:
    quad = order_quad(outline.quad)
    evidence, paper = card_paper(lab, quad)
    return _Looked(
        outline,
        float(cv2.contourArea(quad)),
        aspect(quad),
        evidence,
        paper,
        ink_share(lab, quad, paper),
        len(find_seams(lab[:, :, 0], quad)),
        side_steps(lab, quad),
        border_contrast(lab, quad),
    )


def _overlap(a: _Looked, b: _Looked) -> float:
    """The share of the smaller outline that lies inside the other."""
    inter, _ = cv2.intersectConvexConvex(a.outline.quad.astype(np.float32), b.outline.quad.astype(np.float32))
    return float(inter) / max(1.0, min(a.area, b.area))


def _distinct(looked: list[_Looked]) -> list[_Looked]:
    """One of each group of outlines of one thing (both searches find most cards)."""
    kept: list[_Looked] = []
    for one in looked:
        if all(_overlap(one, other) < SAME_SHARE for other in kept):
            kept.append(one)
    return kept


def _holds_cards(card: _Looked, looked: list[_Looked]) -> bool:
    """Whether ``card``'s outline holds two outlines side by side, each of a card's shape and
    a good part of its area: two cards lying edge to edge, taken as one (two cards side by
    side have nearly a card's shape themselves). A face card's art frame is one outline, in
    the middle."""
    inner = [
        one
        for one in looked
        if one.evidence >= 1
        and RIVAL_ASPECT[0] <= one.aspect <= RIVAL_ASPECT[1]
        and HALF_AREA[0] * card.area <= one.area <= HALF_AREA[1] * card.area
        and _overlap(one, card) >= INSIDE_SHARE
    ]
    apart = _distinct(inner)
    return len(apart) >= 2


def _rival(one: _Looked, card: _Looked, clear: bool) -> bool:
    """Whether ``one`` (lying apart from ``card``) may be a second card of the deck: of a
    card's size and shape, with a paper band all round (also when partly covered or cut by the
    picture's edge), or whole and stepping to the table all round. For a card taken without a
    sure paper band (``clear``), anything of light paper with ink of about a card's size."""
    low, high = CLEAR_RIVAL_AREA if clear else RIVAL_AREA
    if not low * card.area <= one.area <= high * card.area:
        return False
    if clear:
        # A card beside it shows its light paper, also when cut by the picture's edge; dark
        # things (a book's shadowed edge, a dark cloth's fold) are no card.
        return one.outline.sure or (one.evidence >= 1 and one.paper_like)
    if _overlapping_cards(one, card):
        return True
    if not RIVAL_ASPECT[0] <= one.aspect <= RIVAL_ASPECT[1]:
        return False
    # A second card of the deck has the card's paper round its print: beside a card of a
    # card's light paper, a patch of another tint (wood, cloth; a beam's end: 38 away) stepping
    # to the table all round is none. Shade darkens paper but leaves its tint, so a second
    # card in shade stays a rival. Only for a card of a card's paper: a thing of another paper
    # taken as the card (a green label on a mint box) says nothing of the deck's paper.
    other_tint = card.paper_like and _tint(one, card) >= STEP
    return one.outline.sure or (one.evidence >= 1 and one.fits and not other_tint)


def _overlapping_cards(one: _Looked, card: _Looked) -> bool:
    """Whether ``one`` is cards of the deck lying over each other, apart from ``card``: larger
    than a card and squarer (two cards overlapping side by side), stepping to the table all
    round, with an even band of ``card``'s paper all round and print inside (a pair of cards
    beside a king: 1.6 times its area, 0.95 short / long side)."""
    return (
        one.aspect > RIVAL_ASPECT[1]
        and OVERLAP_AREA[0] * card.area <= one.area <= OVERLAP_AREA[1] * card.area
        and one.evidence >= 2
        and one.fits
        and one.ink >= FACE_INK
        and _paper_alike(one, card)
    )


def _tint(one: _Looked, card: _Looked) -> float:
    """How far apart the tints (Lab a, b, summed) of two outlines' papers are."""
    return float(np.abs(one.paper[1:] - card.paper[1:]).sum())


def _paper_alike(one: _Looked, card: _Looked) -> bool:
    """Whether ``one``'s border is of ``card``'s paper: the same tint (within ``STEP``), as
    light or darker by what shade does (``SHADE``)."""
    light = min(one.paper[0], card.paper[0]) / max(1.0, one.paper[0], card.paper[0])
    return _tint(one, card) < STEP and light >= SHADE


def _within(inner: _Looked, outer: _Looked) -> float:
    """The share of ``inner``'s area that lies inside ``outer``."""
    a, b = inner.outline.quad.astype(np.float32), outer.outline.quad.astype(np.float32)
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter) / max(1.0, inner.area)


def _among_cards(card: _Looked, looked: list[_Looked]) -> bool:
    """Whether an outline larger than ``card`` holds it and is bordered by paper of the card's
    colour with print on it as a card's: a fan or a pile the card is part of, or the whole card
    round a part of it (a card half in shadow). A blank sheet or a book's margin round a card is
    no card's face: too little ink."""
    return any(
        AROUND_AREA[0] * card.area <= one.area <= AROUND_AREA[1] * card.area
        and _within(card, one) >= AROUND_SHARE
        and one.evidence >= 1
        and float(np.abs(one.paper - card.paper).sum()) < STEP
        and one.ink >= FACE_INK
        for one in looked
    )


def _whole_round(part: _Looked, looked: list[_Looked]) -> _Looked | None:
    """The one card's outline round ``part``, an outline squarer than any card: a shadow's
    straight edge across a card in sun stops the outline search there, and the lit part is
    squarer than a card (an ace half in a shadow: 0.93). Round it, of its paper (shade darkens
    it), an outline clearly one card (:attr:`_Looked.clear`: a card's shape stepping to the
    table all round, light paper with print, no card's edge across it) is the whole card."""
    whole = [
        one
        for one in looked
        if one.clear
        and part.area < one.area <= AROUND_AREA[1] * part.area
        and _within(part, one) >= AROUND_SHARE
        and _paper_alike(one, part)
    ]
    return whole[0] if len(_distinct(whole)) == 1 else None


def _holds_small_cards(card: _Looked, looked: list[_Looked]) -> bool:
    """Whether sure card-shaped outlines, much smaller than ``card``, lie inside it: cards lying
    on a clipboard or a tray that was taken as the card."""
    return any(
        one.outline.sure
        and one.card_aspect
        and one.area <= HOLDS_AREA * card.area
        and _within(one, card) >= INSIDE_SHARE
        for one in looked
    )


def find_paper_card(colour: np.ndarray, what: str, least: float = TEACH_MIN_AREA) -> CardOutline:
    """The one card in a BGR picture to teach from, by the paper searches, of at least
    ``least`` of the picture; UserError (one line) when there is none, more than one, or it is
    cut by the picture's edge or covered (:class:`vision.die_cut.NoCardEdge` when no card's
    edge stands out).

    Both outline searches look; of what they find, the card must be the only sure one, or the
    only one of a card's shape and size that fits (a whole outline stepping to the table all
    round) among sure outlines that are clearly something else (a book cover, a postcard); with
    no sure outline, one unmistakably clear outline. No other outline of a card's size and
    shape may lie apart from it (a second card, a card partly covered). Nor may the card be
    squarer than a card, hold smaller cards, lie within a larger outline of its paper printed
    as cards are, or have another card's strip beside it (:func:`vision.card_beneath.cards_beneath`).
    """
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB)
    smallest = least * colour.shape[0] * colour.shape[1]
    # The plain search without its straight edges round failed regions: the thorough search
    # looks for straight edges everywhere, and the plain one's outline of a card lying over
    # another took the place of the pair's outline that shows it is not alone (three
    # multi-card photos, dev IMG_2687 among them, were taken as one card).
    found = find_card_candidates(colour, region_edges=False) + find_card_candidates(colour, thorough=True)
    looked = [one for one in (_look(lab, outline) for outline in found) if one.area >= smallest]
    # Of several outlines of one thing, the surest and best fitting is kept.
    looked.sort(key=lambda one: (not one.outline.sure, not one.strong, not one.fits, -one.contrast))
    everything = _distinct(looked)
    sure = [one for one in everything if one.outline.sure]
    # A card found by its faint edge on a light table: that edge stands for the step to the
    # table the other outlines are checked for.
    faint = False
    if len(sure) == 1 and sure[0].fits:
        card = sure[0]
    else:
        # The card is the one strong outline, else the one clear outline; sure outlines
        # besides it must be clearly no card (a book cover cut by the picture's edge, a
        # postcard: another shape or size).
        chosen = [one for one in sure if one.strong] or [one for one in everything if one.clear]
        if len(everything) == 1 and everything[0].outlined and everything[0].alone_clear:
            # Art up to the card's edge (no paper band, maybe no light paper at all): alone
            # in the picture, sharply outlined, it is the card.
            chosen = everything
        if len(chosen) == 1 and not any(
            _rival(one, chosen[0], False) for one in sure if one is not chosen[0]
        ):
            card = chosen[0]
        elif len(sure) > 1:
            raise UserError(f"{len(sure)} card-shaped outlines in {what}: show one card alone")
        elif sure:
            card = sure[0]  # refused below: why it cannot be taught
        else:
            try:
                card = _on_light_table(colour, lab, what, least)
            except NoCardEdge as none:
                # "No card found" would be wrong where a card's outline was found and not trusted.
                why = _unclear_refusal(everything, what)
                raise none if why is None else NoCardEdge(why) from None
            faint = True
    if not card.outline.whole:
        raise UserError(f"the card in {what} is cut by the picture's edge or covered: show the whole card")
    if not card.fits and not faint:
        unclear = NoCardEdge(_unclear_edge(what))
        # An outline whose edge does not stand out all round: on a light table, the card's faint
        # edge may (the outline was its art's frame, or a part of it). Only the card round that
        # outline is taken; a card elsewhere would leave the outline as a second, covered card.
        try:
            found = _on_light_table(colour, lab, what, least)
        except UserError:
            raise unclear from None
        if _overlap(found, card) < SAME_SHARE:
            raise unclear
        card, faint = found, True
    if not faint and light_around(lab, order_quad(card.outline.quad), card.paper) >= LIGHT_ALL_ROUND:
        # Light paper all round: the step to it is no evidence of a card's edge (a frame
        # printed on a card steps to the card's own paper as a card steps to a table); only the
        # light table's evidence may take it (its faint edge, a blank band inside every side, no
        # frame's edge parallel just outside).
        on_light = (
            f"the card in {what} lies on paper or on a table as light as itself: "
            "show it alone on a darker or more coloured surface"
        )
        try:
            found = _on_light_table(colour, lab, what, least)
        except NoCard:
            # A card was found (not "no card"); its edge may be a die-cut one still.
            raise NoCardEdge(on_light) from None
        if _overlap(found, card) < SAME_SHARE:
            raise UserError(on_light)
        card, faint = found, True
    if card.aspect > TEACH_ASPECT[1]:
        card = _whole_round(card, looked) or card
    if card.aspect > TEACH_ASPECT[1]:
        # A whole card is 63 x 88 mm: squarer than a tilted card can look, the outline is two
        # cards overlapping side by side, or a card with an end covered (its top under a paper).
        raise UserError(
            f"the card in {what} does not have a card's shape (covered in part, or lying on another "
            "card): show one whole card alone"
        )
    if card.seams and card.outline.sure:
        # A sure outline (a paper band all round) with a straight thin line across it from side
        # to side (:mod:`vision.card_seams`): the edge of a card lying over another, a row or fan
        # of cards taken as one (the outline search, looking at the outline as it placed it,
        # missed the seam). An outline taken without a sure band is clear of seams already, or
        # is all there is in the picture: a line across it is a thing lying on it (a cord
        # across a king, IMG_2450: taught, the reader names that king in play from it).
        raise UserError(f"cards overlap in {what}: show one card alone, apart from others")
    if _holds_cards(card, looked):
        raise UserError(f"2 cards side by side in {what}: show one card alone, apart from others")
    if _holds_small_cards(card, looked):
        raise UserError(f"cards lie on something card-shaped in {what}: show one card alone on the table")
    if _among_cards(card, looked) or cards_beneath(colour, [card.outline.quad], BENEATH_DEPTH):
        # The live reader's own search for a card beneath another (its strip beside the card).
        # Paper as light as a card (a receipt, a score sheet) touching it looks the same.
        raise UserError(
            f"the card in {what} lies on or beside other cards or paper: show one card alone, "
            "apart from others"
        )
    beside = paper_beside_sides(lab, card.outline.quad, card.paper) >= TOUCH_SHARE
    # A card found by its faint edge lies on a table of its paper's colour: paper beside two
    # sides or more is that table. Beside one side only, with the table of another colour
    # round the rest, it is a card or a sheet touching it.
    if beside.any() and not (faint and beside.sum() >= 2):
        raise UserError(
            f"the card in {what} touches another card or paper of its colour: "
            "show one card alone, apart from other cards and paper"
        )
    others = [one for one in everything if one is not card and _overlap(one, card) < SAME_SHARE]
    if any(_rival(one, card, not card.outline.sure) for one in others):
        raise UserError(f"more than one card-shaped outline in {what}: show one card alone")
    return card.outline


def _unclear_refusal(everything: list[_Looked], what: str) -> str | None:
    """Why no outline of a whole card (fits, of a card's aspect, a face on light paper) was taken
    as the card when the light-table search found none either; None when there is none."""
    whole = [
        one for one in everything if one.fits and one.card_aspect and one.paper_like and one.ink >= FACE_INK
    ]
    clear = sum(one.clear for one in whole)
    if clear > 1:
        return f"{clear} card-shaped outlines in {what}: show one card alone"
    if not whole:
        return None
    one = max(whole, key=lambda one: (one.outlined, not one.seams, one.contrast))
    if not one.outlined:
        return _unclear_edge(what)
    if one.seams:
        return f"the card in {what} has a line across it (a card's edge, a thing on it): show it alone"
    return f"the card in {what} does not have a card's shape: show one whole card alone on a plain surface"


def _unclear_edge(what: str) -> str:
    """The refusal of a card whose outline does not step to the table all round."""
    return (
        f"the card in {what} is partly covered or an edge does not stand out from the table: "
        "show the whole card on a darker or more coloured surface"
    )


def _on_light_table(colour: np.ndarray, lab: np.ndarray, what: str, least: float) -> _Looked:
    """The one card on a table as light as itself (:mod:`vision.light_table_outlines`), when
    the outline searches found no card; UserError when there is none or more than one."""
    found = light_table_cards(colour, least)
    if not found.cards:
        # A dark face on dark cloth steps by 0-5 grey levels (other-decks seed 0's seven).
        raise NoCard(
            f"no card found in {what}: lay one card face up where the whole card shows, "
            "on a surface unlike the card (darker or more coloured than a light card, lighter "
            "than a dark one)"
        )
    if len(found.cards) > 1:
        raise UserError(f"{len(found.cards)} card-shaped outlines in {what}: show one card alone")
    card = found.cards[0]
    area = cv2.contourArea(card)
    for other in found.outlined:
        inter, _ = cv2.intersectConvexConvex(card, other)
        size = cv2.contourArea(other)
        # Another outline of a card's size and shape with its edge all round, apart from the
        # card: a second card, even if too plain to be sure of.
        apart = inter < (1 - SAME_SHARE) * min(area, size)
        # Every card has print inside, face or back (:func:`vision.card_checks.card_paper`); a
        # blank outline is a sheet's margin or a patch of table between lines on a light table
        # (a card on a stack of letters: a blank box of the table printed beside it).
        printed = card_paper(lab, order_quad(other))[0] >= 1
        if apart and printed and RIVAL_AREA[0] * area <= size <= RIVAL_AREA[1] * area:
            raise UserError(f"more than one card-shaped outline in {what}: show one card alone")
    return _look(lab, CardOutline(card, False, True))
