"""The sound player: every effect plays, a missing device means silence and a warning, never a crash."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import numpy as np
import pygame
import pytest

from companion.sound import synth
from companion.sound.player import NAMES, SoundPlayer, list_output_devices


@pytest.fixture
def player() -> Iterator[SoundPlayer]:
    with SoundPlayer(device=None, volume=0.5) as p:
        yield p


def test_every_effect_in_the_contract_plays(player: SoundPlayer) -> None:
    assert player.enabled
    for name in NAMES:
        assert player.play(name, amount=20, chips=5), name


def test_an_unknown_effect_is_skipped_with_a_warning(
    player: SoundPlayer, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert player.play("kazoo") is False
    assert "no sound effect named 'kazoo'" in caplog.text


def test_no_audio_device_means_silence_and_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", no_device)
    with caplog.at_level(logging.WARNING):
        quiet = SoundPlayer(device=None, volume=1.0)
        assert quiet.enabled is False
        assert quiet.play("fanfare", amount=200) is False
        assert quiet.play("shake", chips=9) is False
    assert "no audio output" in caplog.text and "sound is off" in caplog.text
    quiet.close()


def test_the_output_is_chosen_by_name() -> None:
    names = list_output_devices()
    assert names, "the dummy audio driver lists its output"
    with SoundPlayer(device=names[0], volume=0.5) as chosen:
        assert chosen.enabled and chosen.device == names[0]
        assert chosen.play("click")


def test_a_missing_named_device_falls_back_to_the_default_and_says_so(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.WARNING),
        SoundPlayer(device="USB Speaker That Is Not There", volume=0.5) as p,
    ):
        assert p.enabled and p.device is None
        assert p.play("coin")
    assert "'USB Speaker That Is Not There' not found" in caplog.text
    assert "System audio output device" in caplog.text


def test_volume_is_clamped_and_adjustable(player: SoundPlayer) -> None:
    player.set_volume(1.7)
    assert player.volume == 1.0
    player.set_volume(-2)
    assert player.volume == 0.0


def _busy_windows(clip: np.ndarray) -> int:
    """How many 5 ms windows hold an audible impact (a rough count of rattle density)."""
    window = int(0.005 * synth.RATE)
    frames = clip[: len(clip) // window * window].reshape(-1, window)
    return int((np.abs(frames).max(axis=1) > 0.08).sum())


def test_a_fuller_box_rattles_denser_and_louder(player: SoundPlayer) -> None:
    empty, few, full = (player.clip("shake", chips=c) for c in (0, 3, 16))
    assert _busy_windows(empty) < _busy_windows(few) < _busy_windows(full)
    rms = [float(np.sqrt(np.mean(c.astype(float) ** 2))) for c in (empty, few, full)]
    assert np.abs(full).max() > np.abs(few).max() > np.abs(empty).max()
    assert rms[2] > rms[1]


def test_a_bigger_win_gets_a_bigger_fanfare(player: SoundPlayer) -> None:
    small, medium, big = (len(player.clip("fanfare", amount=a)) for a in (5, 20, 200))
    assert small < medium < big


def test_a_shake_plays_the_shipped_rattle_without_numpy() -> None:
    import json
    import os
    import subprocess
    import sys

    probe = (
        "import sys, json\n"
        "from companion.sound.player import SoundPlayer\n"
        "player = SoundPlayer(device=None, volume=0.5)\n"
        "played = [player.play('shake', chips=n) for n in (0, 9, 500)]\n"
        "print(json.dumps([played, 'numpy' in sys.modules]))\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    played, numpy_loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert played == [True, True, True] and numpy_loaded is False


def test_a_count_between_the_shipped_rattles_plays_the_lower_one(player: SoundPlayer) -> None:
    assert np.array_equal(player.clip("shake", chips=9), synth.shake(8))
    assert _busy_windows(player.clip("shake", chips=80)) > _busy_windows(player.clip("shake", chips=40))
