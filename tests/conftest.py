"""Test-wide set-up: every test runs without a Pi, a screen or a sound card."""

import os

# Set before anything imports pygame or gpiozero, so the same code paths run headless.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
