"""``companion bench scoreboard`` runs end to end: both phases measured, every client served."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_bench_measures_both_phases_and_serves_every_client() -> None:
    done = subprocess.run([sys.executable, "-m", "companion", "bench", "scoreboard", "--rounds", "1",
                           "--presses", "4", "--clients", "3"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = [json.loads(line) for line in done.stdout.splitlines()]
    latency = {f["scoreboard"]: f for f in figures if f["figure"] == "button_to_screen_ms"}
    assert latency[False]["samples"] > 0 and latency[True]["samples"] > 0 and latency[True]["clients"] == 3
    (board,) = [f for f in figures if f["figure"] == "scoreboard"]
    assert board["clients_served"] == 3 and board["updates_per_client"]["min"] > 0
    assert 5 < board["peak_resident_mb"] < 500
