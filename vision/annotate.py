"""Draw a reading onto a frame (for ``companion vision watch --save`` and debugging)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader import Reading


def annotate(frame: np.ndarray, reading: Reading) -> np.ndarray:
    """A copy of ``frame`` with each card's outline (green read, red unidentified) and label."""
    out = frame.copy()
    for card in reading.cards:
        corners = np.array(card.corners, np.int32).reshape(-1, 1, 2)
        colour = (60, 200, 60) if card.card_id else (40, 40, 230)
        cv2.polylines(out, [corners], True, colour, 2, cv2.LINE_AA)
        label = f"{card.card_id or '?'} {card.zone or ''}".strip()
        x, y = corners.reshape(-1, 2).min(axis=0)
        cv2.putText(
            out, label, (int(x), max(12, int(y) - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA
        )
    cv2.putText(
        out,
        "mat" if reading.mat_found else "no mat",
        (8, 20),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.6,
        (255, 255, 255),
        2,
        cv2.LINE_AA,
    )
    return out
