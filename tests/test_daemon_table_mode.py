"""Table mode through the whole stack: a simulated dealer lays printed cards on the simulated
mat, the camera thread reads its frames, vision identifies them, the flow reveals them."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from companion.cli.commands.run import attach_simulated_table
from companion.daemon.app import Daemon, RunOptions
from companion.engine import get_game
from companion.journal import Journal
from companion.simtable.dealer import SimDealer


def test_the_first_grid_is_read_by_the_camera_and_revealed_as_dealt(tmp_path: Path) -> None:
    try:
        get_game("bandit").card_faces()
    except KeyError as error:
        pytest.skip(f"Bandit's card_faces() raises KeyError {error}: vision cannot print or read its cards")
    options = RunOptions(headless=True, game="bandit", mode="table", seed=2, use_gpio=False,
                         journal_path=tmp_path / "journal.sqlite")
    attach_simulated_table(options, 2)
    assert isinstance(options.dealer, SimDealer)
    # A patient dealer: everything must come through the camera, nothing by buttons.
    options.dealer.straighten_after = options.dealer.correct_after = 1e9
    daemon = Daemon(options)
    daemon.start()
    try:
        deadline = time.monotonic() + 600  # a give-up guard only: a loaded machine is slow
        while daemon.flow.session.version < 9 and time.monotonic() < deadline:  # type: ignore[union-attr]
            daemon.step()
            time.sleep(0.02)
        flow = daemon.flow
        assert flow is not None and flow.session.version >= 9
        dealt = [str(action).split()[1] for action in flow.match.log[:9]]
        journal = flow.session.journal
        seen = [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
                if kind == "observation"][:9]
        assert [entry["source"] for entry in seen] == ["camera"] * 9
        assert [entry["card"] for entry in seen] == dealt
        assert [entry["zone"] for entry in seen] == [f"r{r}c{c}" for r in range(3) for c in range(3)]
        assert daemon.vision_latency  # observations reached the flow from the camera thread
    finally:
        daemon.close()


def test_with_the_camera_missing_the_whole_game_is_entered_by_buttons(tmp_path: Path) -> None:
    from companion.simtable.dealer import SimulatedCamera

    class NoCamera(SimulatedCamera):
        def __call__(self, game_id: str) -> object:
            raise OSError("no camera on the CSI port")

    lines: list[str] = []
    camera = NoCamera(3)
    options = RunOptions(headless=True, fast=True, game="bandit", mode="table", seed=3, use_gpio=False,
                         autoplay=3, exit_when_over=True, journal_path=tmp_path / "journal.sqlite",
                         camera_factory=camera, dealer=SimDealer(camera, seed=3), transcript=lines.append)
    daemon = Daemon(options)
    daemon.start()
    daemon.run()
    flow = daemon.flow
    assert flow is not None and flow.over
    assert any("camera: camera not available" in line for line in lines)
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        record = journal.games()[0]
        assert record.status == "finished"
        entries = journal.entries(record.id)
    sources = {json.loads(text)["source"] for _, kind, text, _ in entries if kind == "observation"}
    assert sources == {"buttons"}
    assert sum(1 for _, kind, _, _ in entries if kind == "observation") == sum(
        1 for action in flow.match.log if action.is_reveal)
