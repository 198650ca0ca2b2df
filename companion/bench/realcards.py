"""``companion bench realcards``: a real deck, taught from whole photos, read in real photos.

Follows ``shared/realcards/README.md``: every single-card photo is taught whole (the enrolment
path of ``companion vision enroll``: the one card found, cut out, kept) under the Bandit id of
its rank (nine=cherry, ten=plum, jack=bell, queen=seven, king=bar, ace=any); then every
multi-card photo is read by the card reader (markers and taught faces, no mat). A labelled card
is *correct* when an outline overlaps its box (IoU >= 0.5, outline taken by its bounding box)
and carries its rank's id, *wrong* when such an outline carries another id, *unidentified*
when the outlines there carry none, *missed* when there is none. An outline overlapping no
card is a *phantom*; a phantom with an id also counts as wrong.

Every single-card photo is taught; the multi-card photos are split by name order: every third
photo (the 3rd, 6th, ...) is ``held-out``, the others ``dev``; the reader was tuned on ``dev``
only. ``--part`` picks one (default: both, one line each, plus ``all``). ``correct_of_found`` is
the share named right of the cards an outline was found for (identification alone). One label
of the shared photos contradicts its photo (``LABEL_FIXES``): the bench uses what it shows.

Also reported: the outline search alone on every photo of the part (``outline_search``: the
plain search the camera runs every frame; ``outline_search_thorough``: the one teaching uses),
the photos whose single card could not be taught (refused, with the reason), teaching itself
(``realcards.teaching``: cut-outs whose outline is not their card's label, ``RIGHT_CUTOUT``, and
multi-card photos teaching would take as one card), every multi-card
photo read as a camera sees cards laid under it (``realcards.laid``: an empty table, the cards
arriving, then lying still), the never-taught check
(``realcards.untaught``: each rank in turn left untaught, the photos holding it read: any id on
it is wrong), the multi-card photos of the part read as a cheap webcam would take them
(``realcards.webcam_like``, taught from the phone's photos; each photo's copy the same in
every part), the never-taught check on those
webcam-like copies (``realcards.webcam_untaught``: a softer picture hides the little that tells
a look-alike, a ten beside a taught nine, from the taught face), both again with the single-card
photos' webcam-like copies taught (``realcards.webcam_taught`` and
``realcards.webcam_taught_untaught``: a group whose only camera is a webcam, soft and noisy when
it teaches and when it reads), and the speed of a 1280x720 frame holding five taught cards, new
(moved every frame) and lying still. ``--scale F`` (repeatable) adds ``realcards.scaled``: the
multi-card photos of the part read resized by F (another camera's resolution), taught from the
photos as they are; ``--light dim|bright`` adds ``realcards.light``: those photos as if taken in
a dim room or overexposed; ``--tone flat|contrasty``, ``realcards.toned``: through another
camera's tone curve; ``--turn 90|180|270``, ``realcards.turned``: turned (a camera mounted
another way).
``realcards.other_decks`` (one line per style, :mod:`vision.other_decks`): decks printed unlike
this one (full-bleed art, dark faces, coloured borders, rounded corners) taught and read on these
photos' tables.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.label_boxes import box_iou, box_of, read_at, seen_boxes
from vision.labelled_photos import DECK_RANKS, Photo, load_photos

NAME = "realcards"
HELP = "a real deck taught from whole photos and read in real photos (shared/realcards)"

GAME = "bandit"
#: ``--light``: the photos read exposed this many stops off (a dim room; a lamp right above).
LIGHTS = {"dim": -1.0, "bright": 0.5}
#: ``--tone``: the photos read through another camera's tone curve, each level (0-1) to this
#: power (:func:`vision.rough_camera.toned`: mid-tones lifted, or sunk).
TONES = {"flat": 0.6, "contrasty": 1.6}
#: The pinochle deck's ranks, nine to ace, as Bandit's card ids.
RANKS = dict(zip(DECK_RANKS, ("cherry", "plum", "bell", "seven", "bar", "any"), strict=True))


def default_photos() -> Path:
    """``shared/realcards/photos`` beside the repository (as CI lays it out)."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "realcards" / "photos"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: where the photos are, which part, how many speed frames."""
    parser.add_argument("--photos", type=Path, default=None, help="folder of photos, a .xml label by each")
    parser.add_argument("--part", choices=("dev", "held-out", "all", "each"), default="each")
    parser.add_argument("--frames", type=int, default=40, help="frames for the 1280x720 speed figure")
    parser.add_argument(
        "--no-untaught",
        dest="untaught",
        action="store_false",
        help="skip the never-taught checks (each rank left untaught in turn, its photos read)",
    )
    parser.add_argument(
        "--scale",
        dest="scales",
        type=float,
        action="append",
        default=[],
        metavar="F",
        help="also read the multi-card photos resized by F (another camera's resolution; repeatable)",
    )
    copies = (("--light", LIGHTS, "as if taken in that light"), ("--tone", TONES, "through that tone curve"))
    for flag, kinds, what in copies:
        parser.add_argument(
            flag,
            dest=f"{flag[2:]}s",
            choices=sorted(kinds),
            action="append",
            default=[],
            help=f"also read the multi-card photos {what} (repeatable)",
        )
    parser.add_argument(
        "--turn",
        dest="turns",
        type=int,
        choices=(90, 180, 270),
        action="append",
        default=[],
        help="also read the multi-card photos turned clockwise by that many degrees (repeatable)",
    )
    parser.add_argument(
        "--no-webcam",
        dest="webcam",
        action="store_false",
        help="skip reading webcam-like copies of the photos (blurred, noisy, colour cast, JPEG)",
    )
    parser.add_argument(
        "--no-other-decks",
        dest="other_decks",
        action="store_false",
        help="skip realcards.other_decks (decks printed unlike this one, laid on these photos' tables)",
    )


