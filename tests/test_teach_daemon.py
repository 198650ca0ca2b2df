"""Teaching a deck in the real path: the daemon's menu, the camera thread's frames, the screen,
the taught-face store on disk (the simulated camera shows the cards)."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from companion.daemon.app import Daemon, RunOptions
from companion.screen.views import GameSelectView, MenuView, TeachView
from hardware.events import LONG_PRESS, PRESS, RELEASE, InputEvent
from vision.enrolled import EnrolledDeck
from vision.simulated import SimulatedTable, Style

REALCARDS = Path(__file__).resolve().parent.parent.parent / "shared" / "realcards" / "photos"
needs_realcards = pytest.mark.skipif(not REALCARDS.is_dir(), reason="no ../shared/realcards beside the clone")

#: Generous: the camera thread shares two cores with other work; nothing here measures speed.
WAIT_SECONDS = 120.0


def calm_table() -> SimulatedTable:
    """A plain table seen from nearly above, no hands or glare: the card is all there is."""
    style = Style(card_px=150.0, tilt_deg=6.0, tilt_axis=0.4, rotation=0.3, tint=(1.0, 1.0, 1.0),
                  brightness=0.95, gradient=0.1, blur=0.0, noise=2.0, glare=0, shadows=0, hands=0,
                  table="felt")
    return SimulatedTable("bandit", seed=5, mat=False, style=style)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The daemon's taught-face store (the state directory as under systemd)."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    return tmp_path / "state" / "enrolled"


def press(daemon: Daemon, control: str, kind: str = PRESS) -> None:
    daemon.dispatch(InputEvent(control, kind, time.monotonic()))
    if control == "start" and kind == PRESS:
        daemon.dispatch(InputEvent(control, RELEASE, time.monotonic()))


def hold_start(daemon: Daemon) -> None:
    for kind in (PRESS, LONG_PRESS, RELEASE):
        daemon.dispatch(InputEvent("start", kind, time.monotonic()))
    daemon.step()


def step_until(daemon: Daemon, done: Callable[[], bool], what: str) -> None:
    """Run frames until ``done()`` (the camera thread posts on its own time)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not done():
        assert time.monotonic() < deadline, f"never happened: {what}"
        daemon.step()
        time.sleep(0.01)


def camera_frames(daemon: Daemon, count: int) -> None:
    """Run until the camera thread has handled ``count`` more frames."""
    assert daemon.camera is not None
    target = daemon.camera.frames + count
    step_until(daemon, lambda: daemon.camera is not None and daemon.camera.frames >= target,
               f"{count} camera frames")
    daemon.step()


def open_teaching(tmp_path: Path, table: SimulatedTable) -> Daemon:
    daemon = Daemon(RunOptions(headless=True, fast=True, journal_path=tmp_path / "journal.sqlite", seed=3,
                               camera_factory=lambda game_id: table, use_gpio=False))
    daemon.start()
    press(daemon, "start")  # attract -> game select
    daemon.step()
    assert isinstance(daemon.view, GameSelectView) and "hold START: menu" in daemon.view.hint
    while daemon.lobby.choice.key != ("bandit", "table"):
        press(daemon, "hold3")
    hold_start(daemon)
    assert isinstance(daemon.view, MenuView)
    assert daemon.view.items[0].label == "Teach cards" and daemon.view.items[0].value == "Bandit"
    press(daemon, "collect")
    daemon.step()
    assert isinstance(daemon.view, TeachView) and daemon.view.face_name == "Cherry"
    return daemon


def likeness(picture: np.ndarray, card_id: str) -> float:
    """How much the kept picture looks like a printed card (correlation of grey thumbnails, at
    the better of 0 and 180 degrees)."""
    import cv2

    from vision.cardart import render_side

    table = SimulatedTable("bandit", seed=0, mat=False)
    printed = render_side("bandit", table.printed(card_id), 4)
    size = (40, 56)

    def thumb(image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.float32)
        art = small[14:42, 6:34]  # the symbol in the middle (the markers are alike on every card)
        return (art - art.mean()) / (art.std() + 1e-6)

    a, b = thumb(picture), thumb(printed)
    return max(float((a * b).mean()), float((a * b[::-1, ::-1]).mean()))


