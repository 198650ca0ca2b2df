"""Mega Jackpot's flow: flips seen on the table (or picked by buttons) become engine actions.

Table mode: the camera reads reel sides on the piles and symbols on the discards; a flip is
inferred from the zones that changed; a card it cannot read or the engine refuses is named on
screen and entered by buttons. Cabinet mode: the lever flips, the Pi reveals. Both: the Pi
flips the Mega Jackpot tiles.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.engine import GameConfig, replay
from companion.flows import make_flow
from companion.flows.mega_jackpot import MegaJackpotFlow
from companion.flows.mega_jackpot_table import infer_moves
from companion.journal import Journal
from companion.screen.views import FinalScoresView, MegaJackpotPanel, TableView, TileFlipView
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent


@dataclass(frozen=True)
class Seen:
    zone: str
    status: str
    card_id: str | None


def press(control: str) -> InputEvent:
    return InputEvent(control, PULL if control == "lever" else PRESS, 0.0)


def new_flow(tmp_path: Path, mode: str, variants: tuple[str, ...] = (), seed: int = 4,
             options: dict[str, object] | None = None) -> tuple[MegaJackpotFlow, Journal]:
    journal = Journal.open(tmp_path / "j.sqlite")
    config = GameConfig("mega-jackpot", 2, variants, seed=seed, options=options or {})
    session = Session.start(journal, config, ["Ann", "Bob"], mode)
    flow = make_flow(session)
    assert isinstance(flow, MegaJackpotFlow)
    return flow, journal


def see(flow: MegaJackpotFlow, table: dict[str, str | None], times: int = 1) -> None:
    """The camera reports the table ``times`` frames in a row."""
    observations = {zone: Seen(zone, "stable" if card else "empty", card) for zone, card in table.items()}
    for _ in range(times):
        flow.on_observations(observations)


#: Frames a single new card on a discard takes to count as a flip (a second card may follow).
FLIP = 13


def log(flow: MegaJackpotFlow) -> list[str]:
    return [str(action) for action in flow.match.log]


def sources(journal: Journal, flow: MegaJackpotFlow) -> list[dict[str, object]]:
    return [json.loads(text) for _, kind, text, _ in journal.entries(flow.session.game_id)
            if kind == "observation"]


#: Piles show apple/genie, diamond/carpet, carpet/genie; the discards apple, apple, cherry.
SETUP: dict[str, str | None] = {
    "pile0": "apple/genie", "pile1": "diamond/carpet", "pile2": "carpet/genie",
    "discard0": "apple@apple-cherry", "discard1": "apple@apple-diamond", "discard2": "cherry@cherry-genie",
}
SETUP_LOG = ["reveal apple-cherry", "reveal apple-diamond", "reveal cherry-genie",
             "reveal apple", "reveal apple-genie", "reveal apple", "reveal diamond-carpet",
             "reveal cherry", "reveal carpet-genie"]


def set_up(tmp_path: Path, variants: tuple[str, ...] = (), table: dict[str, str | None] | None = None
           ) -> tuple[MegaJackpotFlow, Journal, dict[str, str | None]]:
    flow, journal = new_flow(tmp_path, "table", variants)
    table = dict(table or SETUP)
    see(flow, table)
    assert flow.phase() == "flip"
    return flow, journal, table


# --- cabinet ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variants", [(), ("tiles",)])
def test_a_cabinet_game_played_by_the_buttons_ends_and_replays_from_the_journal(
        tmp_path: Path, variants: tuple[str, ...]) -> None:
    flow, journal = new_flow(tmp_path, "cabinet", variants)
    assert flow.prompt() == "Pull the lever to set up the machine"
    assert flow.lamps()["lever"] == "blink"
    rng = random.Random(1)
    for step in range(20000):
        if flow.over:
            break
        event = flow.suggest(rng)
        if event is not None:
            flow.on_input(event)
        flow.tick(step * 0.05)
    assert flow.over and isinstance(flow.view(), FinalScoresView)
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
    assert journal.game(flow.session.game_id).status == "finished"
    assert any(state.startswith("flip") for state in log(flow))


def test_a_cabinet_lever_pull_with_nothing_picked_flips_the_advisors_pick(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet")
    flow.on_input(press("lever"))
    while flow.revealing():
        flow.tick(0.0)
    best = flow.best_flip()
    flow.on_input(press("lever"))
    assert log(flow)[9] == "flip " + " ".join(str(n) for move in best for n in move)


def test_cabinet_picks_pile_then_discard_and_the_lever_flips_them(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet")
    flow.on_input(press("lever"))
    while flow.revealing():
        flow.tick(0.0)
    for control in ("hold3", "hold1", "hold1", "hold1"):  # pile 3 -> discard 1, then pile 1 -> discard 1
        flow.on_input(press(control))
    assert flow.alert == "Two cards go onto two different discards"
    flow.on_input(press("hold2"))
    assert flow.prompt().startswith("Ann: pile 3 -> discard 1 + pile 1 -> discard 2: LEVER flips")
    flow.on_input(press("lever"))
    assert log(flow)[9] == "flip 0 1 2 0"  # lower pile first, as the engine wants


# --- table mode: setting up and flipping -------------------------------------------------------


def test_the_set_up_table_is_read_pile_by_pile_and_journaled_as_seen(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    assert flow.prompt().startswith("Set up: three reel piles")
    assert flow.zones() == ("discard0", "pile0")
    see(flow, SETUP)
    assert log(flow) == SETUP_LOG
    seen = sources(journal, flow)
    assert {entry["source"] for entry in seen} == {"camera"} and len(seen) == 9
    assert flow.prompt() == "Ann: flip one or two cards onto the discards (or HOLD pile, discard, LEVER)"
    view = flow.view()
    assert isinstance(view, TableView) and isinstance(view.panel, MegaJackpotPanel)
    assert view.panel.reel_sides == (("apple", "genie"), ("diamond", "carpet"), ("carpet", "genie"))
    assert view.panel.odds[0] == "pile 1 -> discard 3: 77.8%"  # 7 apples in 9 apple/genie cards
    assert view.reels is not None and view.reels.reels == (("apple",), ("apple",), ("cherry",))


def test_a_flip_on_the_table_is_inferred_from_the_zones_that_changed(tmp_path: Path) -> None:
    flow, journal, table = set_up(tmp_path)
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table)
    assert len(flow.match.log) == 9  # one card seen: a second one may still come
    see(flow, table, FLIP - 1)
    assert log(flow)[9:] == ["flip 0 2", "reveal apple", "reveal cherry-genie"]
    assert flow.phase() == "jackpot"
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert view.reels.win_rows == (0,) and view.reels.payout == 3
    assert view.reels.still == (True, True, False)  # only the flipped discard spins
    assert not any(view.reels.held)  # nobody held the others: no HELD mark on them
    assert flow.lamps()["collect"] == "blink" and flow.lamps()["lever"] == "off"  # no tiles
    assert sources(journal, flow)[-1] == {"version": 11, "zone": "pile0", "card": "cherry/genie",
                                          "source": "camera"}


def test_two_cards_flipped_together_are_one_flip(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard0="carpet@diamond-carpet", pile1="apple/cherry",
                 discard2="genie@carpet-genie", pile2="apple/diamond")
    see(flow, table)
    assert log(flow)[9:] == ["flip 1 0 2 2", "reveal carpet", "reveal genie", "reveal apple-cherry",
                             "reveal apple-diamond"]
    assert flow.phase() == "spun"


def test_a_second_card_landing_a_moment_after_the_first_makes_one_two_card_flip(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard0="carpet@diamond-carpet", pile1="apple/cherry")
    see(flow, table, FLIP // 2)
    assert len(flow.match.log) == 9
    table.update(discard2="genie@carpet-genie", pile2="apple/diamond")
    see(flow, table)
    assert log(flow)[9] == "flip 1 0 2 2"


def test_the_pile_that_changed_tells_which_of_two_alike_piles_was_flipped(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path, table={**SETUP, "pile1": "apple/genie"})
    table.update(discard2="apple@apple-genie", pile1="cherry/carpet")
    see(flow, table, FLIP)
    assert log(flow)[9] == "flip 1 2"


def test_when_the_camera_cannot_tell_the_pile_the_table_is_asked(tmp_path: Path) -> None:
    flow, journal, table = set_up(tmp_path, table={**SETUP, "pile1": "apple/genie"})
    table.update(discard2="apple@apple-genie")  # the new top of that pile shows apple/genie too
    see(flow, table, FLIP)
    assert len(flow.match.log) == 9
    assert flow.prompt() == "Ann: which pile did discard 3's card come from? HOLD1 or HOLD2"
    assert flow.lamps()["hold3"] == "off" and flow.lamps()["hold2"] == "on"
    flow.on_input(press("hold3"))
    assert flow.alert == "Discard 3's card came from pile 1 or 2"
    flow.on_input(press("hold2"))
    assert log(flow)[9:11] == ["flip 1 2", "reveal apple"]
    see(flow, table, FLIP)  # the same-looking new top counts once the camera had time to see it
    assert log(flow)[11] == "reveal apple-genie"
    assert sources(journal, flow)[9]["source"] == "buttons"


def test_a_flip_picked_by_buttons_is_read_from_the_cards_laid(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    for control in ("hold1", "hold3", "lever"):
        flow.on_input(press(control))
    assert log(flow)[9] == "flip 0 2"
    assert flow.zones() == ("discard2",)
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table)
    assert log(flow)[10:] == ["reveal apple", "reveal cherry-genie"]


# --- table mode: cards the camera cannot read, or the engine refuses ------------------------------


def test_an_unreadable_card_is_named_and_entered_by_buttons(tmp_path: Path) -> None:
    flow, journal, table = set_up(tmp_path)
    for control in ("hold1", "hold3", "lever"):
        flow.on_input(press(control))
    observations = {zone: Seen(zone, "stable", card) for zone, card in table.items()}
    observations["discard2"] = Seen("discard2", "unsure", None)
    flow.on_observations(observations)
    assert flow.alert == "Discard 3: cannot read that card: straighten it, or HOLD1/HOLD3 to enter it"
    flow.on_input(press("hold3"))  # start entering: the first possible card
    assert flow.prompt() == "Enter the card on discard 3: apple (HOLD1/HOLD3 change, COLLECT confirms)"
    assert flow.lamps()["collect"] == "blink"
    flow.on_input(press("hold3"))
    flow.on_input(press("hold1"))
    flow.on_input(press("collect"))
    assert log(flow)[10] == "reveal apple"
    assert sources(journal, flow)[-1] == {"version": 10, "zone": "discard2", "card": "apple",
                                          "source": "buttons", "camera": None}


def test_a_card_from_the_wrong_pile_is_refused_until_it_is_fixed(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    for control in ("hold1", "hold3", "lever"):
        flow.on_input(press(control))
    table.update(discard2="genie@diamond-genie")
    see(flow, table)
    assert flow.alert == ("Discard 3: genie (diamond/genie reel) is not pile 1's apple/genie card: "
                          "fix it, or HOLD1/HOLD3")
    assert flow.cues[-1].name == "error" and len(flow.match.log) == 10
    table.update(discard2="genie@apple-genie", pile0="apple/cherry")
    see(flow, table)
    assert log(flow)[10:] == ["reveal genie", "reveal apple-cherry"]


def test_a_reel_side_the_engine_says_cannot_be_there_is_a_misread(tmp_path: Path) -> None:
    # A box with a single carpet/genie card: once it is flipped no pile can show that side again.
    sides = {"apple-cherry": {"apple": 8, "cherry": 6}, "apple-diamond": {"apple": 8, "diamond": 5},
             "carpet-genie": {"carpet": 1}}
    flow, journal = new_flow(tmp_path, "table", options={"components": {"reel_sides": sides}})
    table: dict[str, str | None] = {
        "pile0": "carpet/genie", "pile1": "apple/diamond", "pile2": "apple/cherry",
        "discard0": "apple@apple-cherry", "discard1": "apple@apple-diamond",
        "discard2": "cherry@apple-cherry"}
    see(flow, table, 14)  # two new pile tops look like the cards flipped off them: each waits
    assert flow.phase() == "flip"
    for control in ("hold1", "hold1", "lever"):  # pile 1 -> discard 1
        flow.on_input(press(control))
    table.update(discard0="carpet@carpet-genie")  # the pile still seems to show carpet/genie
    see(flow, table, 8)
    assert log(flow)[-1] == "reveal carpet"
    assert flow.alert is not None
    assert flow.alert == "Pile 1 reads a carpet/genie reel side, which cannot be: fix it, or HOLD1/HOLD3"
    table.update(pile0="apple/diamond")
    see(flow, table, 2)
    assert log(flow)[-1] == "reveal apple-diamond" and flow.alert is None
    assert not flow.over


def test_a_face_down_card_on_a_discard_is_named(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard1="apple/genie")
    see(flow, table, FLIP)
    assert flow.alert == "Discard 2 shows a reel side: turn the card symbol side up"
    assert len(flow.match.log) == 9


# --- jackpots, paying, tiles ----------------------------------------------------------------------


def test_cashing_out_waits_for_the_jackpot_cards_to_leave_the_discards(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table, FLIP)
    flow.on_input(press("collect"))
    assert log(flow)[-1] == "cash" and flow.scores() == (10, 7)
    # Discards 1 and 2 held one card each: they are refilled from the piles above them.
    assert flow.zones() == ("discard0",)
    assert flow.prompt() == "Discard 1 is empty: flip the top card of pile 1 onto it"
    see(flow, table, FLIP)  # the cashed apples still lie there: not the refill
    assert log(flow)[-1] == "cash"
    table.update(discard0="cherry@cherry-genie", pile0="apple/cherry", discard1="diamond@diamond-carpet",
                 pile1="apple/genie", discard2="cherry@cherry-genie")
    see(flow, table)
    assert log(flow)[-4:] == ["reveal cherry", "reveal apple-cherry", "reveal diamond", "reveal apple-genie"]
    assert flow.prompt().startswith("Bob: flip one or two cards")
    view = flow.view()
    assert isinstance(view, TableView)
    assert [p.note for p in view.players] == ["1x6 2x2", "1x3 2x2"]


def test_paying_to_spin_again_is_confirmed_by_the_buttons(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard0="diamond@diamond-carpet", pile1="cherry/carpet")
    see(flow, table, FLIP)
    assert log(flow)[9:11] == ["flip 1 0", "reveal diamond"] and flow.phase() == "spun"
    assert flow.prompt() == ("Ann: no jackpot. COLLECT stops, or LEVER pays a 1-point card into tray 1 "
                             "to spin again")
    table.update(discard0="apple@apple-genie", pile0="cherry/genie")  # flipped before paying
    see(flow, table, FLIP)
    assert flow.alert == "Pay first: LEVER pays a 1-point card into tray 1 (HOLD1/HOLD2 tray)"
    flow.on_input(press("hold2"))
    assert flow.lamps()["hold2"] == "blink"
    flow.on_input(press("lever"))
    assert log(flow)[12] == "pay 1 1"
    see(flow, table, FLIP)
    assert log(flow)[13:] == ["flip 0 0", "reveal apple", "reveal cherry-genie"]
    view = flow.view()
    assert isinstance(view, TableView) and isinstance(view.panel, MegaJackpotPanel)
    assert view.panel.trays[1].value == 1 and view.panel.trays[1].cards == ("apple",)
    assert view.panel.last_payment == 1


def test_the_lever_bets_a_jackpot_and_the_pi_flips_a_tile_on_screen(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path, variants=("tiles",))
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table, FLIP)
    assert flow.lamps()["lever"] == "blink"
    flow.on_input(press("hold2"))
    flow.on_input(press("lever"))
    assert log(flow)[12] == "attempt 1" and log(flow)[13] in ("reveal genie", "reveal monkey")
    view = flow.view()
    assert isinstance(view, TileFlipView) and view.player == "Ann" and view.tray_value == 3
    assert view.tile in ("genie", "monkey") and flow.cues[-1].name == view.tile
    flow.on_input(press("collect"))  # any button: back to the table
    assert isinstance(flow.view(), TableView)


def test_the_tile_flip_leaves_the_screen_by_itself(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path, variants=("tiles",))
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table, FLIP)
    flow.tick(10.0)
    flow.on_input(press("lever"))
    assert isinstance(flow.view(), TileFlipView)
    flow.tick(14.0)
    assert isinstance(flow.view(), TableView)


# --- camera lost ---------------------------------------------------------------------------------


def test_with_the_camera_lost_flips_and_cards_are_entered_by_buttons(tmp_path: Path) -> None:
    flow, journal, _ = set_up(tmp_path)
    flow.set_camera(False)
    assert flow.view().status == "camera lost: manual entry"  # type: ignore[union-attr]
    for control in ("hold1", "hold3", "lever"):
        flow.on_input(press(control))
    assert flow.manual == 0
    assert flow.prompt() == "Enter the card on discard 3: apple (HOLD1/HOLD3 change, COLLECT confirms)"
    flow.on_input(press("collect"))
    assert flow.prompt().startswith("Enter pile 1's reel side:")
    flow.on_input(press("collect"))
    assert log(flow)[9:11] == ["flip 0 2", "reveal apple"] and flow.phase() == "jackpot"
    assert sources(journal, flow)[-1]["source"] == "buttons"


# --- the whole game on a simulated table -----------------------------------------------------------


class FakeTable:
    """What the dealer lays, as the camera reports it (every zone stable or empty)."""

    def __init__(self) -> None:
        self.cards: dict[str, str | None] = {}

    def place(self, zone: str, card_id: str | None) -> None:
        self.cards[zone] = card_id


class FakeCamera:
    def __init__(self) -> None:
        self.tables = {"mega-jackpot": FakeTable()}


class FakeDaemon:
    def __init__(self, flow: MegaJackpotFlow) -> None:
        self.flow = flow

    def dispatch(self, event: InputEvent) -> None:
        self.flow.on_input(event)


@pytest.mark.parametrize("camera_ok", [True, False])
def test_a_table_game_played_out_by_the_dealer_ends_and_replays(tmp_path: Path, camera_ok: bool) -> None:
    from companion.simtable.mega_jackpot import MegaJackpotDealer

    flow, journal = new_flow(tmp_path, "table", ("tiles",), seed=9)
    camera = FakeCamera()
    dealer = MegaJackpotDealer(camera, seed=9, play_flips=True)
    daemon = FakeDaemon(flow)
    flow.set_camera(camera_ok)
    rng = random.Random(2)
    now = 0.0
    for _ in range(30000):
        if flow.over:
            break
        now += 0.1
        dealer.update(daemon, now)  # type: ignore[arg-type]
        if camera_ok:
            see(flow, camera.tables["mega-jackpot"].cards)
        event = flow.suggest(rng)
        if event is not None:
            flow.on_input(event)
        flow.tick(now)
    assert flow.over
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
    seen = {entry["source"] for entry in sources(journal, flow)}
    assert seen == ({"camera"} if camera_ok else {"buttons"})


# --- helpers ----------------------------------------------------------------------------------


def test_infer_moves_prefers_the_piles_whose_zone_changed() -> None:
    tops = ["apple-genie", "apple-genie", "carpet-genie"]
    assert infer_moves({2: "apple@apple-genie"}, tops, [30, 30, 30], {1}) == [((1, 2),)]
    assert infer_moves({2: "apple@apple-genie"}, tops, [30, 30, 30], set()) == [((0, 2),), ((1, 2),)]
    assert infer_moves({0: "genie@carpet-genie", 1: "apple@apple-genie"}, tops, [30, 30, 30], {2}) in (
        [((0, 1), (2, 0))], [((1, 1), (2, 0))], [((0, 1), (2, 0)), ((1, 1), (2, 0))])
    assert infer_moves({0: "genie@diamond-genie"}, tops, [30, 30, 30], set()) == []


def test_a_discard_unreadable_for_a_while_is_named_while_a_flip_is_awaited(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    observations = {zone: Seen(zone, "stable", card) for zone, card in table.items()}
    observations["discard1"] = Seen("discard1", "unsure", None)
    flow.on_observations(observations)
    assert flow.alert is None  # a hand passing over the cards
    for _ in range(10):
        flow.on_observations(observations)
    assert flow.alert is not None and flow.alert.startswith("Discard 2: cannot read that card: straighten it")
    see(flow, table)
    assert flow.alert is None and len(flow.match.log) == 9


def test_a_game_resumed_between_the_bet_and_the_tile_flips_the_tile(tmp_path: Path) -> None:
    flow, journal, table = set_up(tmp_path, variants=("tiles",))
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")
    see(flow, table, FLIP)
    flow.session.apply("attempt 0")  # the power went out before the tile was flipped
    resumed = Session.resume(journal)
    assert resumed is not None
    again = make_flow(resumed)
    assert isinstance(again, MegaJackpotFlow) and again.status == "resumed"
    again.tick(1.0)
    assert log(again)[-2:] in (["attempt 0", "reveal genie"], ["attempt 0", "reveal monkey"])
    view = again.view()
    assert isinstance(view, TileFlipView) and view.tray_value == 3


def test_with_a_person_at_the_buttons_the_dealer_lays_the_flip_they_picked(tmp_path: Path) -> None:
    from companion.simtable.mega_jackpot import MegaJackpotDealer

    flow, journal = new_flow(tmp_path, "table", seed=9)
    camera = FakeCamera()
    dealer = MegaJackpotDealer(camera, seed=9)  # no bot at the buttons: the person flips
    daemon = FakeDaemon(flow)
    for step in range(40):
        dealer.update(daemon, step * 0.1)  # type: ignore[arg-type]
        see(flow, camera.tables["mega-jackpot"].cards)
    assert flow.phase() == "flip" and len(flow.match.log) == 9  # nobody flipped for Ann
    for control in ("hold2", "hold1", "lever"):
        flow.on_input(press(control))
    for step in range(40, 60):
        dealer.update(daemon, step * 0.1)  # type: ignore[arg-type]
        see(flow, camera.tables["mega-jackpot"].cards)
    assert log(flow)[9] == "flip 1 0" and flow.phase() in ("spun", "jackpot")
    assert {entry["source"] for entry in sources(journal, flow)} == {"camera"}


def test_a_card_still_settling_is_never_taken_for_a_flip_or_a_jackpot(tmp_path: Path) -> None:
    flow, _, table = set_up(tmp_path)
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")  # would be three apples
    observations = {zone: Seen(zone, "stable", card) for zone, card in table.items()}
    observations["discard2"] = Seen("discard2", "settling", "apple@apple-genie")
    for _ in range(FLIP * 2):
        flow.on_observations(observations)
    assert len(flow.match.log) == 9 and flow.phase() == "flip" and flow.scores() == (7, 7)
