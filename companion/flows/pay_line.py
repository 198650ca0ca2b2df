"""Pay Line as a cabinet: the lever rolls the dice as reels, the Pi keeps the boxes secret.

Controls:

- ``lever``: the free roll that starts a turn; during the turn, re-roll the picked dice;
- ``hold1``..``hold3``: pick / unpick die 1-3 for the next re-roll (one chip each, paid into
  the box of the colour that die shows); a picked die's lamp blinks and the dice that stay are
  marked held on the reels; with an empty bag the holds are dark and pick nothing;
- a long press on ``hold1``..``hold3`` (any time, even before the free roll or with an empty
  bag): shake the black / yellow / red box: the rattle is denser and louder with more chips
  inside; the count is shown only on the final scores;
- ``collect``: take the jackpot showing (three of a kind);
- ``start`` (a short press): double or nothing on the jackpot showing;
- ``back`` twice: walk away (the turn ends).

The dice are the reels: a roll starts the spin and each die lands as the seeded resolver
reveals it (one per frame, each journaled before it is drawn).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

from companion.engine import Action
from companion.engine.events import JackpotHit
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, Flow
from companion.screen.views import BoxView, ControlHint, FinalScoresView, PayLinePanel, ReelSet, TableView
from companion.session import Session
from hardware.events import LONG_PRESS, PRESS, PULL, InputEvent

DICE = 3
BOXES = ("black", "yellow", "red")
#: How long a box wobbles on screen while its rattle plays (seconds).
SHAKE_SECONDS = 0.8


class PayLineFlow(Flow):
    """One game of Pay Line, 2-4 players, cabinet mode."""

    game_id = "pay-line"
    modes = ("cabinet",)

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.picked: set[int] = set()
        #: dice whose pick the latest short press on their hold button toggled: a long press
        #: (a shake) begins with that press, so it undoes exactly that toggle and nothing else
        self.toggled_by_press: set[int] = set()
        self.walk_armed = False
        self.shaking: dict[str, float] = {}
        self.now = 0.0
        self.last_dice: tuple[str, ...] = BOXES
        self._remember_dice()

    def rolling(self) -> bool:
        """True while dice are still to come up."""
        return not self.over and self.match.chance_point is not None

    def waiting_for_pull(self) -> bool:
        """True before a turn's free roll: the lever starts it."""
        return self.rolling() and not self.state.turn_started

    def can_take(self) -> bool:
        """True when the dice show a jackpot that pays now."""
        return not self.rolling() and not self.over and bool(self.match.game.can_take(self.state))

    def can_pay(self) -> bool:
        """True when the current player's bag holds a chip for a re-roll."""
        return bool(self.state.bags[self.state.current])

    def _remember_dice(self) -> None:
        if all(die is not None for die in self.state.dice):
            self.last_dice = tuple(self.state.dice)

    # --- inputs ----------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """Lever, holds, shakes, collect, double, walk."""
        if self.over:
            return
        control, kind = event.control, event.kind
        if control in ("hold1", "hold2", "hold3") and kind == LONG_PRESS:
            index = int(control[-1]) - 1
            if index in self.toggled_by_press:  # the press that began this long press picked or unpicked it
                self.picked ^= {index}
                self.toggled_by_press.discard(index)
            self.shake(BOXES[index])
            return
        if control in ("hold1", "hold2", "hold3") and kind == PRESS:
            self.toggled_by_press.discard(int(control[-1]) - 1)
        if self.rolling():
            if control == "lever" and kind == PULL and self.waiting_for_pull():
                self.cue("lever")
                self.cue("dice")
                self._roll_next()
            return
        if control in ("hold1", "hold2", "hold3") and kind == PRESS:
            if not self.can_pay():
                return  # nothing to pay a re-roll with; the lamp is dark and the prompt says so
            index = int(control[-1]) - 1
            self.picked ^= {index}
            self.toggled_by_press.add(index)
            self.walk_armed = False
            self.cue("click")
        elif control == "lever" and kind == PULL:
            if not self.picked:
                self.alert = "Pick the dice to re-roll with the hold buttons (1 chip each)"
                self.cue("error")
                return
            if self.apply(Action.of("reroll", *sorted(self.picked))) is not None:
                self.cue("coin")
                self.cue("dice")
                self._after_turn()
                self._roll_next()
        elif control == "collect" and kind == PRESS:
            if not self.can_take():
                self.alert = ("Double or nothing pays only the same colour" if self.state.doubling
                              else "No jackpot to take: three of a kind wins a box")
                self.cue("error")
                return
            events = self.apply(Action.of("take"))
            if any(isinstance(e, JackpotHit) for e in events or []):
                self.cue("coin")
            self._after_turn()
        elif control == "start" and kind == PRESS:
            if self.apply(Action.of("double")) is not None:
                self.cue("lever")
                self.cue("dice")
                self._after_turn()
                self._roll_next()
        elif control == "back" and kind == PRESS:
            if not self.walk_armed:
                self.walk_armed = True
                lost = " (your double or nothing is lost)" if self.state.doubling else ""
                self.alert = f"Press BACK again to walk away{lost}"
                return
            self.apply(Action.of("walk"))
            self._after_turn()

    def _after_turn(self) -> None:
        """Forget the picks (and any armed walk) once dice roll again or the turn ends."""
        self.picked = set()
        self.toggled_by_press = set()
        self.walk_armed = False

    def shake(self, box: str) -> None:
        """Rattle ``box``: the sound's density follows the secret count; the screen wobbles it."""
        chips = self.match.game.box_chips(self.state, box)
        self.cue("shake", chips=chips)
        self.shaking[box] = self.now + SHAKE_SECONDS

    def tick(self, now: float) -> None:
        """Land one rolling die per frame (after the free roll has begun)."""
        self.now = now
        if self.rolling() and not self.waiting_for_pull():
            self._roll_next()

    def _roll_next(self) -> None:
        point = self.match.chance_point
        if point is None:
            return
        self.apply(Action.reveal(self.session.cabinet_outcome(point)))
        self._remember_dice()

    # --- what is shown ---------------------------------------------------------------------

    def player(self) -> str:
        """The name of the seat whose turn it is."""
        return str(self.session.seats[self.state.current])

    def prompt(self) -> str:
        """What to do now."""
        if self.over:
            return "Game over"
        name = self.player()
        if self.waiting_for_pull():
            return f"{name}: pull the lever to roll"
        if self.rolling():
            return "Rolling..."
        doubling = self.state.doubling
        if self.can_take():
            if doubling:
                return f"{name}: double or nothing won! COLLECT takes it"
            extra = ", START for double or nothing" if self.state.tokens[self.state.current] else ""
            return f"{name}: JACKPOT! COLLECT takes the {self.last_dice[0]} box{extra}"
        if not self.can_pay():
            lost = " (your double or nothing is lost)" if doubling else ""
            return f"{name}: no chips left to re-roll: BACK twice to walk away{lost}"
        if doubling:
            return f"{name}: roll three {doubling} again: pick dice and pull, or BACK to walk"
        if self.picked:
            count = len(self.picked)
            return f"{name}: pull to re-roll {count} {'die' if count == 1 else 'dice'} ({count} chip" + \
                ("s)" if count > 1 else ")")
        return f"{name}: pick dice to re-roll (1 chip each), or BACK twice to walk away"

    def lamps(self) -> dict[str, str]:
        """Only what means something glows."""
        lamps = dict.fromkeys(ALL_CONTROLS, LAMP_OFF)
        if self.over:
            lamps["start"] = LAMP_ON
            return lamps
        if self.waiting_for_pull():
            lamps["lever"] = LAMP_BLINK
            return lamps
        if self.rolling():
            return lamps
        for die in range(DICE) if self.can_pay() else ():
            lamps[f"hold{die + 1}"] = LAMP_BLINK if die in self.picked else LAMP_ON
        lamps["lever"] = LAMP_ON if self.picked else LAMP_OFF
        lamps["back"] = LAMP_ON
        if self.can_take():
            lamps["collect"] = LAMP_BLINK
            if self.state.doubling is None and self.state.tokens[self.state.current]:
                lamps["start"] = LAMP_ON
        return lamps

    def control_labels(self) -> dict[str, str]:
        """Labels of the live controls, most important first (the screen has room for about four).

        The controls the prompt names lead: on a jackpot COLLECT, START and BACK; once dice are
        picked the lever; otherwise the holds, then BACK. A hold's label says what pressing it
        does (``Pick die 2`` / ``Unpick die 2``), not what the die is.
        """
        if self.over:
            return {"start": "New game"}
        if self.waiting_for_pull():
            return {"lever": "Roll"}
        if self.rolling():
            return {}
        labels: dict[str, str] = {}
        if self.can_take():
            labels["collect"] = "Take"
            if self.state.doubling is None and self.state.tokens[self.state.current]:
                labels["start"] = "Double"
            labels["back"] = "Walk away"
        if self.picked:
            count = len(self.picked)
            labels["lever"] = f"Re-roll {count} {'die' if count == 1 else 'dice'}"
        if self.can_pay():
            for die in range(DICE):
                labels[f"hold{die + 1}"] = f"{'Unpick' if die in self.picked else 'Pick'} die {die + 1}"
        labels["back"] = "Walk away"
        return labels

    def hints(self, labels: Mapping[str, str]) -> tuple[ControlHint, ...]:
        """Control hints in the order :meth:`control_labels` ranks them (not panel order): the
        screen drops the pills that do not fit, so the ones the prompt names must come first."""
        return tuple(ControlHint(control, label) for control, label in labels.items())

    def spin_id(self) -> int:
        """Changes with every roll: free rolls (turns taken), re-rolls and doubles."""
        rolls = sum(1 for a in self.match.log if a.verb in ("reroll", "double"))
        return int(sum(self.state.turns)) + rolls

    def table_view(self) -> TableView:
        """Dice as reels, the secret boxes, bags, bank."""
        state = self.state
        if self.waiting_for_pull():
            dice: tuple[str | None, ...] = self.last_dice
        else:
            dice = tuple(state.dice)
        held: tuple[bool, ...] = ()
        still: tuple[bool, ...] = ()
        if self.rolling():  # the dice already landed stay still while the others spin
            still = tuple(state.dice[die] is not None for die in range(DICE))
        elif self.picked:  # the dice the lever will not re-roll are marked HELD, as in Bandit
            held = tuple(die not in self.picked for die in range(DICE))
        caption = ""
        if self.picked and not self.rolling():
            caption = "Re-roll: " + ", ".join(f"die {d + 1}" for d in sorted(self.picked))
        reels = ReelSet.row(
            dice, spin_id=self.spin_id(), held=held, still=still, win=self.can_take(), caption=caption
        )
        now = self.now
        levels = self.match.game.components.boxes
        boxes = tuple(
            BoxView(box, levels[box], chips=state.boxes[box] if state.over else None, revealed=state.over,
                    shaking=self.shaking.get(box, 0.0) > now)
            for box in BOXES
        )
        notes = ["double token" if tokens else "" for tokens in state.tokens]
        return TableView(
            game_id=self.game_id,
            title="Pay Line",
            players=self.player_lines(None if state.over else state.current, notes),
            prompt=self.prompt(),
            bank=f"Bank {state.bank}",
            alert=self.alert,
            reels=reels,
            controls=self.hints(self.control_labels()),
            panel=PayLinePanel(boxes, reroll_cost=1, double_armed=state.doubling is not None),
            status=self.status,
        )

    def final_view(self) -> FinalScoresView:
        """The final scores; the note opens the boxes at last (``In the boxes: black 3, ...``)
        after the reason the game ended. The screen draws nothing else of Pay Line at the end,
        so this is where the players see what they were shaking all game."""
        final = super().final_view()
        boxes = "In the boxes: " + ", ".join(f"{box} {self.state.boxes[box]}" for box in BOXES)
        note = f"{final.note} · {boxes}" if final.note else boxes
        return dataclasses.replace(final, note=note)

    # --- autoplay ------------------------------------------------------------------------

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The engine's heuristic move, by the panel's buttons."""
        if self.over:
            return None
        if self.waiting_for_pull():
            return InputEvent("lever", PULL, 0.0)
        if self.rolling():
            return None
        action = self.match.game.heuristic_action(self.state, rng)
        if action.verb == "take":
            return InputEvent("collect", PRESS, 0.0)
        if action.verb == "double":
            return InputEvent("start", PRESS, 0.0)
        if action.verb == "walk":
            return InputEvent("back", PRESS, 0.0)
        wanted = set(action.int_args())
        for die in range(DICE):
            if (die in wanted) != (die in self.picked):
                return InputEvent(f"hold{die + 1}", PRESS, 0.0)
        return InputEvent("lever", PULL, 0.0)
