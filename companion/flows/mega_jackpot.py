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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.daemon.session import Session
from companion.engine import Action, ImpossibleOutcomeError
from companion.engine.events import Event
from companion.engine.games.mega_jackpot.components import MONKEY, PILES, split_face
from companion.engine.games.mega_jackpot.components import side_symbols as split_side
from companion.engine.games.mega_jackpot.state import (
    InstantWin,
    JackpotCashed,
    TileFlipped,
    TrayBankrupt,
    TrayWon,
)
from companion.flows.base import ALL_CONTROLS, LAMP_BLINK, LAMP_OFF, LAMP_ON, Flow, Observation
from companion.flows.mega_jackpot_table import (
    Moves,
    describe_card,
    discard_zone,
    face_side,
    infer_moves,
    is_face,
    pile_zone,
    side_of_back,
)
from companion.screen.views import (
    FinalScoresView,
    MegaJackpotPanel,
    ReelSet,
    TableView,
    TileFlipView,
    TrayView,
)
from hardware.events import PRESS, PULL, InputEvent

HOLDS = ("hold1", "hold2", "hold3")
#: Seconds the tile flip stays on screen (the flip itself takes 0.9 s); any button returns sooner.
TILE_SECONDS = 3.0
#: Odds advisor lines shown.
ODDS_LINES = 3
#: Camera batches (about 15 a second) a discard may be unreadable, while a flip is awaited, before
#: the screen asks to straighten it (a hand over the table is unreadable for a moment too).
UNSURE_BATCHES = 10
#: Alerts about what the discards show, dropped once they show what the engine expects again.
STALE_WHEN_UNCHANGED = ("Discard", "Pay first", "Three discards", "No pile top", "No more spins",
                        "Which piles")


@dataclass(frozen=True)
class TileShow:
    """A Mega Jackpot attempt on screen: who, which tile, the tray, and what it means."""

    player: str
    tile: str
    flip_id: int
    tray_value: int
    monkeys_up: int
    message: str
    until: float


