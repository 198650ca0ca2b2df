"""The simulated camera: printed cards (and the mat) on a table, seen from above.

Deterministic by seed. Each table draws a scene style once (table texture, camera tilt up to
35 degrees and direction, rotation, distance giving cards 90-170 px wide, warm or cold light,
shadows, glare, hands) and each :meth:`SimulatedTable.frame` adds fresh sensor noise, so
consecutive frames differ as a real camera's do. It is also a :class:`~vision.camera.FrameSource`
(``read()``), so the daemon's demo runs the whole stack on it.

>>> table = SimulatedTable("bandit", seed=3)
>>> table.place("r0c0", "cherry"); table.frame().shape
(720, 1280, 3)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.errors import UserError
from vision.cardart import render_side
from vision.layout import CARD_H_MM, CARD_W_MM, card_corners_mm, marker_corners_mm, transform
from vision.markers import MarkerMap, PrintedSide
from vision.mats import MatLayout, mat_layout, render_mat

FRAME_W, FRAME_H = 1280, 720
#: Resolution the card art is warped from (cards are at most ~170 px wide in a frame).
SIM_PX_PER_MM = 4


@dataclass
class Placed:
    """One card lying on the simulated table (world mm) and where it shows in the last frame."""

    printed: PrintedSide
    centre: tuple[float, float]
    angle: float
    zone: str | None
    corners: np.ndarray = field(default_factory=lambda: np.zeros((4, 2), np.float32))
    hidden_markers: int = 0
    #: Other art than our printed card (a publisher's card): BGR, portrait, 63:88.
    art: np.ndarray | None = None


@dataclass(frozen=True)
class Style:
    """Everything about a scene's look that stays the same from frame to frame."""

    card_px: float
    tilt_deg: float
    tilt_axis: float
    rotation: float
    tint: tuple[float, float, float]
    brightness: float
    gradient: float
    blur: float
    noise: float
    glare: int
    shadows: int
    hands: int
    table: str


def random_style(
    rng: np.random.Generator,
    card_px: tuple[float, float] = (90, 170),
    tilt_max: float = 35.0,
    upright: float | None = None,
) -> Style:
    """A scene style drawn from the ranges the reader must cope with.

    ``upright``: lay the scene near this rotation (or that plus 180 degrees), give or take 8
    degrees, as a mat is laid square to the camera; None means any rotation.
    """
    rotation = float(rng.uniform(0, 2 * math.pi))
    if upright is not None:
        rotation = upright + math.pi * int(rng.integers(2)) + math.radians(float(rng.uniform(-8, 8)))
    tints = [(1.0, 1.0, 1.0), (0.78, 0.92, 1.12), (1.1, 1.0, 0.85), (0.85, 0.95, 1.05), (1.15, 1.02, 0.8)]
    return Style(
        card_px=float(rng.uniform(*card_px)),
        tilt_deg=float(rng.uniform(0, tilt_max)),
        tilt_axis=float(rng.uniform(0, 2 * math.pi)),
        rotation=rotation,
        tint=tints[int(rng.integers(len(tints)))],
        brightness=float(rng.uniform(0.55, 1.15)),
        gradient=float(rng.uniform(0.0, 0.45)),
        blur=float(rng.choice([0.0, 0.0, 0.6, 1.0, 1.4])),
        noise=float(rng.uniform(1.0, 7.0)),
        glare=int(rng.integers(0, 3)),
        shadows=int(rng.integers(0, 3)),
        hands=int(rng.integers(0, 3)),
        table=str(rng.choice(["wood", "felt", "dark", "light", "cloth"])),
    )


