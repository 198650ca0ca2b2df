"""Teaching a real deck from the command line, the faces to teach, and checked image files."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import UserError
from vision.enrolled import EnrolledDeck
from vision.image_files import check_image_file, read_image
from vision.taught_scene import lay_out, scene_style, synthetic_face
from vision.teachable import face_for, teachable_faces


def photo_file(folder: Path, name: str, faces: list[np.ndarray], seed: int) -> Path:
    path = folder / name
    style = scene_style(seed, "wood", card_px=150, tilt=8)
    cv2.imwrite(str(path), lay_out(faces, seed, style=style).frame())
    return path


def test_enroll_takes_options_anywhere_and_the_same_id_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = photo_file(tmp_path, "a.jpg", [synthetic_face(1)], 1)
    b = photo_file(tmp_path, "b.jpg", [synthetic_face(2)], 2)
    store = tmp_path / "store"
    assert main(["vision", "enroll", "bandit", "--store", str(store), f"cherry={a}", f"cherry={b}"]) == 0
    assert sorted(p.name for p in (store / "bandit" / "cherry").glob("*.png")) == ["1.png", "2.png"]
    assert main(["vision", "enrolled", "bandit", "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "Cherry [cherry]" in out and "2 pictures" in out and str(store / "bandit") in out


def test_enroll_is_all_or_nothing_and_says_which_photo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = photo_file(tmp_path, "good.jpg", [synthetic_face(1)], 1)
    two = photo_file(tmp_path, "two.jpg", [synthetic_face(2), synthetic_face(3)], 3)
    store = tmp_path / "store"
    assert main(["vision", "enroll", "bandit", f"cherry={good}", f"plum={two}", "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "two.jpg" in err and "nothing was taught" in err
    assert EnrolledDeck("bandit", store).pictures() == {}


def test_enroll_warns_when_two_ids_get_look_alike_faces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = photo_file(tmp_path, "a.jpg", [synthetic_face(1)], 1)
    b = photo_file(tmp_path, "b.jpg", [synthetic_face(1)], 2)
    assert main(["vision", "enroll", "bandit", f"cherry={a}", f"plum={b}", "--store", str(tmp_path)]) == 0
    assert "Plum looks like the taught Cherry" in capsys.readouterr().err


def test_camera_prompt_stops_at_end_of_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    shot = photo_file(tmp_path, "shot.png", [synthetic_face(4)], 4)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))  # Enter once, then end of input
    args = ["vision", "enroll", "bandit", "--camera", f"file:{shot}", "--store", str(tmp_path)]
    assert main(args) == 0
    assert {k: len(v) for k, v in EnrolledDeck("bandit", tmp_path).pictures().items()} == {"cherry": 1}
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(args) == 0
    assert sum(map(len, EnrolledDeck("bandit", tmp_path).pictures().values())) == 1


def test_forget_one_face_and_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = photo_file(tmp_path, "a.jpg", [synthetic_face(1)], 1)
    b = photo_file(tmp_path, "b.jpg", [synthetic_face(2)], 2)
    store = ["--store", str(tmp_path / "s")]
    assert main(["vision", "enroll", "bandit", f"bell={a}", f"bar={b}", *store]) == 0
    capsys.readouterr()
    assert main(["vision", "forget", "bandit", "Bell", *store]) == 0  # a human name works too
    assert capsys.readouterr().out == "forgot Bell [bell] (1 picture)\n"  # its name, one picture
    assert list(EnrolledDeck("bandit", tmp_path / "s").pictures()) == ["bar"]
    assert main(["vision", "enrolled", "bandit", *store]) == 0
    assert "1 picture of 1 face in" in capsys.readouterr().out
    assert main(["vision", "forget", "bandit", *store]) == 2
    assert "give one CARD_ID or --all" in capsys.readouterr().err
    assert main(["vision", "forget", "bandit", "--all", *store]) == 0
    assert EnrolledDeck("bandit", tmp_path / "s").pictures() == {}


def test_identify_and_watch_read_taught_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    a = photo_file(tmp_path, "a.jpg", [synthetic_face(1)], 1)
    store = ["--store", str(tmp_path / "s")]
    assert main(["vision", "enroll", "bandit", f"seven={a}", *store]) == 0
    table = photo_file(tmp_path, "table.png", [synthetic_face(1), synthetic_face(9)], 5)
    capsys.readouterr()
    assert main(["vision", "identify", "--game", "bandit", "--no-mat", str(table), *store]) == 0
    (line,) = [json.loads(t) for t in capsys.readouterr().out.splitlines()]
    assert sorted(str(c["id"]) for c in line["cards"]) == ["None", "seven"]
    assert main(["vision", "watch", "--game", "bandit", "--no-mat", "--camera", f"file:{table}",
                 "--frames", "2", *store]) == 0
    frames = [json.loads(t) for t in capsys.readouterr().out.splitlines()][1:]
    assert [sorted(str(c["id"]) for c in f["cards"]) for f in frames] == [["None", "seven"]] * 2
    assert all(len(c["at"]) == 2 for c in frames[0]["cards"])


def test_faces_identical_in_play_are_taught_once() -> None:
    faces = teachable_faces("jackpot-payout")
    grapes = face_for("jackpot-payout", "exp-grapes-1")
    assert grapes.card_ids == ("start-grapes", "int-grapes-1", "exp-grapes-1")
    assert face_for("jackpot-payout", "int-grapes-2").name == "Grapes (2 coins)"
    assert len({face.name for face in faces}) == len(faces)  # every name tells its face apart
    from companion.engine import get_game

    every_id = [face.id for face in get_game("jackpot-payout").card_faces()]
    assert sorted(i for face in faces for i in face.card_ids) == sorted(every_id)  # each id once
    # Mega Jackpot's reel-side back matters in play: no two faces merged.
    assert len(teachable_faces("mega-jackpot")) == 22
    with pytest.raises(UserError, match="bandit has no card 'cherries'"):
        face_for("bandit", "cherries")


def _jpeg_claiming(width: int, height: int) -> bytes:
    ok, data = cv2.imencode(".jpg", np.full((64, 64, 3), 128, np.uint8))
    raw = bytearray(data.tobytes())
    sof = raw.index(b"\xff\xc0")
    raw[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(raw)


def test_absurd_images_are_refused_before_decoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = tmp_path / "huge.jpg"
    huge.write_bytes(_jpeg_claiming(30000, 30000))
    with pytest.raises(UserError, match="claims 30000x30000 pixels"):
        read_image(huge)
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    with pytest.raises(UserError, match="only 1x1 pixels"):
        check_image_file(tiny)
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    assert main(["vision", "identify", str(huge)]) == 2
    assert main(["vision", "enroll", "bandit", f"cherry={tiny}", "--store", str(tmp_path)]) == 2
    assert main(["vision", "identify", str(text)]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 3 and all(e.startswith("companion: ") for e in errors)
    assert check_image_file(photo_file(tmp_path, "ok.png", [synthetic_face(1)], 1)) == (1280, 720)


def test_an_iphone_heic_photo_says_to_send_a_jpeg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The start of an iPhone's HEIC file: an ISO box "ftyp" with the brand "heic".
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64))
    with pytest.raises(UserError, match="HEIC/HEIF photo.*send it as a JPEG"):
        check_image_file(photo)
    assert main(["vision", "enroll", "bandit", f"cherry={photo}", "--store", str(tmp_path / "deck")]) == 2
    (error,) = capsys.readouterr().err.splitlines()
    assert "Most Compatible" in error and "nothing was taught" in error
