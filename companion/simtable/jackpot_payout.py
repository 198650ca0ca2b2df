"""The simulated table for Jackpot Payout: the active player reveals their cards on the reels.

Used by ``companion demo --game jackpot-payout`` and ``make run`` off the Pi (through
:data:`companion.simtable.dealer.GAME_DEALERS`). Like a player at the table it:

- clears the reel slots at the start of a spin (last turn's cards go to the discard pile),
  then lays the three cards drawn from the engine's own odds with its seed, and presses COLLECT
  ("cards down") so a card that looks like the one before it still counts once the camera settles;
- straightens a card the camera has not taken after a while, then enters it by the buttons;
- enters by the buttons what the mat has no zone for (new display cards, the top card an
  ability reveals), and everything when the camera is down.

Decisions are the players' (the demo's bot at the buttons), not the dealer's.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import Action, SeededResolver
from companion.flows.jackpot_payout import REEL_ZONES, JackpotPayoutFlow
from companion.simtable.dealer import next_help
from companion.simtable.seat import Companion
from hardware.events import PRESS, InputEvent

#: Seconds the slots stay empty before a spin's cards are laid (the camera sees them cleared).
CLEAR_SECONDS = 0.8
STRAIGHTEN_AFTER = 3.0
CORRECT_AFTER = 5.0
#: Presses per frame while stepping to a card by hand (a person is quick with a familiar deck).
PRESSES_PER_FRAME = 40


class JackpotPayoutDealer:
    """Plays the physical side of Jackpot Payout's table mode on a simulated table."""

    def __init__(self, camera: Any, seed: int = 0, straighten_after: float = STRAIGHTEN_AFTER,
                 correct_after: float = CORRECT_AFTER) -> None:
        self.camera = camera
        self.rng = random.Random(seed)
        self.straighten_after = straighten_after
        self.correct_after = correct_after
        self.table: Any = None
        self._on_table: dict[str, str | None] = {}
        #: the spin being laid: its cards by zone, when it began, whether they lie there yet
        self._spin: dict[str, str] = {}
        self._spin_at = 0.0
        self._spin_version = -1
        self._laid = False
        self._straightened = False
        #: the card drawn for a chance point entered by hand, by log position
        self._wanted: tuple[int, str] | None = None

    def _lay(self, zone: str, card: str | None) -> None:
        if self.table is not None and self._on_table.get(zone) != card:
            self.table.place(zone, card)
            self._on_table[zone] = card

    def update(self, daemon: Companion, now: float) -> None:
        """Keep the reels on the table matching the game; reveal what the flow waits for."""
        flow = daemon.flow
        if not isinstance(flow, JackpotPayoutFlow) or not flow.table_mode or flow.over:
            return
        self.table = self.camera.tables.get(flow.game_id)
        if not flow.revealing():
            self._spin = {}
            for zone, card in zip(REEL_ZONES, flow.in_play(), strict=False):
                self._lay(zone, card)  # Second Chance and kept Stuck Reels move cards on the reels
            return
        if not flow.reading_reels():
            self._enter(daemon, flow, now, self._wanted_card(flow))
            return
        fresh = not flow.state.revealed and flow.session.version != self._spin_version
        # A plan is one reveal per zone from where it was made; past that the game has moved on
        # (Second Chance put the replaced card back on top, and the next spin revealed it at once:
        # by zone alone that spin looked like the old one, and the dealer waited for it forever).
        stale = flow.session.version > self._spin_version + len(self._spin)
        if fresh or stale or REEL_ZONES[flow.next_reel()] not in self._spin:
            # A new spin (in the Final Showdown one follows a jackpot); or one that began with
            # cards already known (Filter 2 or Second Chance put them back on top of the deck: the
            # engine reveals those at once, and only the rest of the reels are drawn).
            self._begin_spin(flow, now)
        if not flow.camera_ok or self.table is None:
            self._enter(daemon, flow, now, self._spin.get(REEL_ZONES[flow.next_reel()]))
            return
        if not self._laid:
            if now - self._spin_at < CLEAR_SECONDS:
                return
            for zone, card in self._spin.items():
                self._lay(zone, card)
            self._laid = True
            daemon.dispatch(InputEvent("collect", PRESS, now))  # "cards down"
            return
        self._help(daemon, flow, now)

    def _begin_spin(self, flow: JackpotPayoutFlow, now: float) -> None:
        """Draw this spin's cards from the deck with the engine's odds; clear their slots."""
        clone = copy.deepcopy(flow.match)
        resolver = SeededResolver(self.rng)
        self._spin = {}
        for zone in flow.zones():
            point = clone.chance_point
            if point is None or point.kind != "reel":
                break
            card = resolver.resolve(point)
            clone.apply(Action.reveal(card))
            self._spin[zone] = card
        for zone in self._spin:
            self._lay(zone, None)
        for zone, card in zip(REEL_ZONES, flow.in_play(), strict=False):
            if zone not in self._spin:
                self._lay(zone, card)  # the cards this spin already revealed lie on their reels
        self._spin_at, self._laid, self._straightened = now, False, False
        self._spin_version = flow.session.version

    def _wanted_card(self, flow: JackpotPayoutFlow) -> str | None:
        point = flow.point()
        if point is None:
            return None
        if self._wanted is None or self._wanted[0] != flow.session.version:
            self._wanted = (flow.session.version, SeededResolver(self.rng).resolve(point))
        return self._wanted[1]

    def _help(self, daemon: Companion, flow: JackpotPayoutFlow, now: float) -> None:
        """The camera has not taken the next card yet: straighten it, then enter it by hand."""
        zone = REEL_ZONES[flow.next_reel()]
        wanted = self._spin.get(zone)
        if wanted is None:
            return
        step = next_help(now - self._spin_at, flow.manual is not None, self._straightened,
                         self.straighten_after, self.correct_after)
        if step == "straighten":
            self.table.place(zone, wanted)  # lay it again, a little differently
            self._straightened = True
        elif step == "enter":
            self._enter(daemon, flow, now, wanted)

    def _enter(self, daemon: Companion, flow: JackpotPayoutFlow, now: float, wanted: str | None) -> None:
        """HOLD3 steps to ``wanted``, then COLLECT confirms it (on the next frame)."""
        if wanted is None or wanted not in flow.outcomes():
            return
        for _ in range(PRESSES_PER_FRAME):
            if flow.entering() and flow.manual_card() == wanted:
                daemon.dispatch(InputEvent("collect", PRESS, now))
                self._spin_at, self._straightened = now, False
                return
            daemon.dispatch(InputEvent("hold3", PRESS, now))
