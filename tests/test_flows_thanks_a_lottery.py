"""Thanks a Lottery's flow: secret paper hands at the table, the Pi's dice and tin, both modes.

Table mode: the companion learns a card only when it is laid on the mat; every move is checked
by the engine on a provisional log and the round is journaled when its turns stop. Cabinet
mode: the Pi deals digital hands and the buttons browse their moves.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.engine import GameConfig, replay
from companion.engine.games.thanks_a_lottery.state import Block
from companion.flows import make_flow
from companion.flows.thanks_a_lottery import ZONES, ThanksALotteryFlow
from companion.journal import Journal
from companion.screen.views import FinalScoresView, LotteryDrawView, TableView
from companion.session import Session
from companion.simtable.thanks_a_lottery import LotteryPlayers
from hardware.events import PRESS, PULL, InputEvent


@dataclass(frozen=True)
class Seen:
    """A block row as the tracker reports it."""

    zone: str
    status: str
    card_id: str | None = None
    card_ids: tuple[str, ...] = ()


def press(control: str) -> InputEvent:
    return InputEvent(control, PULL if control == "lever" else PRESS, 0.0)


def new_flow(tmp_path: Path, mode: str, seed: int = 5, players: int = 2,
             options: dict[str, Any] | None = None) -> tuple[ThanksALotteryFlow, Journal]:
    journal = Journal.open(tmp_path / "j.sqlite")
    config = GameConfig("thanks-a-lottery", players=players, seed=seed, options=options or {})
    session = Session.start(journal, config, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:players], mode)
    flow = make_flow(session)
    assert isinstance(flow, ThanksALotteryFlow)
    return flow, journal


def mat(*rows: tuple[str, ...], status: str = "stable") -> dict[str, Seen]:
    """The three block rows holding ``rows`` (missing rows are empty)."""
    out = {}
    for index, zone in enumerate(ZONES):
        cards = rows[index] if index < len(rows) else ()
        out[zone] = Seen(zone, status if cards else "empty", None, tuple(sorted(cards)))
    return out


EMPTY = mat()


def observations(journal: Journal, flow: ThanksALotteryFlow) -> list[dict[str, Any]]:
    return [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
            if kind == "observation"]


class FakeTable:
    """The mat as a perfect camera sees it (fast: no pictures)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[str]] = {zone: [] for zone in ZONES}

    def place_row(self, zone: str, cards: list[str]) -> None:
        self.rows[zone] = list(cards)

    def seen(self) -> dict[str, Seen]:
        return mat(*(tuple(self.rows[zone]) for zone in ZONES))


def table_step(flow: ThanksALotteryFlow, table: FakeTable, players: LotteryPlayers,
               rng: random.Random, now: float) -> None:
    """One moment at the table: the camera's view, the people's turn, then the bot's button."""
    flow.on_observations(table.seen())
    players.step(flow, now, lambda control: flow.on_input(press(control)))
    event = flow.suggest(rng)
    if event is not None:
        flow.on_input(event)


def play_table_game(flow: ThanksALotteryFlow, seed: int = 3, limit: int = 6000) -> LotteryPlayers:
    table = FakeTable()
    players = LotteryPlayers(lambda: table, seed=seed, straighten_after=0.5, enter_after=1.0)
    rng = random.Random(seed)
    for step in range(limit):
        if flow.over:
            break
        now = step * 0.1
        table_step(flow, table, players, rng, now)
        flow.tick(now)
        assert isinstance(flow.view(), TableView | LotteryDrawView | FinalScoresView)
    return players


# --- cabinet -------------------------------------------------------------------------------------


def test_a_cabinet_game_is_dealt_played_and_drawn_by_the_buttons_to_the_end(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "cabinet", players=3)
    assert flow.prompt() == "Round 1: pull the lever to deal and roll the dice"
    assert flow.lamps()["lever"] == "blink"
    rng = random.Random(2)
    seen_lottery = False
    for _ in range(20000):
        if flow.over:
            break
        event = flow.suggest(rng)
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
        seen_lottery |= isinstance(flow.view(), LotteryDrawView)
    assert flow.over and seen_lottery
    assert isinstance(flow.view(), FinalScoresView)
    rebuilt = replay(flow.session.config, journal.actions(flow.session.game_id))
    assert rebuilt.state == flow.match.state
    assert journal.game(flow.session.game_id).status == "finished"