def part_of(index: int) -> str:
    """Every third photo in name order is held out."""
    return "held-out" if index % 3 == 2 else "dev"


@dataclass
class Tally:
    """Counts for one set of multi-card photos."""

    cards: int = 0
    correct: int = 0
    wrong: int = 0
    unidentified: int = 0
    missed: int = 0
    phantoms: int = 0
    phantom_ids: int = 0

    def add(self, photo: Photo, seen: list[tuple[list[tuple[float, ...]], str | None]]) -> list[str]:
        """Score one photo's outlines (boxes, id); the wrong ids as text. Each outline is placed
        by one of its boxes (:func:`vision.label_boxes.read_at`)."""
        read, phantoms = read_at([box for _r, box in photo.cards], seen)
        wrongs = []
        for (rank, _box), ids in zip(photo.cards, read, strict=True):
            self.cards += 1
            if ids is None:
                self.missed += 1
            elif ids - {RANKS[rank]}:
                self.wrong += 1
                wrongs.append(f"{photo.path.name}: {rank} read as {sorted(ids - {RANKS[rank]})}")
            elif ids:
                self.correct += 1
            else:
                self.unidentified += 1
        for card_id in phantoms:
            self.phantoms += 1
            if card_id is not None:
                self.phantom_ids += 1
                wrongs.append(f"{photo.path.name}: {card_id} where no card is")
        return wrongs


#: Labels of the shared photos that the photo contradicts (checked by eye); the bench reads
#: the photo as what it shows. IMG_2396 is labelled nine; it shows the ten of diamonds (teaching
#: it as a nine made every ten of diamonds unreadable: one card under two ids).
LABEL_FIXES = {"IMG_2396.JPG": ("nine", "ten")}


def _rank(photo: Photo) -> str:
    """The rank a single-card photo shows (its label, unless LABEL_FIXES corrects it)."""
    rank = photo.cards[0][0]
    fix = LABEL_FIXES.get(photo.path.name)
    return fix[1] if fix is not None and rank == fix[0] else rank


#: A taught cut-out is right when its outline's box overlaps the card's label at least this much
#: (while the card lies wholly in the photo; a card cut by the photo's edge is labelled by what
#: shows of it).
RIGHT_CUTOUT = 0.85


def lies_whole(box: tuple[float, ...], shape: tuple[int, ...]) -> bool:
    """Whether a labelled ``box`` lies wholly inside a picture of ``shape`` (a card cut by the
    picture's edge is labelled by what shows of it: no cut-out can be judged against it)."""
    h, w = shape[:2]
    return box[0] > 2 and box[1] > 2 and box[2] < w - 3 and box[3] < h - 3


@dataclass(frozen=True)
class Taught:
    """The cut-outs of the single-card photos (the enrolment path), the refusals, and the
    photos whose cut-out is not their card (``RIGHT_CUTOUT``)."""

    cutouts: tuple[tuple[str, Any], ...]
    refused: tuple[str, ...]
    wrong_cutouts: tuple[str, ...] = ()


#: Seeds of the single-card photos' webcam-like copies: the k-th single's is this plus k (the
#: multi-card photos' are their places among them, 0-94: no copy shares another's noise).
TEACH_SEEDS = 1000