def test_teach_cards_from_the_menu_keeps_the_card_the_camera_cut_out(tmp_path: Path, store: Path) -> None:
    table = calm_table()
    table.place_at("cherry", table.centre, 25.0)
    daemon = open_teaching(tmp_path, table)
    played: list[str] = []
    daemon._play = lambda name, params: played.append(name)  # type: ignore[method-assign]
    try:
        assert daemon.camera is not None
        teach = daemon.teach
        assert teach is not None
        step_until(daemon, lambda: teach.phase == "caught", "the cherry card caught")
        view = daemon.view
        assert isinstance(view, TeachView) and view.cutout is not None
        assert view.cutout.shape[0] > view.cutout.shape[1]  # upright
        daemon.display.save_png(tmp_path / "caught.png")
        shot = pygame.image.load(str(tmp_path / "caught.png"))
        assert shot.get_size() == daemon.display.screen.get_size()
        press(daemon, "collect")
        daemon.step()
        kept = EnrolledDeck("bandit", store.parent / "enrolled").pictures()
        assert list(kept) == ["cherry"] and len(kept["cherry"]) == 1
        import cv2

        picture = cv2.imread(str(kept["cherry"][0]))
        assert likeness(picture, "cherry") > 0.75
        assert likeness(picture, "cherry") > likeness(picture, "plum") + 0.1
        assert isinstance(daemon.view, TeachView) and daemon.view.face_name == "Plum"
        assert played[-2:] == ["click", "coin"]  # caught, then kept: the table hears both
        # Cherry still lies there: it is not filed as Plum.
        camera_frames(daemon, 8)
        assert teach.phase == "looking"
        # Take it away, lay Plum somewhere else, refuse the first picture, move it, keep it.
        table.loose.clear()
        camera_frames(daemon, 2)
        x, y = table.centre
        table.place_at("plum", (x + 30, y - 10), 160.0)
        step_until(daemon, lambda: teach.phase == "caught", "the plum card caught")
        press(daemon, "back")
        daemon.step()
        assert teach.phase == "looking"
        table.loose.clear()
        table.place_at("plum", (x - 40, y + 15), 100.0)
        step_until(daemon, lambda: teach.phase == "caught", "the plum card caught again")
        press(daemon, "collect")
        daemon.step()
        kept = EnrolledDeck("bandit", store).pictures()
        assert sorted(kept) == ["cherry", "plum"] and len(kept["plum"]) == 1
        press(daemon, "back")  # BACK while looking leaves
        daemon.step()
        assert daemon.teach is None and daemon.camera is None
        assert isinstance(daemon.view, GameSelectView)
    finally:
        daemon.close()


def test_the_teach_screen_draws_the_face_art_the_camera_picture_and_the_cut_out(tmp_path: Path) -> None:
    from companion.screen.display import Display

    preview = np.full((270, 480, 3), (40, 90, 40), np.uint8)
    quad = np.array([[200, 80], [260, 85], [255, 170], [195, 165]], np.float32)
    cutout = np.full((280, 200, 3), (230, 20, 230), np.uint8)  # a magenta card (no symbol is)
    common: dict[str, Any] = dict(game_id="mega-jackpot", title="Mega Jackpot",
                                  face_name="Apple (Apple/Cherry reel)", symbols=("apple",),
                                  back=("apple", "cherry"), number=1, total=22, prompt="Lay Apple",
                                  preview=preview, quad=quad)
    with Display(800, 480) as display:
        display.draw(TeachView(**common), 0.0)
        looking = pygame.surfarray.array3d(display.screen).copy()
        display.draw(TeachView(**common, phase="caught", cutout=cutout, alert="looks like Cherry"), 0.0)
        caught = pygame.surfarray.array3d(display.screen).copy()
        display.save_png(tmp_path / "teach.png")
        display.draw(TeachView(**{**common, "face_name": "", "symbols": (), "back": ()}, phase="done",
                               faces_taught=3), 0.0)
    green = (np.abs(looking[:, :, 1].astype(int) - 220) < 30) & (looking[:, :, 0] < 140)
    assert green.sum() > 50  # the card's outline on the camera picture

    def magenta(shot: np.ndarray) -> int:
        return int(((shot[:, :, 0] > 200) & (shot[:, :, 1] < 50) & (shot[:, :, 2] > 200)).sum())

    assert magenta(caught) > 200 * 280 // 2  # the cut-out, at least at its own size
    assert magenta(looking) == 0
    assert math.isfinite(float(caught.mean()))


