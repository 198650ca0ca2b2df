"""Before a game: attract, game select, player count and who sits where, all by the controls."""

from __future__ import annotations

from companion.flows.lobby import ATTRACT, PLAYERS, SELECT, Lobby, StartRequest
from companion.screen.views import AttractView, GameSelectView, PlayersView
from hardware.events import LONG_PRESS, PRESS, PULL, RELEASE, InputEvent


def use(lobby: Lobby, control: str, kind: str = PRESS) -> StartRequest | None:
    return lobby.on_input(InputEvent(control, PULL if control == "lever" else kind, 0.0))


def test_the_lever_goes_from_attract_through_select_and_players_to_a_game() -> None:
    lobby = Lobby("bandit", 2, "table", seats=("Ann", "Bob", "Cy"))
    assert isinstance(lobby.view(), AttractView) and lobby.lamps()["start"] == "blink"
    assert use(lobby, "lever") is None and lobby.screen == SELECT
    view = lobby.view()
    assert isinstance(view, GameSelectView) and view.options[view.selected].title == "Bandit (table)"
    titles = [option.title for option in view.options]
    assert {"Bandit (table)", "Bandit (cabinet)", "Pay Line (cabinet)"} <= set(titles)
    while lobby.choice.key != ("pay-line", "cabinet"):
        use(lobby, "hold3")
    use(lobby, "lever")
    assert lobby.screen == PLAYERS
    use(lobby, "hold3")  # 3 players
    use(lobby, "hold2")  # Bob starts
    players = lobby.view()
    assert isinstance(players, PlayersView) and players.count == 3 and players.names == ("Bob", "Cy", "Ann")
    request = use(lobby, "lever")
    assert request == StartRequest("pay-line", "cabinet", 3, ("Bob", "Cy", "Ann"))
    assert lobby.screen == ATTRACT


def test_the_player_count_stays_within_the_games_range() -> None:
    lobby = Lobby("bandit", 2, "table")
    use(lobby, "lever")
    use(lobby, "lever")
    for _ in range(5):
        use(lobby, "hold3")
    assert lobby.players == 2  # Bandit is for exactly two
    use(lobby, "back")
    assert lobby.screen == SELECT


def test_a_click_or_a_long_press_of_start_opens_game_select_once() -> None:
    lobby = Lobby("bandit", 2, "table")
    use(lobby, "start", PRESS)
    use(lobby, "start", RELEASE)
    assert lobby.screen == SELECT
    use(lobby, "back")
    assert lobby.screen == ATTRACT
    use(lobby, "start", PRESS)
    use(lobby, "start", LONG_PRESS)
    assert lobby.screen == SELECT
    use(lobby, "start", RELEASE)  # the release that ends the long press is not a second click
    assert lobby.screen == SELECT
