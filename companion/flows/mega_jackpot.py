"""Mega Jackpot at the table (the camera reads the piles and discards) or as a cabinet (the Pi
deals and flips). The Pi always plays the Mega Jackpot tiles (variant ``tiles``).

Controls, both modes:

- the flip (a turn's free spin, or after paying): ``hold1``..``hold3`` pick a pile, then a
  discard (pile 2 -> discard 1 is HOLD2, HOLD1); pick a second pile and discard for a
  two-card flip; ``lever`` flips; ``back`` clears the picks. In cabinet mode a pull with
  nothing picked flips the odds advisor's best pick.
- no jackpot: ``collect`` stops (the turn ends); ``lever`` pays a card to spin again:
  ``hold1``/``hold2`` choose money tray 1/2, ``hold3`` the card value when more than one may
  be paid (the first payment of a turn is always the lowest card).
- a jackpot: ``collect`` cashes out; with the tiles, ``lever`` bets the three cards in the
  chosen tray (``hold1``/``hold2``) and the Pi flips a tile on screen.

Table mode: flipping is done with the cards. The camera sees which discard(s) got a new card
and, from the card's reel side and which pile's top changed, which pile it came from; the flow
then journals the flip, the card's symbol (read on the discard) and the pile's new reel side
(read on the pile). A flip the camera cannot see (the new card looks exactly like the one it
covers) or cannot place (two piles showed the same reel side and neither looks different) is
picked with the buttons. A card the camera cannot read, or reads as something that cannot be
(the card from an apple/cherry pile showing a genie), is named on screen: straighten or fix
it, or enter it with ``hold1``/``hold3`` (previous/next possible card) and ``collect``.
With the camera gone everything is entered that way. Every reading and correction is
journaled (``source`` camera or buttons).

Cabinet mode: a lever pull sets the machine up; after that every card is revealed by the Pi
(seeded per log position, so a resumed game deals the same cards).
"""

from __future__ import annotations

import random

from companion.engine import Action
from companion.engine.games.mega_jackpot.components import side_symbols as split_side
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, FlowView
from companion.flows.mega_jackpot_play import HOLDS, MegaJackpotPlay
from companion.flows.mega_jackpot_table import discard_zone
from companion.screen.views import (
    MegaJackpotPanel,
    ReelSet,
    TableView,
    TileFlipView,
    TrayView,
)
from hardware.events import PRESS, PULL, InputEvent

#: Odds advisor lines shown.
ODDS_LINES = 3


