"""Every sound effect, synthesised with numpy (no recordings): 22050 Hz mono floats in [-1, 1].

``sounds/make_sounds.py`` writes the fixed effects to ``sounds/*.wav``; the player loads those
and makes the two that depend on the game at run time: the box-shake rattle (its density and
loudness follow the chip count) and, if a file is missing, any effect from the same recipe.
Every recipe is deterministic (seeded noise), so the files can be checked against the code.

>>> clip = EFFECTS["click"]()
>>> clip.dtype, clip.ndim, float(abs(clip).max()) <= 1.0
(dtype('float32'), 1, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from companion.sound.levels import RATE, fanfare_tier

__all__ = ["EFFECTS", "RATE", "fanfare", "fanfare_tier", "shake", "to_pcm16"]
PEAK = 0.85


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds), dtype=np.float64) / RATE


def _env(n: int, attack: float, decay: float) -> np.ndarray:
    """A fast-attack, exponential-decay envelope over ``n`` samples (times in seconds)."""
    t = np.arange(n) / RATE
    rise = np.clip(t / max(attack, 1e-4), 0.0, 1.0)
    return rise * np.exp(-t / max(decay, 1e-4))


def _tone(
    freq: float,
    seconds: float,
    harmonics: tuple[float, ...] = (1.0,),
    decay: float = 0.3,
    attack: float = 0.004,
) -> np.ndarray:
    t = _t(seconds)
    wave = sum(a * np.sin(2 * np.pi * freq * (k + 1) * t) for k, a in enumerate(harmonics))
    return np.asarray(np.asarray(wave, np.float64) * _env(len(t), attack, decay), np.float64)


def _noise(seconds: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, int(RATE * seconds))


def _place(track: np.ndarray, clip: np.ndarray, at: float, gain: float = 1.0) -> None:
    start = int(at * RATE)
    end = min(len(track), start + len(clip))
    if start < end:
        track[start:end] += clip[: end - start] * gain


def _highpass(x: np.ndarray, amount: float = 0.9) -> np.ndarray:
    # first-order difference filter: takes the thud out of noise, leaving the rattle
    y = np.empty_like(x)
    y[0] = x[0]
    y[1:] = x[1:] - amount * x[:-1]
    return y


def _finish(x: np.ndarray, peak: float = PEAK) -> np.ndarray:
    top = float(np.max(np.abs(x))) if len(x) else 0.0
    if top > 0:
        x = x * (peak / top)
    fade = min(len(x), int(0.005 * RATE))
    if fade:
        x[-fade:] *= np.linspace(1.0, 0.0, fade)
    return x.astype(np.float32)


_NAMES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")
NOTE = {name: 440.0 * 2 ** ((i - 9) / 12) for i, name in enumerate(_NAMES)}


def _note(name: str, octave: int) -> float:
    return float(NOTE[name] * 2 ** (octave - 4))


# --- the effects -----------------------------------------------------------------------------


def click() -> np.ndarray:
    """A button press: a short, bright tick."""
    return _finish(
        _tone(1400, 0.03, (1.0, 0.4), decay=0.006)
        + _noise(0.03, 1) * _env(int(0.03 * RATE), 0.0005, 0.002) * 0.5
    )


def tick() -> np.ndarray:
    """One reel cell passing the window: a dry plastic tick."""
    n = int(0.025 * RATE)
    body = _highpass(_noise(0.025, 2)) * _env(n, 0.0003, 0.003)
    return _finish(body + _tone(2600, 0.025, decay=0.004) * 0.6, 0.6)


def reel_stop() -> np.ndarray:
    """A reel landing: a low thunk with a click on top."""
    t = _t(0.16)
    freq = 150 * np.exp(-t * 6)
    thunk = np.sin(2 * np.pi * np.cumsum(freq) / RATE) * _env(len(t), 0.001, 0.05)
    clack = _highpass(_noise(0.16, 3)) * _env(len(t), 0.0003, 0.006) * 0.5
    return _finish(thunk + clack)


def lever() -> np.ndarray:
    """The lever pull: a ratchet that speeds up, then the arm's clunk at the bottom."""
    track = np.zeros(int(0.5 * RATE))
    tooth = _highpass(_noise(0.012, 4)) * _env(int(0.012 * RATE), 0.0002, 0.002)
    at = 0.0
    gap = 0.05
    while at < 0.33:
        _place(track, tooth, at, 0.7)
        at += gap
        gap *= 0.86
    _place(track, reel_stop(), 0.34, 1.0)
    return _finish(track)