def capture_singles(singles: list[Photo], webcam: bool = False) -> Taught:
    """The single-card photos taught whole (the enrolment path): cut-outs, refusals, wrong cuts.
    ``webcam``: their webcam-like copies taught instead (a group whose only camera is one)."""
    from companion.errors import UserError
    from vision.enrolled import capture_card
    from vision.image_files import read_image
    from vision.rough_camera import webcam_like

    cutouts, refused, wrong = [], [], []
    for k, photo in enumerate(singles):
        image = read_image(photo.path)
        if webcam:
            image = webcam_like(image, TEACH_SEEDS + k)
        try:
            capture = capture_card(image, photo.path.name)
        except UserError as error:
            refused.append(str(error))
            continue
        cutouts.append((_rank(photo), capture.cutout))
        box = photo.cards[0][1]
        if lies_whole(box, image.shape) and box_iou(box_of(capture.quad.tolist()), box) < RIGHT_CUTOUT:
            wrong.append(photo.path.name)
    return Taught(tuple(cutouts), tuple(refused), tuple(wrong))


def _teaching(taught: Taught, multis: list[Photo]) -> dict[str, Any]:
    """Teaching itself: the single-card photos taught, refused and cut out wrongly, and the
    multi-card photos that teaching would take as one card (each must be refused)."""
    from companion.errors import UserError
    from vision.enrolled import capture_card
    from vision.image_files import read_image

    taken = []
    for photo in multis:
        try:
            capture_card(read_image(photo.path), photo.path.name)
        except UserError:
            continue
        taken.append(photo.path.name)
    return {
        "figure": "realcards.teaching",
        "single_photos": len(taught.cutouts) + len(taught.refused),
        "taught": len(taught.cutouts),
        "refused": len(taught.refused),
        "wrong_cutouts": len(taught.wrong_cutouts),
        "wrong_cutout_photos": list(taught.wrong_cutouts),
        "multi_photos": len(multis),
        "multi_taken_as_one": len(taken),
        "multi_taken_as_one_photos": taken,
    }


def _deck(taught: Taught, store: Path, leave_out: str | None = None) -> Any:
    from vision.enrolled import EnrolledDeck

    deck = EnrolledDeck(GAME, store)
    for rank, cutout in taught.cutouts:
        if rank != leave_out:
            deck.keep(RANKS[rank], cutout)
    return deck


def _read(
    deck: Any,
    multis: list[Photo],
    webcam: bool = False,
    seeds: list[int] | None = None,
    laid: bool = False,
    scale: float = 1.0,
    light: str | None = None,
    turn: int = 0,
    tone: str | None = None,
) -> tuple[Tally, list[str], list[float]]:
    """Read ``multis`` (as they are, or their webcam-like copies) with ``deck``: the tally, the
    wrong ids, ms per photo. ``seeds``: per photo, the seed of its rough copies' noise (webcam,
    ``light``), by default its place in ``multis``.
    ``laid``: as a camera sees the cards laid (an empty table first, then the cards arriving,
    then lying still; the reading once they lie still), not as a photo read at once.
    ``scale``: each photo resized by it first (area average down, cubic up), its outlines
    scaled back to the labels' pixels. ``light``: each photo exposed as in that light
    (``LIGHTS``, :func:`vision.rough_camera.exposed`). ``tone``: each photo through another
    camera's tone curve (``TONES``, :func:`vision.rough_camera.toned`). ``turn``: each photo
    turned clockwise by that many degrees (a multiple of 90) last, its outlines turned back."""
    import cv2
    import numpy as np

    from vision.image_files import read_image
    from vision.reader import CardReader
    from vision.rough_camera import exposed, toned, turned, turned_back, webcam_like

    tally, wrongs, photo_ms = Tally(), [], []
    for index, photo in enumerate(multis):
        image = read_image(photo.path)
        seed = index if seeds is None else seeds[index]
        if webcam:
            image = webcam_like(image, seed)
        if light is not None:
            image = exposed(image, LIGHTS[light], seed)
        if tone is not None:
            image = toned(image, TONES[tone])
        if scale != 1.0:
            smooth = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=smooth)
        shape, quarters = image.shape, turn // 90
        image = turned(image, quarters)
        # A fresh reader per photo: nothing carried over from the photo before.
        reader = CardReader(GAME, use_mat=False, enrolled=deck)
        if laid:
            reader.read(np.full_like(image, 90))  # the empty table (a plain grey one)
            reader.read(image)  # the cards arrive
            image = image.copy()  # and lie still
        cpu = time.thread_time()
        reading = reader.read(image)
        photo_ms.append((time.thread_time() - cpu) * 1000)
        back = functools.partial(turned_back, quarters=quarters, shape=shape)
        wrongs += tally.add(photo, seen_boxes(reading.cards, scale, back))
    return tally, wrongs, photo_ms


