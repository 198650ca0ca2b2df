"""Jackpot Payout's pictures (docs/playing.md), from real games of its flow."""

from __future__ import annotations

import random

from companion.flows.jackpot_payout import JackpotPayoutFlow
from companion.snapshots.common import Seen, Shot, new_flow, press, settled

SEATS = ["Ann", "Ben"]
#: A display of seven regular cards, none of them Special.
DISPLAY = ["int-grapes-1", "int-crown-2", "int-shamrock-3", "int-diamond-4", "int-cherries-1",
           "int-grapes-cherries-1", "int-wild-1"]


def reels(cards: list[str | None]) -> dict[str, Seen]:
    """The three reel zones as the camera reads them."""
    return {f"reel{i}": Seen(f"reel{i}", "stable" if card else "empty", card) for i, card in enumerate(cards)}


def enter(flow: JackpotPayoutFlow, card: str) -> None:
    """Enter ``card`` by hand: HOLD3 steps to it, COLLECT confirms."""
    for _ in range(200):
        if flow.manual_card() == card:
            break
        flow.on_input(press("hold3"))
    assert flow.manual_card() == card
    flow.on_input(press("collect"))


def choose(flow: JackpotPayoutFlow, action: str) -> None:
    """Step the hold buttons to ``action`` and do it."""
    for _ in range(100):
        chosen = flow.chosen()
        if chosen is not None and str(chosen) == action:
            break
        flow.on_input(press("hold3"))
    assert str(flow.chosen()) == action
    flow.on_input(press("collect"))


def _wild_revealed(flow: JackpotPayoutFlow) -> None:
    """The display entered by hand; Ann reveals two grapes and Improve the Odds (a wild)."""
    for card in DISPLAY:
        enter(flow, card)
    flow.on_observations(reels(["start-grapes", "start-grapes", "start-improve-the-odds"]))
    assert flow.state.step == "improve-the-odds"


def ability() -> Shot:
    """Table mode: Improve the Odds waits for Ann to choose the card it removes."""
    with new_flow("jackpot-payout", "table", 5, SEATS) as flow:
        assert isinstance(flow, JackpotPayoutFlow)
        _wild_revealed(flow)
        return settled(flow.view())


def jackpot() -> Shot:
    """Table mode: the ability resolved, the wild completes the grapes jackpot and the bank pays."""
    with new_flow("jackpot-payout", "table", 5, SEATS) as flow:
        assert isinstance(flow, JackpotPayoutFlow)
        _wild_revealed(flow)
        choose(flow, "improve deck start-shamrock")
        return settled(flow.view())


def display_check() -> Shot:
    """Table mode: no pair, and the table entered a Special card as taken: refused."""
    with new_flow("jackpot-payout", "table", 5, SEATS) as flow:
        assert isinstance(flow, JackpotPayoutFlow)
        for card in ["int-second-chance-crown", *DISPLAY[1:]]:
            enter(flow, card)
        flow.on_observations(reels(["start-grapes", "start-crown", "start-shamrock"]))
        choose(flow, "take 0")
        assert flow.alert is not None
        return settled(flow.view())


def solo_house() -> Shot:
    """Cabinet, solo: a House card came up, The House took its coins, display cards are to go."""
    with new_flow("jackpot-payout", "cabinet", 2, ["Ann"]) as flow:
        assert isinstance(flow, JackpotPayoutFlow)
        for _ in range(20000):
            if flow.state.house and not flow.over and "remove" in flow.prompt().lower():
                return settled(flow.view())
            event = flow.suggest(random.Random(f"2:{flow.session.version}"))
            if event is not None:
                flow.on_input(event)
            flow.tick(0.0)
    raise AssertionError("the seeded solo game never paid The House")
