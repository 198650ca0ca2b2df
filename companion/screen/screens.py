"""The screens other than the table: attract, game select, players, Mega Jackpot tile flip,
lottery draw, final scores (with a chart of each score over the game), menu, message."""

from __future__ import annotations

import math
from typing import Any

import pygame

from companion import art
from companion.screen import resources as res
from companion.screen import widgets as w
from companion.screen.link import draw_link
from companion.screen.reelmotion import ease_out_back
from companion.screen.reels import filler_symbol
from companion.screen.views import (
    AttractView,
    CameraView,
    FinalScoresView,
    GameSelectView,
    LotteryDrawView,
    MenuView,
    MessageView,
    PlayersView,
    TileFlipView,
)

FLIP_TIME = 0.9
DROP_TIME = 0.8


def _title(frame: w.Frame, title: str, color: res.RGB = res.GOLD) -> int:
    """A screen title across the top; returns the y below it."""
    size = 11.0 if not frame.portrait else 9.0
    rect = w.text(
        frame,
        title,
        size,
        (frame.width // 2, frame.px(3)),
        color,
        "midtop",
        max_width=frame.width - frame.px(6),
    )
    return rect.bottom + frame.px(2)


def _hint(frame: w.Frame, hint: str) -> int:
    """The hint line along the bottom; returns its top."""
    rect = w.text(
        frame,
        hint,
        5.2,
        (frame.width // 2, frame.height - frame.px(2.5)),
        res.DIM,
        "midbottom",
        max_width=frame.width - frame.px(4),
        bold=False,
    )
    return rect.y


# --- attract ---------------------------------------------------------------------------------


def attract(frame: w.Frame, view: AttractView) -> None:
    """Idle reels turning over the games' symbols, the title, and how to start."""
    w.backdrop(frame)
    pulse = 1.0 + 0.04 * math.sin(frame.now * 3.0)
    size = (14.0 if not frame.portrait else 10.0) * pulse
    w.text(
        frame,
        view.title,
        size,
        (frame.width // 2, frame.px(5)),
        res.GOLD,
        "midtop",
        max_width=frame.width - frame.px(4),
    )
    games = tuple(g for g in view.games if g in art.game_ids()) or tuple(art.game_ids())
    game = games[int(frame.now // 6.0) % len(games)]
    symbols = art.symbol_ids(game)
    cell = int(min(frame.width * 0.26, frame.height * 0.42))
    gap = frame.px(2)
    total = cell * 3 + gap * 2
    x0 = (frame.width - total) // 2
    y0 = (frame.height - cell) // 2 + frame.px(2)
    outer = pygame.Rect(x0 - gap, y0 - gap, total + 2 * gap, cell + 2 * gap)
    pygame.draw.rect(frame.surface, res.GOLD, outer, border_radius=gap)
    for i in range(3):
        window = pygame.Rect(x0 + i * (cell + gap), y0, cell, cell)
        speed = 0.7 + 0.25 * i  # slow, lazy turning: the machine is waiting for players
        offset = frame.now * speed
        k0 = math.floor(-offset) - 1
        frame.surface.set_clip(window)
        for k in range(k0, k0 + 3):
            y = window.y + int(round((k + offset) * cell))
            frame.surface.blit(
                frame.res.cell(game, filler_symbol(symbols, i, k), cell, cell, False), (window.x, y)
            )
        frame.surface.set_clip(None)
    centre, room = frame.width // 2, frame.width - frame.px(4)
    if view.link is not None:
        # the scoreboard's QR code and address in the band under the reels, on the right half;
        # the blinking line moves to the left half
        band = pygame.Rect(frame.width * 2 // 5, outer.bottom + frame.px(2), 0, 0)
        band.width, band.height = frame.width - band.x - frame.px(2), frame.height - band.y - frame.px(2)
        draw_link(frame, view.link, band, 4.4)
        centre, room = band.x // 2, band.x - frame.px(4)
    if w.blink(frame.now, 0.7):
        w.text(
            frame,
            view.subtitle,
            6.5,
            (centre, frame.height - frame.px(6)),
            res.TEXT,
            "midbottom",
            max_width=room,
        )


# --- game select and players -----------------------------------------------------------------


def game_select(frame: w.Frame, view: GameSelectView) -> None:
    """The list of games with the chosen one highlighted and its symbols shown."""
    w.backdrop(frame)
    top = _title(frame, "Choose a game")
    bottom = _hint(frame, view.hint) - frame.px(2)
    area = pygame.Rect(frame.px(4), top, frame.width - frame.px(8), bottom - top)
    cells = w.rows(area, max(1, len(view.options)), frame.px(1.2), max_height=frame.px(17))
    for i, (option, cell) in enumerate(zip(view.options, cells, strict=False)):
        chosen = i == view.selected
        w.box(frame, cell, res.ACTIVE if chosen else res.PANEL, None if chosen else res.PANEL_EDGE, 2.0)
        ink = res.ACTIVE_TEXT if chosen else res.TEXT
        icon = cell.height - frame.px(2)
        x = cell.x + frame.px(2)
        try:
            ids = art.symbol_ids(option.game_id)[:3]
        except KeyError:
            ids = []
        for symbol_id in ids:
            w.symbol(frame, option.game_id, symbol_id, (x + icon // 2, cell.centery), icon)
            x += int(icon * 0.72)
        x += icon // 3
        size = min(cell.height / frame.u * 0.45, 7.0)
        title = w.text(
            frame,
            option.title,
            size,
            (x, cell.centery),
            ink,
            "midleft",
            max_width=cell.right - x - frame.px(2),
        )
        if option.blurb and cell.right - title.right > frame.px(20):
            w.text(
                frame,
                option.blurb,
                size * 0.7,
                (cell.right - frame.px(2), cell.centery),
                (90, 60, 20) if chosen else res.DIM,
                "midright",
                max_width=cell.right - title.right - frame.px(4),
                bold=False,
            )


def players(frame: w.Frame, view: PlayersView) -> None:
    """How many play: a big number between arrows, and the names."""
    w.backdrop(frame)
    top = _title(frame, view.title)
    bottom = _hint(frame, view.hint)
    mid = (top + bottom) // 2
    big = w.text(frame, str(view.count), 30.0, (frame.width // 2, mid - frame.px(4)), res.GOLD, "center")
    arrow = frame.px(5)
    left_on = view.count > view.minimum
    right_on = view.count < view.maximum
    w.triangle(
        frame, (big.x - frame.px(8), big.centery), arrow, res.TEXT if left_on else res.PANEL_EDGE, "left"
    )
    w.triangle(frame, (big.right + frame.px(8), big.centery), arrow, res.TEXT if right_on else res.PANEL_EDGE)
    label = "player" if view.count == 1 else "players"
    w.text(frame, label, 6.5, (frame.width // 2, big.bottom), res.TEXT, "midtop")
    names = ", ".join(view.names[: view.count])
    if names:
        w.text(
            frame,
            names,
            5.5,
            (frame.width // 2, big.bottom + frame.px(9)),
            res.DIM,
            "midtop",
            max_width=frame.width - frame.px(6),
            bold=False,
        )


# --- Mega Jackpot tile flip ------------------------------------------------------------------


def tile_flip(frame: w.Frame, view: TileFlipView, state: dict[str, Any]) -> None:
    """The tile turns over (squeezes shut, opens on its face); monkeys face up are counted."""
    w.backdrop(frame)
    top = _title(frame, f"{view.player}: Mega Jackpot!")
    if state.get("flip_id") != view.flip_id:
        state["flip_id"], state["flip_start"], state["flip_cued"] = view.flip_id, frame.now, False
    t = frame.now - state["flip_start"]
    u = min(1.0, max(0.0, t / FLIP_TIME))
    size = int(min(frame.width * 0.42, frame.height * 0.48))
    center = (frame.width // 2, top + size // 2 + frame.px(2))
    showing_face = view.tile is not None and u >= 0.5
    squeeze = abs(math.cos(u * math.pi)) if view.tile is not None else 1.0
    width = max(2, int(size * squeeze))
    if showing_face:
        face = frame.res.symbol("mega-jackpot", f"tile:{view.tile}", size)
        scaled = pygame.transform.smoothscale(face, (width, size)) if width != size else face
        frame.surface.blit(scaled, scaled.get_rect(center=center))
        if not state["flip_cued"]:
            state["flip_cued"] = True
            frame.cues.append((str(view.tile), {}))
    else:
        back = frame.res.cached(("tileback", size), lambda: _tile_back_surface(frame, size))
        scaled = pygame.transform.smoothscale(back, (width, size)) if width != size else back
        frame.surface.blit(scaled, scaled.get_rect(center=center))
    y = center[1] + size // 2 + frame.px(2)
    icon = frame.px(9)
    for i in range(3):
        x = frame.width // 2 + (i - 1) * (icon + frame.px(2))
        if i < view.monkeys_up:
            w.symbol(frame, "mega-jackpot", "tile:monkey", (x, y + icon // 2), icon)
        else:
            pygame.draw.rect(
                frame.surface,
                res.PANEL_EDGE,
                pygame.Rect(x - icon // 2, y, icon, icon),
                width=max(1, frame.px(0.4)),
                border_radius=frame.px(1.5),
            )
    line = view.message or f"Tray worth {view.tray_value}"
    if view.tile is None or u >= 1.0:
        color = res.GOOD if view.tile == "genie" else (res.ALERT if view.tile == "monkey" else res.TEXT)
        w.text(
            frame,
            line,
            7.0,
            (frame.width // 2, frame.height - frame.px(3)),
            color,
            "midbottom",
            max_width=frame.width - frame.px(4),
        )


def _tile_back_surface(frame: w.Frame, size: int) -> pygame.Surface:
    surface = pygame.Surface((size, size), pygame.SRCALPHA)
    rect = surface.get_rect()
    pygame.draw.rect(surface, (90, 50, 140), rect, border_radius=size // 8)
    pygame.draw.rect(surface, (32, 24, 28), rect, width=max(2, size // 30), border_radius=size // 8)
    pygame.draw.rect(
        surface,
        res.GOLD,
        rect.inflate(-size // 6, -size // 6),
        width=max(2, size // 40),
        border_radius=size // 12,
    )
    mark = frame.res.text("?", int(size * 0.55), res.GOLD)
    surface.blit(mark, mark.get_rect(center=rect.center))
    return surface.convert_alpha()


# --- lottery draw ----------------------------------------------------------------------------


def lottery_draw(frame: w.Frame, view: LotteryDrawView, state: dict[str, Any]) -> None:
    """Tokens come out of the tin onto the prize spaces, lowest first."""
    w.backdrop(frame)
    top = _title(frame, f"Lottery - round {view.round_number}")
    if state.get("draw_id") != view.draw_id:
        state["draw_id"], state["draw_start"] = view.draw_id, frame.now
        if view.tokens:
            frame.cues.append(("click", {}))
    t = frame.now - state["draw_start"]
    n = max(1, len(view.spaces))
    slot = int(min(frame.width / (n + 1), frame.height * 0.36))
    gap = frame.px(3)
    total = n * slot + (n - 1) * gap
    x0 = (frame.width - total) // 2
    y = top + frame.px(12)
    tin = (frame.width // 2, top)
    for i, space in enumerate(view.spaces):
        rect = pygame.Rect(x0 + i * (slot + gap), y, slot, slot)
        w.box(frame, rect, res.PANEL, res.PANEL_EDGE, 3.0)
        w.text(frame, f"space {space}", 5.0, (rect.centerx, rect.bottom + frame.px(1)), res.DIM, "midtop")
        if i < len(view.tokens):
            center = rect.center
            if i == len(view.tokens) - 1 and t < DROP_TIME:
                u = ease_out_back(t / DROP_TIME, 1.2)
                center = (
                    int(tin[0] + (rect.centerx - tin[0]) * u),
                    int(tin[1] + (rect.centery - tin[1]) * u),
                )
            w.symbol(frame, "thanks-a-lottery", _token_id(view.tokens[i]), center, int(slot * 0.86))
    if view.message:
        w.text(
            frame,
            view.message,
            6.5,
            (frame.width // 2, frame.height - frame.px(3)),
            res.TEXT,
            "midbottom",
            max_width=frame.width - frame.px(4),
        )


def _token_id(token: str) -> str:
    return token if token.startswith("token:") else f"token:{token}"


# --- final scores ----------------------------------------------------------------------------


def final_scores(frame: w.Frame, view: FinalScoresView) -> None:
    """The ranking (winners in gold) and a small chart of every score over the game."""
    w.backdrop(frame)
    top = _title(frame, f"{view.title}: final scores")
    bottom = frame.height - frame.px(3)
    if view.note:
        bottom = _hint(frame, view.note) - frame.px(1)
    area = pygame.Rect(frame.px(3), top, frame.width - frame.px(6), bottom - top)
    if frame.portrait:
        board, chart = w.split_h(area, 0.45, frame.px(2))
    else:
        board, chart = w.split_v(area, 0.44, frame.px(3))
    order = sorted(range(len(view.players)), key=lambda i: -view.players[i].score)
    cells = w.rows(board, max(1, len(order)), frame.px(1.2), max_height=frame.px(18))
    for rank, (index, cell) in enumerate(zip(order, cells, strict=False)):
        player = view.players[index]
        color = w.PLAYER_COLORS[index % len(w.PLAYER_COLORS)]
        winner = player.winner
        glow = winner and w.blink(frame.now, 1.2)
        w.box(
            frame, cell, res.ACTIVE if winner else res.PANEL, (255, 250, 200) if glow else res.PANEL_EDGE, 2.0
        )
        ink = res.ACTIVE_TEXT if winner else res.TEXT
        size = min(cell.height / frame.u * 0.45, 7.5)
        dot = max(3, cell.height // 6)
        pygame.draw.circle(frame.surface, color, (cell.x + frame.px(2) + dot, cell.centery), dot)
        pygame.draw.circle(frame.surface, (32, 24, 28), (cell.x + frame.px(2) + dot, cell.centery), dot, 1)
        label = f"{rank + 1}. {player.name}" + ("  WINNER" if winner else "")
        score = w.text(
            frame, str(player.score), size * 1.2, (cell.right - frame.px(2), cell.centery), ink, "midright"
        )
        w.text(
            frame,
            label,
            size,
            (cell.x + frame.px(4) + 2 * dot, cell.centery),
            ink,
            "midleft",
            max_width=score.x - cell.x - frame.px(6) - 2 * dot,
        )
    _chart(frame, view, chart)


def _chart(frame: w.Frame, view: FinalScoresView, rect: pygame.Rect) -> None:
    """Each player's score after every turn, one coloured line each."""
    w.box(frame, rect, (24, 20, 50), res.PANEL_EDGE, 2.0)
    series = [list(h) for h in view.history if h]
    if not series:
        w.text(frame, "no score history", 4.5, rect.center, res.DIM, "center")
        return
    pad = frame.px(3)
    plot = rect.inflate(-2 * pad, -2 * pad)
    plot.width -= frame.px(6)
    plot.x += frame.px(6)
    high = max(max(s) for s in series)
    low = min(0, min(min(s) for s in series))
    span = max(1, high - low)
    steps = max(2, max(len(s) for s in series))
    pygame.draw.line(frame.surface, res.PANEL_EDGE, plot.bottomleft, plot.bottomright, 1)
    pygame.draw.line(frame.surface, res.PANEL_EDGE, plot.bottomleft, plot.topleft, 1)
    w.text(frame, str(high), 3.6, (plot.x - frame.px(1), plot.y), res.DIM, "topright", bold=False)
    w.text(frame, str(low), 3.6, (plot.x - frame.px(1), plot.bottom), res.DIM, "bottomright", bold=False)
    width = max(2, frame.px(0.8))
    for index, values in enumerate(view.history):
        if not values:
            continue
        color = w.PLAYER_COLORS[index % len(w.PLAYER_COLORS)]
        points = [
            (plot.x + int(plot.width * i / (steps - 1)), plot.bottom - int(plot.height * (v - low) / span))
            for i, v in enumerate(values)
        ]
        if len(points) == 1:
            points.append((plot.right, points[0][1]))
        pygame.draw.lines(frame.surface, color, False, points, width)
        pygame.draw.circle(frame.surface, color, points[-1], width * 2)


# --- menu and messages -----------------------------------------------------------------------


def menu(frame: w.Frame, view: MenuView) -> None:
    """The menu lines (volume, rotation, restart ...) with the chosen one highlighted."""
    w.backdrop(frame)
    top = _title(frame, view.title)
    bottom = _hint(frame, view.hint) - frame.px(2)
    area = pygame.Rect(frame.px(8), top, frame.width - frame.px(16), bottom - top)
    if view.link is not None:
        split = w.split_h if frame.portrait else w.split_v
        area, side = split(area, 0.6, frame.px(3))
        draw_link(frame, view.link, side, 3.6, stacked=not frame.portrait)
    cells = w.rows(area, max(1, len(view.items)), frame.px(1.2), max_height=frame.px(15))
    for i, (item, cell) in enumerate(zip(view.items, cells, strict=False)):
        chosen = i == view.selected
        w.box(frame, cell, res.ACTIVE if chosen else res.PANEL, None if chosen else res.PANEL_EDGE, 2.0)
        ink = res.ACTIVE_TEXT if chosen else res.TEXT
        size = min(cell.height / frame.u * 0.5, 7.5)
        x = cell.x + frame.px(2)
        if chosen:
            w.triangle(frame, (x + frame.px(1.5), cell.centery), frame.px(2), res.ACTIVE_TEXT)
            x += frame.px(5)
        value = pygame.Rect(cell.right, cell.y, 0, 0)
        if item.value:
            value = w.text(frame, item.value, size, (cell.right - frame.px(3), cell.centery), ink, "midright")
        w.text(
            frame, item.label, size, (x, cell.centery), ink, "midleft", max_width=value.x - x - frame.px(2)
        )


def message(frame: w.Frame, view: MessageView) -> None:
    """A plain message: a title and a few lines."""
    w.backdrop(frame)
    color = {"good": res.GOOD, "warn": res.ALERT}.get(view.tone, res.GOLD)
    y = _title(frame, view.title, color) + frame.px(4)
    for line in view.lines[:6]:
        rect = w.text(
            frame,
            line,
            6.0,
            (frame.width // 2, y),
            res.TEXT,
            "midtop",
            max_width=frame.width - frame.px(6),
            bold=False,
        )
        y = rect.bottom + frame.px(2)


def camera(frame: w.Frame, view: CameraView) -> None:
    """Mat set-up: the camera's preview with the four corners ticked off as they are found."""
    w.backdrop(frame)
    top = _title(frame, view.title, res.GOOD if all(view.corners) else res.GOLD)
    bottom = frame.height - frame.px(10)
    area = pygame.Rect(frame.px(4), top, frame.width - frame.px(8), bottom - top)
    shot = preview_surface(view.preview, area.size)
    if shot is not None:
        rect = shot.get_rect(center=area.center)
        frame.surface.blit(shot, rect)
    else:
        rect = pygame.Rect(0, 0, int(area.height * 16 / 9), area.height).clamp(area)
        rect.centerx = area.centerx
        w.box(frame, rect, (24, 20, 50), res.PANEL_EDGE, 1.0)
        w.text(frame, "no camera picture yet", 5.0, rect.center, res.DIM, "center")
    mark = frame.px(3)
    spots = (rect.topleft, rect.topright, rect.bottomright, rect.bottomleft)
    for found, (x, y) in zip(view.corners, spots, strict=False):
        color = res.GOOD if found else res.ALERT
        pygame.draw.circle(frame.surface, color, (x, y), mark)
        pygame.draw.circle(frame.surface, (250, 248, 240), (x, y), mark, max(1, mark // 4))
    line = view.message if not all(view.corners) else f"{view.message} - all four corners found"
    w.text(
        frame,
        line,
        6.0,
        (frame.width // 2, frame.height - frame.px(3)),
        res.TEXT,
        "midbottom",
        max_width=frame.width - frame.px(4),
    )


def preview_surface(preview: object, room: tuple[int, int]) -> pygame.Surface | None:
    """A camera frame (BGR array) scaled to fit ``room``, or None if it is not a picture."""
    import cv2  # only the camera's preview (doctor, teaching a deck) needs them
    import numpy as np

    if not isinstance(preview, np.ndarray) or preview.ndim != 3 or preview.shape[2] != 3 or preview.size == 0:
        return None
    h, w_ = preview.shape[:2]
    scale = min(room[0] / w_, room[1] / h)
    size = (max(1, int(w_ * scale)), max(1, int(h * scale)))
    small = cv2.resize(preview, size, interpolation=cv2.INTER_AREA)
    rgb = np.ascontiguousarray(cv2.cvtColor(small.astype(np.uint8), cv2.COLOR_BGR2RGB))
    return pygame.image.frombuffer(rgb.tobytes(), size, "RGB").convert()
