"""The screens around the games (docs/screens): the lobby, the menu, the start-up error, teaching
a deck.

The lobby is the real :class:`~companion.flows.lobby.Lobby` driven by its buttons; the menu is the
daemon's own, opened with a long press of START in a running (headless) daemon; the start-up error
is what the service shows for a real configuration mistake; "Teach cards" is its real flow fed by
the camera thread's own per-frame job on a simulated camera showing one card.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

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


def _publisher_card(symbol: str, frame_bgr: tuple[int, int, int]) -> Any:
    """A card as a publisher might print it (no marker): a coloured frame, the symbol large."""
    import cv2
    import numpy as np

    from companion.art import render_symbol

    card = np.full((280, 200, 3), 245, np.uint8)
    cv2.rectangle(card, (12, 12), (187, 267), frame_bgr, 4)  # a printed line inside a white margin
    art = render_symbol("bandit", symbol, 150)
    alpha = art[:, :, 3:4].astype(np.float32) / 255.0
    spot = card[65:215, 25:175].astype(np.float32)
    card[65:215, 25:175] = (spot * (1 - alpha) + art[:, :, 2::-1] * alpha).astype(np.uint8)
    return card


def teach_cards() -> Shot:
    """Teach cards for Bandit: Cherry taught already, the group's own Plum card laid and caught."""
    from companion.daemon.teaching import cut_out_job, open_teaching
    from vision.simulated import SimulatedTable, Style

    style = Style(card_px=150.0, tilt_deg=6.0, tilt_axis=0.4, rotation=0.3, tint=(1.0, 1.0, 1.0),
                  brightness=0.95, gradient=0.1, blur=0.0, noise=2.0, glare=0, shadows=0, hands=0,
                  table="dark")
    deck = {card: [_publisher_card(card, colour)] for card, colour in (("cherry", (40, 40, 200)),
                                                                       ("plum", (140, 40, 110)))}
    table = SimulatedTable("bandit", seed=5, mat=False, style=style, taught=deck)
    job = cut_out_job("bandit")
    with tempfile.TemporaryDirectory() as folder:
        flow = open_teaching("bandit", Path(folder))
        # The camera's frames: a card laid changes the scene (that frame is only shown), then
        # it lies still (judged once, the verdict kept).
        table.place_at("cherry", table.centre, 25.0)
        for _ in range(4):
            flow.on_frame(job(table.frame()))
        flow.on_input(press("collect"))
        table.loose.clear()
        for _ in range(2):
            flow.on_frame(job(table.frame()))
        table.place_at("plum", (table.centre[0] + 20, table.centre[1]), 160.0)
        for _ in range(4):
            flow.on_frame(job(table.frame()))
        view = flow.view()
        assert view.phase == "caught" and not view.alert, (view.prompt, view.alert)
    return settled(view, times=(0.0, 2.0))
