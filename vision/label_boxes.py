"""Outlines scored against labelled boxes, as the realcards protocol counts them.

A labelled photo gives each card's axis-aligned box (what shows of it). A card the reader finds
is right when one of its outlines' boxes overlaps the label IoU >= ``HIT_IOU`` and carries the
label's id. Used by ``companion bench realcards`` (the pinochle photos), by
:mod:`vision.other_decks` (decks printed unlike it) and by tests that check an outline against
a label.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = ["HIT_IOU", "box_iou", "box_of", "placed", "read_at", "seen_boxes"]

#: An outline stands for a labelled card when their boxes overlap at least this much.
HIT_IOU = 0.5

Id = TypeVar("Id")
Box = tuple[float, float, float, float]


def box_of(corners: Any, scale: float = 1.0) -> Box:
    """The axis-aligned box (x0, y0, x1, y1) round ``corners`` (points x, y), in the labels'
    pixels when the corners were found in a copy resized by ``scale``."""
    xs = [float(x) / scale for x, _y in corners]
    ys = [float(y) / scale for _x, y in corners]
    return min(xs), min(ys), max(xs), max(ys)


def seen_boxes(
    cards: Iterable[Any], scale: float = 1.0, back: Callable[[Any], Any] | None = None
) -> list[tuple[list[Box], Any]]:
    """Each card a reader found (``corners``, ``visible``, ``card_id``) as :func:`read_at` takes
    it: the boxes round where it lies and round what shows of it (a card partly covered: either
    places it), with its id; in the labels' pixels when found in a copy resized by ``scale``,
    its points first taken back by ``back`` when found in a turned copy."""
    found = []
    for card in cards:
        shown = [card.corners] + ([card.visible] if card.visible else [])
        found.append(([box_of(back(p) if back else p, scale) for p in shown], card.card_id))
    return found


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two boxes (x0, y0, x1, y1)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def placed(seen: Iterable[tuple[list[Box], Id]], labels: Sequence[Sequence[float]]) -> list[tuple[Box, Id]]:
    """One box per outline read (``seen``: its boxes and its id). A card found under another
    has two boxes (where it lies, then what shows of it): it is placed by what shows of it (the
    labels' boxes surround what shows) when that overlaps a label, else by the box that
    overlaps a label most (where it lies also overlaps the card lying over it, so it is never
    preferred to what shows)."""

    def overlap(box: Box) -> float:
        return max((box_iou(box, label) for label in labels), default=0.0)

    return [(boxes[-1] if overlap(boxes[-1]) >= HIT_IOU else max(boxes, key=overlap), i) for boxes, i in seen]


def read_at(
    labels: Sequence[Sequence[float]], seen: Iterable[tuple[list[Box], Id]]
) -> tuple[list[set[Id] | None], list[Id]]:
    """What the outlines read (``seen``: boxes and id each, placed by :func:`placed`) say of
    each labelled box: the ids read on the outlines standing for it (an empty set: found but
    not named; None: no outline stands for it); and the id (None: no id) of every outline that
    stands for no label, a phantom."""
    outlines = placed(seen, labels)
    used: set[int] = set()
    per_label: list[set[Id] | None] = []
    for label in labels:
        here = [k for k, (box, _id) in enumerate(outlines) if box_iou(label, box) >= HIT_IOU]
        used.update(here)
        per_label.append({outlines[k][1] for k in here} - {None} if here else None)
    return per_label, [card_id for k, (_box, card_id) in enumerate(outlines) if k not in used]
