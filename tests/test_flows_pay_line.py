"""Pay Line's cabinet flow: the lever rolls the dice as reels, holds pick dice to re-roll,
the boxes stay secret (a shake only rattles), collect takes, start doubles, back walks."""

from __future__ import annotations

import random
from pathlib import Path

from companion.engine import GameConfig, replay
from companion.flows import make_flow
from companion.flows.pay_line import PayLineFlow
from companion.journal import Journal
from companion.screen.views import FinalScoresView, PayLinePanel, TableView
from companion.session import Session
from hardware.events import LONG_PRESS, PRESS, PULL, InputEvent


def press(control: str, kind: str = PRESS) -> InputEvent:
    return InputEvent(control, PULL if control == "lever" else kind, 0.0)


def new_flow(tmp_path: Path, seed: int = 4, players: int = 2) -> tuple[PayLineFlow, Journal]:
    journal = Journal.open(tmp_path / "j.sqlite")
    session = Session.start(journal, GameConfig("pay-line", players=players, seed=seed),
                            ["Ann", "Bob", "Cy", "Di"][:players], "cabinet")
    flow = make_flow(session)
    assert isinstance(flow, PayLineFlow)
    return flow, journal


def roll(flow: PayLineFlow) -> None:
    flow.on_input(press("lever"))
    for _ in range(3):
        flow.tick(0.0)


