"""`companion bench realcards` reads another group's labelled photos as they come: other image
types and suffix cases, ranks written another way; a label it cannot use is one clear line."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.bench.realcards import RANKS
from companion.cli import main
from vision.labelled_photos import DECK_RANKS, load_photos


def _label(folder: Path, stem: str, names: list[str]) -> None:
    objects = "".join(
        f"<object><name>{name}</name><bndbox><xmin>{10 + 40 * k}</xmin><ymin>5</ymin>"
        f"<xmax>{40 + 40 * k}</xmax><ymax>50</ymax></bndbox></object>"
        for k, name in enumerate(names)
    )
    (folder / f"{stem}.xml").write_text(f"<annotation>{objects}</annotation>")


def _photo(folder: Path, name: str) -> None:
    cv2.imwrite(str(folder / name), np.full((60, 200, 3), 90, np.uint8))


def test_photos_of_any_common_type_and_ranks_written_another_way_are_read(tmp_path: Path) -> None:
    for name in ("a.png", "b.JPEG", "c.jpg"):
        _photo(tmp_path, name)
    _label(tmp_path, "a", ["Nine", "10"])
    _label(tmp_path, "b", ["K"])
    _label(tmp_path, "c", ["ace "])
    _photo(tmp_path, "d.png")  # no label: not a photo of the set
    photos = load_photos(tmp_path)
    assert [p.path.name for p in photos] == ["a.png", "b.JPEG", "c.jpg"]
    assert [[rank for rank, _box in p.cards] for p in photos] == [["nine", "ten"], ["king"], ["ace"]]
    assert photos[0].cards[1][1] == (50, 5, 80, 50)


def test_a_label_that_is_no_rank_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _photo(tmp_path, "a.jpg")
    _label(tmp_path, "a", ["nine", "joker"])
    assert main(["bench", "realcards", "--photos", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a.xml" in err and "'joker' is not a rank" in err


def test_a_broken_label_file_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _photo(tmp_path, "a.jpg")
    (tmp_path / "a.xml").write_text("<annotation><object>")
    assert main(["bench", "realcards", "--photos", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a.xml" in err and "not a Pascal VOC label file" in err


def test_the_bench_maps_every_rank_of_the_deck_to_a_card() -> None:
    assert tuple(RANKS) == DECK_RANKS
