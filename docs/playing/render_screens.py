"""Render the Bandit, Pay Line and Mega Jackpot cabinet screens of docs/playing.md from the flows' views.

Run from the checkout: ``.venv/bin/python docs/playing/render_screens.py``. Needs no screen (SDL's
dummy drivers). Each picture is a real game driven the way the tests drive it: a
:class:`~companion.session.Session` journaled in a temporary directory, the flow from
``make_flow``, controls as ``InputEvent`` and (table mode) camera readings as observations. The
flow's ``view()`` is drawn at 800x480 once at t=0 and again at t=30 s, so the reels have landed,
and a last time at t=40 s, once a win's coin shower (which starts when the reels land) is over;
then it is saved as a 96-colour PNG next to this script.
"""

from __future__ import annotations

import os

# Before pygame is imported (by companion.screen.display, inside draw()).
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import random  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the checkout, when run as a plain script

from PIL import Image  # noqa: E402

from companion.engine import GameConfig  # noqa: E402
from companion.flows import make_flow  # noqa: E402
from companion.flows.bandit import BanditFlow  # noqa: E402
from companion.flows.pay_line import PayLineFlow  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.session import Session  # noqa: E402
from hardware.events import PRESS, PULL, InputEvent  # noqa: E402

WIDTH, HEIGHT = 800, 480
COLOURS = 96


@dataclass(frozen=True)
class Seen:
    """One camera zone as the tracker reports it (the flows' ``Observation``)."""

    zone: str
    status: str
    card_id: str | None


def press(control: str, kind: str = PRESS) -> InputEvent:
    """A control as the panel sends it (the lever is pulled, the rest are pressed)."""
    return InputEvent(control, PULL if control == "lever" else kind, 0.0)


def grid(cards: dict[str, str], status: str = "stable") -> dict[str, Seen]:
    """Camera readings for Bandit's ``r<row>c<column>`` zones."""
    return {zone: Seen(zone, status, card) for zone, card in cards.items()}


def rows(*symbols: tuple[str, str, str]) -> dict[str, str]:
    """A Bandit grid, row by row, as zone -> card."""
    return {f"r{r}c{c}": card for r, row in enumerate(symbols) for c, card in enumerate(row)}


@contextmanager
def new_flow(game: str, mode: str, seed: int, seats: list[str]) -> Iterator[Any]:
    """A fresh journaled game and its flow (the journal lives in a temporary directory)."""
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal.open(Path(folder) / "journal.sqlite")
        try:
            session = Session.start(journal, GameConfig(game, players=len(seats), seed=seed), seats, mode)
            yield make_flow(session)
        finally:
            journal.close()


def draw(flow: Any, name: str) -> Path:
    """Draw ``flow.view()`` at t=0, t=30 (reels landed) and t=40 (coins fallen), save it small."""
    from companion.screen.display import Display

    path = HERE / f"{name}.png"
    with Display(WIDTH, HEIGHT) as display:
        display.draw(flow.view(), now=0.0)
        display.draw(flow.view(), now=30.0)
        display.draw(flow.view(), now=40.0)
        display.save_png(path)
    Image.open(path).convert("RGB").quantize(colors=COLOURS).save(path, optimize=True)
    return path


# --- Bandit --------------------------------------------------------------------------------

#: The first nine cards the dealer lays for Ann: the middle row wins (bell, wild, bell).
FIRST_GRID = rows(("plum", "bell", "seven"), ("bell", "any", "bell"), ("cherry", "plum", "cherry"))


def bandit_deal() -> Path:
    """Table mode, the first deal: row 1 read, the camera unsure of row 2, column 1."""
    with new_flow("bandit", "table", 5, ["Ann", "Bob"]) as flow:
        assert isinstance(flow, BanditFlow)
        seen = grid({zone: FIRST_GRID[zone] for zone in ("r0c0", "r0c1", "r0c2")})
        seen["r1c0"] = Seen("r1c0", "unsure", "bell")
        flow.on_observations(seen)
        assert flow.session.version == 3 and flow.alert is not None
        return draw(flow, "bandit-deal")


def bandit_claim() -> Path:
    """Table mode: the whole grid read, the middle row claimable."""
    with new_flow("bandit", "table", 5, ["Ann", "Bob"]) as flow:
        assert isinstance(flow, BanditFlow)
        flow.on_observations(grid(FIRST_GRID))
        assert flow.state.claimable == [1]
        return draw(flow, "bandit-claim")


