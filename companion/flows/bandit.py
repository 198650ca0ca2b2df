"""Bandit at the table (the camera reads the dealt grid) or as a cabinet (the Pi deals).

Controls while the player decides (both modes):

- ``hold1``..``hold3``: hold / release column 1-3 (a held column's lamp blinks);
- ``lever``: spin every column that is not held (the dealer lays the cards, or the Pi does);
- ``collect``: claim the best winning row (press again for the next one);
- ``back`` twice: end this game now (the player keeps their points).

Table mode, while cards are being dealt: the camera reads the zones ``r<row>c<column>`` of
the stacks being dealt, in dealing order. A card counts once the tracker reports it stable and
either it differs from what lay there before or the dealer pressed ``collect`` ("cards are
down": a card may land on the same symbol); the engine then checks it is possible (a fourth
``bar`` is a misread: the screen asks to fix that card). ``hold1``/``hold3`` enter a card by
hand (previous/next symbol among those still possible), ``collect`` confirms it; with the
camera gone, entry by buttons is the way. Every card read or entered is journaled.

"What lay there before" is every card that may still lie on that stack's place when the deal
begins: the card the game knew on that stack, a claimed card (it lies there until the player
picks it up, even where older cards lie beneath and nothing is refilled; forgotten once the
camera sees that place show something else), and what the camera last read there (its readings
may come from frames taken before the deal began: a player may spin right after a claim). Once
the camera has seen that place empty since the deal began, any card laid there is new. Game
two's first deal is stricter: game one's cards may still cover the mat, and lifting a top card
shows an older one, so the screen asks the table to clear the grid and a zone's card counts only
once the camera has seen that zone empty since game two began (or after ``collect`` and the
settling frames, as for a card that looks like the one beneath).

The win is celebrated when it lands, as on a real slot machine: the moment the reels stop on a
winning row its line flashes, the fanfare plays, coins fall and ``+N`` shows what the row pays
(``ReelSet.payout``: the rows claimable now). The points go into the score only on the claim
(the engine banks them then): the players' scores do not move before it, ``collect`` moves
``+N`` into the score with a coin clink, and a spin that gives up an unclaimed row drops the
``+N`` without ever banking it. Moving the coin shower to the claim would need the screen to
animate a win without a spin; the prompt and the blinking COLLECT already say the row is
waiting.

The control hints list the controls the prompt names first (COLLECT on a winning row, COLLECT
while the camera waits for cards): only four or five fit at 800x480 and the rest are dropped.

Cabinet mode: a lever pull deals the first grid of each game; after that the Pi deals right
after each decision with the seeded resolver.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from companion.engine import Action, ImpossibleOutcomeError
from companion.engine.events import JackpotHit
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, Flow, Observation
from companion.screen.views import BanditPanel, ControlHint, ReelSet, TableView
from companion.session import Session
from hardware.events import LONG_PRESS, PRESS, PULL, InputEvent

ROWS = COLUMNS = 3
#: the camera takes each new card by itself; COLLECT ("cards down") only when it does not
PICK_UP = "(COLLECT if the screen does not pick {} up)"


def zone_of(stack: int) -> str:
    """The camera zone of a stack index (``row * 3 + column``): ``r1c2``."""
    row, column = divmod(stack, COLUMNS)
    return f"r{row}c{column}"


def place_of(stack: int) -> str:
    """``row 2, column 3`` for people."""
    row, column = divmod(stack, COLUMNS)
    return f"row {row + 1}, column {column + 1}"


class BanditFlow(Flow):
    """One Bandit match (two games, roles swapped) in ``table`` or ``cabinet`` mode."""

    game_id = "bandit"
    modes = ("table", "cabinet")

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.held: set[int] = set()
        self.stop_armed = False
        #: table mode: the cards that may lie on each pending stack's place when the deal began
        #: (none of them is the new card before COLLECT and the settling frames)
        self.before: dict[str, frozenset[str]] = {}
        #: claimed cards that may still lie on the mat, by zone, until the camera sees that place
        #: show something else
        self.claimed_lying: dict[str, str] = {}
        #: observation batches seen so far, and the batch at which the dealer pressed COLLECT
        self.batches = 0
        self.confirmed_at: int | None = None
        #: batches after COLLECT before a card that looks like the old one counts: long enough for
        #: the camera to have seen any new card (tracker window + confirmation frames)
        self.settle_batches = 8
        self.observations: dict[str, Observation] = {}
        #: table mode: index into the possible outcomes while a card is entered by hand
        self.manual: int | None = None
        #: the alert shown is about a card that moved between deals (cleared once it is back)
        self._misplaced = False
        #: the deal being tracked: the log position it began at and its stacks in dealing order
        self._deal_start = -1
        self._deal_stacks: tuple[int, ...] = ()
        #: table mode, game two's deal: zones the camera has not yet seen empty since it began (a card
        #: there may be game one's), and the observation batch it began at (older ones do not count)
        self.must_clear: set[str] = set()
        self._clear_after = 0

    # --- engine facts ----------------------------------------------------------------------

    def dealing(self) -> bool:
        """True while cards are being laid (a chance point is open)."""
        return not self.over and self.match.chance_point is not None

    def fresh_deal(self) -> bool:
        """True at the first deal of a game (every stack empty)."""
        return self.dealing() and all(not stack for stack in self.state.stacks)

    def zones(self) -> tuple[str, ...]:
        """The zones of the stacks still to be dealt, in dealing order (table mode)."""
        if not self.table_mode or not self.dealing():
            return ()
        return tuple(zone_of(stack) for stack in self.state.pending)

    def best_claim(self) -> int | None:
        """The claimable row worth most (top row first on a tie)."""
        from companion.engine.games.bandit import PAYOUTS, row_symbol

        rows = list(self.state.claimable)
        if not rows:
            return None
        best: int = max(rows, key=lambda r: (PAYOUTS[row_symbol(self.state.row_cards(r)) or "cherry"], -r))
        return best

    # --- inputs ----------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """Route a control to the deal or decision phase."""
        if self.over or event.kind not in (PRESS, PULL, LONG_PRESS):
            return
        if self.dealing():
            if self.table_mode:
                self._start_deal()
                self._deal_input(event)
            elif event.control == "lever" and event.kind == PULL:
                self.cue("lever")
                self._resolve_next()
            return
        self._decision_input(event)

    def _decision_input(self, event: InputEvent) -> None:
        control = event.control
        if control in ("hold1", "hold2", "hold3") and event.kind == PRESS:
            column = int(control[-1]) - 1
            self.held ^= {column}
            self.stop_armed = False
            self.cue("click")
        elif control == "lever" and event.kind == PULL:
            spun = tuple(c for c in range(COLUMNS) if c not in self.held)
            if not spun:
                self.alert = "Release a hold: at least one column must spin"
                self.cue("error")
                return
            action = Action.of("spin") if len(spun) == COLUMNS else Action.of("spin", *spun)
            if self.apply(action) is not None:
                self.cue("lever")
                self.held = set()
                self.stop_armed = False
                self._start_deal()
        elif control == "collect" and event.kind == PRESS:
            row = self.best_claim()
            if row is None:
                self.alert = "No winning row to claim: hold columns and pull the lever"
                self.cue("error")
                return
            stacks = [row * COLUMNS + c for c in range(COLUMNS)]
            lying = {zone_of(stack): self.state.stacks[stack][-1] for stack in stacks}
            events = self.apply(Action.of("claim", row))
            if events is None:
                return
            if any(isinstance(e, JackpotHit) for e in events):
                self.cue("coin")  # the points go into the score now (the win was celebrated as it landed)
            self.claimed_lying.update(lying)
            self._start_deal()
        elif control == "back" and event.kind == PRESS:
            if not self.stop_armed:
                self.stop_armed = True
                self.alert = "Press BACK again to end this game (points are kept)"
                return
            self.stop_armed = False
            self.apply(Action.of("stop"))
            self._start_deal()

    # --- dealing ---------------------------------------------------------------------------

    def _start_deal(self) -> None:
        """Remember what may lie on the pending stacks' places, so the camera can see the new
        cards land: the game's top card, a claimed card not yet taken away (:attr:`claimed_lying`)
        and what the camera last read there (the new cards are laid after the deal began). At the
        first deal of game two every zone must first be seen empty: game one's cards may still
        lie there, and the top card of a stack may hide older ones.
        """
        if not self.dealing():
            return
        pending = tuple(self.state.pending)
        revealed = self.session.version - self._deal_start
        if 0 <= revealed <= len(self._deal_stacks) and self._deal_stacks[revealed:] == pending:
            return  # the same deal, some of its cards already revealed
        self._deal_start, self._deal_stacks = self.session.version, pending
        self.before = {zone_of(s): self._lying_on(s) for s in pending}
        fresh_game = self.fresh_deal() and self.state.game_index > 0
        self.must_clear = {zone_of(s) for s in pending} if fresh_game else set()
        self._clear_after = self.batches
        self.confirmed_at = None
        self.manual = None if self.camera_ok else 0

    def _lying_on(self, stack: int) -> frozenset[str]:
        """The cards that may lie on ``stack``'s place now (see :meth:`_start_deal`)."""
        zone = zone_of(stack)
        seen = self.observations.get(zone)
        cards = {self.state.stacks[stack][-1]} if self.state.stacks[stack] else set()
        if zone in self.claimed_lying:
            cards.add(self.claimed_lying[zone])
        if seen is not None and seen.status in ("stable", "changed", "settling") and seen.card_id is not None:
            cards.add(seen.card_id)
        return frozenset(cards)

    def tick(self, now: float) -> None:
        """Cabinet: deal one card per frame after a decision. Table: start tracking a new deal."""
        if not self.dealing():
            return
        self._start_deal()
        if self.table_mode:
            if self.observations and self.camera_ok:
                self._take_observations()
            return
        if not self.fresh_deal():
            self._resolve_next()

    def _resolve_next(self) -> None:
        point = self.match.chance_point
        if point is None:
            return
        self.apply(Action.reveal(self.session.cabinet_outcome(point)))

    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """Keep the latest readings; turn stable, possible ones into reveals."""
        if self.table_mode and self.dealing():
            self._start_deal()  # a deal begun since the last readings: they show what lay there before it
        self.observations = dict(observations)
        self.batches += 1
        if not self.table_mode or not self.camera_ok or self.over:
            return
        for zone, card in list(self.claimed_lying.items()):
            seen = observations.get(zone)
            if seen is not None and seen.status in ("stable", "changed", "empty") and seen.card_id != card:
                del self.claimed_lying[zone]  # taken away (or covered by a new card)
        if self.dealing():  # the deal's start was taken in above, from the readings before these
            if self.batches > self._clear_after:
                cleared = {zone for zone, seen in observations.items() if seen.status == "empty"}
                self.must_clear -= cleared
                # a place seen empty since the deal began: whatever lies there next is new
                self.before.update(dict.fromkeys(cleared & self.before.keys(), frozenset()))
            self._take_observations()
        else:
            self._check_table()

    def _check_table(self) -> None:
        """Between deals, the table must show what the game knows: say so if a card moved."""
        for stack in range(ROWS * COLUMNS):
            seen = self.observations.get(zone_of(stack))
            cards = self.state.stacks[stack]
            if seen is None or seen.status not in ("stable", "changed") or not cards or seen.card_id is None:
                continue
            if seen.card_id == self.claimed_lying.get(zone_of(stack)):
                continue  # a claimed card the player has not taken yet: the card beneath shows then
            if seen.card_id != cards[-1]:
                self.alert = (f"{place_of(stack).capitalize()} shows {seen.card_id}, but the game "
                              f"has {cards[-1]} there: put the cards back as they were")
                self._misplaced = True
                return
        if self._misplaced:
            self.alert, self._misplaced = None, False

    def _take_observations(self) -> None:
        while self.dealing() and self.manual is None:
            self._start_deal()  # the card just read may have ended game one: game two's deal begins
            stack = self.state.pending[0]
            zone = zone_of(stack)
            if zone in self.must_clear and not self.settled():
                return  # game one's card may still lie there: wait until the camera sees it empty
            seen = self.observations.get(zone)
            if seen is not None and seen.status == "unsure":
                self.alert = f"{place_of(stack).capitalize()}: not sure of that card: straighten it"
                return
            if seen is None or seen.status not in ("stable", "changed") or seen.card_id is None:
                return  # nothing there yet, or a card still settling
            if seen.card_id in self.before.get(zone, ()) and not self.settled():
                return  # an old card still lies there; wait for the new one (or COLLECT)
            point = self.match.chance_point
            assert point is not None
            try:
                point.check(seen.card_id)
            except ImpossibleOutcomeError:
                self.alert = (f"{place_of(stack).capitalize()} reads {seen.card_id}, which cannot be: "
                              "fix that card, or HOLD1/HOLD3 to enter it")
                self.cue("error")
                return
            self.session.observe({"zone": zone, "card": seen.card_id, "source": "camera"})
            if self.apply(Action.reveal(seen.card_id)) is None:
                return

    @property
    def dealt_confirmed(self) -> bool:
        """True once the dealer pressed COLLECT ("the cards are down") for this deal."""
        return self.confirmed_at is not None

    def settled(self) -> bool:
        """COLLECT was pressed and the camera has seen enough frames since to trust what it sees:
        a card that looks like the one beneath is then the new card (same symbol), not a lag."""
        return self.confirmed_at is not None and self.batches - self.confirmed_at >= self.settle_batches

    def _deal_input(self, event: InputEvent) -> None:
        point = self.match.chance_point
        assert point is not None
        outcomes = [name for name, _ in point.outcomes]
        control = event.control
        if control in ("hold1", "hold3") and event.kind == PRESS:
            step = -1 if control == "hold1" else 1
            if self.manual is None:
                seen = self.observations.get(zone_of(self.state.pending[0]))
                guess = seen.card_id if seen is not None and seen.card_id in outcomes else outcomes[0]
                self.manual = outcomes.index(guess)
            else:
                self.manual = (self.manual + step) % len(outcomes)
            self.cue("click")
        elif control == "collect" and event.kind == PRESS:
            if self.manual is None:
                self.confirmed_at = self.batches
                self._take_observations()
                return
            card = outcomes[self.manual % len(outcomes)]
            stack = self.state.pending[0]
            seen = self.observations.get(zone_of(stack))
            self.session.observe({"zone": zone_of(stack), "card": card, "source": "buttons",
                                  "camera": seen.card_id if seen is not None and self.camera_ok else None})
            self.apply(Action.reveal(card))
            self.manual = None if self.camera_ok else 0
            if not self.camera_ok and self.dealing():
                next_point = self.match.chance_point
                self.manual = 0 if next_point is not None else None
        elif control == "back" and event.kind == PRESS and self.manual is not None and self.camera_ok:
            self.manual = None

    def set_camera(self, ok: bool) -> None:
        """The camera went away (manual entry) or came back."""
        self.camera_ok = ok
        if not ok and self.table_mode and self.dealing() and self.manual is None:
            self.manual = 0

    # --- what is shown -----------------------------------------------------------------------

    def manual_symbol(self) -> str | None:
        """The symbol being entered by hand, if any."""
        point = self.match.chance_point
        if self.manual is None or point is None:
            return None
        symbol: str = point.outcomes[self.manual % len(point.outcomes)][0]
        return symbol

    def prompt(self) -> str:
        """What the table does now."""
        if self.over:
            return "Game over"
        player = self.session.seats[self.state.game_index]
        if self.dealing():
            if not self.table_mode:
                return f"{player}: pull the lever to deal" if self.fresh_deal() else "Dealing..."
            if self.manual is not None:
                return (f"Enter {place_of(self.state.pending[0])}: {self.manual_symbol()} "
                        "(HOLD1/HOLD3 change, COLLECT confirms)")
            count = len(self.state.pending)
            stack = self.state.pending[0]
            waiting = zone_of(stack) in self.must_clear and not self.settled()
            if self.fresh_deal() and waiting:
                return (f"Game {self.state.game_index + 1}: clear the grid, then the dealer lays nine new "
                        f"cards for {player}")
            if waiting:
                return f"Dealer: clear {place_of(stack)}, then lay its card (COLLECT if it is already down)"
            if self.fresh_deal():
                return f"Dealer: lay nine cards for {player} {PICK_UP.format('them')}"
            columns = [str(c) for c in sorted({s % COLUMNS + 1 for s in self.state.pending})]
            where = f"column {columns[0]}" if len(columns) == 1 else (
                f"columns {', '.join(columns[:-1])} and {columns[-1]}")
            cards = f"{count} cards" if count > 1 else "1 card"
            return f"Dealer: lay {cards} on {where} {PICK_UP.format('them' if count > 1 else 'it')}"
        if self.state.claimable:
            return f"{player}: COLLECT claims the winning row, or hold and pull to play on"
        held = ", ".join(str(c + 1) for c in sorted(self.held))
        return f"{player}: hold columns, pull the lever to spin" + (f" (holding {held})" if held else "")

    def lamps(self) -> dict[str, str]:
        """Only the controls that mean something glow."""
        lamps = dict.fromkeys(ALL_CONTROLS, LAMP_OFF)
        if self.over:
            lamps["start"] = LAMP_ON
            return lamps
        if self.dealing():
            if self.table_mode:
                lamps.update(hold1=LAMP_ON, hold3=LAMP_ON, collect=LAMP_BLINK if self.manual is not None
                             else LAMP_ON)
                if self.manual is not None:
                    lamps["back"] = LAMP_ON
            elif self.fresh_deal():
                lamps["lever"] = LAMP_BLINK
            return lamps
        for column in range(COLUMNS):
            lamps[f"hold{column + 1}"] = LAMP_BLINK if column in self.held else LAMP_ON
        lamps["lever"] = LAMP_ON
        lamps["back"] = LAMP_ON
        if self.state.claimable:
            lamps["collect"] = LAMP_BLINK
        return lamps

    def control_labels(self) -> dict[str, str]:
        """Labels of the live controls, the ones the prompt names first: at 800x480 only four or
        five hints fit on the screen, and the rest are dropped from the end."""
        if self.over:
            return {"start": "New game"}
        if self.dealing():
            if not self.table_mode:
                return {"lever": "Deal"} if self.fresh_deal() else {}
            if self.manual is not None:
                labels = {"hold1": "Previous", "hold3": "Next", "collect": "Confirm"}
                if self.camera_ok:
                    labels["back"] = "Camera"
                return labels
            return {"collect": "Cards down", "hold1": "Previous", "hold3": "Next"}
        labels = {"collect": "Claim"} if self.state.claimable else {}
        labels["lever"] = "Spin"
        # the pill's H1-H3 already names the column: short labels let all three fit
        labels.update({f"hold{c + 1}": "Release" if c in self.held else "Hold" for c in range(COLUMNS)})
        labels["back"] = "End game"
        return labels

    def hints(self, labels: Mapping[str, str]) -> tuple[ControlHint, ...]:
        """Control hints in the order :meth:`control_labels` lists them (not the panel's order)."""
        return tuple(ControlHint(control, label) for control, label in labels.items())

    def table_view(self) -> TableView:
        """The 3x3 grid as reels, claimable rows, scores, the prompt."""
        from companion.engine.games.bandit import PAYOUTS, row_symbol

        state = self.state
        pending = set(state.pending) if self.dealing() else set()
        columns = tuple(
            tuple(None if r * COLUMNS + c in pending else state.top(r, c) for r in range(ROWS))
            for c in range(COLUMNS)
        )
        if self.dealing():
            held = tuple(not any(r * COLUMNS + c in pending for r in range(ROWS)) for c in range(COLUMNS))
        else:
            held = tuple(c in self.held for c in range(COLUMNS))
        payout = sum(PAYOUTS[row_symbol(state.row_cards(r)) or "cherry"] for r in state.claimable)
        reels = ReelSet.grid(columns, spin_id=state.spins + state.game_index + 1, held=held,
                             win_rows=tuple(state.claimable), payout=payout, live=self.table_mode)
        notes = ["playing" if seat == state.game_index else "dealer" for seat in range(2)]
        status = self.status if self.camera_ok or not self.table_mode else "camera lost: manual entry"
        return TableView(
            game_id=self.game_id,
            title="Bandit" + (" (cabinet)" if not self.table_mode else ""),
            players=self.player_lines(state.game_index, notes),
            prompt=self.prompt(),
            bank=f"Deck {state.deck_size}",
            alert=self.alert,
            reels=reels,
            controls=self.hints(self.control_labels()),
            panel=BanditPanel(tuple(state.claimable), state.deck_size, state.game_index + 1),
            status=status,
        )

    # --- autoplay ------------------------------------------------------------------------

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The buttons a sensible player presses: the engine's heuristic move, by the panel."""
        if self.over:
            return None
        if self.dealing():
            if not self.table_mode and self.fresh_deal():
                return InputEvent("lever", PULL, 0.0)
            return None
        action = self.match.game.heuristic_action(self.state, rng)
        if action.verb == "claim":
            return InputEvent("collect", PRESS, 0.0)
        if action.verb == "stop":
            return InputEvent("back", PRESS, 0.0)
        spun = set(action.int_args() or range(COLUMNS))
        want_held = set(range(COLUMNS)) - spun
        for column in range(COLUMNS):
            if (column in want_held) != (column in self.held):
                return InputEvent(f"hold{column + 1}", PRESS, 0.0)
        return InputEvent("lever", PULL, 0.0)
