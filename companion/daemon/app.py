"""The main loop: one process, paced by the screen clock, wiring every part together.

Per frame (:meth:`Daemon.step`): drain the input queue (GPIO callbacks and the camera thread
put into it; the keyboard is read from pygame's events here), let the flow act (each engine
action is committed to the journal inside :meth:`Session.apply` before anything is drawn),
draw the view, then play the sounds, light the lamps and ping the systemd watchdog. Nothing in
the loop waits: the camera and vision run on their own thread, the panel's callbacks only put
into the queue, and a journal write is one small SQLite transaction.

A journal that cannot be written (full disk, read-only card) pauses the game, at boot as in
play: the action that could not be written is taken back (the match is exactly as on disk), the
screen and the log say why, and the same input (or the opening of the journal, or a game's final
result) is retried every two seconds until a write succeeds.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import logging
import os
import queue
import random
import time
from collections.abc import Callable
from typing import Any

from companion.config import variants_of
from companion.daemon import starting
from companion.daemon.camera import CameraStatus, CameraWorker, VisionUpdate, open_configured
from companion.daemon.frame_output import FrameOutput
from companion.daemon.menu import menu_input
from companion.daemon.notify import Notifier
from companion.daemon.options import RunOptions
from companion.engine import GameConfig
from companion.errors import UserError
from companion.flows import make_flow
from companion.flows.base import Flow
from companion.flows.lobby import Lobby, MenuRequest, StartRequest
from companion.flows.teach import TeachFlow, TeachFrame
from companion.journal import Journal, JournalError, JournalFullError, JournalUnwritableError
from companion.scoreboard.address import LinkSource
from companion.screen.views import (
    ScoreboardLink,
    View,
)
from companion.session import Session
from hardware.events import LONG_PRESS, PRESS, PULL, RELEASE, InputEvent

log = logging.getLogger(__name__)

#: Seconds between retries of a write the full disk refused.
PAUSE_RETRY = 2.0
#: Seconds between redraws of a screen where nothing moves (only the hints' and alerts' slow
#: blinks change it): 10 a second instead of 60 leaves that CPU to vision.
IDLE_REDRAW = 0.1
#: what the camera thread does with each frame instead of reading cards (see CameraWorker's job)
CameraJob = Callable[[str], Callable[[Any], object]]
PAUSED_MESSAGE = JournalFullError.screen
#: What a pause retries besides an input: opening the journal (at boot), a game's final result.
_BOOT = "open the journal"
_RESULT = "write the result"


class Daemon(FrameOutput):
    """The companion's one process. ``start()``, then ``run()`` (or ``step()`` per frame)."""

    def __init__(self, options: RunOptions) -> None:
        self.options = options
        self.config = options.config
        self.queue: queue.Queue[object] = queue.Queue()
        self.notifier = Notifier()
        settings = self.config.game
        self.lobby = Lobby(settings.default, settings.players, settings.mode, settings.seats)
        self.flow: Flow | None = None
        self.journal: Journal | None = None
        self.display: Any = None
        self.sound: Any = None
        self.panel: Any = None
        self.keyboard: Any = None
        self.camera: CameraWorker | None = None
        self.camera_ok: bool | None = None
        self.camera_message = ""
        self.mat_found = True
        self.menu: int | None = None
        board = self.config.scoreboard
        self._link = LinkSource(board.port, board.host) if board.enabled else None
        #: the menu opened outside a game (from game select): for this game
        self.menu_game: MenuRequest | None = None
        self.menu_error = ""
        #: the "Teach cards" screens, while a deck is being taught
        self.teach: TeachFlow | None = None
        self._start_down = False
        self.paused: str | None = None
        self._retry: object | None = None
        self._retry_at = 0.0
        self.note = ""
        #: the resume note goes once the game moves past this action (None: it stays)
        self._note_until: int | None = None
        self.frames = 0
        self.running = False
        self.view: View | None = None
        self.last_drawn_at = 0.0
        #: frames actually drawn (a still screen is redrawn only at IDLE_REDRAW), and the last one
        self.redraws = 0
        self._drawn: tuple[View, float] | None = None
        self._shown_version = 0
        self._lamps: dict[str, str] | None = None
        #: (frame time, handled time) of each camera observation the flow saw (for the benchmark)
        self.vision_latency: list[tuple[float, float]] = []
        self._started_at = time.monotonic()

    # --- start and stop --------------------------------------------------------------------

    def start(self) -> None:
        """Open the journal, screen, sound and controls; resume or start a game; tell systemd."""
        if self.options.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        from companion.screen.display import Display
        from companion.sound.player import SoundPlayer

        screen = self.config.screen
        self.display = Display(screen.width, screen.height, screen.rotation,
                               fullscreen=screen.fullscreen and not self.options.headless)
        # Without an audio device the player stays silent; it never stops the game.
        self.sound = SoundPlayer(self.config.audio.device, self.config.audio.volume)
        self._open_controls()
        # The screen first, so a journal that cannot be written yet is a message, not a blank.
        self._boot(time.monotonic())
        self.running = True
        # The camera thread is running by now (for a table game); READY does not wait for its
        # first frame: a missing camera is a fault the game survives with entry by buttons.
        self.notifier.ready(f"paused: {self.paused}" if self.paused else "screen, controls and camera up")

    def _boot(self, now: float) -> None:
        """Open the journal and resume its game (or start the asked one); a disk that cannot be
        written pauses here and is retried. Anything else (not a journal, a second daemon) is a
        one-line error that stops the start."""
        try:
            if self.journal is None:
                self.journal = Journal.open(self.options.journal_path or self.config.journal_path)
                if self.journal.recovery:
                    report = self.journal.recovery
                    self.note = (f"damaged journal kept as {report.moved_to.name}; "
                                 f"saved {report.actions_saved} actions")
            session = self._resume()
        except JournalUnwritableError as error:
            self._pause(error, _BOOT, now)
            return
        if session is not None:
            self._begin(session)
            self._check_result(now)
        elif self.options.game:
            request = self._asked()
            self._guarded(lambda: self._start_game(request), request)

    def _resume(self) -> Session | None:
        """The unfinished game to go on with, saying so (and what was not started instead)."""
        assert self.journal is not None
        opening = starting.opening(self.journal, self.options.new, self.options.game, self.options.mode,
                                   self.options.players)
        for line in opening.lines:
            self._announce(line)
        if opening.note:
            self.note, self._note_until = opening.note, opening.note_until
        return opening.session

    def _asked(self) -> StartRequest:
        """The game the command line (else the config) asks for."""
        players = self.options.players
        return StartRequest(self.options.game or self.config.game.default,
                            self.options.mode or self.config.game.mode,
                            self.config.game.players if players is None else players)

    def _announce(self, line: str) -> None:
        """Say a line once: on the transcript, else ``announce`` (stdout, journalctl), else the log."""
        if self.options.transcript is None and self.options.announce is not None:
            self.options.announce(line)
        else:
            self._emit(line)

    def _panel_config(self) -> Any:
        panel = self.config.panel()
        if "long_press_controls" not in self.config.pins:
            # Pay Line shakes a box with a long press on its hold button.
            panel = dataclasses.replace(panel, long_press_controls=("start", "hold1", "hold2", "hold3"))
        return panel

    def _open_controls(self) -> None:
        from hardware.keyboard import KeyboardControls

        panel_config = self._panel_config()
        self.keyboard = KeyboardControls(panel_config)
        use_gpio = self.options.use_gpio
        if use_gpio is None:
            use_gpio = not self.options.keyboard and (
                self.options.pin_factory is not None or bool(glob.glob("/dev/gpiochip*"))
            )
        if not use_gpio:
            return
        from hardware.errors import PanelError
        from hardware.panel import ControlPanel

        try:
            self.panel = ControlPanel(panel_config, sink=self.queue.put, pin_factory=self.options.pin_factory)
        except PanelError as error:
            self.note = f"buttons unavailable ({error}); keyboard only"
            log.warning("%s", self.note)

    def close(self) -> None:
        """Release everything (idempotent)."""
        self.running = False
        self.notifier.stopping()
        if self.camera is not None:
            self.camera.stop()
            self.camera = None
        if self.panel is not None:
            self.panel.close()
            self.panel = None
        if self.display is not None:
            self.display.close()
            self.display = None
        if self.journal is not None:
            self.journal.close()

    # --- games -----------------------------------------------------------------------------

    def _start_game(self, request: StartRequest) -> None:
        assert self.journal is not None
        seed = self.options.seed if self.options.seed is not None else int(time.time() * 1000) % 2**31
        wanted = self.options.variants if self.options.variants is not None else self.config.game.variants
        config = GameConfig(request.game_id, request.players, variants_of(request.game_id, wanted), seed=seed)
        seats = list(request.seats) if request.seats else self.config.game.seat_names(request.players)
        starting.check_start(request.game_id, request.mode, request.players, config.variants)  # first
        if self._note_until is not None:
            self.note, self._note_until = "", None
        self._begin(Session.start(self.journal, config, seats, request.mode))

    def _begin(self, session: Session) -> None:
        self.flow = make_flow(session)
        self._shown_version = session.version
        self.menu = None
        if session.mode == "table":
            self._start_camera(session.config.game)
        else:
            self._stop_camera()

    def _end_game(self) -> None:
        if self.flow is not None and not self.flow.over:
            self.flow.session.abandon()
        if self._note_until is not None:
            self.note, self._note_until = "", None
        self.flow = None
        self.menu = None
        self._stop_camera()

    def _start_camera(self, game_id: str, job: CameraJob | None = None) -> None:
        self._stop_camera()
        opener = self.options.camera_factory
        factory = functools.partial(opener, game_id) if opener else open_configured(self.config.camera.source)
        camera = self.config.camera
        self.camera = CameraWorker(factory, game_id, self.queue.put, agree=camera.stable_frames,
                                   min_confidence=camera.min_confidence, job=job)
        self.camera.start()

    def _start_teaching(self, game_id: str) -> None:
        """Open "Teach cards" for ``game_id``: its faces one by one, the camera cutting cards out."""
        from companion.daemon.teaching import cut_out_job, open_teaching

        try:
            self.teach = open_teaching(game_id)
        except UserError as error:
            self.menu_error = str(error)  # e.g. a game without cards: said on the menu
            return
        self.menu = self.menu_game = None
        self._start_camera(game_id, job=cut_out_job)

    def _end_teaching(self) -> None:
        if self.teach is not None and self.teach.kept_this_time:
            self._emit(f"taught {self.teach.kept_this_time} picture(s) of {self.teach.title} cards")
        self.teach = None
        self._stop_camera()

    def _stop_camera(self) -> None:
        if self.camera is not None:
            self.camera.stop()
            self.camera = None
            self.camera_ok = None

    # --- inputs ----------------------------------------------------------------------------

    def _guarded(self, act: Callable[[], None], item: object) -> None:
        """Run ``act``; a journal that cannot be written pauses the game and keeps ``item`` to retry."""
        try:
            act()
        except JournalUnwritableError as error:
            self._pause(error, item, time.monotonic())
            return
        self._check_result(time.monotonic())

    def _pause(self, error: JournalUnwritableError, item: object, now: float) -> None:
        """Show why the game waits, log it once, and retry ``item`` in :data:`PAUSE_RETRY` s."""
        if self.paused != error.screen:
            log.warning("game paused: %s", error)
            self.notifier.status(f"paused: {error.screen}")
        self.paused = error.screen
        self._retry = item
        self._retry_at = now + PAUSE_RETRY

    def _check_result(self, now: float) -> None:
        """A game over whose result the disk refused: pause until it is written."""
        session = self.flow.session if self.flow is not None else None
        if session is not None and session.result_pending is not None and session.result_error is not None:
            self._pause(session.result_error, _RESULT, now)

    def dispatch(self, item: object) -> None:
        """Handle one queued thing: a control, a camera observation, a camera status."""
        if isinstance(item, TeachFrame):
            if self.teach is not None:
                self.teach.on_frame(item)
            return
        if isinstance(item, VisionUpdate):
            self.mat_found = item.mat_found
            if not item.mat_found:
                return  # without the mat no zone can be placed: ask for the mat instead
            if self.flow is not None and not self.paused:
                flow = self.flow
                self._guarded(lambda: self._committed(lambda: flow.on_observations(item.observations)), None)
                self.vision_latency.append((item.frame_at, time.monotonic()))
            return
        if isinstance(item, CameraStatus):
            self.camera_ok = item.ok
            self.camera_message = item.message
            if item.ok and item.note:
                # The camera reads, but not every taught picture (camera.ready_status): the
                # host sees which, on the screen's status line, not only in the log.
                self.note, self._note_until = item.note, None
            if self.flow is not None and hasattr(self.flow, "set_camera"):
                self.flow.set_camera(item.ok)
            if self.teach is not None:
                self.teach.set_camera(item.ok, item.message)
            self._emit(f"camera: {item.message}")
            return
        if isinstance(item, InputEvent) and not self.paused:
            self._guarded(lambda: self._committed(lambda: self._on_input(item)), item)

    def _committed(self, act: Callable[[], None]) -> None:
        """Run ``act`` with all its journal writes in one transaction (one commit per camera
        update, input or frame, not one per card; a refused write leaves the match as it was)."""
        flow = self.flow
        if flow is None:
            act()
            return
        try:
            with flow.session.transaction():
                act()
        except JournalError:
            flow.rolled_back()  # the session put its match back; the flow forgets the rest
            raise

    def _on_input(self, event: InputEvent) -> None:
        if self.teach is not None:
            self.teach.on_input(event)
            if self.teach.finished:
                self._end_teaching()
            return
        if self.flow is None and self.menu is not None:
            menu_input(self, event)
            return
        if self.flow is None:
            request = self.lobby.on_input(event)
            if isinstance(request, MenuRequest):
                self.menu, self.menu_game = 0, request
            elif request is not None:
                self._guarded(lambda: self._start_game(request), request)
            return
        if event.control == "start":
            # During a game a long press opens the menu; a short click (acted on at release,
            # when no long press came) goes to the flow (Pay Line's double or nothing).
            if event.kind == PRESS:
                self._start_down = True
                return
            if event.kind == LONG_PRESS:
                self._start_down = False
                if not self.flow.over:
                    self.menu = None if self.menu is not None else 0
                return
            if event.kind != RELEASE or not self._start_down:
                return
            self._start_down = False
            event = dataclasses.replace(event, kind=PRESS)
        if self.menu is not None:
            menu_input(self, event)
            return
        if self.flow.over:
            if event.control in ("start", "lever", "collect") and event.kind in (PULL, PRESS):
                self._end_game()
            return
        self.flow.on_input(event)

    def _scoreboard_link(self) -> ScoreboardLink | None:
        """The scoreboard's address and QR code when it is switched on in the config."""
        return self._link.get(time.monotonic()) if self._link is not None else None

    def _pump(self) -> None:
        if self.keyboard is not None and self.display is not None:
            import pygame

            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    self.running = False
                for item in self.keyboard.translate(event):
                    self.dispatch(item)
            for item in self.keyboard.tick():
                self.dispatch(item)
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            self.dispatch(item)

    # --- the frame -------------------------------------------------------------------------

    def step(self, now: float | None = None) -> None:
        """One frame: inputs, flow, draw, then sounds, lamps and the watchdog."""
        now = time.monotonic() if now is None else now
        self._pump()
        if self.paused and now >= self._retry_at:
            self._retry_paused(now)
        autoplay = (self.options.autoplay is not None and self.teach is None
                    and self.frames % self.options.autoplay_every == 0)
        if autoplay and not self.paused:
            self._autoplay()
        if self.flow is not None and not self.paused:
            flow = self.flow
            self._guarded(lambda: self._committed(lambda: flow.tick(now)), None)
        if self.options.dealer is not None and not self.paused:
            self.options.dealer.update(self, now)
        self.view = self._current_view()
        if self._redraw(self.view, now):
            self.display.draw(self.view, now)
            self.redraws += 1
            self._drawn = (self.view, now)
            self.last_drawn_at = time.monotonic()
        self.frames += 1
        if self.frames == 1:
            # CPU since the process began (imports included): what a cold start costs a Pi's core
            self._emit(f"first frame after {self.last_drawn_at - self._started_at:.2f} s "
                       f"({time.process_time():.2f} s CPU)")
        self._after_draw()
        self.notifier.watchdog(now)

    def _redraw(self, view: View, now: float) -> bool:
        """Whether this frame must be drawn: the view changed, the screen moves by itself, or the
        idle redraw is due (the slow blinks)."""
        if self._drawn is None or getattr(self.display, "moving", True):
            return True
        drawn, at = self._drawn
        return view != drawn or now - at >= IDLE_REDRAW or now < at

    def _retry_paused(self, now: float) -> None:
        item, self.paused = self._retry, None
        self._retry = None
        if item is None:
            return  # the flow's own tick retries on this frame
        if item == _BOOT:
            self._boot(now)
        elif item == _RESULT:
            if self.flow is not None and not self.flow.session.save_result():
                self._check_result(now)
        elif isinstance(item, StartRequest):
            self._guarded(lambda: self._start_game(item), item)
        else:
            self.dispatch(item)
        if self.paused:
            self._retry_at = now + PAUSE_RETRY
        else:
            log.info("journal writable again: game resumed")
            self.notifier.status("playing")

    def _autoplay(self) -> None:
        if self.flow is None:
            request = self._asked()
            self._guarded(lambda: self._start_game(request), request)
            return
        if self.flow.over:
            return
        # Seeded by the log position, so a restarted bot makes the same choices (crash test).
        event = self.flow.suggest(random.Random(f"{self.options.autoplay}:{self.flow.session.version}"))
        if event is not None:
            self.dispatch(dataclasses.replace(event, at=time.monotonic()))
            if event.control == "start":
                self.dispatch(InputEvent("start", RELEASE, time.monotonic()))

    def run(self) -> int:
        """Run until quit (window closed, SIGTERM, time or frame limit, or the game is over)."""
        import pygame

        clock = pygame.time.Clock()
        started = time.monotonic()
        try:
            while self.running:
                self.step()
                if self.options.frames is not None and self.frames >= self.options.frames:
                    break
                if self.options.seconds is not None and time.monotonic() - started >= self.options.seconds:
                    break
                if not self.options.fast:
                    clock.tick(self.options.fps)
        finally:
            self.close()
        return 0
