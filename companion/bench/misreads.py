"""``companion bench misreads``: does reading on fewer frames ever reveal a card that is not there?

The whole stack plays Bandit in table mode: the simulated dealer lays the cards the flow asks
for, the camera thread reads the frames, the tracker agrees, the flow reveals and journals,
the bot at the buttons decides. The table is made harder than ``companion run``'s:

- every frame goes through the rough camera (:mod:`vision.rough_camera`: lens distortion,
  vignetting, motion blur, exposure, shot noise, JPEG);
- each card is slid into place: it appears a card or more away, over a neighbouring zone, and
  slides to its spot over several frames, slowing down at the end as a hand does;
- now and then a hand (a skin-coloured palm and fingers) passes over the mat for a few frames.

Checked at every camera reveal, on the main thread as it is journalled: the card revealed is
the card the dealer laid for that reveal and the one lying in that zone. Counted: wrong reveals,
games whose final scores differ from the same game with every card as laid (wrong payouts),
and how often a player had to re-place a card (the dealer straightens a card the camera has
not taken after 3 s) or enter it by the buttons (after 5 s).

``--rule agree`` is the daemon's rule (two frames in a row, the card at rest); ``--rule
majority`` the rule before issue 16 (a majority of 5 frames, then 3 confirmations).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

NAME = "misreads"
HELP = "wrong reveals and payouts on a rough camera with slides and hands (JSON)"
#: frames a card takes to slide into place, and how far it starts (in card widths)
SLIDE_FRAMES = (5, 12)
SLIDE_FROM = (0.8, 1.6)
#: a hand passes over the mat about once every this many frames, for 4-9 frames
HAND_EVERY = 25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: how many turns (cards read), which agreement rule, the seed."""
    parser.add_argument("--turns", type=int, default=1000, help="cards to read (default 1000)")
    parser.add_argument("--rule", choices=("agree", "majority"), default="agree",
                        help="agree: 2 frames at rest (the daemon's); majority: 5-frame vote, "
                             "then 3 confirmations (before issue 16)")
    parser.add_argument("--seed", type=int, default=1)


class RoughTable:
    """The simulated table seen through the rough camera, with slides and passing hands.

    Wraps :class:`vision.simulated.SimulatedTable` for the dealer (``place``) and the camera
    thread (``read``); ``truth`` is the card lying in each zone, ``replaced`` counts cards laid
    again where the same card already lay (a player straightening it).
    """

    def __init__(self, game_id: str, seed: int) -> None:
        import numpy as np

        from vision.rough_camera import RoughCamera
        from vision.simulated import SimulatedTable

        self.table = SimulatedTable(game_id, seed=seed)
        self.rough = RoughCamera(seed)
        self.truth: dict[str, str | None] = {}
        self.replaced = 0
        self.laid = 0
        self._rng = np.random.default_rng([seed, 16])
        self._lock = threading.Lock()
        self._slides: dict[str, tuple[tuple[float, float], tuple[float, float], int, int]] = {}
        self._hand: tuple[tuple[float, float], tuple[float, float], int, int] | None = None
        self._frames = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def place(self, zone: str, card_id: str | None) -> None:
        """Lay ``card_id`` in ``zone`` by sliding it in (None clears the zone)."""
        with self._lock:
            again = card_id is not None and self.truth.get(zone) == card_id
            self.table.place(zone, card_id)
            self.truth[zone] = card_id
            if card_id is None:
                self._slides.pop(zone, None)
                return
            self.replaced += again
            self.laid += not again
            placed = self.table.cards[zone]
            angle = float(self._rng.uniform(0, 2 * math.pi))
            distance = float(self._rng.uniform(*SLIDE_FROM)) * 63.0
            x, y = placed.centre
            start = (x + distance * math.cos(angle), y + distance * math.sin(angle))
            frames = int(self._rng.integers(SLIDE_FRAMES[0], SLIDE_FRAMES[1] + 1))
            self._slides[zone] = (start, placed.centre, frames, 0)
            placed.centre = start

    def _advance(self) -> None:
        """Move every sliding card one frame on (ease-out: fast first, slowing into place)."""
        for zone, (start, end, frames, done) in list(self._slides.items()):
            placed = self.table.cards.get(zone)
            if placed is None:
                self._slides.pop(zone)
                continue
            done += 1
            u = min(1.0, done / frames)
            ease = 1.0 - (1.0 - u) ** 2
            placed.centre = (start[0] + (end[0] - start[0]) * ease, start[1] + (end[1] - start[1]) * ease)
            if u >= 1.0:
                self._slides.pop(zone)
            else:
                self._slides[zone] = (start, end, frames, done)

    def _hand_over(self, frame: Any) -> None:
        """Now and then a hand passes over the mat: a palm and fingers sweeping across."""
        import cv2

        h, w = frame.shape[:2]
        if self._hand is None and self._rng.random() < 1.0 / HAND_EVERY:
            start = (float(self._rng.uniform(0, w)), float(self._rng.uniform(0, h)))
            end = (float(self._rng.uniform(0, w)), float(self._rng.uniform(0, h)))
            self._hand = (start, end, int(self._rng.integers(4, 10)), 0)
        if self._hand is None:
            return
        start, end, frames, done = self._hand
        u = done / frames
        x, y = start[0] + (end[0] - start[0]) * u, start[1] + (end[1] - start[1]) * u
        size = self.table.style.card_px
        cv2.ellipse(frame, (int(x), int(y)), (int(size * 0.55), int(size * 0.45)), 30.0, 0, 360,
                    (120, 150, 200), -1)
        for finger in range(4):
            tip = (int(x + size * (0.5 + 0.1 * finger)), int(y - size * (0.5 - 0.2 * finger)))
            cv2.line(frame, (int(x), int(y)), tip, (110, 140, 190), int(size * 0.13))
        self._hand = None if done + 1 >= frames else (start, end, frames, done + 1)

    def read(self) -> Any:
        """The next frame, as the rough camera delivers it."""
        with self._lock:
            self._advance()
            frame = self.table.read()
        if frame is None:
            return None
        self._hand_over(frame)
        return self.rough.apply(frame)

    def close(self) -> None:
        """Stop producing frames."""
        self.table.close()