def coin() -> np.ndarray:
    """A coin landing in the tray: two inharmonic metallic clinks."""
    partials = ((2093, 1.0), (3310, 0.6), (5120, 0.4), (6890, 0.25))

    def clink(scale: float) -> np.ndarray:
        t = _t(0.3)
        ring = sum(a * np.sin(2 * np.pi * f * scale * t) for f, a in partials)
        return np.asarray(np.asarray(ring, np.float64) * _env(len(t), 0.0005, 0.07), np.float64)

    track = np.zeros(int(0.38 * RATE))
    _place(track, clink(1.0), 0.0)
    _place(track, clink(1.06), 0.07, 0.6)
    return _finish(track, 0.7)


def fanfare(tier: int) -> np.ndarray:
    """The jackpot fanfare: tier 1 a short flourish, 2 a longer one, 3 the big win."""
    voice = (1.0, 0.5, 0.33, 0.2, 0.12)  # brassy: a few odd and even harmonics
    motif = [("C", 5), ("E", 5), ("G", 5), ("C", 6)]
    if tier >= 2:
        motif += [("G", 5), ("C", 6), ("E", 6)]
    if tier >= 3:
        motif += [("D", 6), ("E", 6), ("G", 6), ("E", 6), ("G", 6)]
    step = 0.09 if tier < 3 else 0.085
    hold = 0.45 + 0.2 * tier
    length = len(motif) * step + hold + 0.2
    track = np.zeros(int(length * RATE))
    for i, (name, octave) in enumerate(motif):
        _place(track, _tone(_note(name, octave), 0.25, voice, decay=0.12), i * step, 0.8)
    end = len(motif) * step
    top = motif[-1]
    chord = [_note(top[0], top[1]), _note(top[0], top[1]) * 5 / 4, _note(top[0], top[1]) * 3 / 2]
    for f in chord:
        _place(track, _tone(f / 2, hold + 0.15, voice, decay=hold * 0.6, attack=0.01), end, 0.45)
    if tier >= 2:
        for k in range(4 * tier):
            _place(track, coin(), end + 0.05 + k * 0.07, 0.18)
    return _finish(track)


def monkey() -> np.ndarray:
    """The monkey bust: three hoots rising, then a sagging 'wah-wah'."""
    track = np.zeros(int(1.3 * RATE))
    for k in range(3):
        t = _t(0.16)
        f = 420 + 380 * (t / t[-1]) + 60 * k
        hoot = np.sin(2 * np.pi * np.cumsum(f) / RATE) + 0.3 * np.sin(4 * np.pi * np.cumsum(f) / RATE)
        _place(track, hoot * _env(len(t), 0.02, 0.09), k * 0.17, 0.7)
    for k, base in enumerate((330, 294, 262)):
        t = _t(0.28 if k < 2 else 0.45)
        f = base * (1 + 0.03 * np.sin(2 * np.pi * 6 * t)) * (1 - 0.12 * t / t[-1])
        phase = 2 * np.pi * np.cumsum(f) / RATE
        saw = sum(np.sin(phase * h) / h for h in range(1, 7))
        _place(track, np.asarray(saw) * _env(len(t), 0.03, 0.25), 0.55 + k * 0.25, 0.6)
    return _finish(track)


def genie() -> np.ndarray:
    """The genie appears: a shimmering rising glissando with sparkles."""
    t = _t(1.3)
    f = 300 * 2 ** (2.2 * t / t[-1])
    phase = 2 * np.pi * np.cumsum(f) / RATE
    shimmer = (np.sin(phase) + 0.5 * np.sin(2.01 * phase) + 0.3 * np.sin(3.02 * phase)) * (
        0.6 + 0.4 * np.sin(2 * np.pi * 9 * t)
    )
    env = np.clip(t / 0.3, 0, 1) * np.clip((t[-1] - t) / 0.4, 0, 1)
    track = shimmer * env * 0.5
    rng = np.random.default_rng(5)
    for _ in range(14):
        at = float(rng.uniform(0.2, 1.1))
        _place(track, _tone(float(rng.uniform(2000, 4200)), 0.15, decay=0.04), at, 0.35)
    return _finish(track)


