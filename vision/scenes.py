"""Seeded test scenes for the reader: cards on the table with or without the mat, and scoring.

Used by ``companion bench vision`` and the tests, so both judge the reader the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from vision.reader import Reading
from vision.simulated import SimulatedTable


def make_scene(game_id: str, seed: int, mat: bool, cards: int) -> SimulatedTable:
    """A table of ``game_id`` with about ``cards`` random cards (in zones when on the mat)."""
    table = SimulatedTable(game_id, seed=seed, mat=mat)
    rng = random.Random(seed)
    fronts = sorted({s.card_id for s in table._markers.sides.values()})
    if not mat or table.layout is None:
        table.scatter(cards)
        return table
    zones = [zone for zone in table.layout.zones]
    rng.shuffle(zones)
    left = cards
    for zone in zones:
        if left <= 0:
            break
        if zone.multi:
            row = min(left, rng.randint(3, 4))
            table.place_row(zone.name, [rng.choice(fronts) for _ in range(row)])
            left -= row
        else:
            table.place(zone.name, rng.choice(fronts))
            left -= 1
    return table


@dataclass
class Score:
    """Counts over scenes: readable cards, read right, wrong ids, unidentified, zone errors."""

    readable: int = 0
    correct: int = 0
    wrong: int = 0
    unsure: int = 0
    zone_errors: int = 0
    mat_missed: int = 0
    wrong_examples: list[str] = field(default_factory=list)

    def add(self, table: SimulatedTable, reading: Reading, label: str = "") -> None:
        """Score one reading of ``table``'s last frame."""
        if table.use_mat and not reading.mat_found:
            self.mat_missed += 1
        readable = {id(p) for p in table.readable()}
        sightings = list(reading.cards)
        for placed in table.all_placed():
            centre = placed.corners.mean(axis=0)
            size = float(np.linalg.norm(placed.corners[0] - placed.corners[1]))
            near = [s for s in sightings if np.linalg.norm(np.mean(s.corners, axis=0) - centre) < 0.35 * size]
            for sighting in near:
                sightings.remove(sighting)
            named = [s for s in near if s.card_id is not None]
            if any(s.card_id != placed.printed.card_id or s.game != placed.printed.game for s in named):
                self.wrong += 1
                self.wrong_examples.append(
                    f"{label}: {placed.printed.card_id} read as {[s.card_id for s in named]}"
                )
                continue
            if id(placed) not in readable:
                continue
            self.readable += 1
            if named:
                self.correct += 1
                if table.use_mat and reading.mat_found and named[0].zone != placed.zone:
                    self.zone_errors += 1
            elif near:
                self.unsure += 1
        # A named sighting where no card lies is a wrong id too.
        for sighting in sightings:
            if sighting.card_id is not None:
                self.wrong += 1
                self.wrong_examples.append(f"{label}: {sighting.card_id} read where no card lies")
