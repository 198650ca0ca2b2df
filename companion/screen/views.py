"""View models: everything the screen draws, as frozen dataclasses the daemon builds.

The screen never reads or changes engine state: the daemon turns its state into one of these
views and hands it to :meth:`companion.screen.display.Display.draw` every frame. Nothing here
imports the engine; symbols are the docs/rulings.md ids that :mod:`companion.art` draws.

Animations are driven by ids that change: a new ``ReelSet.spin_id`` starts the reels, a new
``TileFlipView.flip_id`` flips the tile, a new ``LotteryDrawView.draw_id`` draws a token.
Everything else is drawn as given.

>>> table = TableView(
...     game_id="bandit",
...     title="Bandit",
...     players=(PlayerLine("Ann", 120, active=True), PlayerLine("Bob", 80)),
...     prompt="Pull the lever to spin",
...     reels=ReelSet.grid((("cherry", "plum", "bell"),) * 3, spin_id=4),
...     panel=BanditPanel(claimable_rows=(0,), deck_left=31),
... )
>>> table.active_player().name
'Ann'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# --- shared pieces ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerLine:
    """One player as the table sees them.

    ``score`` is whatever the game counts (points, coins, chips in the bag); ``active`` marks
    whose turn it is (drawn highlighted); ``note`` is a short public tag such as
    ``"double token"``, ``"dealer"`` or ``"hand 4"``.
    """

    name: str
    score: int
    active: bool = False
    note: str = ""


@dataclass(frozen=True)
class ControlHint:
    """A button that means something right now: its control id (``lever``, ``hold1`` ...,
    ``collect``, ``start``, ``back``) and what it does (``"Spin"``, ``"Hold 1"``)."""

    control: str
    label: str


@dataclass(frozen=True)
class ReelSet:
    """The reels: what each one lands on, and when a new spin starts.

    ``reels[i]`` lists the symbols reel ``i`` shows top to bottom once it stops: one symbol per
    visible row (one row for most games, three for Bandit's grid). ``None`` means "not known
    yet": that reel keeps spinning until a later view names its symbol (a lever pull starts the
    spin, the camera's reading lands it). A split card is written ``"grapes|diamond"``.

    ``spin_id`` changes once per pull; the screen starts the spin when it sees a new id (0 means
    "no spin yet": the symbols are shown at rest). ``held[i]`` keeps reel ``i`` still and marks
    it HELD (the player chose to keep it); ``still[i]`` only keeps it still (nothing about it
    changes this pull, as Mega Jackpot's untouched discards, a die that already landed).
    ``win_rows`` are the rows whose line lights once the reels stop; ``payout`` sizes
    the coin shower (0: a quiet miss). ``live``: the symbols are cards the camera reads one by
    one (table mode): each reel lands the moment it has one, with no slot-machine rhythm.
    """

    reels: tuple[tuple[str | None, ...], ...]
    spin_id: int = 0
    held: tuple[bool, ...] = ()
    win_rows: tuple[int, ...] = ()
    payout: int = 0
    caption: str = ""
    still: tuple[bool, ...] = ()
    live: bool = False

    @classmethod
    def row(
        cls,
        symbols: Sequence[str | None],
        spin_id: int = 0,
        held: Sequence[bool] = (),
        win: bool = False,
        payout: int = 0,
        caption: str = "",
        still: Sequence[bool] = (),
        live: bool = False,
    ) -> ReelSet:
        """Reels with one visible row (Pay Line's dice, Mega Jackpot's discards, Jackpot Payout)."""
        reels = tuple((s,) for s in symbols)
        return cls(reels, spin_id, tuple(held), (0,) if win else (), payout, caption, tuple(still), live)

    @classmethod
    def grid(
        cls,
        columns: Sequence[Sequence[str | None]],
        spin_id: int = 0,
        held: Sequence[bool] = (),
        win_rows: Sequence[int] = (),
        payout: int = 0,
        caption: str = "",
        live: bool = False,
    ) -> ReelSet:
        """Reels with several visible rows, given column by column (Bandit's 3x3 grid)."""
        return cls(tuple(tuple(c) for c in columns), spin_id, tuple(held), tuple(win_rows), payout, caption,
                   live=live)

    @property
    def rows(self) -> int:
        """How many symbols each reel shows."""
        return max((len(r) for r in self.reels), default=0)

    def is_held(self, reel: int) -> bool:
        """Whether reel ``reel`` is held (it does not spin, and says so)."""
        return reel < len(self.held) and self.held[reel]

    def is_still(self, reel: int) -> bool:
        """Whether reel ``reel`` stays still this pull (held, or simply not changing)."""
        return self.is_held(reel) or (reel < len(self.still) and self.still[reel])


# --- per-game panels -------------------------------------------------------------------------


@dataclass(frozen=True)
class BanditPanel:
    """Bandit: the rows that may be claimed now (0 top .. 2 bottom), the cards left in the deck,
    which of the match's two games this is."""

    claimable_rows: tuple[int, ...] = ()
    deck_left: int = 0
    game_number: int = 1


@dataclass(frozen=True)
class BoxView:
    """One of Pay Line's secret boxes.

    ``symbol`` is the box's colour (black/yellow/red) and ``level`` the public refill level (3,
    7, 16). ``chips`` is the real content: the screen NEVER draws it unless ``revealed`` is True
    (the game is over); the daemon may carry it here for the shake rattle. ``shaking`` wobbles
    the box while its rattle plays; ``taken`` marks the box a jackpot just emptied.
    """

    symbol: str
    level: int
    chips: int | None = None
    revealed: bool = False
    shaking: bool = False
    taken: bool = False


@dataclass(frozen=True)
class PayLinePanel:
    """Pay Line: the three boxes (contents secret), the re-roll price per die, the bank."""

    boxes: tuple[BoxView, ...]
    reroll_cost: int = 1
    double_armed: bool = False


@dataclass(frozen=True)
class TrayView:
    """A Mega Jackpot money tray: the cards paid into it (symbols), their value, whether it is
    the tray chosen for the current Mega Jackpot attempt."""

    cards: tuple[str, ...] = ()
    value: int = 0
    chosen: bool = False


@dataclass(frozen=True)
class MegaJackpotPanel:
    """Mega Jackpot: each reel pile's top reel side (pair of symbols, or None when the pile is
    empty) and cards left; the discards' depths; the two trays; the four tiles (None face down,
    ``"monkey"`` / ``"genie"`` face up); the odds advisor's lines; the last payment's value."""

    reel_sides: tuple[tuple[str, str] | None, ...] = ()
    pile_counts: tuple[int, ...] = ()
    discard_counts: tuple[int, ...] = ()
    trays: tuple[TrayView, ...] = ()
    tiles: tuple[str | None, ...] = ()
    odds: tuple[str, ...] = ()
    last_payment: int | None = None


@dataclass(frozen=True)
class BlockView:
    """A Thanks a Lottery block on the table: whose it is, its cards (``"1"``..``"7"``, a wild
    as ``"wild"``), and the dice it earned (values 1-6)."""

    owner: str
    cards: tuple[str, ...]
    dice: tuple[int, ...] = ()


@dataclass(frozen=True)
class LotteryPanel:
    """Thanks a Lottery: the round, the dice left in the pool (values), the prize spaces of this
    round, the blocks on the table, the cards left in the deck."""

    round_number: int = 1
    pool: tuple[int, ...] = ()
    prize_spaces: tuple[int, ...] = ()
    blocks: tuple[BlockView, ...] = ()
    deck_left: int = 0


@dataclass(frozen=True)
class CardView:
    """A Jackpot Payout card in the display: symbols (two for a split card), coins, ability."""

    symbols: tuple[str, ...]
    coins: int = 0
    ability: str | None = None


@dataclass(frozen=True)
class PayoutPanel:
    """Jackpot Payout: coins in the bank, in the rest of the box, substitute tokens in use, the
    market display of cards to take, the pairs in play, and the end trigger (if any)."""

    bank: int = 0
    box: int = 0
    substitutes: int = 0
    display: tuple[CardView, ...] = ()
    pairs: tuple[str, ...] = ()
    end_trigger: str | None = None


Panel = BanditPanel | PayLinePanel | MegaJackpotPanel | LotteryPanel | PayoutPanel


# --- screens ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreboardLink:
    """Where phones find the scoreboard: the addresses to type (``http://<hostname>.local:8080/``
    first, then the IP) and the QR code of the first, as rows of dark (True) modules."""

    urls: tuple[str, ...]
    matrix: tuple[tuple[bool, ...], ...]

    @classmethod
    def of(cls, urls: Sequence[str]) -> ScoreboardLink:
        """The link to ``urls`` with the QR code of the first (made by segno, no quiet zone).

        >>> link = ScoreboardLink.of(["http://jackpot.local:8080/"])
        >>> len(link.matrix) == len(link.matrix[0]) > 20
        True
        """
        import segno

        code = segno.make(urls[0], error="m", micro=False)
        return cls(tuple(urls), tuple(tuple(bool(module) for module in row) for row in code.matrix))


@dataclass(frozen=True)
class AttractView:
    """The idle screen: reels tick over with the games' symbols, the lamps chase; the
    scoreboard's QR code and address in a corner when the scoreboard is on."""

    title: str = "Jackpot Companion"
    subtitle: str = "Hold START for the menu"
    games: tuple[str, ...] = ("bandit", "mega-jackpot", "jackpot-payout")
    link: ScoreboardLink | None = None


@dataclass(frozen=True)
class GameOption:
    """One game in the game-select list: id, title and a short line (e.g. "2-4 players")."""

    game_id: str
    title: str
    blurb: str = ""


@dataclass(frozen=True)
class GameSelectView:
    """Pick a game: the options and the highlighted one."""

    options: tuple[GameOption, ...]
    selected: int = 0
    hint: str = "Hold buttons move, lever picks"


@dataclass(frozen=True)
class PlayersView:
    """Pick how many play: the game, the count chosen, its range and the players' names."""

    game_id: str
    title: str
    count: int
    minimum: int = 1
    maximum: int = 4
    names: tuple[str, ...] = ()
    hint: str = "Hold 1 / Hold 3 change, lever starts"


@dataclass(frozen=True)
class TableView:
    """The table: whose turn, what to do now, the bank and every score, the reels, the panel.

    ``bank`` is a short text ("Bank 18") or None when the game has none to show; ``prompt`` is
    the one line that says what to do next; ``alert`` is a warning (camera unsure, a bad read)
    drawn prominently; ``controls`` are the buttons that mean something now; ``panel`` is the
    game's own board (see the ``*Panel`` classes); ``status`` is a small corner note
    ("resumed", "camera lost: manual entry").
    """

    game_id: str
    title: str
    players: tuple[PlayerLine, ...]
    prompt: str
    bank: str | None = None
    alert: str | None = None
    reels: ReelSet | None = None
    controls: tuple[ControlHint, ...] = ()
    panel: Panel | None = None
    status: str = ""

    def active_player(self) -> PlayerLine | None:
        """The player whose turn it is (None between turns)."""
        return next((p for p in self.players if p.active), None)


@dataclass(frozen=True)
class TileFlipView:
    """A Mega Jackpot attempt: the tile turned over (``"genie"`` or ``"monkey"``, or None while
    it is still face down), the chosen tray, monkeys face up after this flip, and a message.
    A new ``flip_id`` plays the flip."""

    player: str
    tile: str | None
    flip_id: int
    tray_value: int = 0
    monkeys_up: int = 0
    message: str = ""


@dataclass(frozen=True)
class LotteryDrawView:
    """Thanks a Lottery's draw: the tokens drawn so far (``"1"``..``"6"``, ``"all"``,
    ``"none"``) placed on the prize spaces, lowest first; a new ``draw_id`` animates the last
    one coming out of the tin."""

    round_number: int
    spaces: tuple[int, ...]
    tokens: tuple[str, ...]
    draw_id: int = 0
    message: str = ""


@dataclass(frozen=True)
class FinalLine:
    """A final score: name, score, whether they won (ties: several winners)."""

    name: str
    score: int
    winner: bool = False


@dataclass(frozen=True)
class FinalScoresView:
    """The end: final scores, each player's score after every turn (``history[i]`` belongs to
    ``players[i]``), and a note (e.g. the tie-break used)."""

    game_id: str
    title: str
    players: tuple[FinalLine, ...]
    history: tuple[tuple[int, ...], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class MenuItem:
    """A menu line: its label and current value text (``"Volume"``, ``"70 %"``)."""

    label: str
    value: str = ""


@dataclass(frozen=True)
class MenuView:
    """The menu (volume, rotation, restart game, ...) and the highlighted line."""

    items: tuple[MenuItem, ...] = field(
        default_factory=lambda: (
            MenuItem("Volume", "70 %"),
            MenuItem("Rotation", "0"),
            MenuItem("Restart game"),
            MenuItem("Back"),
        )
    )
    selected: int = 0
    title: str = "Menu"
    hint: str = "Hold 1 / Hold 3 move, lever changes, BACK leaves"
    #: the scoreboard's address and QR code, shown beside the lines when the scoreboard is on
    link: ScoreboardLink | None = None


@dataclass(frozen=True)
class MessageView:
    """A plain message screen (camera set-up, "resumed", an error), with an optional symbol."""

    title: str
    lines: tuple[str, ...] = ()
    tone: str = "info"  # "info" | "good" | "warn"


@dataclass(frozen=True, eq=False)
class CameraView:
    """Camera set-up: where the mat goes, which of its four corners the camera has found
    (top-left, top-right, bottom-right, bottom-left), a message, and a small preview of what the
    camera sees (a BGR uint8 array, H x W x 3, as the camera gives it; None when there is none).

    Compared by identity (``eq=False``): a camera frame is an array, not a value.
    """

    title: str = "Show the camera the mat"
    corners: tuple[bool, bool, bool, bool] = (False, False, False, False)
    message: str = "Put the mat in the middle of the table"
    preview: Any = None


@dataclass(frozen=True, eq=False)
class TeachView:
    """Teaching the camera a deck: the face asked for (its name, symbols and, where it matters,
    its reel-side ``back``), how far along (``number`` of ``total``, ``taught`` pictures of this
    face, ``faces_taught``), what the camera sees (``preview``, a BGR array, with the one card's
    outline ``quad`` in its pixels) and, once caught (``phase`` ``"caught"``), the card it cut
    out (``cutout``, BGR portrait). ``phase`` ``"done"`` is the summary after the last face.

    Compared by identity (``eq=False``): camera pictures are arrays, not values.
    """

    game_id: str
    title: str
    face_name: str
    symbols: tuple[str, ...] = ()
    back: tuple[str, ...] = ()
    number: int = 1
    total: int = 1
    taught: int = 0
    faces_taught: int = 0
    phase: str = "looking"
    prompt: str = ""
    message: str = ""
    alert: str = ""
    preview: Any = None
    quad: Any = None
    cutout: Any = None
    controls: tuple[ControlHint, ...] = ()


View = (
    AttractView
    | GameSelectView
    | PlayersView
    | TableView
    | TileFlipView
    | LotteryDrawView
    | FinalScoresView
    | MenuView
    | MessageView
    | CameraView
    | TeachView
)
