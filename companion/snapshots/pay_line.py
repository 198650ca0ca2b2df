"""Pay Line's pictures (docs/playing.md, docs/screens and the README), from real cabinet games."""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.flows.pay_line import PayLineFlow
from companion.snapshots.common import Shot, new_flow, press, settled

SEATS = ["Ann", "Bob", "Cy"]


def free_roll(flow: PayLineFlow) -> None:
    """Pull the lever and let the three dice land (one per frame)."""
    flow.on_input(press("lever"))
    for _ in range(3):
        flow.tick(0.0)


def first_roll(wanted: Callable[[PayLineFlow], bool],
               then: Callable[[PayLineFlow], bool] | None = None) -> Shot:
    """The first seed whose free roll ``wanted`` accepts (and ``then`` does not refuse)."""
    for seed in range(300):
        with new_flow("pay-line", "cabinet", seed, SEATS) as flow:
            assert isinstance(flow, PayLineFlow)
            free_roll(flow)
            if wanted(flow) and (then is None or then(flow)):
                return settled(flow.view())
    raise AssertionError("no seed gave the roll asked for")


def pick_odd_die(flow: PayLineFlow) -> bool:
    """Two dice alike and one not: pick the odd one out for a re-roll, as a player would."""
    dice = list(flow.state.dice)
    odd = [die for die in range(3) if dice.count(dice[die]) == 1]
    if len(set(dice)) != 2 or len(odd) != 1:
        return False
    flow.on_input(press(f"hold{odd[0] + 1}"))
    return flow.picked == {odd[0]}


def double_missed(flow: PayLineFlow) -> bool:
    """START goes double or nothing; keep the roll only when it is not the same colour again."""
    flow.on_input(press("start"))
    for _ in range(3):
        flow.tick(0.0)
    return flow.state.doubling is not None and not flow.can_take()


def pick() -> Shot:
    """Two alike and one not: the odd die picked for a re-roll."""
    return first_roll(lambda flow: not flow.can_take(), pick_odd_die)


def jackpot() -> Shot:
    """A jackpot: take the box, or go double or nothing."""
    return first_roll(PayLineFlow.can_take)


def double() -> Shot:
    """Double or nothing, and the re-roll missed."""
    return first_roll(PayLineFlow.can_take, double_missed)


def final() -> Shot:
    """A whole three-player game played by the buttons, to the final scores and their chart."""
    with new_flow("pay-line", "cabinet", 9, SEATS) as flow:
        assert isinstance(flow, PayLineFlow)
        for step in range(20000):
            if flow.over:
                break
            event = flow.suggest(random.Random(step))
            if event is not None:
                flow.on_input(event)
            flow.tick(0.0)
        assert flow.over
        return settled(flow.view())
