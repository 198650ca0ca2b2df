"""Jackpot Payout's flow: reel cards read by the camera, everything else by the buttons.

Table mode: a reel card counts only when the tracker says it is stable, it is new, and the
engine finds it in that player's deck; otherwise the screen says which reel and what to do.
Display and ability cards are entered by hand; what is taken from the display is checked.
Cabinet mode: the lever spins, the Pi deals the rest; solo, the Pi plays The House.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.engine import Action, GameConfig, SeededResolver, replay
from companion.flows import make_flow
from companion.flows.jackpot_payout import JackpotPayoutFlow
from companion.journal import Journal
from companion.screen.views import FinalScoresView, PayoutPanel, TableView
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent

#: A display of seven regular cards, none of them Special.
DISPLAY = ["int-grapes-1", "int-crown-2", "int-shamrock-3", "int-diamond-4", "int-cherries-1",
           "int-grapes-cherries-1", "int-wild-1"]


@dataclass(frozen=True)
class Seen:
    zone: str
    status: str
    card_id: str | None


def press(control: str) -> InputEvent:
    return InputEvent(control, PULL if control == "lever" else PRESS, 0.0)


def new_flow(tmp_path: Path, mode: str, players: int = 2, seed: int = 5) -> tuple[JackpotPayoutFlow, Journal]:
    journal = Journal.open(tmp_path / "j.sqlite")
    names = ["Ann", "Ben", "Cid", "Dee"][:players]
    session = Session.start(journal, GameConfig("jackpot-payout", players=players, seed=seed), names, mode)
    flow = make_flow(session)
    assert isinstance(flow, JackpotPayoutFlow)
    return flow, journal


def enter(flow: JackpotPayoutFlow, card: str) -> None:
    """Enter ``card`` by hand: HOLD3 steps to it, COLLECT confirms."""
    for _ in range(200):
        if flow.manual_card() == card:
            break
        flow.on_input(press("hold3"))
    assert flow.manual_card() == card
    flow.on_input(press("collect"))


def reels(cards: list[str | None], status: str = "stable") -> dict[str, Seen]:
    return {f"reel{i}": Seen(f"reel{i}", status if card else "empty", card) for i, card in enumerate(cards)}


def choose(flow: JackpotPayoutFlow, action: str) -> None:
    """Step the hold buttons to ``action`` and do it."""
    for _ in range(100):
        chosen = flow.chosen()
        if chosen is not None and str(chosen) == action:
            break
        flow.on_input(press("hold3"))
    assert str(flow.chosen()) == action
    flow.on_input(press("collect"))


def dealt_table(tmp_path: Path, players: int = 2) -> tuple[JackpotPayoutFlow, Journal]:
    flow, journal = new_flow(tmp_path, "table", players)
    for card in DISPLAY:
        assert flow.entering() and "display pile" in flow.prompt()
        enter(flow, card)
    assert flow.state.display == DISPLAY
    return flow, journal


def observations(journal: Journal, flow: JackpotPayoutFlow) -> list[dict[str, object]]:
    entries = journal.entries(flow.session.game_id)
    return [json.loads(text) for _, kind, text, _ in entries if kind == "observation"]


def test_a_cabinet_game_played_by_the_buttons_ends_and_matches_the_journal(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "cabinet", players=3, seed=4)
    for _ in range(7):
        flow.tick(0.0)  # the Pi deals the display by itself
    assert flow.prompt() == "Ann: pull the lever to spin"
    assert flow.lamps()["lever"] == "blink" and flow.lamps()["collect"] == "off"
    for _ in range(20000):
        if flow.over:
            break
        event = flow.suggest(random.Random(f"1:{flow.session.version}"))
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
    assert flow.over and isinstance(flow.view(), FinalScoresView)
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
    assert journal.game(flow.session.game_id).status == "finished"
    assert flow.state.in_showdown  # every multiplayer game ends with the Final Showdown


def test_solo_in_cabinet_mode_the_pi_plays_the_house(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "cabinet", players=1, seed=2)
    house_paid = False
    for _ in range(20000):
        if flow.over:
            break
        event = flow.suggest(random.Random(f"2:{flow.session.version}"))
        if event is not None:
            flow.on_input(event)
        flow.tick(0.0)
        if not flow.over and flow.state.house and not house_paid:
            house_paid = True
            view = flow.view()
            assert isinstance(view, TableView)
            assert view.players[-1].name == "The House" and view.players[-1].score == flow.state.house
    assert flow.over and house_paid
    final = flow.final_view()
    assert "Ann" in final.note and "The House" in final.note


def test_table_mode_enters_the_display_by_buttons_then_reads_the_reels(tmp_path: Path) -> None:
    flow, journal = dealt_table(tmp_path)
    assert flow.zones() == ("reel0", "reel1", "reel2")
    assert flow.prompt() == "Ann: reveal your top three cards on the reels"
    flow.on_observations(reels(["start-grapes", "start-crown", None]))
    assert [str(a) for a in flow.match.log[7:]] == ["reveal start-grapes", "reveal start-crown"]
    assert flow.zones() == ("reel2",)
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert view.reels.reels == (("grapes",), ("crown",), (None,))  # the third reel still spins
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
    assert flow.state.step == "take"  # no jackpot: the display is offered
    sources = [entry["source"] for entry in observations(journal, flow)]
    assert sources == ["buttons"] * 7 + ["camera"] * 3


def test_a_wild_completes_the_jackpot_and_the_bank_pays_it(tmp_path: Path) -> None:
    flow, _ = dealt_table(tmp_path)
    bank = flow.state.bank
    flow.on_observations(reels(["start-grapes", "start-grapes", "start-improve-the-odds"]))
    # Improve the Odds resolves before the jackpot is scored: the player removes a card.
    assert flow.state.step == "improve-the-odds"
    assert flow.prompt().startswith("Ann, Improve the Odds: removes")
    assert flow.lamps()["collect"] == "blink" and flow.lamps()["lever"] == "off"
    choose(flow, "improve deck start-shamrock")
    assert flow.scores() == (2, 0)
    assert flow.state.bank == bank - 2
    view = flow.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert view.reels.win_rows == (0,) and view.reels.payout == 2
    assert view.reels.reels == (("grapes",), ("grapes",), ("wild",))
    assert any(cue.name == "coin" for cue in flow.cues)


def test_an_unsure_card_is_not_revealed_and_the_screen_says_which(tmp_path: Path) -> None:
    flow, _ = dealt_table(tmp_path)
    seen = reels(["start-grapes", "start-crown", "start-diamond"])
    seen["reel1"] = Seen("reel1", "unsure", "start-crown")
    flow.on_observations(seen)
    assert [str(a) for a in flow.match.log[7:]] == ["reveal start-grapes"]
    assert flow.alert is not None and flow.alert.startswith("Reel 2: not sure of that card")


def test_a_card_the_deck_cannot_hold_is_refused_and_corrected_by_the_buttons(tmp_path: Path) -> None:
    flow, journal = dealt_table(tmp_path)
    flow.on_observations(reels(["int-crown-4", None, None]))  # a display card, not in Ann's deck
    assert len(flow.match.log) == 7
    assert flow.alert is not None and "Reel 1 reads Crown (4 coins), which is not in Ann's deck" in flow.alert
    assert flow.cues[-1].name == "error"
    flow.on_input(press("hold3"))  # enter it by hand instead
    assert flow.entering() and flow.lamps()["back"] == "on"
    enter(flow, "start-crown")
    assert str(flow.match.log[-1]) == "reveal start-crown"
    last = observations(journal, flow)[-1]
    assert last == {"version": 7, "zone": "reel0", "card": "start-crown", "source": "buttons", "for": "reel",
                    "camera": "int-crown-4"}
    assert not flow.entering()  # back to the camera for the next reel


def test_last_turns_card_is_not_read_again_until_the_slot_was_cleared(tmp_path: Path) -> None:
    flow, _ = dealt_table(tmp_path)
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
    choose(flow, "done")  # Ann takes nothing
    assert flow.state.current == 1 and flow.zones() == ("reel0", "reel1", "reel2")
    # Ben's cards: the camera still sees Ann's; nothing is revealed from them.
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
    assert flow.state.step == "reveal" and not flow.state.revealed
    # Ben lays a different card on reel 1, the same crown on reel 2 after clearing it.
    flow.on_observations(reels(["start-diamond", None, "start-shamrock"]))
    assert [str(a) for a in flow.match.log[-1:]] == ["reveal start-diamond"]
    flow.on_observations(reels(["start-diamond", "start-crown", "start-shamrock"]))
    # reel 3 still shows Ann's shamrock: it waits for COLLECT ("cards down") and a settled camera
    assert len(flow.state.revealed) == 2
    flow.on_input(press("collect"))
    for _ in range(flow.settle_batches):
        flow.on_observations(reels(["start-diamond", "start-crown", "start-shamrock"]))
    assert flow.state.step != "reveal"
    assert [str(a) for a in flow.match.log[-3:]] == ["reveal start-diamond", "reveal start-crown",
                                                       "reveal start-shamrock"]


def test_taking_a_special_card_without_a_pair_is_refused(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    display = ["int-second-chance-crown", *DISPLAY[1:]]
    for card in display:
        enter(flow, card)
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))  # no pair
    assert flow.prompt().startswith("Ann, take 1 card, no Special (no pair):")
    view = flow.view()
    assert isinstance(view, TableView) and isinstance(view.panel, PayoutPanel)
    assert view.panel.display[0].ability == "Second Chance" and view.panel.pairs == ()
    # The table enters what was taken: every pile is offered, the engine checks it.
    choose(flow, "take 0")
    assert flow.alert == "you can only take a Special card after revealing a pair"
    assert flow.state.display[0] == "int-second-chance-crown"
    choose(flow, "take 1")
    assert "int-crown-2" in flow.state.seats[0].discard
    assert flow.state.refill == [1] and "display pile 2" in flow.prompt()  # its replacement, by hand


def test_with_the_camera_lost_the_reels_are_entered_by_buttons(tmp_path: Path) -> None:
    flow, journal = dealt_table(tmp_path)
    flow.set_camera(False)
    assert flow.entering() and "Enter reel 1" in flow.prompt()
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
    assert len(flow.match.log) == 7  # a lost camera's last frames are not trusted
    for card in ("start-grapes", "start-crown", "start-shamrock"):
        enter(flow, card)
    assert flow.state.step == "take"
    assert [entry["source"] for entry in observations(journal, flow)][-3:] == ["buttons"] * 3
    flow.set_camera(True)
    assert flow.manual is None


def play_table_game(flow: JackpotPayoutFlow, seed: int) -> tuple[list[str], tuple[int, ...]]:
    """A whole table game: a seeded 'table' lays what the engine's odds draw; bots decide."""
    rng = random.Random(seed)
    ends: list[str] = []
    at_showdown: tuple[int, ...] = ()
    for _ in range(30000):
        if flow.over:
            break
        view = flow.view()
        assert isinstance(view, TableView) and isinstance(view.panel, PayoutPanel)
        if view.panel.end_trigger and view.panel.end_trigger not in ends:
            ends.append(view.panel.end_trigger)
            if view.panel.end_trigger.startswith("Final Showdown") and not at_showdown:
                at_showdown = flow.scores()
        point = flow.match.chance_point
        if point is not None:
            card = SeededResolver(rng).resolve(point)
            if flow.reading_reels():
                zone = flow.zones()[0]
                # the player clears the slot, then lays the card
                flow.on_observations({zone: Seen(zone, "empty", None)})
                flow.on_observations({zone: Seen(zone, "stable", card)})
            else:
                enter(flow, card)
            continue
        event = flow.suggest(random.Random(f"{seed}:{flow.session.version}"))
        assert event is not None and flow.lamps()[event.control] != "off"
        flow.on_input(event)
    assert flow.over
    return ends, at_showdown


