"""Mega Jackpot's simulated table: a player's hands at the piles and discards for the demo.

Used by ``companion demo --game mega-jackpot`` and ``companion run`` off the Pi (through the
Bandit dealer's per-game dispatch) so table mode runs the whole stack: this dealer lays the
printed cards on :class:`vision.simulated.SimulatedTable` (reel sides on the piles, symbol sides
on the discards), the camera thread reads its frames, vision identifies them, the flow infers
the flip and reveals what it shows.

What it plays, like the people at the table would:

- setting up and refilling an emptied discard: the cards the engine's odds draw (seeded);
- the current player's flip, when a bot is at the buttons (the demo; ``play_flips``): the
  engine's heuristic move, the pile's top card onto the discard, the pile showing its next reel
  side; the flow sees which zones changed. With a person at the keyboard (``make run``) the
  person picks the flip (HOLD pile, HOLD discard, LEVER) and the dealer lays those cards;
- a jackpot taken: the three cards leave the discards (the bot at the buttons cashes or bets).

When the camera does not take a card it presses COLLECT ("the card is down"), then lays the
card again, then enters it with the buttons; with the camera gone it enters everything by the
buttons (the flip by HOLD pile, HOLD discard, LEVER).
"""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import Action, SeededResolver
from companion.flows.mega_jackpot import MegaJackpotFlow
from companion.flows.mega_jackpot_table import discard_zone, pile_zone
from companion.simtable.seat import Companion
from hardware.events import PRESS, InputEvent

#: Seconds a player thinks before flipping; before COLLECT, laying again, entering by buttons.
THINK = 0.4
CONFIRM_AFTER = 1.0
STRAIGHTEN_AFTER = 3.0
CORRECT_AFTER = 5.0


