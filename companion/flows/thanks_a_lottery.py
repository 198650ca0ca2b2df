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
from typing import Any

from companion.engine import Action
from companion.engine.events import Event, JackpotHit, RoundEnded
from companion.engine.games.thanks_a_lottery.components import CARD_IDS
from companion.engine.games.thanks_a_lottery.state import (
    ACT,
    RoundScored,
)
from companion.engine.match import replay
from companion.flows.base import Flow, Observation
from companion.flows.thanks_a_lottery_round import HiddenRound, TableRefusal
from companion.flows.thanks_a_lottery_screen import LotteryScreen
from companion.flows.thanks_a_lottery_table import DEAL, FACT, OVER, ZONES, LotteryTableReading, move_tag
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent


class ThanksALotteryFlow(LotteryTableReading, LotteryScreen, Flow):
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

    def rolled_back(self) -> None:
        """A table move whose observation the disk refused is forgotten: the round is rebuilt
        from what the journal holds, so the retried control makes the move again."""
        super().rolled_back()
        if self.table_mode and not self.over:
            self.hidden = None
            self._restore_round(resumed=False)
            self._reset_turn()

    def _restore_round(self, resumed: bool = True) -> None:
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
        if not resumed:
            return  # after a refused write: the retried control makes and commits the move
        self._commit()
        if self.hidden is not None:
            self.table_lines.append(f"round {hidden.round} resumed with its {len(moves)} table "
                                    f"move{'' if len(moves) == 1 else 's'} (kept after action {v0})")

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
        self.table_lines.append(f"{move_tag(self.hidden)} taken back: {self.name(seat)}'s {last}")
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
            else:
                # back to the camera; without one, to the choices between moves (pass, undo)
                self.entry = None
        elif control == "collect" and self.entry:
            self._consider(tuple(self.entry), "buttons")

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
        elif phase == "setup" and not self.table_mode and self.phase() != DEAL:
            # A cabinet deal is 34-37 reveals committed one by one after the lever pull; a
            # restart inside that loop resumes here, half dealt: the Pi finishes its own deal.
            self._resolve()

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

