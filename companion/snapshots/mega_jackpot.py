"""Mega Jackpot's pictures (docs/playing.md and the README), from real games of its flow.

The table-mode scenes lay the set-up the flow's tests use: piles apple/genie, diamond/carpet,
carpet/genie; discards apple, apple, cherry (a card id is ``front@reel-side``).
"""

from __future__ import annotations

import random
from typing import Any

from companion.flows.mega_jackpot import MegaJackpotFlow
from companion.screen.views import TableView
from companion.snapshots.common import Seen, Shot, new_flow, press, settled

SEATS = ["Ann", "Ben"]

SETUP: dict[str, str | None] = {
    "pile0": "apple/genie", "pile1": "diamond/carpet", "pile2": "carpet/genie",
    "discard0": "apple@apple-cherry", "discard1": "apple@apple-diamond", "discard2": "cherry@cherry-genie",
}
#: Shot a single new card on a discard takes to count as a flip (a second card may follow).
FLIP = 13


def see(flow: MegaJackpotFlow, table: dict[str, str | None], times: int = 1) -> None:
    """The camera reports the table ``times`` frames in a row."""
    observations = {zone: Seen(zone, "stable" if card else "empty", card) for zone, card in table.items()}
    for _ in range(times):
        flow.on_observations(observations)


def set_up(flow: Any) -> dict[str, str | None]:
    """The three piles and discards laid and read; Ann is to flip."""
    assert isinstance(flow, MegaJackpotFlow)
    table = dict(SETUP)
    see(flow, table)
    assert flow.phase() == "flip"
    return table


def flip() -> Shot:
    """Table mode with the tiles: waiting for Ann's flip, the odds advisor listing the best."""
    with new_flow("mega-jackpot", "table", 4, SEATS, ("tiles",)) as flow:
        set_up(flow)
        return settled(flow.view())


def _jackpot(flow: MegaJackpotFlow) -> None:
    table = set_up(flow)
    table.update(discard2="apple@apple-genie", pile0="cherry/genie")  # pile 1 onto discard 3: apples
    see(flow, table, FLIP)
    assert flow.phase() == "jackpot"


def jackpot() -> Shot:
    """Three apples: COLLECT cashes out, the LEVER bets them on a tile."""
    with new_flow("mega-jackpot", "table", 4, SEATS, ("tiles",)) as flow:
        _jackpot(flow)
        return settled(flow.view())


def tile() -> Shot:
    """The jackpot bet on tray 2: the Pi flips a tile on the screen."""
    with new_flow("mega-jackpot", "table", 4, SEATS, ("tiles",)) as flow:
        _jackpot(flow)
        flow.on_input(press("hold2"))
        flow.on_input(press("lever"))
        view = flow.tile_view()
        assert view is not None
        return settled(view, times=(0.0, 2.0))


def refused() -> Shot:
    """Ann picked pile 1 onto discard 3, and a card of another pile lies there."""
    with new_flow("mega-jackpot", "table", 4, SEATS) as flow:
        table = set_up(flow)
        for control in ("hold1", "hold3", "lever"):
            flow.on_input(press(control))
        table.update(discard2="genie@diamond-genie")
        see(flow, table)
        assert flow.alert is not None and "is not pile 1's" in flow.alert
        return settled(flow.view())


def cabinet() -> Shot:
    """Cabinet mode mid-game: a flip that missed, so COLLECT stops or the LEVER pays to spin again.

    The discards the flip did not touch stay still on the screen (and are not marked HELD)."""
    with new_flow("mega-jackpot", "cabinet", 7, SEATS) as flow:
        assert isinstance(flow, MegaJackpotFlow)
        rng = random.Random(7)
        for step in range(4000):
            flips = sum(str(action).startswith("flip") for action in flow.match.log)
            if flips >= 12 and "no jackpot" in flow.prompt() and not flow.revealing():
                return settled(flow.view())
            event = flow.suggest(rng)
            if event is not None:
                flow.on_input(event)
            flow.tick(step * 0.05)
    raise AssertionError("the seeded cabinet game never missed a jackpot after a dozen flips")


def cabinet_tiles() -> Shot:
    """Cabinet with the tiles, four players, a few turns in: the odds advisor, trays and tiles (README)."""
    with new_flow("mega-jackpot", "cabinet", 11, ["Ann", "Ben", "Cleo", "Dev"], ("tiles",)) as flow:
        assert isinstance(flow, MegaJackpotFlow)
        rng = random.Random(11)
        for step in range(6000):
            flips = sum(str(action).startswith("flip") for action in flow.match.log)
            attempts = sum(str(action).startswith("attempt") for action in flow.match.log)
            view = flow.view()
            if flips >= 10 and attempts and flow.phase() == "flip" and isinstance(view, TableView):
                return settled(view)
            event = flow.suggest(rng)
            if event is not None:
                flow.on_input(event)
            flow.tick(step * 0.05)
    raise AssertionError("the seeded cabinet game never bet on a tile")
