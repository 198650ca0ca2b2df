"""Bandit's flow: buttons and camera readings become engine actions, journaled first.

Table mode: a card counts only when the tracker says it is stable, it is new (or the dealer
pressed COLLECT), and the engine finds it possible; otherwise the screen asks to fix it.
Cabinet mode: the lever deals, the Pi deals after every decision.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.engine import Action, GameConfig, SeededResolver, replay
from companion.flows import make_flow
from companion.flows.bandit import BanditFlow, zone_of
from companion.journal import Journal
from companion.screen.views import FinalScoresView, TableView
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent


@dataclass(frozen=True)
class Seen:
    zone: str
    status: str
    card_id: str | None


def press(control: str) -> InputEvent:
    return InputEvent(control, PULL if control == "lever" else PRESS, 0.0)


def new_flow(tmp_path: Path, mode: str, seed: int = 5) -> tuple[BanditFlow, Journal]:
    journal = Journal.open(tmp_path / "j.sqlite")
    session = Session.start(journal, GameConfig("bandit", players=2, seed=seed), ["Ann", "Bob"], mode)
    flow = make_flow(session)
    assert isinstance(flow, BanditFlow)
    return flow, journal


def grid(cards: dict[str, str], status: str = "stable") -> dict[str, Seen]:
    return {zone: Seen(zone, status, card) for zone, card in cards.items()}


NINE = {f"r{r}c{c}": card for r in range(3) for c, card in enumerate(
    [["cherry", "cherry", "any"], ["plum", "bell", "seven"], ["bell", "plum", "cherry"]][r])}


def test_a_cabinet_game_played_by_the_buttons_ends_and_matches_the_journal(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "cabinet")
    rng = random.Random(1)
    assert flow.prompt() == "Ann: pull the lever to deal"
    assert flow.lamps()["lever"] == "blink"
    for _ in range(5000):
        if flow.over:
            break
        event = flow.suggest(rng)
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
    assert flow.over
    assert isinstance(flow.view(), FinalScoresView)
    actions = journal.actions(flow.session.game_id)
    rebuilt = replay(flow.session.config, actions)
    assert rebuilt.state == flow.match.state
    assert journal.game(flow.session.game_id).status == "finished"
    assert len(flow.final_view().history[0]) == 3  # start, after game 1, after game 2


def test_table_mode_reveals_the_stable_grid_in_dealing_order(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    assert flow.zones()[:3] == ("r0c0", "r0c1", "r0c2")
    flow.on_observations(grid(NINE))
    assert not flow.dealing()
    assert [str(a) for a in flow.match.log][:3] == ["reveal cherry", "reveal cherry", "reveal any"]
    assert flow.state.claimable == [0]
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert view.reels.win_rows == (0,) and view.reels.reels[2] == ("any", "seven", "cherry")
    entries = journal.entries(flow.session.game_id)
    observations = [text for _, kind, text, _ in entries if kind == "observation"]
    assert len(observations) == 9 and '"source": "camera"' in observations[0]


def test_an_unsure_card_is_not_revealed_and_the_screen_says_which(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    seen = grid(NINE)
    seen["r0c1"] = Seen("r0c1", "unsure", "cherry")
    flow.on_observations(seen)
    assert [str(a) for a in flow.match.log] == ["reveal cherry"]
    assert flow.alert is not None and "Row 1, column 2" in flow.alert


def test_an_impossible_card_is_refused_as_a_misread(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    bars = {zone: "bar" for zone in NINE}  # the deck holds only three bars
    flow.on_observations(grid(bars))
    assert [str(a) for a in flow.match.log] == ["reveal bar"] * 3
    assert flow.alert is not None and "Row 2, column 1 reads bar, which cannot be" in flow.alert
    assert flow.cues[-1].name == "error"


def test_a_card_that_looks_like_the_old_one_needs_the_dealers_collect(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    flow.on_input(press("collect"))  # claim the cherry row
    assert flow.scores() == (5, 0)
    # The claim took row 1's cards: its stacks are empty and are refilled now.
    assert flow.zones() == ("r0c0", "r0c1", "r0c2")
    refill = {"r0c0": "plum", "r0c1": "bell", "r0c2": "seven"}
    flow.on_observations(grid({**NINE, **refill}))
    assert not flow.dealing()
    assert flow.state.claimable == []  # a refilled row does not win before a spin
    flow.on_input(press("hold1"))  # hold column 1, spin columns 2 and 3
    flow.on_input(press("lever"))
    assert str(flow.match.log[-1]) == "spin 1 2"
    assert flow.zones() == ("r0c1", "r0c2", "r1c1", "r1c2", "r2c1", "r2c2")
    same = grid({**NINE, **refill})
    flow.on_observations(same)  # nothing new on the table yet
    assert str(flow.match.log[-1]) == "spin 1 2"
    flow.on_input(press("collect"))  # dealer: "the cards are down" (same symbols landed)
    # The camera may still be a few frames behind: the old look counts only after it settled.
    for _ in range(flow.settle_batches - 1):
        flow.on_observations(same)
    assert flow.dealing()
    flow.on_observations(same)
    assert not flow.dealing()
    assert [str(a) for a in flow.match.log[-6:]] == [
        "reveal bell", "reveal seven", "reveal bell", "reveal seven", "reveal plum", "reveal cherry"]


def test_buttons_enter_a_card_by_hand_and_the_correction_is_journaled(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    seen = grid(NINE)
    flow.on_observations({"r0c0": seen["r0c0"]})
    flow.on_input(press("hold3"))  # start entering r0c1 by hand
    symbol = flow.manual_symbol()
    assert symbol is not None and "Enter row 1, column 2" in flow.prompt()
    flow.on_input(press("hold3"))
    chosen = flow.manual_symbol()
    assert chosen != symbol
    flow.on_input(press("collect"))
    assert str(flow.match.log[-1]) == f"reveal {chosen}"
    last = journal.entries(flow.session.game_id)[-2]
    assert last[1] == "observation" and '"source": "buttons"' in last[2]


def test_with_the_camera_lost_the_buttons_deal_the_whole_grid(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.set_camera(False)
    assert flow.view().status == "camera lost: manual entry"  # type: ignore[union-attr]
    for _ in range(9):
        flow.on_input(press("collect"))
    assert not flow.dealing() and len(flow.match.log) == 9


def test_spinning_with_every_column_held_is_refused(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    for control in ("hold1", "hold2", "hold3"):
        flow.on_input(press(control))
    assert flow.lamps()["hold2"] == "blink"
    flow.on_input(press("lever"))
    assert flow.alert is not None and "Release a hold" in flow.alert
    assert len(flow.match.log) == 9


def test_back_twice_ends_the_game_and_the_dealer_becomes_the_player(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet")
    flow.on_input(press("lever"))
    for _ in range(9):
        flow.tick(0.0)
    flow.on_input(press("back"))
    assert flow.alert is not None and "again" in flow.alert
    flow.on_input(press("back"))
    assert flow.state.game_index == 1
    assert flow.prompt() == "Bob: pull the lever to deal"


def test_a_flow_for_a_mode_the_game_does_not_have_is_a_user_error(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite")
    session = Session.start(journal, GameConfig("bandit", players=2), ["A", "B"], "arcade")
    with pytest.raises(Exception, match="table or cabinet"):
        make_flow(session)


def test_a_collect_for_a_deal_holds_for_its_remaining_cards(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_input(press("collect"))  # the dealer says the nine cards are down
    first_three = {zone: NINE[zone] for zone in ("r0c0", "r0c1", "r0c2")}
    flow.on_observations(grid(first_three))
    assert flow.session.version == 3
    assert flow.dealt_confirmed  # still the same deal: no second COLLECT needed


def test_a_card_moved_between_deals_is_pointed_out_until_it_is_put_back(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    assert not flow.dealing()
    swapped = {**NINE, "r1c1": "bar"}  # someone swapped the bell for a bar
    flow.on_observations(grid(swapped))
    assert flow.alert is not None and "Row 2, column 2 shows bar, but the game has bell there" in flow.alert
    assert [str(a) for a in flow.match.log].count("reveal bar") == 0  # nothing was paid or changed
    flow.on_observations(grid(NINE))
    assert flow.alert is None


def empty(zones: Iterable[str] = NINE) -> dict[str, Seen]:
    return {zone: Seen(zone, "empty", None) for zone in zones}


def end_game_one(flow: BanditFlow) -> None:
    """Ann's first grid is read, then she ends her game with BACK twice."""
    flow.on_observations(grid(NINE))
    flow.on_input(press("back"))
    flow.on_input(press("back"))
    assert flow.state.game_index == 1 and flow.fresh_deal()


