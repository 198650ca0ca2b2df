"""Read the code inside ArUco marker outlines that OpenCV found, all outlines at once.

Why not let ``ArucoDetector`` identify them: in OpenCV 5.0 its identification step costs
50-100 microseconds per outline against the 250 codes of DICT_4X4_250 (measured: the same
1280x720 frames take 3.5 ms with the full dictionary and 2.3 ms with a one-code dictionary,
which finds the same outlines). So the reader lets OpenCV find the square outlines with a
one-code dictionary (every outline comes back as "rejected") and reads the codes here: the
6 x 6 cells of every outline are sampled with one numpy gather, split into black and white by
Otsu's rule over the cells, and the 16 inner bits are looked up in a table of every code at all
four turns. Only exact codes are accepted, as with ``errorCorrectionRate = 0``.

>>> import cv2
>>> from vision.markers import marker_image
>>> image = cv2.copyMakeBorder(marker_image(13, 60), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
>>> outline = np.array([[[20, 20], [79, 20], [79, 79], [20, 79]]], np.float32)
>>> decode(image, outline)[1]
[13]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.markers import MARKER_CELLS, dictionary

#: Sub-samples per cell side: 3 x 3 points in the middle of each cell (its outer fifth is left
#: out, as ArUco's ``perspectiveRemoveIgnoredMarginPerCell`` does, so blur across a cell edge
#: does not decide a bit).
_SUBSAMPLES = (0.3, 0.5, 0.7)
#: A marker's black border may have this many of its 20 cells read white (ArUco's default
#: ``maxErroneousBitsInBorderRate`` of 0.35); the reader's own trust check is stricter.
MAX_BORDER_ERRORS = 7
#: Below this spread of the cells' grey levels an outline holds no code at all (ArUco's
#: ``minOtsuStdDev``, there over the pixels).
MIN_STDDEV = 5.0


def _cell_weights() -> np.ndarray:
    """Bilinear weights of an outline's four corners for every sub-sample of every cell.

    Rows run cell by cell (row-major over the 6 x 6 cells), then sub-sample by sub-sample.
    Bilinear interpolation of the corners stands in for the full perspective warp: across one
    marker (at most ~60 px) the two differ by a fraction of a pixel at the tilts we allow.
    """
    rows = []
    for cy in range(MARKER_CELLS):
        for cx in range(MARKER_CELLS):
            for sy in _SUBSAMPLES:
                for sx in _SUBSAMPLES:
                    u, v = (cx + sx) / MARKER_CELLS, (cy + sy) / MARKER_CELLS
                    rows.append([(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v])
    return np.array(rows, np.float32)


_WEIGHTS_T = np.ascontiguousarray(_cell_weights().T)
#: Corner order after ``turns`` quarter turns: new corner i is old corner i - turns.
_ROLLED = [np.roll(np.arange(4), turns) for turns in range(4)]
_PER_CELL = len(_SUBSAMPLES) ** 2
_BORDER = np.array(
    [i for i in range(MARKER_CELLS**2) if i // MARKER_CELLS in (0, 5) or i % MARKER_CELLS in (0, 5)]
)
_INNER = np.array([i for i in range(MARKER_CELLS**2) if i not in set(_BORDER.tolist())])
#: Bit k of an inner code is inner cell k (row-major, first cell most significant).
_BIT_VALUES = (1 << np.arange(15, -1, -1)).astype(np.int64)


@lru_cache(maxsize=1)
def code_table() -> dict[int, tuple[int, int]]:
    """Every 16-bit inner code of the dictionary at every turn -> (marker id, turns).

    ``turns`` counts quarter turns: the outline's corners must be rolled by it so that corner 0
    is the marker's own top-left. DICT_4X4_250 holds no code that equals another code (or
    itself) turned, so the table is unambiguous; ``tests/test_vision_marker_codes.py`` checks.
    """
    table: dict[int, tuple[int, int]] = {}
    bytes_list = dictionary().bytesList
    for marker_id in range(len(bytes_list)):
        bits = cv2.aruco.Dictionary.getBitsFromByteList(bytes_list[marker_id : marker_id + 1], 4)
        for turns in range(4):
            seen = np.rot90(bits, turns).ravel().astype(np.int64)
            table.setdefault(int(seen @ _BIT_VALUES), (marker_id, turns))
    return table


def _otsu_thresholds(cells: np.ndarray) -> np.ndarray:
    """Per row of ``cells`` (N x 36 grey levels): the split with the largest between-class
    variance (Otsu's rule over the 36 cell means), as a grey level between the two classes."""
    ordered = np.sort(cells, axis=1)
    n = ordered.shape[1]
    below = np.cumsum(ordered, axis=1)[:, :-1]  # sums of the k darkest, k = 1..n-1
    k = np.arange(1, n, dtype=np.float32)
    total = ordered.sum(axis=1, keepdims=True)
    mean_dark, mean_light = below / k, (total - below) / (n - k)
    variance = k * (n - k) * (mean_light - mean_dark) ** 2
    split = np.argmax(variance, axis=1)
    rows = np.arange(len(cells))
    middle: np.ndarray = (ordered[rows, split] + ordered[rows, split + 1]) / 2
    return middle


def decode(grey: np.ndarray, outlines: Any) -> tuple[list[np.ndarray], list[int]]:
    """The outlines (each 4 x 2, clockwise on screen) that hold an exact code of the dictionary.

    Returns their corners rolled so that corner 0 is the marker's top-left, and their ids.
    """
    if len(outlines) == 0:
        return [], []
    quads = np.asarray(outlines, np.float32).reshape(-1, 4, 2)
    h, w = grey.shape[:2]
    # Two small matrix products (N x 4 by 4 x 324) place every sample; pixel centres sit at whole
    # coordinates, so adding a half and truncating rounds (the points are >= 0 after clipping).
    xs = np.clip(quads[:, :, 0] @ _WEIGHTS_T + 0.5, 0, w - 1).astype(np.intp)
    ys = np.clip(quads[:, :, 1] @ _WEIGHTS_T + 0.5, 0, h - 1).astype(np.intp)
    samples = grey[ys, xs]
    cells = samples.reshape(len(quads), MARKER_CELLS**2, _PER_CELL).mean(axis=2, dtype=np.float32)
    white = cells > _otsu_thresholds(cells)[:, None]
    spread = cells.std(axis=1) >= MIN_STDDEV
    border_ok = white[:, _BORDER].sum(axis=1) <= MAX_BORDER_ERRORS
    codes = (white[:, _INNER].astype(np.int64) @ _BIT_VALUES).tolist()
    table = code_table()
    read = [(index, table.get(codes[index])) for index in np.nonzero(spread & border_ok)[0].tolist()]
    exact = [(index, found) for index, found in read if found is not None]
    if not exact:
        return [], []
    # OpenCV may return two outlines of one marker (the outer and inner edge of its border): one
    # marker, not two cards. Every pair is compared at once; an outline is dropped when an
    # earlier one kept has its id and its centre within a quarter of this one's diagonal.
    chosen = quads[[index for index, _found in exact]]
    marker_ids = np.array([found[0] for _index, found in exact])
    centres = chosen.mean(axis=1)
    reach = 0.25 * np.linalg.norm(chosen[:, 0] - chosen[:, 2], axis=1)
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    twins = np.tril((marker_ids[:, None] == marker_ids[None]) & (gaps < reach[:, None]), -1)
    kept: list[int] = []
    for k in range(len(exact)):
        if not twins[k].any() or not twins[k, kept].any():
            kept.append(k)
    return ([chosen[k][_ROLLED[exact[k][1][1]]] for k in kept], [int(marker_ids[k]) for k in kept])


def already_found(quad: np.ndarray, marker_id: int, corners: list[np.ndarray], ids: list[int]) -> bool:
    """True when a marker of ``marker_id`` is among ``corners``/``ids`` where ``quad`` lies
    (centres within a quarter of its diagonal)."""
    same = [other for other, other_id in zip(corners, ids, strict=True) if other_id == marker_id]
    if not same:
        return False
    reach = 0.25 * float(np.linalg.norm(quad[0] - quad[2]))
    gaps = np.linalg.norm(np.stack(same).mean(axis=1) - quad.mean(axis=0), axis=1)
    return bool((gaps < reach).any())


def outline_detector(parameters: Any) -> Any:
    """An ``ArucoDetector`` that only finds outlines: its dictionary holds one code, so every
    outline comes back unidentified and ``detect`` reads the codes."""
    one_code = cv2.aruco.Dictionary(dictionary().bytesList[:1].copy(), 4, 0)
    return cv2.aruco.ArucoDetector(one_code, parameters)


def detect(detector: Any, grey: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
    """Markers in a grey image: (corners 4 x 2 float32 with the marker's top-left first, ids).

    ``detector`` comes from ``outline_detector``; identified and rejected outlines alike are read
    here, so an outline that happens to hold the detector's one code is not treated differently.
    """
    found, _ids, rejected = detector.detectMarkers(grey)
    outlines = [*found, *rejected]
    if not outlines:
        return [], []
    return decode(grey, np.concatenate(outlines).reshape(-1, 4, 2))
