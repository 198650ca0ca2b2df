"""Thanks a Lottery at the table (secret paper hands, the camera reads what is played) or as a
cabinet (digital hands on the screen). The Pi owns the 15-die pool, the re-rolls and the tin.

A round, both modes:

1. **Deal.** Table: the dealer deals six cards each by hand and pulls the lever; the Pi rolls
   the 15 dice of the pool on screen. Cabinet: the lever deals the hands and rolls the pool.
2. **Turns.** The player on turn draws a card, then plays at most one move:
   - table: they lay the cards of the move on the mat (the block rows ``block0``..``block2``
     are read together, so a long move spills onto the next row); once the camera sees them
     stably the screen says what it understood ("add 6 to Ben's b2, +1 die") and ``collect``
     confirms. When the cards fit several moves (a wild that may stand for 2 or 5, a card that
     fits two blocks), ``hold1``/``hold3`` choose. Cards that make no move, or that cannot be
     (an eighth ``4``), are refused with the reason; the player takes them back. Afterwards
     the cards go to their block and the mat must be clear before the next move is read.
     ``hold2`` enters the cards by hand (the camera lost, or a card it cannot read):
     ``hold1``/``hold3`` pick a card, ``hold2`` adds it, ``back`` removes the last, ``collect``
     is done;
   - cabinet: ``hold1``/``hold3`` browse the legal moves of the hand shown, ``collect`` plays;
     ``hold1`` twice takes back the round's last move (a misread or a wrong meaning confirmed);
   - both: ``back`` twice passes. Dice earned from someone else's block are taken from the
     pool by value: ``hold1``/``hold3`` choose the value, ``collect`` takes it.
3. **Finalize.** Each player with dice in turn: ``hold1``/``hold3`` move along their dice,
   ``hold2`` picks one to re-roll, the lever re-rolls the picked dice (none picked: keep all;
   ``collect`` keeps all too). The Pi rolls them on screen.
4. **Lottery.** Each lever pull draws one token from the tin onto the prize card; after the
   third the round is scored and the screen shows the tokens with each player's round score.

Table mode keeps the hands secret: see :mod:`companion.flows.thanks_a_lottery_round` for how a
round's moves become engine actions (committed to the journal when the turns stop; each move is
journaled as an observation as it happens, so a restart rebuilds the round).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.daemon.session import Session
from companion.engine import Action
from companion.engine.events import Event, JackpotHit, RoundEnded
from companion.engine.games.thanks_a_lottery.components import CARD_IDS
from companion.engine.games.thanks_a_lottery.state import (
    ACT,
    BlockPlayed,
    CardsAdded,
    DieTaken,
    RoundScored,
    WildReplaced,
)
from companion.engine.match import replay
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, Flow, FlowView, Observation
from companion.flows.thanks_a_lottery_round import HiddenRound, TableRefusal, cards_text
from companion.flows.thanks_a_lottery_words import move_words
from companion.screen.views import (
    BlockView,
    LotteryDrawView,
    LotteryPanel,
    ReelSet,
    TableView,
)
from hardware.events import PRESS, PULL, InputEvent

#: the mat's block rows (vision/mats.py), read together as one play area
ZONES = ("block0", "block1", "block2")
#: the journal observation key of this flow's table facts
FACT = "lottery_table"
DEAL, OVER = "deal", "over"


class ThanksALotteryFlow(Flow):
    """One game of Thanks a Lottery (three rounds), 2-6 players, table or cabinet mode."""

    game_id = "thanks-a-lottery"
    modes = ("table", "cabinet")

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.hidden: HiddenRound | None = None
        self.cursor = 0
        self.picked: set[int] = set()
        self.pass_armed = False
        self.undo_armed = False
        #: table mode: the cards read on the mat (or entered), and the moves they can be
        self.reading: tuple[str, ...] = ()
        self.options: list[Action] = []
        self.source = "camera"
        self.read_id = 0
        #: a reading the player set aside with BACK (ignored until the mat changes)
        self.dismissed: tuple[str, ...] | None = None
        #: after a move the mat must be seen empty before the next move is read
        self.await_clear = False
        #: manual entry of the cards laid (None: not entering)
        self.entry: list[str] | None = None
        self.entry_card = 0
        self.observations: dict[str, Observation] = {}
        #: the last lottery of a finished round, shown until the next deal: (round, spaces, tokens, message)
        self.last_lottery: tuple[int, tuple[int, ...], tuple[str, ...], str] | None = None
        self.draw_id = 0
        self.roll_id = 0
        if self.table_mode and not self.over:
            self._restore_round()

    # --- what is going on ------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The engine state shown: the table round being built, else the committed one."""
        return self.hidden.state if self.hidden is not None else self.match.state

    def phase(self) -> str:
        """``deal`` (waiting for the lever), an engine phase, or ``over``."""
        if self.over:
            return OVER
        state = self.state
        fresh = state.phase == "setup" and state.to_deal == self.game.components.hand_size * state.players
        if fresh and self.hidden is None:
            return DEAL
        return str(state.phase)

    def seat(self) -> int | None:
        """The seat deciding now (on turn, taking dice or finalizing)."""
        return None if self.over else self.game.current_player(self.state)

    def name(self, seat: int | None) -> str:
        """A seat's name."""
        return self.session.seats[seat] if seat is not None else "The table"

    def zones(self) -> tuple[str, ...]:
        """The block rows, while a table move is awaited."""
        return ZONES if self.table_mode and self.phase() == ACT else ()

    def browse(self) -> list[Action]:
        """Cabinet mode: the moves of the hand on screen, in the order HOLD1/HOLD3 walk them."""
        moves = [a for a in self.game.decisions(self.state) if a.verb != "pass"]
        order = {"play": 0, "add": 1, "replace": 2}
        return sorted(moves, key=lambda a: (order.get(a.verb, 3), str(a)))

    def take_values(self) -> list[int]:
        """The values a die may be taken at from the pool."""
        return sorted(set(self.state.pool))

    # --- restart ---------------------------------------------------------------------------

    def _facts(self) -> list[dict[str, Any]]:
        import json

        facts = []
        for _, kind, text, _ in self.session.journal.entries(self.session.game_id):
            if kind != "observation":
                continue
            try:
                data = json.loads(text)
            except ValueError:
                continue
            if isinstance(data, dict) and FACT in data:
                facts.append(data)
        return facts

    def _restore_round(self) -> None:
        """Rebuild a table round from its journaled moves (and finish committing it if a restart
        came in the middle of that)."""
        facts = self._facts()
        starts = [i for i, f in enumerate(facts) if f[FACT] == "start"]
        if not starts:
            return
        start = facts[starts[-1]]
        v0 = int(start["round_start"])
        log = list(self.match.log)
        if v0 > len(log):
            return
        base = self.match if v0 == len(log) else replay(self.session.config, log[:v0])
        moves: list[Action] = []
        for fact in facts[starts[-1] + 1:]:
            if fact.get("round_start") != v0:
                continue
            if fact[FACT] == "move":
                moves.append(Action.parse(fact["move"]))
            elif fact[FACT] == "undo" and moves:
                moves.pop()
        try:
            hidden = HiddenRound(base, moves)
        except TableRefusal:
            return
        committed = log[v0:]
        pending = hidden.actions
        if committed != pending[:len(committed)] or (committed and len(committed) >= len(pending)):
            return
        self.hidden = hidden
        self._commit()

    # --- inputs ----------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """Route a control to what the table is doing now."""
        control = event.control
        # The lever counts once, as its pull; the buttons as presses (a long press is ignored:
        # its press already counted).
        if self.over or event.kind != (PULL if control == "lever" else PRESS):
            return
        if self.hidden is not None and self.hidden.ended:
            # The round's commit was cut short (a full disk): finish it first; the control that
            # ended the round was handled already, so this one (its retry) does nothing more.
            self._commit()
            return
        phase = self.phase()
        if control != "back":
            self.pass_armed = False
        if control != "hold1":
            self.undo_armed = False
        if phase == DEAL:
            if control == "lever":
                self._deal()
        elif phase == ACT:
            if self.table_mode:
                self._table_input(control)
            else:
                self._cabinet_input(control)
        elif phase == "take":
            self._take_input(control)
        elif phase == "finalize":
            self._finalize_input(control)
        elif phase == "lottery" and control == "lever":
            self.cue("lever")
            self._resolve()

    def _deal(self) -> None:
        self.cue("lever")
        self.cue("dice")
        self.last_lottery = None
        self.roll_id += 1
        if self.table_mode:
            v0 = self.session.version
            self.session.observe({FACT: "start", "round_start": v0, "round": self.match.state.round})
            self.hidden = HiddenRound(self.match)
            self._reset_turn()
            return
        while self.match.chance_point is not None and self.match.state.phase == "setup":
            self._resolve()

    def _resolve(self) -> list[Event] | None:
        point = self.match.chance_point
        if point is None:
            return None
        lottery = point.kind == "draw" and self.match.state.phase == "lottery"
        drawn = list(self.match.state.drawn) if lottery else None
        outcome = self.session.cabinet_outcome(point)
        events = self.apply(Action.reveal(outcome))
        if drawn is not None:
            self.draw_id += 1
            if events is not None:
                self._after_lottery_token(drawn + [outcome], events)
        return events

    def _after_lottery_token(self, tokens: list[str], events: list[Event]) -> None:
        if any(isinstance(e, JackpotHit) for e in events):
            self.cue("coin")
        ended = next((e for e in events if isinstance(e, RoundEnded)), None)
        if ended is None:
            return
        parts = {e.player: e for e in events if isinstance(e, RoundScored)}
        scores = ", ".join(f"{self.name(s)} {parts[s].score}" for s in sorted(parts))
        spaces = tuple(self.game.components.prizes[ended.round])
        message = f"Round {ended.round}: {scores}"
        if not self.over:
            message += f". Pull the lever to deal round {ended.round + 1}"
        self.last_lottery = (ended.round, spaces, tuple(tokens), message)
        self.cue("fanfare", amount=max((p.lottery for p in parts.values()), default=0))

    def _pass(self) -> None:
        if not self.pass_armed:
            self.pass_armed = True
            self.alert = "Press BACK again to pass (end the turn without playing)"
            return
        self.pass_armed = False
        self._move(Action.of("pass"), ())

    def _cabinet_input(self, control: str) -> None:
        moves = self.browse()
        if control in ("hold1", "hold3") and moves:
            self.cursor = (self.cursor + (1 if control == "hold3" else -1)) % len(moves)
            self.cue("click")
        elif control == "collect" and moves:
            self._move(moves[self.cursor % len(moves)], ())
        elif control == "collect":
            self.alert = "No move with this hand: BACK twice passes"
            self.cue("error")
        elif control == "back":
            self._pass()

    def _take_input(self, control: str) -> None:
        values = self.take_values()
        if control in ("hold1", "hold3"):
            self.cursor = (self.cursor + (1 if control == "hold3" else -1)) % len(values)
            self.cue("click")
        elif control == "collect":
            self._move(Action.of("take", values[self.cursor % len(values)]), ())

    def _finalize_input(self, control: str) -> None:
        seat = self.seat()
        assert seat is not None
        dice = list(self.state.dice[seat])
        if control in ("hold1", "hold3"):
            self.cursor = (self.cursor + (1 if control == "hold3" else -1)) % len(dice)
            self.cue("click")
        elif control == "hold2":
            self.picked ^= {self.cursor % len(dice)}
            self.cue("click")
        elif control in ("lever", "collect"):
            values = sorted(dice[i] for i in self.picked) if control == "lever" else []
            action = Action.of("reroll", *values) if values else Action.of("keep")
            if self.apply(action) is not None:
                self.picked, self.cursor = set(), 0
                if values:
                    self.cue("dice")
                    self.roll_id += 1

    # --- table moves -------------------------------------------------------------------------

    def _table_input(self, control: str) -> None:
        if self.entry is not None and not self.options:
            self._entry_input(control)
            return
        if self.options:
            if control in ("hold1", "hold3"):
                self.cursor = (self.cursor + (1 if control == "hold3" else -1)) % len(self.options)
                self.cue("click")
            elif control == "collect":
                self._move(self.options[self.cursor % len(self.options)], self.reading)
            elif control == "back":
                if self.source == "camera":
                    self.dismissed = self.reading
                self.options, self.reading, self.alert = [], (), None
            return
        if control == "hold2":
            self.entry, self.entry_card = [], 0
            self.alert = None
        elif control == "hold1" and self.can_undo():
            self._undo()
        elif control == "back":
            self._pass()

    def can_undo(self) -> bool:
        """True when a move of this round can be taken back (table mode, between moves)."""
        return self.hidden is not None and bool(self.hidden.moves) and not self.options and self.entry is None

    def _undo(self) -> None:
        """HOLD1 twice: take back the round's last move (the correction is journaled)."""
        assert self.hidden is not None
        last = self.hidden.moves[-1]
        seat = self.hidden.match.game.current_player(self._state_before_last())
        if not self.undo_armed:
            self.undo_armed = True
            self.alert = f"Press HOLD1 again to take back {self.name(seat)}'s {last}"
            return
        self.undo_armed = False
        self.session.observe({FACT: "undo", "round_start": len(self.hidden.base.log), "move": str(last)})
        self.hidden.undo()
        self.cue("click")
        self._reset_turn()
        self.await_clear, self.dismissed = False, None
        self.alert = (f"{self.name(seat)}'s {last} taken back: put back any card drawn since, "
                      "and lay the cards again")

    def _state_before_last(self) -> Any:
        assert self.hidden is not None
        return HiddenRound(self.hidden.base, self.hidden.moves[:-1]).state

    def _entry_input(self, control: str) -> None:
        assert self.entry is not None
        if control in ("hold1", "hold3"):
            self.entry_card = (self.entry_card + (1 if control == "hold3" else -1)) % len(CARD_IDS)
            self.cue("click")
        elif control == "hold2":
            self.entry.append(CARD_IDS[self.entry_card])
            self.cue("click")
        elif control == "back":
            if self.entry:
                self.entry.pop()
            elif self.camera_ok:
                self.entry = None
        elif control == "collect" and self.entry:
            self._consider(tuple(self.entry), "buttons")

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
        events = self.hidden.keep(plan)
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

    def set_camera(self, ok: bool) -> None:
        """The camera went away (the cards are entered by hand) or came back."""
        self.camera_ok = ok
        if not ok:
            self.await_clear = False
            if self.table_mode and self.phase() == ACT and self.entry is None and not self.options:
                self.entry, self.entry_card = [], 0
        elif self.entry == [] and not self.options:
            self.entry = None

    def tick(self, now: float) -> None:
        """The Pi's chance: cabinet draws, and the dice re-rolled at the end of a round."""
        if self.over:
            return
        if self.hidden is not None:
            self._commit()  # a commit the full disk interrupted
            return
        point = self.match.chance_point
        if point is None:
            return
        phase = self.match.state.phase
        if phase == "reroll" or (phase == "draw" and not self.table_mode):
            self._resolve()

    # --- what is shown -----------------------------------------------------------------------

    def manual_card(self) -> str:
        """The card HOLD2 would add during entry by hand."""
        return CARD_IDS[self.entry_card % len(CARD_IDS)]

    def prompt(self) -> str:
        """What the table does now."""
        phase = self.phase()
        seat = self.seat()
        who = self.name(seat)
        state = self.state
        if phase == OVER:
            return "Game over"
        if phase == DEAL:
            if self.table_mode:
                dealer = self.name(state.dealer)
                return (f"Round {state.round}: {dealer} deals {self.game.components.hand_size} cards each, "
                        "then pulls the lever to roll the dice")
            return f"Round {state.round}: pull the lever to deal and roll the dice"
        if phase == ACT:
            return self._act_prompt(who, seat)
        if phase == "take":
            values = self.take_values()
            value = values[self.cursor % len(values)]
            owed = f"{state.dice_owed} {'die' if state.dice_owed == 1 else 'dice'}"
            return (f"{who}: take {owed} from the pool: a {value}? COLLECT takes"
                    + (", HOLD1/HOLD3 change" if len(values) > 1 else ""))
        if phase == "finalize":
            dice = list(state.dice[seat])
            picked = " ".join(str(dice[i]) for i in sorted(self.picked)) or "none"
            return (f"{who}: re-roll which dice? HOLD2 picks die {self.cursor % len(dice) + 1} "
                    f"({dice[self.cursor % len(dice)]}); picked: {picked}. Lever rolls, COLLECT keeps all")
        if phase == "reroll":
            return "Rolling the picked dice..."
        if phase == "lottery":
            total = self.game.components.tokens_drawn
            return f"Pull the lever to draw lottery token {len(state.drawn) + 1} of {total}"
        return "Dealing..."

    def _act_prompt(self, who: str, seat: int | None) -> str:
        assert seat is not None
        if not self.table_mode:
            moves = self.browse()
            if not moves:
                return f"{who}: no move with this hand; BACK twice passes"
            move = moves[self.cursor % len(moves)]
            return (f"{who}: {move_words(self.state, seat, move, self.session.seats)}? "
                    f"({self.cursor % len(moves) + 1}/{len(moves)}) COLLECT plays, BACK passes")
        if self.options:
            move = self.options[self.cursor % len(self.options)]
            more = f" ({self.cursor % len(self.options) + 1}/{len(self.options)}, HOLD1/HOLD3 other ways)" \
                if len(self.options) > 1 else ""
            return f"{who}: {move_words(self.state, seat, move, self.session.seats)}? COLLECT confirms{more}"
        if self.entry is not None:
            laid = cards_text(self.entry) or "nothing yet"
            return (f"Enter {who}'s cards: {laid}; HOLD2 adds a {self.manual_card()} "
                    "(HOLD1/HOLD3 change), COLLECT done")
        if self.await_clear:
            return f"Move the cards from the mat to their block; then {who} plays"
        return f"{who}: draw a card, then lay the cards you play on the mat (BACK twice: pass)"

    def lamps(self) -> dict[str, str]:
        """Only the controls that mean something glow."""
        lamps = dict.fromkeys(ALL_CONTROLS, LAMP_OFF)
        for control in self.control_labels():
            lamps[control] = LAMP_ON
        phase = self.phase()
        if phase in (DEAL, "lottery"):
            lamps["lever"] = LAMP_BLINK
        if phase == ACT and self.table_mode and self.options:
            lamps["collect"] = LAMP_BLINK
        if self.pass_armed:
            lamps["back"] = LAMP_BLINK
        if self.undo_armed:
            lamps["hold1"] = LAMP_BLINK
        return lamps

    def control_labels(self) -> dict[str, str]:
        """Labels of the live controls."""
        phase = self.phase()
        if phase == OVER:
            return {"start": "New game"}
        if phase == DEAL:
            return {"lever": "Roll dice" if self.table_mode else "Deal"}
        if phase == "lottery":
            return {"lever": "Draw token"}
        if phase == "take":
            labels = {"collect": "Take die"}
            if len(self.take_values()) > 1:
                labels.update(hold1="Lower", hold3="Higher")
            return labels
        if phase == "finalize":
            return {"hold1": "Previous die", "hold2": "Pick", "hold3": "Next die", "lever": "Re-roll",
                    "collect": "Keep all"}
        if phase != ACT:
            return {}
        if not self.table_mode:
            labels = {"collect": "Play", "back": "Pass"}
            if len(self.browse()) > 1:
                labels.update(hold1="Previous", hold3="Next")
            return labels
        if self.options:
            labels = {"collect": "Confirm", "back": "Cancel"}
            if len(self.options) > 1:
                labels.update(hold1="Other way", hold3="Other way")
            return labels
        if self.entry is not None:
            labels = {"hold1": "Previous card", "hold2": "Add card", "hold3": "Next card"}
            if self.entry:
                labels.update(collect="Done", back="Remove last")
            elif self.camera_ok:
                labels["back"] = "Camera"
            return labels
        labels = {"hold2": "Enter by hand", "back": "Pass"}
        if self.can_undo():
            labels["hold1"] = "Undo"
        return labels

    def _reels(self) -> ReelSet | None:
        phase = self.phase()
        seat = self.seat()
        if phase == ACT and self.table_mode and self.reading:
            return ReelSet.row(list(self.reading), spin_id=self.read_id, caption="on the mat")
        if phase == ACT and not self.table_mode and seat is not None:
            hand = self.state.hands[seat]
            return ReelSet.row(list(hand), spin_id=0, caption=f"{self.name(seat)}'s hand")
        if phase == "finalize" and seat is not None:
            dice = [str(v) for v in self.state.dice[seat]]
            held = [i in self.picked for i in range(len(dice))]
            caption = f"die {self.cursor % len(dice) + 1} selected"
            return ReelSet.row(dice, spin_id=self.roll_id, held=held, caption=caption)
        return None

    def table_view(self) -> TableView:
        """Round, pool, prize spaces, blocks; scores with hand sizes and dice; the prompt."""
        state = self.state
        seat = self.seat()
        notes = []
        for s in range(state.players):
            parts = [f"hand {len(state.hands[s])}"]
            if state.dice[s]:
                parts.append("dice " + " ".join(str(v) for v in state.dice[s]))
            if s == state.dealer:
                parts.append("dealer")
            notes.append(", ".join(parts))
        blocks = tuple(BlockView(f"{state.block_id(b)} {self.name(b.owner)}", tuple(b.cards()))
                       for b in state.blocks)
        panel = LotteryPanel(round_number=state.round, pool=tuple(state.pool),
                             prize_spaces=tuple(self.game.components.prizes[state.round]), blocks=blocks,
                             deck_left=sum(state.deck.values()))
        status = self.status
        if self.table_mode and not self.camera_ok:
            status = "camera lost: manual entry"
        return TableView(
            game_id=self.game_id,
            title="Thanks a Lottery" + ("" if self.table_mode else " (cabinet)"),
            players=self.player_lines(seat, notes),
            prompt=self.prompt(),
            bank=None,
            alert=self.alert,
            reels=self._reels(),
            controls=self.hints(self.control_labels()),
            panel=panel,
            status=status,
        )

    def view(self) -> FlowView:
        """The table; the lottery draw while tokens come out of the tin (and until the next deal)."""
        if self.over:
            return self.final_view()
        phase = self.phase()
        state = self.state
        if phase == "lottery":
            return LotteryDrawView(state.round, tuple(self.game.components.prizes[state.round]),
                                   tuple(state.drawn), self.draw_id, self.prompt())
        if phase == DEAL and self.last_lottery is not None:
            number, spaces, tokens, message = self.last_lottery
            return LotteryDrawView(number, spaces, tokens, self.draw_id, message)
        return self.table_view()

    # --- autoplay ------------------------------------------------------------------------

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The control a sensible player uses now (the engine's heuristic, by the panel).

        Table mode leaves the turn's move to the people at the table (the simulated dealer in
        the demo lays the cards); everything the Pi owns is suggested in both modes.
        """
        phase = self.phase()
        if phase in (OVER, "reroll", "draw", "setup"):
            return None
        if phase in (DEAL, "lottery"):
            return InputEvent("lever", PULL, 0.0)
        if phase == ACT and self.table_mode:
            return None
        action = self.game.heuristic_action(self.state, rng)
        if phase == "take":
            values = self.take_values()
            return self._steer(values.index(int(action.args[0])), len(values), "collect")
        if phase == "finalize":
            return self._finalize_suggestion(action)
        if action.verb == "pass":
            return InputEvent("back", PRESS, 0.0)
        moves = self.browse()
        return self._steer(moves.index(action), len(moves), "collect")

    def _steer(self, target: int, size: int, then: str) -> InputEvent:
        if self.cursor % size == target:
            return InputEvent(then, PRESS, 0.0)
        forward = (target - self.cursor) % size
        return InputEvent("hold3" if forward <= size - forward else "hold1", PRESS, 0.0)

    def _finalize_suggestion(self, action: Action) -> InputEvent:
        if action.verb == "keep":
            return InputEvent("collect", PRESS, 0.0)
        seat = self.seat()
        dice = list(self.state.dice[seat])
        want = Counter(action.int_args())
        wanted: set[int] = set()
        for index, value in enumerate(dice):
            if want[value]:
                want[value] -= 1
                wanted.add(index)
        wrong = sorted(wanted ^ self.picked)
        if not wrong:
            return InputEvent("lever", PULL, 0.0)
        if self.cursor % len(dice) == wrong[0]:
            return InputEvent("hold2", PRESS, 0.0)
        return self._steer(wrong[0], len(dice), "hold2")

