"""``bench daemon``'s cold start and whole-game figures measure what they say: the CPU to the first
frame comes from the daemon's own line, and the simulated table is paced as a camera and its
rendering kept out of the companion's share."""

from __future__ import annotations

import time
from typing import Any

from companion.bench.daemon import PacedTable, cold_start


class CountingTable:
    """A table whose frames cost a known amount of CPU to render."""

    def __init__(self) -> None:
        self.reads = 0
        self.placed: list[tuple[str, str | None]] = []

    def read(self) -> Any:
        self.reads += 1
        started = time.thread_time()
        while time.thread_time() - started < 0.002:  # rendering: CPU the daemon must not be charged
            pass
        return f"frame{self.reads}"

    def place(self, zone: str, card: str | None) -> None:
        self.placed.append((zone, card))


def test_the_paced_table_delivers_at_the_camera_rate_and_counts_its_own_rendering() -> None:
    rendering: list[float] = []
    table = CountingTable()
    paced = PacedTable(table, 20.0, rendering)
    started = time.monotonic()
    frames = [paced.read() for _ in range(6)]
    assert frames == [f"frame{n}" for n in range(1, 7)]
    assert time.monotonic() - started >= 5 / 20.0 * 0.9  # no faster than 20 fps
    assert len(rendering) == 6 and all(spent >= 0.0019 for spent in rendering)
    assert paced.paced and paced.captured_at >= started
    paced.place("r0c0", "bell")  # the dealer lays on the table through it
    assert table.placed == [("r0c0", "bell")]


def test_cold_start_reports_the_cpu_the_process_spent_to_its_first_frame() -> None:
    figure = cold_start(1)
    assert figure["mode"] == "cabinet" and figure["value"] is not None
    assert figure["cpu_s"] is not None and 0 < figure["cpu_s"] <= figure["value"] * 2 + 1
