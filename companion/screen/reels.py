"""The reels on screen: spin on a new spin id, land exactly on the given symbols, light the line.

:class:`ReelsWidget` keeps what one spin needs between frames (the spin id it saw, the
symbols that were showing, the motion plan) and draws the reels into a rectangle. It also
queues sound cues (``reel_stop``, ``tick``, ``fanfare``, ``coin``) that the daemon passes to
the sound player, so sounds happen exactly when the reels do.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pygame

from companion import art
from companion.screen import resources as res
from companion.screen.reelmotion import ReelPlan
from companion.screen.views import ReelSet

Cue = tuple[str, dict[str, Any]]
WILDS = {"any", "wild"}
BLUR_SPEED = 5.0  # cells per second above which the blurred cells are shown
WIN_SHOW = 4.0  # seconds the win line flashes and the coins fall


def could_line_up(a: str | None, b: str | None) -> bool:
    """Whether two symbols could still be part of one line (equal, or one is wild)."""
    if a is None or b is None or a == "blank" or b == "blank":
        return False
    return a == b or a in WILDS or b in WILDS or bool(set(a.split("|")) & set(b.split("|")))


def filler_symbol(symbols: list[str], reel: int, cell: int) -> str:
    """The symbol printed on cell ``cell`` of reel ``reel``'s strip between stops (fixed, so
    the strip looks the same every spin, like a real reel)."""
    return symbols[(cell * 7 + reel * 3 + (cell // len(symbols))) % len(symbols)]


@dataclass(frozen=True)
class ReelsGeometry:
    """Where the reels were drawn: the gold frame, each reel's window, each row's centre y."""

    frame: pygame.Rect
    windows: list[pygame.Rect]
    cell_height: int
    row_centers: list[int]


@dataclass
class _Spin:
    spin_id: int
    plan: ReelPlan
    before: tuple[tuple[str | None, ...], ...]
    landed: list[bool] = field(default_factory=list)
    last_tick_cell: int = 0
    last_tick_time: float = 0.0
    settled_at: float | None = None
    coins_played: int = 0


class ReelsWidget:
    """Draws a :class:`ReelSet` and animates it; one per display."""

    def __init__(self, resources: res.Resources) -> None:
        self._res = resources
        self._game: str | None = None
        self._seen_id: int | None = None
        self._spin: _Spin | None = None
        self._shown: tuple[tuple[str | None, ...], ...] = ()
        self._cues: list[Cue] = []
        self._pending_banner: tuple[str, tuple[int, int], int, float] | None = None
        #: where the reels were last drawn (on the canvas), or None
        self.geometry: ReelsGeometry | None = None
        #: the symbols the last drawn frame showed, at least in part, by (reel, row): what a
        #: player could see (``bench latency`` times a card from the table to here)
        self.shown: dict[tuple[int, int], str] = {}

    # --- state ---------------------------------------------------------------------------
    def pop_cues(self) -> list[Cue]:
        """Sound cues raised since the last call, oldest first."""
        cues, self._cues = self._cues, []
        return cues

    def spinning(self, now: float) -> bool:
        """Whether a spin is still moving (or waiting for its symbols)."""
        return self._spin is not None and not self._spin.plan.settled(now)

    def animating(self, now: float, reels: ReelSet | None) -> bool:
        """Whether the reels look different a moment from now: spinning, or a win still flashing
        and its coins falling (``WIN_SHOW`` and the shower's two seconds after it)."""
        spin = self._spin
        if spin is None or reels is None:
            return False
        if spin.settled_at is None or not spin.plan.settled(now):
            return True
        return bool(reels.win_rows) and now - spin.settled_at < WIN_SHOW + 2.5

    def observe(self, game_id: str, reels: ReelSet | None, now: float) -> None:
        """Take in this frame's reels (a new spin id starts a spin) before anything is drawn, so
        the rest of the frame knows whether the reels are spinning."""
        if reels is not None:
            self._update(game_id, reels, now)

    def _update(self, game_id: str, reels: ReelSet, now: float) -> None:
        if game_id != self._game:
            self._game, self._seen_id, self._spin = game_id, None, None
        if self._spin is not None and len(self._spin.plan.reels) != len(reels.reels):
            self._spin = None  # the reels changed shape under a spin: show the new ones at rest
        if reels.spin_id != self._seen_id:
            self._seen_id = reels.spin_id
            if reels.spin_id != 0:
                before = self._shown or tuple(tuple(None for _ in r) for r in reels.reels)
                plan = ReelPlan.start(now, len(reels.reels))
                self._spin = _Spin(reels.spin_id, plan, before, [False] * len(reels.reels))
            else:
                self._spin = None
        spin = self._spin
        if spin is not None and not spin.plan.planned:
            # each reel lands as soon as it has a card to show (the rest of its column, cards
            # not read yet, show as empty places and fill in as they are read)
            spinning = [not reels.is_still(i) for i in range(len(reels.reels))]
            known = [any(s is not None for s in column) for column in reels.reels]
            spin.plan.land(now, _all_known(reels) and _anticipate(reels), spinning, known, at_once=reels.live)
        self._shown = reels.reels

    # --- drawing -------------------------------------------------------------------------
    def draw(
        self, surface: pygame.Surface, rect: pygame.Rect, game_id: str, reels: ReelSet, now: float
    ) -> ReelsGeometry:
        """Draw the reels filling ``rect`` at time ``now`` (and queue any sound cues); returns
        where each reel window and row ended up, for markers drawn beside them."""
        self._update(game_id, reels, now)
        self._pending_banner = None
        self.shown = {}
        n = max(1, len(reels.reels))
        rows = max(1, reels.rows)
        gap = max(4, rect.width // 40)
        reel_w = (rect.width - gap * (n + 1)) // n
        cell_h = min((rect.height - 2 * gap) // rows, int(reel_w * 1.0))
        reel_w = min(reel_w, int(cell_h * 1.12))
        total_w = reel_w * n + gap * (n - 1)
        x0 = rect.x + (rect.width - total_w) // 2
        y0 = rect.y + (rect.height - cell_h * rows) // 2
        frame = pygame.Rect(x0 - gap, y0 - gap, total_w + 2 * gap, cell_h * rows + 2 * gap)
        pygame.draw.rect(surface, res.GOLD, frame, border_radius=gap)
        pygame.draw.rect(surface, (40, 20, 10), frame.inflate(-gap, -gap), border_radius=gap // 2)
        try:
            symbols = art.symbol_ids(game_id)
        except KeyError:  # a game without art: its strip shows only the symbols it is given
            symbols = sorted({x for column in reels.reels for x in column if x is not None}) or ["?"]
        shade = self._shade(reel_w, cell_h * rows)
        spin = self._spin
        for i, column in enumerate(reels.reels):
            window = pygame.Rect(x0 + i * (reel_w + gap), y0, reel_w, cell_h * rows)
            motion = spin.plan.reels[i] if spin is not None else None
            if motion is None or reels.is_still(i):
                self._draw_still(surface, window, game_id, column, cell_h)
                self.shown.update({(i, r): symbol for r, symbol in enumerate(column) if symbol is not None})
            else:
                self._draw_moving(surface, window, game_id, i, column, spin, cell_h, symbols, now)  # type: ignore[arg-type]
            surface.blit(shade, window.topleft)
            if reels.is_held(i):
                pygame.draw.rect(
                    surface, res.HELD, window.inflate(gap, gap), width=max(3, gap // 2), border_radius=gap
                )
                tag = self._res.text("HELD", max(12, cell_h // 5), (255, 255, 255))
                box = tag.get_rect(midtop=(window.centerx, window.y)).inflate(gap * 2, gap // 2)
                pygame.draw.rect(surface, res.HELD, box, border_radius=box.height // 3)
                surface.blit(tag, tag.get_rect(center=box.center))
        self._after_spin(surface, frame, reels, rows, cell_h, y0, now)
        if reels.caption:
            self._caption(surface, reels.caption, frame, cell_h)
        windows = [pygame.Rect(x0 + i * (reel_w + gap), y0, reel_w, cell_h * rows) for i in range(n)]
        self.geometry = ReelsGeometry(
            frame, windows, cell_h, [y0 + r * cell_h + cell_h // 2 for r in range(rows)]
        )
        return self.geometry

    def _shade(self, width: int, height: int) -> pygame.Surface:
        return self._res.cached(("drum", width, height), lambda: res.drum_shade(width, height))

    def _draw_still(
        self,
        surface: pygame.Surface,
        window: pygame.Rect,
        game_id: str,
        column: tuple[str | None, ...],
        cell_h: int,
    ) -> None:
        for r, symbol in enumerate(column):
            cell = self._res.cell(game_id, symbol, window.width, cell_h, False)
            surface.blit(cell, (window.x, window.y + r * cell_h))

    def _draw_moving(
        self,
        surface: pygame.Surface,
        window: pygame.Rect,
        game_id: str,
        index: int,
        column: tuple[str | None, ...],
        spin: _Spin,
        cell_h: int,
        symbols: list[str],
        now: float,
    ) -> None:
        motion = spin.plan.reels[index]
        offset = motion.offset(now)
        speed = abs(motion.offset(now + 0.01) - offset) / 0.01
        blur = speed > BLUR_SPEED and not motion.settled(now)
        rows = len(column)
        stop = motion.stop_offset
        before = spin.before[index] if index < len(spin.before) else ()
        previous = surface.get_clip()
        surface.set_clip(window.clip(previous) if previous else window)
        first = math.floor(-offset) - 1
        last = math.ceil(rows - offset)
        for k in range(first, last + 1):
            if 0 <= k < len(before) and before[k] is not None:
                symbol: str | None = before[k]
            elif stop is not None and -stop <= k < -stop + rows:
                symbol = column[k + stop]
                if symbol is not None and -1.0 < k + offset < rows:  # some of it in the window
                    self.shown[(index, k + stop)] = symbol
            else:
                symbol = filler_symbol(symbols, index, k)
            y = window.y + int(round((k + offset) * cell_h))
            surface.blit(self._res.cell(game_id, symbol, window.width, cell_h, blur), (window.x, y))
        surface.set_clip(previous)
        self._cue_motion(index, spin, motion.landed(now), offset, now)

    def _cue_motion(self, index: int, spin: _Spin, landed: bool, offset: float, now: float) -> None:
        if landed and not spin.landed[index]:
            spin.landed[index] = True
            self._cues.append(("reel_stop", {"reel": index}))
        moving = [i for i, done in enumerate(spin.landed) if not done]
        if moving and index == moving[-1]:
            cell = int(offset)
            if cell != spin.last_tick_cell and now - spin.last_tick_time > 0.07:
                spin.last_tick_cell, spin.last_tick_time = cell, now
                self._cues.append(("tick", {}))

    def _after_spin(
        self,
        surface: pygame.Surface,
        frame: pygame.Rect,
        reels: ReelSet,
        rows: int,
        cell_h: int,
        y0: int,
        now: float,
    ) -> None:
        spin = self._spin
        if spin is not None and not spin.plan.settled(now):
            return
        if spin is not None and spin.settled_at is None:
            spin.settled_at = now
            if reels.win_rows and reels.payout > 0:
                self._cues.append(("fanfare", {"amount": reels.payout}))
        if not reels.win_rows:
            return
        since = now - spin.settled_at if spin is not None and spin.settled_at is not None else WIN_SHOW
        lit = since >= WIN_SHOW or int(since * 6) % 2 == 0
        width = max(4, cell_h // 14)
        for row in reels.win_rows:
            if 0 <= row < rows:
                y = y0 + row * cell_h + cell_h // 2
                color = res.WIN if lit else res.GOLD
                pygame.draw.line(surface, color, (frame.x + width, y), (frame.right - width, y), width)
                pygame.draw.circle(surface, color, (frame.x + width, y), width * 2)
                pygame.draw.circle(surface, color, (frame.right - width, y), width * 2)
        if lit:
            pygame.draw.rect(
                surface, res.WIN, frame, width=max(3, width), border_radius=max(4, frame.height // 30)
            )
        if reels.payout > 0:
            # on the frame's lower edge: it must not hide the winning line it is paying for
            self._pending_banner = (f"+{reels.payout}", frame.midbottom, cell_h * rows, since)

    def _caption(self, surface: pygame.Surface, caption: str, frame: pygame.Rect, cell_h: int) -> None:
        """The reels' caption (e.g. "Re-roll: die 1, die 3") on a plate across the frame's top edge."""
        size = max(12, min(28, cell_h // 6))
        text = self._res.text(caption, size, res.ACTIVE_TEXT)
        plate = text.get_rect(center=(frame.centerx, frame.y)).inflate(size, size // 3)
        pygame.draw.rect(surface, res.GOLD, plate, border_radius=plate.height // 2)
        pygame.draw.rect(
            surface, (40, 20, 10), plate, width=max(1, size // 14), border_radius=plate.height // 2
        )
        surface.blit(text, text.get_rect(center=plate.center))

    def _banner(
        self, surface: pygame.Surface, label: str, center: tuple[int, int], height: int, since: float
    ) -> None:
        """The amount won, popping up over the reels' lower edge."""
        grow = min(1.0, since / 0.35)
        size = int(max(20, min(height * 0.3, 48)) * (0.6 + 0.4 * grow))
        text = self._res.text(label, size, res.GOLD)
        plate = text.get_rect(center=center).inflate(size, size // 4)
        pygame.draw.rect(surface, (60, 16, 24), plate, border_radius=plate.height // 2)
        pygame.draw.rect(surface, res.GOLD, plate, width=max(2, size // 12), border_radius=plate.height // 2)
        surface.blit(text, text.get_rect(center=plate.center))

    def draw_effects(self, surface: pygame.Surface, reels: ReelSet | None, now: float) -> None:
        """Coins showering after a win and the amount won, over everything else (call last)."""
        banner, self._pending_banner = self._pending_banner, None
        self._shower(surface, reels, now)
        if banner is not None:
            self._banner(surface, *banner)

    def _shower(self, surface: pygame.Surface, reels: ReelSet | None, now: float) -> None:
        spin = self._spin
        if (
            reels is None
            or spin is None
            or spin.settled_at is None
            or not reels.win_rows
            or reels.payout <= 0
        ):
            return
        shower = CoinShower(spin.spin_id, reels.payout, spin.settled_at, surface.get_size())
        due = shower.landed_count(now)
        if due > spin.coins_played and len(self._cues) < 8:
            spin.coins_played = due
            self._cues.append(("coin", {}))
        shower.draw(surface, now, self._coin_frames(max(10, surface.get_height() // 18)))

    def _coin_frames(self, size: int) -> list[pygame.Surface]:
        def maker(phase: int) -> Callable[[], pygame.Surface]:
            return lambda: _coin_surface(size, phase / 8.0)

        return [self._res.cached(("coin", size, f), maker(f)) for f in range(8)]


def _all_known(reels: ReelSet) -> bool:
    return all(s is not None for r in reels.reels for s in r)


def _anticipate(reels: ReelSet) -> bool:
    if len(reels.reels) < 3:
        return False
    a, b = reels.reels[0], reels.reels[1]
    return any(could_line_up(x, y) for x, y in zip(a, b, strict=False))


def coin_count(payout: int) -> int:
    """Coins in the shower: more for a bigger win (growing with the square root, so a 200 still
    draws quickly and a 5 is more than a sprinkle)."""
    return min(120, round(6 + 8 * math.sqrt(payout))) if payout > 0 else 0


@dataclass(frozen=True)
class CoinShower:
    """Coins thrown up from the reels and falling off screen; positions are a pure function of
    time (seeded by the spin), so a frame can be drawn at any moment."""

    seed: int
    payout: int
    start: float
    size: tuple[int, int]

    def _coins(self) -> list[tuple[float, float, float, float, float]]:
        return _throws(self.seed, self.payout, self.size)

    def landed_count(self, now: float) -> int:
        """How many coins have started falling back (paced coin clinks)."""
        t = now - self.start
        return sum(1 for c in self._coins()[::12] if t > c[0] + 0.5)

    def draw(self, surface: pygame.Surface, now: float, frames: list[pygame.Surface]) -> None:
        """Draw the coins in flight at ``now``."""
        t_all = now - self.start
        if t_all < 0 or t_all > WIN_SHOW + 2.0:
            return
        w, h = self.size
        gravity = 3.2 * h
        for delay, x, vx, vy, spin in self._coins():
            t = t_all - delay
            if t < 0:
                continue
            px = x + vx * t
            py = h * 0.55 + vy * t + gravity * t * t / 2
            if py > h + 40:
                continue
            frame = frames[int(t * spin) % len(frames)]
            surface.blit(frame, (int(px) - frame.get_width() // 2, int(py) - frame.get_height() // 2))


@lru_cache(maxsize=8)
def _throws(seed: int, payout: int, size: tuple[int, int]) -> list[tuple[float, float, float, float, float]]:
    """Each coin's (delay, x, vx, vy, spin rate): drawn once per win, reused every frame."""
    rng = random.Random(seed * 7919 + payout)
    w, h = size
    coins = []
    n = coin_count(payout)
    spread = min(2.0, 0.4 + n / 60.0)
    for i in range(n):
        delay = spread * i / max(1, n)
        x = w * (0.5 + rng.uniform(-0.3, 0.3))
        vx = rng.uniform(-0.35, 0.35) * w
        vy = -rng.uniform(0.9, 1.5) * h
        spin = rng.uniform(6, 14)
        coins.append((delay, x, vx, vy, spin))
    return coins


def _coin_surface(size: int, phase: float) -> pygame.Surface:
    """One frame of a spinning coin (``phase`` 0..1 of a half turn), drawn at twice the size and
    scaled down for smooth edges."""
    big = size * 2
    coin = pygame.Surface((big, big), pygame.SRCALPHA)
    squash = max(0.12, abs(math.cos(phase * math.pi)))

    def oval(rx: float, ry: float) -> pygame.Rect:
        return pygame.Rect(0, 0, max(2, int(big * rx / 50)), max(2, int(big * ry / 50))).move(
            big // 2 - int(big * rx / 100), big // 2 - int(big * ry / 100))

    line = max(1, big // 20)
    pygame.draw.ellipse(coin, (32, 24, 28), oval(46 * squash, 46))
    pygame.draw.ellipse(coin, (250, 196, 40), oval(44 * squash - 2.5, 41.5))
    if squash > 0.5:
        pygame.draw.ellipse(coin, (200, 140, 20), oval(30 * squash, 30), line)
        gloss = oval(10 * squash, 5).move(-big // 10, -big * 14 // 100)
        pygame.draw.ellipse(coin, (255, 244, 200), gloss)
    return pygame.transform.smoothscale(coin, (size, size)).convert_alpha()
