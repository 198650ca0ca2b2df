"""What Jackpot Payout's flow shows: the prompt, the lamps, the control labels and the table view.

A mixin of :class:`companion.flows.jackpot_payout.JackpotPayoutFlow`: it reads the flow's state and
returns view models (the words come from :mod:`companion.flows.jackpot_payout_view`)."""

from __future__ import annotations

from typing import Any

from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON
from companion.flows.jackpot_payout_view import (
    REELS,
    card_label,
    option_label,
    payout_panel,
    seat_words,
    step_title,
    symbol_of,
)
from companion.screen.views import PlayerLine, ReelSet, TableView


class PayoutScreen:
    """What Jackpot Payout's flow shows: the prompt, the lamps, the control labels and the table view."""

    # --- what is shown -----------------------------------------------------------------------

    def name(self, seat: int) -> str:
        """A seat's name."""
        return self.session.seats[seat]

    def words(self, text: str) -> str:
        """Engine words with seat names."""
        return seat_words(text, self.session.seats)

    def prompt(self) -> str:
        """What the table does now (one line)."""
        if self.over:
            return "Game over"
        state = self.state
        player = self.name(state.current)
        showdown = "Final Showdown: " if state.in_showdown else ""
        point = self.point()
        if point is not None:
            if self.entering():
                card = self.manual_card()
                what = f"reel {self.next_reel() + 1}" if point.kind == "reel" else self.words(point.what)
                label = card_label(self.game, card or "")
                if self.offered is not None:
                    where = f"reel {int(self.offered[-1]) + 1}"
                    return f"Enter {what}: {label} (seen on {where}): COLLECT confirms"
                return f"Enter {what}: {label} (HOLD1/HOLD3 change, HOLD2 next symbol)"
            if not self.table_mode:
                if self.waiting_for_pull():
                    return f"{showdown}{player}: pull the lever to spin"
                return "Dealing..." if point.kind != "reel" else "Spinning..."
            zones = self.zones()
            first = int(zones[0][-1]) + 1
            count = len(zones)
            if count == REELS:
                return f"{showdown}{player}: reveal your top three cards on the reels"
            where = f"reel {first}" if count == 1 else f"reels {first}-{first + count - 1}"
            kept = bool(state.seats[state.current].play) and first == 2
            stuck = " (the Stuck Reel stays on reel 1)" if kept else ""
            return f"{showdown}{player}: reveal {count} card{'s' if count > 1 else ''} on {where}{stuck}"
        action = self.chosen()
        if action is None:
            return ""
        label = option_label(self.game, state, action, self.session.seats)
        return f"{player}, {step_title(state)}: {label}?"  # the control hints say HOLD1/HOLD3/COLLECT

    def lamps(self) -> dict[str, str]:
        """Only the controls that mean something glow."""
        lamps = dict.fromkeys(ALL_CONTROLS, LAMP_OFF)
        if self.over:
            lamps["start"] = LAMP_ON
            return lamps
        if self.revealing():
            if not self.table_mode:
                if self.waiting_for_pull():
                    lamps["lever"] = LAMP_BLINK
                return lamps
            lamps.update(hold1=LAMP_ON, hold3=LAMP_ON, collect=LAMP_BLINK if self.entering() else LAMP_ON)
            if self.entering():
                lamps["hold2"] = LAMP_ON
            if self.manual is not None and self.camera_ok and self.reading_reels():
                lamps["back"] = LAMP_ON
            return lamps
        if self.choices():
            lamps.update(hold1=LAMP_ON, hold3=LAMP_ON, collect=LAMP_BLINK)
        return lamps

    def control_labels(self) -> dict[str, str]:
        """Labels of the live controls."""
        if self.over:
            return {"start": "New game"}
        if self.revealing():
            if not self.table_mode:
                return {"lever": "Spin"} if self.waiting_for_pull() else {}
            labels = {"hold1": "Previous", "hold3": "Next",
                      "collect": "Confirm" if self.entering() else "Cards down"}
            if self.entering():
                labels["hold2"] = "Next symbol"
            if self.manual is not None and self.camera_ok and self.reading_reels():
                labels["back"] = "Camera"
            return labels
        return {"hold1": "Previous", "hold3": "Next", "collect": "Do it"} if self.choices() else {}

    def player_lines(self, active: int | None, notes: Any = ()) -> tuple[PlayerLine, ...]:
        """Seats (coins, cards owned) and, solo, The House's coins."""
        notes = [f"{seat.deck_size + sum(seat.discard.values())} cards" for seat in self.state.seats]
        lines = super().player_lines(active, notes)
        if self.solo:
            lines += (PlayerLine("The House", self.state.house, note="solo"),)
        return lines

    def table_view(self) -> TableView:
        """Reels (the active player's cards), scores, bank, display, pairs, the end."""
        state = self.state
        symbols = tuple(None if c is None else symbol_of(self.game, c) for c in self.reel_cards)
        kept = state.seats[state.current].kept if self.reading_reels() else 0
        held = tuple(i < kept for i in range(REELS))
        reels = ReelSet.row(symbols, spin_id=self.spin_id, held=held, win=self.win,
                            payout=self.payout if self.win else 0, live=self.table_mode)
        panel = payout_panel(self.game, state, self.session.seats, self.in_play())
        title = "Jackpot Payout" + (" solo" if self.solo else "") + ("" if self.table_mode else " (cabinet)")
        status = self.status if self.camera_ok or not self.table_mode else "camera lost: manual entry"
        return TableView(
            game_id=self.game_id,
            title=title,
            players=self.player_lines(state.current),
            prompt=self.prompt(),
            bank=f"Bank {state.bank}",
            alert=self.alert[:1].upper() + self.alert[1:] if self.alert else None,
            reels=reels,
            controls=self.hints(self.control_labels()),
            panel=panel,
            status=status,
        )

    def final_view(self) -> Any:
        """Final scores; the solo note names the player."""
        import dataclasses

        view = super().final_view()
        return dataclasses.replace(view, note=self.words(view.note))