def _outline_search(photos: list[Photo], thorough: bool) -> dict[str, Any]:
    """The outline search alone on every photo: the plain one the camera runs every frame, or
    the thorough one used for teaching; sure outlines only."""
    from vision.card_outlines import find_card_candidates
    from vision.image_files import read_image

    tally, cpu_ms = Tally(), []
    for photo in photos:
        image = read_image(photo.path)
        cpu = time.thread_time()
        outlines = [o.quad for o in find_card_candidates(image, thorough=thorough) if o.sure]
        cpu_ms.append((time.thread_time() - cpu) * 1000)
        tally.add(photo, [([box_of(quad.tolist())], None) for quad in outlines])
    found = tally.cards - tally.missed
    return {
        "photos": len(photos),
        "cards": tally.cards,
        "found": found,
        "found_rate": round(found / max(1, tally.cards), 4),
        "phantoms": tally.phantoms,
        "phantoms_per_10_photos": round(10 * tally.phantoms / len(photos), 2),
        "median_ms": round(statistics.median(cpu_ms), 2),
    }


def _read_part(name: str, photos: list[Photo], taught: Taught, multis: list[Photo]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as store:
        tally, wrongs, photo_ms = _read(_deck(taught, Path(store)), multis)
    cards = max(1, tally.cards)
    named = tally.correct + tally.wrong + tally.unidentified
    return {
        "figure": f"realcards.{name}",
        "teach_photos": len(taught.cutouts) + len(taught.refused),
        "taught": len(taught.cutouts),
        "refused": len(taught.refused),
        "refused_examples": list(taught.refused[:3]),
        "label_fixes": [f"{k}: {a} -> {b}" for k, (a, b) in LABEL_FIXES.items()],
        "read_photos": len(multis),
        "cards": tally.cards,
        "correct": tally.correct,
        "correct_rate": round(tally.correct / cards, 4),
        "found_cards": named,
        "correct_of_found": round(tally.correct / max(1, named), 4),
        "wrong": tally.wrong + tally.phantom_ids,
        "unidentified": tally.unidentified,
        "missed": tally.missed,
        "phantom_outlines": tally.phantoms,
        "phantoms_per_10_photos": round(10 * tally.phantoms / max(1, len(multis)), 2),
        "ms_per_photo": round(statistics.median(photo_ms), 2) if photo_ms else None,
        "ms_per_card": round(sum(photo_ms) / cards, 2),
        "wrong_examples": wrongs[:5],
        "outline_search": _outline_search(photos, thorough=False),
        "outline_search_thorough": _outline_search(photos, thorough=True),
    }


def _laid(taught: Taught, multis: list[Photo]) -> dict[str, Any]:
    """The multi-card photos read as a camera sees cards laid under it (see :func:`_read`): the
    path of the daemon's camera thread, where a photo read at once is the first frame's."""
    with tempfile.TemporaryDirectory() as store:
        tally, wrongs, _ms = _read(_deck(taught, Path(store)), multis, laid=True)
    return _reading("realcards.laid", tally, wrongs, len(multis))


def _reading(figure: str, tally: Tally, wrongs: list[str], photos: int) -> dict[str, Any]:
    """The line of one reading of the multi-card photos: right, wrong, unidentified, missed."""
    return {
        "figure": figure,
        "read_photos": photos,
        "cards": tally.cards,
        "correct": tally.correct,
        "wrong": tally.wrong + tally.phantom_ids,
        "unidentified": tally.unidentified,
        "missed": tally.missed,
        "phantoms_per_10_photos": round(10 * tally.phantoms / max(1, photos), 2),
        "wrong_examples": wrongs[:5],
    }


def _webcam(
    taught: Taught, multis: list[Photo], chosen: list[Photo], part: str, figure: str = "realcards.webcam_like"
) -> dict[str, Any]:
    """Taught as ``taught`` was (the phone's photos, or their webcam-like copies), read in
    webcam-like copies of the multi-card photos (another camera: softer, noisier, another colour
    balance), the line named ``figure``: the ``chosen`` ones (those of
    ``part``), each copy the same whichever part is read (its seed is the photo's place among
    all the multi-card photos, ``multis``), so a change can be tuned on dev's copies alone."""
    with tempfile.TemporaryDirectory() as store:
        seeds = [multis.index(p) for p in chosen]
        tally, wrongs, _ms = _read(_deck(taught, Path(store)), chosen, webcam=True, seeds=seeds)
    named = tally.correct + tally.wrong + tally.unidentified
    return {
        "figure": figure,
        "part": part,
        "taught": len(taught.cutouts),
        "read_photos": len(chosen),
        "cards": tally.cards,
        "found_cards": named,
        "correct": tally.correct,
        "correct_of_found": round(tally.correct / max(1, named), 4),
        "wrong": tally.wrong + tally.phantom_ids,
        "unidentified": tally.unidentified,
        "wrong_examples": wrongs[:5],
    }


def _copied(taught: Taught, multis: list[Photo], figure: str, **copy: Any) -> dict[str, Any]:
    """Taught from the photos as they are, read in copies made by ``copy`` (one of
    :func:`_read`'s ``scale``, ``light``, ``tone`` or ``turn``: another camera, other light)."""
    with tempfile.TemporaryDirectory() as store:
        tally, wrongs, _ms = _read(_deck(taught, Path(store)), multis, **copy)
    return {**copy, **_reading(figure, tally, wrongs, len(multis))}


def _untaught(
    taught: Taught, multis: list[Photo], webcam: bool = False, figure: str | None = None
) -> dict[str, Any]:
    """Never misread: for each rank, every other rank taught, the photos holding that rank
    read (as they are, or their webcam-like copies); any id on a card of that rank is wrong
    (so is any other wrong id)."""
    per_rank: dict[str, dict[str, int]] = {}
    examples: list[str] = []
    for rank in RANKS:
        holding = [p for p in multis if any(r == rank for r, _box in p.cards)]
        with tempfile.TemporaryDirectory() as store:
            # Each photo's webcam-like copy is the one realcards.webcam_like reads (same seed).
            seeds = [multis.index(p) for p in holding]
            tally, wrongs, _ms = _read(_deck(taught, Path(store), leave_out=rank), holding, webcam, seeds)
        untaught_cards = sum(1 for p in holding for r, _box in p.cards if r == rank)
        per_rank[rank] = {
            "photos": len(holding),
            "untaught_cards": untaught_cards,
            "wrong": tally.wrong + tally.phantom_ids,
        }
        examples += wrongs
    return {
        "figure": figure or ("realcards.webcam_untaught" if webcam else "realcards.untaught"),
        "ranks": per_rank,
        "wrong": sum(r["wrong"] for r in per_rank.values()),
        "wrong_examples": examples[:5],
    }


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """One line per part (dev, held-out, all) and the speed line."""
    import cv2

    cv2.setNumThreads(1)
    photos = load_photos(args.photos or default_photos())
    parts = ("dev", "held-out", "all") if args.part == "each" else (args.part,)
    singles = [p for p in photos if len(p.cards) == 1]
    multis = [p for p in photos if len(p.cards) > 1]
    # Every single-card photo is taught (the README's protocol); the multi-card photos are read
    # by part: thresholds were tuned on dev only.
    taught = capture_singles(singles)
    yield _teaching(taught, multis)
    for name in parts:
        chosen = [p for i, p in enumerate(photos) if name == "all" or part_of(i) == name]
        yield _read_part(name, chosen, taught, [p for p in chosen if len(p.cards) > 1])
    whole = args.part in ("each", "all")
    laid = [p for i, p in enumerate(photos) if len(p.cards) > 1 and (whole or part_of(i) == args.part)]
    yield _laid(taught, laid)
    # Each copy's values are in the option of its name made plural (``--scale`` in ``scales``).
    for figure, copy in (("scaled", "scale"), ("light", "light"), ("toned", "tone"), ("turned", "turn")):
        for value in getattr(args, f"{copy}s"):
            yield _copied(taught, laid, f"realcards.{figure}", **{copy: value})
    if args.untaught:
        yield _untaught(taught, multis)
    if args.webcam:
        part = "all" if whole else args.part
        yield _webcam(taught, multis, laid, part)
        if args.untaught:
            yield _untaught(taught, multis, webcam=True)
        # Taught and read by one webcam: its soft, noisy copies on both sides.
        by_webcam = capture_singles(singles, webcam=True)
        yield _webcam(by_webcam, multis, laid, part, "realcards.webcam_taught")
        if args.untaught:
            yield _untaught(by_webcam, multis, webcam=True, figure="realcards.webcam_taught_untaught")
    if getattr(args, "other_decks", True):
        from vision.other_decks import figures

        yield from figures(photos)
    from vision.taught_scene import speed_figure

    yield speed_figure(singles, args.frames)