def test_a_whole_table_game_ends_with_the_final_showdown_fewest_coins_first(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table", players=3, seed=8)
    ends, at_showdown = play_table_game(flow, 8)
    assert any(end.startswith("End: ") for end in ends)
    showdowns = [end for end in ends if end.startswith("Final Showdown: ")]
    # The first Final Showdown line names all three, fewest coins first (the order it started in).
    first = showdowns[0].removeprefix("Final Showdown: ").split(", then ")
    assert sorted(first) == ["Ann", "Ben", "Cid"]
    coins = dict(zip(["Ann", "Ben", "Cid"], at_showdown, strict=True))
    assert [coins[name] for name in first] == sorted(coins.values())
    assert replay(flow.session.config, journal.actions(flow.session.game_id)).state == flow.match.state
    reveals = sum(1 for action in flow.match.log if action.is_reveal)
    assert len(observations(journal, flow)) == reveals


def test_resumed_table_game_keeps_the_cards_on_the_reels(tmp_path: Path) -> None:
    flow, journal = dealt_table(tmp_path)
    flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
    session = Session.resume(journal)
    assert session is not None
    again = make_flow(session)
    assert isinstance(again, JackpotPayoutFlow) and again.status == "resumed"
    assert again.state.step == "take"
    view = again.view()
    assert isinstance(view, TableView) and view.reels is not None
    assert view.reels.reels == (("grapes",), ("crown",), ("shamrock",))


@pytest.mark.parametrize("mode", ["table", "cabinet"])
def test_only_live_controls_glow(tmp_path: Path, mode: str) -> None:
    flow, _ = new_flow(tmp_path, mode)
    lamps = flow.lamps()
    if mode == "table":
        assert {c for c, state in lamps.items() if state != "off"} == {"hold1", "hold2", "hold3", "collect"}
    else:
        assert set(lamps.values()) == {"off"}  # the Pi is dealing the display
    assert Action.of("done") not in flow.choices()


def test_hold2_jumps_to_the_next_symbol_while_entering_a_card(tmp_path: Path) -> None:
    flow, _ = new_flow(tmp_path, "table")
    first = flow.manual_card()
    assert first is not None and flow.game.table.card(first).symbols[0] == "grapes"  # grapes come first
    flow.on_input(press("hold2"))
    card = flow.manual_card()
    assert card is not None and flow.game.table.card(card).symbols[0] == "cherries"
    assert "HOLD2 next symbol" in flow.prompt()


def test_a_display_card_shown_on_a_free_reel_slot_is_offered_by_the_camera(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table")
    flow.on_observations(reels(["int-crown-3", None, None]))
    assert len(flow.match.log) == 0  # only offered: a person confirms
    assert flow.manual_card() == "int-crown-3"
    assert flow.prompt() == ("Enter the new card for display pile 1: Crown (3 coins) (seen on reel 1): "
                             "COLLECT confirms")
    flow.on_input(press("collect"))
    assert flow.state.display[0] == "int-crown-3"
    assert observations(journal, flow)[-1]["camera"] == "int-crown-3"
    # Still lying there, it is not offered for the next pile; once moved away the next one is.
    flow.on_observations(reels(["int-crown-3", None, None]))
    assert flow.offered is None
    flow.on_observations(reels([None, "int-grapes-2", None]))
    assert flow.manual_card() == "int-grapes-2" and flow.offered == "reel1"


def test_solo_at_the_table_the_house_cards_are_read_like_any_card(tmp_path: Path) -> None:
    flow, journal = new_flow(tmp_path, "table", players=1, seed=3)
    play_table_game(flow, 3)
    house_cards = set(flow.state.house_cards)
    read = {str(entry["card"]) for entry in observations(journal, flow) if entry["source"] == "camera"}
    assert house_cards & read  # The House's cards came up on the reels and were read there
    assert flow.state.house > 0
    assert flow.final_view().note.startswith("Ann ")


def test_every_screen_of_a_game_draws(tmp_path: Path) -> None:
    from companion.screen.display import Display

    flow, _ = new_flow(tmp_path, "cabinet", players=1, seed=6)
    display = Display(800, 480)
    try:
        drawn = 0
        for step in range(20000):
            if flow.over:
                break
            event = flow.suggest(random.Random(f"6:{flow.session.version}"))
            if event is not None:
                flow.on_input(event)
            flow.tick(0.0)
            if step % 25 == 0:
                display.draw(flow.view(), step / 10)
                drawn += 1
        display.draw(flow.view(), 1000.0)
        assert flow.over and drawn > 5
    finally:
        display.close()