def _table_texture(rng: np.random.Generator, kind: str) -> np.ndarray:
    h, w = FRAME_H, FRAME_W
    if kind == "wood":
        base = np.array(rng.uniform([40, 80, 120], [80, 130, 190]), np.float32)
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin(y / rng.uniform(3, 9) + 3 * np.sin(x / rng.uniform(80, 200))) * 0.12 + 1.0
        texture = grain[:, :, None] * base[None, None, :]
    elif kind == "cloth":
        a = np.array(rng.uniform(60, 220, 3), np.float32)
        b = np.array(rng.uniform(60, 220, 3), np.float32)
        step = int(rng.integers(18, 48))
        yy, xx = np.mgrid[0:h, 0:w]
        checks = ((yy // step + xx // step) % 2).astype(np.float32)[:, :, None]
        texture = checks * a + (1 - checks) * b
    else:
        levels = {"felt": (30, 140), "dark": (15, 60), "light": (170, 215)}[kind]
        colour = np.array(rng.uniform(*levels, 3), np.float32)
        texture = np.broadcast_to(colour, (h, w, 3)).astype(np.float32)
    speckle = rng.normal(0, 6, (h // 4, w // 4, 1)).astype(np.float32)
    texture = texture + cv2.resize(speckle, (w, h))[:, :, None]
    return np.clip(texture, 0, 255).astype(np.uint8)


def camera_homography(style: Style, centre_mm: tuple[float, float]) -> np.ndarray:
    """World mm on the table -> image px: a pinhole 700 mm above, tilted by ``style.tilt_deg``."""
    px_per_mm = style.card_px / CARD_W_MM
    distance = 700.0
    focal = px_per_mm * distance
    c, s = math.cos(style.rotation), math.sin(style.rotation)
    spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    axis = np.array([math.cos(style.tilt_axis), math.sin(style.tilt_axis), 0.0])
    tilt, _ = cv2.Rodrigues(axis * math.radians(style.tilt_deg))
    rotation = tilt @ spin
    shift = np.array([[1, 0, -centre_mm[0]], [0, 1, -centre_mm[1]], [0, 0, 1]])
    k = np.array([[focal, 0, FRAME_W / 2], [0, focal, FRAME_H / 2], [0, 0, 1]])
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, distance]])
    homography = k @ extrinsic @ shift
    return homography / homography[2, 2]


class SimulatedTable:
    """A table with printed cards of ``game_id`` (on the game's mat when ``mat``), as a camera sees it.

    ``place(zone, card_id)`` lays a card in a zone (``None`` clears it); ``place_at`` lays one
    anywhere (world mm). ``frame()`` renders; ``read()`` is the FrameSource form of it.

    ``taught`` lays a group's own deck instead of our printed cards: card id -> pictures of that
    card (BGR, portrait, e.g. the taught-face store's cut-outs, see :mod:`vision.taught_art`);
    each card laid shows one of its pictures; card ids without any are printed as usual.
    """

    def __init__(
        self,
        game_id: str,
        seed: int = 0,
        mat: bool = True,
        style: Style | None = None,
        card_px: tuple[float, float] = (90, 170),
        tilt_max: float = 35.0,
        taught: Mapping[str, Sequence[np.ndarray]] | None = None,
    ) -> None:
        self.game_id = game_id
        self.taught = {card: list(pictures) for card, pictures in (taught or {}).items() if pictures}
        self.seed = seed
        self.use_mat = mat
        self._rng = np.random.default_rng(seed)
        self._markers = MarkerMap.for_game(game_id)
        self.layout: MatLayout | None = None
        try:
            self.layout = mat_layout(game_id)
        except UserError:
            if mat:
                raise
        if style is None:
            upright = None
            if mat and self.layout is not None:
                # The whole mat must be in view: cap the card size by the mat's size, and lay the
                # mat's long side along the frame's long side.
                long_mm, short_mm = (
                    max(self.layout.width, self.layout.height),
                    min(self.layout.width, self.layout.height),
                )
                fit = min(FRAME_W * 0.88 / long_mm, FRAME_H * 0.88 / short_mm) * CARD_W_MM
                fit *= 1.0 - 0.12 * tilt_max / 35.0
                card_px = (min(card_px[0], fit), min(card_px[1], fit))
                upright = math.pi / 2 if self.layout.height > self.layout.width else 0.0
            style = random_style(self._rng, card_px, tilt_max, upright)
        self.style = style
        self.cards: dict[str, Placed] = {}
        self.loose: list[Placed] = []
        #: The table point under the middle of the frame (world mm).
        self.centre = (self.layout.width / 2, self.layout.height / 2) if self.layout else (150.0, 100.0)
        self.homography = camera_homography(style, self.centre)
        self._texture = _table_texture(self._rng, style.table)
        self._effects_seed = int(self._rng.integers(1 << 30))
        self._frames = 0
        self._closed = False
        #: The last frame's small copy for the outline search (see ``read``).
        self.work: np.ndarray | None = None
        self._base: np.ndarray | None = None
        self._base_key: tuple[object, ...] = ()

    # --- the scene ------------------------------------------------------------------------

    def printed(self, card_id: str) -> PrintedSide:
        """The printed side called ``card_id`` (a front's face id, or a back such as 'apple/cherry')."""
        fronts = [s for s in self._markers.sides.values() if s.card_id == card_id]
        if not fronts:
            raise UserError(f"{self.game_id} has no card '{card_id}'")
        return sorted(fronts, key=lambda s: s.side != "front")[0]

    def _art(self, card_id: str) -> np.ndarray | None:
        """One of the taught pictures of ``card_id`` (None: lay our printed card)."""
        pictures = self.taught.get(card_id)
        if not pictures:
            return None
        return pictures[int(self._rng.integers(len(pictures)))] if len(pictures) > 1 else pictures[0]

    def place(self, zone: str, card_id: str | None) -> None:
        """Lay ``card_id`` in ``zone`` (slightly off-centre and askew, as hands do); None clears it."""
        if card_id is None:
            self.cards.pop(zone, None)
            return
        if self.layout is None:
            raise UserError(f"{self.game_id} has no zones")
        spot = self.layout.zone(zone)
        jitter = self._rng.uniform(-3.5, 3.5, 2)
        angle = float(self._rng.uniform(-8, 8) + (180 if self._rng.random() < 0.5 else 0))
        if spot.multi:
            raise UserError(f"zone '{zone}' holds a row of cards: use place_row")
        centre = (spot.x + spot.w / 2 + jitter[0], spot.y + spot.h / 2 + jitter[1])
        self.cards[zone] = Placed(self.printed(card_id), centre, angle, zone, art=self._art(card_id))

    def place_row(self, zone: str, card_ids: list[str]) -> None:
        """Lay a row of cards side by side in a multi-card zone (Thanks a Lottery's block rows)."""
        if self.layout is None:
            raise UserError(f"{self.game_id} has no zones")
        spot = self.layout.zone(zone)
        for key in [k for k in self.cards if k.startswith(zone + "#")]:
            del self.cards[key]
        for index, card_id in enumerate(card_ids):
            x = spot.x + 6.0 + CARD_W_MM / 2 + index * (CARD_W_MM + 2.0) + float(self._rng.uniform(-1, 1))
            centre = (x, spot.y + spot.h / 2 + float(self._rng.uniform(-2, 2)))
            self.cards[f"{zone}#{index}"] = Placed(
                self.printed(card_id), centre, float(self._rng.uniform(-3, 3)), zone, art=self._art(card_id)
            )

    def place_at(self, card_id: str, centre_mm: tuple[float, float], angle_deg: float) -> None:
        """Lay a card anywhere on the table (world mm; no zone)."""
        self.loose.append(Placed(self.printed(card_id), centre_mm, angle_deg, None, art=self._art(card_id)))

    def place_art(
        self, art: np.ndarray, centre_mm: tuple[float, float], angle_deg: float, label: str = "art"
    ) -> None:
        """Lay a card with any art (e.g. a publisher's card, BGR portrait image) on the table."""
        printed = PrintedSide(self.game_id, label, "front", ())
        self.loose.append(Placed(printed, centre_mm, angle_deg, None, art=art))

    def place_foreign(self, game_id: str, card_id: str, zone: str) -> None:
        """Lay another game's card in one of our zones (a card from the wrong box)."""
        other = SimulatedTable(game_id, seed=0, mat=False, style=self.style)
        printed = other.printed(card_id)
        spot = self.layout.zone(zone) if self.layout else None
        if spot is None:
            raise UserError(f"{self.game_id} has no zones")
        self.cards[zone] = Placed(printed, (spot.x + spot.w / 2, spot.y + spot.h / 2), 4.0, zone)

    def scatter(self, count: int) -> None:
        """Lay ``count`` random cards anywhere in view without overlaps (the no-mat case)."""
        sides = list(self._markers.sides.values())
        inverse = np.linalg.inv(self.homography)
        view = transform(
            inverse,
            np.array(
                [[90, 90], [FRAME_W - 90, 90], [FRAME_W - 90, FRAME_H - 90], [90, FRAME_H - 90]], np.float32
            ),
        )
        lo, hi = view.min(axis=0), view.max(axis=0)
        attempts = 0
        while len(self.loose) < count and attempts < 4000:
            attempts += 1
            centre = (float(self._rng.uniform(lo[0], hi[0])), float(self._rng.uniform(lo[1], hi[1])))
            if cv2.pointPolygonTest(view.reshape(-1, 1, 2), centre, True) < 60:
                continue
            if any(math.dist(centre, p.centre) < CARD_H_MM * 1.12 for p in self.loose):
                continue
            printed = sides[int(self._rng.integers(len(sides)))]
            self.loose.append(Placed(printed, centre, float(self._rng.uniform(0, 360)), None))

    def all_placed(self) -> list[Placed]:
        """Every card on the table."""
        return [*self.cards.values(), *self.loose]

    # --- rendering ------------------------------------------------------------------------

    def _card_to_world(self, placed: Placed) -> np.ndarray:
        a = math.radians(placed.angle)
        c, s = math.cos(a), math.sin(a)
        cx, cy = placed.centre
        return np.array(
            [
                [c, -s, cx - c * CARD_W_MM / 2 + s * CARD_H_MM / 2],
                [s, c, cy - s * CARD_W_MM / 2 - c * CARD_H_MM / 2],
                [0, 0, 1],
            ]
        )

    def frame(self) -> np.ndarray:
        """Render the table now: a BGR 1280x720 frame (fresh sensor noise each call).

        The lit, blurred scene is kept until a card moves, so a running camera costs only the
        noise per frame.
        """
        rng = np.random.default_rng([self._effects_seed, self._frames])
        self._frames += 1
        key = tuple((p.printed, p.centre, p.angle, id(p.art)) for p in self.all_placed())
        if key != self._base_key or self._base is None:
            self._base = self._render_base()
            self._base_key = key
        h, w = FRAME_H, FRAME_W
        noise = rng.normal(0, self.style.noise, (h // 2, w // 2, 1)).astype(np.float32)
        work = self._base + cv2.resize(noise, (w, h), interpolation=cv2.INTER_NEAREST)[:, :, None]
        np.clip(work, 0, 255, out=work)
        return work.astype(np.uint8)

    def _render_base(self) -> np.ndarray:
        """The scene without sensor noise: table, mat, cards, light, shadows, glare, hands, blur."""
        scene_rng = np.random.default_rng(self._effects_seed)
        image = self._texture.copy()
        self.occlusion = np.zeros((FRAME_H, FRAME_W), np.uint8)
        for placed in self.all_placed():
            placed.hidden_markers = 0
        if self.use_mat and self.layout is not None:
            ppm = 2.0
            mat = render_mat(self.layout, ppm)
            to_world = np.diag([1 / ppm, 1 / ppm, 1.0])
            cv2.warpPerspective(
                mat,
                self.homography @ to_world,
                (FRAME_W, FRAME_H),
                image,
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_TRANSPARENT,
            )
        for placed in self.all_placed():
            art = (
                placed.art
                if placed.art is not None
                else render_side(placed.printed.game, placed.printed, SIM_PX_PER_MM)
            )
            scale = art.shape[1] / CARD_W_MM
            to_world_card = np.diag([1 / scale, 1 / scale, 1.0])
            card_h = self.homography @ self._card_to_world(placed)
            placed.corners = transform(card_h, card_corners_mm())
            cv2.warpPerspective(
                art,
                card_h @ to_world_card,
                (FRAME_W, FRAME_H),
                image,
                flags=cv2.INTER_AREA if self.style.card_px < 200 else cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_TRANSPARENT,
            )
        return self._apply_light(image, scene_rng)

    def _marker_regions(self) -> list[tuple[Placed, list[np.ndarray]]]:
        out = []
        for placed in self.all_placed():
            card_h = self.homography @ self._card_to_world(placed)
            out.append((placed, [transform(card_h, m) for m in marker_corners_mm()]))
        return out

    def _apply_light(self, image: np.ndarray, scene_rng: np.random.Generator) -> np.ndarray:
        style = self.style
        h, w = image.shape[:2]
        work = image.astype(np.float32)
        # Light falls off across the table (a lamp to one side) and is warm or cold.
        angle = scene_rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
        ramp = (np.cos(angle) * (xx - w / 2) + np.sin(angle) * (yy - h / 2)) / (w / 2)
        gain = cv2.resize(style.brightness * (1.0 + style.gradient * ramp), (w, h))
        regions = self._marker_regions()
        # Shadows (a head, a lamp arm): soft dark blobs anywhere.
        for _ in range(style.shadows):
            mask = np.zeros((h // 8, w // 8), np.float32)
            centre = (int(scene_rng.integers(0, w // 8)), int(scene_rng.integers(0, h // 8)))
            axes = (int(scene_rng.integers(10, 40)), int(scene_rng.integers(6, 25)))
            cv2.ellipse(mask, centre, axes, float(scene_rng.uniform(0, 180)), 0, 360, 1.0, -1)
            mask = cv2.GaussianBlur(mask, (0, 0), 4)
            gain *= 1.0 - float(scene_rng.uniform(0.25, 0.5)) * cv2.resize(mask, (w, h))
        work *= gain[:, :, None] * np.array(style.tint, np.float32)[None, None, :]
        # Glare: a bright spot, placed over one marker of a card at most.
        for _ in range(style.glare):
            if not regions:
                break
            placed, markers = regions[int(scene_rng.integers(len(regions)))]
            if placed.hidden_markers:
                continue
            placed.hidden_markers += 1
            target = markers[int(scene_rng.integers(2))].mean(axis=0)
            mask = np.zeros((h, w), np.float32)
            radius = int(style.card_px * scene_rng.uniform(0.12, 0.3))
            cv2.circle(mask, (int(target[0]), int(target[1])), radius, 1.0, -1)
            mask = cv2.GaussianBlur(mask, (0, 0), radius * 0.5 + 1)
            strength = float(scene_rng.uniform(120, 260))
            work += mask[:, :, None] * strength
            self.occlusion[mask * strength > 60] = 255
        # Hands: a palm and fingers reaching in from outside, covering one corner of a card.
        for _ in range(style.hands):
            if not regions:
                break
            placed, markers = regions[int(scene_rng.integers(len(regions)))]
            if placed.hidden_markers:
                continue
            placed.hidden_markers += 1
            target = markers[int(scene_rng.integers(2))].mean(axis=0)
            self._draw_hand(work, target, scene_rng)
        if style.blur > 0:
            work = cv2.GaussianBlur(work, (0, 0), style.blur)
        return work

    def _draw_hand(self, work: np.ndarray, target: np.ndarray, rng: np.random.Generator) -> None:
        skin = np.array(
            rng.choice([[120, 150, 200], [80, 110, 160], [60, 80, 110], [150, 175, 215]]), np.float32
        )
        direction = rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(direction), math.sin(direction)])
        size = self.style.card_px
        tip = target + d * size * 0.02
        palm = tip + d * size * 0.9
        mask = np.zeros(work.shape[:2], np.uint8)
        cv2.ellipse(
            mask,
            (int(palm[0]), int(palm[1])),
            (int(size * 0.55), int(size * 0.45)),
            math.degrees(direction),
            0,
            360,
            255,
            -1,
        )
        normal = np.array([-d[1], d[0]])
        for offset in (-0.22, -0.07, 0.08):
            start = palm + normal * offset * size
            end = tip + normal * offset * size * 0.6
            cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 255, int(size * 0.13))
        self.occlusion |= mask
        soft = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[:, :, None] / 255.0
        shade = 0.85 + 0.15 * rng.random()
        work[:] = work * (1 - soft) + skin * shade * soft

    def readable(self) -> list[Placed]:
        """Cards of the last frame with at least one marker wholly in view and uncovered.

        The honest ground truth for recall: a card whose both markers are covered or out of
        view can at best be reported as an unidentified card.
        """
        out = []
        for placed, markers in self._marker_regions():
            if placed.art is not None:
                continue
            for quad in markers:
                if quad.min() < 1 or quad[:, 0].max() > FRAME_W - 2 or quad[:, 1].max() > FRAME_H - 2:
                    continue
                mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
                cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
                area = max(1, int(np.count_nonzero(mask)))
                if np.count_nonzero(mask & self.occlusion) <= 0.02 * area:
                    out.append(placed)
                    break
        return out

    # --- FrameSource ------------------------------------------------------------------------

    def read(self) -> np.ndarray | None:
        """The next frame (None once closed), its small copy in ``work`` as a Pi camera's
        second stream delivers it (see :mod:`vision.work_copy`)."""
        from vision.work_copy import reduced

        frame = None if self._closed else self.frame()
        self.work = None if frame is None else reduced(frame)
        return frame

    def close(self) -> None:
        """Stop producing frames."""
        self._closed = True