def test_game_ones_cards_left_on_the_mat_are_not_game_twos_deal(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    end_game_one(flow)
    version = flow.session.version
    assert flow.prompt() == "Game 2: clear the grid, then the dealer lays nine new cards for Bob"
    for _ in range(flow.settle_batches + 2):
        flow.on_observations(grid(NINE))  # nobody has cleared the mat yet
    assert flow.session.version == version and flow.state.claimable == []
    flow.on_observations(empty())  # the mat is cleared
    assert flow.prompt() == "Dealer: lay nine cards for Bob (COLLECT if the screen does not pick them up)"
    flow.on_observations(grid(NINE))  # the same symbols, dealt anew, count now
    assert [str(a) for a in flow.match.log[version:]][:3] == ["reveal cherry", "reveal cherry", "reveal any"]
    assert not flow.dealing() and flow.state.claimable == [0]


def test_in_game_two_a_stack_counts_only_once_its_place_was_seen_empty(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    end_game_one(flow)
    version = flow.session.version
    flow.on_observations(empty(["r0c0", "r0c1"]))  # the rest of the grid still shows game one
    flow.on_observations(grid(NINE))
    assert flow.session.version == version + 2  # r0c0 and r0c1; r0c2 still shows game one's card
    assert "row 1, column 3" in flow.prompt() and "clear" in flow.prompt()
    flow.on_observations(empty(["r0c2"]))
    flow.on_observations(grid(NINE))
    assert flow.session.version == version + 3  # and r1c0 waits to be seen empty in turn
    flow.on_observations(empty(zone for zone in NINE if zone[1] != "0"))
    flow.on_observations(grid(NINE))
    assert not flow.dealing()


def test_game_two_takes_the_cards_once_the_dealer_says_they_are_down_and_the_camera_settled(
        tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    end_game_one(flow)
    version = flow.session.version
    flow.on_input(press("collect"))  # the dealer: "the cards are down" (the camera never saw it empty)
    for _ in range(flow.settle_batches - 1):
        flow.on_observations(grid(NINE))
    assert flow.session.version == version
    flow.on_observations(grid(NINE))
    assert not flow.dealing() and flow.session.version == version + 9


def test_game_one_ending_on_a_read_card_does_not_read_game_two_from_the_same_frame(tmp_path: Path) -> None:
    """The whole of game one is dealt through the camera; the frame that completes its last deal
    must not go on to fill game two's grid."""
    flow, _ = new_flow(tmp_path, "table", seed=3)
    rng = random.Random(3)
    on_mat = dict.fromkeys(NINE, "")
    last: dict[str, Seen] = {}
    while flow.state.game_index == 0 and not flow.over:
        if flow.dealing():
            clone = copy.deepcopy(flow.match)
            resolver = SeededResolver(rng)
            for stack in flow.state.pending:
                card = resolver.resolve(clone.chance_point)
                clone.apply(Action.reveal(card))
                on_mat[zone_of(stack)] = card
            last = {zone: Seen(zone, "stable", card) if card else Seen(zone, "empty", None)
                    for zone, card in on_mat.items()}
            flow.on_input(press("collect"))  # cards down (some may look like the ones beneath)
            for _ in range(flow.settle_batches + 1):
                if flow.state.game_index != 0 or not flow.dealing():
                    break
                flow.on_observations(last)
        else:
            event = flow.suggest(rng)
            assert event is not None
            flow.on_input(event)
            if flow.dealing():  # a claim or a spin: the claimed cards leave the mat
                for stack in range(9):
                    cards = flow.state.stacks[stack]
                    on_mat[zone_of(stack)] = cards[-1] if cards else ""
    assert flow.state.game_index == 1 and flow.fresh_deal()
    version = flow.session.version
    flow.on_observations(last)
    assert flow.session.version == version


def test_a_claimed_card_still_lying_on_its_stack_is_not_the_refill(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    flow.on_input(press("collect"))  # claim the cherry row: its stacks are refilled
    version = flow.session.version
    flow.on_observations(grid(NINE))  # Ann has not taken the cherries yet
    assert flow.session.version == version


def test_prompts_say_columns_for_several_and_that_the_camera_takes_the_cards(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    assert flow.prompt() == "Dealer: lay nine cards for Ann (COLLECT if the screen does not pick them up)"
    flow.on_observations(grid({zone: NINE[zone] for zone in ("r0c0", "r0c1", "r0c2")}))
    assert flow.prompt() == ("Dealer: lay 6 cards on columns 1, 2 and 3 "
                             "(COLLECT if the screen does not pick them up)")
    flow.on_observations(grid(NINE))
    for control in ("hold1", "hold2"):
        flow.on_input(press(control))
    flow.on_input(press("lever"))
    assert flow.prompt() == "Dealer: lay 3 cards on column 3 (COLLECT if the screen does not pick them up)"


def test_the_controls_the_prompt_names_come_first_so_the_screen_keeps_them(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    view = flow.view()
    assert isinstance(view, TableView)
    assert [hint.control for hint in view.controls][:1] == ["collect"]  # "COLLECT if ... not picked up"
    flow.on_observations(grid(NINE))  # the cherry row wins: "COLLECT claims the winning row"
    view = flow.view()
    assert isinstance(view, TableView)
    assert [(h.control, h.label) for h in view.controls][:5] == [
        ("collect", "Claim"), ("lever", "Spin"), ("hold1", "Hold"), ("hold2", "Hold"), ("hold3", "Hold")]
    flow.on_input(press("collect"))
    flow.on_observations(grid({**NINE, "r0c0": "plum", "r0c1": "bell", "r0c2": "seven"}))
    flow.on_input(press("hold2"))
    view = flow.view()
    assert isinstance(view, TableView)
    assert [(h.control, h.label) for h in view.controls][:4] == [
        ("lever", "Spin"), ("hold1", "Hold"), ("hold2", "Release"), ("hold3", "Hold")]


def test_the_win_is_celebrated_as_it_lands_and_banked_only_on_the_claim(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    landed = flow.view()
    assert isinstance(landed, TableView) and landed.reels is not None
    assert landed.reels.win_rows == (0,) and landed.reels.payout == 5  # fanfare, coins, "+5" on offer
    assert [line.score for line in landed.players] == [0, 0]  # nothing banked yet
    flow.on_input(press("collect"))
    claimed = flow.view()
    assert isinstance(claimed, TableView) and claimed.reels is not None
    assert [line.score for line in claimed.players] == [5, 0]
    assert claimed.reels.win_rows == () and claimed.reels.payout == 0  # the "+5" went into the score
    assert flow.cues[-1].name == "coin"


def test_a_win_given_up_by_a_spin_is_never_banked(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    flow.on_input(press("lever"))  # spin without claiming the cherries
    assert flow.scores() == (0, 0)
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None and view.reels.payout == 0


def test_a_claimed_card_on_a_stack_that_keeps_cards_is_not_the_next_spins_card(tmp_path: Path) -> None:
    """Claimed cards lie on the mat until the player takes them, even where older cards lie beneath
    (no refill then): a spin right after the claim must not take one of them as its new card, not
    from the frames read before the claim, nor from the frames that still show it after the spin
    (``bench misreads``: Bandit, seed 22, zone r0c2)."""
    flow, _ = new_flow(tmp_path, "table")
    flow.on_observations(grid(NINE))
    flow.on_input(press("collect"))  # claim the cherry row; it is refilled
    refill = {"r0c0": "plum", "r0c1": "bell", "r0c2": "seven"}
    flow.on_observations(grid({**NINE, **refill}))
    flow.on_input(press("lever"))  # spin all three columns: the new cards lie on the old ones
    spun = {"r0c0": "any", "r0c1": "plum", "r0c2": "any", "r1c0": "bell", "r1c1": "seven",
            "r1c2": "cherry", "r2c0": "cherry", "r2c1": "bell", "r2c2": "seven"}
    flow.on_observations(grid(spun))
    assert not flow.dealing() and flow.state.claimable == [0]
    flow.on_input(press("collect"))  # claim the plum row: the refill shows beneath, no new deal
    assert not flow.dealing()
    flow.on_observations(grid(spun))
    assert flow.alert is None  # the claimed cards are not "moved": they wait to be taken
    flow.on_input(press("hold1"))
    flow.on_input(press("hold2"))
    flow.on_input(press("lever"))  # spin column 3 before the camera saw the claimed cards go
    assert flow.zones() == ("r0c2", "r1c2", "r2c2")
    version = flow.session.version
    flow.tick(0.0)  # the readings from before the claim
    flow.on_observations(grid(spun))  # Bob has not taken the claimed cards yet
    assert flow.session.version == version
    flow.on_observations(grid({**spun, **refill}))  # he has: the refill shows again
    assert flow.session.version == version
    flow.on_observations(grid({**spun, **refill, "r0c2": "bell", "r1c2": "plum", "r2c2": "cherry"}))
    assert [str(a) for a in flow.match.log[-3:]] == ["reveal bell", "reveal plum", "reveal cherry"]