def test_the_lever_rolls_three_dice_as_reels(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    assert flow.prompt() == "Ann: pull the lever to roll" and flow.lamps()["lever"] == "blink"
    before = flow.spin_id()
    roll(flow)
    assert not flow.rolling()
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert flow.spin_id() == before + 1 and view.reels.spin_id == flow.spin_id()
    assert all(reel[0] in ("black", "yellow", "red") for reel in view.reels.reels)
    assert [str(a).split()[0] for a in flow.match.log] == ["reveal"] * 3


def test_holds_pick_dice_and_the_lever_pays_a_chip_each_to_reroll(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path)
    roll(flow)
    bag = flow.state.bags[0]
    flow.on_input(press("hold1"))
    flow.on_input(press("hold3"))
    assert flow.lamps()["hold1"] == "blink" and flow.lamps()["hold2"] == "on"
    flow.on_input(press("lever"))
    assert str(flow.match.log[3]) == "reroll 0 2"
    assert flow.state.bags[0] == bag - 2
    for _ in range(2):
        flow.tick(0.0)
    assert not flow.rolling()
    assert journal.actions(flow.session.game_id)[3] == "reroll 0 2"


def test_a_lever_pull_with_no_die_picked_says_what_to_do(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    flow.on_input(press("lever"))
    assert flow.alert is not None and "Pick the dice" in flow.alert
    assert len(flow.match.log) == 3


def test_the_boxes_are_never_shown_but_a_shake_rattles_by_their_count(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    flow.on_input(press("hold3", LONG_PRESS))  # the red box: 16 chips
    flow.on_input(press("hold1", LONG_PRESS))  # the black box: 3 chips
    shakes = [cue for cue in flow.cues if cue.name == "shake"]
    assert [cue.params["chips"] for cue in shakes] == [16, 3]
    view = flow.view()
    assert isinstance(view, TableView) and isinstance(view.panel, PayLinePanel)
    assert all(box.chips is None and not box.revealed for box in view.panel.boxes)
    assert [box.shaking for box in view.panel.boxes] == [True, False, True]


def test_collect_without_a_jackpot_is_refused(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    if flow.can_take():
        return  # this seed rolled a jackpot at once; the other tests cover it
    flow.on_input(press("collect"))
    assert flow.alert is not None and "No jackpot" in flow.alert


def test_back_twice_walks_away_and_passes_the_dice(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    flow.on_input(press("back"))
    assert flow.state.current == 0 and flow.alert is not None and "again" in flow.alert
    flow.on_input(press("back"))
    assert flow.state.current == 1
    assert flow.prompt() == "Bob: pull the lever to roll"


def find_jackpot(tmp_path: Path) -> PayLineFlow:
    for seed in range(200):
        flow, _ = new_flow(tmp_path / str(seed), seed=seed)
        roll(flow)
        if flow.can_take():
            return flow
    raise AssertionError("no seed rolled a jackpot at once")


def test_start_goes_double_or_nothing_and_collect_takes_a_jackpot(tmp_path: Path) -> None:
    flow = find_jackpot(tmp_path)
    assert flow.lamps()["collect"] == "blink" and flow.lamps()["start"] == "on"
    flow.on_input(press("start"))
    assert str(flow.match.log[3]) == "double"  # then the first die rolls at once
    assert flow.state.doubling is not None
    taker = find_jackpot(tmp_path / "take")
    bag = taker.state.bags[0]
    taker.on_input(press("collect"))
    assert str(taker.match.log[-1]) == "take"
    assert taker.state.bags[0] > bag and taker.state.current == 1


def test_a_whole_game_by_the_buttons_ends_with_the_boxes_revealed(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, seed=9, players=3)
    for step in range(20000):
        if flow.over:
            break
        event = flow.suggest(random.Random(step))
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
    assert flow.over
    final = flow.view()
    assert isinstance(final, FinalScoresView) and len(final.players) == 3
    rebuilt = replay(flow.session.config, journal.actions(flow.session.game_id))
    assert rebuilt.state == flow.state
    view = flow.table_view()
    assert isinstance(view.panel, PayLinePanel) and all(box.revealed for box in view.panel.boxes)


def hold_down(flow: PayLineFlow, control: str) -> None:
    """A long press as the panel reports it: the press first, then the long press."""
    flow.on_input(press(control))
    flow.on_input(press(control, LONG_PRESS))


def test_a_shake_before_the_free_roll_picks_no_die(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    hold_down(flow, "hold2")
    assert [cue.name for cue in flow.cues].count("shake") == 1
    assert flow.picked == set()
    roll(flow)
    if flow.can_take():
        return
    assert flow.picked == set()
    assert "pull to re-roll" not in flow.prompt() and "pick dice" in flow.prompt()


def test_a_shake_after_the_roll_leaves_the_picks_as_they_were(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    flow.on_input(press("hold1"))
    hold_down(flow, "hold1")  # shakes the black box; die 1 stays picked
    hold_down(flow, "hold3")  # shakes the red box; die 3 stays unpicked
    assert flow.picked == {0}
    assert [cue.name for cue in flow.cues].count("shake") == 2


def test_a_whole_game_never_shows_the_boxes_until_the_final_scores_name_them(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, seed=9, players=3)
    for step in range(20000):
        if flow.over:
            break
        view = flow.view()
        assert isinstance(view, TableView) and isinstance(view.panel, PayLinePanel)
        assert all(box.chips is None and not box.revealed for box in view.panel.boxes)
        event = flow.suggest(random.Random(step))
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
    assert flow.over
    final = flow.view()
    assert isinstance(final, FinalScoresView)
    boxes = flow.state.boxes
    assert f"black {boxes['black']}, yellow {boxes['yellow']}, red {boxes['red']}" in final.note
    assert flow.state.end_reason in final.note


def drain_bag(tmp_path: Path) -> PayLineFlow:
    """A turn whose player has paid every chip into the boxes without a jackpot showing."""
    for seed in range(200):
        flow, _ = new_flow(tmp_path / str(seed), seed=seed)
        roll(flow)
        while flow.state.bags[0] and not flow.can_take():
            flow.on_input(press("hold1"))
            flow.on_input(press("lever"))
            flow.tick(0.0)
        if not flow.can_take() and flow.state.current == 0:
            return flow
    raise AssertionError("no seed emptied a bag without a jackpot")


def test_an_empty_bag_can_only_walk_away_and_its_holds_stay_dark(tmp_path: Path) -> None:
    flow = drain_bag(tmp_path)
    assert flow.state.bags[0] == 0
    prompt = flow.prompt()
    assert "re-roll" in prompt and "no chips" in prompt and "BACK twice to walk away" in prompt
    assert "pick dice" not in prompt
    lamps = flow.lamps()
    assert [lamps[f"hold{d}"] for d in (1, 2, 3)] == ["off"] * 3 and lamps["back"] == "on"
    flow.on_input(press("hold2"))
    assert flow.picked == set() and flow.prompt() == prompt
    hold_down(flow, "hold2")  # shaking still works with an empty bag
    assert flow.cues[-1].name == "shake" and flow.picked == set()
    labels = flow.control_labels()
    assert list(labels) == ["back"]


def test_an_empty_bag_with_a_jackpot_showing_says_take_or_walk(tmp_path: Path) -> None:
    for seed in range(300):
        flow, _ = new_flow(tmp_path / str(seed), seed=seed)
        roll(flow)
        while flow.state.bags[0] and not flow.can_take():
            flow.on_input(press("hold1"))
            flow.on_input(press("lever"))
            flow.tick(0.0)
        if flow.can_take() and flow.state.bags[0] == 0 and flow.state.current == 0:
            break
    else:
        raise AssertionError("no seed rolled a jackpot with an empty bag")
    assert "COLLECT takes the" in flow.prompt()
    assert [flow.lamps()[f"hold{d}"] for d in (1, 2, 3)] == ["off"] * 3


def test_the_chart_starts_every_line_at_the_five_chips_in_each_bag(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, seed=9, players=3)
    assert flow.history == [(5, 5, 5)]
    checked_resume = False
    for step in range(20000):
        if flow.over:
            break
        if len(flow.history) == 5 and not checked_resume:  # a restarted daemon rebuilds the same chart
            resumed = Session.resume(journal)
            assert resumed is not None
            assert make_flow(resumed).history == flow.history
            checked_resume = True
        event = flow.suggest(random.Random(step))
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
    assert checked_resume
    final = flow.view()
    assert isinstance(final, FinalScoresView)
    assert all(line[0] == 5 for line in final.history)
    assert tuple(line[-1] for line in final.history) == tuple(flow.state.bags)


def test_a_jackpot_puts_collect_double_and_walk_first_in_the_hints(tmp_path: Path) -> None:
    flow = find_jackpot(tmp_path)
    view = flow.table_view()
    assert [hint.control for hint in view.controls][:3] == ["collect", "start", "back"]


def test_the_lever_leads_the_hints_once_a_die_is_picked(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    if flow.can_take():
        return
    assert [hint.control for hint in flow.table_view().controls] == ["hold1", "hold2", "hold3", "back"]
    flow.on_input(press("hold2"))
    assert [hint.control for hint in flow.table_view().controls][0] == "lever"


def test_the_hints_say_what_a_press_does_and_the_reels_mark_the_dice_that_stay(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path)
    roll(flow)
    if flow.can_take():
        return
    labels = {hint.control: hint.label for hint in flow.table_view().controls}
    assert labels["hold1"] == "Pick die 1" and labels["hold3"] == "Pick die 3"
    reels = flow.table_view().reels
    assert reels is not None and not any(reels.held)  # nothing picked: no die is marked
    flow.on_input(press("hold2"))
    view = flow.table_view()
    labels = {hint.control: hint.label for hint in view.controls}
    assert labels["hold2"] == "Unpick die 2" and labels["hold1"] == "Pick die 1"
    assert labels["lever"] == "Re-roll 1 die"
    assert view.reels is not None and view.reels.held == (True, False, True)
    assert view.reels.caption == "Re-roll: die 2"
