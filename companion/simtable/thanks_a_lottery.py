"""The simulated players of a Thanks a Lottery table (``companion demo``, ``make run`` off the Pi).

At a real table the hands are paper and secret: the companion never sees them. The simulated
table keeps real hands of its own, drawn with its seed from what is left of the deck (one
card per hidden slot the flow counts: the same deals and draws, different knowledge), chooses
each move with the engine's heuristic applied to those true hands, and lays the cards of the
move on the mat's block rows like a player would. When the screen asks, it confirms with
COLLECT (stepping HOLD3 to the meaning it intended), straightens a card the camera cannot
read, and enters the cards by the buttons when the camera stays unsure or is gone. After a
move it clears the mat (the cards go to their block in front of the owner).

The Pi's own parts (rolling the pool, taking dice by value, finalizing, the lottery) are left
to the button bot (:meth:`ThanksALotteryFlow.suggest`).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from companion.engine import Action
from companion.engine.games.thanks_a_lottery.components import CARD_IDS, WILD
from companion.engine.games.thanks_a_lottery.state import ACT
from companion.flows.thanks_a_lottery import ZONES, ThanksALotteryFlow
from companion.flows.thanks_a_lottery_round import cards_of
from companion.simtable.seat import Companion
from hardware.events import PRESS, InputEvent

#: seconds to wait for the camera before straightening the cards, then entering them by hand
STRAIGHTEN_AFTER = 2.0
ENTER_AFTER = 4.0
#: cards side by side in one block row of the mat
ROW_CARDS = 4

Press = Callable[[str], None]


class LotteryPlayers:
    """The people at a simulated Thanks a Lottery table: true secret hands, cards on the mat."""

    def __init__(self, table: Callable[[], Any], seed: int = 0, straighten_after: float = STRAIGHTEN_AFTER,
                 enter_after: float = ENTER_AFTER) -> None:
        #: returns the :class:`vision.simulated.SimulatedTable` (None while the camera opens it)
        self.table = table
        self.rng = random.Random(seed)
        self.straighten_after = straighten_after
        self.enter_after = enter_after
        self.hands: list[list[str]] = []
        self.deck: Counter[str] = Counter()
        self._round_key: object = None
        self._slots = 0
        self._moves = 0
        self.planned: Action | None = None
        self._seat = 0
        self.laid: list[str] = []
        self._laid_at = 0.0
        self._straightened = False
        self._on_mat: list[list[str]] = [[] for _ in ZONES]

    # --- the true hands --------------------------------------------------------------------

    def _sync(self, flow: ThanksALotteryFlow) -> None:
        """Deal/draw a true card for every hidden slot the flow has counted; forget a finished round."""
        hidden = flow.hidden
        if hidden is None:
            self._round_key = None
            return
        if self._round_key is not hidden.base:
            self._round_key = hidden.base
            self.hands = [[] for _ in range(hidden.state.players)]
            self.deck = Counter(hidden.composition)
            self._slots = self._moves = 0
            self.planned = None
            if hidden.moves:
                self._resume_hands(hidden)
        while self._slots < len(hidden.slot_seats):
            cards = sorted(self.deck.elements())
            card = cards[self.rng.randrange(len(cards))]
            self.deck[card] -= 1
            self.hands[hidden.slot_seats[self._slots]].append(card)
            self._slots += 1
        if self.planned is not None and len(hidden.moves) > self._moves:
            # the flow kept a move since the plan: ours (the dice taken after it are the bot's)
            if hidden.moves[self._moves] == self.planned:
                self._played(flow, self.planned)
            else:
                self.planned, self.laid = None, []

    def _resume_hands(self, hidden: Any) -> None:
        """A restart inside a round: the people kept their hands, so each holds what the flow
        knows they still hold, and a card from the deck for every slot nobody has seen yet
        (dealing afresh would hand back cards already laid in the round's moves)."""
        for card in hidden.known.values():
            self.deck[card] -= 1
        for seat in range(len(self.hands)):
            self.hands[seat] = list(hidden.held_known(seat).elements())
        for slot, seat in enumerate(hidden.slot_seats):
            if slot not in hidden.known:
                cards = sorted(self.deck.elements())
                card = cards[self.rng.randrange(len(cards))]
                self.deck[card] -= 1
                self.hands[seat].append(card)
        self._slots, self._moves = len(hidden.slot_seats), len(hidden.moves)

    def _played(self, flow: ThanksALotteryFlow, action: Action) -> None:
        seat = self._seat
        for card in self.laid:
            self.hands[seat].remove(card)
        if action.verb == "replace":
            self.hands[seat].append(WILD)
        self.planned, self.laid = None, []

    def true_state(self, flow: ThanksALotteryFlow) -> Any:
        """The flow's round with the true hands and deck in place of its filled-in ones."""
        assert flow.hidden is not None
        state = copy.deepcopy(flow.hidden.state)
        state.hands = [sorted(hand) for hand in self.hands]
        state.deck = {card: n for card, n in self.deck.items() if n}
        return state

    # --- the mat ---------------------------------------------------------------------------

    def lay(self, cards: list[str]) -> None:
        """Lay ``cards`` on the block rows, ``ROW_CARDS`` per row (an empty list clears the mat)."""
        table = self.table()
        rows = [cards[i * ROW_CARDS:(i + 1) * ROW_CARDS] for i in range(len(ZONES))]
        for zone, row, before in zip(ZONES, rows, self._on_mat, strict=True):
            if table is not None and row != before:
                table.place_row(zone, row)
        self._on_mat = rows

    # --- a frame -----------------------------------------------------------------------------

    def step(self, flow: ThanksALotteryFlow, now: float, press: Press) -> None:
        """Play the table's part of this moment: lay, confirm, straighten, enter, clear."""
        if flow.over or not flow.table_mode:
            return
        self._sync(flow)
        if flow.phase() != ACT or flow.hidden is None:
            if any(self._on_mat):
                self.lay([])
            return
        if self.planned is None:
            if any(self._on_mat):
                self.lay([])  # the last move's cards go to their block
            if flow.await_clear:
                return
            self._plan(flow, now)
            if self.planned is None:
                return
        if self.planned.verb == "pass":
            press("back")
            return
        if flow.options:
            wanted = self.planned
            if wanted in flow.options:
                if flow.options[flow.cursor % len(flow.options)] == wanted:
                    press("collect")
                else:
                    press("hold3")
            else:
                press("back")  # not what was meant: take the reading back and enter by hand
            return
        if flow.entry is not None:
            self._enter(flow, press)
            return
        waited = now - self._laid_at
        if flow.alert and waited > self.straighten_after and not self._straightened:
            self._straightened = True
            self._on_mat = [[] for _ in ZONES]
            self.lay(self.laid)  # lay them again, a little differently
        elif waited > self.enter_after or self.table() is None or not flow.camera_ok:
            press("hold2")  # the screen still has not taken the cards: enter them by hand

    def _plan(self, flow: ThanksALotteryFlow, now: float) -> None:
        state = self.true_state(flow)
        seat = flow.seat()
        assert seat is not None
        self._seat = seat
        action = flow.game.heuristic_action(state, self.rng)
        self.planned = action
        self._moves = len(flow.hidden.moves) if flow.hidden is not None else 0
        if action.verb in ("play", "add"):
            self.laid = cards_of(action)
        elif action.verb == "replace":
            block = state.block(str(action.args[0]))
            self.laid = [str(block.wild_number)]
        else:
            self.laid = []
        self._laid_at, self._straightened = now, False
        if self.laid:
            self.lay(list(self.laid))

    def _enter(self, flow: ThanksALotteryFlow, press: Press) -> None:
        assert flow.entry is not None
        entered = Counter(flow.entry)
        missing = Counter(self.laid)
        missing.subtract(entered)
        if any(n < 0 for n in missing.values()):
            press("back")
            return
        todo = sorted((+missing).elements(), key=CARD_IDS.index)
        if not todo:
            press("collect")
        elif flow.manual_card() == todo[0]:
            press("hold2")
        else:
            press("hold3")


class LotteryDealer:
    """The daemon's dealer hook for Thanks a Lottery (the daemon's ``Dealer`` protocol)."""

    def __init__(self, camera: Any, seed: int = 0) -> None:
        self.camera = camera
        self.players = LotteryPlayers(lambda: camera.tables.get(ThanksALotteryFlow.game_id), seed=seed)

    def update(self, daemon: Companion, now: float) -> None:
        """Play the table's part for this frame."""
        flow = daemon.flow
        if not isinstance(flow, ThanksALotteryFlow):
            return
        self.players.step(flow, now, lambda control: daemon.dispatch(InputEvent(control, PRESS, now)))
