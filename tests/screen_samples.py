"""Hand-made views of every screen and every game's table, for the screen's own unit tests.

They let a test draw a view with values no short game reaches (41 chips in a box, a revealed
box). The docs' pictures are not made from these: ``companion.snapshots`` draws those from
real games.
"""

from __future__ import annotations

from dataclasses import replace

from companion.screen import views as v

PLAYERS_3 = (
    v.PlayerLine("Ann", 135, active=True),
    v.PlayerLine("Ben", 90),
    v.PlayerLine("Cleo", 45),
)


def bandit_table(spin_id: int = 7) -> v.TableView:
    """Bandit after a spin with column 1 held: the middle row is a line of bells."""
    return v.TableView(
        game_id="bandit",
        title="Bandit",
        players=(v.PlayerLine("Ann", 165, active=True, note="game 1"), v.PlayerLine("Ben", 60)),
        prompt="Claim the middle row, or spin again",
        bank=None,
        reels=v.ReelSet.grid(
            [("cherry", "bell", "plum"), ("seven", "bell", "cherry"), ("plum", "any", "bar")],
            spin_id=spin_id,
            held=(False, True, False),
            win_rows=(1,),
            payout=50,
        ),
        controls=(
            v.ControlHint("lever", "Spin"),
            v.ControlHint("hold2", "Hold"),
            v.ControlHint("collect", "Claim"),
        ),
        panel=v.BanditPanel(claimable_rows=(1,), deck_left=28, game_number=1),
    )


def pay_line_table(
    spin_id: int = 3, chips: tuple[int, int, int] = (4, 9, 16), revealed: bool = False
) -> v.TableView:
    """Pay Line: the dice rolled two reds and a yellow; the boxes stay secret."""
    boxes = tuple(
        v.BoxView(symbol, level, chips=count, revealed=revealed)
        for symbol, level, count in zip(("black", "yellow", "red"), (3, 7, 16), chips, strict=True)
    )
    return v.TableView(
        game_id="pay-line",
        title="Pay Line",
        players=(
            v.PlayerLine("Ann", 7, note="double token"),
            v.PlayerLine("Ben", 4, active=True, note="double token"),
            v.PlayerLine("Cleo", 9),
        ),
        prompt="Re-roll the yellow die (1 chip) or walk away",
        bank="Bank 52",
        reels=v.ReelSet.row(["red", "red", "yellow"], spin_id=spin_id),
        controls=(
            v.ControlHint("hold3", "Pick"),
            v.ControlHint("lever", "Roll"),
            v.ControlHint("back", "Walk"),
        ),
        panel=v.PayLinePanel(boxes=boxes),
    )


def mega_jackpot_table(spin_id: int = 12) -> v.TableView:
    """Mega Jackpot: three diamonds on the discards: a jackpot."""
    return v.TableView(
        game_id="mega-jackpot",
        title="Mega Jackpot",
        players=(
            v.PlayerLine("Ann", 14),
            v.PlayerLine("Ben", 19, active=True),
            v.PlayerLine("Cleo", 11),
            v.PlayerLine("Dev", 16),
        ),
        prompt="Jackpot! Take the three diamonds, or try the tiles",
        bank="Piles 61",
        reels=v.ReelSet.row(["diamond", "diamond", "diamond"], spin_id=spin_id, win=True, payout=9),
        controls=(v.ControlHint("collect", "Take"), v.ControlHint("start", "Tiles")),
        panel=v.MegaJackpotPanel(
            reel_sides=(("apple", "cherry"), ("diamond", "genie"), ("cherry", "carpet")),
            pile_counts=(21, 19, 21),
            discard_counts=(4, 6, 3),
            trays=(v.TrayView(("apple", "cherry", "diamond"), 6, chosen=True), v.TrayView(("apple",), 1)),
            tiles=("monkey", None, None, None),
            odds=("Flip 1: jackpot 1 in 9", "Flip 2: jackpot 1 in 5"),
            last_payment=2,
        ),
    )


def lottery_table() -> v.TableView:
    """Thanks a Lottery, round 2: blocks on the table, dice in the pool."""
    return v.TableView(
        game_id="thanks-a-lottery",
        title="Thanks a Lottery",
        players=(
            v.PlayerLine("Ann", 12, note="hand 4"),
            v.PlayerLine("Ben", 9, active=True, note="hand 6, dealer"),
        ),
        prompt="Draw a card, then play a block or add to one",
        panel=v.LotteryPanel(
            round_number=2,
            pool=(3, 6, 1, 4, 4, 2, 5, 6, 1),
            prize_spaces=(2, 3, 4),
            blocks=(
                v.BlockView("Ann", ("3", "4", "5"), (4, 2, 6)),
                v.BlockView("Ben", ("6", "7", "1", "wild"), (1, 5, 3, 2)),
                v.BlockView("Ann", ("2", "2", "2"), (6, 1, 3)),
            ),
            deck_left=23,
        ),
        controls=(v.ControlHint("lever", "Draw"),),
    )


