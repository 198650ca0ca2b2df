"""Answers about a part of the frame, kept while that part of the table does not change.

The search for cards beneath (:mod:`vision.card_beneath`) looks beside every side of every card
each time the table settles, though a card laid beside four others changes what lies beside a
few sides only: most of that frame's CPU went to sides whose surroundings had not changed. An
answer here is kept with the blocks of the small copy (:mod:`vision.frame_blocks`) it was read
from and their values then; it is given again while none of those blocks has changed by a clear
step since (sensor noise averages out in them, a card laid, slid or taken away does not). Light
that drifts slowly changes the blocks against their values when the answer was read, so it
does not pass unseen in steps too small to notice from one settle to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from vision.frame_blocks import changed_blocks, covered_blocks

T = TypeVar("T")

#: An answer is given for a card whose corners lie within this many pixels of the ones it was
#: read for (a card lying still is placed again to a fraction of a pixel).
SAME_CARD_PX = 1.0


@dataclass(eq=False)
class _Kept:
    key: Hashable
    quad: np.ndarray
    blocks: np.ndarray
    values: np.ndarray
    answer: Any


class KeptAnswers:
    """Answers kept while the blocks they were read from do not change (see the module's
    docstring). :meth:`settled` begins each look at a new frame; :meth:`answer` gives a kept
    answer or works it out and keeps it."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, list[_Kept]] = {}
        self._used: list[_Kept] = []
        self._small: np.ndarray | None = None
        self._shape: tuple[int, ...] = ()
        self.reused = self.worked_out = 0

    def settled(self, small: np.ndarray, shape: tuple[int, ...]) -> None:
        """A look at a frame (``shape``) whose small copy is ``small`` begins: answers read
        where the table changed since are dropped, and so are answers the last look did not
        ask for (cards gone, moved: the kept answers are never more than one look's)."""
        if shape != self._shape:
            self._used = []
        self._kept = {}
        for kept in self._used:
            if not self._changed(kept, small):
                self._kept.setdefault(kept.key, []).append(kept)
        self._used = []
        self._small, self._shape = small, shape

    def answer(self, key: Hashable, quad: np.ndarray, region: np.ndarray, work_out: Callable[[], T]) -> T:
        """The answer to ``key`` about the card ``quad`` (4 x 2 frame px), read from the frame
        within the polygon ``region`` (frame px): kept, or worked out by ``work_out`` now."""
        for kept in self._kept.get(key, ()):
            if float(np.abs(kept.quad - quad).max()) <= SAME_CARD_PX:
                if kept not in self._used:
                    self._used.append(kept)
                self.reused += 1
                return kept.answer  # type: ignore[no-any-return]
        answer = work_out()
        self.worked_out += 1
        if self._small is not None:
            blocks = covered_blocks([region], self._shape)
            kept = _Kept(key, np.array(quad, np.float32), blocks, self._small[blocks], answer)
            self._kept.setdefault(key, []).append(kept)
            self._used.append(kept)
        return answer

    @staticmethod
    def _changed(kept: _Kept, small: np.ndarray) -> bool:
        return bool(changed_blocks(small[kept.blocks], kept.values).any())


def answer_of(
    kept: KeptAnswers | None, key: Hashable, quad: np.ndarray, region: np.ndarray, work_out: Callable[[], T]
) -> T:
    """:meth:`KeptAnswers.answer`, or ``work_out()`` when nothing is kept (``kept`` None: a
    photo looked at once)."""
    return work_out() if kept is None else kept.answer(key, quad, region, work_out)


__all__ = ["SAME_CARD_PX", "KeptAnswers", "answer_of"]
