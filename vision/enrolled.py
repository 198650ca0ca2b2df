"""The taught-face store: pictures of a group's own cards, per game, and reading them back.

Where: ``<store>/<game id>/<face id>/<n>.png``, colour cut-outs of the card (``CUT_W`` x
``CUT_H``, portrait), several per face (several printings or photos of one card). ``<store>`` is
``$STATE_DIRECTORY/enrolled`` under systemd, else ``$XDG_STATE_HOME/jackpot-companion/enrolled``
(``~/.local/state/...``), or the ``--store`` option. Face ids are those of
:func:`vision.teachable.teachable_faces` (any card id a face covers is filed under the face's id).
A flat ``<game>/<face id>.png`` from older versions is still read.

The teach flow, from a camera frame or a photo::

    capture = capture_card(frame)          # the one card in view, else UserError (one line)
    show(capture.cutout)                   # BGR picture of the card, upright
    deck.keep(face_id, capture.cutout)     # file it (COLLECT); a retake just captures again

Reading: ``deck.identify(frame, quad)`` -> :class:`vision.face_match.Match`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import UserError
from vision.card_capture import TEACH_MIN_AREA
from vision.card_outlines import order_quad
from vision.corner_index import MAX_DIFFERENCE, CornerIndex, indices_in_view
from vision.die_cut_capture import find_one_card
from vision.die_cut_reading import prints_off_paper, rim_paper
from vision.face_features import FEATURE_H, FEATURE_W, FeatureMatcher
from vision.face_match import FaceMatcher, Match, rectify
from vision.face_search import FoundFace
from vision.frame_cut import completed_cards, is_cut, part_in_view
from vision.part_match import FINE_H, FINE_W, INDEX_ACCEPT, PartMatcher, part_mask
from vision.printed_border import to_border_edge
from vision.taught_store import JOIN_THE_GROUP, default_store, make_folder, share

#: ``Match.method`` of a card the fast stage could not decide, not yet seen by the features.
PENDING = "pending"
#: ``Match.method`` of a card cut by the frame's edge, named from its part in view
#: (:meth:`EnrolledDeck.identify_cut`).
CUT = "cut"
#: A card cut by the frame's edge with this share of it in view is compared whole (the rest is
#: a corner's tip of paper margin; IMG_2588's ace: its corner 1.5 px from the border).
WHOLE_IN_VIEW = 0.97

#: A card with one corner index in view (the other under a card or past the frame's edge) is
#: named only when that index is within this of the named face's, and nearer to it than to any
#: other taught face's: a partly covered card's index is often softer or in shade (realcards'
#: webcam-like copies: a king under two cards and a queen cut by the frame differ 0.29 and 0.33
#: from theirs), while a look-alike's differed 0.5 (other-decks seed 1: a 4 under a card named
#: as its taught 2).
PART_DIFFERENCE = 0.4

#: A card found by its face of which less than this share shows is a strip: little of its face
#: shows beside its index, whose pips and suit agree in two ranks of one suit. Its rank alone
#: must agree as a strip's named by :mod:`vision.part_match` must (``INDEX_ACCEPT``): a webcam's
#: harsh copy of IMG_2648 (blur 1.6 px, tens untaught) had a nine's face mapped onto a ten's
#: strip, 31 % of the card, its rank agreeing 0.54. Most of a card showing, its face decides (the
#: rank of a card turned 45 degrees, 71-83 % showing, agreed 0.59-0.74 on IMG_2581).
STRIP_SHARE = 0.5
#: Verdicts of :meth:`EnrolledDeck.vouches` remembered (cards found by their faces, lying still).
VOUCHED_KEPT = 64

#: Cut-outs are stored at this size (px, portrait: 63 x 88 mm at about 3.2 px/mm).
CUT_W, CUT_H = 200, 280

__all__ = [
    "CUT", "CUT_H", "CUT_W", "PENDING", "Capture", "EnrolledDeck",
    "Match", "capture_card", "cut_out", "load_picture", "set_aside_pictures", "taught_pictures",
]


@dataclass(frozen=True)
class Capture:
    """The one card found in a frame: its outline (frame px, TL TR BR BL) and its cut-out."""

    quad: np.ndarray
    cutout: np.ndarray


def capture_card(image: np.ndarray, what: str = "the photo", least: float = TEACH_MIN_AREA) -> Capture:
    """The single card lying in ``image`` (a whole photo or camera frame, any table), covering
    at least ``least`` of it. UserError when there is no card or more than one: a picture is
    taught only when it is unambiguous which card it shows.
    """
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cut_out(colour, find_one_card(colour, what, least).quad)


def cut_out(colour: np.ndarray, quad: np.ndarray) -> Capture:
    """The card whose outline is ``quad`` in the BGR ``colour``, cut out as a taught picture."""
    # A coloured border printed round a light centre is the card's (the search found the centre).
    quad = order_quad(to_border_edge(colour, order_quad(quad)))
    return Capture(quad, rectify(colour, quad, (CUT_W, CUT_H)))


def _valid_face_id(face_id: str) -> str:
    if not face_id or "/" in face_id or "\\" in face_id or face_id.startswith("."):
        raise UserError(f"'{face_id}' cannot be a card id")
    return face_id


def _write_whole(path: Path, cutout: np.ndarray) -> None:
    """Store ``cutout`` as the PNG ``path`` whole or not at all: written beside it under another
    name, flushed to the card, then renamed over it. A plug pulled while a face is taught at the
    table leaves no cut-short picture, which would stop every later reader from loading the deck
    ("taught picture ... is damaged"); a ``.part`` file is never read as a picture."""
    done, encoded = cv2.imencode(".png", cutout)
    part = path.with_name(path.name + ".part")
    try:
        if not done:
            raise OSError("the picture could not be encoded")
        with open(part, "wb") as out:
            out.write(encoded.tobytes())
            out.flush()
            os.fsync(out.fileno())
        share(part)
        os.replace(part, path)
    except OSError as error:
        part.unlink(missing_ok=True)
        reason = error.strerror or str(error)
        raise UserError(
            f"cannot write {path} ({reason}): check the store folder's space and permissions"
        ) from None


def load_picture(path: Path) -> np.ndarray:
    """A taught picture as stored (BGR, portrait); one clear line when it is damaged."""
    from vision.image_files import read_image

    try:
        card = read_image(path)
    except UserError:
        card = None
    if card is None or card.shape[0] < card.shape[1]:
        raise UserError(f"taught picture {path} is damaged: delete it or teach that card again")
    return card


def taught_pictures(folder: Path) -> dict[str, list[Path]]:
    """Face id -> the pictures stored in a game's ``folder``, in face id order (nothing read)."""
    found: dict[str, list[Path]] = {}
    if not folder.is_dir():
        return found
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and not entry.name.startswith("."):
            files = sorted(entry.glob("*.png"), key=lambda p: (len(p.stem), p.stem))
            if files:
                found.setdefault(entry.name, []).extend(files)
        elif entry.suffix == ".png":
            found.setdefault(entry.stem, []).append(entry)  # the older flat layout
    return found


