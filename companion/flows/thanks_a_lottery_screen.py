"""What Thanks a Lottery's flow shows: the prompt, the lamps, the control labels and the table view.

A mixin of :class:`companion.flows.thanks_a_lottery.ThanksALotteryFlow`: it reads the flow's state and
returns view models; it changes nothing."""

from __future__ import annotations

from companion.engine.games.thanks_a_lottery.components import CARD_IDS
from companion.engine.games.thanks_a_lottery.state import (
    ACT,
)
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, FlowView
from companion.flows.thanks_a_lottery_round import cards_text
from companion.flows.thanks_a_lottery_table import DEAL, OVER
from companion.flows.thanks_a_lottery_words import move_words
from companion.screen.views import (
    BlockView,
    LotteryDrawView,
    LotteryPanel,
    ReelSet,
    TableView,
)


class LotteryScreen:
    """What Thanks a Lottery's flow shows: the prompt, the lamps, the control labels and the table view."""

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
            done = "COLLECT done" if self.entry or self.camera_ok else "BACK to pass or undo"
            return (f"Enter {who}'s cards: {laid}; HOLD2 adds a {self.manual_card()} "
                    f"(HOLD1/HOLD3 change), {done}")
        if self.await_clear:
            return f"Move the cards from the mat to their block; then {who} plays"
        if not self.camera_ok:
            undo = "; HOLD1 twice takes back the last move" if self.can_undo() else ""
            return f"{who}: HOLD2 enters the cards you play, BACK twice passes{undo}"
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
            else:
                labels["back"] = "Camera" if self.camera_ok else "Pass, undo"
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
