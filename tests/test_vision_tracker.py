"""The zone tracker: a card counts once it is the same in most of the last few frames."""

from __future__ import annotations

from vision.reader import Reading, Sighting
from vision.tracker import ZoneTracker

BOX = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def seen(*cards: tuple[str | None, str], game: str = "bandit", mat: bool = True) -> Reading:
    return Reading([Sighting(card, game if card else None, (), zone, BOX, 1.0) for card, zone in cards], mat)


def test_a_card_is_reported_once_it_is_the_same_in_most_of_the_last_frames() -> None:
    tracker = ZoneTracker(["a"], window=5)
    statuses = [tracker.update(seen(("cherry", "a")), "bandit")["a"].status for _ in range(4)]
    assert statuses == ["unsure", "unsure", "changed", "stable"]
    assert tracker.update(seen(("cherry", "a")), "bandit")["a"].card_id == "cherry"


def test_one_bad_frame_does_not_change_a_stable_card() -> None:
    tracker = ZoneTracker(["a"], window=5)
    for _ in range(5):
        tracker.update(seen(("bell", "a")), "bandit")
    observation = tracker.update(seen(("seven", "a")), "bandit")["a"]
    assert (observation.status, observation.card_id) == ("stable", "bell")


def test_a_replaced_card_is_reported_as_changed_then_stable() -> None:
    tracker = ZoneTracker(["a"], window=3)
    for _ in range(3):
        tracker.update(seen(("bell", "a")), "bandit")
    results = [tracker.update(seen(("bar", "a")), "bandit")["a"] for _ in range(3)]
    assert [(o.status, o.card_id) for o in results] == [
        ("stable", "bell"),
        ("changed", "bar"),
        ("stable", "bar"),
    ]


def test_a_cleared_zone_becomes_empty_and_flicker_is_unsure() -> None:
    tracker = ZoneTracker(["a"], window=3)
    for _ in range(3):
        tracker.update(seen(("bell", "a")), "bandit")
    tracker.update(seen(), "bandit")
    assert tracker.update(seen(), "bandit")["a"].status == "empty"
    flicker = ZoneTracker(["a"], window=4)
    for card in ["bell", "bar", None, "plum"]:
        result = flicker.update(seen((card, "a")) if card else seen(), "bandit")["a"]
    assert result.status == "unsure"


def test_an_unreadable_card_or_another_games_card_keeps_the_zone_unsure() -> None:
    tracker = ZoneTracker(["a", "b"], window=1)
    result = tracker.update(seen((None, "a"), ("7", "b"), game="thanks-a-lottery"), "bandit")
    assert result["a"].status == "unsure" and result["b"].status == "unsure"


def test_without_the_mat_no_zone_can_be_decided() -> None:
    tracker = ZoneTracker(["a"], window=1)
    assert tracker.update(seen(("bell", "a"), mat=False), "bandit")["a"].status == "unsure"