def set_aside_pictures(folder: Path) -> dict[str, list[Path]]:
    """Face id -> its pictures set aside as damaged (``N.png.damaged``) in a game's ``folder``:
    kept until the face is forgotten, so that the host is told which faces to teach again."""
    found: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*/*.png.damaged")) if folder.is_dir() else []:
        found.setdefault(path.parent.name, []).append(path)
    return found


class EnrolledDeck:
    """The taught faces of one game: the pictures on disk and a matcher built from them."""

    def __init__(self, game_id: str, store: Path | None = None, skip_damaged: bool = False) -> None:
        """Load the pictures taught for ``game_id`` from ``store``. A damaged picture is one clear
        error, or with ``skip_damaged`` (the daemon's camera: the game goes on) set aside as
        ``N.png.damaged`` and listed in :attr:`damaged`."""
        self.game_id = game_id
        self.folder = (store or default_store()) / game_id
        self.matcher = FaceMatcher()
        #: The second stage, for cards the thumbnails cannot decide (and parts of cards).
        self.features = FeatureMatcher()
        #: The comparison of a covered card's visible part (:meth:`identify_covered`).
        self.parts = PartMatcher()
        #: The look-alike guard of a whole card named by the stages above (its corner index).
        self.corners = CornerIndex()
        self._vouched: dict[int, tuple[FoundFace, bool]] = {}
        #: Face id -> the rim's paper share of each of its pictures (whether the deck is printed
        #: on paper: :func:`vision.die_cut_reading.prints_off_paper`).
        self.rim_papers: dict[str, list[float]] = {}
        #: Pictures left out as damaged (``skip_damaged``).
        self.damaged: list[Path] = []
        for face_id, paths in self.pictures().items():
            for path in paths:
                try:
                    card = load_picture(path)
                except UserError:
                    if not skip_damaged:
                        raise
                    # Set aside (kept, as a damaged journal is) so that the face can be taught
                    # again and the next start does not stumble on it.
                    with contextlib.suppress(OSError):
                        path.rename(path.with_name(path.name + ".damaged"))
                    self.damaged.append(path)
                    continue
                self.matcher.add(face_id, card)
                self.parts.add(face_id, card)
                self.corners.add(face_id, card)
                self.rim_papers.setdefault(face_id, []).append(rim_paper(card))
                self.features.add(face_id, card, features_file(path))

    @property
    def references(self) -> list[str]:
        """The face id of every taught picture (one entry per picture)."""
        return list(self.matcher.ids)

    def pictures(self) -> dict[str, list[Path]]:
        """Face id -> its stored pictures, in face id order."""
        return taught_pictures(self.folder)

    def keep(self, face_id: str, cutout: np.ndarray) -> Path:
        """File one cut-out (from :func:`capture_card`) under ``face_id``; its path."""
        folder = self.folder / _valid_face_id(face_id)
        make_folder(folder)
        taken = {p.stem for p in folder.glob("*.png")}
        number = 1
        while str(number) in taken:
            number += 1
        path = folder / f"{number}.png"
        _write_whole(path, cutout)
        self.matcher.add(face_id, cutout)
        self.parts.add(face_id, cutout)
        self.corners.add(face_id, cutout)
        self.rim_papers.setdefault(face_id, []).append(rim_paper(cutout))
        self.features.add(face_id, cutout, features_file(path))
        self.features.describe()
        return path

    def enroll(self, face_id: str, image: np.ndarray) -> Path:
        """Capture the single card in a whole photo and keep it under ``face_id``."""
        return self.keep(face_id, capture_card(image).cutout)

    def forget(self, face_id: str | None = None) -> int:
        """Remove the pictures of ``face_id`` (None: every face of this game); how many."""
        pictures = self.pictures()
        chosen = sorted({*pictures, *set_aside_pictures(self.folder)}) if face_id is None else [face_id]
        removed = 0
        for one in chosen:
            for path in pictures.get(one, []):
                try:
                    path.unlink(missing_ok=True)
                    features_file(path).unlink(missing_ok=True)
                except OSError as error:
                    raise UserError(
                        f"cannot remove {path} ({error.strerror or error}): check the store's "
                        f"permissions (on the Pi: {JOIN_THE_GROUP})"
                    ) from None
                removed += 1
            folder = self.folder / _valid_face_id(one)
            if folder.is_dir():
                shutil.rmtree(folder, ignore_errors=True)
            self.matcher.remove(one)
            self.parts.remove(one)
            self.corners.remove(one)
            self.rim_papers.pop(one, None)
            self.features.remove(one)
        return removed

    def look_alikes(self, face_id: str, cutout: np.ndarray) -> list[tuple[str, float]]:
        """Other taught faces the camera would take ``cutout`` (a new picture of ``face_id``)
        for: by its thumbnail, or by its features with ``face_id``'s own pictures left out."""
        found = dict(self.matcher.look_alikes(face_id, cutout))
        view = cv2.resize(cutout, (FEATURE_W, FEATURE_H), interpolation=cv2.INTER_AREA)
        by_features = self.features.match(view, whole=True, without=face_id)
        if by_features.card_id is not None:
            found[by_features.card_id] = max(found.get(by_features.card_id, 0.0), by_features.score)
        return sorted(found.items(), key=lambda item: -item[1])

    def identify(
        self,
        image: np.ndarray,
        quad: np.ndarray,
        whole: bool = True,
        thorough: bool = True,
        cut: bool = False,
        size: tuple[float, float] | None = None,
    ) -> Match:
        """Which taught face lies inside ``quad`` (TL TR BR BL) of ``image``; ``card_id`` None
        when unsure. ``whole`` False: ``quad`` is only the visible part of a card (covered, or
        cut by the frame's edge).

        A cascade: the thumbnails decide a whole card when they are decisive (fast); anything
        else goes to local features with a geometric check and an aligned comparison, unless
        not ``thorough``: then the answer is unidentified with ``method`` ``PENDING`` (to be
        identified in full later, e.g. once the card lies still). ``cut``: an outline reaching the
        frame's border that neither stage names is completed to the card it may be part of
        (:meth:`identify_cut`; ``size``: a whole card's short and long side in this view, which
        completes a card with only a corner in view). A whole card no stage names whose thumbnail
        was refused by its blocks alone is compared once more lined up
        (:meth:`vision.face_match.FaceMatcher.lined_up`).
        """
        ordered = order_quad(quad)
        if whole:
            card = rectify(image, ordered)
            quick = self.matcher.match(card)
            if quick.shared:
                quick = self._told_by_index(image, ordered, quick)
            if quick.card_id is not None:
                if self._shows(image, ordered, quick.card_id):
                    return quick
                # Its corner index is not the named face's: a look-alike, or the outline off
                # the card (the features place the card by its own corners).
                quick = dataclasses.replace(quick, card_id=None)
            if not thorough:
                return dataclasses.replace(quick, method=PENDING)
            view = rectify(image, ordered, (FEATURE_W, FEATURE_H))
        else:
            quick = Match(None, 0.0, 0.0, float("inf"))
            if not thorough:
                return dataclasses.replace(quick, method=PENDING)
            view = part_view(image, ordered)
        found = self.features.match(view, whole)
        # The card's own corners, back in the image: the outline may have taken in more, or
        # (a part) less.
        corners = None if found.card_in_view is None else _in_image(found.card_in_view, view.shape, ordered)
        if found.shared and corners is not None:
            # Faces of one art line up alike: the one whose corner index the card shows names it,
            # as the thumbnails' shared faces are told apart (:meth:`_told_by_index`).
            found = dataclasses.replace(found, card_id=self.index_among(image, corners, found.shared, []))
        if found.card_id is None:
            if cut and is_cut(ordered, image.shape):
                named = self.identify_cut(image, ordered, size)
                if named.card_id is not None:
                    return named
            # Last, the thumbnail lined up (an outline a pixel off): after the features, whose
            # answer places the card by its own corners (the outline may be more than a pixel off).
            if not whole:
                return quick
            lined = self.matcher.lined_up(card, quick)
            if lined.card_id is not None and not self._shows(image, ordered, lined.card_id):
                return quick
            return lined
        if whole and not self._shows(image, ordered if corners is None else corners, found.card_id):
            return quick
        if not whole and corners is not None and not self.shows_index(image, corners, found.card_id, []):
            # A part named by its features: a corner index in view must be the named face's
            # (other-decks seed 0: a full-bleed 4 cut by the frame's edge named as its taught 2).
            return quick
        return Match(found.card_id, found.score, 0.0, found.block, found.best_id, "features", corners)

    def _told_by_index(self, image: np.ndarray, quad: np.ndarray, quick: Match) -> Match:
        """``quick`` (a whole card's thumbnail answer, unnamed because taught faces share its
        art: :attr:`vision.face_match.Match.shared`) named as the one of those faces whose corner
        index it shows (:meth:`_shows`: within the limit and decisively nearer than every
        other taught face's), else as it is. Two faces of one art differ by their number; the
        thumbnail is too coarse to read it, the corner index reads nothing else (other-decks
        dark, seeds 0-2: right cards 0.10-0.27 from their own index, 1.3-4 times nearer than
        the sibling's). The caller checks the index again, as for any card named."""
        told = [face for face in quick.shared if self._shows(image, quad, face)]
        if len(told) != 1:
            return quick
        return dataclasses.replace(quick, card_id=told[0], best_id=told[0])

    def vouches(self, image: np.ndarray, face: FoundFace, lying: list[np.ndarray]) -> bool:
        """Whether a card the face search found (:mod:`vision.face_search`) shows its face's
        corner index in the corner zones in view, off the cards ``lying`` about it (``face``
        itself may be among them): :meth:`shows_index`. A card found before and still lying
        there (the same ``face``) is not checked again."""
        known = self._vouched.get(id(face))
        if known is not None and known[0] is face:
            return known[1]
        others = [quad for quad in lying if quad is not face.corners]
        # Faces of one art (``face.shared``): its own must be the one index in view among them.
        faces = face.shared or (face.card_id,)
        verdict = self.index_among(image, face.corners, faces, others) == face.card_id
        if verdict:
            view, mask = covered_view(image, face.corners, face.visible)
            if mask.mean() < STRIP_SHARE:
                # A strip: named by its index, as a card named from its strip is
                # (vision.part_match), its rank alone agreeing where that shows.
                rank = self.parts.rank_score(view, mask, face.card_id)
                verdict = rank is None or rank >= INDEX_ACCEPT
        if len(self._vouched) >= VOUCHED_KEPT:
            self._vouched.clear()
        self._vouched[id(face)] = (face, verdict)  # kept with its face: the id is not reused meanwhile
        return verdict

    def index_among(
        self, image: np.ndarray, corners: np.ndarray, faces: tuple[str, ...], lying: list[np.ndarray]
    ) -> str | None:
        """The one of ``faces`` (taught faces of one art) whose corner index the card at
        ``corners`` shows (:meth:`shows_index`); None when none or several do."""
        told = [face for face in faces if self.shows_index(image, corners, face, lying)]
        return told[0] if len(told) == 1 else None

    def shows_index(
        self, image: np.ndarray, corners: np.ndarray, face_id: str, lying: list[np.ndarray]
    ) -> bool:
        """Whether the card at ``corners`` (image px) shows ``face_id``'s corner index in a corner
        zone in view (inside the image, off the cards ``lying`` over or beside it): within
        ``MAX_DIFFERENCE`` when both zones show, within ``PART_DIFFERENCE`` when one does, and
        in either case nearer to it than to any other taught face's
        (:meth:`vision.corner_index.CornerIndex.shows`). True when neither shows: the stages'
        own checks decide (a part without an index is never named by its look-alike's print)."""
        shown = indices_in_view(corners, image.shape, lying)
        if not any(shown):
            return True
        limit = MAX_DIFFERENCE if all(shown) else PART_DIFFERENCE
        return self._shows(image, corners, face_id, shown, limit)

    def _shows(
        self,
        image: np.ndarray,
        corners: np.ndarray,
        face_id: str,
        shown: tuple[bool, bool] = (True, True),
        limit: float = MAX_DIFFERENCE,
    ) -> bool:
        """:meth:`vision.corner_index.CornerIndex.shows`, told apart from the other taught
        faces' indices on a deck printed off paper (:func:`prints_off_paper`): there the index
        lies on a disc or a field of art whose edge, not the print, sets the zone's contrast,
        and a never-taught sibling's print differs by no more than right cards may (other-decks
        full-bleed 4s at 0.19-0.27). On paper the limit holds alone (pinochle: right cards at
        most 0.256, look-alikes from 0.282), and two ranks' indices at 40-60 px a card differ
        from a card about alike: weighing the rivals there lost right reads (realcards
        held-out 84 -> 83, 0.6x copies 250 -> 247, 2.5x 256 -> 255; a rival rank 1.0-1.2 times
        as far)."""
        rivals = prints_off_paper(self)
        return self.corners.shows(image, corners, face_id, shown, limit, rivals)

    def identify_cut(
        self, image: np.ndarray, quad: np.ndarray, size: tuple[float, float] | None = None
    ) -> Match:
        """Which taught face a card cut by the frame's edge is, from its part in view; ``card_id``
        None when unsure (``method`` ``CUT``; ``corners`` the whole card, partly outside the
        image, when named).

        ``quad`` is its outline (image px): the part in view, or a card reaching past the
        border. Each whole card it may be part of (:func:`vision.frame_cut.completed_cards`) is
        compared by what shows of it (:meth:`identify_covered`: a corner index must show); it
        is named only when one completion names it and none names another face (a side in view
        taken for the card's long side when it is its short one puts the index elsewhere).
        ``size``: a whole card's short and long side in this view (a corner alone in view).
        """
        named: list[tuple[Match, np.ndarray]] = []
        for card in completed_cards(quad, image.shape, size):
            shown = part_in_view(card, image.shape)
            if shown is None:
                continue
            if cv2.contourArea(shown) >= WHOLE_IN_VIEW * cv2.contourArea(np.asarray(card, np.float32)):
                # All but a corner's tip in view (a corner on the border): a whole card.
                match = self.identify(image, card, whole=True, thorough=True)
            else:
                match = self.identify_covered(image, card, shown)
            if match.card_id is not None:
                named.append((match, card))
        if not named or len({match.card_id for match, _card in named}) > 1:
            return Match(None, 0.0, 0.0, float("inf"), method=CUT)
        match, card = max(named, key=lambda item: item[0].score)
        # Placed by the features, the card lies at its own corners: the completion may have taken
        # in more (an outline past the border that took in the paper beside the card).
        return dataclasses.replace(
            match, method=CUT, corners=order_quad(card) if match.corners is None else match.corners
        )

    def identify_covered(self, image: np.ndarray, card: np.ndarray, visible: np.ndarray) -> Match:
        """Which taught face a card lies beneath another is, from the part of it that shows;
        ``card_id`` None when unsure (``method`` ``covered``).

        ``card`` holds the whole card's four corners (image px, any order: extrapolated from
        what shows, a few % of the card's size off at most), ``visible`` the polygon (image px)
        of the part that shows. Only the pixels that show are compared with the taught
        pictures (:class:`vision.part_match.PartMatcher`): a strip with a corner index can be
        named, blank paper never is.
        """
        view, mask = covered_view(image, card, visible)
        return self.parts.match(view, mask)


def covered_view(image: np.ndarray, card: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The whole card (``card``'s corners, any order) rectified upright at the part
    comparison's fine size, and the 0/1 mask of ``visible`` (image px) on it
    (:func:`vision.part_match.part_mask`)."""
    ordered = order_quad(card)
    view = rectify(image, ordered, (FINE_W, FINE_H))
    target = np.float32([[0, 0], [FINE_W - 1, 0], [FINE_W - 1, FINE_H - 1], [0, FINE_H - 1]])
    to_card = cv2.getPerspectiveTransform(ordered, target)
    shown = cv2.perspectiveTransform(np.asarray(visible, np.float32).reshape(-1, 1, 2), to_card)
    return view, part_mask(shown.reshape(-1, 2))


def _in_image(card_in_view: np.ndarray, view_shape: tuple[int, ...], quad: np.ndarray) -> np.ndarray:
    """Where a card's corners found in a view rectified from ``quad`` (TL TR BR BL, image px)
    lie in the image, ordered."""
    h, w = view_shape[:2]
    to_view = cv2.getPerspectiveTransform(quad, np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]))
    back = cv2.perspectiveTransform(card_in_view.reshape(-1, 1, 2).astype(np.float32), np.linalg.inv(to_view))
    return order_quad(back.reshape(4, 2))


def features_file(picture: Path) -> Path:
    """Where a taught picture's keypoints are kept (computed once, the first time needed)."""
    return picture.with_suffix(".features.npz")


def part_view(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The visible part of a card (``quad``, TL TR BR BL) straightened at its own size in the
    image, at most the feature scale's long side (a part is never enlarged)."""
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    scale = min(1.0, FEATURE_H / max(width, height, 1.0))
    size = (max(8, round(width * scale)), max(8, round(height * scale)))
    return rectify(image, quad, size)
