"""``companion bench misreads``: does reading on fewer frames ever reveal a card that is not there?

The whole stack plays each table-mode game (Bandit, Jackpot Payout, Mega Jackpot, Thanks a
Lottery; Pay Line is cabinet only): the simulated dealer lays the cards the flow asks for, the
camera thread reads the frames, the tracker agrees, the flow reveals and journals, the bot at
the buttons decides. The table is made harder than ``companion run``'s:

- every frame goes through the rough camera (:mod:`vision.rough_camera`: lens distortion,
  vignetting, motion blur, exposure, shot noise, JPEG);
- each card is slid into place: it appears a card or more away, over a neighbouring zone, and
  slides to its spot over several frames, slowing down at the end as a hand does (a row of
  cards, Thanks a Lottery's play, slides in together);
- now and then a hand (a skin-coloured palm and fingers) passes over the mat for a few frames.

Checked at every camera reveal, on the main thread as it is journalled: the card revealed is
the one lying in that zone in the frame the flow's readings came from (the simulated dealer may
have moved it since: Mega Jackpot's re-plans when the game leaves its plan). Bandit: it is also
the card the dealer laid for that reveal; Thanks a Lottery: the cards of a move read by the
camera are the cards lying in the block rows.
Counted: wrong reveals, games whose final scores differ from the same game with every card as
laid (wrong payouts: Bandit's are replayed with the right cards; in the other games any match
with a wrong reveal counts as one), and how often a player had to re-place a card (the dealer
straightens a card the camera has not taken after 3 s) or enter it by the buttons (after 5 s),
those seconds counted in camera frames (:class:`FrameClockDealer`), so that the figures do not
depend on how loaded the machine is.

``--rule agree`` is the daemon's rule (two frames in a row, the card at rest); ``--rule
majority`` the rule before issue 16 (a majority of 5 frames, then 3 confirmations).
"""

from __future__ import annotations

import argparse
import copy
import math
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.bench import headless_here

NAME = "misreads"
HELP = "wrong reveals and payouts per table-mode game on a rough camera with slides and hands (JSON)"
#: frames a card takes to slide into place, and how far it starts (in card widths)
SLIDE_FRAMES = (5, 12)
SLIDE_FROM = (0.8, 1.6)
#: a hand passes over the mat about once every this many frames, for 4-9 frames
HAND_EVERY = 25
#: frames a second the camera worker reads a source that never blocks (its ``max_fps`` default)
CAMERA_FPS = 15.0
#: every game with a table mode (Pay Line is cabinet only)
TABLE_GAMES = ("bandit", "jackpot-payout", "mega-jackpot", "thanks-a-lottery")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: which games, how many turns (cards read) each, which agreement rule, the seed."""
    parser.add_argument("--games", default=",".join(TABLE_GAMES),
                        help=f"comma-separated table-mode games (default: {','.join(TABLE_GAMES)})")
    parser.add_argument("--turns", type=int, default=1000, help="cards to read per game (default 1000)")
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
        self.truth: dict[str, Any] = {}
        self.replaced = 0
        self.laid = 0
        self._rng = np.random.default_rng([seed, 16])
        self._lock = threading.Lock()
        self._slides: dict[str, tuple[tuple[float, float], tuple[float, float], int, int]] = {}
        self._hand: tuple[tuple[float, float], tuple[float, float], int, int] | None = None
        #: frames delivered so far (the dealer's clock, see :class:`FrameClockDealer`)
        self.frames = 0
        #: when the last frame was captured, and what lay in each zone in the last frames
        self.captured_at = 0.0
        self._seen: dict[float, dict[str, Any]] = {}

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
            self._slide((zone,))

    def place_row(self, zone: str, card_ids: list[str]) -> None:
        """Lay a row of cards in a multi-card zone, slid in together (an empty list clears it)."""
        with self._lock:
            before = list(self.truth.get(zone) or [])
            self.table.place_row(zone, card_ids)
            self.truth[zone] = list(card_ids)
            for key in [k for k in self._slides if k.startswith(zone + "#")]:
                self._slides.pop(key)
            if not card_ids:
                return
            again = sorted(card_ids) == sorted(before)
            self.replaced += again
            self.laid += 0 if again else len(card_ids)
            self._slide(tuple(f"{zone}#{index}" for index in range(len(card_ids))))

    def _slide(self, keys: tuple[str, ...]) -> None:
        """Start the cards ``keys`` (table.cards keys) one slide away from where they were laid."""
        angle = float(self._rng.uniform(0, 2 * math.pi))
        distance = float(self._rng.uniform(*SLIDE_FROM)) * 63.0
        frames = int(self._rng.integers(SLIDE_FRAMES[0], SLIDE_FRAMES[1] + 1))
        for key in keys:
            placed = self.table.cards[key]
            x, y = placed.centre
            start = (x + distance * math.cos(angle), y + distance * math.sin(angle))
            self._slides[key] = (start, placed.centre, frames, 0)
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
            self.frames += 1
            frame = self.table.read()
            # what lay where in this frame, by its capture stamp (the camera worker's frame_at)
            self.captured_at = time.monotonic()
            self._seen[self.captured_at] = {zone: copy.copy(cards) for zone, cards in self.truth.items()}
            while len(self._seen) > 256:
                del self._seen[next(iter(self._seen))]
        if frame is None:
            return None
        self._hand_over(frame)
        return self.rough.apply(frame)

    def lying_at(self, captured_at: float) -> dict[str, Any]:
        """What lay in each zone in the frame captured at ``captured_at`` (now, if not kept)."""
        with self._lock:
            return self._seen.get(captured_at, dict(self.truth))

    def close(self) -> None:
        """Stop producing frames."""
        self.table.close()


class FrameClockDealer:
    """The simulated dealer with its clock on camera frames (at the camera worker's 15 fps cap for
    this source): how long players wait before straightening a card or entering it by hand is
    then counted in frames the camera saw, so a loaded machine (fewer frames a second) does not
    make them re-place cards sooner. The dealer's input events carry that clock too; the daemon
    does not read their times."""

    def __init__(self, dealer: Any, camera: Any, game: str) -> None:
        self.dealer, self.camera, self.game = dealer, camera, game

    def update(self, daemon: Any, now: float) -> None:
        """The dealer's turn, at the time the frames seen so far make."""
        table = self.camera.tables.get(self.game)
        self.dealer.update(daemon, (table.frames if table is not None else 0) / CAMERA_FPS)


