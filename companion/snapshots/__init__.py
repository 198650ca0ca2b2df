"""Every picture in the README and docs/, drawn from real games by one command.

    make screens                      # = .venv/bin/python -m companion.snapshots

Each picture is a scene played through the real flows (or the lobby, or the daemon's menu) and
drawn by the screen's own :class:`~companion.screen.display.Display` with SDL's dummy driver, so
no screen is needed. ``tests/test_snapshots.py`` renders them again and fails when a committed
picture no longer matches what its scene draws (compared by content, not bytes), and when the
docs show a picture that is not made here. The scoreboard's pictures are a web page, not a
screen: ``tests/scoreboard_browser.py`` takes those.
"""

from __future__ import annotations

from companion.snapshots import bandit, jackpot_payout, mega_jackpot, pay_line, screens, thanks_a_lottery
from companion.snapshots.common import Picture, render

__all__ = ["PICTURES", "Picture", "render"]

_PLAYING = "docs/playing.md"
_SCREENS = "docs/screens/README.md"

PICTURES: tuple[Picture, ...] = (
    # docs/playing.md: a game night, game by game (800x480, the 7" panel)
    Picture("docs/playing/bandit-deal.png", bandit.deal, shown_in=(_PLAYING,)),
    Picture("docs/playing/bandit-claim.png", bandit.claim, shown_in=(_PLAYING,)),
    Picture("docs/playing/bandit-manual.png", bandit.manual, shown_in=(_PLAYING,)),
    Picture("docs/playing/bandit-cabinet.png", bandit.cabinet, shown_in=(_PLAYING,)),
    Picture("docs/playing/pay-line-pick.png", pay_line.pick, shown_in=(_PLAYING,)),
    Picture("docs/playing/pay-line-jackpot.png", pay_line.jackpot, shown_in=(_PLAYING,)),
    Picture("docs/playing/pay-line-double.png", pay_line.double, shown_in=(_PLAYING,)),
    Picture("docs/playing/pay-line-final.png", pay_line.final, shown_in=(_PLAYING, _SCREENS)),
    Picture("docs/playing/mega-jackpot-flip.png", mega_jackpot.flip, shown_in=(_PLAYING,)),
    Picture("docs/playing/mega-jackpot-jackpot.png", mega_jackpot.jackpot, shown_in=(_PLAYING,)),
    Picture("docs/playing/mega-jackpot-tile.png", mega_jackpot.tile, shown_in=(_PLAYING,)),
    Picture("docs/playing/mega-jackpot-refused.png", mega_jackpot.refused, shown_in=(_PLAYING,)),
    Picture("docs/playing/mega-jackpot-cabinet.png", mega_jackpot.cabinet, shown_in=(_PLAYING,)),
    Picture("docs/playing/thanks-a-lottery-confirm.png", thanks_a_lottery.confirm, shown_in=(_PLAYING,)),
    Picture("docs/playing/thanks-a-lottery-refused.png", thanks_a_lottery.refused, shown_in=(_PLAYING,)),
    Picture("docs/playing/thanks-a-lottery-lottery.png", thanks_a_lottery.lottery, shown_in=(_PLAYING,)),
    Picture("docs/playing/thanks-a-lottery-cabinet.png", thanks_a_lottery.cabinet, shown_in=(_PLAYING,)),
    Picture("docs/playing/jackpot-payout-ability.png", jackpot_payout.ability, shown_in=(_PLAYING,)),
    Picture("docs/playing/jackpot-payout-jackpot.png", jackpot_payout.jackpot, shown_in=(_PLAYING,)),
    Picture("docs/playing/jackpot-payout-display-check.png", jackpot_payout.display_check,
            shown_in=(_PLAYING,)),
    Picture("docs/playing/jackpot-payout-solo-house.png", jackpot_payout.solo_house, shown_in=(_PLAYING,)),
    # docs/screens and the README: the screens around the games, both panel sizes, rotation
    Picture("docs/screens/attract-800x480.png", screens.attract, shown_in=(_SCREENS,)),
    Picture("docs/screens/game-select-800x480.png", screens.game_select, shown_in=(_SCREENS,)),
    Picture("docs/screens/players-800x480.png", screens.players, shown_in=(_SCREENS,)),
    Picture("docs/screens/menu-800x480.png", screens.menu, shown_in=(_SCREENS,)),
    Picture("docs/screens/startup-error-800x480.png", screens.startup_error, shown_in=(_SCREENS,)),
    Picture("docs/screens/teach-cards-800x480.png", screens.teach_cards, shown_in=("README.md", _SCREENS)),
    Picture("docs/screens/table-bandit-win-800x480.png", bandit.win_coins, shown_in=("README.md", _SCREENS)),
    Picture("docs/screens/table-bandit-spinning-800x480.png", bandit.spinning, shown_in=(_SCREENS,)),
    Picture("docs/screens/table-mega-jackpot-800x480.png", mega_jackpot.cabinet_tiles,
            shown_in=("README.md", _SCREENS)),
    Picture("docs/screens/table-pay-line-480x320.png", pay_line.pick, (480, 320),
            shown_in=("README.md", _SCREENS)),
    Picture("docs/screens/table-pay-line-480x320-rotated-90.png", pay_line.pick, (480, 320), rotation=90,
            shown_in=(_SCREENS,)),
    Picture("docs/screens/tile-flip-480x320.png", mega_jackpot.tile, (480, 320), shown_in=(_SCREENS,)),
    Picture("docs/screens/lottery-draw-480x320.png", thanks_a_lottery.lottery, (480, 320),
            shown_in=(_SCREENS,)),
    Picture("docs/screens/table-thanks-a-lottery-480x320.png", thanks_a_lottery.confirm, (480, 320),
            shown_in=(_SCREENS,)),
    Picture("docs/screens/table-jackpot-payout-480x320.png", jackpot_payout.jackpot, (480, 320),
            shown_in=(_SCREENS,)),
)
