"""Before a game: the attract screen, game select and player count, all from the controls.

- attract: ``start`` (a short or a long press) or the lever opens game select;
- game select: ``hold1``/``hold3`` move, the lever or ``collect`` picks, ``back`` returns; a
  long press of ``start`` here (or on players) asks for the menu (:class:`MenuRequest`: teach
  the highlighted game's cards, new night, volume, rotation);
- players: ``hold1``/``hold3`` change the count within the game's range, ``hold2`` turns the
  seats so the next player starts (seat 1 plays first), the lever or ``collect`` starts,
  ``back`` returns. Seat names come from the configuration.

>>> lobby = Lobby(default_game="bandit", default_players=2, default_mode="table")
>>> lobby.options[0].key
('bandit', 'table')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import get_game
from companion.flows import FLOWS
from companion.screen.views import AttractView, GameOption, GameSelectView, PlayersView
from hardware.events import LONG_PRESS, PRESS, PULL, RELEASE, InputEvent

ATTRACT, SELECT, PLAYERS = "attract", "select", "players"


@dataclass(frozen=True)
class Choice:
    """One line of game select: a game in one mode."""

    game_id: str
    mode: str
    title: str
    blurb: str

    @property
    def key(self) -> tuple[str, str]:
        """(game id, mode)."""
        return (self.game_id, self.mode)


@dataclass(frozen=True)
class StartRequest:
    """The table chose: start this game."""

    game_id: str
    mode: str
    players: int
    #: names by seat, seat 1 first (None: the configured names)
    seats: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MenuRequest:
    """The table held START outside a game: open the menu for the highlighted game."""

    game_id: str
    #: whether the game's cards are read by the camera (only then can they be taught)
    table_mode: bool


def choices() -> list[Choice]:
    """Every game and mode that has a flow."""
    out = []
    for game_id, flow in FLOWS.items():
        game = get_game(game_id)
        for mode in flow.modes:
            label = {"table": "cards on the table", "cabinet": "the Pi deals"}.get(mode, mode)
            if mode == "cabinet" and flow.modes == ("cabinet",):
                label = "the Pi is the machine"
            players = (f"{game.min_players} players" if game.min_players == game.max_players
                       else f"{game.min_players}-{game.max_players} players")
            out.append(Choice(game_id, mode, f"{game.title} ({mode})", f"{players}, {label}"))
    return out


class Lobby:
    """The attract / game select / players state machine."""

    def __init__(self, default_game: str, default_players: int, default_mode: str,
                 seats: tuple[str, ...] = ()) -> None:
        self.options = choices()
        self.screen = ATTRACT
        keys = [c.key for c in self.options]
        wanted = (default_game, default_mode)
        self.selected = keys.index(wanted) if wanted in keys else next(
            (i for i, c in enumerate(self.options) if c.game_id == default_game), 0)
        self.players = default_players
        self.seats = seats
        #: which configured name sits in seat 1 (hold2 turns the table)
        self.first = 0
        self._start_down = False

    @property
    def choice(self) -> Choice:
        """The highlighted game."""
        return self.options[self.selected]

    def _clamp_players(self) -> None:
        game = get_game(self.choice.game_id)
        self.players = max(game.min_players, min(game.max_players, self.players))

    def on_input(self, event: InputEvent) -> StartRequest | MenuRequest | None:
        """Move through the screens; returns a request when a game should start or the menu open."""
        control, kind = event.control, event.kind
        if control == "start":
            # A short click acts on release (a long press is the menu, handled by the daemon).
            if kind == PRESS:
                self._start_down = True
                return None
            if kind == LONG_PRESS and self.screen == ATTRACT:
                self._start_down = False
                self.screen = SELECT  # "hold START for the menu": the game menu
                return None
            if kind == LONG_PRESS:
                self._start_down = False
                game_id = self.choice.game_id
                return MenuRequest(game_id, "table" in FLOWS[game_id].modes)
            if kind != RELEASE or not self._start_down:
                self._start_down = False
                return None
            self._start_down = False
            kind = PRESS
        confirm = (control == "lever" and kind == PULL) or (control in ("collect", "start") and kind == PRESS)
        if self.screen == ATTRACT:
            if confirm:
                self.screen = SELECT
            return None
        if kind not in (PRESS, PULL):
            return None
        step = {"hold1": -1, "hold3": 1}.get(control, 0)
        if control == "back":
            self.screen = ATTRACT if self.screen == SELECT else SELECT
        elif self.screen == SELECT:
            if step:
                self.selected = (self.selected + step) % len(self.options)
            elif confirm:
                self.screen = PLAYERS
                self._clamp_players()
        elif self.screen == PLAYERS:
            if step:
                self.players += step
                self._clamp_players()
                self.first %= self.players
            elif control == "hold2" and kind == PRESS:
                self.first = (self.first + 1) % self.players
            elif confirm:
                self.screen = ATTRACT
                return StartRequest(self.choice.game_id, self.choice.mode, self.players, self.names())
        return None

    def view(self) -> AttractView | GameSelectView | PlayersView:
        """The screen to draw."""
        if self.screen == SELECT:
            return GameSelectView(tuple(GameOption(f"{c.game_id}", c.title, c.blurb) for c in self.options),
                                  self.selected, hint="Hold buttons move, lever picks, hold START: menu")
        if self.screen == PLAYERS:
            game = get_game(self.choice.game_id)
            return PlayersView(self.choice.game_id, self.choice.title, self.players, game.min_players,
                               game.max_players, self.names(),
                               hint="Hold 1 / Hold 3 change, Hold 2 who starts, lever starts")
        return AttractView(games=tuple(dict.fromkeys(c.game_id for c in self.options)))

    def names(self) -> tuple[str, ...]:
        """The players' names by seat, seat 1 (who starts) first."""
        named = [self.seats[i] if i < len(self.seats) else f"Player {i + 1}" for i in range(self.players)]
        return tuple(named[self.first:] + named[:self.first])

    def lamps(self) -> dict[str, str]:
        """Attract: start glows; menus: the moving and picking controls."""
        if self.screen == ATTRACT:
            return {"start": "blink", "lever": "on"}
        lamps = {"hold1": "on", "hold3": "on", "lever": "on", "collect": "on", "back": "on"}
        if self.screen == PLAYERS:
            lamps["hold2"] = "on"
        return lamps
