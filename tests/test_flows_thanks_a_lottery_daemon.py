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


def test_a_move_whose_note_the_full_disk_refused_is_made_again_not_kept_unwritten(tmp_path: Path) -> None:
    import contextlib
    from collections.abc import Iterator

    from companion.journal import JournalFullError
    from hardware.events import PRESS, InputEvent

    def no_camera(game_id: str) -> object:
        raise OSError("camera unplugged")  # the cards are entered by the buttons

    shown: list[str] = []
    options = RunOptions(headless=True, game="thanks-a-lottery", mode="table", players=2, seed=4,
                         use_gpio=False, keyboard=True, journal_path=tmp_path / "journal.sqlite",
                         transcript=shown.append)
    options.camera_factory = no_camera
    daemon = Daemon(options)
    daemon.start()
    try:
        flow = daemon.flow
        assert isinstance(flow, ThanksALotteryFlow) and daemon.journal is not None
        journal = daemon.journal
        now = 0.0

        def press(control: str) -> None:
            nonlocal now
            now += 0.05
            daemon.dispatch(InputEvent(control, PRESS if control != "lever" else "pull", now))
            daemon.step(now)

        press("lever")
        press("back")  # leave the empty manual entry
        press("back")  # arm the pass
        real = journal.transaction

        @contextlib.contextmanager
        def refused() -> Iterator[None]:
            with real():
                yield
                raise JournalFullError("disk full")  # the commit of the block fails

        journal.transaction = refused  # type: ignore[method-assign]
        press("back")  # the pass: its note is refused
        # not kept unwritten: the round is as the journal holds it, and no line claims the pass
        assert daemon.paused and flow.hidden is not None and flow.hidden.moves == []
        assert not any(line.startswith("[0+1]") for line in shown)
        journal.transaction = real  # type: ignore[method-assign]
        daemon.step(time.monotonic() + 10)  # the pause ends (the daemon retries that BACK)
        assert not daemon.paused
        while flow.hidden.moves == [] and now < 5:
            press("back")  # the player passes again
        assert [str(m) for m in flow.hidden.moves] == ["pass"]
        assert [line for line in shown if line.startswith("[0+")] == ["[0+1] Player 1: pass"]
        facts = [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
                 if kind == "observation"]
        assert [f["move"] for f in facts if f.get("lottery_table") == "move"] == ["pass"]
    finally:
        daemon.close()
