"""Taught cards found by their faces at the frame's own size, then in the frame enlarged where
its cards are small (:mod:`vision.search_scale` says why and by how much)."""

from __future__ import annotations

import numpy as np

from vision.card_checks import iou
from vision.face_search import FaceSearch, FoundFace
from vision.search_scale import enlarged_scale


def search_faces(
    search: FaceSearch,
    grey: np.ndarray,
    explained: list[np.ndarray],
    lying: list[np.ndarray],
    where: tuple[int, int, int, int] | None,
    card_short: float | None,
) -> list[FoundFace]:
    """The taught cards :meth:`FaceSearch.search` finds in ``grey``, then those it finds in the
    frame enlarged (:func:`enlarged_scale`) where the first search found none: what shows of a
    card found first is explained, the card itself may lie over one found next."""
    found = search.search(grey, explained, lying, where)
    scale = enlarged_scale(grey.shape, card_short)
    if scale is None:
        return found
    more = search.search(
        grey, explained + [f.visible for f in found], lying + [f.corners for f in found], where, scale
    )
    return found + [f for f in more if not any(iou(f.corners, g.corners) > 0.5 for g in found)]
