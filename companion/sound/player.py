"""Plays the effects through pygame.mixer on the output device named in the configuration.

>>> player = SoundPlayer(device=None, volume=0.7)   # doctest: +SKIP
>>> player.play("fanfare", amount=50)               # doctest: +SKIP
>>> player.play("shake", chips=9)                   # doctest: +SKIP

Without an audio device (a Pi with nothing plugged in, a server) it logs one warning and stays
silent: the game never stops for sound. A named device that is missing falls back to the
system's default output, with a warning listing the devices there are.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.sound.levels import RATE, fanfare_tier, shake_chips

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

#: Where ``sounds/make_sounds.py`` writes the WAVs (the repository's ``sounds/`` folder).
SOUNDS_DIR = Path(__file__).resolve().parent.parent.parent / "sounds"
NAMES = (
    "lever",
    "tick",
    "reel_stop",
    "fanfare",
    "coin",
    "monkey",
    "genie",
    "dice",
    "shake",
    "click",
    "error",
    "attract",
)
_GAIN = {"tick": 0.45, "click": 0.6, "coin": 0.7, "reel_stop": 0.9}


def list_output_devices() -> list[str]:
    """The names SDL gives the audio outputs (for the configuration's ``sound.device``).

    Empty when there is no audio system at all.
    """
    import pygame
    from pygame._sdl2 import audio as sdl_audio

    started_here = pygame.mixer.get_init() is None
    try:
        if started_here:
            pygame.mixer.init()
        return list(sdl_audio.get_audio_device_names(False))
    except pygame.error:
        return []
    finally:
        if started_here and pygame.mixer.get_init() is not None:
            pygame.mixer.quit()


class SoundPlayer:
    """Sound effects by name: ``play(name, **params)``.

    ``device`` is an output device name as :func:`list_output_devices` gives it (None: the
    default output); ``volume`` is 0.0-1.0. Names: lever, tick, reel_stop, fanfare (``amount``:
    the win, picks a bigger fanfare for bigger wins), coin, monkey, genie, dice, shake
    (``chips``: the box's content), click, error, attract.
    """

    def __init__(self, device: str | None = None, volume: float = 0.7, folder: Path | None = None) -> None:
        self._folder = folder or SOUNDS_DIR
        self._volume = _clamp(volume)
        self._sounds: dict[str, Any] = {}
        self._channels = 1
        self.device: str | None = None
        self.enabled = self._open(device)

    # --- public --------------------------------------------------------------------------
    @property
    def volume(self) -> float:
        """The master volume, 0.0-1.0."""
        return self._volume

    def set_volume(self, volume: float) -> None:
        """Change the master volume (the menu's setting); applies to the next sound played."""
        self._volume = _clamp(volume)

    def play(self, name: str, **params: Any) -> bool:
        """Play an effect; returns False when it was not played (sound off, unknown name)."""
        if name not in NAMES:
            log.warning("no sound effect named %r (known: %s)", name, ", ".join(NAMES))
            return False
        if not self.enabled:
            return False
        import pygame

        try:
            sound, gain = self._sound_for(name, params)
            sound.set_volume(self._volume * gain)
            return sound.play() is not None
        except pygame.error as error:  # the device went away mid-game: go quiet, keep playing
            log.warning("sound stopped (%s); carrying on without sound", error)
            self.enabled = False
            return False

    def clip(self, name: str, **params: Any) -> np.ndarray:
        """The float samples ``play`` would use (22050 Hz mono), e.g. to inspect or test them."""
        from companion.sound import synth

        if name == "shake":
            return synth.shake(shake_chips(int(params.get("chips", 0))))
        if name == "fanfare":
            return synth.fanfare(fanfare_tier(int(params.get("amount", 1))))
        return synth.EFFECTS[name]()

    def close(self) -> None:
        """Stop all sound and release the device (idempotent)."""
        if self.enabled:
            import pygame

            pygame.mixer.quit()
            self.enabled = False

    def __enter__(self) -> SoundPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals -----------------------------------------------------------------------
    def _open(self, device: str | None) -> bool:
        try:
            import pygame
        except ImportError:  # pragma: no cover - pygame-ce is a dependency
            log.warning("pygame is not installed: sound is off")
            return False
        try:
            pygame.mixer.init(RATE, -16, 1, 512, devicename=device)
            self.device = device
        except pygame.error as error:
            if device is None:
                log.warning("no audio output (%s): sound is off", error)
                return False
            known = list_output_devices()
            log.warning(
                "audio device %r not found (%s); outputs here: %s; using the default output",
                device,
                error,
                ", ".join(known) or "none",
            )
            try:
                pygame.mixer.init(RATE, -16, 1, 512)
            except pygame.error as fallback:
                log.warning("no audio output (%s): sound is off", fallback)
                return False
        pygame.mixer.set_num_channels(16)
        init = pygame.mixer.get_init()
        self._channels = init[2] if init else 1
        return True

    def _sound_for(self, name: str, params: dict[str, Any]) -> tuple[Any, float]:
        if name == "shake":
            chips = shake_chips(int(params.get("chips", 0)))
            return self._load(f"shake_{chips}", lambda: _synth().shake(chips)), 1.0
        if name == "fanfare":
            amount = int(params.get("amount", 1))
            tier = fanfare_tier(amount)
            return self._load(f"fanfare_{tier}"), 0.75 + 0.25 * tier / 3
        return self._load(name), _GAIN.get(name, 1.0)

    def _load(self, key: str, make: Any = None) -> Any:
        """The shipped ``key.wav``; without it, made by ``make`` (default: the effect's recipe)."""
        sound = self._sounds.get(key)
        if sound is None:
            import pygame

            path = self._folder / f"{key}.wav"
            if path.is_file():
                sound = pygame.mixer.Sound(str(path))
            else:  # an install without the WAVs: make it from the same recipe
                sound = self._from_samples(make() if make is not None else _synth().EFFECTS[key]())
            self._sounds[key] = sound
        return sound

    def _from_samples(self, clip: np.ndarray) -> Any:
        import numpy as np  # only a sound whose WAV is missing from the install needs it
        import pygame

        pcm = (np.clip(clip, -1.0, 1.0) * 32767.0).round().astype(np.int16)
        if self._channels > 1:
            pcm = np.repeat(pcm[:, None], self._channels, axis=1)
        return pygame.sndarray.make_sound(np.ascontiguousarray(pcm))


def _synth() -> Any:
    """The synthesiser (NumPy): only for a WAV missing from the install."""
    from companion.sound import synth

    return synth


def _clamp(volume: float) -> float:
    return min(1.0, max(0.0, float(volume)))
