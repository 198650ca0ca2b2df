"""What every game flow shares: the inputs it takes, what it asks of the table, what it shows.

A flow is a small state machine for one game in one mode. It turns controls (``InputEvent``)
and camera observations into engine actions (through :class:`~companion.session.Session`,
which journals each one before it returns), and says at every moment:

- what the table is asked to do (``prompt``) and which controls are live (``lamps``),
- which camera zones are being read (``zones``),
- what the screen shows (:meth:`Flow.view`, a view model from :mod:`companion.screen.views`),
- which sounds to play (``cues``, drained by the daemon after the journal write).

Flows never touch pygame, GPIO or the camera; the daemon wires those.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine import Action, IllegalActionError
from companion.engine.events import Event, TurnEnded
from companion.journal import JournalFullError
from companion.screen.views import (
    ControlHint,
    FinalLine,
    FinalScoresView,
    LotteryDrawView,
    PlayerLine,
    TableView,
    TileFlipView,
)
from companion.session import Session
from hardware.events import InputEvent

LAMP_OFF, LAMP_ON, LAMP_BLINK = "off", "on", "blink"
#: every screen a game flow may show (a game with a screen of its own returns it from view())
FlowView = TableView | FinalScoresView | TileFlipView | LotteryDrawView
ALL_CONTROLS = ("lever", "hold1", "hold2", "hold3", "collect", "start", "back")


class Observation(Protocol):
    """What :class:`vision.tracker.ZoneTracker` reports per zone (structural, so flows do not
    import vision)."""

    zone: str
    status: str
    card_id: str | None


@dataclass(frozen=True)
class Cue:
    """A sound to play: a :class:`~companion.sound.player.SoundPlayer` name and its params."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)


class Flow:
    """Base of the game flows; subclasses set ``game_id``/``modes`` and implement the hooks."""

    game_id = ""
    modes: tuple[str, ...] = ()

    def __init__(self, session: Session) -> None:
        self.session = session
        self.cues: list[Cue] = []
        #: transcript lines besides the session's actions, shown once the frame is drawn: a
        #: table round's moves, journalled as observations until the round's actions are written
        self.table_lines: list[str] = []
        self.alert: str | None = None
        self.status = "resumed" if session.resumed else ""
        self.camera_ok = True
        #: score of every seat at the start and after each finished turn (for the final chart);
        #: it starts from the game's own first scores (Pay Line's bags hold 5 chips, not 0)
        game = session.match.game
        self.history: list[tuple[int, ...]] = [tuple(game.scores(game.initial_state()))]
        if session.match.log:
            self._rebuild_history()

    # --- what subclasses implement ---------------------------------------------------------

    def on_input(self, event: InputEvent) -> None:
        """A control was used."""

    def on_observations(self, observations: Mapping[str, Observation]) -> None:
        """The tracker's latest per-zone observations (table mode)."""

    def tick(self, now: float) -> None:
        """Called once per frame: cabinet chance, time-outs."""

    def rolled_back(self) -> None:
        """The journal refused the block of writes just made (a full disk): the session put its
        match back; a flow keeping more than the match forgets what was not written."""
        self.table_lines.clear()

    def prompt(self) -> str:
        """The one line that says what to do now."""
        return ""

    def lamps(self) -> dict[str, str]:
        """The state of every lamp: off, on (live) or blink."""
        return dict.fromkeys(ALL_CONTROLS, LAMP_OFF)

    def zones(self) -> tuple[str, ...]:
        """The camera zones read now, in the order their cards are revealed."""
        return ()

    def table_view(self) -> TableView:
        """The table screen."""
        raise NotImplementedError

    def suggest(self, rng: random.Random) -> InputEvent | None:
        """The control a sensible player would use now (autoplay for the demo and tests)."""
        return None

    # --- shared --------------------------------------------------------------------------

    @property
    def match(self) -> Any:
        """The engine match."""
        return self.session.match

    @property
    def state(self) -> Any:
        """The engine's state of this game (read only: flows change it through :meth:`apply`)."""
        return self.session.match.state

    @property
    def game(self) -> Any:
        """The engine's rules of this game."""
        return self.session.match.game

    @property
    def table_mode(self) -> bool:
        """True when the physical cards are the truth (the camera reads; the table deals)."""
        return self.session.mode == "table"

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return bool(self.session.match.is_over)

    def view(self) -> FlowView:
        """What the screen shows now (games with a screen of their own return it here too)."""
        return self.final_view() if self.over else self.table_view()

    def apply(self, action: Action | str) -> list[Event] | None:
        """Apply + journal; an illegal action becomes an alert and an error sound.

        A full disk propagates (:class:`JournalFullError`): the daemon pauses the game.
        """
        try:
            events = self.session.apply(action)
        except JournalFullError:
            raise
        except IllegalActionError as error:
            self.alert = str(error)
            self.cue("error")
            return None
        self.alert = None
        if not (Action.parse(action) if isinstance(action, str) else action).is_reveal:
            self.status = ""  # "resumed" shows until a player decides something
        if any(isinstance(e, TurnEnded) for e in events):
            self.history.append(tuple(self.scores()))
        return events

    def cue(self, name: str, **params: Any) -> None:
        """Queue a sound for the daemon."""
        self.cues.append(Cue(name, params))

    def scores(self) -> tuple[int, ...]:
        """Every seat's score now."""
        return tuple(self.match.game.scores(self.match.state))

    def _rebuild_history(self) -> None:
        from companion.engine.match import replay_steps

        for match, step in replay_steps(self.session.config, list(self.session.match.log)):
            if any(isinstance(e, TurnEnded) for e in step.events):
                self.history.append(tuple(match.game.scores(match.state)))

    def player_lines(self, active: int | None, notes: Sequence[str] = ()) -> tuple[PlayerLine, ...]:
        """Names, scores and whose turn it is."""
        scores = self.scores()
        return tuple(
            PlayerLine(name, scores[seat], active=seat == active, note=(list(notes) + [""] * seat)[seat])
            for seat, name in enumerate(self.session.seats)
        )

    def hints(self, labels: Mapping[str, str]) -> tuple[ControlHint, ...]:
        """Control hints for the live controls, in panel order."""
        return tuple(ControlHint(c, labels[c]) for c in ALL_CONTROLS if c in labels)

    def final_view(self) -> FinalScoresView:
        """Final scores, winners and the score history."""
        result = self.match.game.result(self.match.state)
        lines = tuple(
            FinalLine(name, result.scores[seat], winner=seat in result.winners)
            for seat, name in enumerate(self.session.seats)
        )
        history = tuple(tuple(h[seat] for h in self.history) for seat in range(len(self.session.seats)))
        note = "shared victory" if len(result.winners) > 1 else (result.details or "")
        return FinalScoresView(self.game_id, self.match.game.title, lines, history, note)
