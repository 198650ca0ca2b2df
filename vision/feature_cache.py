"""The keypoints of a taught picture, kept beside it in the store (``<n>.features.npz``), so a
deck opens without describing every picture again (:mod:`vision.face_features`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: Keypoints (positions) and descriptors of one picture.
Described = tuple[np.ndarray, np.ndarray]


def cached(cache: Path | None, source: int, key: np.ndarray) -> tuple[Described, Described] | None:
    """Keypoints and descriptors kept beside a taught picture (as taught, and softened), when
    made from that picture (``source``: its checksum) by this version (``key``)."""
    if cache is None or not cache.is_file():
        return None
    found = []
    try:
        with np.load(cache) as kept:
            if not np.array_equal(kept["key"], key) or int(kept["source"]) != source:
                return None
            for prefix in ("", "soft_"):
                points, descriptors = kept[prefix + "points"], kept[prefix + "descriptors"]
                if points.ndim != 2 or points.shape[1:] != (2,) or descriptors.shape != (len(points), 128):
                    return None
                found.append((points.astype(np.float32), descriptors.astype(np.float32)))
    except (OSError, ValueError, KeyError):
        return None  # damaged or from another version: computed again
    return found[0], found[1]


def store(cache: Path | None, source: int, sharp: Described, soft: Described, key: np.ndarray) -> None:
    """Keep keypoints beside the picture (best effort: a read-only store computes them again)."""
    if cache is None:
        return
    try:
        with cache.open("wb") as out:
            np.savez(
                out,
                key=key,
                source=np.int64(source),
                points=sharp[0],
                descriptors=sharp[1],
                soft_points=soft[0],
                soft_descriptors=soft[1],
            )
    except OSError:
        pass
