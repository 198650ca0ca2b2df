"""Mega Jackpot's flow, the playing half: engine facts, the controls, the Pi's reveals and the
camera's readings at the table. :mod:`companion.flows.mega_jackpot` adds what the table sees
(prompt, lamps, the screen) and names the game; its docstring says how a turn is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine import Action
from companion.engine.events import Event
from companion.engine.games.mega_jackpot.components import MONKEY, split_face
from companion.engine.games.mega_jackpot.state import (
    InstantWin,
    JackpotCashed,
    TileFlipped,
    TrayBankrupt,
    TrayWon,
)
from companion.flows.base import Flow, Observation
from companion.flows.mega_jackpot_reading import MegaJackpotTableReading
from companion.flows.mega_jackpot_table import (
    Moves,
    discard_zone,
    is_face,
    side_of_back,
)
from companion.session import Session
from hardware.events import PRESS, PULL, InputEvent

HOLDS = ("hold1", "hold2", "hold3")
#: Seconds the tile flip stays on screen (the flip itself takes 0.9 s); any button returns sooner.
TILE_SECONDS = 3.0


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


class MegaJackpotPlay(MegaJackpotTableReading, Flow):
    """Mega Jackpot's state machine: turns controls and camera readings into engine actions.

    Not a game's flow on its own (no ``game_id``): that is
    :class:`~companion.flows.mega_jackpot.MegaJackpotFlow`.
    """

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


    def best_flip(self) -> Moves:
        """The odds advisor's pick: the flip most likely to make a jackpot (then most points)."""
        odds = self.game.odds(self.state)
        best = max(odds, key=lambda o: (o.jackpot, o.expected_points, -len(o.moves)))
        return tuple(best.moves)
