"""What ``companion bench kills`` counts as lost: actions, and a table round's moves shown as
``[74+3]`` (journalled as observations until the round ends), which a restart must bring back."""

from __future__ import annotations

import pytest

from companion.bench.kills import KillFailure, _Shown

RESUMED = "resuming game 1 (Thanks a Lottery, 2 players, table mode) at action {}; to start anew: ..."


def shown(*lines: str) -> _Shown:
    seen = _Shown()
    for line in lines:
        seen.see(line)
    return seen


def test_moves_and_actions_count_for_the_kill_budget_other_lines_do_not() -> None:
    seen = _Shown()
    assert seen.see("[1] card 1 dealt to player 1: 3") and seen.see("[74+1] Ann: pass")
    assert not seen.see("camera: camera ready") and not seen.see(RESUMED.format(74))


def test_a_restart_that_brings_back_every_move_shown_passes() -> None:
    seen = shown("[74+1] Ann: pass", "[74+2] Ben: play the block 3 4 5", RESUMED.format(74),
                 "round 2 resumed with its 2 table moves (kept after action 74)", "[74+3] Ann: pass")
    assert seen.owed is None and len(seen.moves) == 3


def test_a_restart_that_brings_back_fewer_moves_than_shown_fails() -> None:
    with pytest.raises(KillFailure, match=r"up to \[74\+2\] were shown; the restart brought back 1"):
        shown("[74+1] Ann: pass", "[74+2] Ben: pass", RESUMED.format(74),
              "round 2 resumed with its 1 table move (kept after action 74)")


def test_a_restart_that_goes_on_without_the_round_fails() -> None:
    with pytest.raises(KillFailure, match="went on without them"):
        shown("[74+1] Ann: pass", RESUMED.format(74), "[74+1] Ann: play the block 1 2 3")
    with pytest.raises(KillFailure, match="ended without them"):
        shown("[74+1] Ann: pass", RESUMED.format(74)).ended()


def test_a_round_already_written_owes_nothing_and_an_earlier_resume_fails() -> None:
    assert shown("[74+1] Ann: pass", "[75] player 1 keeps every die", RESUMED.format(75)).owed is None
    with pytest.raises(KillFailure, match="resumed at 74 after action 75 was shown"):
        shown("[75] player 1 keeps every die", RESUMED.format(74))


def test_a_move_shown_differently_fails_unless_it_was_taken_back() -> None:
    with pytest.raises(KillFailure, match=r"move \[74\+1\] was shown as"):
        shown("[74+1] Ann: pass", "[74+1] Ann: play the block 1 2 3")
    seen = shown("[74+1] Ann: pass", "[74+1] taken back: Ann's pass", "[74+1] Ann: play the block 1 2 3")
    assert seen.moves == {(74, 1): "Ann: play the block 1 2 3"}
