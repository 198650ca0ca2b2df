"""Where taught pictures live: the service's store for a host at a shell on the Pi, shared with
the service through its group, and `companion doctor` saying what is taught and what is damaged."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from companion.cli import main
from companion.config import Config
from companion.doctor import OK, WARN, check_taught_cards
from companion.errors import UserError
from vision import taught_store
from vision.enrolled import EnrolledDeck
from vision.taught_scene import synthetic_face
from vision.taught_store import default_store, make_folder

GAME = "bandit"


@pytest.fixture
def no_service(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No installed service on this machine; the XDG state home under ``tmp_path``."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(taught_store, "SERVICE_STATE_DIR", tmp_path / "not-installed")
    return tmp_path / "xdg" / "jackpot-companion" / "enrolled"


def test_a_host_at_a_shell_teaches_into_the_installed_services_store(
        no_service: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert default_store() == no_service  # off the Pi: the login's own state home
    service = tmp_path / "var-lib"
    service.mkdir()
    monkeypatch.setattr(taught_store, "SERVICE_STATE_DIR", service)
    # Not the host's home, where the camera (the service) would never see the pictures.
    assert default_store() == service / "enrolled"
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "unit"))
    assert default_store() == tmp_path / "unit" / "enrolled"  # the service itself


def test_a_service_store_the_host_cannot_open_is_one_line_saying_how(
        no_service: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    service = tmp_path / "var-lib"
    service.mkdir()
    monkeypatch.setattr(taught_store, "SERVICE_STATE_DIR", service)
    monkeypatch.setattr(taught_store.os, "access", lambda path, mode: False)  # not in the group
    with pytest.raises(UserError, match=r"cannot open: sudo usermod -aG jackpot \$USER"):
        default_store()


def test_folders_and_pictures_in_a_shared_store_stay_writable_by_the_group(tmp_path: Path) -> None:
    store = tmp_path / "enrolled"
    store.mkdir()
    store.chmod(0o2770)  # as the installer makes it
    kept = EnrolledDeck(GAME, store).keep("cherry", synthetic_face(10))
    for folder in (store / GAME, store / GAME / "cherry"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o2770, folder
    assert stat.S_IMODE(kept.stat().st_mode) == 0o660
    plain = tmp_path / "own"
    picture = EnrolledDeck(GAME, plain).keep("cherry", synthetic_face(10))
    assert not picture.parent.stat().st_mode & stat.S_ISGID  # a login's own store is left alone


def test_a_store_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bandit").write_text("a file where the game's folder should be")
    with pytest.raises(UserError, match="cannot make .*check the store's permissions"):
        make_folder(tmp_path / "bandit" / "cherry")
    with pytest.raises(UserError, match="cannot make"):
        EnrolledDeck(GAME, tmp_path).keep("cherry", synthetic_face(10))


def test_a_picture_that_cannot_be_removed_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = EnrolledDeck(GAME, tmp_path)
    deck.keep("cherry", synthetic_face(10))

    def refuse(self: Path, missing_ok: bool = False) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(UserError, match="cannot remove .*1.png .Permission denied.: check the store's"):
        deck.forget("cherry")


def test_doctor_lists_the_taught_faces_and_names_the_damaged_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert check_taught_cards(Config()).found.startswith("none taught")
    deck = EnrolledDeck(GAME, tmp_path / "enrolled")
    deck.keep("cherry", synthetic_face(10))
    deck.keep("cherry", synthetic_face(11))
    plum = deck.keep("plum", synthetic_face(12))
    report = check_taught_cards(Config())
    assert report.status == OK and "bandit 2 faces (3 pictures)" in report.found
    plum.write_bytes(b"half a picture")  # damaged some other way than a cut-short write
    report = check_taught_cards(Config())
    assert report.status == WARN and "bandit Plum" in report.found and "teach those faces again" in report.fix
    assert plum.read_bytes() == b"half a picture"  # the doctor looks; it moves nothing
    EnrolledDeck(GAME, tmp_path / "enrolled", skip_damaged=True)  # the camera sets it aside
    assert "bandit Plum" in check_taught_cards(Config()).found  # named until taught again
    deck.keep("plum", synthetic_face(12))
    assert check_taught_cards(Config()).status == OK
    plum.write_bytes(b"half a picture")
    main(["doctor"])
    assert "[warn] taught cards: damaged pictures" in capsys.readouterr().out  # one of the doctor's checks


def test_the_vision_commands_set_a_damaged_picture_aside_name_its_face_and_can_forget_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # They refused to open the deck at all, 'forget' and 'enroll' included: no command could
    # mend the store, only deleting the file by hand.
    import cv2

    from vision.taught_scene import lay_out, scene_style

    def photo(face: int, seed: int) -> str:
        path = tmp_path / f"photo{seed}.png"
        style = scene_style(seed, "wood", card_px=150, tilt=8)
        assert cv2.imwrite(str(path), lay_out([synthetic_face(face)], seed, style=style).frame())
        return str(path)

    store = tmp_path / "store"
    deck = EnrolledDeck(GAME, store)
    deck.keep("cherry", synthetic_face(10))
    deck.keep("plum", synthetic_face(12)).write_bytes(b"cut short")
    where = ["--store", str(store)]
    assert main(["vision", "identify", "--game", GAME, *where, photo(10, 300)]) == 0
    out = capsys.readouterr()
    assert "note: damaged taught pictures set aside: teach Plum again" in out.err
    assert '"id": "cherry"' in out.out  # the rest of the deck is read
    assert main(["vision", "enrolled", GAME, *where]) == 0
    assert "0 pictures [1 damaged, set aside: teach it again]" in capsys.readouterr().out
    assert main(["vision", "enroll", GAME, *where, f"plum={photo(12, 301)}"]) == 0
    assert main(["vision", "enrolled", GAME, *where]) == 0
    listing = capsys.readouterr().out
    assert "1 picture [1 damaged, set aside]" in listing and "teach it again" not in listing
    assert main(["vision", "forget", GAME, "plum", *where]) == 0
    assert not (store / GAME / "plum").exists()
