"""The card outlines of a live camera's frames, looked for again only where the table changed.

The reader (:class:`vision.taught_reader.TaughtCards`) needs every frame's outlines. Two searches
find them (:func:`vision.die_cut_reading.deck_outlines`):

- The **thorough** search (straight edges besides paper and colour) costs several times the
  plain one. It looks at a reader's first frame (a photo) whole, and at the part of the table
  that changed once the table settles, but not where cards already named in that frame explain
  the change (a card dealt and named). What it found stands while its place does not change: a
  hand moving elsewhere must not make a card named at rest come and go, nor an outline it ruled
  out come back.
- The **plain** search runs on every frame that changed, but only where it changed. It costs
  about 1 ms of CPU per card-shaped outline it looks at, whatever the pixels round it: a
  1280x720 frame with five cards ~35 ms here, a Pi 4 three to five times that. At a game, most
  frames change in one place (a hand laying a card, a token pushed, a card taken away), and the
  rest of the table shows what it showed. So for each block of the frame's small copy
  (:mod:`vision.frame_blocks`) the copy's value when the block was last searched is kept. A
  frame is searched in the box round the blocks that changed since then, and round any outline
  such a change touched (so a card reaching out of the change lies wholly inside). The outlines
  no change touched stand. A change over most of the frame (the camera moved, the light changed)
  is searched whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from vision.card_checks import iou
from vision.card_outlines import CardOutline
from vision.die_cut_reading import deck_outlines
from vision.frame_blocks import STILL_SIZE, box_blocks, changed_blocks, changed_box, covered_blocks

#: A change whose box covers more than this share of the frame is searched as a whole frame: a
#: box's edges cut the cards round it into parts that each cost a look, and the whole search
#: may use the camera's small copy (:mod:`vision.work_copy`).
WHOLE_FRAME_SHARE = 0.6
#: An outline is the one a card was named in when they overlap this much (IoU).
NAMED_SAME = 0.9


class FrameOutlines:
    """The outlines of one camera's frames, for a reader of ``deck``'s taught faces."""

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        #: The plain search's outlines of the last frame, and the small copy each block held
        #: when the plain search last looked at it (None: not yet).
        self._plain: list[CardOutline] = []
        self._plain_small: np.ndarray | None = None
        #: The thorough search's outlines when the table last settled, and the small copy of
        #: that frame (they stand while nothing changes where they lie).
        self._held: list[CardOutline] = []
        self._held_small: np.ndarray | None = None
        #: Blocks of the small copy the thorough search looked at, unchanged since.
        self._looked = np.zeros((STILL_SIZE[1], STILL_SIZE[0]), bool)
        #: The plain search's outlines of the frame :meth:`later` was last given.
        self._now: list[CardOutline] = []

    def first(
        self, frame: np.ndarray, small: np.ndarray, work: np.ndarray | None, grey: np.ndarray
    ) -> list[CardOutline]:
        """The outlines of a reader's first frame (a photo): the thorough search's, all of it."""
        outlines = deck_outlines(frame, self.deck, True, work=work, grey=grey)
        self._held, self._held_small = outlines, small
        self._looked[:] = True
        # The thorough search looked everywhere: the plain search's first look is where the
        # next frames change (its outlines count only where the thorough search's do not).
        self._plain, self._plain_small = [], small
        return outlines

    def later(
        self,
        frame: np.ndarray,
        small: np.ndarray,
        work: np.ndarray | None,
        grey: np.ndarray,
        named: Sequence[np.ndarray] = (),
    ) -> list[CardOutline]:
        """The outlines of a later frame (``small``: its :func:`vision.frame_blocks.small_copy`):
        the thorough search's where it looked and nothing changed since, the plain search's
        elsewhere. ``named``: the outlines a taught face was named in, in the last frame."""
        shape = frame.shape
        moved = changed_blocks(small, self._held_small)
        gone: list[CardOutline] = []
        if moved is not None:
            touched = [bool((moved & covered_blocks([o.quad], shape)).any()) for o in self._held]
            gone = [o for o, t in zip(self._held, touched, strict=True) if t]
            self._held = [o for o, t in zip(self._held, touched, strict=True) if not t]
            self._looked &= ~cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        # Where a held outline was given up, the plain search looks again (it may still lie there).
        self._now = self._plain_outlines(frame, small, work, grey, gone, named)
        return self._merged(shape)

    def look_closely(
        self, frame: np.ndarray, small: np.ndarray, grey: np.ndarray, explained: list[np.ndarray]
    ) -> list[CardOutline] | None:
        """The outlines of the frame :meth:`later` gave them for, once the thorough search looked
        at what changed since its last look (the table settled): None when it had nothing to look
        at. ``explained``: where the cards named in this frame lie; where they explain the
        change (a card dealt and named), the thorough search does not look. On a Pi 4 it took a
        second and more over a card dealt, and the card showed only after it."""
        shape = frame.shape
        moved = changed_blocks(small, self._held_small)
        self._held_small = small
        # What changed, grown by CHANGE_REACH (a card reaching into the change lies wholly
        # inside); all of the frame when there is nothing to compare with.
        unexplained = None if moved is None else moved & ~covered_blocks(explained, shape)
        where = (0, 0, shape[1], shape[0]) if unexplained is None else changed_box(unexplained, shape)
        if where is None:
            return None
        found = deck_outlines(frame, self.deck, True, region=where, grey=grey)
        self._held = [o for o in self._held if not any(iou(o.quad, f.quad) > 0.5 for f in found)]
        self._held += found
        self._looked |= box_blocks(where, shape)
        return self._merged(shape)

    def _merged(self, shape: tuple[int, ...]) -> list[CardOutline]:
        """The thorough search's outlines where it looked, unchanged since; the plain search's
        of this frame elsewhere."""
        elsewhere = [o for o in self._now if not self._looked_at(o.quad, shape)]
        return elsewhere + [o for o in self._held if not any(iou(o.quad, p.quad) > 0.5 for p in elsewhere)]

    def _looked_at(self, quad: np.ndarray, shape: tuple[int, ...]) -> bool:
        """Whether ``quad`` lies where the thorough search looked, unchanged since."""
        return bool((covered_blocks([quad], shape, edge=False) <= self._looked).all())

    def _plain_outlines(
        self,
        frame: np.ndarray,
        small: np.ndarray,
        work: np.ndarray | None,
        grey: np.ndarray,
        also: list[CardOutline],
        named: Sequence[np.ndarray] = (),
    ) -> list[CardOutline]:
        """The plain search's outlines of ``frame``, looked for again where it changed and
        round the outlines ``also`` (the thorough search's, which a change touched); of those
        found again, the ``named`` ones (see :meth:`later`) stay as they were where nothing
        inside them changed."""
        shape = frame.shape
        last = self._plain_small
        moved = None if last is None or last.shape != small.shape else changed_blocks(small, last)
        if moved is None:
            return self._plain_whole(frame, small, work, grey)
        if not moved.any() and not also:
            return list(self._plain)
        # An outline a change touched may have moved, gone or been covered: its place is looked
        # at again with the change, so a card reaching out of the change lies wholly inside.
        touched = [bool((moved & covered_blocks([o.quad], shape)).any()) for o in self._plain]
        reached = [o for o, t in zip(self._plain, touched, strict=True) if t] + also
        box = changed_box(moved | covered_blocks([o.quad for o in reached], shape), shape)
        if box is None:  # outlines given up that lie wholly out of view: nothing to look at
            return list(self._plain)
        x0, y0, x1, y1 = box
        if (x1 - x0) * (y1 - y0) > WHOLE_FRAME_SHARE * shape[0] * shape[1]:
            return self._plain_whole(frame, small, work, grey)
        found = deck_outlines(frame, self.deck, region=box, grey=grey)
        # A named outline nothing inside of which changed (the change touched it only at its
        # edge, a card laid beside it, or not at all, lying in the change's box) stays as it was
        # where it is found again. Found again beside the new card, or with the box's edge near
        # it, it may come out a few pixels off and lose its name till the table settles (each
        # card on the mat went unnamed as its neighbour was dealt). An unnamed one is taken as
        # found again: kept as it was, an outline that took a zone's frame line for a card's
        # edge kept its card unnamed for good.
        as_was = [
            o
            for o in self._plain + also
            if any(iou(o.quad, quad) > NAMED_SAME for quad in named)
            and not (moved & _inner_blocks(o.quad, shape)).any()
        ]
        found = [next((o for o in as_was if iou(o.quad, f.quad) > 0.5), f) for f in found]
        stand = [
            o
            for o, t in zip(self._plain, touched, strict=True)
            if not t and not any(iou(o.quad, f.quad) > 0.5 for f in found)
        ]
        self._plain = stand + found
        self._plain_small = np.where(box_blocks(box, shape), small, last)
        return list(self._plain)

    def _plain_whole(
        self, frame: np.ndarray, small: np.ndarray, work: np.ndarray | None, grey: np.ndarray
    ) -> list[CardOutline]:
        """The plain search's outlines of all of ``frame`` (it may use the camera's ``work``)."""
        self._plain = deck_outlines(frame, self.deck, work=work, grey=grey)
        self._plain_small = small
        return list(self._plain)


def _inner_blocks(quad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Blocks of the small copy wholly inside ``quad`` (frame px): its covered blocks but those on
    its edge, which hold the table beside it too (a card laid a finger's width away changes them)."""
    covered = covered_blocks([quad], shape, edge=False).astype(np.uint8)
    return cv2.erode(covered, np.ones((3, 3), np.uint8), borderValue=0) > 0
