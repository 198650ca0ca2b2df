"""`companion bench screen` reports frame times for both sizes (measured, never asserted)."""

from __future__ import annotations

import argparse

from companion.bench import screen


def test_bench_reports_median_and_p95_for_both_sizes() -> None:
    parser = argparse.ArgumentParser()
    screen.add_arguments(parser)
    figures = list(screen.run(parser.parse_args(["--spins", "1", "--game", "pay-line"])))
    assert [f["size"] for f in figures] == ["800x480", "480x320"]
    for figure in figures:
        assert figure["frames"] == 360
        assert {"median_ms", "p95_ms", "cpu_median_ms", "cpu_p95_ms"} <= set(figure)