def test_cabinet_shows_the_hand_and_collect_plays_the_move_browsed(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet")
    flow.on_input(press("lever"))
    for _ in range(5):
        flow.tick(0.0)
    seat = flow.seat()
    assert seat == 0 and flow.phase() == "act"
    view = flow.table_view()
    assert view.reels is not None
    assert [r[0] for r in view.reels.reels] == flow.state.hands[0]
    moves = flow.browse()
    assert moves, "seed 5 deals Ann a block"
    flow.on_input(press("hold3"))
    chosen = moves[1 % len(moves)]
    flow.on_input(press("collect"))
    assert flow.match.log[-1] == chosen or chosen in flow.match.log


# --- table: secret hands -------------------------------------------------------------------------


def test_table_deal_learns_no_card_and_the_lever_rolls_the_pool(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    assert flow.prompt().startswith("Round 1: Ben deals 6 cards each")
    flow.on_input(press("lever"))
    assert flow.phase() == "act" and flow.seat() == 0
    assert len(flow.state.pool) == 15
    assert journal.actions(flow.session.game_id) == []  # nothing is committed before the turns stop
    assert flow.zones() == ZONES
    assert flow.prompt() == "Ann: draw a card, then lay the cards you play on the mat (BACK twice: pass)"
    notes = [p.note for p in flow.table_view().players]
    assert notes[0].startswith("hand 7") and notes[1].startswith("hand 6")


def test_a_block_read_on_the_mat_is_confirmed_and_its_cards_become_known(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_observations(mat(("5", "3", "4")))
    assert flow.prompt() == "Ann: play the block 3 4 5? COLLECT confirms"
    assert flow.lamps()["collect"] == "blink"
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["3", "4", "5"]]
    assert flow.seat() == 1
    assert flow.prompt() == "Move the cards from the mat to their block; then Ben plays"
    flow.on_observations(mat(("3", "4", "5")))
    assert not flow.options  # the same cards still lying there are not Ben's move
    flow.on_observations(EMPTY)
    assert flow.prompt().startswith("Ben: draw a card")
    move = [o for o in observations(journal, flow) if o.get("lottery_table") == "move"]
    assert move[0]["move"] == "play 3 4 5" and move[0]["source"] == "camera" and move[0]["seat"] == 0


def test_a_wild_that_may_stand_for_two_numbers_is_chosen_with_the_hold_buttons(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_observations(mat(("4", "5", "wild")))
    assert [str(o) for o in flow.options] == ["play 4 5 wild=3", "play 4 5 wild=6"]
    assert flow.lamps()["hold3"] == "on"
    flow.on_input(press("hold3"))
    assert "wild(=6)" in flow.prompt()
    flow.on_input(press("collect"))
    assert flow.state.blocks[0] == Block(0, "sequential", 4, 3, 2)


def test_cards_that_are_no_block_are_refused_and_the_player_tries_again(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_observations(mat(("3", "5", "6")))
    assert not flow.options
    assert flow.alert is not None and flow.alert.startswith("Ann's 3 5 6: not a block (the cards must all be")
    assert flow.alert.endswith("Take them back")
    flow.on_input(press("collect"))  # nothing to confirm
    assert not flow.state.blocks
    flow.on_observations(EMPTY)
    flow.on_observations(mat(("6", "6", "6")))
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["6", "6", "6"]]
    assert any(o.get("lottery_table") == "refused" for o in observations(journal, flow))


def test_a_card_the_camera_cannot_read_is_named_and_entered_by_the_buttons(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    unreadable = mat(("2", "2"))
    unreadable["block1"] = Seen("block1", "unsure")
    flow.on_observations(unreadable)
    assert flow.alert is not None and flow.alert.startswith("Block row 2: a card the camera cannot read")
    assert not flow.options
    flow.on_input(press("hold2"))  # enter by hand
    for _ in range(3):
        for _ in range(1):  # card cursor starts at 1: one step to 2
            flow.on_input(press("hold3"))
        flow.on_input(press("hold2"))
        flow.on_input(press("hold1"))
    assert flow.entry == ["2", "2", "2"]
    flow.on_input(press("collect"))
    assert flow.prompt() == "Ann: play the block 2 2 2? COLLECT confirms"
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["2", "2", "2"]]
    move = [o for o in observations(journal, flow) if o.get("lottery_table") == "move"][-1]
    assert move["source"] == "buttons" and move["cards"] == ["2", "2", "2"]


def test_an_eighth_card_of_a_number_is_refused_as_a_misread(tmp_path: Path) -> None:
    cards = {"1": 7, "2": 7, "3": 7, "4": 3, "5": 7, "6": 7, "7": 7, "wild": 3}
    flow, _ = new_flow(tmp_path, "table", options={"components": {"cards": cards}})
    flow.on_input(press("lever"))
    flow.on_observations(mat(("4", "4", "4")))
    flow.on_input(press("collect"))
    flow.on_observations(EMPTY)
    flow.on_observations(mat(("4", "4", "4")))
    flow.on_input(press("collect"))
    assert flow.alert is not None and "the game has only 3 4s" in flow.alert
    assert len(flow.state.blocks) == 1 and flow.seat() == 1  # Ben is still on turn


def test_adding_to_another_players_block_takes_dice_chosen_by_the_buttons(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    for cards in (("3", "4", "5"), ("7", "7", "7")):
        flow.on_observations(mat(cards))
        flow.on_input(press("collect"))
        flow.on_observations(EMPTY)
    flow.on_observations(mat(("7",)))  # Ann adds a 7 to Ben's block
    assert [str(o) for o in flow.options] == ["add b2 7"]
    assert flow.prompt() == "Ann: add 7 to Ben's b2, +1 die? COLLECT confirms"
    pool = list(flow.state.pool)
    flow.on_input(press("collect"))
    assert flow.phase() == "take"
    values = flow.take_values()
    flow.on_input(press("hold3"))
    flow.on_input(press("collect"))
    assert flow.state.dice[0] == [values[1]]
    assert Counter(pool) - Counter(flow.state.pool) == Counter([values[1]])


def test_back_twice_passes_the_turn(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_input(press("back"))
    assert flow.seat() == 0 and flow.lamps()["back"] == "blink"
    flow.on_input(press("back"))
    assert flow.seat() == 1


@pytest.mark.parametrize(("players", "seed"), [(3, 7), (6, 7)])
def test_a_whole_table_game_with_secret_hands_ends_and_replays_from_the_journal(
        tmp_path: Path, players: int, seed: int) -> None:
    flow, journal = new_flow(tmp_path, "table", seed=seed, players=players)
    play_table_game(flow, seed=4, limit=20000)
    assert flow.over
    actions = journal.actions(flow.session.game_id)
    assert replay(flow.session.config, actions).state == flow.match.state
    moves = [o for o in observations(journal, flow) if o.get("lottery_table") == "move"]
    assert any(m["move"].startswith("play") for m in moves)
    assert len(flow.final_view().players) == players


def test_a_restart_in_the_middle_of_a_round_rebuilds_it_from_the_journal(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_observations(mat(("1", "2", "3")))
    flow.on_input(press("collect"))
    state = flow.state
    resumed = Session.resume(journal)
    assert resumed is not None
    again = make_flow(resumed)
    assert isinstance(again, ThanksALotteryFlow)
    assert again.hidden is not None and again.state == state
    assert again.seat() == 1 and again.status == "resumed"


def test_the_round_is_journaled_when_its_turns_stop_then_the_lever_rerolls_and_draws(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table", seed=7)
    table = FakeTable()
    players = LotteryPlayers(lambda: table, seed=4, straighten_after=0.5, enter_after=1.0)
    rng = random.Random(4)
    step = 0
    while flow.phase() not in ("finalize", "lottery") and step < 3000:
        table_step(flow, table, players, rng, step * 0.1)
        step += 1
    assert flow.hidden is None and journal.actions(flow.session.game_id)  # committed
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
    if flow.phase() == "finalize":
        seat = flow.seat()
        dice = list(flow.state.dice[seat])
        flow.on_input(press("hold2"))
        flow.on_input(press("lever"))
        assert str(flow.match.log[-1]) == f"reroll {dice[0]}"
        while flow.phase() in ("finalize", "reroll"):
            if flow.phase() == "finalize":
                flow.on_input(press("collect"))
            flow.tick(0.0)
    assert flow.phase() == "lottery"
    view = flow.view()
    assert isinstance(view, LotteryDrawView) and view.tokens == ()
    flow.on_input(press("lever"))
    drawn = flow.view()
    assert isinstance(drawn, LotteryDrawView) and len(drawn.tokens) == 1
    flow.on_input(press("lever"))
    flow.on_input(press("lever"))
    after = flow.view()
    assert isinstance(after, LotteryDrawView) and len(after.tokens) == 3
    assert after.message.startswith("Round 1: Ann ") and "round 2" in after.message
    assert flow.match.state.round == 2


def test_the_simulated_camera_reads_a_block_spread_over_two_rows(tmp_path: Path) -> None:
    from vision.reader import CardReader
    from vision.simulated import SimulatedTable
    from vision.tracker import ZoneTracker

    flow, _ = new_flow(tmp_path, "table", seed=11)
    flow.on_input(press("lever"))
    table = SimulatedTable("thanks-a-lottery", seed=3)
    reader = CardReader("thanks-a-lottery", use_mat=True)
    tracker = ZoneTracker.for_game("thanks-a-lottery", window=3)
    players = LotteryPlayers(lambda: table, seed=1)
    players.lay(["1", "2", "3", "4", "5"])  # five cards: four in row 1, the fifth in row 2
    for _ in range(4):
        flow.on_observations(tracker.update(reader.read(table.frame()), "thanks-a-lottery"))
    assert flow.reading == ("1", "2", "3", "4", "5")
    assert flow.prompt() == "Ann: play the block 1 2 3 4 5? COLLECT confirms"
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["1", "2", "3", "4", "5"]]
    players.lay([])
    for _ in range(4):
        flow.on_observations(tracker.update(reader.read(table.frame()), "thanks-a-lottery"))
    assert not flow.await_clear and flow.prompt().startswith("Ben: draw a card")


def test_with_the_camera_lost_the_cards_are_entered_by_the_buttons(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.set_camera(False)
    assert flow.entry == [] and flow.table_view().status == "camera lost: manual entry"
    flow.on_observations(mat(("5", "6", "7")))  # a frame from before the cable came loose: ignored
    assert not flow.options
    for _ in range(4):
        flow.on_input(press("hold3"))
    for _ in range(3):
        flow.on_input(press("hold2"))
        flow.on_input(press("hold3"))
    assert flow.entry == ["5", "6", "7"]
    flow.on_input(press("collect"))
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["5", "6", "7"]]
    assert flow.entry == [] and not flow.await_clear  # Ben enters his cards by hand too
    flow.set_camera(True)
    assert flow.entry is None


def test_with_the_camera_lost_a_player_can_still_pass_and_take_back_a_move(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.set_camera(False)
    assert flow.entry == [] and flow.prompt().endswith("BACK to pass or undo")
    assert flow.control_labels()["back"] == "Pass, undo"
    # BACK in an empty manual entry did nothing without a camera: the turn could never end
    flow.on_input(press("back"))
    assert flow.entry is None and flow.prompt() == "Ann: HOLD2 enters the cards you play, BACK twice passes"
    flow.on_input(press("back"))
    assert flow.seat() == 0 and flow.lamps()["back"] == "blink"
    flow.on_input(press("back"))
    assert flow.seat() == 1 and flow.entry == []
    for _ in range(4):
        flow.on_input(press("hold3"))
    for _ in range(3):
        flow.on_input(press("hold2"))
        flow.on_input(press("hold3"))
    flow.on_input(press("collect"))
    flow.on_input(press("collect"))
    assert [b.cards() for b in flow.state.blocks] == [["5", "6", "7"]] and flow.seat() == 0
    # a move confirmed by mistake: HOLD1 in manual entry picks cards, so BACK first, then HOLD1 twice
    flow.on_input(press("back"))
    assert flow.prompt().endswith("HOLD1 twice takes back the last move")
    flow.on_input(press("hold1"))
    flow.on_input(press("hold1"))
    assert flow.seat() == 1 and not flow.state.blocks and flow.entry == []


def test_the_simulated_table_keeps_its_hands_over_a_restart_inside_a_round(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table", seed=7)
    table = FakeTable()
    players = LotteryPlayers(lambda: table, seed=4, straighten_after=0.5, enter_after=1.0)
    rng = random.Random(4)
    flow.on_input(press("lever"))
    step = 0
    while flow.hidden is not None and len(flow.hidden.moves) < 4:
        table_step(flow, table, players, rng, step * 0.1)
        step += 1
        assert step < 3000
    resumed = Session.resume(journal)
    assert resumed is not None
    again = make_flow(resumed)
    assert isinstance(again, ThanksALotteryFlow) and again.hidden is not None
    # dealt afresh, the people would lay again cards they had already played: the game stalled
    play_table_game(again, seed=5, limit=20000)
    assert again.over


def test_only_the_live_buttons_glow(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    assert {c for c, s in flow.lamps().items() if s != "off"} == {"lever"}
    flow.on_input(press("lever"))
    assert {c for c, s in flow.lamps().items() if s != "off"} == {"hold2", "back"}
    flow.on_observations(mat(("5", "3", "4")))
    assert {c for c, s in flow.lamps().items() if s != "off"} == {"collect", "back"}


def test_a_confirmed_move_is_taken_back_with_hold1_twice_and_the_correction_is_journaled(
        tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_input(press("lever"))
    flow.on_observations(mat(("4", "5", "wild")))
    flow.on_input(press("collect"))  # meant wild=6, confirmed wild=3
    assert flow.seat() == 1 and flow.lamps()["hold1"] == "on"
    flow.on_input(press("hold1"))
    assert flow.alert == "Press HOLD1 again to take back Ann's play 4 5 wild=3"
    flow.on_input(press("hold1"))
    assert flow.seat() == 0 and not flow.state.blocks
    assert flow.hidden is not None and flow.hidden.known == {}
    flow.on_observations(mat(("4", "5", "wild")))  # the cards still lie there: read again
    flow.on_input(press("hold3"))
    flow.on_input(press("collect"))
    assert flow.state.blocks[0].numbers == (4, 5, 6)
    facts = [o["lottery_table"] for o in observations(journal, flow) if "lottery_table" in o]
    assert facts == ["start", "move", "undo", "move"]
    # the transcript names each move by the round's start and its number, the undo too
    assert flow.table_lines == ["[0+1] Ann: play the block 4 5 wild(=3)",
                                "[0+1] taken back: Ann's play 4 5 wild=3",
                                "[0+1] Ann: play the block 4 5 wild(=6)"]
    resumed = Session.resume(journal)
    assert resumed is not None
    again = make_flow(resumed)
    assert isinstance(again, ThanksALotteryFlow) and again.state == flow.state
    assert again.table_lines == ["round 1 resumed with its 1 table move (kept after action 0)"]


def test_the_transcript_never_claims_a_card_nobody_saw(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table", seed=7)
    table = FakeTable()
    players = LotteryPlayers(lambda: table, seed=4)
    rng = random.Random(4)
    flow.on_input(press("lever"))
    seen = flow.hidden
    step = 0
    while flow.hidden is not None and step < 3000:
        seen = flow.hidden
        table_step(flow, table, players, rng, step * 0.1)
        step += 1
    assert flow.hidden is None and seen is not None
    cards = [line for _, line in flow.session.lines if "dealt to" in line or "draws" in line]
    assert len(cards) == len(seen.slot_seats)
    hidden_lines = [line for line in cards if "not seen (recorded as" in line]
    assert len(hidden_lines) == len(seen.slot_seats) - len(seen.known) > 0
    shown = sorted(line.rsplit(": ", 1)[1] for line in cards if line not in hidden_lines)
    assert shown == sorted(seen.known.values())  # the cards played, and only those, are named


def test_the_lever_counts_once_as_its_pull(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet")
    flow.on_input(InputEvent("lever", PRESS, 0.0))
    assert flow.phase() == "deal"
    flow.on_input(InputEvent("lever", PULL, 0.0))
    assert flow.phase() != "deal"


def test_a_full_disk_while_the_round_is_written_loses_nothing(tmp_path: Path) -> None:
    from companion.journal import JournalFullError

    flow, journal = new_flow(tmp_path, "table", seed=7)
    table = FakeTable()
    players = LotteryPlayers(lambda: table, seed=4)
    rng = random.Random(4)
    real = journal.record_action
    calls = {"n": 0}

    def flaky(game_id: int, action: str) -> int:
        calls["n"] += 1
        if calls["n"] == 20:
            raise JournalFullError("disk full")
        return real(game_id, action)

    journal.record_action = flaky  # type: ignore[method-assign]
    flow.on_input(press("lever"))
    failed = None
    step = 0
    while flow.hidden is not None and step < 3000:
        flow.on_observations(table.seen())
        try:
            players.step(flow, step * 0.1, lambda control: flow.on_input(press(control)))
            event = flow.suggest(rng)
            if event is not None:
                flow.on_input(event)
        except JournalFullError:
            failed = step
            assert flow.hidden is not None and flow.hidden.ended  # the round waits to be written
            assert len(journal.actions(flow.session.game_id)) == 19
            flow.on_input(press("collect"))  # the daemon's retry of the same control
            break
        step += 1
    assert failed is not None
    assert flow.hidden is None and flow.phase() in ("finalize", "lottery")
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
