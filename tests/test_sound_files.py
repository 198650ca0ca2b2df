"""The committed WAVs: small, 22050 Hz mono 16-bit, and exactly what the synthesis script makes."""

from __future__ import annotations

import functools
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from companion.sound import synth
from companion.sound.levels import SHAKE_CHIPS
from companion.sound.player import SOUNDS_DIR

#: every shipped WAV: the fixed effects and the box-shake rattle for each chip count
MAKERS = {**synth.EFFECTS, **{f"shake_{n}": functools.partial(synth.shake, n) for n in SHAKE_CHIPS}}


@pytest.mark.parametrize("name", list(MAKERS))
def test_each_effect_is_a_short_small_wav_made_by_the_script(name: str) -> None:
    path = SOUNDS_DIR / f"{name}.wav"
    assert path.is_file(), f"run `python -m sounds.make_sounds` to write {path.name}"
    with wave.open(str(path)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (22050, 1, 2)
        frames = wav.readframes(wav.getnframes())
        assert wav.getnframes() / 22050 <= 2.5
    assert path.stat().st_size < 120_000
    stored = np.frombuffer(frames, "<i2").astype(int)
    fresh = np.frombuffer(synth.to_pcm16(MAKERS[name]()), "<i2").astype(int)
    assert len(stored) == len(fresh) and np.abs(stored - fresh).max() <= 2, (
        f"{path.name} is stale: re-run the script"
    )


def test_the_script_writes_every_effect(tmp_path: Path) -> None:
    script = SOUNDS_DIR / "make_sounds.py"
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True, capture_output=True)
    assert sorted(p.stem for p in tmp_path.glob("*.wav")) == sorted(MAKERS)


def test_effects_never_clip_and_start_promptly() -> None:
    for name, make in synth.EFFECTS.items():
        clip = make()
        assert np.abs(clip).max() <= 0.9, name
        first = int(np.argmax(np.abs(clip) > 0.05))
        assert first < 0.05 * synth.RATE, f"{name} starts {first / synth.RATE:.2f} s late"
