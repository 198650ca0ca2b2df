"""Jackpot Companion: a Raspberry Pi game-night companion for five slot-machine tabletop games."""

__version__ = "0.1.0"
