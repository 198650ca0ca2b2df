"""``companion bench teaching``: the teach screen's camera thread measured on simulated tables,
mats and photos, one JSON line per figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main


def test_bench_teaching_prints_its_figures_as_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "teaching", "--tables", "3", "--no-photos"]) == 0
    lines = {line["figure"]: line for line in map(json.loads, capsys.readouterr().out.splitlines())}
    assert list(lines) == ["teaching.tables", "teaching.tables_far", "teaching.mat", "teaching.speed"]
    assert lines["teaching.tables_far"]["card_px"] == [70, 90]
    tables = lines["teaching.tables"]
    assert tables["tables"] == 3 and sum(tables[k] for k in ("right", "wrong", "refused", "nothing")) == 3
    assert len(tables["wrong_seeds"]) == tables["wrong"]
    mat = lines["teaching.mat"]
    verdicts = ("right", "wrong", "refused", "nothing")
    assert mat["zone_cards"] == 9 == sum(mat[f"zone_cards_{k}"] for k in verdicts)
    assert mat["empty_mats"] == 3 and mat["empty_mats_cut_out"] == len(mat["empty_mat_seeds_cut_out"])
    speed = lines["teaching.speed"]
    assert speed["table_judged_ms"] > 0 and speed["mat_still_median_ms"] > 0


def test_bench_teaching_without_photos_says_so_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "teaching", "--tables", "1", "--photos", str(tmp_path / "none")]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    photos = next(line for line in lines if line["figure"] == "teaching.photos")
    assert "no photos at" in photos["skipped"]
