"""The bench's webcam-like figure reads the part asked for, each photo's copy the same in every
part: a change tuned on dev's webcam-like copies never looks at the held-out ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bench import realcards
from companion.bench.realcards import Tally, Taught
from vision.labelled_photos import Photo


def test_the_webcam_like_copies_of_one_part_are_read_with_the_seeds_all_parts_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    multis = [Photo(Path(f"IMG_{n}.JPG"), (("nine", (0, 0, 9, 9)), ("ten", (9, 0, 19, 9)))) for n in range(6)]
    read: list[tuple[list[str], list[int] | None]] = []

    def fake_read(
        deck: Any, photos: list[Photo], webcam: bool = False, seeds: list[int] | None = None, **_options: Any
    ) -> tuple[Tally, list[str], list[float]]:
        assert webcam
        read.append(([p.path.name for p in photos], seeds))
        return Tally(), [], []

    monkeypatch.setattr(realcards, "_read", fake_read)
    monkeypatch.setattr(realcards, "_deck", lambda taught, store, leave_out=None: None)
    taught = Taught((), ())
    chosen = [multis[1], multis[4]]
    line = realcards._webcam(taught, multis, chosen, "dev")
    assert line["part"] == "dev" and line["read_photos"] == 2
    # The copies read are those of the chosen photos, seeded by their place among all of them
    # (as the whole set's figure and realcards.webcam_untaught seed them).
    assert read == [(["IMG_1.JPG", "IMG_4.JPG"], [1, 4])]
    realcards._webcam(taught, multis, multis, "all")
    assert read[-1] == ([p.path.name for p in multis], list(range(6)))


def test_the_webcam_taught_figure_teaches_each_single_photos_own_webcam_like_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """realcards.webcam_taught: the single-card photos' copies are taught, each with a seed of
    its own that no multi-card photo's copy shares; the plain figures teach the photos."""
    import numpy as np

    singles = [Photo(Path(f"IMG_{n}.JPG"), (("nine", (0, 0, 9, 9)),)) for n in range(3)]
    seeds: list[int] = []

    def fake_webcam_like(image: Any, seed: int) -> Any:
        seeds.append(seed)
        return image + 1

    class Capture:
        def __init__(self, image: Any) -> None:
            self.cutout, self.quad = image, np.float32([[0, 0], [9, 0], [9, 9], [0, 9]])

    monkeypatch.setattr("vision.rough_camera.webcam_like", fake_webcam_like)
    monkeypatch.setattr("vision.image_files.read_image", lambda path: np.zeros((4, 4), np.uint8))
    monkeypatch.setattr("vision.enrolled.capture_card", lambda image, name=None: Capture(image))
    taught = realcards.capture_singles(singles, webcam=True)
    assert seeds == [realcards.TEACH_SEEDS + k for k in range(3)] and realcards.TEACH_SEEDS >= 95
    assert all(int(cutout.max()) == 1 for _rank, cutout in taught.cutouts)  # the copies, taught
    assert all(int(cutout.max()) == 0 for _rank, cutout in realcards.capture_singles(singles).cutouts)
