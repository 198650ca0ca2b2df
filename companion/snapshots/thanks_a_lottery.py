"""Thanks a Lottery's pictures (docs/playing.md), from real games of its flow."""

from __future__ import annotations

import random

from companion.flows.thanks_a_lottery import ThanksALotteryFlow
from companion.flows.thanks_a_lottery_table import ZONES
from companion.screen.views import LotteryDrawView
from companion.snapshots.common import Seen, Shot, new_flow, press, settled

SEATS = ["Ann", "Ben"]


def mat(*rows: tuple[str, ...]) -> dict[str, Seen]:
    """The mat's three block rows holding ``rows`` (missing rows are empty), as the camera reads them."""
    out = {}
    for index, zone in enumerate(ZONES):
        cards = rows[index] if index < len(rows) else ()
        out[zone] = Seen(zone, "stable" if cards else "empty", None, tuple(sorted(cards)))
    return out


def _confirmed(flow: ThanksALotteryFlow, *cards: str) -> None:
    """The player on turn lays ``cards``, COLLECT confirms, and the mat is cleared."""
    flow.on_observations(mat(cards))
    flow.on_input(press("collect"))
    flow.on_observations(mat())


def confirm() -> Shot:
    """Table mode: Ann and Ben have a block each; Ann lays a 6 next to hers, waiting for COLLECT."""
    with new_flow("thanks-a-lottery", "table", 5, SEATS) as flow:
        assert isinstance(flow, ThanksALotteryFlow)
        flow.on_input(press("lever"))  # the dealer rolls the pool
        _confirmed(flow, "3", "4", "5")
        _confirmed(flow, "1", "1", "1")
        flow.on_observations(mat(("6",)))
        assert flow.options and "COLLECT" in flow.prompt()
        return settled(flow.view())


def refused() -> Shot:
    """Table mode: Ann lays 3 5 6, which is no block."""
    with new_flow("thanks-a-lottery", "table", 5, SEATS) as flow:
        assert isinstance(flow, ThanksALotteryFlow)
        flow.on_input(press("lever"))
        flow.on_observations(mat(("3", "5", "6")))
        assert not flow.options and flow.alert is not None
        return settled(flow.view())


def lottery() -> Shot:
    """Cabinet, three players: round 1's lottery drawn, with the round's scores."""
    with new_flow("thanks-a-lottery", "cabinet", 5, ["Ann", "Ben", "Cy"]) as flow:
        assert isinstance(flow, ThanksALotteryFlow)
        rng = random.Random(2)
        for _ in range(20000):
            view = flow.view()
            if isinstance(view, LotteryDrawView) and flow.last_lottery is not None:
                return settled(view, times=(0.0, 30.0))
            event = flow.suggest(rng)
            if event is not None:
                flow.on_input(event)
            flow.tick(0.0)
    raise AssertionError("the seeded cabinet game never reached its first lottery")


def cabinet() -> Shot:
    """Cabinet: Ann's hand on the reels, HOLD3 has stepped to a move she can make."""
    with new_flow("thanks-a-lottery", "cabinet", 5, SEATS) as flow:
        assert isinstance(flow, ThanksALotteryFlow)
        flow.on_input(press("lever"))
        for _ in range(5):
            flow.tick(0.0)
        assert flow.seat() == 0 and flow.browse()
        flow.on_input(press("hold3"))
        return settled(flow.view())
