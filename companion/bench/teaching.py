"""``companion bench teaching``: "Teach cards" at the companion, the camera thread's side
(:func:`companion.daemon.teaching.cut_out_job`): which card it cuts out, on simulated tables and
mats and on real photos, and what a frame costs.

Every scene is shown as a camera shows it: a frame in which the card arrives (the scene
changed), then a frame in which it lies still (judged). A cut-out is right when its outline's
box overlaps the card's at least ``RIGHT_CUTOUT`` (as ``bench realcards`` counts teaching).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from companion.bench.realcards import RIGHT_CUTOUT, lies_whole

NAME = "teaching"
HELP = "the teach screen's camera thread: cards cut out right and wrong, on tables, mats and photos"

GAME = "bandit"
#: The synthetic faces laid (:func:`vision.taught_scene.synthetic_face` seeds).
FACE_SEEDS = tuple(range(30, 37))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many simulated tables, where the realcards photos are."""
    parser.add_argument("--tables", type=int, default=40, help="simulated tables per figure")
    parser.add_argument("--photos", type=Path, default=None, help="folder of labelled photos (realcards)")
    parser.add_argument("--no-photos", dest="use_photos", action="store_false",
                        help="leave out the realcards photos")


def laid(job: Callable[[Any], Any], table: Any) -> Any:
    """The camera thread's verdict once the card lies still (the frame it arrived in first)."""
    job(table.frame())
    return job(table.frame())


def card_box(placed: Any) -> tuple[float, float, float, float]:
    """The box round a card ``placed`` on a simulated table, in frame pixels, as the table drew
    it in its last frame (:attr:`vision.simulated.Placed.corners`)."""
    from vision.label_boxes import box_of

    return box_of(placed.corners.tolist())


def verdict(seen: Any, box: tuple[float, float, float, float] | None, width: int) -> str:
    """right / wrong / refused / nothing for one frame's verdict (``box``: the card's)."""
    from vision.label_boxes import box_iou, box_of

    if seen.cutout is None:
        return "refused" if seen.refusal else "nothing"
    if box is None:
        return "wrong"
    scale = width / seen.preview.shape[1]
    return "right" if box_iou(box_of((seen.quad * scale).tolist()), box) >= RIGHT_CUTOUT else "wrong"


def tables_figure(
    tables: int, card_px: tuple[float, float] = (90, 170), figure: str = "tables"
) -> dict[str, Any]:
    """One card laid on each of ``tables`` simulated tables without the mat (their styles: card
    size, tilt, table, light, seeded), a synthetic face, turned at random; ``card_px``: the range
    of the card's width in the frame (the simulated camera's, or a camera mounted higher)."""
    import numpy as np

    from companion.daemon.teaching import cut_out_job
    from vision.simulated import FRAME_W, SimulatedTable
    from vision.taught_scene import synthetic_face

    job = cut_out_job(GAME)
    counts = dict.fromkeys(("right", "wrong", "refused", "nothing"), 0)
    wrong = []
    for seed in range(tables):
        table = SimulatedTable(GAME, seed=seed, mat=False, card_px=card_px)
        angle = float(np.random.default_rng(seed).uniform(0, 180))
        table.place_art(synthetic_face(FACE_SEEDS[seed % len(FACE_SEEDS)]), table.centre, angle)
        seen = laid(job, table)
        said = verdict(seen, card_box(table.loose[-1]), FRAME_W)
        counts[said] += 1
        if said == "wrong":
            wrong.append(seed)
    return {"figure": f"teaching.{figure}", "tables": tables, "card_px": list(card_px), **counts,
            "wrong_seeds": wrong}