def payout_table(spin_id: int = 5) -> v.TableView:
    """Jackpot Payout: two grapes and a wild in play."""
    return v.TableView(
        game_id="jackpot-payout",
        title="Jackpot Payout",
        players=(v.PlayerLine("Ann", 6, active=True), v.PlayerLine("Ben", 8), v.PlayerLine("The House", 7)),
        prompt="Two pairs: take up to two cards, special allowed",
        bank="Bank 14",
        reels=v.ReelSet.row(["grapes", "grapes|crown", "wild"], spin_id=spin_id, win=True, payout=4),
        controls=(v.ControlHint("hold1", "Pick"), v.ControlHint("collect", "Done")),
        panel=v.PayoutPanel(
            bank=14,
            box=36,
            substitutes=0,
            display=(
                v.CardView(("crown",), 3),
                v.CardView(("shamrock", "diamond"), 1),
                v.CardView(("cherries",), 1, "Thief"),
                v.CardView(("grapes",), 2),
                v.CardView(("wild",), 0),
            ),
            pairs=("grapes", "crown"),
        ),
        status="resumed",
    )


def tables() -> dict[str, v.TableView]:
    """One table view per game, keyed by a file-friendly name."""
    return {
        "table-bandit": bandit_table(),
        "table-pay-line": pay_line_table(),
        "table-mega-jackpot": mega_jackpot_table(),
        "table-thanks-a-lottery": lottery_table(),
        "table-jackpot-payout": payout_table(),
    }


def screens() -> dict[str, v.View]:
    """Every other screen."""
    return {
        "attract": v.AttractView(link=_link()),
        "game-select": v.GameSelectView(
            options=(
                v.GameOption("bandit", "Bandit", "2 players"),
                v.GameOption("pay-line", "Pay Line", "2-4 players"),
                v.GameOption("mega-jackpot", "Mega Jackpot", "2-4 players"),
                v.GameOption("thanks-a-lottery", "Thanks a Lottery", "2-6 players"),
                v.GameOption("jackpot-payout", "Jackpot Payout", "1-4 players"),
            ),
            selected=2,
        ),
        "players": v.PlayersView("mega-jackpot", "Mega Jackpot", 3, 2, 4, ("Ann", "Ben", "Cleo", "Dev")),
        "tile-flip": v.TileFlipView(
            "Ben",
            "monkey",
            flip_id=1,
            tray_value=6,
            monkeys_up=2,
            message="Monkey! One more empties the tray",
        ),
        "lottery-draw": v.LotteryDrawView(
            2, (2, 3, 4), ("3", "all", "5"), draw_id=3, message="Space 4 pays 5s"
        ),
        "final-scores": v.FinalScoresView(
            "mega-jackpot",
            "Mega Jackpot",
            (v.FinalLine("Ann", 31), v.FinalLine("Ben", 38, winner=True), v.FinalLine("Cleo", 24)),
            history=((7, 9, 9, 14, 18, 23, 31), (7, 7, 12, 19, 25, 30, 38), (7, 10, 13, 13, 17, 20, 24)),
            note="Ben wins by 7",
        ),
        "menu": v.MenuView(
            items=(
                v.MenuItem("Resume"),
                v.MenuItem("Volume", "70 %"),
                v.MenuItem("Rotation", "0"),
                v.MenuItem("New night"),
                v.MenuItem("End this game"),
            ),
            selected=1,
            link=_link(),
        ),
        "message": v.MessageView("Resumed", ("Ben's turn, bank 52", "Nothing was lost"), tone="good"),
        "camera": v.CameraView(
            corners=(True, True, False, True),
            message="Move the mat so all four corners show",
            preview=_table_picture(),
        ),
    }


def _table_picture() -> object:
    """A stand-in camera frame (BGR): a wooden table, a green mat seen in perspective, three cards."""
    import cv2
    import numpy as np

    from companion import art

    frame = np.full((360, 640, 3), (60, 100, 150), np.uint8)  # BGR: a warm wooden table
    mat = np.array([[110, 40], [560, 55], [600, 330], [60, 320]], np.int32)
    cv2.fillPoly(frame, [mat], (70, 120, 40), cv2.LINE_AA)
    for i, symbol in enumerate(("diamond", "diamond", "carpet")):
        x, y = 190 + i * 110, 140
        cv2.rectangle(frame, (x, y), (x + 80, y + 110), (245, 245, 245), -1, cv2.LINE_AA)
        rgba = art.render_symbol("mega-jackpot", symbol, 64).astype(np.float32) / 255.0
        region = frame[y + 23 : y + 87, x + 8 : x + 72].astype(np.float32)
        blended = rgba[..., 2::-1] * 255.0 * rgba[..., 3:] + region * (1 - rgba[..., 3:])
        frame[y + 23 : y + 87, x + 8 : x + 72] = blended.astype(np.uint8)
    return frame


def at_rest(view: v.TableView) -> v.TableView:
    """The same table before the spin: spin id 0, no win showing."""
    if view.reels is None:
        return view
    return replace(view, reels=replace(view.reels, spin_id=0, win_rows=(), payout=0))


def _link() -> v.ScoreboardLink:
    """The scoreboard's address as a Pi named "jackpot" on a home LAN shows it."""
    return v.ScoreboardLink.of(("http://jackpot.local:8080/", "http://192.168.1.20:8080/"))
