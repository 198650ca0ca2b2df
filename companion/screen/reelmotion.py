"""Reel motion: where each reel's strip is at a given moment (pure arithmetic, no pygame).

A reel is an endless strip of cells. ``offset`` counts how many cells the strip has scrolled
down since the spin began; cell ``k`` is drawn ``k + offset`` cells below the window's top. At
offset 0 the old symbols (cells ``0 .. rows-1``) are in the window; the spin ends at the whole
number ``stop_offset`` where the target symbols (cells ``-stop_offset ..``) fill it exactly.

The motion: a short kick back (the lever), a ramp to full speed, a constant spin, and an
ease-out-back landing (a small overshoot, then it settles) whose starting speed matches the
spin, so the reel never jumps. Reels stop left to right; when the first two reels could make
a line the last reel's landing lasts longer (anticipation).

>>> plan = ReelPlan.start(now=0.0, reels=3)
>>> plan.land(now=0.0, anticipation=False)
>>> plan.reels[0].offset(100.0) == plan.reels[0].stop_offset
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SPEED = 16.0  # cells per second at full spin
RAMP = 0.18  # seconds to reach full speed
KICK = 0.22  # cells the strip first jumps back when the lever is pulled
KICK_TIME = 0.12
FIRST_STOP = 0.75  # seconds of full spin (after the ramp) before the first reel lands
STOP_GAP = 0.38  # between one reel landing and the next
LANDING = 0.55  # seconds the ease-out takes
ANTICIPATION_LANDING = 1.6  # the last reel's slow crawl when a line is possible
ANTICIPATION_DELAY = 0.5
#: a reel whose card is read late eases in the last (under one) cell this fast
SNAP_LANDING = 0.22
OVERSHOOT = 1.4  # ease-out-back constant: the reel runs about 0.15 cell past its stop
# A longer landing covers more cells, so it needs a gentler constant for the same small overshoot
# (the peak is 4c^3 / (27 (c+1)^2) of the landing distance).
ANTICIPATION_OVERSHOOT = 0.7


def ease_out_back(u: float, c: float = OVERSHOOT) -> float:
    """0 -> 0, 1 -> 1, rising past 1 a little before settling; slope at 0 is ``c + 3``."""
    u -= 1.0
    return 1.0 + (c + 1.0) * u**3 + c * u**2


@dataclass
class ReelMotion:
    """One reel's timeline (times in seconds on the caller's clock)."""

    start: float
    linear_from: float = 0.0  # the time the constant-speed segment starts
    linear_offset: float = 0.0  # offset at ``linear_from``
    speed: float = SPEED
    landing_start: float | None = None
    landing_time: float = LANDING
    stop_offset: int | None = None
    overshoot: float = OVERSHOOT

    def __post_init__(self) -> None:
        self.linear_from = self.start + KICK_TIME + RAMP
        self.linear_offset = SPEED * RAMP / 2.0

    def _free_offset(self, now: float) -> float:
        t = now - self.start
        if t <= 0:
            return 0.0
        if t < KICK_TIME:
            return -KICK * math.sin(math.pi * t / KICK_TIME)
        if now < self.linear_from:
            t -= KICK_TIME
            return SPEED * t * t / (2.0 * RAMP)
        return self.linear_offset + self.speed * (now - self.linear_from)

    def offset(self, now: float) -> float:
        """Cells scrolled at ``now``."""
        if self.landing_start is None or self.stop_offset is None or now < self.landing_start:
            return self._free_offset(now)
        u = min(1.0, (now - self.landing_start) / self.landing_time)
        begin = self._free_offset(self.landing_start)
        return begin + (self.stop_offset - begin) * ease_out_back(u, self.overshoot)

    def plan_stop(
        self, plan_time: float, stop_time: float, landing_time: float, overshoot: float = OVERSHOOT
    ) -> None:
        """Land exactly on a whole cell at ``stop_time``, easing over ``landing_time`` seconds.

        From ``plan_time`` the speed is adjusted very slightly so that the spin, then the
        ease-out (whose slope at its start equals the spin speed), ends on a whole cell.
        """
        plan_time = max(plan_time, self.linear_from)
        stop_time = max(stop_time, plan_time + landing_time)
        here = self._free_offset(plan_time)
        span = (stop_time - landing_time - plan_time) + landing_time / (overshoot + 3.0)
        self.stop_offset = max(4, math.ceil(here + SPEED * span))
        self.linear_from, self.linear_offset = plan_time, here
        self.speed = (self.stop_offset - here) / span
        self.landing_start = stop_time - landing_time
        self.landing_time = landing_time
        self.overshoot = overshoot

    def snap_stop(self, now: float) -> None:
        """Land from ``now`` on the next whole cell: the target symbols are in the window on the
        very next frame (less than a cell from their place) and ease in over ``SNAP_LANDING``."""
        here = self._free_offset(now)
        stop = max(4, math.floor(here) + 1)
        self.linear_from, self.linear_offset = now, here
        self.stop_offset = stop
        self.landing_start, self.landing_time, self.overshoot = now, SNAP_LANDING, OVERSHOOT
        self.speed = (stop - here) * (OVERSHOOT + 3.0) / SNAP_LANDING

    def stop_time(self) -> float | None:
        """When the reel comes to rest (None while its symbols are unknown)."""
        if self.landing_start is None:
            return None
        return self.landing_start + self.landing_time

    def settled(self, now: float) -> bool:
        """Whether the reel is at rest on its stop."""
        end = self.stop_time()
        return end is not None and now >= end

    def landed(self, now: float) -> bool:
        """Whether the reel has reached its stop cell (it may still be settling back)."""
        if self.landing_start is None:
            return False
        u = (now - self.landing_start) / self.landing_time
        return u >= 0.75  # ease_out_back has crossed its stop by then (for both constants)


@dataclass
class ReelPlan:
    """The timelines of all reels of one spin."""

    reels: list[ReelMotion] = field(default_factory=list)
    started: float = 0.0
    planned: bool = False

    @classmethod
    def start(cls, now: float, reels: int) -> ReelPlan:
        """All reels start spinning at ``now`` (the lever pull)."""
        return cls([ReelMotion(now) for _ in range(reels)], now)

    def land(self, now: float, anticipation: bool, spinning: list[bool] | None = None,
             known: list[bool] | None = None, at_once: bool = False) -> None:
        """Plan the stops of the reels whose symbols are known (``known``, default all), left to
        right, from ``now``; call again as more become known.

        A reel whose symbols come while the spin is still young keeps the slot machine's
        rhythm: left to right, ``STOP_GAP`` apart, the last one crawling when a line is
        possible. One whose symbols come later (a card the camera read long after the lever)
        lands at once (:meth:`ReelMotion.snap_stop`): the player sees the card as it is read;
        ``at_once`` lands every reel so (the camera's cards in table mode).
        ``spinning[i]`` False skips reel ``i`` (a held reel does not take a stop slot).
        """
        if self.planned:
            return
        flags = spinning if spinning is not None else [True] * len(self.reels)
        ready = known if known is not None else [True] * len(self.reels)
        order = [i for i, f in enumerate(flags) if f]
        first = max(now, self.started + KICK_TIME + RAMP + FIRST_STOP)
        for slot, index in enumerate(order):
            reel = self.reels[index]
            if reel.landing_start is not None or not ready[index]:
                continue
            last = slot == len(order) - 1 and slot > 0
            stop = first + slot * STOP_GAP
            landing, overshoot = LANDING, OVERSHOOT
            if anticipation and last:
                stop += ANTICIPATION_DELAY + ANTICIPATION_LANDING - LANDING
                landing, overshoot = ANTICIPATION_LANDING, ANTICIPATION_OVERSHOOT
            if at_once or now > self.started + KICK_TIME + RAMP + FIRST_STOP + slot * STOP_GAP:
                reel.snap_stop(now)  # late: its slot in the rhythm is past
            else:
                reel.plan_stop(now, stop, landing, overshoot)
        self.planned = all(self.reels[i].landing_start is not None for i in order)

    def settled(self, now: float) -> bool:
        """Whether every reel has come to rest."""
        return self.planned and all(r.settled(now) or r.landing_start is None for r in self.reels)

    def end_time(self) -> float | None:
        """When the last reel comes to rest."""
        stops = [r.stop_time() for r in self.reels if r.stop_time() is not None]
        return max(stops) if self.planned and stops else None  # type: ignore[type-var]