def play(turns: int, rule: str, seed: int, tmp: Path) -> dict[str, Any]:
    """Bandit matches through the daemon until ``turns`` cards were read (or entered); the counts."""
    from companion.daemon import app
    from companion.daemon.app import Daemon, RunOptions
    from companion.daemon.camera import CameraWorker
    from companion.engine import replay
    from companion.simtable.dealer import SimDealer, SimulatedCamera

    class Camera(SimulatedCamera):
        def __call__(self, game_id: str) -> Any:
            if game_id not in self.tables:
                self.tables[game_id] = RoughTable(game_id, self.seed)
            return self.tables[game_id]

    class MajorityWorker(CameraWorker):
        """The rule before issue 16: a majority of 5 frames, then 3 confirmations."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs.update(agree=None, window=5, confirm=3)
            super().__init__(*args, **kwargs)

    counts = {"camera_reveals": 0, "wrong_reveals": 0, "button_entries": 0, "re_placed": 0, "cards_laid": 0,
              "matches": 0, "wrong_payouts": 0}
    wrong: list[dict[str, Any]] = []
    started = time.process_time()
    wall = time.monotonic()
    match = 0
    if rule == "majority":
        app.CameraWorker = MajorityWorker  # type: ignore[misc]
    try:
        while counts["camera_reveals"] + counts["button_entries"] < turns:
            match += 1
            camera = Camera(seed * 1000 + match)
            dealer = SimDealer(camera, seed=seed * 1000 + match)
            options = RunOptions(headless=True, fast=True, game="bandit", mode="table", use_gpio=False,
                                 seed=seed * 1000 + match, autoplay=seed * 1000 + match,
                                 journal_path=tmp / f"journal-{match}.sqlite", camera_factory=camera,
                                 dealer=dealer)
            daemon = Daemon(options)
            daemon.start()
            corrections: dict[int, str] = {}
            try:
                flow = daemon.flow
                assert flow is not None
                session = flow.session
                observe = session.observe

                def checked(observation: Any, session: Any = session, observe: Any = observe,
                            dealer: Any = dealer, corrections: dict[int, str] = corrections) -> None:
                    if observation.get("source") == "camera":
                        counts["camera_reveals"] += 1
                        zone, card = observation.get("zone"), observation.get("card")
                        table = dealer.table
                        laid = dealer._dealt.get(zone)
                        lying = table.truth.get(zone) if table is not None else None
                        if card != laid or lying != card:
                            counts["wrong_reveals"] += 1
                            corrections[session.version] = str(laid)
                            sliding = table is not None and zone in table._slides
                            wrong.append({"zone": zone, "read": card, "laid": laid, "lying": lying,
                                          "sliding": sliding, "version": session.version})
                    elif observation.get("source") == "buttons":
                        counts["button_entries"] += 1
                    observe(observation)

                session.observe = checked  # type: ignore[method-assign]
                deadline = time.monotonic() + 900
                while not flow.over and time.monotonic() < deadline:
                    daemon.step()
                    if counts["camera_reveals"] + counts["button_entries"] >= turns:
                        break
                    time.sleep(0.002)  # the camera thread's turn (a real loop waits for the clock)
                table = camera.tables.get("bandit")
                if table is not None:
                    counts["cards_laid"] += table.laid
                    counts["re_placed"] += table.replaced
                counts["matches"] += 1
                log = [str(action) for action in flow.match.log]
                if corrections:
                    fixed = [f"reveal {corrections[i]}" if i in corrections else a for i, a in enumerate(log)]
                    try:
                        truth = replay(session.config, fixed)
                        if truth.game.scores(truth.state) != flow.match.game.scores(flow.match.state):
                            counts["wrong_payouts"] += 1
                    except ValueError:
                        counts["wrong_payouts"] += 1
            finally:
                daemon.close()
    finally:
        app.CameraWorker = CameraWorker  # type: ignore[misc]
    laid = max(1, counts["cards_laid"])
    return {"figure": "misreads", "game": "bandit", "rule": rule, **counts,
            "re_place_rate": round(counts["re_placed"] / laid, 4),
            "button_entry_rate": round(counts["button_entries"] / laid, 4),
            "cpu_s": round(time.process_time() - started, 1), "wall_s": round(time.monotonic() - wall, 1),
            "wrong": wrong[:20]}


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One JSON line: the counts for the rule asked for."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    with tempfile.TemporaryDirectory() as tmp:
        yield play(args.turns, args.rule, args.seed, Path(tmp))