@pytest.mark.parametrize("seed", [0, 1, 2, 4, 16, 31])
def test_the_play_mat_itself_is_never_cut_out_as_a_card(seed: int) -> None:
    """Nor an empty zone's printed frame (seeds 4 and 16 had one cut out), nor a patch of the
    table beside the mat (seed 31)."""
    from companion.daemon.teaching import cut_out_job

    job = cut_out_job("bandit")
    seen = job(SimulatedTable("bandit", seed=seed).frame())  # the empty mat, all of it in view
    assert seen.cutout is None and seen.refusal == "" and seen.preview.shape[1] == 480


def test_teaching_the_same_card_for_a_second_face_warns_of_a_look_alike(tmp_path: Path) -> None:
    from companion.daemon.teaching import cut_out_job, open_teaching

    table = calm_table()
    table.place_at("cherry", table.centre, 25.0)
    seen = cut_out_job("bandit")(table.frame())
    assert seen.cutout is not None
    flow = open_teaching("bandit", tmp_path / "store")  # the real taught-face store
    for _ in range(3):
        flow.on_frame(seen)
    assert flow.phase == "caught" and flow.alert == ""  # nothing taught yet: nothing alike
    flow.on_input(InputEvent("collect", PRESS, 0.0))
    for control in ("hold3", "hold1"):  # past Plum and back: "this card is Plum" (not just kept)
        flow.on_input(InputEvent(control, PRESS, 0.0))
    assert flow.face.name == "Plum"
    for _ in range(3):
        flow.on_frame(seen)  # the same Cherry card again
    assert flow.phase == "caught" and "reads this card as Cherry" in flow.alert
    assert EnrolledDeck("bandit", tmp_path / "store").pictures().keys() == {"cherry"}


def test_faces_printed_on_one_template_are_taught_without_a_false_warning(tmp_path: Path) -> None:
    """Cherry and Plum on the same card design: alike by resemblance, told apart by the camera."""
    from companion.snapshots.screens import teach_cards

    view = teach_cards().view  # Cherry kept, then Plum laid: the docs' scene, through the real store
    assert isinstance(view, TeachView) and view.face_name == "Plum" and view.phase == "caught"
    assert view.alert == "" and view.cutout is not None


def test_a_new_picture_of_a_taught_face_warns_of_another_face_it_would_be_read_as(tmp_path: Path) -> None:
    """The warning leaves the face's own pictures out: a second picture of Cherry that Plum's
    picture matches as well is flagged (read against all faces, Cherry and Plum tie and the
    camera names neither, which hid the look-alike), as ``vision enroll`` flags it."""
    from companion.daemon.teaching import TaughtDeck, cut_out_job

    table = calm_table()
    table.place_at("cherry", table.centre, 25.0)
    seen = cut_out_job("bandit")(table.frame())
    assert seen.cutout is not None
    deck = TaughtDeck(EnrolledDeck("bandit", tmp_path / "store"))
    deck.keep("cherry", seen.cutout)
    deck.keep("plum", seen.cutout)  # the same card filed under Plum too (taught from photos)
    assert deck.look_alikes("cherry", seen.cutout)[0][0] == "plum"
    assert deck.look_alikes("plum", seen.cutout)[0][0] == "cherry"