def _knock(seed: int, pitch: float) -> np.ndarray:
    n = int(0.03 * RATE)
    click = _highpass(_noise(0.03, seed), 0.7) * _env(n, 0.0003, 0.004)
    return np.asarray(click + _tone(pitch, 0.03, decay=0.006) * 0.5, np.float64)


def dice() -> np.ndarray:
    """Dice rattled in a hand, then tumbling to rest on the table."""
    rng = np.random.default_rng(6)
    track = np.zeros(int(0.9 * RATE))
    for k in range(26):
        at = float(rng.uniform(0.0, 0.45))
        _place(track, _knock(100 + k, float(rng.uniform(900, 1800))), at, float(rng.uniform(0.3, 0.7)))
    for k, at in enumerate((0.52, 0.63, 0.71, 0.77, 0.81)):
        _place(track, _knock(200 + k, 700), at, 0.9 - 0.12 * k)
    return _finish(track)


def shake(chips: int, seed: int = 0) -> np.ndarray:
    """A secret box shaken twice: the more chips inside, the denser and louder the rattle.

    An empty box only thumps. The number of chip impacts grows with the count and the level
    with its square root, so a listener can tell 3 chips from 16 but not count them exactly.
    """
    chips = max(0, int(chips))
    rng = np.random.default_rng(1000 + chips * 7 + seed)
    track = np.zeros(int(0.8 * RATE))
    thump = _tone(95, 0.09, (1.0, 0.3), decay=0.03)
    for at in (0.0, 0.38):
        _place(track, thump, at, 0.5)
        for _ in range(min(240, chips * 3)):
            when = at + float(rng.gamma(2.0, 0.05))
            _place(
                track,
                _knock(int(rng.integers(1 << 30)), float(rng.uniform(1500, 3200))),
                when,
                float(rng.uniform(0.15, 0.35)),
            )
    level = min(1.0, 0.25 + 0.75 * np.sqrt(chips / 40.0))
    return _finish(track, PEAK * level)


def error() -> np.ndarray:
    """Something is wrong: a low double buzz."""
    track = np.zeros(int(0.55 * RATE))
    t = _t(0.2)
    buzz = np.sign(np.sin(2 * np.pi * 140 * t)) * 0.5 + np.sign(np.sin(2 * np.pi * 147 * t)) * 0.5
    buzz = buzz * np.clip(t / 0.01, 0, 1) * np.clip((t[-1] - t) / 0.02, 0, 1)
    _place(track, buzz, 0.0)
    _place(track, buzz, 0.28)
    return _finish(track, 0.6)


def attract() -> np.ndarray:
    """The attract-mode jingle: a bright bell-like tune."""
    tune = [("E", 5), ("G", 5), ("C", 6), ("G", 5), ("A", 5), ("C", 6), ("E", 6), ("D", 6), ("C", 6)]
    track = np.zeros(int(2.0 * RATE))
    bell = (1.0, 0.0, 0.45, 0.0, 0.2)
    for i, (name, octave) in enumerate(tune):
        last = i == len(tune) - 1
        _place(
            track,
            _tone(_note(name, octave), 0.8 if last else 0.6, bell, decay=0.35 if last else 0.18),
            i * 0.15,
            0.7,
        )
    _place(track, _tone(_note("C", 4), 0.8, (1.0, 0.3), decay=0.3), 1.2, 0.4)
    return _finish(track)


#: The fixed effects written to ``sounds/NAME.wav`` (fanfare in three sizes of win).
EFFECTS: dict[str, Callable[[], np.ndarray]] = {
    "lever": lever,
    "tick": tick,
    "reel_stop": reel_stop,
    "fanfare_1": lambda: fanfare(1),
    "fanfare_2": lambda: fanfare(2),
    "fanfare_3": lambda: fanfare(3),
    "coin": coin,
    "monkey": monkey,
    "genie": genie,
    "dice": dice,
    "click": click,
    "error": error,
    "attract": attract,
}


def to_pcm16(clip: np.ndarray) -> bytes:
    """Float samples in [-1, 1] as little-endian signed 16-bit PCM bytes."""
    return bytes((np.clip(clip, -1.0, 1.0) * 32767.0).round().astype("<i2").tobytes())
