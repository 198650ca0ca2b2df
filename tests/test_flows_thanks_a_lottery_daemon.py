"""Thanks a Lottery's table mode through the whole daemon: the simulated players lay the cards of
each move on the simulated mat, the camera thread reads it, the flow checks the move with the
engine and journals it; the autoplay bot pulls the lever to roll the Pi's dice pool."""

from __future__ import annotations

import json
import time
from pathlib import Path

from companion.cli.commands.run import attach_simulated_table
from companion.daemon.app import Daemon, RunOptions
from companion.engine import Action
from companion.flows.thanks_a_lottery import ThanksALotteryFlow
from companion.flows.thanks_a_lottery_round import cards_of


def test_the_first_moves_are_laid_on_the_mat_read_and_journaled(tmp_path: Path) -> None:
    options = RunOptions(headless=True, game="thanks-a-lottery", mode="table", players=2, seed=4,
                         use_gpio=False, autoplay=4, journal_path=tmp_path / "journal.sqlite")
    attach_simulated_table(options, 4)
    daemon = Daemon(options)
    daemon.start()
    try:
        flow = daemon.flow
        assert isinstance(flow, ThanksALotteryFlow)
        deadline = time.monotonic() + 600  # a give-up guard only: a loaded CI machine is slow
        now = 0.0
        while time.monotonic() < deadline and (flow.hidden is None or len(flow.hidden.moves) < 2):
            daemon.step(now)
            now += 0.05
            time.sleep(0.01)
        assert flow.hidden is not None and len(flow.hidden.moves) >= 2
        journal = flow.session.journal
        facts = [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
                 if kind == "observation"]
        moves = [f for f in facts if f.get("lottery_table") == "move"]
        assert [m["move"] for m in moves] == [str(a) for a in flow.hidden.moves]
        for move in moves:  # what was laid (and read or entered) is what the engine was told
            action = Action.parse(move["move"])
            if action.verb in ("play", "add"):
                assert sorted(move["cards"]) == sorted(cards_of(action))
                assert move["source"] in ("camera", "buttons")
        assert len(flow.state.pool) <= 15 and flow.state.round == 1
    finally:
        daemon.close()
