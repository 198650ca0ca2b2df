"""View models: frozen, engine-free values the daemon can build and the screen only reads."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from companion.screen import views as v


def test_views_are_frozen_values() -> None:
    table = v.TableView("bandit", "Bandit", (v.PlayerLine("Ann", 3, active=True),), "Pull the lever")
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.prompt = "changed"  # type: ignore[misc]
    assert table == v.TableView("bandit", "Bandit", (v.PlayerLine("Ann", 3, active=True),), "Pull the lever")
    assert hash(table) == hash(dataclasses.replace(table))


def test_importing_views_pulls_in_neither_engine_nor_pygame() -> None:
    code = (
        "import sys, companion.screen.views; print(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('pygame', 'cv2') or m.startswith('companion.engine')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_row_reels_have_one_symbol_per_reel_and_grid_reels_three() -> None:
    dice = v.ReelSet.row(["red", "red", None], spin_id=2, held=[True, False, False], win=True, payout=16)
    assert dice.reels == (("red",), ("red",), (None,)) and dice.rows == 1
    assert dice.is_held(0) and not dice.is_held(2) and dice.win_rows == (0,)
    grid = v.ReelSet.grid([["cherry", "plum", "bell"]] * 3, win_rows=[1])
    assert grid.rows == 3 and grid.win_rows == (1,)


def test_table_knows_whose_turn_it_is() -> None:
    players = (v.PlayerLine("Ann", 1), v.PlayerLine("Bob", 2, active=True))
    assert v.TableView("pay-line", "Pay Line", players, "Roll").active_player() == players[1]
    assert v.TableView("pay-line", "Pay Line", players[:1], "Roll").active_player() is None
