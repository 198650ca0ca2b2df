"""``companion bench vision``: the card reader on seeded synthetic scenes, one core.

Scenes cycle through every game with cards, with and without the mat, 3-9 cards, cards 90-170
px wide (on the mat: as large as the mat allows in view), tilt up to 35 degrees, any rotation,
warm and cold light, glare, blur, noise, shadows and hands. Only ``CardReader.read`` is timed,
both as CPU time of the reading thread (``median_ms``, ``p95_ms``: what one core spends, steady
even when other programs load the machine) and as wall-clock time (``wall_*``).
Seeds start at ``--seed`` (default 900000, far from the seeds the reader was tuned on, 0-2000).
``--camera rough`` puts every frame through ``vision.rough_camera`` first (lens distortion,
vignetting, motion blur, exposure, shot noise, JPEG): a second judge the reader was not tuned on.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterable
from typing import Any

NAME = "vision"
HELP = "card reading: recall, wrong ids, unsure rate, ms per 1280x720 frame (one core)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many scenes, first seed, which games."""
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=900000)
    parser.add_argument(
        "--games", default="", help="comma-separated game ids (default: every game with cards)"
    )
    parser.add_argument(
        "--camera",
        choices=("clean", "rough"),
        default="clean",
        help="rough: add a cheap camera's faults (lens, blur, exposure, noise, JPEG) to every frame",
    )


def _games(wanted: str) -> list[str]:
    from companion.engine import all_games
    from companion.errors import UserError

    games = []
    for game_id, cls in all_games().items():
        try:
            if cls.card_faces():
                games.append(game_id)
        except Exception:  # noqa: S112 - a rules module still being written: leave it out, say so
            continue
    if wanted:
        chosen = [g.strip() for g in wanted.split(",") if g.strip()]
        missing = [g for g in chosen if g not in games]
        if missing:
            raise UserError(
                f"no printable cards for: {', '.join(missing)} (games with cards: {', '.join(games)})"
            )
        return chosen
    return games


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """Yield one summary figure (and one per game)."""
    import cv2

    from vision.reader import CardReader
    from vision.rough_camera import RoughCamera
    from vision.scenes import Score, make_scene

    cv2.setNumThreads(1)
    games = _games(args.games)
    readers = {(g, m): CardReader(g, use_mat=m) for g in games for m in (True, False)}
    total, per_game = Score(), {g: Score() for g in games}
    times: list[float] = []
    walls: list[float] = []
    cards_total = 0
    for index in range(args.scenes):
        seed = args.seed + index
        game = games[index % len(games)]
        mat = (index // len(games)) % 2 == 0
        cards = random.Random(seed).randint(3, 9)
        table = make_scene(game, seed, mat, cards)
        frame = table.frame()
        camera = RoughCamera(seed) if args.camera == "rough" else None
        if camera is not None:
            frame = camera.apply(frame)
        cards_total += len(table.all_placed())
        started, cpu = time.perf_counter(), time.thread_time()
        reading = readers[(game, mat)].read(frame)
        times.append((time.thread_time() - cpu) * 1000)
        walls.append((time.perf_counter() - started) * 1000)
        if camera is not None:
            reading = camera.undistort(reading)
        for score in (total, per_game[game]):
            score.add(table, reading, f"seed {seed} {game}{' mat' if mat else ''}")
    times.sort()
    walls.sort()
    yield {
        "figure": "vision",
        "scenes": args.scenes,
        "first_seed": args.seed,
        "camera": args.camera,
        "games": games,
        "cards": cards_total,
        "readable_cards": total.readable,
        "recall": round(total.correct / max(1, total.readable), 5),
        "wrong_ids": total.wrong,
        "unsure_rate": round(total.unsure / max(1, total.readable), 5),
        "zone_errors": total.zone_errors,
        "mat_missed": total.mat_missed,
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
        "wall_median_ms": round(statistics.median(walls), 2),
        "wall_p95_ms": round(walls[int(0.95 * (len(walls) - 1))], 2),
        "threads": 1,
        "wrong_examples": total.wrong_examples[:5],
    }
    for game, score in per_game.items():
        yield {
            "figure": f"vision.{game}",
            "readable_cards": score.readable,
            "recall": round(score.correct / max(1, score.readable), 5),
            "wrong_ids": score.wrong,
            "unsure_rate": round(score.unsure / max(1, score.readable), 5),
            "zone_errors": score.zone_errors,
        }