def _wrong(game: str, observation: dict[str, Any], dealer: Any, table: Any,
           truth: dict[str, Any], flow: Any = None) -> dict[str, Any] | None:
    """What is wrong with a camera observation being journalled (None: it is what lay there in
    the frame the camera update came from: ``truth``; the dealer may have moved it since).
    Bandit: it must also be the card the dealer lays for this deal (``flow``'s), not one left
    from an earlier deal: :meth:`SimDealer.planned` (drawn ahead when the flow began the deal
    since the dealer's last turn)."""
    if game == "thanks-a-lottery":
        from companion.flows.thanks_a_lottery_table import FACT, ZONES

        if observation.get(FACT) != "move" or observation.get("source") != "camera":
            return None
        lying = sorted(card for zone in ZONES for card in (truth.get(zone) or []))
        read = sorted(observation.get("cards") or [])
        return None if read == lying else {"read": read, "lying": lying, "move": observation.get("move")}
    if observation.get("source") != "camera":
        return None
    zone, card = observation.get("zone"), observation.get("card")
    lying = truth.get(zone)
    laid = dealer.planned(flow).get(zone) if game == "bandit" else lying
    if card == laid and card == lying:
        return None
    return {"zone": zone, "read": card, "laid": laid, "lying": lying, "lying_now": table.truth.get(zone),
            "sliding": any(key == zone or key.startswith(f"{zone}#") for key in table._slides)}


def payout_wrong(match: Any, corrections: dict[int, str]) -> bool:
    """Whether ``match``'s scores differ from the same match with the reveals at the log positions
    ``corrections`` names made with the cards given there (the cards the dealer laid) and every
    other action as played; a log that no longer replays (a claim of a row that did not win) is a
    wrong payout too."""
    from companion.engine import replay

    fixed = [f"reveal {corrections[i]}" if i in corrections else str(action)
             for i, action in enumerate(match.log)]
    try:
        truth = replay(match.config, fixed)
    except ValueError:
        return True
    return bool(truth.game.scores(truth.state) != match.game.scores(match.state))


