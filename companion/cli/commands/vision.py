"""``companion vision``: identify cards in photos, watch the camera live, enrol publishers' cards."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.errors import UserError


def register(subparsers: Any) -> None:
    """Add ``vision identify|watch|enroll``."""
    parser = subparsers.add_parser("vision", help="read cards with the camera")
    inner = parser.add_subparsers(dest="vision_command", metavar="ACTION", required=True)

    ident = inner.add_parser("identify", help="print one JSON line per image: the cards seen in it")
    ident.add_argument("images", nargs="+", metavar="IMAGE")
    ident.add_argument("--game", default=None, help="the game whose cards to read (default: any game)")
    ident.add_argument("--no-mat", action="store_true", help="do not look for the play mat")
    ident.add_argument("--store", type=Path, default=None, help="enrolled cards folder")
    ident.set_defaults(func=_identify)

    watch = inner.add_parser("watch", help="print zone observations live from the camera")
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
    watch.set_defaults(func=_watch)

    enroll = inner.add_parser("enroll", help="photograph each card face of GAME once (publishers' cards)")
    enroll.add_argument("game")
    enroll.add_argument(
        "images",
        nargs="*",
        metavar="CARD_ID=IMAGE",
        help="enrol from photos; without these, from the camera one face at a time",
    )
    enroll.add_argument("--camera", default=None)
    enroll.add_argument("--config", default=None)
    enroll.add_argument("--store", type=Path, default=None, help="where to keep the photos")
    enroll.set_defaults(func=_enroll)


def _camera_spec(args: argparse.Namespace) -> str:
    if args.camera:
        return str(args.camera)
    from companion.config import load_config

    return load_config(args.config).camera.source


def _read_image(path: str) -> Any:
    import cv2

    if not Path(path).is_file():
        raise UserError(f"no such image: {path}")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"cannot read {path} as an image (corrupt or not an image?)")
    return image


def _identify(args: argparse.Namespace) -> int:
    from vision.identify import identify_any

    for path in args.images:
        image = _read_image(path)
        cards = identify_any(image, args.game, use_mat=not args.no_mat, store=args.store)
        print(json.dumps({"image": path, "cards": [card.to_json() for card in cards]}), flush=True)
    return 0


def _watch(args: argparse.Namespace) -> int:
    import cv2

    from vision.annotate import annotate
    from vision.camera import open_source
    from vision.reader import CardReader
    from vision.tracker import ZoneTracker

    reader = CardReader(args.game, use_mat=not args.no_mat)
    tracker = ZoneTracker.for_game(args.game, window=args.window)
    if args.save:
        args.save.mkdir(parents=True, exist_ok=True)
    source = open_source(_camera_spec(args))
    count = 0
    last: dict[str, tuple[str, str | None]] = {}
    try:
        while not args.frames or count < args.frames:
            frame = source.read()
            if frame is None:
                break
            started = time.perf_counter()
            reading = reader.read(frame)
            observations = tracker.update(reading, args.game)
            elapsed = (time.perf_counter() - started) * 1000
            count += 1
            now = {zone: (o.status, o.card_id) for zone, o in observations.items()}
            if now != last:
                print(
                    json.dumps(
                        {
                            "frame": count,
                            "ms": round(elapsed, 1),
                            "mat": reading.mat_found,
                            "zones": {z: {"status": s, "card": c} for z, (s, c) in now.items()},
                        }
                    ),
                    flush=True,
                )
                last = now
            if args.save:
                cv2.imwrite(str(args.save / f"frame-{count:05d}.jpg"), annotate(frame, reading))
    finally:
        source.close()
    return 0


def _enroll(args: argparse.Namespace) -> int:
    from companion.engine import get_game
    from vision.enrolled import EnrolledDeck

    faces = [face.id for face in get_game(args.game).card_faces()]
    deck = EnrolledDeck(args.game, args.store)
    if args.images:
        for item in args.images:
            card_id, sep, path = item.partition("=")
            if not sep or not path:
                raise UserError(f"'{item}': give each photo as CARD_ID=IMAGE, e.g. cherry=cherry.jpg")
            if faces and card_id not in faces:
                raise UserError(f"{args.game} has no card '{card_id}' (cards: {', '.join(faces)})")
            print(f"enrolled {card_id}: {deck.enroll(card_id, _read_image(path))}")
        return 0
    if not faces:
        raise UserError(f"{args.game} has no cards to enrol")
    from vision.camera import open_source

    source = open_source(_camera_spec(args))
    try:
        for card_id in faces:
            print(
                f"Lay '{card_id}' face up alone under the camera and press Enter (q to stop): ",
                end="",
                flush=True,
            )
            if sys.stdin.readline().strip().lower() == "q":
                break
            frame = source.read()
            if frame is None:
                raise UserError("the camera gave no picture; check it and try again")
            print(f"enrolled {card_id}: {deck.enroll(card_id, frame)}")
    finally:
        source.close()
    return 0