class MegaJackpotFlow(MegaJackpotPlay):
    """One game of Mega Jackpot, 2-4 players, in ``table`` or ``cabinet`` mode."""

    game_id = "mega-jackpot"
    modes = ("table", "cabinet")

    # --- what is shown -----------------------------------------------------------------------

    def _refresh(self) -> None:
        """Recompute what depends only on the engine state (once per log position)."""
        if self._cache_version == self.session.version:
            return
        self._cache_version = self.session.version
        self._odds = ()
        if self.phase() in ("flip", "spun"):
            odds = sorted(self.game.odds(self.state), key=lambda o: (-o.jackpot, -o.expected_points))
            self._odds = tuple(o.label() for o in odds[:ODDS_LINES])

    def odds_lines(self) -> tuple[str, ...]:
        """The odds advisor: the best flips now, e.g. ``pile 2 -> discard 3: 77.8%``."""
        self._refresh()
        return self._odds

    def _pick_text(self) -> str:
        picks = self.picks
        parts = []
        for i in range(0, len(picks), 2):
            part = f"pile {picks[i] + 1}"
            if i + 1 < len(picks):
                part += f" -> discard {picks[i + 1] + 1}"
            parts.append(part)
        return " + ".join(parts)

    def _reveal_prompt(self) -> str:
        reveal = self.state.pending[0]
        if reveal.kind == "tile":
            return "The Pi flips a Mega Jackpot tile..."
        if not self.table_mode:
            return "Setting up the machine..." if self.setting_up() else "Flipping..."
        if self.manual is not None:
            point = self.match.chance_point
            assert point is not None
            outcome = point.outcomes[self.manual % len(point.outcomes)][0]
            where = (f"the card on discard {reveal.target + 1}" if reveal.kind == "front"
                     else f"pile {reveal.pile + 1}'s reel side")
            return f"Enter {where}: {outcome.replace('-', '/')} (HOLD1/HOLD3 change, COLLECT confirms)"
        if self.setting_up():
            return ("Set up: three reel piles reel side up; flip each pile's top card onto the discard "
                    "below it")
        if reveal.kind == "front":
            if reveal.target not in [t for _, t in self._moves_of_last_flip()]:
                return (f"Discard {reveal.target + 1} is empty: flip the top card of pile {reveal.pile + 1} "
                        "onto it")
            return (f"Lay pile {reveal.pile + 1}'s card on discard {reveal.target + 1} "
                    "(COLLECT if it looks like the one beneath)")
        return f"Reading pile {reveal.pile + 1}'s new top (COLLECT if it shows the same reel)"

    def _moves_of_last_flip(self) -> list[tuple[int, int]]:
        """The (pile, discard) moves of the last flip, if the cards being revealed belong to it."""
        log = self.match.log
        for action in reversed(log):
            if action.is_reveal:
                continue
            if action.verb == "flip":
                args = action.int_args()
                return [(args[i], args[i + 1]) for i in range(0, len(args), 2)]
            return []
        return []

    def prompt(self) -> str:
        """What the table does now."""
        self._sync()
        if self.over:
            return "Game over"
        phase = self.phase()
        name = self.player()
        if phase == "reveal":
            if self.waiting_for_setup_pull():
                return "Pull the lever to set up the machine"
            return self._reveal_prompt()
        if phase == "flip":
            if self.pile_question is not None:
                discard, _, piles = self.pile_question
                holds = " or ".join(f"HOLD{p + 1}" for p in piles)
                return f"{name}: which pile did discard {discard + 1}'s card come from? {holds}"
            if self.picks:
                if len(self.picks) % 2:
                    return f"{name}: {self._pick_text()} -> which discard? HOLD1-3"
                more = ", or HOLD a second pile" if len(self.picks) == 2 else ""
                return f"{name}: {self._pick_text()}: LEVER flips{more} (BACK clears)"
            if self.table_mode and any(self._still_shows_taken(d) for d in self.taken):
                return f"Take the jackpot cards off the discards, then {name} flips"
            if self.table_mode:
                return f"{name}: flip one or two cards onto the discards (or HOLD pile, discard, LEVER)"
            best = " + ".join(f"pile {p + 1} -> discard {d + 1}" for p, d in self.best_flip())
            return f"{name}: pull to flip {best}, or HOLD a pile then a discard"
        if phase == "spun":
            value = self.pay_value()
            if value is None:
                return f"{name}: no jackpot and nothing left to pay with: COLLECT ends your turn"
            return (f"{name}: no jackpot. COLLECT stops, or LEVER pays a {value}-point card into "
                    f"tray {self.tray + 1} to spin again")
        symbol = self.state.discard_tops()[0]
        points = 3 * self.game.components.values[symbol]
        line = f"{name}: JACKPOT! Three {symbol}s, {points} points: COLLECT cashes out"
        if self.tiles:
            line += f", LEVER bets on tray {self.tray + 1}"
        return line

    def _still_shows_taken(self, discard: int) -> bool:
        seen = self.observations.get(discard_zone(discard))
        return seen is not None and seen.card_id == self.taken.get(discard)

    def lamps(self) -> dict[str, str]:
        """Only the controls that mean something glow."""
        self._sync()
        lamps = dict.fromkeys(ALL_CONTROLS, LAMP_OFF)
        for control in self.control_labels():
            lamps[control] = LAMP_ON
        if self.tile_show is not None or self.over:
            return lamps
        phase = self.phase()
        if phase == "reveal":
            if self.waiting_for_setup_pull():
                lamps["lever"] = LAMP_BLINK
            elif self.manual is not None:
                lamps["collect"] = LAMP_BLINK
        elif phase == "flip":
            for index in self.picks[0::2] if len(self.picks) % 2 == 0 else ():
                lamps[HOLDS[index]] = LAMP_BLINK
            if len(self.picks) in (2, 4):
                lamps["lever"] = LAMP_BLINK
        elif phase == "spun" and self.payable():
            lamps[HOLDS[self.tray]] = LAMP_BLINK
        elif phase == "jackpot":
            lamps["collect"] = LAMP_BLINK
            if self.tiles:
                lamps["lever"] = LAMP_BLINK
                lamps[HOLDS[self.tray]] = LAMP_BLINK
        return lamps

    def control_labels(self) -> dict[str, str]:
        """Labels of the live controls."""
        if self.tile_show is not None:
            return {"collect": "Continue"}
        if self.over:
            return {"start": "New game"}
        phase = self.phase()
        if phase == "reveal":
            if self.waiting_for_setup_pull():
                return {"lever": "Set up"}
            if not (self.table_mode and self._enterable()):
                return {}
            labels = {"hold1": "Previous", "hold3": "Next",
                      "collect": "Confirm" if self.manual is not None else "Card down"}
            if self.manual is not None and self.camera_ok:
                labels["back"] = "Camera"
            return labels
        if phase == "flip":
            if self.pile_question is not None:
                labels = {HOLDS[p]: f"Pile {p + 1}" for p in self.pile_question[2]}
                labels["back"] = "Buttons"
                return labels
            # At most four hints fit on the screen: offer only what can still be picked.
            choosing_discard = len(self.picks) % 2 == 1
            labels = {}
            for index, control in enumerate(HOLDS):
                if choosing_discard:
                    labels[control] = f"Discard {index + 1}"
                elif self.state.pile_tops[index] is not None and len(self.picks) < 4 \
                        and index not in self.picks[0::2]:
                    labels[control] = f"Pile {index + 1}"
            if len(self.picks) in (2, 4) or (not self.picks and not self.table_mode):
                labels["lever"] = "Flip"
            if self.picks:
                labels["back"] = "Clear"
            elif self.table_mode and self.candidate:
                labels["collect"] = "Cards down"
            return labels
        if phase == "spun":
            labels = {"collect": "Stop"}
            values = self.payable()
            if values:
                other = 1 - self.tray
                labels.update({"lever": f"Pay {self.pay_value()}, tray {self.tray + 1}",
                               HOLDS[other]: f"Tray {other + 1}"})
                if len(values) > 1:
                    labels["hold3"] = "Value"
            return labels
        labels = {"collect": "Cash out"}
        if self.tiles:
            other = 1 - self.tray
            labels.update({"lever": f"Bet tray {self.tray + 1}", HOLDS[other]: f"Tray {other + 1}"})
        return labels

    def _discard_symbols(self) -> tuple[str | None, ...]:
        """Discard tops as the reels show them: a card being flipped there is still spinning."""
        tops = list(self.state.discard_tops())
        if self.revealing():
            for reveal in self.state.pending:
                if reveal.kind == "front":
                    tops[reveal.target] = None
        return tuple(tops)

    def _moving_discards(self) -> set[int]:
        """Discards whose reel spins now: those of the last flip, and any card still to be revealed."""
        moving = {t for _, t in self._moves_of_last_flip()}
        if self.revealing():
            moving |= {reveal.target for reveal in self.state.pending if reveal.kind == "front"}
        return moving

    def _card_symbol(self, kind: str) -> str:
        """The symbol drawn for a card kind: starting cards show the symbol of their value."""
        if not kind.startswith("start-"):
            return kind
        value = self.game.components.value(kind)
        by_value = {v: str(s) for s, v in self.game.components.values.items()}
        return by_value.get(value, "apple")

    def _value_piles(self, seat: int) -> str:
        """A player's value piles: ``1x3 2x2 5x1`` (value x cards)."""
        counts: dict[int, int] = {}
        for kind, n in self.state.in_front[seat].items():
            value = self.game.components.value(kind)
            counts[value] = counts.get(value, 0) + n
        return " ".join(f"{value}x{counts[value]}" for value in sorted(counts)) or "no cards"

    def table_view(self) -> TableView:
        """The discards as reels, the piles' reel sides above them, trays, tiles, odds, scores."""
        self._sync()
        state = self.state
        tops = self._discard_symbols()
        jackpot = self.phase() == "jackpot"
        symbol = state.discard_tops()[0] if jackpot else None
        payout = 3 * self.game.components.values[symbol] if symbol else 0
        moving = self._moving_discards()
        # Untouched discards stay still; no player "held" them, so they carry no HELD mark.
        still = tuple(d not in moving for d in range(3)) if moving else ()
        reels = ReelSet.row(tops, spin_id=self.spin_id(), still=still, win=jackpot, payout=payout,
                            caption=self._pick_text() if self.picks else "", live=self.table_mode)
        chosen = self.tray if (jackpot and self.tiles) or self.phase() == "spun" else None
        trays = tuple(
            TrayView(tuple(self._card_symbol(kind) for kind, n in sorted(tray.items()) for _ in range(n)),
                     self.tray_points(index), chosen=index == chosen)
            for index, tray in enumerate(state.trays)
        )
        tiles: tuple[str | None, ...] = ()
        if self.tiles:
            tiles = tuple(state.tiles_up) + (None,) * int(state.tiles_down)
        sides = tuple(split_side(side) if side else None for side in state.pile_tops)
        panel = MegaJackpotPanel(
            reel_sides=sides,
            pile_counts=tuple(state.pile_sizes),
            discard_counts=tuple(len(stack) for stack in state.discards),
            trays=trays,
            tiles=tiles,
            odds=self.odds_lines(),
            last_payment=state.paid or None,
        )
        active = None if self.over else state.current
        notes = [self._value_piles(seat) for seat in range(len(self.session.seats))]
        status = self.status if self.camera_ok or not self.table_mode else "camera lost: manual entry"
        return TableView(
            game_id=self.game_id,
            title="Mega Jackpot" + (" (cabinet)" if not self.table_mode else ""),
            players=self.player_lines(active, notes),
            prompt=self.prompt(),
            bank=f"Piles {sum(state.pile_sizes)}",
            alert=self.alert,
            reels=reels,
            controls=self.hints(self.control_labels()),
            panel=panel,
            status=status,
        )

    def spin_id(self) -> int:
        """Changes with every flip and every jackpot taken (the discards' tops change)."""
        return self._spin_id

    def tile_view(self) -> TileFlipView | None:
        """The tile being flipped, while it is on screen."""
        show = self.tile_show
        if show is None:
            return None
        return TileFlipView(show.player, show.tile, show.flip_id, show.tray_value, show.monkeys_up,
                            show.message)

    def view(self) -> FlowView:
        """The tile flip while it shows; else the table, or the final scores."""
        return self.tile_view() or super().view()

    # --- autoplay ------------------------------------------------------------------------

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The buttons a sensible player presses (the engine's heuristic move). In table mode the
        flip itself is made with the cards (the simulated dealer does it in the demo)."""
        if self.tile_show is not None:
            return InputEvent("collect", PRESS, 0.0)
        if self.over:
            return None
        phase = self.phase()
        if phase == "reveal":
            return InputEvent("lever", PULL, 0.0) if self.waiting_for_setup_pull() else None
        if phase == "flip" and (self.table_mode or self.pile_question is not None):
            return None
        action = self.game.heuristic_action(self.state, rng)
        return self.buttons_for(action)

    def buttons_for(self, action: Action) -> InputEvent:
        """The next control press towards ``action`` (a flip, pay, stop, cash or attempt)."""
        if action.verb == "flip":
            args = action.int_args()
            wanted = list(args)
            if self.picks != wanted[:len(self.picks)]:
                return InputEvent("back", PRESS, 0.0)
            if len(self.picks) < len(wanted):
                return InputEvent(HOLDS[wanted[len(self.picks)]], PRESS, 0.0)
            return InputEvent("lever", PULL, 0.0)
        if action.verb in ("stop", "cash"):
            return InputEvent("collect", PRESS, 0.0)
        if action.verb == "pay":
            value, tray = action.int_args()
            if self.pay_value() != value:
                return InputEvent("hold3", PRESS, 0.0)
            if self.tray != tray:
                return InputEvent(HOLDS[tray], PRESS, 0.0)
            return InputEvent("lever", PULL, 0.0)
        tray = action.int_args()[0]
        if self.tray != tray:
            return InputEvent(HOLDS[tray], PRESS, 0.0)
        return InputEvent("lever", PULL, 0.0)
