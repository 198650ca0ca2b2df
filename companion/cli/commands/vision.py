"""``companion vision``: identify cards in photos, watch the camera live, teach a real deck.

Teaching (``enroll``, ``enrolled``, ``forget``) keeps pictures of a group's own cards in the
taught-face store (:mod:`vision.enrolled`); ``identify``, ``watch`` and the daemon read them.
Options may stand anywhere among the arguments (``enroll bandit --store DIR cherry=a.jpg``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.errors import UserError


class _Intermixed(argparse.ArgumentParser):
    """A sub-command parser that takes options among its positional arguments.

    Python 3.11's argparse stops filling a ``nargs='*'`` positional at the first option, so
    ``enroll GAME --store DIR id=photo`` was refused; intermixed parsing collects them all.
    """

    _inside = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        if self._inside:  # parse_known_intermixed_args calls back in here
            return super().parse_known_args(args, namespace)
        self._inside = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inside = False


def register(subparsers: Any) -> None:
    """Add ``vision identify|watch|enroll|enrolled|forget``."""
    parser = subparsers.add_parser("vision", help="read cards with the camera; teach a real deck")
    inner = parser.add_subparsers(
        dest="vision_command", metavar="ACTION", required=True, parser_class=_Intermixed
    )

    ident = inner.add_parser("identify", help="print one JSON line per image: the cards seen in it")
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--game", default=None, help="the game whose cards to read (default: any game)")
    ident.add_argument("--no-mat", action="store_true", help="do not look for the play mat")
    ident.add_argument("--store", type=Path, default=None, help="taught cards folder")
    ident.set_defaults(func=_identify)

    watch = inner.add_parser("watch", help="print the cards and zones read live from the camera")
    watch.add_argument("--game", default="bandit")
    watch.add_argument(
        "--camera", default=None, help="picamera | usb:/dev/v4l/by-id/... | file:PATH | sim[:GAME:SEED]"
    )
    watch.add_argument("--config", default=None, help="configuration file (for the camera)")
    watch.add_argument(
        "--frames", type=int, default=0, help="stop after this many frames (0: run until Ctrl-C)"
    )
    watch.add_argument("--window", type=int, default=5, help="frames a card must be seen in (majority)")
    watch.add_argument("--save", type=Path, default=None, help="folder to save annotated frames into")
    watch.add_argument("--no-mat", action="store_true")
    watch.add_argument("--store", type=Path, default=None, help="taught cards folder")
    watch.set_defaults(func=_watch)

    enroll = inner.add_parser("enroll", help="teach the camera a real deck: one photo per card face")
    enroll.add_argument("game")
    enroll.add_argument(
        "images",
        nargs="*",
        metavar="CARD_ID=PHOTO",
        help="whole photos of one card each (any table, no cropping; an id may repeat); "
        "without these, from the camera one face at a time",
    )
    enroll.add_argument("--camera", default=None)
    enroll.add_argument("--config", default=None)
    enroll.add_argument("--store", type=Path, default=None, help="where to keep the pictures")
    enroll.set_defaults(func=_enroll)

    enrolled = inner.add_parser("enrolled", help="list the card faces taught for GAME")
    enrolled.add_argument("game")
    enrolled.add_argument("--all", action="store_true", help="list every face to teach, taught or not")
    enrolled.add_argument("--store", type=Path, default=None)
    enrolled.set_defaults(func=_enrolled)

    forget = inner.add_parser("forget", help="remove taught pictures of one card face (or --all)")
    forget.add_argument("game")
    forget.add_argument("card_id", nargs="?", metavar="CARD_ID")
    forget.add_argument("--all", action="store_true", help="every taught face of GAME")
    forget.add_argument("--store", type=Path, default=None)
    forget.set_defaults(func=_forget)


def _camera_spec(args: argparse.Namespace) -> str:
    if args.camera:
        return str(args.camera)
    from companion.config import load_config

    return load_config(args.config).camera.source


def _identify(args: argparse.Namespace) -> int:
    from vision.identify import identify_any
    from vision.image_files import read_image

    if args.game:
        _open_deck(args.game, args.store)  # a damaged picture set aside and named once, up front
    for path in args.images:
        cards = identify_any(read_image(path), args.game, use_mat=not args.no_mat, store=args.store)
        print(json.dumps({"image": path, "cards": [card.to_json() for card in cards]}), flush=True)
    return 0


def _card_line(card: Any) -> dict[str, Any]:
    xs = [x for x, _y in card.corners]
    ys = [y for _x, y in card.corners]
    return {
        "id": card.card_id,
        "zone": card.zone,
        "at": [round(sum(xs) / len(xs)), round(sum(ys) / len(ys))],
        "confidence": round(card.confidence, 2),
    }


def _watch(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.camera import open_source
    from vision.identify import reader_for_game
    from vision.tracker import ZoneTracker
    from vision.work_copy import work_copy

    reader = reader_for_game(args.game, use_mat=not args.no_mat, store=args.store, skip_damaged=True)
    _note_set_aside(reader.damaged_pictures)
    taught = len(reader.enrolled.references) if reader.enrolled is not None else 0
    print(json.dumps({"game": args.game, "taught_pictures": taught}), flush=True)
    tracker = ZoneTracker.for_game(args.game, window=args.window)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    source = open_source(_camera_spec(args))
    count = 0
    try:
        while not args.frames or count < args.frames:
            frame = source.read()
            if frame is None:
                break
            started = time.perf_counter()
            reading = reader.read(frame, work_copy(source))  # a Pi camera's small copy, if any
            observations = tracker.update(reading, args.game)
            elapsed = (time.perf_counter() - started) * 1000
            count += 1
            zones = {zone: {"status": o.status, "card": o.card_id} for zone, o in observations.items()}
            line = {
                "frame": count,
                "ms": round(elapsed, 1),
                "mat": reading.mat_found,
                "cards": [_card_line(card) for card in reading.cards],
                "zones": zones,
            }
            print(json.dumps(line), flush=True)
            if args.save:
                cv2.imwrite(str(args.save / f"frame-{count:05d}.jpg"), annotate(frame, reading))
    finally:
        source.close()
    return 0


def _note_set_aside(damaged: list[Path]) -> None:
    from vision.taught_store import set_aside_note

    if damaged:
        print(f"note: {set_aside_note(damaged)} (kept as N.png.damaged)", file=sys.stderr, flush=True)


def _open_deck(game_id: str, store: Path | None) -> Any:
    """The game's taught deck with a damaged picture set aside, as the camera at the table does,
    and named on stderr: refusing to open left no command to forget or teach that face again."""
    from vision.enrolled import EnrolledDeck

    deck = EnrolledDeck(game_id, store, skip_damaged=True)
    _note_set_aside(deck.damaged)
    return deck


def _enroll(args: argparse.Namespace) -> int:
    from vision.teachable import teachable_faces

    faces = teachable_faces(args.game)
    if not faces:
        raise UserError(f"{args.game} has no cards to teach")
    deck = _open_deck(args.game, args.store)
    if args.images:
        return _enroll_photos(args, deck)
    from vision.camera import open_source

    source = open_source(_camera_spec(args))
    try:
        return _enroll_camera(deck, faces, source)
    finally:
        source.close()


def _enroll_photos(args: argparse.Namespace, deck: Any) -> int:
    """Every photo is checked (one card in it, a known id) before anything is kept."""
    from vision.enrolled import capture_card, features_file
    from vision.image_files import read_image
    from vision.teachable import face_for

    captured = []
    for item in args.images:
        card_id, sep, path = item.partition("=")
        if not sep or not card_id or not path:
            raise UserError(f"'{item}': give each photo as CARD_ID=PHOTO, e.g. cherry=cherry.jpg")
        face = face_for(args.game, card_id)
        try:
            capture = capture_card(read_image(path), path)
        except UserError as error:
            raise UserError(f"{error}; nothing was taught") from None
        captured.append((face, capture))
    kept: list[Path] = []
    try:
        for face, capture in captured:
            warn_look_alikes(deck, face.face_id, capture.cutout)
            kept.append(deck.keep(face.face_id, capture.cutout))
    except BaseException:
        for path in kept:  # all or nothing: a half-taught command is undone
            path.unlink(missing_ok=True)
            features_file(path).unlink(missing_ok=True)
        raise
    for (face, _capture), path in zip(captured, kept, strict=True):
        print(f"taught {face.label()}: {path}")
    return 0


def warn_look_alikes(deck: Any, face_id: str, cutout: Any) -> None:
    """Say so when another taught face looks like this picture (they may stay unidentified)."""
    from vision.teachable import teachable_faces

    names = {face.face_id: face.name for face in teachable_faces(deck.game_id)}
    for other, score in deck.look_alikes(face_id, cutout):
        print(
            f"warning: {names.get(face_id, face_id)} looks like the taught {names.get(other, other)} "
            f"(similarity {score:.2f}); the camera may leave both unidentified",
            file=sys.stderr,
        )


def _enroll_camera(deck: Any, faces: list[Any], source: Any) -> int:
    """One face at a time: Enter takes the picture, s skips, q (or end of input) stops."""
    from vision.enrolled import capture_card

    for face in faces:
        while True:
            print(
                f"Lay {face.name} face up alone under the camera; Enter to take it, s to skip, q to stop: ",
                end="",
                flush=True,
            )
            answer = sys.stdin.readline()
            if not answer or answer.strip().lower() == "q":
                print()
                return 0  # end of input stops: never files one picture under every face
            if answer.strip().lower() == "s":
                break
            frame = source.read()
            if frame is None:
                raise UserError("the camera gave no picture; check it and try again")
            try:
                capture = capture_card(frame, "the camera's picture")
            except UserError as error:
                print(f"{error}; try again", file=sys.stderr)
                continue
            warn_look_alikes(deck, face.face_id, capture.cutout)
            print(f"taught {face.label()}: {deck.keep(face.face_id, capture.cutout)}")
            break
    return 0


def _enrolled(args: argparse.Namespace) -> int:
    from vision.enrolled import set_aside_pictures
    from vision.teachable import teachable_faces

    deck = _open_deck(args.game, args.store)
    pictures = deck.pictures()
    spoilt = set_aside_pictures(deck.folder)
    faces = teachable_faces(args.game)
    known = {face.face_id for face in faces}
    total = sum(map(len, pictures.values()))
    print(f"{args.game}: {_counted(total, 'picture')} of {_counted(len(pictures), 'face')} in {deck.folder}")
    for face in faces:
        count = len(pictures.get(face.face_id, []))
        if count or args.all or face.face_id in spoilt:
            also = f" (also {', '.join(face.card_ids[1:])})" if len(face.card_ids) > 1 else ""
            if face.face_id in spoilt:
                again = "" if count else ": teach it again"
                also += f" [{len(spoilt[face.face_id])} damaged, set aside{again}]"
            print(f"  {face.label():<48} {_counted(count, 'picture')}{also}")
    for stray in sorted(set(pictures) - known):
        print(f"  {stray} [not a card of {args.game}]: {_counted(len(pictures[stray]), 'picture')}")
    if not args.all:
        print(f"(`companion vision enrolled {args.game} --all` lists every face to teach)")
    return 0


def _forget(args: argparse.Namespace) -> int:
    from vision.enrolled import set_aside_pictures
    from vision.teachable import face_for, teachable_faces

    if args.all == bool(args.card_id):
        raise UserError("give one CARD_ID or --all")
    deck = _open_deck(args.game, args.store)
    if args.all:
        removed = deck.forget()
        print(f"forgot every taught face of {args.game} ({_counted(removed, 'picture')})")
        return 0
    pictures = {**set_aside_pictures(deck.folder), **deck.pictures()}
    face_id = args.card_id if args.card_id in pictures else face_for(args.game, args.card_id).face_id
    if face_id not in pictures:
        raise UserError(f"nothing taught for '{args.card_id}' in {args.game}")
    removed = deck.forget(face_id)
    known = {face.face_id: face for face in teachable_faces(args.game)}
    name = known[face_id].label() if face_id in known else face_id
    print(f"forgot {name} ({_counted(removed, 'picture')})")
    return 0


def _counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one ("1 picture", "3 pictures")."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