def bandit_manual() -> Path:
    """Table mode: Ann holds columns 1 and 2 and spins; the camera is lost; the dealer enters
    the first card of column 3 with the buttons."""
    with new_flow("bandit", "table", 5, ["Ann", "Bob"]) as flow:
        assert isinstance(flow, BanditFlow)
        flow.on_observations(grid(FIRST_GRID))
        flow.on_input(press("collect"))  # Ann claims the bells: 50 points
        refill = rows(("plum", "bell", "seven"), ("seven", "seven", "plum"), ("cherry", "plum", "cherry"))
        flow.on_observations(grid(refill))
        assert not flow.dealing() and flow.scores()[0] == 50
        flow.on_input(press("hold1"))
        flow.on_input(press("hold2"))
        flow.on_input(press("lever"))
        assert str(flow.match.log[-1]) == "spin 2"
        flow.set_camera(False)
        flow.on_input(press("hold3"))
        flow.on_input(press("hold3"))
        assert flow.manual_symbol() == "bell"
        return draw(flow, "bandit-manual")


def bandit_cabinet() -> Path:
    """Cabinet mode: the Pi dealt; Bob holds the columns the engine's heuristic would."""
    for seed in range(1, 200):
        with new_flow("bandit", "cabinet", seed, ["Ann", "Bob"]) as flow:
            assert isinstance(flow, BanditFlow)
            flow.on_input(press("lever"))
            for _ in range(9):
                flow.tick(0.0)
            if flow.state.claimable:
                continue
            rng = random.Random(seed)
            for _ in range(3):
                event = flow.suggest(rng)
                if event is None or event.control == "lever":
                    break
                flow.on_input(event)
            if len(flow.held) == 2:
                return draw(flow, "bandit-cabinet")
    raise AssertionError("no seed dealt a near win to hold")


# --- Pay Line ------------------------------------------------------------------------------

PAY_LINE_SEATS = ["Ann", "Bob", "Cy"]


def free_roll(flow: PayLineFlow) -> None:
    """Pull the lever and let the three dice land (one per frame)."""
    flow.on_input(press("lever"))
    for _ in range(3):
        flow.tick(0.0)


def first_roll(wanted: Callable[[PayLineFlow], bool], name: str,
               then: Callable[[PayLineFlow], bool] | None = None) -> Path:
    """The first seed whose free roll ``wanted`` accepts (and ``then`` does not refuse), drawn."""
    for seed in range(300):
        with new_flow("pay-line", "cabinet", seed, PAY_LINE_SEATS) as flow:
            assert isinstance(flow, PayLineFlow)
            free_roll(flow)
            if wanted(flow) and (then is None or then(flow)):
                return draw(flow, name)
    raise AssertionError(f"no seed gave the roll for {name}")


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


def pay_line_final() -> Path:
    """A whole three-player game played by the buttons, to the final scores and their chart."""
    with new_flow("pay-line", "cabinet", 9, PAY_LINE_SEATS) as flow:
        assert isinstance(flow, PayLineFlow)
        for step in range(20000):
            if flow.over:
                break
            event = flow.suggest(random.Random(step))
            if event is not None:
                flow.on_input(event)
            flow.tick(0.0)
        assert flow.over
        return draw(flow, "pay-line-final")


# --- Mega Jackpot ----------------------------------------------------------------------------


def mega_jackpot_cabinet() -> Path:
    """Cabinet mode mid-game: a flip that missed, so COLLECT stops or the LEVER pays to spin again.

    The discards the flip did not touch stay still on the screen (and are not marked HELD)."""
    from companion.flows.mega_jackpot import MegaJackpotFlow

    with new_flow("mega-jackpot", "cabinet", 7, ["Ann", "Ben"]) as flow:
        assert isinstance(flow, MegaJackpotFlow)
        rng = random.Random(7)
        for step in range(4000):
            flips = sum(str(action).startswith("flip") for action in flow.match.log)
            if flips >= 12 and "no jackpot" in flow.prompt() and not flow.revealing():
                return draw(flow, "mega-jackpot-cabinet")
            event = flow.suggest(rng)
            if event is not None:
                flow.on_input(event)
            flow.tick(step * 0.05)
    raise AssertionError("the seeded cabinet game never missed a jackpot after a dozen flips")


def main() -> None:
    """Render every picture and print its name and size."""
    paths = [
        bandit_deal(),
        bandit_claim(),
        bandit_manual(),
        bandit_cabinet(),
        first_roll(lambda f: not f.can_take(), "pay-line-pick", pick_odd_die),
        first_roll(PayLineFlow.can_take, "pay-line-jackpot"),
        first_roll(PayLineFlow.can_take, "pay-line-double", double_missed),
        pay_line_final(),
        mega_jackpot_cabinet(),
    ]
    for path in paths:
        print(f"{path.name}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
