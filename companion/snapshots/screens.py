"""The screens around the games (docs/screens): the lobby, the menu, the start-up error.

The lobby is the real :class:`~companion.flows.lobby.Lobby` driven by its buttons; the menu is the
daemon's own, opened with a long press of START in a running (headless) daemon; the start-up error
is what the service shows for a real configuration mistake.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from companion.config import ConfigFileError, load_config
from companion.daemon.app import Daemon, RunOptions
from companion.daemon.startup_error import error_view
from companion.flows.lobby import Lobby
from companion.screen.views import MenuView
from companion.snapshots.common import Shot, press, settled
from hardware.events import LONG_PRESS, RELEASE

SEATS = ("Ann", "Ben", "Cleo", "Dev")


def _lobby() -> Lobby:
    return Lobby(default_game="bandit", default_players=2, default_mode="table", seats=SEATS)


def _to_mega_jackpot(lobby: Lobby) -> None:
    """A click of START (it acts on release), then HOLD3 down to Mega Jackpot (table)."""
    lobby.on_input(press("start"))
    lobby.on_input(press("start", RELEASE))
    for _ in range(len(lobby.options)):
        if lobby.choice.title == "Mega Jackpot (table)":
            return
        lobby.on_input(press("hold3"))
    raise AssertionError("game select offers no Mega Jackpot (table)")


def attract() -> Shot:
    """The attract screen the Pi boots into."""
    return settled(_lobby().view(), times=(0.0, 2.0))


def game_select() -> Shot:
    """Game select (START from the attract screen), moved down to Mega Jackpot (table)."""
    lobby = _lobby()
    _to_mega_jackpot(lobby)
    return settled(lobby.view(), times=(0.0, 2.0))


def players() -> Shot:
    """The players screen for Mega Jackpot: three players."""
    lobby = _lobby()
    _to_mega_jackpot(lobby)
    lobby.on_input(press("collect"))
    while lobby.players < 3:
        lobby.on_input(press("hold3"))
    return settled(lobby.view(), times=(0.0, 2.0))


def menu() -> Shot:
    """The menu: START held during a Pay Line game in the daemon itself."""
    with tempfile.TemporaryDirectory() as folder:
        daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=Path(folder) / "journal.sqlite",
                                   seed=3, game="pay-line", mode="cabinet", players=3, use_gpio=False))
        daemon.start()
        try:
            daemon.dispatch(press("start", LONG_PRESS))
            daemon.step(0.0)
            view = daemon.view
            assert isinstance(view, MenuView), view
        finally:
            daemon.close()
    return settled(view, times=(0.0, 2.0))


def startup_error() -> Shot:
    """A configuration mistake: the service shows the one-line error until the file is saved."""
    shown = Path("/etc/jackpot-companion/config.toml")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text("[screen]\nrotation = 45\n", encoding="utf-8")
        try:
            load_config(path)
        except ConfigFileError as error:
            message = str(error).replace(str(path), str(shown))  # where the service reads it
        else:
            raise AssertionError("rotation 45 was accepted")
    return settled(error_view(message, shown), times=(0.0, 2.0))
