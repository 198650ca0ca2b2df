"""The camera's side of "Teach cards": the one card in view cut out for the screen.

Runs on the camera thread (:class:`~companion.daemon.camera.CameraWorker` with ``job=``): judging
a frame costs tens to hundreds of milliseconds the main loop must not wait for, and is done
once the scene stands still (see :func:`cut_out_job`). The screen gets a small copy of every
frame (``PREVIEW_WIDTH`` px wide) with the card's outline scaled to it, and the cut-out at the
taught-face store's size, from the full frame.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.flows.teach import TeachFlow, TeachFrame

#: Width of the camera picture sent to the screen (it is drawn at most about 480 px wide).
PREVIEW_WIDTH = 480
#: While the scene keeps changing, every this many frames is judged (looked for a card in).
JUDGE_EVERY = 4
#: While the scene stands still after a card was refused, every this many frames is judged
#: again (about a second at the camera's 15 fps): one frame's noise can refuse a card whose edge
#: barely stands out, and the next frames take it (the teaching tests' plum at one place: 1
#: frame of 60 refused). Kept for good, that refusal left the card uncaught until it was moved.
REJUDGE_REFUSED_EVERY = 15
#: The least share of the frame a card taught at the camera covers. A photo's is 1 %
#: (:data:`vision.card_capture.TEACH_MIN_AREA`); the companion's camera, 60-80 cm above the
#: table, sees a card 80-110 px wide at 1280x720, tilted less: 0.7-1.4 % (simulated tables with
#: cards 70-90 px wide: 9 of 30 taught at 1 %, 27 by the camera's own rule before).
CAMERA_LEAST_AREA = 0.007


def cut_out_job(game_id: str) -> Callable[[Any], TeachFrame]:
    """What the camera thread does with each frame while ``game_id``'s deck is taught: the one
    card in view cut out, printed or not, but never the play mat (a big light rectangle too).

    The card is chosen by the same rule as teaching from a photo
    (:func:`vision.enrolled.capture_card`): a part of a card, a book, a label or one card of
    several is refused, and the screen says why. On our play mat that rule's side checks fail
    (a zone's printed frame runs beside the card's edge; the whole mat in view, a card is
    smaller than a photo's) and its search for a card on a light table takes seconds over the
    zones' frame lines, so with the mat in view the mat decides: a card in a zone is placed by
    the reader's zone search (:class:`vision.mat_cards.MatZones`: its known size, the zone's
    frame line does not pull its edge off), a card elsewhere on the mat by its sure, whole
    outline (:func:`_cards_on_the_mat`: not one holding only the ground round it, an empty
    zone's printed frame), and it is taken when it is the one card in view. A card beside the
    mat is judged by the photo rule.
    """
    import cv2

    from companion.errors import UserError
    from vision.die_cut import NoCard
    from vision.enrolled import capture_card, cut_out
    from vision.frame_blocks import StillFrames, small_copy
    from vision.markers import all_mat_marker_ids
    from vision.mat_cards import MatZones, holds_the_ground
    from vision.reader import CardReader

    reader = CardReader(game_id)  # markers, and the game's mat placed by its corner markers
    zones = MatZones(reader.layout) if reader.layout is not None else None
    mat_ids = all_mat_marker_ids()
    still = StillFrames()
    kept: list[TeachFrame] = []  # the verdict on the scene as last judged, while it stands still
    shown = [JUDGE_EVERY - 1]  # frames only shown in a row, the scene changing (the first is judged)
    refused = [0]  # frames the kept verdict, a refusal, was shown again in a row

    def job(frame: Any) -> TeachFrame:
        colour = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        scale = min(1.0, PREVIEW_WIDTH / colour.shape[1])
        preview = cv2.resize(colour, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
        # Judging a frame costs 60-250 ms of CPU here (up to about 1 s on a Pi 4), which the
        # screen's thread would feel: a frame is judged once the scene stands still, and the
        # verdict kept while it does (a refusal is judged again every REJUDGE_REFUSED_EVERY
        # frames). A scene that keeps changing (a hand laying the card) is judged every
        # ``JUDGE_EVERY`` frames, so a camera whose picture never settles still catches a card.
        unchanged = still.unchanged(small_copy(grey))
        if unchanged and kept:
            refused[0] = refused[0] + 1 if kept[0].refusal else 0
            if refused[0] < REJUDGE_REFUSED_EVERY:
                return dataclasses.replace(kept[0], preview=preview)
        refused[0] = 0
        if not unchanged:
            kept.clear()
            shown[0] += 1
            if shown[0] < JUDGE_EVERY:
                return TeachFrame(preview, judged=False)
        shown[0] = 0
        kept[:] = [judge(colour, grey, preview, scale)]
        return kept[0]

    def judge(colour: Any, grey: Any, preview: Any, scale: float) -> TeachFrame:
        corners, ids = reader.find_markers(grey)
        mat = [c.reshape(-1, 2).mean(axis=0) for c, i in zip(corners, ids, strict=True) if i in mat_ids]
        mat_seen = len(mat) >= 3  # (a hand over one corner still leaves the mat placed)
        if mat_seen:
            found = _cards_on_the_mat(colour, mat)
            to_mat = reader.mat_homography(corners, ids)
            # A card in a zone, placed by its known size (the reader's zone search: a zone's
            # printed frame line does not pull its edge off); a sure outline round it is it.
            placed = [] if to_mat is None or zones is None else [o.quad for o in zones.find(colour, to_mat)]
            on = placed + [q for q in found if _centre_within(q, mat)
                           and not any(_holds_any(q, [z.mean(axis=0)]) for z in placed)]
            beside = [q for q in found if not _centre_within(q, mat)]
            count = len(on) + len(beside)
            if count == 0:
                return TeachFrame(preview)
            if count > 1:
                return TeachFrame(preview, refusal=f"{count} cards in view: show one card alone")
            if on:
                capture = cut_out(colour, on[0])
                return TeachFrame(preview, capture.quad * scale, capture.cutout)
            # One card beside the mat: the photo rule judges it.
        try:
            capture = capture_card(colour, "view", CAMERA_LEAST_AREA)
        except NoCard:
            return TeachFrame(preview)  # no card at all is no refusal: the table is clear
        except UserError as refusal:
            return TeachFrame(preview, refusal=str(refusal))
        # Not the mat itself (round its corner markers), nor an empty zone's printed frame.
        if _holds_any(capture.quad, mat) or (mat_seen and holds_the_ground(colour, capture.quad)):
            return TeachFrame(preview)
        return TeachFrame(preview, capture.quad * scale, capture.cutout)

    return job


def _cards_on_the_mat(colour: Any, mat: list[Any]) -> list[Any]:
    """The cards in view as seen on our play mat, whose corner markers are at ``mat`` (frame px):
    the thorough outline search's sure, whole outlines, the mat's own left out. The mat's ground
    is a mid-tone green that white paper and dark faces both step from
    (:data:`vision.mats.MAT_GROUND`): a card lying on it has such an outline."""
    from vision.card_outlines import find_card_candidates
    from vision.mat_cards import holds_the_ground

    found = [o.quad for o in find_card_candidates(colour, thorough=True) if o.sure and o.whole]
    return [quad for quad in found if not _holds_any(quad, mat) and not holds_the_ground(colour, quad)]


def _centre_within(quad: Any, points: list[Any]) -> bool:
    """Whether the centre of ``quad`` lies within the hull of ``points``."""
    import cv2
    import numpy as np

    hull = cv2.convexHull(np.asarray(points, np.float32).reshape(-1, 1, 2))
    x, y = np.asarray(quad, np.float64).mean(axis=0)
    return cv2.pointPolygonTest(hull, (float(x), float(y)), False) >= 0


def _holds_any(outline: Any, points: list[Any]) -> bool:
    """Whether any of ``points`` lies inside ``outline``."""
    import cv2
    import numpy as np

    polygon = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(polygon, (float(x), float(y)), False) >= 0 for x, y in points)


class TaughtDeck:
    """The taught-face store as the teach flow uses it: keep, list, and which other face the
    camera would take a new picture for.

    The warning is the reader's own decision (the picture, read against the other faces taught
    so far, would be named as one of them), not a resemblance score: cards printed on one template
    (same frame, same layout, another symbol) correlate highly yet are told apart, and a
    warning on nearly every face of such a deck would teach players to ignore it.
    """

    def __init__(self, deck: Any) -> None:
        self.deck = deck

    def keep(self, face_id: str, cutout: Any) -> Path:
        """File the picture under ``face_id``."""
        path: Path = self.deck.keep(face_id, cutout)
        return path

    def pictures(self) -> dict[str, list[Path]]:
        """Face id -> its stored pictures."""
        pictures: dict[str, list[Path]] = self.deck.pictures()
        return pictures

    def look_alikes(self, face_id: str, cutout: Any) -> list[tuple[str, float]]:
        """The other faces the camera would take ``cutout`` (a new picture of ``face_id``) for,
        best first: the same check as ``companion vision enroll``'s warning
        (:meth:`vision.enrolled.EnrolledDeck.look_alikes`)."""
        found: list[tuple[str, float]] = self.deck.look_alikes(face_id, cutout)
        return found


def open_teaching(game_id: str, store: Path | None = None) -> TeachFlow:
    """The teach flow of ``game_id`` over its teachable faces and its taught-face store
    (``store`` folder, default the state directory's); UserError for a game without cards. A
    damaged picture in the store is set aside and named on the teach screen, so that its face
    can be taught again from the buttons (refusing to open left the host nothing to do)."""
    from companion.engine import get_game
    from vision.enrolled import EnrolledDeck
    from vision.taught_store import set_aside_note
    from vision.teachable import teachable_faces

    title = get_game(game_id).title
    deck = EnrolledDeck(game_id, store, skip_damaged=True)  # a damaged picture: taught again here
    flow = TeachFlow(game_id, title, teachable_faces(game_id), TaughtDeck(deck))
    if deck.damaged:
        flow.alert = set_aside_note(deck.damaged)
    return flow
