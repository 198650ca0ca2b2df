"""The companion's own screen points phones at the scoreboard (attract screen and menu: the
address and a QR code of it), and "New night" in its menu starts tonight on the scoreboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config, ScoreboardSettings
from companion.daemon.app import Daemon, RunOptions
from companion.journal import open_readonly
from companion.journal.queries import read_nights
from companion.scoreboard.address import LinkSource, scoreboard_urls
from companion.screen.display import Display
from companion.screen.views import AttractView, MenuView, ScoreboardLink
from hardware.events import LONG_PRESS, PRESS, InputEvent
from tests.scoreboard_helpers import record_game


def make(tmp_path: Path, enabled: bool) -> Daemon:
    config = Config(scoreboard=ScoreboardSettings(enabled=enabled, port=8123))
    daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=tmp_path / "journal.sqlite", seed=3,
                               config=config))
    daemon.start()
    return daemon


def test_the_attract_screen_shows_the_address_and_a_qr_code_when_the_scoreboard_is_on(tmp_path: Path) -> None:
    daemon = make(tmp_path, enabled=True)
    try:
        daemon.step()
        view = daemon.view
        assert isinstance(view, AttractView) and view.link is not None
        assert view.link.urls[0].endswith(".local:8123/") or view.link.urls[0].startswith("http://127.0.0.1")
        assert all(url.startswith("http://") and url.endswith(":8123/") for url in view.link.urls)
        assert view.link.matrix == ScoreboardLink.of(view.link.urls).matrix and len(view.link.matrix) > 20
    finally:
        daemon.close()


def test_no_address_is_shown_while_the_scoreboard_is_off(tmp_path: Path) -> None:
    daemon = make(tmp_path, enabled=False)
    try:
        daemon.step()
        assert isinstance(daemon.view, AttractView) and daemon.view.link is None
    finally:
        daemon.close()


def test_new_night_in_the_menu_makes_this_game_the_first_of_tonight(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    from companion.journal import Journal

    with Journal.open(path) as journal:
        earlier = record_game(journal, "pay-line", ["Ann", "Bob"], seed=1)  # minutes ago: same night
    daemon = make(tmp_path, enabled=True)
    try:
        daemon.dispatch(InputEvent("lever", "pull", 0.0))  # attract -> game select
        daemon.dispatch(InputEvent("lever", "pull", 0.1))  # pick -> players
        daemon.dispatch(InputEvent("lever", "pull", 0.2))  # start
        daemon.step()
        assert daemon.flow is not None
        game_id = daemon.flow.session.game_id
        daemon.dispatch(InputEvent("start", PRESS, 1.0))
        daemon.dispatch(InputEvent("start", LONG_PRESS, 2.5))
        daemon.step()
        assert isinstance(daemon.view, MenuView) and daemon.view.link is not None
        for _ in range(3):
            daemon.dispatch(InputEvent("hold3", PRESS, 3.0))  # Resume -> ... -> New night
        daemon.dispatch(InputEvent("lever", "pull", 3.1))
        daemon.step()
        assert isinstance(daemon.view, MenuView) and daemon.view.items[3].value == "from this game"
        with open_readonly(path) as reader:
            nights = read_nights(reader)
        assert [n.game_ids for n in nights] == [[earlier], [game_id]]
    finally:
        daemon.close()


@pytest.mark.parametrize("size", [(800, 480), (480, 320), (480, 800)])
def test_the_link_is_drawn_on_every_panel_size(size: tuple[int, int]) -> None:
    link = LinkSource(8080, hostname="jackpot", find_ip=lambda: "192.168.1.20").get(now=0.0)
    assert link.urls == tuple(scoreboard_urls(8080, hostname="jackpot", lan_ip="192.168.1.20"))
    for view, without in ((AttractView(link=link), AttractView()), (MenuView(link=link), MenuView())):
        assert (0, 0, 0) in _colours(view, size) and (0, 0, 0) not in _colours(without, size)


def _colours(view: AttractView | MenuView, size: tuple[int, int]) -> set[tuple[int, ...]]:
    """Every colour on the canvas (the QR code's modules are the only pure black)."""
    with Display(*size) as display:
        display.draw(view, 0.0)
        canvas = display.canvas
        width, height = canvas.get_size()
        return {tuple(canvas.get_at((x, y)))[:3] for x in range(width) for y in range(height)}
