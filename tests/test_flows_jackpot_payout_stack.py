"""Jackpot Payout's table mode through the whole stack: the simulated player lays printed cards
on the simulated mat's reel slots, the camera thread reads them, the flow reveals them; cards the
mat has no zone for go in by the buttons, and without a camera everything does."""

from __future__ import annotations

import json
import time
from pathlib import Path

from companion.cli.commands.run import attach_simulated_table
from companion.daemon.app import Daemon, RunOptions
from companion.flows.jackpot_payout import JackpotPayoutFlow
from companion.journal import Journal
from companion.simtable.dealer import SimDealer, SimulatedCamera
from companion.simtable.jackpot_payout import JackpotPayoutDealer


def observations(flow: JackpotPayoutFlow) -> list[dict[str, object]]:
    entries = flow.session.journal.entries(flow.session.game_id)
    return [json.loads(text) for _, kind, text, _ in entries if kind == "observation"]


def test_the_reels_are_read_by_the_camera_and_the_display_entered_by_buttons(tmp_path: Path) -> None:
    options = RunOptions(headless=True, game="jackpot-payout", mode="table", players=2, seed=4,
                         use_gpio=False, journal_path=tmp_path / "journal.sqlite")
    attach_simulated_table(options, 4)
    assert isinstance(options.dealer, SimDealer)
    daemon = Daemon(options)
    daemon.start()
    try:
        deadline = time.monotonic() + 600  # a give-up guard only: a loaded CI machine is slow
        flow = daemon.flow
        assert isinstance(flow, JackpotPayoutFlow)
        # A patient player: every reel card must come through the camera, none by buttons.
        dealer = JackpotPayoutDealer(options.dealer.camera, seed=4, straighten_after=1e9, correct_after=1e9)
        options.dealer._game_dealers["jackpot-payout"] = dealer
        # The camera thread opens the simulated table first (slow on a loaded machine): a player
        # at a table whose camera is not up yet enters the reels by the buttons.
        while not (daemon.camera is not None and daemon.camera.ok) and time.monotonic() < deadline:
            time.sleep(0.05)
        while flow.session.version < 10 and time.monotonic() < deadline:
            daemon.step()
            time.sleep(0.02)
        assert flow.session.version >= 10
        seen = observations(flow)[:10]
        assert [entry["source"] for entry in seen] == ["buttons"] * 7 + ["camera"] * 3
        assert [entry["zone"] for entry in seen[7:]] == ["reel0", "reel1", "reel2"]
        revealed = [str(action).split()[1] for action in flow.match.log[7:10]]
        assert [entry["card"] for entry in seen[7:]] == revealed
        assert daemon.vision_latency
    finally:
        daemon.close()


def test_with_the_camera_missing_the_whole_game_is_entered_by_buttons(tmp_path: Path) -> None:
    class NoCamera(SimulatedCamera):
        def __call__(self, game_id: str) -> object:
            raise OSError("no camera on the CSI port")

    lines: list[str] = []
    camera = NoCamera(3)
    options = RunOptions(headless=True, fast=True, game="jackpot-payout", mode="table", players=2, seed=3,
                         use_gpio=False, autoplay=3, exit_when_over=True,
                         journal_path=tmp_path / "journal.sqlite", camera_factory=camera,
                         dealer=SimDealer(camera, seed=3), transcript=lines.append)
    daemon = Daemon(options)
    daemon.start()
    daemon.run()
    flow = daemon.flow
    assert isinstance(flow, JackpotPayoutFlow) and flow.over
    assert any("camera: camera not available" in line for line in lines)
    with Journal.open(tmp_path / "journal.sqlite") as journal:
        record = journal.games()[0]
        assert record.status == "finished"
        entries = journal.entries(record.id)
    seen = [json.loads(text) for _, kind, text, _ in entries if kind == "observation"]
    assert {entry["source"] for entry in seen} == {"buttons"}
    assert len(seen) == sum(1 for action in flow.match.log if action.is_reveal)
