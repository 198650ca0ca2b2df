"""The "Teach cards" screen: the face asked for beside what the camera sees, or the card it cut out.

Left (top on a portrait panel): the face by its symbol art and name, the reel-side back where
it matters, how many pictures it has. Right: the camera's picture with the one card's outline
while looking; the cut-out card, large, once caught (COLLECT keeps it, BACK retakes). Along the
bottom: a warning band (a look-alike), the prompt and the live buttons as pills.
"""

from __future__ import annotations

import pygame

from companion.screen import resources as res
from companion.screen import widgets as w
from companion.screen.screens import preview_surface
from companion.screen.table import _control_name, fit_pills
from companion.screen.views import TeachView

OUTLINE_BGR = (90, 220, 110)
#: The prompt's text height, in layout units.
PROMPT_UNITS = 4.0


def teach(frame: w.Frame, view: TeachView) -> None:
    """Draw the teach screen for ``view``."""
    w.backdrop(frame)
    counter = f"{view.number} / {view.total}"
    if view.phase == "done":
        counter = f"{view.faces_taught} / {view.total} taught"
    top = _title(frame, f"Teach cards: {view.title}", counter)
    pad = frame.px(2)
    controls_h = frame.px(14)
    lines = _prompt_lines(frame, view.prompt)
    prompt_h = frame.px(8 if len(lines) == 1 else 12)
    alert_h = frame.px(7) if view.alert else 0
    bottom = frame.height - controls_h - prompt_h - alert_h - pad
    body = pygame.Rect(pad * 2, top, frame.width - pad * 4, bottom - top)
    if frame.portrait:
        face_rect, picture_rect = w.split_h(body, 0.36, pad)
    else:
        face_rect, picture_rect = w.split_v(body, 0.38, pad)
    if view.phase == "done":
        _summary(frame, view, face_rect)
    else:
        _face(frame, view, face_rect)
    _picture(frame, view, picture_rect)
    y = body.bottom + pad // 2
    if view.alert:
        band = pygame.Rect(0, y, frame.width, alert_h)
        pygame.draw.rect(frame.surface, res.ALERT, band)
        w.text(frame, view.alert, alert_h / frame.u * 0.5, band.center, (255, 255, 255), "center",
               max_width=band.width - frame.px(4))
        y = band.bottom
    line = pygame.Rect(0, y, frame.width, prompt_h)
    pygame.draw.rect(frame.surface, (10, 8, 24), line)
    pygame.draw.line(frame.surface, res.GOLD, line.topleft, line.topright, max(1, frame.px(0.4)))
    for k, text in enumerate(lines):
        centre = (line.centerx, line.top + line.height * (2 * k + 1) // (2 * len(lines)))
        w.text(frame, text, PROMPT_UNITS, centre, res.TEXT, "center", max_width=line.width - frame.px(4))
    _controls(frame, view, pygame.Rect(pad, line.bottom + pad // 2, frame.width - 2 * pad, controls_h - pad))


def _prompt_lines(frame: w.Frame, prompt: str) -> list[str]:
    """The prompt as one line, or two when one does not hold it at its size (a refusal says
    why the card cannot be taught and what to do: "the card in view touches another card or
    paper of its colour: show one card alone, apart from other cards and paper"), broken after
    the reason, else at the space nearest the middle."""
    font = frame.res.font(max(w.MIN_TEXT_PX, frame.px(PROMPT_UNITS)))
    if font.size(prompt)[0] <= frame.width - frame.px(4) or " " not in prompt:
        return [prompt]
    head, colon, tail = prompt.partition(": ")
    if colon and tail:
        return [head + ":", tail[0].upper() + tail[1:]]
    middle = min((k for k, c in enumerate(prompt) if c == " "), key=lambda k: abs(k - len(prompt) // 2))
    return [prompt[:middle], prompt[middle + 1 :]]


def _title(frame: w.Frame, title: str, counter: str) -> int:
    size = 8.0 if not frame.portrait else 6.5
    left = w.text(frame, title, size, (frame.px(3), frame.px(2)), res.GOLD, "topleft",
                  max_width=int(frame.width * 0.7))
    w.text(frame, counter, size * 0.8, (frame.width - frame.px(3), left.centery), res.DIM, "midright",
           bold=False)
    return left.bottom + frame.px(2)


def _face(frame: w.Frame, view: TeachView, rect: pygame.Rect) -> None:
    """The face asked for: its symbols large, its name, its back, its pictures so far."""
    w.box(frame, rect)
    name_h = frame.px(9)
    room = pygame.Rect(rect.x, rect.y + frame.px(2), rect.width, rect.height - name_h * 2 - frame.px(4))
    symbols = view.symbols or ()
    if symbols:
        size = int(min(room.height, (room.width - frame.px(4)) / len(symbols)) * 0.92)
        x = room.centerx - size * (len(symbols) - 1) // 2
        for symbol_id in symbols:
            _symbol(frame, view.game_id, symbol_id, (x, room.centery), size)
            x += size
    y = room.bottom + frame.px(1)
    name = w.text(frame, view.face_name, 7.0, (rect.centerx, y), res.TEXT, "midtop",
                  max_width=rect.width - frame.px(3))
    y = name.bottom + frame.px(1)
    if view.back:
        icon = frame.px(6)
        label = w.text(frame, "back:", 4.5, (rect.x + frame.px(3), y + icon // 2), res.DIM, "midleft",
                       bold=False)
        x = label.right + frame.px(1) + icon // 2
        for symbol_id in view.back:
            _symbol(frame, view.game_id, symbol_id, (x, y + icon // 2), icon)
            x += icon
        y += icon + frame.px(1)
    plural = "s" if view.taught != 1 else ""
    taught = "not taught yet" if view.taught == 0 else f"taught: {view.taught} picture{plural}"
    w.text(frame, taught, 4.8, (rect.centerx, y), res.GOOD if view.taught else res.DIM, "midtop", bold=False,
           max_width=rect.width - frame.px(3))


def _symbol(frame: w.Frame, game_id: str, symbol_id: str, centre: tuple[int, int], size: int) -> None:
    try:
        w.symbol(frame, game_id, symbol_id, centre, size)
    except KeyError:  # a symbol with no art yet: its name is on the screen anyway
        w.text(frame, symbol_id, 5.0, centre, res.TEXT, "center")


def _summary(frame: w.Frame, view: TeachView, rect: pygame.Rect) -> None:
    w.box(frame, rect)
    big = w.text(frame, f"{view.faces_taught}", 24.0, (rect.centerx, rect.centery - frame.px(6)), res.GOLD,
                 "center")
    w.text(frame, f"of {view.total} faces taught", 5.5, (rect.centerx, big.bottom), res.TEXT, "midtop",
           max_width=rect.width - frame.px(3))


def _picture(frame: w.Frame, view: TeachView, rect: pygame.Rect) -> None:
    """The cut-out card once caught, else the camera's picture with the card's outline."""
    w.box(frame, rect, (16, 12, 36))
    inner = rect.inflate(-frame.px(3), -frame.px(3))
    caption_h = frame.px(6)
    room = (inner.width, inner.height - caption_h)
    if view.cutout is not None:
        shot = preview_surface(view.cutout, room)
        caption = "the card it cut out"
    else:
        shot = preview_surface(_with_outline(view.preview, view.quad), room)
        caption = "what the camera sees"
    if shot is None:
        w.text(frame, "no camera picture yet", 5.0, inner.center, res.DIM, "center")
        return
    spot = shot.get_rect(midtop=(inner.centerx, inner.y))
    frame.surface.blit(shot, spot)
    if view.cutout is not None:
        pygame.draw.rect(frame.surface, res.GOLD, spot.inflate(4, 4), max(1, frame.px(0.5)))
    w.text(frame, caption, 4.2, (inner.centerx, spot.bottom + frame.px(0.8)), res.DIM, "midtop", bold=False)


def _with_outline(preview: object, quad: object) -> object:
    """A copy of the preview with the card's outline drawn on it (the preview as is without one)."""
    import cv2  # only while teaching, with the camera's picture: a cabinet runs without them
    import numpy as np

    if not isinstance(preview, np.ndarray) or quad is None:
        return preview
    marked = preview.copy()
    points = np.asarray(quad, np.float32).reshape(-1, 1, 2).round().astype(np.int32)
    thickness = max(2, preview.shape[1] // 240)
    cv2.polylines(marked, [points], True, OUTLINE_BGR, thickness, cv2.LINE_AA)
    return marked


def _controls(frame: w.Frame, view: TeachView, rect: pygame.Rect) -> None:
    labels = [f"{_control_name(hint.control)} {hint.label}" for hint in view.controls]
    size, placed = fit_pills(frame, labels, rect)
    for label, centre in placed:
        w.pill(frame, label, centre, size, res.GOLD, res.ACTIVE_TEXT)
