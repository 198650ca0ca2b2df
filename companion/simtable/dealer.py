"""The simulated table's dealer: lays real-looking cards where the flow asks, like a person would.

Used by ``companion demo`` and by ``companion run`` off the Pi (the simulated camera), so table
mode runs the whole stack: the dealer places printed cards on :class:`vision.simulated.SimulatedTable`,
the camera thread reads its frames, vision identifies the cards, the flow turns stable readings
into engine reveals. The dealer draws what to lay from the engine's own odds with its seed,
keeps claimed cards off the table, presses COLLECT when a new card looks like the one beneath,
straightens a card the camera is unsure of, and after that corrects by the buttons.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import Action, SeededResolver
from companion.flows.bandit import BanditFlow, zone_of
from companion.simtable.seat import Companion
from hardware.events import PRESS, InputEvent

#: Seconds the dealer waits for the camera before straightening a card, then correcting it by hand.
CONFIRM_AFTER = 1.0
STRAIGHTEN_AFTER = 3.0
CORRECT_AFTER = 5.0
#: Other games' simulated dealers, built on first use: game id -> (module, class); each class
#: takes ``(camera, seed=...)`` and has ``update(daemon, now)`` like :class:`SimDealer`.
GAME_DEALERS: dict[str, tuple[str, str]] = {
    "jackpot-payout": ("companion.simtable.jackpot_payout", "JackpotPayoutDealer"),
    "mega-jackpot": ("companion.simtable.mega_jackpot", "MegaJackpotDealer"),
    "thanks-a-lottery": ("companion.simtable.thanks_a_lottery", "LotteryDealer"),
}


def next_help(waited: float, entering: bool, straightened: bool, straighten_after: float,
              correct_after: float) -> str:
    """What a simulated player does about a card the camera has not taken yet, like a person:
    ``"wait"``, ``"straighten"`` it once, then ``"enter"`` it by buttons (at once if entry is open).

    >>> [next_help(t, False, s, 3.0, 5.0) for t, s in ((1, False), (4, False), (4, True), (6, True))]
    ['wait', 'straighten', 'wait', 'enter']
    """
    if entering:
        return "enter"
    if waited < straighten_after:
        return "wait"
    if not straightened:
        return "straighten"
    return "wait" if waited < correct_after else "enter"


class SimulatedCamera:
    """The camera of ``make run`` and the demo: one :class:`vision.simulated.SimulatedTable` per
    game, built when the camera thread first opens it (so a vision failure is a camera fault the
    game survives, not a crash).

    ``taught``: game id -> card id -> pictures (:func:`vision.taught_art.taught_art`); that
    game's table lays those pictures instead of our printed cards (``companion demo --taught``).
    """

    def __init__(self, seed: int = 0, taught: dict[str, dict[str, list[Any]]] | None = None) -> None:
        self.seed = seed
        self.taught = taught or {}
        self.tables: dict[str, Any] = {}

    def __call__(self, game_id: str) -> Any:
        """Open (or reopen) the simulated table of ``game_id`` as a frame source."""
        if game_id not in self.tables:
            from vision.simulated import SimulatedTable

            self.tables[game_id] = SimulatedTable(game_id, seed=self.seed, taught=self.taught.get(game_id))
        return self.tables[game_id]


class SimDealer:
    """Deals Bandit on a simulated table (other games' table modes have no flow yet)."""

    def __init__(self, camera: SimulatedCamera, seed: int = 0, straighten_after: float = STRAIGHTEN_AFTER,
                 correct_after: float = CORRECT_AFTER) -> None:
        self.camera = camera
        self.straighten_after = straighten_after
        self.correct_after = correct_after
        self.table: Any = None
        self.rng = random.Random(seed)
        self.seed = seed
        self._game_dealers: dict[str, Any] = {}
        self._deal_start = -1
        self._deal_stacks: tuple[int, ...] = ()
        self._dealt: dict[str, str] = {}
        self._since = 0.0
        self._straightened = False
        self._on_table: dict[str, str | None] = {}

    def _lay(self, zone: str, card: str | None) -> None:
        if self.table is None:
            return  # the camera has not opened the table (yet): the cards go in by buttons
        if self._on_table.get(zone, None) != card:
            self.table.place(zone, card)
            self._on_table[zone] = card

    def update(self, daemon: Companion, now: float) -> None:
        """Keep the table matching the game; deal what the flow waits for."""
        flow = daemon.flow
        game_id = getattr(flow, "game_id", "")
        if game_id in GAME_DEALERS:
            if game_id not in self._game_dealers:
                import importlib

                module, name = GAME_DEALERS[game_id]
                self._game_dealers[game_id] = getattr(importlib.import_module(module), name)(
                    self.camera, seed=self.seed)
            self._game_dealers[game_id].update(daemon, now)
            return
        if not isinstance(flow, BanditFlow) or not flow.table_mode or flow.over:
            return
        self.table = self.camera.tables.get(flow.game_id)
        state = flow.state
        pending = tuple(state.pending) if flow.dealing() else ()
        if not pending:
            self._deal_start, self._deal_stacks = -1, ()
        elif not self._same_deal(flow, pending):
            self._dealt = self._draw(flow, list(pending), self.rng)
            self._deal_start, self._deal_stacks = flow.session.version, pending
            self._since = now
            self._straightened = False
        for stack in range(9):
            zone = zone_of(stack)
            if stack in pending:
                self._lay(zone, self._dealt.get(zone))
            else:
                cards = state.stacks[stack]
                self._lay(zone, cards[-1] if cards else None)
        if not pending:
            return
        if not flow.camera_ok:
            self._enter_by_buttons(daemon, flow, now)
            return
        if self.table is None:
            return  # the camera is still opening the table
        if not flow.dealt_confirmed and flow.manual is None:
            daemon.dispatch(InputEvent("collect", PRESS, now))  # "the cards are down"
        if now - self._since > min(CONFIRM_AFTER, self.straighten_after):
            self._help(daemon, flow, now)

    def _same_deal(self, flow: BanditFlow, pending: tuple[int, ...]) -> bool:
        """Whether ``pending`` is what is left of the deal this dealer last dealt."""
        revealed = flow.session.version - self._deal_start
        return 0 <= revealed <= len(self._deal_stacks) and self._deal_stacks[revealed:] == pending

    def planned(self, flow: BanditFlow) -> dict[str, str]:
        """The cards this dealer lays for the flow's current deal, by zone: the ones it dealt, or,
        for a deal it has not seen yet (the flow began it since the dealer's last turn), the ones
        it will draw for it (``bench misreads`` judges a camera reveal against them)."""
        pending = tuple(flow.state.pending) if flow.dealing() else ()
        if not pending:
            return {}
        if self._same_deal(flow, pending):
            return dict(self._dealt)
        return self._draw(flow, list(pending), copy.deepcopy(self.rng))

    @staticmethod
    def _draw(flow: BanditFlow, pending: list[int], rng: random.Random) -> dict[str, str]:
        """Draw the cards for ``pending`` from the deck with the engine's odds, in dealing order."""
        clone = copy.deepcopy(flow.match)
        resolver = SeededResolver(rng)
        dealt: dict[str, str] = {}
        for stack in pending:
            point = clone.chance_point
            if point is None:
                break
            card = resolver.resolve(point)
            clone.apply(Action.reveal(card))
            dealt[zone_of(stack)] = card
        return dealt

    def _help(self, daemon: Companion, flow: BanditFlow, now: float) -> None:
        """The camera has not taken the deal yet: confirm, straighten, then enter by buttons."""
        zone = zone_of(flow.state.pending[0])
        wanted = self._dealt.get(zone)
        if wanted is None:
            return
        step = next_help(now - self._since, flow.manual is not None, self._straightened,
                         self.straighten_after, self.correct_after)
        if step == "straighten":
            self.table.place(zone, wanted)  # lay it again, a little differently
            self._straightened = True
        elif step == "enter":
            self._enter_by_buttons(daemon, flow, now)

    def _enter_by_buttons(self, daemon: Companion, flow: BanditFlow, now: float) -> None:
        """Enter the next card by hand: HOLD3 steps to the card dealt, COLLECT confirms it."""
        wanted = self._dealt.get(zone_of(flow.state.pending[0]))
        if wanted is None:
            return
        if flow.manual is None or flow.manual_symbol() != wanted:
            daemon.dispatch(InputEvent("hold3", PRESS, now))
        else:
            daemon.dispatch(InputEvent("collect", PRESS, now))
            self._since = now
            self._straightened = False
