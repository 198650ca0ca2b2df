"""The one configuration loader of the project: a TOML file, validated, with defaults.

Where the file comes from: ``--config PATH`` if given, else ``/etc/jackpot-companion/config.toml``
if it exists, else the built-in defaults. Every mistake is reported as ONE line that names the
key (``config.toml: screen.rotation must be 0, 90, 180 or 270, not 45``) through
:class:`ConfigFileError`, which the CLI turns into exit code 2.

>>> cfg = parse_config({"screen": {"rotation": 180}, "game": {"default": "pay-line", "players": 3}})
>>> cfg.screen.rotation, cfg.game.default, cfg.game.players
(180, 'pay-line', 3)

A complete example file (every key optional)::

    [game]
    default = "bandit"        # game shown first in the menu
    players = 2
    mode = "table"            # table: the cards are the truth; cabinet: the Pi deals/rolls
    seats = ["Ann", "Bob"]    # names by seat (default "Player 1", ...)
    variants = ["tiles"]      # variants switched on in every game that has them

    [screen]
    width = 800
    height = 480
    rotation = 0              # 0, 90, 180 or 270 (rotated in the app, see docs/platform.md)
    fullscreen = true

    [camera]
    source = "picamera"       # picamera | usb:/dev/v4l/by-id/... | file:PATH | sim
    stable_frames = 2         # frames in a row a card must read the same, lying still, to count
    min_confidence = 0.8

    [audio]
    device = ""               # ALSA device name; "" = SDL's default
    volume = 0.8

    [pins]                    # BCM numbers: see hardware/config.py (PanelConfig) for every key
    lever = 4
    hold1_lamp = 22
    back_lamp = "none"

    [journal]
    path = ""                 # "" = $STATE_DIRECTORY or the XDG state dir

    [scoreboard]              # the phones' scoreboard (companion scoreboard, its own service)
    enabled = false           # true: jackpot-scoreboard.service serves it
    host = "0.0.0.0"          # address to listen on ("127.0.0.1": this machine only)
    port = 8080
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError

if TYPE_CHECKING:
    from hardware.config import PanelConfig

#: Where a system install keeps its configuration.
SYSTEM_CONFIG = Path("/etc/jackpot-companion/config.toml")

GAMES = ("bandit", "pay-line", "mega-jackpot", "thanks-a-lottery", "jackpot-payout")
MODES = ("table", "cabinet")
ROTATIONS = (0, 90, 180, 270)
#: The most seats any of the five games has (Thanks a Lottery).
GAMES_MAX_PLAYERS = 6
#: Longest seat name: it must fit a score row on an 800 px screen.
MAX_SEAT_NAME = 24
#: Longest path or device name in the file (Linux's PATH_MAX).
MAX_PATH = 4096
#: A configuration file is a few hundred bytes; anything this big is the wrong file.
MAX_FILE_BYTES = 256 * 1024
#: Longest excerpt of a bad value an error line quotes.
EXCERPT = 40


class ConfigFileError(UserError):
    """The configuration file is missing, unreadable or invalid; the message names the key."""


@dataclass(frozen=True)
class GameSettings:
    """What the companion starts with."""

    default: str = "bandit"
    players: int = 2
    mode: str = "table"
    seats: tuple[str, ...] = ()
    #: variants switched on whenever the game being started has them (e.g. "tiles", "bad-luck")
    variants: tuple[str, ...] = ()

    def variants_for(self, game_id: str) -> tuple[str, ...]:
        """The configured variants that ``game_id`` has."""
        return variants_of(game_id, self.variants)

    def seat_names(self, players: int) -> list[str]:
        """Names for ``players`` seats: the configured ones, then "Player N"."""
        return [self.seats[i] if i < len(self.seats) else f"Player {i + 1}" for i in range(players)]


@dataclass(frozen=True)
class ScreenSettings:
    """Panel size and how it is mounted."""

    width: int = 800
    height: int = 480
    rotation: int = 0
    fullscreen: bool = True


@dataclass(frozen=True)
class CameraSettings:
    """Which camera, and how sure vision must be before a card counts."""

    source: str = "picamera"
    stable_frames: int = 2
    min_confidence: float = 0.8


@dataclass(frozen=True)
class AudioSettings:
    """Output device (by ALSA name, since card numbers differ between Pi models) and volume."""

    device: str | None = None
    volume: float = 0.8


@dataclass(frozen=True)
class ScoreboardSettings:
    """The phones' scoreboard: off until the host turns it on; where it listens."""

    enabled: bool = False
    host: str = "0.0.0.0"
    port: int = 8080


