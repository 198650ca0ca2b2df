"""Print-and-play PDFs: card sheets at true poker size with cut marks, and tiled play mats.

Cards are 63 x 88 mm, nine to a page (3 x 3) on A4 or Letter, with cut marks in the margins
where the cut lines run. Games whose cards have something on the back (Mega Jackpot's reel
side) get a back page after every front page, its columns mirrored so that long-edge duplex
printing puts each back behind its front.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
from fpdf import FPDF
from PIL import Image

from companion.errors import UserError
from vision.cardart import printed_sides, render_side
from vision.layout import CARD_H_MM, CARD_W_MM
from vision.markers import MarkerMap
from vision.mats import mat_layout, render_mat

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLUMNS, ROWS = 3, 3
CUT_MARK_MM = 5.0


def _pil(image: np.ndarray) -> Image.Image:
    return Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))


def _paper(paper: str) -> tuple[float, float]:
    if paper not in PAPERS:
        raise UserError(f"unknown paper '{paper}' (use a4 or letter)")
    return PAPERS[paper]


def deck_list(game_id: str) -> list[tuple[str, str | None]]:
    """Every card to print as (front card id, back key or None), ``count`` copies of each face."""
    from companion.engine import get_game

    faces = get_game(game_id).card_faces()
    if not faces:
        raise UserError(f"{game_id} has no cards to print")
    return [
        (face.id, "/".join(face.back) if face.back else None) for face in faces for _ in range(face.count)
    ]


def _cut_marks(pdf: FPDF, left: float, top: float) -> None:
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    right, bottom = left + COLUMNS * CARD_W_MM, top + ROWS * CARD_H_MM
    for c in range(COLUMNS + 1):
        x = left + c * CARD_W_MM
        pdf.line(x, top - 1 - CUT_MARK_MM, x, top - 1)
        pdf.line(x, bottom + 1, x, bottom + 1 + CUT_MARK_MM)
    for r in range(ROWS + 1):
        y = top + r * CARD_H_MM
        pdf.line(left - 1 - CUT_MARK_MM, y, left - 1, y)
        pdf.line(right + 1, y, right + 1 + CUT_MARK_MM, y)


def cards_pdf(game_id: str, out: Path, paper: str = "a4") -> int:
    """Write the deck of ``game_id`` to ``out``; returns the number of pages."""
    width, height = _paper(paper)
    markers = MarkerMap.for_game(game_id)
    sides = {(s.card_id, s.side): s for s in printed_sides(game_id)}
    deck = deck_list(game_id)
    has_backs = any(back for _, back in deck)
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_title(f"Jackpot Companion cards: {game_id}")
    left = (width - COLUMNS * CARD_W_MM) / 2
    top = (height - ROWS * CARD_H_MM) / 2
    images: dict[tuple[str, str], Image.Image] = {}

    def image(key: tuple[str, str]) -> Image.Image:
        if key not in images:
            images[key] = _pil(render_side(game_id, sides[key]))
        return images[key]

    per_page = COLUMNS * ROWS
    for start in range(0, len(deck), per_page):
        page = deck[start : start + per_page]
        pdf.add_page()
        for index, (card_id, _back) in enumerate(page):
            row, col = divmod(index, COLUMNS)
            pdf.image(
                image((card_id, "front")), left + col * CARD_W_MM, top + row * CARD_H_MM, CARD_W_MM, CARD_H_MM
            )
        _cut_marks(pdf, left, top)
        pdf.set_font("helvetica", size=7)
        pdf.text(
            left,
            height - 5,
            f"{game_id} cards, page {start // per_page + 1}: print at 100 % (no fit to page)"
            + (" - provisional marker ids" if markers.provisional else ""),
        )
        if has_backs:
            pdf.add_page()
            for index, (_card_id, back) in enumerate(page):
                if back is None:
                    continue
                row, col = divmod(index, COLUMNS)
                mirrored = COLUMNS - 1 - col  # long-edge duplex flips left and right
                x = width - (left + COLUMNS * CARD_W_MM) + mirrored * CARD_W_MM
                pdf.image(image((back, "back")), x, top + row * CARD_H_MM, CARD_W_MM, CARD_H_MM)
            _cut_marks(pdf, width - (left + COLUMNS * CARD_W_MM), top)
    pdf.output(str(out))
    return pdf.pages_count


def mat_pdf(game_id: str, out: Path, paper: str = "a4") -> int:
    """Write ``game_id``'s mat tiled onto pages (10 mm margins, labelled for assembly)."""
    width, height = _paper(paper)
    layout = mat_layout(game_id)
    ppm = 6.0
    image = render_mat(layout, ppm)
    margin = 10.0
    tile_w, tile_h = width - 2 * margin, height - 2 * margin
    cols, rows = math.ceil(layout.width / tile_w), math.ceil(layout.height / tile_h)
    pdf = FPDF(unit="mm", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_title(f"Jackpot Companion mat: {game_id}")
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * tile_w, r * tile_h
            w, h = min(tile_w, layout.width - x0), min(tile_h, layout.height - y0)
            crop = image[round(y0 * ppm) : round((y0 + h) * ppm), round(x0 * ppm) : round((x0 + w) * ppm)]
            pdf.add_page()
            pdf.image(_pil(np.ascontiguousarray(crop)), margin, margin, w, h)
            pdf.set_draw_color(120, 120, 120)
            pdf.set_line_width(0.2)
            pdf.rect(margin, margin, w, h)
            pdf.set_font("helvetica", size=7)
            pdf.text(
                margin,
                height - 4,
                f"{game_id} mat: row {r + 1} of {rows}, column {c + 1} of {cols}. "
                "Trim on the grey line, butt the sheets edge to edge, tape behind. Print at 100 %.",
            )
    pdf.output(str(out))
    return pdf.pages_count


def card_images(game_id: str, out_dir: Path) -> list[Path]:
    """One PNG per distinct printed side (fronts named by card id, backs ``back-a-b.png``)."""
    from vision.cardart import file_stem

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for side in printed_sides(game_id):
        path = out_dir / f"{file_stem(side)}.png"
        if not cv2.imwrite(str(path), render_side(game_id, side)):
            raise UserError(f"cannot write {path}")
        paths.append(path)
    return paths
