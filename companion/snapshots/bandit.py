"""Bandit's pictures (docs/playing.md and the README), from real games of the Bandit flow."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.flows.bandit import BanditFlow
from companion.screen.views import TableView
from companion.snapshots.common import Seen, Shot, new_flow, press, settled

SEATS = ["Ann", "Bob"]


def grid(cards: dict[str, str], status: str = "stable") -> dict[str, Seen]:
    """Camera readings for Bandit's ``r<row>c<column>`` zones."""
    return {zone: Seen(zone, status, card) for zone, card in cards.items()}


def rows(*symbols: tuple[str, str, str]) -> dict[str, str]:
    """A Bandit grid, row by row, as zone -> card."""
    return {f"r{r}c{c}": card for r, row in enumerate(symbols) for c, card in enumerate(row)}


#: The first nine cards the dealer lays for Ann: the middle row wins (bell, wild, bell).
FIRST_GRID = rows(("plum", "bell", "seven"), ("bell", "any", "bell"), ("cherry", "plum", "cherry"))


def deal() -> Shot:
    """Table mode, the first deal: row 1 read, the camera unsure of row 2, column 1."""
    with new_flow("bandit", "table", 5, SEATS) as flow:
        assert isinstance(flow, BanditFlow)
        seen = grid({zone: FIRST_GRID[zone] for zone in ("r0c0", "r0c1", "r0c2")})
        seen["r1c0"] = Seen("r1c0", "unsure", "bell")
        flow.on_observations(seen)
        assert flow.session.version == 3 and flow.alert is not None
        return settled(flow.view())


def claim() -> Shot:
    """Table mode: the whole grid read, the middle row claimable."""
    with new_flow("bandit", "table", 5, SEATS) as flow:
        assert isinstance(flow, BanditFlow)
        flow.on_observations(grid(FIRST_GRID))
        assert flow.state.claimable == [1]
        return settled(flow.view())


def manual() -> Shot:
    """Table mode: Ann holds columns 1 and 2 and spins; the camera is lost; the dealer enters
    the first card of column 3 with the buttons."""
    with new_flow("bandit", "table", 5, SEATS) as flow:
        assert isinstance(flow, BanditFlow)
        flow.on_observations(grid(FIRST_GRID))
        flow.on_input(press("collect"))  # Ann claims the bells: 50 points
        refill = rows(("plum", "bell", "seven"), ("seven", "seven", "plum"), ("cherry", "plum", "cherry"))
        flow.on_observations(grid(refill))
        assert not flow.dealing() and flow.scores()[0] == 50
        for control in ("hold1", "hold2", "lever"):
            flow.on_input(press(control))
        assert str(flow.match.log[-1]) == "spin 2"
        flow.set_camera(False)
        flow.on_input(press("hold3"))
        flow.on_input(press("hold3"))
        assert flow.manual_symbol() == "bell"
        return settled(flow.view())


def _cabinet_deals() -> Iterator[tuple[int, BanditFlow]]:
    """Cabinet games, seed after seed from 1, each right after the lever dealt the first nine cards."""
    for seed in range(1, 200):
        with new_flow("bandit", "cabinet", seed, SEATS) as flow:
            assert isinstance(flow, BanditFlow)
            flow.on_input(press("lever"))
            for _ in range(9):
                flow.tick(0.0)
            yield seed, flow


def cabinet() -> Shot:
    """Cabinet mode: the Pi dealt; Bob holds the columns the engine's heuristic would."""
    for seed, flow in _cabinet_deals():
        if flow.state.claimable:
            continue
        rng = random.Random(seed)
        for _ in range(3):
            event = flow.suggest(rng)
            if event is None or event.control == "lever":
                break
            flow.on_input(event)
        if len(flow.held) == 2:
            return settled(flow.view())
    raise AssertionError("no seed dealt a near win to hold")


def _first_cabinet_win() -> TableView:
    """The view of the first cabinet deal that shows a winning row."""
    for _, flow in _cabinet_deals():
        view = flow.view()
        if flow.state.claimable and isinstance(view, TableView):
            return view
    raise AssertionError("no seed dealt a winning row")


def win_coins() -> Shot:
    """Cabinet: the reels land on a winning row and the coins are in the air (README)."""
    return settled(_first_cabinet_win(), times=(0.0, 3.9))


def spinning() -> Shot:
    """Cabinet: the deal a moment after the lever, the last reels still turning."""
    return settled(_first_cabinet_win(), times=(0.0, 1.1))