@dataclass(frozen=True)
class Config:
    """The whole validated configuration."""

    game: GameSettings = field(default_factory=GameSettings)
    screen: ScreenSettings = field(default_factory=ScreenSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    audio: AudioSettings = field(default_factory=AudioSettings)
    #: The ``[pins]`` table as written (validated by :class:`hardware.config.PanelConfig`).
    pins: Mapping[str, Any] = field(default_factory=dict)
    journal_path: Path | None = None
    scoreboard: ScoreboardSettings = field(default_factory=ScoreboardSettings)
    #: The file this came from, None for built-in defaults.
    source: Path | None = None

    def panel(self) -> PanelConfig:
        """The control panel's wiring and timings (hardware defaults for what is not set)."""
        from hardware.config import PanelConfig

        return PanelConfig.from_mapping(self.pins)


# --- validation helpers: each raises with the dotted key in the message -----------------------


class _Invalid(Exception):
    pass


def _section(data: Mapping[str, Any], name: str, known: tuple[str, ...]) -> Mapping[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, Mapping):
        raise _Invalid(f"[{name}] must be a table (a '[{name}]' header), not {_kind(value)}")
    for key in value:
        if key not in known:
            raise _Invalid(f"{name}.{excerpt(key)} is not a setting (known: {', '.join(known)})")
    return value


def excerpt(value: Any) -> str:
    """``repr(value)`` cut to a short excerpt: an error line never echoes kilobytes back."""
    text = repr(value)
    return text if len(text) <= EXCERPT else text[: EXCERPT - 3] + "..."


def _kind(value: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list"}.get(
        type(value), type(value).__name__
    )


def _int(section: Mapping[str, Any], name: str, key: str, default: int, lo: int, hi: int) -> int:
    value = section.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Invalid(f"{name}.{key} must be a whole number, not {_kind(value)} {excerpt(value)}")
    if not lo <= value <= hi:
        raise _Invalid(f"{name}.{key} must be between {lo} and {hi}, not {value}")
    return value


def _float(section: Mapping[str, Any], name: str, key: str, default: float, lo: float, hi: float) -> float:
    value = section.get(key, default)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _Invalid(f"{name}.{key} must be a number, not {_kind(value)} {excerpt(value)}")
    if not lo <= value <= hi:  # also refuses nan and inf
        raise _Invalid(f"{name}.{key} must be between {lo} and {hi}, not {value}")
    return float(value)


def _str(section: Mapping[str, Any], name: str, key: str, default: str, longest: int = MAX_PATH) -> str:
    value = section.get(key, default)
    if not isinstance(value, str):
        raise _Invalid(f"{name}.{key} must be text in quotes, not {_kind(value)} {excerpt(value)}")
    return _text(value, f"{name}.{key}", longest)


def _text(value: str, where: str, longest: int) -> str:
    """``value`` if it is at most ``longest`` characters of printable text."""
    if len(value) > longest:
        raise _Invalid(f"{where} is {len(value)} characters long; at most {longest}: {excerpt(value)}")
    if not value.isprintable():
        raise _Invalid(f"{where} contains a control character: {excerpt(value)}")
    return value


def _bool(section: Mapping[str, Any], name: str, key: str, default: bool) -> bool:
    value = section.get(key, default)
    if not isinstance(value, bool):
        raise _Invalid(f"{name}.{key} must be true or false, not {excerpt(value)}")
    return value


def _choice(section: Mapping[str, Any], name: str, key: str, default: Any, choices: tuple[Any, ...]) -> Any:
    value = section.get(key, default)
    if value not in choices or isinstance(value, bool):
        listed = ", ".join(repr(c) if isinstance(c, str) else str(c) for c in choices)
        raise _Invalid(f"{name}.{key} must be one of {listed}, not {excerpt(value)}")
    return value


def _pins(data: Mapping[str, Any]) -> dict[str, Any]:
    from hardware.config import PanelConfig
    from hardware.errors import PanelConfigError

    table = data.get("pins", {})
    if not isinstance(table, Mapping):
        raise _Invalid(f"[pins] must be a table (a '[pins]' header), not {_kind(table)}")
    try:
        PanelConfig.from_mapping(table)
    except PanelConfigError as error:
        # The panel's own message already names the key ("pins: hold2 uses GPIO5, ...").
        raise _Invalid(str(error)) from None
    return dict(table)


def _camera_source(spec: str) -> str:
    if spec in ("picamera", "sim") or spec.startswith(("usb:", "file:")) and len(spec) > 5:
        try:
            spec.encode("utf-8")  # OpenCV crashes the process on a path that is not UTF-8
        except UnicodeEncodeError:
            raise _Invalid(f"camera.source {ascii(spec)[:40]} is not valid UTF-8; rename the file") from None
        return spec
    raise _Invalid(f"camera.source must be picamera, sim, usb:/dev/... or file:PATH, not {excerpt(spec)}")


def check_camera_source(spec: str) -> str:
    """``spec`` if it names a camera (``--camera``); else :class:`UserError` saying what does."""
    try:
        return _camera_source(_text(spec, "camera.source", MAX_PATH))
    except _Invalid as error:
        raise UserError(f"--camera: {str(error).removeprefix('camera.source ')}") from None


def parse_config(data: Mapping[str, Any], source: Path | None = None) -> Config:
    """Validate parsed TOML; raises :class:`ConfigFileError` naming the first bad key."""
    where = str(source) if source else "config"
    try:
        return _parse(data, source)
    except _Invalid as error:
        raise ConfigFileError(f"{where}: {error}") from None


def known_variants() -> dict[str, str]:
    """Every variant id of every game, with the game it belongs to."""
    from companion.engine import all_games

    return {variant: game_id for game_id, cls in all_games().items() for variant in cls.variants}


def variants_of(game_id: str, wanted: tuple[str, ...]) -> tuple[str, ...]:
    """The variants in ``wanted`` that ``game_id`` has, in its own order."""
    from companion.engine import get_game

    return tuple(v for v in get_game(game_id).variants if v in wanted)


def _variants(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Invalid('game.variants must be a list of variant ids, e.g. ["tiles", "bad-luck"]')
    known = known_variants()
    for variant in value:
        if variant not in known:
            raise _Invalid(f"game.variants: {excerpt(variant)} is not a variant of any game "
                           f"(variants: {', '.join(sorted(known))})")
    return tuple(value)


def _parse(data: Mapping[str, Any], source: Path | None) -> Config:
    sections = ("game", "screen", "camera", "audio", "pins", "journal", "scoreboard")
    for key in data:
        if key not in sections:
            raise _Invalid(f"[{key}] is not a section (known: {', '.join(sections)})")
    g = _section(data, "game", ("default", "players", "mode", "seats", "variants"))
    seats = g.get("seats", [])
    if not isinstance(seats, list) or not all(isinstance(s, str) and s.strip() for s in seats):
        raise _Invalid('game.seats must be a list of names, e.g. ["Ann", "Bob"]')
    if len(seats) > max(GAMES_MAX_PLAYERS, 1):
        raise _Invalid(f"game.seats names {len(seats)} seats; a game has at most {GAMES_MAX_PLAYERS}")
    for index, seat in enumerate(seats):
        # A 100 KB name froze the screen's text fitting; a name is a few words on a score row.
        _text(seat.strip(), f"game.seats (seat {index + 1})", MAX_SEAT_NAME)  # [1] read as the 2nd
    game = GameSettings(
        default=_choice(g, "game", "default", "bandit", GAMES),
        players=_int(g, "game", "players", 2, 1, GAMES_MAX_PLAYERS),
        mode=_choice(g, "game", "mode", "table", MODES),
        seats=tuple(s.strip() for s in seats),
        variants=_variants(g.get("variants", [])),
    )
    s = _section(data, "screen", ("width", "height", "rotation", "fullscreen"))
    screen = ScreenSettings(
        width=_int(s, "screen", "width", 800, 160, 7680),
        height=_int(s, "screen", "height", 480, 120, 4320),
        rotation=_choice(s, "screen", "rotation", 0, ROTATIONS),
        fullscreen=_bool(s, "screen", "fullscreen", True),
    )
    c = _section(data, "camera", ("source", "stable_frames", "min_confidence"))
    camera = CameraSettings(
        source=_camera_source(_str(c, "camera", "source", "picamera")),
        stable_frames=_int(c, "camera", "stable_frames", 2, 1, 60),
        min_confidence=_float(c, "camera", "min_confidence", 0.8, 0.0, 1.0),
    )
    a = _section(data, "audio", ("device", "volume"))
    audio = AudioSettings(
        device=_str(a, "audio", "device", "", longest=256) or None,
        volume=_float(a, "audio", "volume", 0.8, 0.0, 1.0),
    )
    pins = _pins(data)
    j = _section(data, "journal", ("path",))
    journal = _str(j, "journal", "path", "")
    b = _section(data, "scoreboard", ("enabled", "host", "port"))
    scoreboard = ScoreboardSettings(
        enabled=_bool(b, "scoreboard", "enabled", False),
        host=_str(b, "scoreboard", "host", "0.0.0.0").strip() or "0.0.0.0",
        port=_int(b, "scoreboard", "port", 8080, 1, 65535),
    )
    return Config(game, screen, camera, audio, pins, Path(journal) if journal else None, scoreboard, source)


def load_config(path: str | Path | None = None, system_path: Path = SYSTEM_CONFIG) -> Config:
    """Load ``path`` (must exist), else ``system_path`` if it exists, else the defaults.

    Raises :class:`ConfigFileError` (one line, exit 2 in the CLI) for a missing explicit file,
    an unreadable file, broken TOML, or an invalid value.
    """
    if path is None:
        if not system_path.exists():
            return Config()
        file = system_path
    else:
        file = Path(path)
        try:
            found = file.exists()
        except OSError as error:  # a name too long for the file system
            raise ConfigFileError(
                f"{excerpt(str(file))}: {error.strerror}; check the --config path"
            ) from None
        if not found:
            raise ConfigFileError(f"{file}: no such configuration file; check the --config path")
    text = _read(file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigFileError(f"{file}: not valid TOML ({error}); fix that line") from None
    except RecursionError:  # tomllib parses nested arrays recursively
        raise ConfigFileError(f"{file}: not valid TOML (arrays nested too deeply)") from None
    return parse_config(data, file)


_NOT_REGULAR = "{file}: cannot read the configuration (not a regular file); --config takes a .toml file"


def _read(file: Path) -> str:
    """The file's text; only a regular file of sane size is opened (opening a FIFO blocks)."""
    try:
        info = file.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ConfigFileError(_NOT_REGULAR.format(file=file))
        if info.st_size > MAX_FILE_BYTES:
            raise ConfigFileError(f"{file}: {info.st_size} bytes is too big for a configuration file "
                                  f"(at most {MAX_FILE_BYTES}); check the --config path")
        # O_NONBLOCK: if the path is swapped for a FIFO after the check, open still returns.
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ConfigFileError(_NOT_REGULAR.format(file=file))
            data = handle.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise ConfigFileError(f"{file}: too big for a configuration file (at most {MAX_FILE_BYTES})")
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigFileError(f"{file}: cannot read the configuration (not UTF-8 text: {error.reason} "
                              f"at byte {error.start})") from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigFileError(f"{file}: cannot read the configuration ({reason})") from None
