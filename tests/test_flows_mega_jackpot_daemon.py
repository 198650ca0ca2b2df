"""Mega Jackpot's table mode through the whole stack: the simulated dealer lays printed cards on
the simulated mat, the camera thread reads its frames, vision identifies reel sides and
symbols, the flow infers the player's flip from the zones that changed."""

from __future__ import annotations

import json
import time
from pathlib import Path

from companion.cli.commands.run import attach_simulated_table
from companion.daemon.app import Daemon, RunOptions
from companion.flows.mega_jackpot import MegaJackpotFlow
from companion.simtable.dealer import SimDealer
from companion.simtable.mega_jackpot import MegaJackpotDealer


def test_the_set_up_and_the_first_flip_are_read_by_the_camera(tmp_path: Path) -> None:
    options = RunOptions(headless=True, game="mega-jackpot", mode="table", seed=2, use_gpio=False,
                         journal_path=tmp_path / "journal.sqlite")
    attach_simulated_table(options, 2)
    assert isinstance(options.dealer, SimDealer)
    # A patient dealer: everything must come through the camera, nothing by buttons.
    options.dealer = MegaJackpotDealer(options.camera_factory, seed=2, correct_after=1e9, play_flips=True)
    daemon = Daemon(options)
    daemon.start()
    try:
        flow = daemon.flow
        assert isinstance(flow, MegaJackpotFlow)
        deadline = time.monotonic() + 600  # a give-up guard only: a loaded CI machine is slow
        while not any(a.verb == "flip" for a in flow.match.log) or flow.revealing():
            assert time.monotonic() < deadline, f"stuck at {flow.prompt()!r} ({flow.alert})"
            daemon.step()
            time.sleep(0.01)
        journal = flow.session.journal
        seen = [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
                if kind == "observation"]
        assert {entry["source"] for entry in seen} == {"camera"}, seen
        reveals = [a for a in flow.match.log if a.is_reveal]
        flip = next(a for a in flow.match.log if a.verb == "flip")
        # Nine to set up; each card flipped is journaled as seen, then revealed; the piles' new tops.
        cards = len(flip.int_args()) // 2
        assert len(reveals) >= 9 + cards and len(seen) == len(reveals) + cards
        discard = flip.int_args()[1]
        assert any(entry["zone"] == f"discard{discard}" for entry in seen[9:])
    finally:
        daemon.close()
