"""Simulated tables with taught cards (any art) for tests and the speed benchmark.

The art is laid by :class:`vision.simulated.SimulatedTable` (its tables: wood grain, felt,
checked cloth, light and dark; its camera: tilt, light, blur, noise), apart from each other
and fully in view, so every card's true outline is known (``Placed.corners`` after a frame).
"""

from __future__ import annotations

import math
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.layout import CARD_H_MM
from vision.simulated import SimulatedTable, Style

if TYPE_CHECKING:
    from vision.enrolled import EnrolledDeck


def synthetic_face(
    seed: int, changed: bool = False, paper: tuple[int, int, int] = (232, 236, 238)
) -> np.ndarray:
    """A made-up card face, 200 x 280 BGR: paper with a plain margin, a corner index and
    coloured shapes, different for every ``seed``. ``changed`` adds one pip in the middle, a
    thirteenth of the card's width across (a look-alike: a ten beside a nine). ``paper`` is the
    card's ground colour (BGR)."""
    face, index = _synthetic_art(seed, paper)
    face = _with_index(face, index)
    if changed:
        import cv2

        cv2.circle(face, (100, 140), 13, (40, 40, 40), -1, cv2.LINE_AA)
    return face


def _synthetic_art(seed: int, paper: tuple[int, int, int] = (232, 236, 238)) -> tuple[np.ndarray, str]:
    """:func:`synthetic_face` ``seed``'s shapes on its paper, and the index it prints."""
    import cv2

    rng = np.random.default_rng(seed)
    w, h = 200, 280
    face = np.full((h, w, 3), paper, np.uint8)

    def colour() -> tuple[int, int, int]:
        return tuple(int(v) for v in rng.integers(0, 200, 3))  # type: ignore[return-value]

    for _ in range(9):
        x, y = int(rng.integers(40, w - 40)), int(rng.integers(50, h - 50))
        kind = int(rng.integers(3))
        if kind == 0:
            cv2.circle(face, (x, y), int(rng.integers(10, 28)), colour(), -1, cv2.LINE_AA)
        elif kind == 1:
            size = int(rng.integers(14, 40))
            cv2.rectangle(face, (x - size // 2, y - size // 2), (x + size // 2, y + size // 2), colour(), -1)
        else:
            points = rng.integers([x - 30, y - 30], [x + 30, y + 30], (3, 2)).astype(np.int32)
            cv2.fillPoly(face, [points], colour(), cv2.LINE_AA)
    return face, str(int(rng.integers(1, 100)))


def _with_index(face: np.ndarray, index: str, clear: tuple[int, int, int] | None = None) -> np.ndarray:
    """``face`` with ``index`` printed in both corners (the top left, and the bottom right
    turned); ``clear``: the paper colour painted first over where an index stands."""
    import cv2

    for _turn in range(2):
        if clear is not None:
            face[8:46, 10:70] = clear
        cv2.putText(face, index, (16, 38), cv2.FONT_HERSHEY_DUPLEX, 0.9, (30, 30, 160), 2, cv2.LINE_AA)
        face = np.ascontiguousarray(face[::-1, ::-1])
    return face


def synthetic_index(seed: int) -> str:
    """The corner index :func:`synthetic_face` prints for ``seed``."""
    return _synthetic_art(seed)[1]


def renumbered(seed: int, index: str) -> np.ndarray:
    """:func:`synthetic_face` ``seed``'s art with ``index`` in place of its own corner index: a
    look-alike never taught (a card of another number printed with the same picture)."""
    return _with_index(synthetic_face(seed), index, clear=(232, 236, 238))


#: The ids :func:`teach_synthetic_faces` teaches, and their faces' ``synthetic_face`` seeds:
#: corner indices "50", "34", "19", "46", each told from the others by its first digit (seed
#: 12's "33" shows in the index zone as "34" does: a covered card of either could be a
#: never-taught "35", and is left unnamed).
SYNTHETIC_IDS = ("cherry", "plum", "bell", "seven")
SYNTHETIC_SEEDS = (10, 11, 14, 13)


def teach_synthetic_faces(folder: Path, seeds: tuple[int, ...] = SYNTHETIC_SEEDS) -> EnrolledDeck:
    """A Bandit deck stored in ``folder`` with four made-up faces (``seeds`` as
    ``SYNTHETIC_IDS``), each taught from a whole photo of it on a wood table."""
    from vision.enrolled import EnrolledDeck, capture_card

    deck = EnrolledDeck("bandit", folder)
    for i, (seed, card_id) in enumerate(zip(seeds, SYNTHETIC_IDS, strict=True)):
        photo = lay_out([synthetic_face(seed)], 200 + i, style=scene_style(200 + i, "wood", 150, 8)).frame()
        deck.keep(card_id, capture_card(photo).cutout)
    return deck


def scene_style(seed: int, table: str, card_px: float = 110.0, tilt: float = 15.0) -> Style:
    """A moderate camera: cards ``card_px`` wide, tilted up to ``tilt`` degrees, some noise."""
    rng = np.random.default_rng(seed)
    return Style(
        card_px=card_px,
        tilt_deg=float(rng.uniform(0, tilt)),
        tilt_axis=float(rng.uniform(0, 2 * math.pi)),
        rotation=float(rng.uniform(0, 2 * math.pi)),
        tint=(1.0, 1.0, 1.0),
        brightness=float(rng.uniform(0.8, 1.05)),
        gradient=float(rng.uniform(0.0, 0.25)),
        blur=0.0,
        noise=float(rng.uniform(1.0, 4.0)),
        glare=0,
        shadows=0,
        hands=0,
        table=table,
    )


def lay_out(
    arts: list[np.ndarray], seed: int, table: str = "wood", style: Style | None = None
) -> SimulatedTable:
    """A table with each art laid once (up to six: three columns, two rows round the middle of
    the view), each turned at random, none touching another."""
    scene = SimulatedTable("bandit", seed=seed, mat=False, style=style or scene_style(seed, table))
    rng = np.random.default_rng(seed + 1)
    gap = CARD_H_MM * 1.12
    columns = min(3, len(arts))
    rows = (len(arts) + columns - 1) // columns
    for index, art in enumerate(arts):
        row, column = divmod(index, columns)
        centre = (
            scene.centre[0] + gap * (column - (columns - 1) / 2),
            scene.centre[1] + gap * (row - (rows - 1) / 2),
        )
        scene.place_art(art, centre, float(rng.uniform(0, 360)), label=f"art{index}")
    return scene


def speed_figure(teach_photos: list[Any], frames: int) -> dict[str, Any]:
    """CPU ms of ``CardReader.read`` on 1280x720 frames with five taught cards in view.

    Five cut-outs taught from ``teach_photos`` (objects with ``.path``) are laid on a wood-grain
    table and read by one reader, as a camera would. ``new``: a fresh layout every frame
    (nothing can be reused; cards the thumbnails cannot decide are left pending). ``settle``:
    the frame after, same layout, fresh sensor noise (the pending cards, lying still now, go
    through the feature stage, and the face search looks over the whole frame, which changed).
    ``new_with_camera_copy``: the same new frames read by a second reader that is handed the
    small copy a Pi camera delivers with each frame (its lores stream, :mod:`vision.work_copy`;
    made outside the timing, as the camera's ISP makes it).
    ``still``: one layout, fresh sensor noise each frame (the still-frame shortcut).
    ``still_moving_elsewhere``: the same cards while a token moves elsewhere (the outline
    search looks round it, :mod:`vision.frame_outlines`; identities come from the still-card
    cache). ``face_search_whole_frame``: the face search (:mod:`vision.face_search`) alone over
    a whole frame, as in a reader's first frame; ``one_card_laid``: the frame in which one more
    card arrives beside four lying still, read before (the outline search looks round it, the
    new card gets the fast stage); ``settle_after_one_card_laid``: the frame after, in which the
    table settles (the face search looks only where the frame changed).
    """
    import tempfile

    import cv2

    from companion.errors import UserError
    from vision.enrolled import EnrolledDeck, capture_card
    from vision.image_files import read_image
    from vision.reader import CardReader
    from vision.work_copy import reduced

    with tempfile.TemporaryDirectory() as folder:
        deck = EnrolledDeck("bandit", Path(folder))
        cutouts: list[np.ndarray] = []
        for photo in teach_photos:
            try:
                cutout = capture_card(read_image(photo.path)).cutout
            except UserError:
                continue
            deck.keep(f"face{len(cutouts)}", cutout)
            cutouts.append(cutout)
            if len(cutouts) == 12:
                break
        deck = EnrolledDeck("bandit", Path(folder))
        shown = cutouts[:5]
        new_ms, settle_ms, still_ms, elsewhere_ms, copy_ms = [], [], [], [], []
        identified = settled = pending = copied = 0
        reader = CardReader("bandit", use_mat=False, enrolled=deck)
        handed = CardReader("bandit", use_mat=False, enrolled=deck)  # given the camera's copy
        first = lay_out(shown, 6999).frame()
        reader.read(first)  # the first frame a reader sees is read in full
        handed.read(first, reduced(first))
        for index in range(frames):
            scene = lay_out(shown, 7000 + index)
            frame = scene.frame()
            cpu = time.thread_time()
            reading = reader.read(frame)
            new_ms.append((time.thread_time() - cpu) * 1000)
            identified += sum(card.card_id is not None for card in reading.cards)
            pending += reader.taught.pending if reader.taught is not None else 0
            work = reduced(frame)
            cpu = time.thread_time()
            reading = handed.read(frame, work)
            copy_ms.append((time.thread_time() - cpu) * 1000)
            copied += sum(card.card_id is not None for card in reading.cards)
            frame = scene.frame()
            handed.read(frame, reduced(frame))
            cpu = time.thread_time()
            reading = reader.read(frame)
            settle_ms.append((time.thread_time() - cpu) * 1000)
            settled += sum(card.card_id is not None for card in reading.cards)
        scene = lay_out(shown, 7000)
        reader = CardReader("bandit", use_mat=False, enrolled=deck)
        reader.read(scene.frame())
        for _ in range(frames):
            frame = scene.frame()
            cpu = time.thread_time()
            reader.read(frame)
            still_ms.append((time.thread_time() - cpu) * 1000)
        for index in range(frames):
            frame = scene.frame()
            cv2.circle(frame, (40 + 25 * (index % 40), 690), 18, (255, 255, 255), -1)  # a moving token
            cpu = time.thread_time()
            reader.read(frame)
            elsewhere_ms.append((time.thread_time() - cpu) * 1000)
        search_ms, arrived_ms, laid_ms = _face_search_speed(deck, shown, frames)
    cards = max(1, len(shown) * frames)
    return {
        "figure": "realcards.speed",
        "frame": "1280x720",
        "taught_cards_in_view": len(shown),
        "taught_pictures": len(deck.references),
        "frames": frames,
        "new_median_ms": round(statistics.median(new_ms), 2),
        "new_identified_share": round(identified / cards, 3),
        "new_pending_share": round(pending / cards, 3),
        "new_with_camera_copy_median_ms": round(statistics.median(copy_ms), 2),
        "new_with_camera_copy_identified_share": round(copied / cards, 3),
        "settle_median_ms": round(statistics.median(settle_ms), 2),
        "settle_identified_share": round(settled / cards, 3),
        "still_median_ms": round(statistics.median(still_ms), 2),
        "still_moving_elsewhere_median_ms": round(statistics.median(elsewhere_ms), 2),
        "face_search_whole_frame_median_ms": round(statistics.median(search_ms), 2),
        "one_card_laid_median_ms": round(statistics.median(arrived_ms), 2),
        "settle_after_one_card_laid_median_ms": round(statistics.median(laid_ms), 2),
        "threads": 1,
    }


def _face_search_speed(
    deck: Any, shown: list[np.ndarray], frames: int
) -> tuple[list[float], list[float], list[float]]:
    """CPU ms of the face search over whole frames, of the frame in which one card arrives beside
    four read before, and of the settle frame after it."""
    from vision.face_search import FaceSearch
    from vision.reader import CardReader

    search = FaceSearch(deck.features)
    search_ms, arrived_ms, laid_ms = [], [], []
    for index in range(max(1, frames // 4)):
        frame = lay_out(shown, 7100 + index).frame()
        cpu = time.thread_time()
        search.search(frame)
        search_ms.append((time.thread_time() - cpu) * 1000)
        before = lay_out(shown[:-1], 7200 + index)
        reader = CardReader("bandit", use_mat=False, enrolled=deck)
        reader.read(before.frame())  # four cards, read in full
        after = lay_out(shown[:-1], 7200 + index)
        gap = CARD_H_MM * 1.12  # the free place of the second row (as lay_out spaces cards)
        after.place_art(shown[-1], (after.centre[0] + gap, after.centre[1] + gap / 2), 30.0)
        frame = after.frame()
        cpu = time.thread_time()
        reader.read(frame)  # the card arrives (moving: no face search)
        arrived_ms.append((time.thread_time() - cpu) * 1000)
        cpu = time.thread_time()
        reader.read(after.frame())  # the table settled: outline search, features, face search
        laid_ms.append((time.thread_time() - cpu) * 1000)
    return search_ms, arrived_ms, laid_ms
