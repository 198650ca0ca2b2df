"""The table view: header (game, bank), reels, the game's panel, players, the prompt line.

It answers at a glance: whose turn it is (the highlighted player), what to do now (the prompt
across the bottom, the alert above it when something needs fixing) and what the bank and every
score are.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pygame

from companion.screen import panels
from companion.screen import resources as res
from companion.screen import widgets as w
from companion.screen.views import PlayerLine, TableView


@dataclass(frozen=True)
class TableLayout:
    """The table's regions on the current canvas."""

    header: pygame.Rect
    main: pygame.Rect
    players: pygame.Rect
    controls: pygame.Rect
    prompt: pygame.Rect


def layout(frame: w.Frame) -> TableLayout:
    """Landscape: players in a right-hand column; portrait: players under the reels."""
    W, H = frame.width, frame.height
    pad = frame.px(1.6)
    if not frame.portrait:
        header_h = int(H * 0.115)
        prompt_h = int(H * 0.135)
        side_w = int(W * 0.27)
        header = pygame.Rect(0, 0, W, header_h)
        prompt = pygame.Rect(0, H - prompt_h, W, prompt_h)
        body_h = H - header_h - prompt_h
        controls_h = int(body_h * 0.24)  # room for three choices beside three players
        players = pygame.Rect(W - side_w - pad, header_h + pad, side_w, body_h - controls_h - 2 * pad)
        controls = pygame.Rect(players.x, players.bottom + pad // 2, side_w, controls_h)
        main = pygame.Rect(pad, header_h + pad, W - side_w - 3 * pad, body_h - 2 * pad)
    else:
        header_h = int(H * 0.075)
        prompt_h = int(H * 0.09)
        header = pygame.Rect(0, 0, W, header_h)
        prompt = pygame.Rect(0, H - prompt_h, W, prompt_h)
        body = pygame.Rect(pad, header_h + pad, W - 2 * pad, H - header_h - prompt_h - 2 * pad)
        main_h = int(body.height * 0.6)
        main = pygame.Rect(body.x, body.y, body.width, main_h)
        controls_h = int(body.height * 0.08)
        controls = pygame.Rect(body.x, body.bottom - controls_h, body.width, controls_h)
        players = pygame.Rect(body.x, main.bottom + pad, body.width, controls.y - main.bottom - 2 * pad)
    return TableLayout(header, main, players, controls, prompt)


class ResultGate:
    """Scores, the bank and the prompt as the table sees them: held while the reels spin (the
    daemon may already know the result; the screen must not tell before the reels do), then
    the scores roll up to their new values once the reels stop, like coins counted into a tray."""

    ROLL_TIME = 0.9  # seconds to count a change up (or down)

    def __init__(self) -> None:
        self.game: str | None = None
        self.shown: dict[int, float] = {}
        self.bank: str | None = None
        self.prompt = ""
        self.last = 0.0

    def update(self, view: TableView, spinning: bool, now: float) -> tuple[list[int], list[bool], TableView]:
        """The scores to draw, which of them are still rolling, and the view with the bank and
        prompt the table may see now."""
        if view.game_id != self.game or len(self.shown) > len(view.players):
            self.game, self.shown, self.bank, self.prompt = view.game_id, {}, view.bank, view.prompt
        dt = max(0.0, min(0.25, now - self.last))
        self.last = now
        scores, rolling = [], []
        for i, player in enumerate(view.players):
            shown = self.shown.setdefault(i, float(player.score))
            if not spinning and shown != player.score:
                diff = player.score - shown
                step = max(abs(diff) * dt / self.ROLL_TIME * 3.0, 12.0 * dt)
                shown = float(player.score) if abs(diff) <= step else shown + step * (1 if diff > 0 else -1)
                self.shown[i] = shown
            scores.append(int(round(shown)))
            rolling.append(not spinning and shown != player.score)  # no hint while the reels turn
        if not spinning:
            self.bank, self.prompt = view.bank, view.prompt
        return scores, rolling, dataclasses.replace(view, bank=self.bank, prompt=self.prompt)


def draw_table(frame: w.Frame, view: TableView) -> bool:
    """Draw one frame of the table view; True while something in it moves by itself (reels, a
    win's coins, scores rolling, a shaken box), False when only the slow blinks would change."""
    w.backdrop(frame)
    lay = layout(frame)
    frame.reels.observe(view.game_id, view.reels, frame.now)
    gate = frame.memory.setdefault("result-gate", ResultGate())
    scores, rolling, view = gate.update(view, frame.reels.spinning(frame.now), frame.now)
    players = tuple(
        PlayerLine(p.name, s, p.active, p.note) for p, s in zip(view.players, scores, strict=True)
    )
    view = dataclasses.replace(view, players=players)
    panels.draw_main(frame, view, lay.main)
    _header(frame, view, lay.header)
    _players(frame, view.players, lay.players, rolling)
    _controls(frame, view, lay.controls)
    _prompt(frame, view, lay.prompt)
    if view.alert:
        band = pygame.Rect(
            0, lay.prompt.y - int(lay.prompt.height * 0.9), frame.width, int(lay.prompt.height * 0.9)
        )
        _alert(frame, view.alert, band)
    frame.reels.draw_effects(frame.surface, view.reels, frame.now)
    boxes = getattr(view.panel, "boxes", ()) or ()
    return (frame.reels.animating(frame.now, view.reels) or any(rolling)
            or any(getattr(box, "shaking", False) for box in boxes))


def _header(frame: w.Frame, view: TableView, rect: pygame.Rect) -> None:
    pygame.draw.rect(frame.surface, (10, 8, 24), rect)
    pygame.draw.line(frame.surface, res.GOLD, rect.bottomleft, rect.bottomright, max(1, frame.px(0.4)))
    size = rect.height / frame.u * 0.62
    pad = frame.px(2)
    bank_rect = pygame.Rect(rect.right, rect.y, 0, rect.height)
    if view.bank:
        bank_rect = w.text(
            frame,
            view.bank,
            size,
            (rect.right - pad, rect.centery),
            res.GOLD,
            "midright",
            max_width=rect.width // 2,
        )
    room = bank_rect.x - rect.x - 3 * pad
    title_rect = w.text(
        frame, view.title, size, (rect.x + pad, rect.centery), res.TEXT, "midleft", max_width=max(20, room)
    )
    if view.status and bank_rect.x - title_rect.right > frame.px(14):
        w.text(
            frame,
            view.status,
            size * 0.55,
            ((title_rect.right + bank_rect.x) // 2, rect.centery),
            res.DIM,
            "center",
            max_width=bank_rect.x - title_rect.right - 2 * pad,
        )


def player_cells(frame: w.Frame, players: tuple[PlayerLine, ...], rect: pygame.Rect) -> list[pygame.Rect]:
    """Where each player's row goes: one column in landscape, two columns in portrait."""
    gap = frame.px(1.2)
    if frame.portrait and len(players) > 2:
        cols = 2
        n_rows = (len(players) + 1) // 2
        halves = w.columns(rect, cols, gap)
        cells = []
        for i in range(len(players)):
            column = halves[i % cols]
            cells.append(w.rows(column, n_rows, gap, max_height=frame.px(22))[i // cols])
    else:
        cells = w.rows(rect, max(1, len(players)), gap, max_height=frame.px(22))
    return cells[: len(players)]


def _players(frame: w.Frame, players: tuple[PlayerLine, ...], rect: pygame.Rect, rolling: list[bool]) -> None:
    for player, cell, counting in zip(players, player_cells(frame, players, rect), rolling, strict=False):
        _player_row(frame, player, cell, counting)


def _player_row(frame: w.Frame, player: PlayerLine, cell: pygame.Rect, counting: bool = False) -> None:
    active = player.active
    fill = res.ACTIVE if active else res.PANEL
    ink = res.ACTIVE_TEXT if active else res.TEXT
    score_ink = (200, 30, 50) if counting and active else (res.GOLD if counting else ink)
    w.box(frame, cell, fill, None if active else res.PANEL_EDGE, radius=2.2)
    pad = frame.px(1.6)
    name_size = min(cell.height / frame.u * 0.42, 8.5)
    x = cell.x + pad
    if active:
        arrow = max(3, cell.height // 6)
        w.triangle(frame, (cell.x + pad + arrow // 2, cell.centery), arrow, res.ACTIVE_TEXT)
        x += arrow + pad
    score = w.text(
        frame, str(player.score), name_size * 1.25, (cell.right - pad, cell.centery), score_ink, "midright"
    )
    room = score.x - x - pad
    if player.note and cell.height > frame.px(13):
        w.text(frame, player.name, name_size, (x, cell.centery), ink, "bottomleft", max_width=room)
        note_ink = (90, 60, 20) if active else res.DIM
        w.text(
            frame,
            player.note,
            name_size * 0.62,
            (x, cell.centery + frame.px(0.6)),
            note_ink,
            "topleft",
            max_width=room,
            bold=False,
        )
    else:
        label = player.name if not player.note else f"{player.name} - {player.note}"
        w.text(frame, label, name_size, (x, cell.centery), ink, "midleft", max_width=room)


def _controls(frame: w.Frame, view: TableView, rect: pygame.Rect) -> None:
    """The buttons that mean something now, as glowing pills; they wrap onto further lines and
    shrink (down to a size still readable across a table) rather than drop a live control."""
    if not view.controls:
        return
    labels = [f"{_control_name(hint.control)} {hint.label}".strip() for hint in view.controls]
    size, placed = fit_pills(frame, labels, rect)
    glow = (255, 236, 150) if w.blink(frame.now, 0.8) else res.GOLD
    for label, centre in placed:
        w.pill(frame, label, centre, size, glow, res.ACTIVE_TEXT)


#: the smallest hint pill text (in layout units) that still reads from across a table
MIN_PILL_SIZE = 3.0


Pills = list[tuple[str, tuple[int, int]]]


def fit_pills(frame: w.Frame, labels: list[str], rect: pygame.Rect) -> tuple[float, Pills]:
    """The pill text size and the pills' centres: the largest size (up to 4.6) at which every
    label fits in ``rect``, else the smallest readable size and as many as fit there."""
    size = min(rect.height / frame.u * 0.3, 4.6)
    placed = _place_pills(frame, labels, rect, size)
    while len(placed) < len(labels) and size > MIN_PILL_SIZE:
        size = max(MIN_PILL_SIZE, size * 0.9)
        placed = _place_pills(frame, labels, rect, size)
    return size, placed


def _place_pills(
    frame: w.Frame, labels: list[str], rect: pygame.Rect, size: float
) -> Pills:
    """Where each pill's centre goes at ``size``, in order, as many as fit in ``rect``."""
    gap = frame.px(1)
    line_h = frame.px(size * 1.5)
    x, y = rect.x, rect.y + line_h // 2
    placed: Pills = []
    for label in labels:
        width = frame.res.text(label, max(w.MIN_TEXT_PX, frame.px(size)), res.ACTIVE_TEXT).get_width()
        width += frame.px(size * 0.9)
        if x + width > rect.right and x > rect.x:
            x, y = rect.x, y + line_h + gap
        if y + line_h // 2 > rect.bottom + gap:
            break
        placed.append((label, (x + width // 2, y)))
        x += width + gap
    return placed


def _control_name(control: str) -> str:
    names = {"lever": "LEVER", "collect": "COLLECT", "start": "START", "back": "BACK"}
    if control.startswith("hold"):
        return f"H{control[4:]}"
    return names.get(control, control.upper())


def _alert(frame: w.Frame, alert: str, rect: pygame.Rect) -> None:
    """A warning band above the prompt (camera unsure, a bad read): red, gently pulsing."""
    fill = res.ALERT if w.blink(frame.now, 1.0) else (170, 30, 40)
    pygame.draw.rect(frame.surface, fill, rect)
    size = rect.height / frame.u * 0.5
    w.text(frame, alert, size, rect.center, (255, 255, 255), "center", max_width=rect.width - frame.px(4))


def _prompt(frame: w.Frame, view: TableView, rect: pygame.Rect) -> None:
    pad = frame.px(2)
    pygame.draw.rect(frame.surface, (10, 8, 24), rect)
    pygame.draw.line(frame.surface, res.GOLD, rect.topleft, rect.topright, max(1, frame.px(0.4)))
    size = rect.height / frame.u * 0.52
    w.text(frame, view.prompt, size, rect.center, res.TEXT, "center", max_width=rect.width - 2 * pad)