def play(turns: int, rule: str, seed: int, tmp: Path, game: str = "bandit") -> dict[str, Any]:
    """Matches of ``game`` through the daemon until ``turns`` cards were read (or entered); the counts."""
    from companion.daemon import app
    from companion.daemon.app import Daemon, RunOptions
    from companion.daemon.camera import CameraWorker, VisionUpdate
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

    from vision.mats import mat_layout

    zones = {zone.name for zone in mat_layout(game).zones}
    counts = {"camera_reveals": 0, "wrong_reveals": 0, "button_entries": 0, "entered_off_the_mat": 0,
              "re_placed": 0, "cards_laid": 0, "matches": 0, "wrong_payouts": 0}
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
            options = RunOptions(headless=True, fast=True, game=game, mode="table", use_gpio=False,
                                 seed=seed * 1000 + match, autoplay=seed * 1000 + match,
                                 journal_path=tmp / f"journal-{game}-{match}.sqlite", camera_factory=camera,
                                 dealer=FrameClockDealer(dealer, camera, game))
            daemon = Daemon(options)
            daemon.start()
            corrections: dict[int, str] = {}
            wrong_here = 0
            frame_at = [0.0]
            try:
                flow = daemon.flow
                assert flow is not None
                session = flow.session
                observe = session.observe

                def checked(observation: Any, session: Any = session, observe: Any = observe,
                            dealer: Any = dealer, camera: Any = camera, frame_at: list[float] = frame_at,
                            corrections: dict[int, str] = corrections, flow: Any = flow,
                            match_seed: int = seed * 1000 + match) -> None:
                    nonlocal wrong_here
                    source = observation.get("source")
                    # a Lottery move is read from the cards laid; one without cards (a pass, dice
                    # taken) keeps the source of the last reading but reads nothing
                    is_move = game != "thanks-a-lottery" or (
                        observation.get("lottery_table") == "move" and bool(observation.get("cards")))
                    if source == "camera" and is_move:
                        counts["camera_reveals"] += 1
                        table = camera.tables.get(game)
                        problem = None
                        if table is not None:
                            problem = _wrong(game, observation, dealer, table, table.lying_at(frame_at[0]),
                                             flow)
                        if problem is not None:
                            counts["wrong_reveals"] += 1
                            wrong_here += 1
                            if game == "bandit" and problem["laid"] is not None:
                                corrections[session.version] = str(problem["laid"])
                            wrong.append({**problem, "version": session.version, "match_seed": match_seed})
                    elif source == "buttons" and is_move and "note" not in observation:
                        # a card the camera could have read (one lying in a zone of the mat);
                        # what the mat has no zone for (a display card) is always entered by hand
                        readable = game == "thanks-a-lottery" or observation.get("zone") in zones
                        counts["button_entries" if readable else "entered_off_the_mat"] += 1
                    observe(observation)

                session.observe = checked  # type: ignore[method-assign]
                dispatch = daemon.dispatch

                def stamped(item: object, dispatch: Any = dispatch, frame_at: list[float] = frame_at) -> None:
                    if isinstance(item, VisionUpdate):
                        frame_at[0] = item.frame_at  # the frame the flow's readings now come from
                    dispatch(item)

                daemon.dispatch = stamped  # type: ignore[method-assign]
                deadline = time.monotonic() + 900
                while not flow.over and time.monotonic() < deadline:
                    daemon.step()
                    if counts["camera_reveals"] + counts["button_entries"] >= turns:
                        break
                    time.sleep(0.002)  # the camera thread's turn (a real loop waits for the clock)
                table = camera.tables.get(game)
                if table is not None:
                    counts["cards_laid"] += table.laid
                    counts["re_placed"] += table.replaced
                counts["matches"] += 1
                if corrections and len(corrections) == wrong_here:
                    counts["wrong_payouts"] += payout_wrong(flow.match, corrections)
                elif wrong_here:
                    counts["wrong_payouts"] += 1  # not replayed: counted as wrong
            finally:
                daemon.close()
    finally:
        app.CameraWorker = CameraWorker  # type: ignore[misc]
    laid = max(1, counts["cards_laid"])
    return {"figure": "misreads", "game": game, "rule": rule, **counts,
            "re_place_rate": round(counts["re_placed"] / laid, 4),
            "button_entry_rate": round(counts["button_entries"] / laid, 4),
            "cpu_s": round(time.process_time() - started, 1), "wall_s": round(time.monotonic() - wall, 1),
            "wrong": wrong[:20]}


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One JSON line per game: the counts for the rule asked for."""
    from companion.errors import UserError

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in TABLE_GAMES]
    if unknown:
        raise UserError(f"no table mode for: {', '.join(unknown)} "
                        f"(table-mode games: {', '.join(TABLE_GAMES)})")
    headless_here()
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            yield play(args.turns, args.rule, args.seed, Path(tmp), game)