class MegaJackpotFlow(Flow):
    """One game of Mega Jackpot, 2-4 players, in ``table`` or ``cabinet`` mode."""

    game_id = "mega-jackpot"
    modes = ("table", "cabinet")

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.now = 0.0
        #: flip picks by the hold buttons: pile, discard[, pile, discard]
        self.picks: list[int] = []
        self.tray = 0
        self.value_index = 0
        #: table mode: index into the possible outcomes while a card is entered by hand
        self.manual: int | None = None
        self.observations: dict[str, Observation] = {}
        self.batches = 0
        #: batch since which each zone has been unreadable
        self.unsure_since: dict[str, int] = {}
        #: batches at which the current reveal began / COLLECT said "the card is down"
        self.step_batch = 0
        self.confirmed_at: int | None = None
        #: batches a card that looks like the one before must wait (camera lag) before it counts
        self.settle_batches = 6
        #: batches a single new card waits for a second one (two cards flip together, by hand)
        self.flip_settle_batches = 12
        #: piles whose card the camera saw land on a discard (their next card shows), and when
        self.camera_moved: dict[int, int] = {}
        #: a camera-seen flip waiting to settle: (discard, face) pairs and the batch it was first seen
        self.candidate: tuple[tuple[int, str], ...] = ()
        self.candidate_since = 0
        #: a one-card flip whose pile the camera cannot tell: (discard, face, possible piles)
        self.pile_question: tuple[int, str, tuple[int, ...]] | None = None
        #: table mode: jackpot cards taken off the discards that the camera may still see there
        self.taken: dict[int, str] = {}
        #: the reel side each pile showed before its last card was flipped
        self.flipped_sides: dict[int, str] = {}
        self.tile_show: TileShow | None = None
        self.tile_flips = sum(1 for action in session.match.log if action.verb == "attempt")
        self._seen_version = -1
        self._cache_version = -1
        self._odds: tuple[str, ...] = ()
        self._spin_id = 1 + sum(1 for a in session.match.log if a.verb in ("flip", "cash", "attempt"))
        self._sync()

    # --- engine facts ----------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The engine's MegaJackpotState (read only)."""
        return self.match.state

    @property
    def game(self) -> Any:
        """The engine's MegaJackpotGame."""
        return self.match.game

    @property
    def table_mode(self) -> bool:
        """True when the physical cards are the truth."""
        return self.session.mode == "table"

    @property
    def tiles(self) -> bool:
        """True when the Mega Jackpot tiles are in play."""
        return bool(self.game.tiles)

    def revealing(self) -> bool:
        """True while the table (or the Pi) reveals a card or a tile."""
        return not self.over and self.match.chance_point is not None

    def phase(self) -> str:
        """``reveal``, ``flip``, ``spun``, ``jackpot`` or ``over``."""
        if self.over:
            return "over"
        if self.revealing():
            return "reveal"
        return str(self.state.phase)

    def setting_up(self) -> bool:
        """True before the first turn (the piles and discards are being laid)."""
        return not self.over and self.state.then == "start" and self.state.turns == 0

    def waiting_for_setup_pull(self) -> bool:
        """Cabinet: nothing revealed yet; the lever sets the machine up."""
        return not self.table_mode and self.setting_up() and self.session.version == 0

    def player(self, seat: int | None = None) -> str:
        """A seat's name (default: whose turn it is)."""
        return str(self.session.seats[self.state.current if seat is None else seat])

    def payable(self) -> list[int]:
        """Card values the current player may pay now to spin again."""
        if self.phase() != "spun":
            return []
        return list(self.game.payable_values(self.state))

    def pay_value(self) -> int | None:
        """The value the lever pays now (the chosen one among the payable values)."""
        values = self.payable()
        return values[self.value_index % len(values)] if values else None

    def tray_points(self, tray: int) -> int:
        """Points in money tray ``tray``."""
        return int(self.game.points(self.state.trays[tray]))

    def top_face(self, discard: int) -> str | None:
        """The face id on top of a discard (None when empty)."""
        stack = self.state.discards[discard]
        return str(stack[-1]) if stack else None

    def _sync(self) -> None:
        """Per log position: restart the settle clock, forget stale picks and questions."""
        version = self.session.version
        if version == self._seen_version:
            return
        self._seen_version = version
        self.step_batch = self.batches
        self.confirmed_at = None
        self.pile_question = None
        self.candidate = ()
        if self.manual is not None and (not self.revealing() or self.camera_ok):
            self.manual = None
        if self.table_mode and not self.camera_ok and self._enterable():
            self.manual = 0
        if self.phase() != "flip":
            self.picks = []
        values = self.payable()
        if values and self.value_index >= len(values):
            self.value_index = 0

    def _enterable(self) -> bool:
        """A card (not a tile) is to be revealed at the table."""
        return self.revealing() and self.state.pending[0].kind != "tile"

    # --- inputs ----------------------------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """Route a control to the current step."""
        if event.kind not in (PRESS, PULL):  # a long press is the panel's (menu, shake), not ours
            return
        if self.tile_show is not None:
            self.tile_show = None  # any button: back to the table (the press does nothing else)
            return
        if self.over:
            return
        self._sync()
        phase = self.phase()
        if phase == "reveal":
            if self.waiting_for_setup_pull():
                if event.control == "lever":
                    self.cue("lever")
                    self._resolve_next()
            elif self.table_mode and self._enterable():
                self._reveal_input(event)
        elif phase == "flip":
            self._flip_input(event)
        elif phase == "spun":
            self._spun_input(event)
        elif phase == "jackpot":
            self._jackpot_input(event)
        self._sync()

    def _flip_input(self, event: InputEvent) -> None:
        control = event.control
        if control in HOLDS:
            index = HOLDS.index(control)
            if self.pile_question is not None:
                self._answer_pile(index)
                return
            self._pick(index)
        elif control == "lever":
            if len(self.picks) in (2, 4):
                picks = self.picks
                moves = tuple(sorted((picks[i], picks[i + 1]) for i in range(0, len(picks), 2)))
                self._flip(moves, by_camera=False)
            elif not self.picks and not self.table_mode:
                self._flip(self.best_flip(), by_camera=False)
            else:
                self.alert = ("Flip the cards on the table, or HOLD a pile then a discard, then the LEVER"
                              if not self.picks else "Pick the discard for that pile (HOLD1-3) first")
                self.cue("error")
        elif control == "back" and (self.picks or self.pile_question is not None):
            self.picks = []
            self.pile_question = None
            self.alert = None
            self.cue("click")
        elif control == "collect" and self.table_mode and self.candidate:
            self.candidate_since = -self.flip_settle_batches  # "the cards are down": take what is seen
            self._read_table()

    def _pick(self, index: int) -> None:
        picks = self.picks
        if len(picks) == 4:
            picks.clear()
        if len(picks) % 2 == 0:  # a pile
            if self.state.pile_tops[index] is None:
                self.alert = f"Pile {index + 1} is empty: pick another pile"
                self.cue("error")
                return
            if picks and picks[0] == index:
                self.alert = "Two cards come from two different piles"
                self.cue("error")
                return
        elif len(picks) == 3 and picks[1] == index:
            self.alert = "Two cards go onto two different discards"
            self.cue("error")
            return
        picks.append(index)
        self.alert = None
        self.cue("click")

    def _answer_pile(self, pile: int) -> None:
        assert self.pile_question is not None
        discard, face, piles = self.pile_question
        if pile not in piles:
            named = " or ".join(str(p + 1) for p in piles)
            self.alert = f"Discard {discard + 1}'s card came from pile {named}"
            self.cue("error")
            return
        self.pile_question = None
        self.session.observe({"zone": discard_zone(discard), "card": face, "source": "buttons",
                              "pile": pile, "note": "the table named the pile"})
        self._flip(((pile, discard),), by_camera=True)

    def _flip(self, moves: Moves, by_camera: bool) -> None:
        action = Action.of("flip", *(n for move in moves for n in move))
        if self.apply(action) is None:
            return
        self.cue("lever")
        self.picks = []
        self._spin_id += 1
        self.camera_moved = {pile: self.batches for pile, _ in moves} if by_camera else {}
        self._after_action()

    def _spun_input(self, event: InputEvent) -> None:
        control = event.control
        values = self.payable()
        if control in ("hold1", "hold2") and values:
            self.tray = HOLDS.index(control)
            self.cue("click")
        elif control == "hold3" and len(values) > 1:
            self.value_index = (self.value_index + 1) % len(values)
            self.cue("click")
        elif control == "lever":
            value = self.pay_value()
            if value is None:
                self.alert = "You cannot pay to spin again: COLLECT ends your turn"
                self.cue("error")
                return
            if self.apply(Action.of("pay", value, self.tray)) is not None:
                self.cue("coin")
                self.value_index = 0
        elif control == "collect":
            self.apply(Action.of("stop"))
            self._after_action()

    def _jackpot_input(self, event: InputEvent) -> None:
        control = event.control
        if control == "collect":
            taken = {d: self.top_face(d) for d in range(3)}
            events = self.apply(Action.of("cash"))
            if events is not None:
                if any(isinstance(e, JackpotCashed) for e in events):
                    self.cue("coin")
                self._took(taken)
        elif not self.tiles:
            return
        elif control in ("hold1", "hold2"):
            self.tray = HOLDS.index(control)
            self.cue("click")
        elif control == "lever":
            self.attempt(self.tray)

    def attempt(self, tray: int) -> None:
        """Bet the jackpot in ``tray``; the Pi flips a tile at once and shows it."""
        taken = {d: self.top_face(d) for d in range(3)}
        if self.apply(Action.of("attempt", tray)) is None:
            return
        self.cue("lever")
        self._took(taken)
        tray_value = self.tray_points(tray)
        self.tile_flips += 1
        events = self._resolve_next()
        self._show_tile(events or [], tray, tray_value)

    def _took(self, taken: Mapping[int, str | None]) -> None:
        """The jackpot's cards left the discards: the camera may see them there a little longer."""
        self._spin_id += 1
        if self.table_mode:
            self.taken = {d: face for d, face in taken.items() if face is not None}
        self._after_action()

    def _show_tile(self, events: list[Event], tray: int, tray_value: int) -> None:
        flipped = next((e for e in events if isinstance(e, TileFlipped)), None)
        if flipped is None:
            return
        name = self.player(flipped.player)
        monkeys = self.state.tiles_up.count(MONKEY)
        if any(isinstance(e, InstantWin) for e in events):
            message = f"Three genies and the genie: {name} wins the game!"
        elif any(isinstance(e, TrayWon) for e in events):
            won = next(e for e in events if isinstance(e, TrayWon))
            message = f"MEGA JACKPOT! {name} takes tray {tray + 1}: {won.points} points"
        elif any(isinstance(e, TrayBankrupt) for e in events):
            monkeys = self.game.components.tiles[MONKEY]
            message = f"Third monkey: tray {tray + 1}'s cards leave the game"
        else:
            left = self.game.components.tiles[MONKEY] - monkeys
            message = f"Monkey! {left} more empty the tray" if left > 1 else "Monkey! One more empties it"
        self.tile_show = TileShow(name, flipped.tile, self.tile_flips, tray_value, monkeys, message,
                                  self.now + TILE_SECONDS)
        self.cue("genie" if flipped.tile != MONKEY else "monkey")

    def _reveal_input(self, event: InputEvent) -> None:
        """Table mode while a card is to be revealed: enter or correct it by the buttons."""
        point = self.match.chance_point
        assert point is not None
        outcomes = [name for name, _ in point.outcomes]
        control = event.control
        if control in ("hold1", "hold3"):
            step = -1 if control == "hold1" else 1
            if self.manual is None:
                guess = self._camera_guess()
                self.manual = outcomes.index(guess) if guess in outcomes else 0
            else:
                self.manual = (self.manual + step) % len(outcomes)
            self.cue("click")
        elif control == "collect":
            if self.manual is None:
                self.confirmed_at = self.batches  # "the card is down" (it may look like the old one)
                self._read_table()
                return
            outcome = outcomes[self.manual % len(outcomes)]
            zone = self._reveal_zone()
            seen = self.observations.get(zone)
            self.session.observe({"zone": zone, "card": outcome, "source": "buttons",
                                  "camera": seen.card_id if seen is not None and self.camera_ok else None})
            reveal = self.state.pending[0]
            if self._reveal(outcome) is not None:
                if reveal.kind == "front":
                    self.camera_moved.pop(reveal.pile, None)
                self.manual = None
                self._after_action()
        elif control == "back" and self.manual is not None and self.camera_ok:
            self.manual = None
            self.alert = None

    def _camera_guess(self) -> str | None:
        """What the camera sees for the pending reveal, as an outcome (for manual entry's start)."""
        seen = self.observations.get(self._reveal_zone())
        if seen is None or seen.card_id is None:
            return None
        if self.state.pending[0].kind == "front":
            return split_face(seen.card_id)[0] if is_face(seen.card_id) else None
        return side_of_back(seen.card_id)

    def set_camera(self, ok: bool) -> None:
        """The camera went away (manual entry) or came back."""
        self.camera_ok = ok
        if not ok and self.table_mode and self._enterable() and self.manual is None:
            self.manual = 0
        if ok and self.manual is not None:
            self.manual = None

    # --- the Pi's reveals (cabinet, tiles) --------------------------------------------------

    def _resolve_next(self) -> list[Event] | None:
        point = self.match.chance_point
        if point is None:
            return None
        return self._reveal(self.session.cabinet_outcome(point))

    def _reveal(self, outcome: str) -> list[Event] | None:
        """Apply one reveal; remember a flipped card's reel side (its pile's next top may look alike)."""
        reveal = self.state.pending[0]
        side = self.state.pile_tops[reveal.pile] if reveal.kind == "front" else None
        events = self.apply(Action.reveal(outcome))
        if events is not None and side is not None:
            self.flipped_sides[reveal.pile] = side
        return events

    def tick(self, now: float) -> None:
        """Cabinet: reveal one card per frame. Both: the tile flip (the Pi's), its time on screen."""
        self.now = now
        if self.tile_show is not None and now >= self.tile_show.until:
            self.tile_show = None
        if self.over or not self.revealing():
            return
        self._sync()
        if self.state.pending[0].kind == "tile":  # resumed between the bet and the flip
            tray = self.state.pending[0].target
            value = self.tray_points(tray)  # before the tile decides what becomes of it
            self._show_tile(self._resolve_next() or [], tray, value)
        elif not self.table_mode and not self.waiting_for_setup_pull():
            self._resolve_next()
            self._after_action()
        elif self.table_mode and self.camera_ok and self.observations:
            self._read_table()

    def _after_action(self) -> None:
        self._sync()
        if self.table_mode and self.camera_ok and self.observations:
            self._read_table()

    # --- the camera (table mode) ------------------------------------------------------------

    def zones(self) -> tuple[str, ...]:
        """The zones read now: the card being revealed, or every zone while a flip is awaited."""
        if not self.table_mode or self.over:
            return ()
        phase = self.phase()
        if phase == "reveal":
            if not self._enterable():
                return ()
            reveal = self.state.pending[0]
            if reveal.kind == "side" and self._initial_side(reveal.pile):
                return (discard_zone(reveal.pile), pile_zone(reveal.pile))
            return (self._reveal_zone(),)
        if phase in ("flip", "spun"):
            return tuple(discard_zone(d) for d in range(3)) + tuple(pile_zone(p) for p in range(PILES))
        return ()

    def _reveal_zone(self) -> str:
        reveal = self.state.pending[0]
        return discard_zone(reveal.target) if reveal.kind == "front" else pile_zone(reveal.pile)

    def _initial_side(self, pile: int) -> bool:
        """Setting up, before pile ``pile``'s first card was flipped onto the discard below it."""
        return bool(self.state.then == "start" and not self.state.discards[pile])

    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """Keep the latest readings; turn stable, possible ones into the flip and its reveals."""
        self.observations = dict(observations)
        self.batches += 1
        if self.table_mode and self.camera_ok and not self.over:
            self._read_table()

    def _read_table(self) -> None:
        for _ in range(12):  # a flip and its reveals at most; each step applies one action
            self._sync()
            if self.over or not self.camera_ok or self.manual is not None:
                return
            version = self.session.version
            phase = self.phase()
            self._forget_taken()
            if phase == "reveal":
                if not self._enterable():
                    return
                self._take_reveal()
            elif phase in ("flip", "spun"):
                self._watch_for_flip(phase)
            if self.session.version == version:
                return

    def _seen(self, zone: str) -> Observation | None:
        seen = self.observations.get(zone)
        if seen is None or seen.status not in ("stable", "changed") or seen.card_id is None:
            return None
        return seen

    def _settled(self, moved_at: int | None) -> bool:
        """A card that looks like the one before counts only after the camera had time to see the
        new one: after COLLECT ("the card is down"), or when the camera saw the card move."""
        if self.confirmed_at is not None and self.batches - self.confirmed_at >= self.settle_batches:
            return True
        return moved_at is not None and self.batches - moved_at >= self.settle_batches

    def _unsure(self, zone: str, place: str) -> bool:
        seen = self.observations.get(zone)
        if seen is not None and seen.status == "unsure":
            self.alert = f"{place}: cannot read that card: straighten it, or HOLD1/HOLD3 to enter it"
            return True
        return False

    def _take_reveal(self) -> None:
        reveal = self.state.pending[0]
        point = self.match.chance_point
        assert point is not None
        if reveal.kind == "front":
            zone, place = discard_zone(reveal.target), f"Discard {reveal.target + 1}"
            if self._unsure(zone, place):
                return
            seen = self._seen(zone)
            if seen is None or seen.card_id is None:
                return
            card = seen.card_id
            if not is_face(card):
                self._misread(f"{place} shows a reel side: turn the card symbol side up")
                return
            old = {self.top_face(reveal.target), self.taken.get(reveal.target)}
            if card in old and not self._settled(self.camera_moved.get(reveal.pile)):
                return  # the old card still shows; wait for the new one (or COLLECT)
            expected = self.state.pile_tops[reveal.pile]
            if face_side(card) != expected:
                reel = str(expected).replace("-", "/")
                self._misread(f"{place}: {describe_card(card)} is not pile {reveal.pile + 1}'s {reel} card: "
                              "fix it, or HOLD1/HOLD3")
                return
            outcome = split_face(card)[0]
        else:
            zone, place = pile_zone(reveal.pile), f"Pile {reveal.pile + 1}"
            below = self._seen(discard_zone(reveal.pile)) if self._initial_side(reveal.pile) else None
            if below is not None and below.card_id is not None and is_face(below.card_id):
                zone, card = discard_zone(reveal.pile), below.card_id  # already flipped: its reel side
                outcome = face_side(card)
            else:
                if self._unsure(zone, place):
                    return
                seen = self.observations.get(zone)
                if seen is not None and seen.status == "empty":
                    left = self.state.pile_sizes[reveal.pile] - 1
                    cards = f"{left} card{'s' if left != 1 else ''}"
                    self._misread(f"{place} looks empty but {cards} are left: put it back, or HOLD1/HOLD3",
                                  sound=False)
                    return
                seen = self._seen(zone)
                if seen is None or seen.card_id is None:
                    return
                card = seen.card_id
                side = side_of_back(card)
                if side is None:
                    self._misread(f"{place} shows {describe_card(card)}: the pile lies reel side up")
                    return
                if not self._initial_side(reveal.pile):
                    flipped = self.flipped_sides.get(reveal.pile)
                    if side == flipped and not self._settled(self.camera_moved.get(reveal.pile)):
                        return
                outcome = side
        try:
            point.check(outcome)
        except ImpossibleOutcomeError:
            self._misread(f"{place} reads {describe_card(card)}, which cannot be: fix it, or HOLD1/HOLD3")
            return
        self.session.observe({"zone": zone, "card": card, "source": "camera"})
        if self._reveal(outcome) is not None:
            if reveal.kind == "side":
                self.camera_moved.pop(reveal.pile, None)
            else:  # the camera saw the card land: the pile shows its next card now
                self.camera_moved.setdefault(reveal.pile, self.batches)

    def _misread(self, message: str, sound: bool = True) -> None:
        if self.alert != message and sound:
            self.cue("error")
        self.alert = message

    def _forget_taken(self) -> None:
        """A taken jackpot card no longer seen on its discard is gone for good."""
        for discard, face in list(self.taken.items()):
            seen = self.observations.get(discard_zone(discard))
            if seen is not None and seen.status in ("stable", "changed", "empty") and seen.card_id != face:
                del self.taken[discard]

    def _long_unsure(self, zone: str) -> bool:
        """True once a zone has been unreadable for a while (a hand passing over it is not)."""
        seen = self.observations.get(zone)
        if seen is None or seen.status != "unsure":
            self.unsure_since.pop(zone, None)
            return False
        since = self.unsure_since.setdefault(zone, self.batches)
        return self.batches - since >= UNSURE_BATCHES

    def _watch_for_flip(self, phase: str) -> None:
        """Before a flip is journaled: which discards show a new card, and from which pile."""
        if self.picks or self.pile_question is not None:
            return
        changed: dict[int, str] = {}
        for discard in range(3):
            zone = discard_zone(discard)
            if self._long_unsure(zone):
                self._misread(f"Discard {discard + 1}: cannot read that card: straighten it, or HOLD pile, "
                              "discard, LEVER", sound=False)
                return
            seen = self._seen(zone)
            if seen is None or seen.card_id is None:
                continue
            card = seen.card_id
            if card == self.top_face(discard) or card == self.taken.get(discard):
                continue
            if not is_face(card):
                self._misread(f"Discard {discard + 1} shows a reel side: turn the card symbol side up")
                return
            changed[discard] = card
        if not changed:
            if self.alert and self.alert.startswith(STALE_WHEN_UNCHANGED):
                self.alert = None
            return
        if phase == "spun":
            value = self.pay_value()
            if value is None:
                self._misread("No more spins this turn: put the card back; COLLECT stops")
            else:
                self._misread(f"Pay first: LEVER pays a {value}-point card into tray {self.tray + 1} "
                              "(HOLD1/HOLD2 tray)", sound=False)
            return
        if len(changed) > 2:
            self._misread("Three discards changed: a spin flips one or two cards; put one back")
            return
        key = tuple(sorted(changed.items()))
        if key != self.candidate:
            self.candidate, self.candidate_since = key, self.batches
        if len(changed) == 1 and self.batches - self.candidate_since < self.flip_settle_batches:
            return  # a second card may still be on its way (two cards flip together)
        piles_changed = set()
        for pile in range(PILES):
            zone = pile_zone(pile)
            seen = self.observations.get(zone)
            if seen is None:
                continue
            if seen.status == "empty" or (seen.card_id is not None and seen.status in ("stable", "changed")
                                          and side_of_back(seen.card_id) != self.state.pile_tops[pile]):
                piles_changed.add(pile)
        options = infer_moves(changed, self.state.pile_tops, self.state.pile_sizes, piles_changed)
        if not options:
            discard, card = sorted(changed.items())[0]
            self._misread(f"Discard {discard + 1}: no pile showed the reel of {describe_card(card)}: "
                          "put it back, or HOLD pile, discard")
            return
        if len(options) > 1:
            if len(changed) == 1:
                discard, face = key[0]
                piles = tuple(sorted({moves[0][0] for moves in options}))
                self.pile_question = (discard, face, piles)
                self.alert = None
                return
            self._misread("Which piles? HOLD pile, discard for each card, then the LEVER", sound=False)
            return
        for discard, card in key:
            self.session.observe({"zone": discard_zone(discard), "card": card, "source": "camera"})
        self._flip(options[0], by_camera=True)

    # --- what is shown -----------------------------------------------------------------------

    def best_flip(self) -> Moves:
        """The odds advisor's pick: the flip most likely to make a jackpot (then most points)."""
        odds = self.game.odds(self.state)
        best = max(odds, key=lambda o: (o.jackpot, o.expected_points, -len(o.moves)))
        return tuple(best.moves)

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
        held = tuple(d not in moving for d in range(3)) if moving else ()
        reels = ReelSet.row(tops, spin_id=self.spin_id(), held=held, win=jackpot, payout=payout,
                            caption=self._pick_text() if self.picks else "")
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

    def view(self) -> TableView | FinalScoresView | TileFlipView:  # type: ignore[override]
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
