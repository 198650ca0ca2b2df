"""How Thanks a Lottery's flow reads the mat: the block rows' cards become a move, confirmed or refused.

A mixin of :class:`companion.flows.thanks_a_lottery.ThanksALotteryFlow`: the cards laid in the block
rows are matched to the moves the hidden round allows; each move is journalled as an
observation as it happens, so a restart rebuilds the round."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine import Action
from companion.engine.events import Event
from companion.engine.games.thanks_a_lottery.components import CARD_IDS
from companion.engine.games.thanks_a_lottery.state import (
    ACT,
    BlockPlayed,
    CardsAdded,
    DieTaken,
    WildReplaced,
)
from companion.flows.base import Observation
from companion.flows.thanks_a_lottery_round import HiddenRound, TableRefusal, cards_text
from companion.flows.thanks_a_lottery_words import move_words

#: the mat's block rows (vision/mats.py), read together as one play area
ZONES = ("block0", "block1", "block2")
#: the journal observation key of this flow's table facts
FACT = "lottery_table"
#: the flow's own phases besides the engine's
DEAL, OVER = "deal", "over"


def move_tag(hidden: HiddenRound) -> str:
    """``[74+3]``: the transcript's mark of the round's 3rd move, made after committed action 74.

    A round's moves are journalled as observations and become actions only when the round
    ends, so they cannot carry an action's number; this mark names what a restart must bring
    back (``companion bench kills`` checks that it does).
    """
    return f"[{len(hidden.base.log)}+{len(hidden.moves)}]"


class LotteryTableReading:
    """How the flow reads the mat: the block rows' cards become a move, confirmed or refused."""


    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """Keep the block rows' latest readings; read the mat when a move is awaited."""
        self.observations = dict(observations)
        if self.table_mode and self.camera_ok and self.phase() == ACT and self.entry is None:
            self._read_mat()

    def _read_mat(self) -> None:
        rows = [self.observations.get(zone) for zone in ZONES]
        if any(row is None for row in rows):
            return
        cards: list[str] = []
        for index, row in enumerate(rows):
            assert row is not None
            ids = tuple(getattr(row, "card_ids", ()) or ())
            if row.status == "unsure" or (row.status in ("stable", "changed") and not ids):
                if not self.await_clear:
                    self.options, self.reading = [], ()
                    self.alert = (f"Block row {index + 1}: a card the camera cannot read: straighten it, "
                                  "or HOLD2 to enter the cards by hand")
                return
            if row.status not in ("stable", "changed", "empty"):
                return  # still settling
            cards += ids
        if not cards:
            self.await_clear, self.dismissed = False, None
            if self.source == "camera":
                self.options, self.reading = [], ()
            if self.alert and self.alert.startswith("Block row"):
                self.alert = None
            return
        reading = tuple(sorted(cards, key=CARD_IDS.index))
        if self.await_clear or reading == self.dismissed or (reading == self.reading and self.options):
            return
        self._consider(reading, "camera")

    def _consider(self, cards: tuple[str, ...], source: str) -> None:
        """What the cards laid can be: the moves to choose from, or why they are none."""
        assert self.hidden is not None
        self.reading, self.source, self.cursor = cards, source, 0
        self.read_id += 1
        self.options = self.hidden.candidates(cards)
        if not self.options:
            self.alert = (f"{self.name(self.seat())}'s {cards_text(cards)}: {self.hidden.why_not(cards)}. "
                          "Take them back")
            self.cue("error")
            self.session.observe({FACT: "refused", "cards": list(cards), "source": source,
                                  "reason": self.alert})
            if source == "buttons":
                self.entry = []
            return
        self.alert = None

    def _move(self, action: Action, cards: tuple[str, ...]) -> None:
        """A turn move, dice taken or a pass: through the table round, or straight to the engine."""
        seat = self.seat()
        if not self.table_mode:
            events = self.apply(action)
            if events is not None:
                self._after_move(events)
                self.cursor = 0
            return
        assert self.hidden is not None
        try:
            plan = self.hidden.prepare(action)
        except TableRefusal as refusal:
            self.alert = f"{cards_text(cards) or str(action)}: {refusal}. Take them back"
            self.cue("error")
            self.session.observe({FACT: "refused", "cards": list(cards), "move": str(action),
                                  "source": self.source, "reason": str(refusal)})
            self.options, self.reading = [], ()
            return
        self.session.observe({FACT: "move", "round_start": len(self.hidden.base.log), "seat": seat,
                              "move": str(action), "cards": list(cards), "source": self.source})
        words = move_words(self.hidden.state, seat, action, self.session.seats)
        events = self.hidden.keep(plan)
        self.table_lines.append(f"{move_tag(self.hidden)} {self.name(seat)}: {words}")
        self.status = ""
        if action.verb in ("play", "add", "replace"):
            self.await_clear = self.camera_ok
        self._reset_turn()
        self._after_move(events)
        self._commit()

    def _after_move(self, events: list[Event]) -> None:
        self.alert = None
        if any(isinstance(e, (BlockPlayed, CardsAdded, WildReplaced)) for e in events):
            self.cue("click")
        if any(isinstance(e, DieTaken) for e in events):
            self.cue("dice")

    def _reset_turn(self) -> None:
        self.options, self.reading, self.entry, self.cursor = [], (), None, 0
        self.source = "camera"
        if not self.camera_ok and self.phase() == ACT:
            self.entry = []

    def _commit(self) -> None:
        """Once the turns stop, write the round's engine actions to the journal (idempotent)."""
        hidden = self.hidden
        if hidden is None or not hidden.ended:
            return
        done = self.session.version - len(hidden.base.log)
        for action in hidden.actions[done:]:
            if self.apply(action) is None:  # cannot happen: the same engine checked them
                self.alert = f"the round could not be written ({action}); it is kept in the journal"
                return
            lines = self.session.lines
            if self.session.version in hidden.filled and lines and lines[-1][0] == self.session.version:
                # the transcript must not claim a card nobody saw
                version, line = lines[-1]
                what, _, card = line.rpartition(": ")
                lines[-1] = (version, f"{what}: not seen (recorded as {card})")
        self.hidden = None
        self._reset_turn()
