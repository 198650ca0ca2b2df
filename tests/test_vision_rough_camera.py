"""The second judge: frames through a cheap camera's faults are read without a wrong id."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from vision.reader import CardReader, Reading, Sighting
from vision.rough_camera import RoughCamera
from vision.scenes import Score, make_scene

GAMES = ["bandit", "jackpot-payout", "mega-jackpot", "thanks-a-lottery"]


def test_no_wrong_id_through_a_rough_camera() -> None:
    """40 scenes through lens distortion, blur, exposure, shot noise and JPEG: no card is ever
    named wrongly, and most are still read (the rest are reported unsure or not at all)."""
    score = Score()
    readers: dict[tuple[str, bool], CardReader] = {}
    for index in range(40):
        seed = 8_100_000 + index
        game, mat = GAMES[index % 4], index % 8 < 4
        table = make_scene(game, seed, mat, random.Random(seed).randint(3, 9))
        camera = RoughCamera(seed)
        reader = readers.setdefault((game, mat), CardReader(game, use_mat=mat))
        score.add(table, camera.undistort(reader.read(camera.apply(table.frame()))), f"seed {seed}")
    assert score.wrong == 0, score.wrong_examples
    assert score.readable > 150
    assert score.correct >= 0.93 * score.readable


def test_undistort_takes_a_point_back_where_the_lens_took_it() -> None:
    """A white dot drawn in the undistorted frame shows up elsewhere after the lens; mapping
    where it shows back through ``undistort`` lands on where it was drawn."""
    camera = RoughCamera(1)
    camera.look = dataclasses.replace(
        camera.look, k1=0.04, vignette=0.0, blur_px=0.0, exposure=1.0, shot_noise=0.0, jpeg_quality=95
    )
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[95:106, 1095:1106] = 255  # a dot at (1100, 100), near a corner where distortion is large
    seen = camera.apply(frame)[:, :, 1]
    ys, xs = np.nonzero(seen > 128)
    shown = (float(xs.mean()), float(ys.mean()))
    assert abs(shown[0] - 1100) + abs(shown[1] - 100) > 10  # the lens did move it
    card = Sighting("x", "bandit", (), None, (shown, shown, shown, shown), 1.0)
    back = camera.undistort(Reading([card])).cards[0].corners[0]
    assert abs(back[0] - 1100) < 1.5 and abs(back[1] - 100) < 1.5


def test_each_scene_draws_its_own_faults_from_its_seed() -> None:
    assert RoughCamera(5).look == RoughCamera(5).look
    looks = {RoughCamera(seed).look for seed in range(20)}
    assert len(looks) == 20
    assert any(look.blur_px > 0 for look in looks) and any(look.blur_px == 0 for look in looks)
