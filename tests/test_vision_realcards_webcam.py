"""The bench's webcam-like figure reads the part asked for, each photo's copy the same in every
part: a change tuned on dev's webcam-like copies never looks at the held-out ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.bench import realcards
from companion.bench.realcards import Photo, Tally, Taught


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