class MegaJackpotDealer:
    """Plays Mega Jackpot's cards on a simulated table for the flow to read."""

    def __init__(self, camera: Any, seed: int = 0, straighten_after: float = STRAIGHTEN_AFTER,
                 correct_after: float = CORRECT_AFTER, play_flips: bool | None = None) -> None:
        self.camera = camera
        #: whether the dealer makes the players' flips (None: when the daemon has a bot at the buttons)
        self.play_flips = play_flips
        self.rng = random.Random(seed)
        self.straighten_after = straighten_after
        self.correct_after = correct_after
        self.table: Any = None
        #: the actions the table is playing out now (a flip and its reveals, or pending reveals),
        #: from log position ``plan_start``, and the match as it will be after them
        self.plan: list[Action] = []
        self.plan_start = -1
        self.planned: Any = None
        self._on_table: dict[str, str | None] = {}
        self._version = -1
        self._since = 0.0
        self._confirmed = False
        self._straighten_at = straighten_after

    # --- the table -------------------------------------------------------------------------

    def _lay(self, zone: str, card: str | None, again: bool = False) -> None:
        if self.table is None:
            return  # the camera has not opened the table (yet): the cards go in by buttons
        if again or self._on_table.get(zone) != card:
            self.table.place(zone, card)
            self._on_table[zone] = card

    @staticmethod
    def layout(state: Any) -> dict[str, str | None]:
        """What lies on the mat for an engine state: reel sides on piles, faces on discards."""
        cards: dict[str, str | None] = {}
        for pile, side in enumerate(state.pile_tops):
            cards[pile_zone(pile)] = side.replace("-", "/") if side and state.pile_sizes[pile] else None
        for discard, stack in enumerate(state.discards):
            cards[discard_zone(discard)] = stack[-1] if stack else None
        return cards

    # --- each frame ------------------------------------------------------------------------

    def update(self, daemon: Companion, now: float) -> None:
        """Keep the table matching the game; play the flip and the reveals the flow waits for."""
        flow = daemon.flow
        if not isinstance(flow, MegaJackpotFlow) or not flow.table_mode or flow.over:
            return
        self.table = self.camera.tables.get(flow.game_id)
        version = flow.session.version
        if version != self._version:
            self._version, self._since = version, now
            self._confirmed = False
            self._straighten_at = self.straighten_after
        self._keep_plan(flow, now, self._plays_flips(daemon))
        target = self.planned.state if self.in_plan(flow) else flow.state
        for zone, card in self.layout(target).items():
            self._lay(zone, card)
        if not self.in_plan(flow):
            return
        wanted = self.plan[version - self.plan_start]
        if not flow.camera_ok:
            self._by_buttons(daemon, flow, wanted, now)
        elif self.table is None:
            return  # the camera is still opening the table
        elif flow.pile_question is not None and not wanted.is_reveal:
            daemon.dispatch(InputEvent(f"hold{wanted.int_args()[0] + 1}", PRESS, now))
        else:
            self._help(daemon, flow, wanted, now)

    def in_plan(self, flow: MegaJackpotFlow) -> bool:
        """True while the log is following the plan and has not finished it."""
        if self.planned is None or self.plan_start < 0:
            return False
        done = flow.session.version - self.plan_start
        log = [str(a) for a in flow.match.log[self.plan_start:]]
        return 0 <= done < len(self.plan) and log == [str(a) for a in self.plan[:done]]

    def _plays_flips(self, daemon: Companion) -> bool:
        if self.play_flips is not None:
            return self.play_flips
        return getattr(getattr(daemon, "options", None), "autoplay", None) is not None

    def _keep_plan(self, flow: MegaJackpotFlow, now: float, flips: bool) -> None:
        if self.in_plan(flow):
            return
        phase = flow.phase()
        if phase == "reveal" and flow.state.pending[0].kind != "tile":
            self._make_plan(flow, None)
        elif phase == "flip" and flips and now - self._since >= THINK and flow.pile_question is None:
            action = flow.game.heuristic_action(flow.state, self.rng)
            if action.verb == "flip":
                self._make_plan(flow, action)
        else:
            self.planned, self.plan, self.plan_start = None, [], -1

    def _make_plan(self, flow: MegaJackpotFlow, decision: Action | None) -> None:
        """Play ``decision`` (if any) and every reveal after it on a copy: the cards to lay."""
        clone = copy.deepcopy(flow.match)
        plan: list[Action] = []
        if decision is not None:
            clone.apply(decision)
            plan.append(decision)
        resolver = SeededResolver(self.rng)
        while clone.chance_point is not None and clone.state.pending[0].kind != "tile":
            action = Action.reveal(resolver.resolve(clone.chance_point))
            clone.apply(action)
            plan.append(action)
        self.planned, self.plan, self.plan_start = clone, plan, flow.session.version

    # --- when the camera does not take it ------------------------------------------------------

    def _help(self, daemon: Companion, flow: MegaJackpotFlow, wanted: Action, now: float) -> None:
        """The camera has not taken the cards yet: COLLECT, lay again what it misreads, then buttons."""
        waited = now - self._since
        if waited < CONFIRM_AFTER:
            return
        if flow.manual is None and not self._confirmed and (wanted.is_reveal or flow.candidate):
            self._confirmed = True
            daemon.dispatch(InputEvent("collect", PRESS, now))  # "the card is down"
            return
        if flow.manual is None and waited >= self._straighten_at:
            self._straighten_at += self.straighten_after
            for zone, card in self.layout(self.planned.state).items():
                seen = flow.observations.get(zone)
                if seen is None or seen.card_id != card:
                    self._lay(zone, card, again=True)  # a little differently, as hands do
            return
        if waited >= self.correct_after:
            self._by_buttons(daemon, flow, wanted, now)

    def _by_buttons(self, daemon: Companion, flow: MegaJackpotFlow, wanted: Action, now: float) -> None:
        """Enter ``wanted`` by the panel: a flip by HOLD pile, HOLD discard, LEVER; a card by
        HOLD3 (next possible card) until it shows, then COLLECT."""
        if not wanted.is_reveal:
            if flow.phase() == "flip":
                daemon.dispatch(flow.buttons_for(wanted))
            return
        point = flow.match.chance_point
        if point is None or flow.state.pending[0].kind == "tile":
            return
        if flow.manual is None:
            daemon.dispatch(InputEvent("hold3", PRESS, now))
            return
        showing = point.outcomes[flow.manual % len(point.outcomes)][0]
        control = "collect" if showing == wanted.args[0] else "hold3"
        daemon.dispatch(InputEvent(control, PRESS, now))