def test_a_damaged_taught_picture_is_set_aside_and_named_when_teaching_opens(tmp_path: Path) -> None:
    # Refusing to open "Teach cards" over a damaged picture left the host at the table nothing
    # to do about it (no shell, only buttons).
    from companion.daemon.teaching import open_teaching

    (tmp_path / "store" / "bandit" / "plum").mkdir(parents=True)
    (tmp_path / "store" / "bandit" / "plum" / "1.png").write_bytes(b"cut short")
    flow = open_teaching("bandit", tmp_path / "store")
    assert "teach Plum again" in flow.alert and flow.counts.get("plum", 0) == 0
    assert (tmp_path / "store" / "bandit" / "plum" / "1.png.damaged").exists()


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_a_refusal_on_the_teach_screen_is_shown_whole_with_what_to_do(
        size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The camera's refusal says why and what to do; one line would cut off the advice ("..."),
    so it takes two, each fitting the screen's width at the smallest size the text shrinks to."""
    from companion.screen import widgets
    from companion.screen.display import Display

    refusal = ("The card in view touches another card or paper of its colour: "
               "show one card alone, apart from other cards and paper")
    drawn: list[tuple[str, int | None, int]] = []
    original = widgets.text

    def recording(frame: Any, content: str, units: float, *args: Any, max_width: int | None = None,
                  **kwargs: Any) -> Any:
        drawn.append((content, max_width, max(widgets.MIN_TEXT_PX, frame.px(units))))
        return original(frame, content, units, *args, max_width=max_width, **kwargs)

    monkeypatch.setattr(widgets, "text", recording)
    view = TeachView(game_id="bandit", title="Bandit", face_name="Cherry", symbols=("cherry",), back=(),
                     number=1, total=7, prompt=refusal, preview=np.zeros((270, 480, 3), np.uint8))
    with Display(*size) as display:
        display.draw(view, 0.0)
        font = display._res.font
        lines = [(text, width, px) for text, width, px in drawn if text in refusal or text[1:] in refusal]
        assert [text for text, _w, _px in lines] == [
            "The card in view touches another card or paper of its colour:",
            "Show one card alone, apart from other cards and paper"]
        for text, width, px in lines:
            assert width is not None and font(max(10, int(px * 0.6))).size(text)[0] <= width


@needs_realcards
@pytest.mark.parametrize("name", [
    "IMG_2446.JPG",  # an ace on a kit's box: a patch of the box's print was cut out
    "IMG_2490.JPG",  # a jack beside a greeting card: the card's printed label
    "IMG_2491.JPG",  # a nine on a white sheet: a third of the nine
    "IMG_2496.JPG",  # a nine beside a business card: the business card
    "IMG_2519.JPG",  # a nine under a toy tractor: the part beside the tractor
])
def test_the_camera_thread_cuts_out_by_the_photo_rule(name: str) -> None:
    """Real photos (504 x 378) enlarged to the camera's 1280 px (as ``bench teaching`` does),
    where the camera thread's own rule (the one sure, whole outline in view) offered a wrong
    cut-out. By the photo rule each is refused, or its card is cut out."""
    import cv2

    from companion.daemon.teaching import cut_out_job
    from vision.image_files import read_image
    from vision.label_boxes import box_iou, box_of
    from vision.labelled_photos import load_photos

    photo = next(p for p in load_photos(REALCARDS) if p.path.name == name)
    image = read_image(photo.path)
    scale = 1280 / max(image.shape[:2])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    seen = cut_out_job("bandit")(image)
    if seen.cutout is not None:
        found = box_of((seen.quad * image.shape[1] / seen.preview.shape[1]).tolist())
        assert box_iou(found, [v * scale for v in photo.cards[0][1]]) >= 0.85


def test_the_camera_thread_judges_a_still_scene_once_and_a_changing_one_now_and_then(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging a frame costs a tenth of a second of CPU here (the screen's thread would feel
    it on a Pi): a card lying still is judged once and its verdict kept; while the scene keeps
    changing, only every ``JUDGE_EVERY``-th frame is judged, so a card is still caught."""
    import vision.enrolled
    from companion.daemon.teaching import JUDGE_EVERY, cut_out_job

    calls = []
    real = vision.enrolled.capture_card

    def counted(image: Any, what: str, least: float) -> Any:
        calls.append(what)
        return real(image, what, least)

    monkeypatch.setattr(vision.enrolled, "capture_card", counted)
    job = cut_out_job("bandit")
    table = calm_table()
    table.place_at("cherry", table.centre, 25.0)
    seen = [job(table.frame()) for _ in range(6)]  # the first frame, then lying still
    assert len(calls) == 1 and all(s.judged and s.cutout is not None for s in seen)
    assert len({id(s.preview) for s in seen}) == 6  # each frame's own picture on the screen
    calls.clear()
    changing = []
    for step in range(1, 2 * JUDGE_EVERY + 1):  # the card slid along, a little every frame
        table.loose[-1] = dataclasses.replace(table.loose[-1], centre=(table.centre[0] + 8 * step,
                                                                        table.centre[1]))
        changing.append(job(table.frame()))
    assert len(calls) == 2 and sum(s.judged for s in changing) == 2
    assert all(s.cutout is None and s.refusal == "" for s in changing if not s.judged)


def test_teach_cards_from_the_menu_on_the_mat(tmp_path: Path, store: Path) -> None:
    """The card laid in a zone of the play mat (the mat decides there, not the photo rule):
    caught along the card's own edges, and kept."""
    from companion.bench.teaching import card_box
    from vision.label_boxes import box_iou, box_of
    from vision.simulated import FRAME_W

    table = SimulatedTable("bandit", seed=1)
    zone = table.layout.zones[4].name
    table.place(zone, "cherry")
    daemon = open_teaching(tmp_path, table)
    try:
        teach = daemon.teach
        assert teach is not None
        step_until(daemon, lambda: teach.phase == "caught", "the cherry card caught on the mat")
        caught = teach.caught
        assert caught is not None
        scale = FRAME_W / caught.preview.shape[1]
        assert box_iou(box_of((caught.quad * scale).tolist()), card_box(table.cards[zone])) >= 0.85
        press(daemon, "collect")
        daemon.step()
        assert list(EnrolledDeck("bandit", store.parent / "enrolled").pictures()) == ["cherry"]
    finally:
        daemon.close()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_card_as_small_as_a_camera_80_cm_up_sees_it_is_taught_off_the_mat(seed: int) -> None:
    """EXPERIENCE.md's camera, 60-80 cm above the table, sees a card 80-110 px wide: a card 75 px
    wide is about 0.8 % of the frame, under a photo's least card (1 %). Refused as "no card",
    a host without the mat could not teach at all."""
    from companion.bench.teaching import card_box, laid, verdict
    from companion.daemon.teaching import cut_out_job
    from vision.simulated import FRAME_W
    from vision.taught_scene import synthetic_face

    table = SimulatedTable("bandit", seed=seed, mat=False, card_px=(75, 75))
    table.place_art(synthetic_face(31), table.centre, 20.0)
    seen = laid(cut_out_job("bandit"), table)
    assert verdict(seen, card_box(table.loose[-1]), FRAME_W) == "right"


def test_a_card_refused_on_one_frames_noise_is_judged_again_while_it_lies_still() -> None:
    """The plum card at this place is taken on 59 of 60 frames; frame 29's sensor noise makes an
    edge not stand out. That refusal was kept while the scene stood still, so the card was never
    caught (a teaching test waited in vain once); a refusal is judged again after a while."""
    from companion.daemon.teaching import REJUDGE_REFUSED_EVERY, cut_out_job

    table = calm_table()
    x, y = table.centre
    table.place_at("plum", (x - 40, y + 15), 100.0)
    for _ in range(29):
        table.frame()
    job = cut_out_job("bandit")
    assert job(table.frame()).refusal  # frame 29
    later = [job(table.frame()) for _ in range(REJUDGE_REFUSED_EVERY + 1)]
    assert any(seen.cutout is not None for seen in later)
