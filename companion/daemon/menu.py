"""The companion's menu (a long press of START), in a game and outside one.

In a game: Resume, Volume, Rotation, New night, End this game. Outside a game (held on game
select or players): Teach cards for the highlighted game (only when its cards are read by the
camera), New night (the next game is the first of tonight: where the host looks before the
first game of a night), Volume, Rotation, Back. Hold 1 / Hold 3 move; the lever or COLLECT changes a setting
or picks; BACK leaves. The daemon keeps the highlighted line in ``daemon.menu`` (None: closed)
and the game the menu was opened for outside a game in ``daemon.menu_game``.
"""

from __future__ import annotations

from typing import Any

from companion.engine import get_game
from companion.journal.queries import night_is_new
from companion.screen.views import MenuItem, MenuView
from hardware.events import PRESS, PULL, InputEvent

#: The :class:`companion.daemon.app.Daemon` (not imported: it imports this module).
Daemon = Any
IN_GAME = ("Resume", "Volume", "Rotation", "New night", "End this game")
OUTSIDE_A_GAME = ("Teach cards", "New night", "Volume", "Rotation", "Back")


def menu_items(daemon: Daemon) -> tuple[str, ...]:
    """The lines of the menu now."""
    if daemon.flow is not None:
        return IN_GAME
    if daemon.menu_game is not None and not daemon.menu_game.table_mode:
        return OUTSIDE_A_GAME[1:]
    return OUTSIDE_A_GAME


def menu_input(daemon: Daemon, event: InputEvent) -> None:
    """Hold 1 / Hold 3 move; the lever or COLLECT changes a setting or picks; BACK leaves."""
    assert daemon.menu is not None
    if event.kind not in (PRESS, PULL):
        return
    daemon.menu_error = ""
    items = menu_items(daemon)
    if event.control in ("hold1", "hold3"):
        daemon.menu = (daemon.menu + (1 if event.control == "hold3" else -1)) % len(items)
    elif event.control == "back":
        daemon.menu = daemon.menu_game = None
    elif event.control in ("lever", "collect"):
        item = items[daemon.menu]
        if item == "Volume":
            steps = round(daemon.sound.volume * 10)
            daemon.sound.set_volume(((steps + 1) % 11) / 10)
            daemon._play("click", {})
        elif item == "Rotation":
            daemon.display.set_rotation((daemon.display.rotation + 90) % 360)
        elif item == "New night":
            if daemon.flow is not None:
                daemon.flow.session.start_night()
            # outside a game: pressed twice before the game, it is still one new night
            elif daemon.journal is not None and not night_is_new(daemon.journal.connection):
                daemon.journal.start_night()
            daemon._play("click", {})
        elif item == "Teach cards" and daemon.menu_game is not None:
            daemon._start_teaching(daemon.menu_game.game_id)
        else:
            if item == "End this game":
                daemon._end_game()
            daemon.menu = daemon.menu_game = None


def menu_view(daemon: Daemon) -> MenuView:
    """The menu as the screen draws it."""
    values = {"Volume": f"{round(daemon.sound.volume * 100)} %", "Rotation": f"{daemon.display.rotation}"}
    if daemon.flow is not None and daemon.flow.session.new_night:
        values["New night"] = "from this game"
    elif daemon.flow is None and daemon.journal is not None and night_is_new(daemon.journal.connection):
        values["New night"] = "from the next game"
    if daemon.menu_game is not None:
        values["Teach cards"] = get_game(daemon.menu_game.game_id).title
    return MenuView(tuple(MenuItem(label, values.get(label, "")) for label in menu_items(daemon)),
                    daemon.menu or 0, title="Menu",
                    hint=daemon.menu_error or "Hold 1 / Hold 3 move, lever changes or picks, BACK returns",
                    link=daemon._scoreboard_link())