def mat_figure(tables: int) -> dict[str, Any]:
    """Cards laid in the zones of our mat (a tenth of ``tables`` mats, every zone), and
    ``tables`` empty mats (any cut-out is wrong: an empty zone's printed frame, the mat, a patch
    of table)."""
    from companion.daemon.teaching import cut_out_job
    from vision.simulated import FRAME_W, SimulatedTable
    from vision.taught_scene import synthetic_face

    job = cut_out_job(GAME)
    faces = ["cherry", "plum", "bell", "seven", "bar", "any"]
    art = {face: [synthetic_face(20 + k)] for k, face in enumerate(faces)}
    zoned = 0
    zone_counts = dict.fromkeys(("right", "wrong", "refused", "nothing"), 0)
    for seed in range(max(1, tables // 10)):
        for k in range(len(SimulatedTable(GAME, seed=seed).layout.zones)):
            table = SimulatedTable(GAME, seed=seed, taught=art)
            zone = table.layout.zones[k].name
            table.place(zone, faces[k % len(faces)])
            zoned += 1
            zone_counts[verdict(laid(job, table), card_box(table.cards[zone]), FRAME_W)] += 1
    empty = [laid(job, SimulatedTable(GAME, seed=seed)) for seed in range(tables)]
    empty_cut = [seed for seed, seen in enumerate(empty) if seen.cutout is not None]
    return {
        "figure": "teaching.mat",
        "zone_cards": zoned,
        **{f"zone_cards_{k}": v for k, v in zone_counts.items()},
        "empty_mats": tables,
        "empty_mats_cut_out": len(empty_cut),
        "empty_mat_seeds_cut_out": empty_cut,
    }


def speed_figure(frames: int = 15) -> dict[str, Any]:
    """Thread CPU ms of the camera thread's job per 1280x720 frame, on a plain table and on the
    mat: the frame in which a card arrives (only shown), the frame after it, in which the card
    lies still (judged), and the frames after that (the verdict kept; median)."""
    from companion.daemon.teaching import cut_out_job
    from vision.simulated import SimulatedTable

    line: dict[str, Any] = {"figure": "teaching.speed", "frames": frames, "threads": 1}
    for where, mat in (("table", False), ("mat", True)):
        table = SimulatedTable(GAME, seed=5, mat=mat)
        job = cut_out_job(GAME)
        job(table.frame())  # the table before the card: judged (a first frame), warming up
        table.place_at("cherry", table.centre, 25.0)
        ms = []
        for _ in range(frames):
            frame = table.frame()
            cpu = time.thread_time()
            job(frame)
            ms.append((time.thread_time() - cpu) * 1000)
        line[f"{where}_arrived_ms"] = round(ms[0], 2)
        line[f"{where}_judged_ms"] = round(ms[1], 1)
        line[f"{where}_still_median_ms"] = round(statistics.median(ms[2:]), 2)
    return line


def photos_figure(folder: Path) -> dict[str, Any]:
    """The realcards photos enlarged to the camera's 1280 px, shown to the camera thread: the
    single-card photos cut out right, wrong and refused; the multi-card photos cut out (each a
    wrong: one card of several)."""
    import cv2

    from companion.daemon.teaching import cut_out_job
    from companion.errors import UserError
    from vision.image_files import read_image
    from vision.labelled_photos import load_photos
    from vision.simulated import FRAME_W

    try:
        photos = load_photos(folder)
    except UserError as missing:
        return {"figure": "teaching.photos", "skipped": str(missing)}
    job = cut_out_job(GAME)
    counts = dict.fromkeys(("right", "wrong", "refused", "nothing"), 0)
    wrong, multi_cut = [], []
    for photo in photos:
        image = read_image(photo.path)
        scale = FRAME_W / max(image.shape[:2])
        smooth = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=smooth)
        job(image)  # the photo arrives (the scene changed)
        seen = job(image.copy())  # and stands still: judged
        if len(photo.cards) > 1:
            if seen.cutout is not None:
                multi_cut.append(photo.path.name)
            continue
        box = tuple(v * scale for v in photo.cards[0][1])
        said = verdict(seen, box, image.shape[1])
        said = "right" if said == "wrong" and not lies_whole(box, image.shape) else said
        counts[said] += 1
        if said == "wrong":
            wrong.append(photo.path.name)
    return {
        "figure": "teaching.photos",
        "single_photos": sum(counts.values()),
        **counts,
        "wrong_photos": wrong,
        "multi_photos": sum(len(p.cards) > 1 for p in photos),
        "multi_cut_out": len(multi_cut),
        "multi_cut_out_photos": multi_cut,
    }


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """The tables (the simulated camera's, and one mounted higher), mat, photos and speed lines."""
    import cv2

    from companion.bench.realcards import default_photos

    cv2.setNumThreads(1)
    yield tables_figure(args.tables)
    # A camera 80 cm above the table (EXPERIENCE.md: 60-80 cm) sees a card 70-90 px wide.
    yield tables_figure(args.tables, (70, 90), "tables_far")
    yield mat_figure(args.tables)
    if args.use_photos:
        yield photos_figure(args.photos or default_photos())
    yield speed_figure()
