"""The table's main area per game: the reels plus that game's own board.

- Bandit: the 3x3 grid as three reels of three rows, held columns, CLAIM markers on rows.
- Pay Line: the dice as reels, the three secret boxes (never a count until the game is over).
- Mega Jackpot: reel piles' top sides above the discards (the reels), trays, tiles, odds.
- Thanks a Lottery: the dice pool, the prize spaces, the blocks on the table.
- Jackpot Payout: the three cards in play as reels, bank / box / substitutes, the display.
"""

from __future__ import annotations

import math

import pygame

from companion.screen import resources as res
from companion.screen import widgets as w
from companion.screen.views import (
    BanditPanel,
    BoxView,
    LotteryPanel,
    MegaJackpotPanel,
    PayLinePanel,
    PayoutPanel,
    TableView,
)


def draw_main(frame: w.Frame, view: TableView, rect: pygame.Rect) -> None:
    """Draw the reels and the game's panel into the main area."""
    panel = view.panel
    if isinstance(panel, BanditPanel):
        _bandit(frame, view, panel, rect)
    elif isinstance(panel, PayLinePanel):
        _pay_line(frame, view, panel, rect)
    elif isinstance(panel, MegaJackpotPanel):
        _mega(frame, view, panel, rect)
    elif isinstance(panel, LotteryPanel):
        _lottery(frame, view, panel, rect)
    elif isinstance(panel, PayoutPanel):
        _payout(frame, view, panel, rect)
    elif view.reels is not None:
        frame.reels.draw(frame.surface, rect, view.game_id, view.reels, frame.now)


# --- Bandit ----------------------------------------------------------------------------------


def _bandit(frame: w.Frame, view: TableView, panel: BanditPanel, rect: pygame.Rect) -> None:
    info_h = frame.px(8)
    grid_rect = pygame.Rect(rect.x, rect.y, rect.width - frame.px(22), rect.height - info_h)
    if view.reels is not None:
        geo = frame.reels.draw(frame.surface, grid_rect, view.game_id, view.reels, frame.now)
        if not frame.reels.spinning(frame.now):
            for row in panel.claimable_rows:
                if 0 <= row < len(geo.row_centers):
                    y = geo.row_centers[row]
                    x = geo.frame.right + frame.px(2)
                    w.triangle(frame, (x + frame.px(1.5), y), frame.px(2.2), res.GOLD, "left")
                    w.pill(frame, "CLAIM", (x + frame.px(11), y), 4.4, res.GOLD, res.ACTIVE_TEXT)
    info = f"Deck {panel.deck_left}   Game {panel.game_number} of 2"
    w.text(frame, info, 5.0, (rect.right, rect.bottom), res.DIM, "bottomright", max_width=rect.width)


# --- Pay Line --------------------------------------------------------------------------------


def _pay_line(frame: w.Frame, view: TableView, panel: PayLinePanel, rect: pygame.Rect) -> None:
    dice_rect, boxes_rect = w.split_h(rect, 0.5, frame.px(1))
    if view.reels is not None:
        frame.reels.draw(frame.surface, dice_rect, view.game_id, view.reels, frame.now)
    cells = w.columns(boxes_rect, max(1, len(panel.boxes)), frame.px(2))
    for box, cell in zip(panel.boxes, cells, strict=False):
        _secret_box(frame, view.game_id, box, cell)
    if panel.double_armed:
        label = "DOUBLE OR NOTHING"
        fill = res.WIN if w.blink(frame.now, 1.5) else (150, 30, 50)
        w.pill(frame, label, (rect.centerx, dice_rect.bottom), 4.6, fill, (255, 255, 255))


def _secret_box(frame: w.Frame, game_id: str, box: BoxView, cell: pygame.Rect) -> None:
    """One box. Its chip count is drawn only when ``revealed``; nothing else depends on it."""
    label_h = frame.px(6)
    art_size = max(12, min(cell.width, cell.height - label_h) - frame.px(2))
    wobble = int(math.sin(frame.now * 42.0) * frame.px(1.6)) if box.shaking else 0
    center = (cell.centerx + wobble, cell.y + art_size // 2)
    rect = w.symbol(frame, game_id, box.symbol, center, art_size)
    if box.revealed and box.chips is not None:
        badge = pygame.Rect(0, 0, int(art_size * 0.62), int(art_size * 0.46))
        badge.center = rect.center
        pygame.draw.rect(frame.surface, (250, 248, 240), badge, border_radius=badge.height // 3)
        w.text(frame, str(box.chips), art_size / frame.u * 0.34, badge.center, (30, 20, 10), "center")
    else:
        mark = max(6, art_size // 4)
        spot = (rect.right - mark // 2, rect.y + mark // 2)
        pygame.draw.circle(frame.surface, (20, 16, 30), spot, mark // 2 + 2)
        w.text(frame, "?", mark / frame.u * 0.8, spot, res.GOLD, "center")
    if box.taken:
        shade = frame.res.cached(("shade", rect.width, rect.height), lambda: _veil(rect.size))
        frame.surface.blit(shade, rect)
        w.text(frame, "TAKEN", art_size / frame.u * 0.2, rect.center, (255, 255, 255), "center")
    w.text(
        frame,
        f"refills to {box.level}",
        4.2,
        (cell.centerx, cell.bottom),
        res.DIM,
        "midbottom",
        max_width=cell.width,
    )


def _veil(size: tuple[int, int]) -> pygame.Surface:
    veil = pygame.Surface(size, pygame.SRCALPHA)
    veil.fill((0, 0, 0, 150))
    return veil.convert_alpha()


# --- Mega Jackpot ----------------------------------------------------------------------------


def _mega(frame: w.Frame, view: TableView, panel: MegaJackpotPanel, rect: pygame.Rect) -> None:
    piles_rect, rest = w.split_h(rect, 0.16, frame.px(0.5))
    reels_rect, board = w.split_h(rest, 0.55, frame.px(1))
    geo = None
    if view.reels is not None:
        geo = frame.reels.draw(frame.surface, reels_rect, view.game_id, view.reels, frame.now)
    windows = geo.windows if geo is not None else w.columns(reels_rect, 3, frame.px(2))
    mini = max(10, piles_rect.height - frame.px(1))
    for i, window in enumerate(windows):
        side = panel.reel_sides[i] if i < len(panel.reel_sides) else None
        count = panel.pile_counts[i] if i < len(panel.pile_counts) else None
        cx, cy = window.centerx, piles_rect.centery
        if side is None:
            w.text(frame, "empty", 4.0, (cx, cy), res.DIM, "center")
            continue
        w.symbol(frame, view.game_id, side[0], (cx - mini // 2 - frame.px(3), cy), mini)
        w.symbol(frame, view.game_id, side[1], (cx + mini // 2 - frame.px(3), cy), mini)
        if count is not None:
            w.text(frame, str(count), 4.0, (cx + mini + frame.px(1), cy), res.DIM, "midleft")
    trays_rect, right = w.split_v(board, 0.5, frame.px(1.5))
    for i, (tray, cell) in enumerate(zip(panel.trays, w.rows(trays_rect, 2, frame.px(1)), strict=False)):
        w.box(
            frame,
            cell,
            res.PANEL,
            res.GOLD if tray.chosen else res.PANEL_EDGE,
            1.5,
            0.6 if tray.chosen else 0.4,
        )
        size = min(cell.height / frame.u * 0.45, 5.5)
        label = w.text(
            frame,
            f"Tray {i + 1}: {tray.value}",
            size,
            (cell.x + frame.px(1.5), cell.centery),
            res.GOLD if tray.chosen else res.TEXT,
            "midleft",
        )
        icon = max(8, cell.height - frame.px(2))
        x = label.right + frame.px(1) + icon // 2
        for card in tray.cards:
            if x + icon // 2 > cell.right:
                break
            w.symbol(frame, view.game_id, card, (x, cell.centery), icon)
            x += int(icon * 0.6)
    tiles_rect, odds_rect = w.split_h(right, 0.5, frame.px(1))
    if panel.tiles:
        tile = min(tiles_rect.height, (tiles_rect.width - frame.px(1) * 3) // 4)
        for i, face in enumerate(panel.tiles):
            center = (tiles_rect.x + tile // 2 + i * (tile + frame.px(1)), tiles_rect.centery)
            if face is None:
                _tile_back(
                    frame, pygame.Rect(0, 0, tile, tile).move(center[0] - tile // 2, center[1] - tile // 2)
                )
            else:
                w.symbol(frame, view.game_id, f"tile:{face}", center, tile)
    y = odds_rect.y
    line_h = max(frame.px(4.5), odds_rect.height // max(1, len(panel.odds)))
    for line in panel.odds[:3]:
        w.text(
            frame,
            line,
            min(4.3, line_h / frame.u * 0.8),
            (odds_rect.x, y),
            res.DIM,
            max_width=odds_rect.width,
            bold=False,
        )
        y += line_h


def _tile_back(frame: w.Frame, rect: pygame.Rect) -> None:
    """A face-down Mega Jackpot tile."""
    pygame.draw.rect(frame.surface, (90, 50, 140), rect, border_radius=max(2, rect.width // 8))
    pygame.draw.rect(
        frame.surface,
        (32, 24, 28),
        rect,
        width=max(1, rect.width // 25),
        border_radius=max(2, rect.width // 8),
    )
    w.text(frame, "?", rect.height / frame.u * 0.55, rect.center, res.GOLD, "center")


# --- Thanks a Lottery ------------------------------------------------------------------------


def dice_row(width: int, count: int, max_size: int) -> tuple[int, int]:
    """Die size and gap so that ``count`` dice fit in ``width`` (all 15 of a full pool).

    >>> size, gap = dice_row(400, 15, 40)
    >>> 15 * size + 14 * gap <= 400
    True
    """
    if count <= 0:
        return max(8, max_size), 2
    # a gap of a sixth of a die: count * size + (count - 1) * size / 6 <= width
    size = int(width * 6 / (7 * count - 1))
    size = max(8, min(max_size, size))
    return size, max(1, size // 6)


def _lottery(frame: w.Frame, view: TableView, panel: LotteryPanel, rect: pygame.Rect) -> None:
    top, rest = w.split_h(rect, 0.17, frame.px(1))
    heading = w.text(frame, f"Round {panel.round_number}", 6.0, (top.x, top.centery), res.GOLD, "midleft")
    w.text(
        frame, f"Deck {panel.deck_left}", 4.4, (heading.right + frame.px(3), top.centery), res.DIM, "midleft"
    )
    token = max(10, top.height - frame.px(1))
    x = top.right - token // 2
    for space in reversed(panel.prize_spaces):
        w.symbol(frame, view.game_id, f"token:{space}", (x, top.centery), token)
        x -= token + frame.px(1)
    w.text(frame, "Prizes", 4.2, (x + token // 2, top.centery), res.DIM, "midright")
    if view.reels is not None:
        reels_rect, rest = w.split_h(rest, 0.45, frame.px(1))
        frame.reels.draw(frame.surface, reels_rect, view.game_id, view.reels, frame.now)
    pool_rect, blocks_rect = w.split_h(rest, 0.4, frame.px(1))
    w.box(frame, pool_rect, (28, 24, 56), res.PANEL_EDGE, 1.5, 0.4)
    label = w.text(
        frame,
        f"Pool {len(panel.pool)}",
        4.6,
        (pool_rect.x + frame.px(1.5), pool_rect.centery),
        res.TEXT,
        "midleft",
    )
    x = label.right + frame.px(2)
    size, gap = dice_row(pool_rect.right - frame.px(1) - x, len(panel.pool), pool_rect.height - frame.px(2))
    for value in panel.pool:
        if x + size > pool_rect.right:
            break
        w.die(frame, pygame.Rect(x, pool_rect.centery - size // 2, size, size), value)
        x += size + gap
    lines = panel.blocks[:6]
    cells = w.rows(blocks_rect, max(1, len(lines)), frame.px(0.6), max_height=frame.px(10))
    for block, cell in zip(lines, cells, strict=False):
        ball = max(8, cell.height - 2)
        name = w.text(
            frame,
            block.owner,
            min(4.6, cell.height / frame.u * 0.6),
            (cell.x, cell.centery),
            res.TEXT,
            "midleft",
            max_width=cell.width // 4,
        )
        x = cell.x + cell.width // 4 + frame.px(1)
        for card in block.cards:
            if x + ball > cell.right - frame.px(16):
                break
            w.symbol(frame, view.game_id, card, (x + ball // 2, cell.centery), ball)
            x += int(ball * 0.9)
        dice = f"+{len(block.dice)} dice" if block.dice else ""
        w.text(
            frame,
            dice,
            min(4.2, cell.height / frame.u * 0.55),
            (cell.right, cell.centery),
            res.DIM,
            "midright",
        )
        del name


# --- Jackpot Payout --------------------------------------------------------------------------


def _payout(frame: w.Frame, view: TableView, panel: PayoutPanel, rect: pygame.Rect) -> None:
    reels_rect, board = w.split_h(rect, 0.55, frame.px(1))
    if view.reels is not None:
        frame.reels.draw(frame.surface, reels_rect, view.game_id, view.reels, frame.now)
    counters, rest = w.split_h(board, 0.3, frame.px(1))
    note_rect, display = w.split_h(rest, 0.22, 0)
    items = [("Bank", panel.bank), ("Box", panel.box), ("Tokens", panel.substitutes)]
    for (label, value), cell in zip(items, w.columns(counters, 3, frame.px(1.5)), strict=False):
        w.box(frame, cell, (28, 24, 56), res.PANEL_EDGE, 1.5, 0.4)
        size = min(cell.height / frame.u * 0.55, 6.0)
        w.text(frame, label, size * 0.75, (cell.x + frame.px(1.5), cell.centery), res.DIM, "midleft")
        w.text(frame, str(value), size, (cell.right - frame.px(1.5), cell.centery), res.GOLD, "midright")
    # the display's seven piles plus the coinless wild supply
    cards = panel.display[:8]
    if cards:
        slots = w.columns(display, max(4, len(cards)), frame.px(1))
        for card, slot in zip(cards, slots, strict=False):
            w.box(frame, slot, (250, 248, 240), (32, 24, 28), 1.2, 0.4)
            icon = max(8, min(slot.width, slot.height) - frame.px(5))
            symbol_id = "|".join(card.symbols) if card.symbols else "wild"
            w.symbol(frame, view.game_id, symbol_id, (slot.centerx, slot.y + icon // 2 + frame.px(0.5)), icon)
            coins = f"{card.coins}c" + (f" {card.ability}" if card.ability else "")
            w.text(
                frame,
                coins,
                3.4,
                (slot.centerx, slot.bottom - frame.px(0.3)),
                (40, 30, 20),
                "midbottom",
                max_width=slot.width - 2,
                bold=False,
            )
    if panel.pairs or panel.end_trigger:
        note = panel.end_trigger or ("Pairs: " + ", ".join(panel.pairs))
        w.text(frame, note, 4.4, note_rect.center, res.GOLD, "center", max_width=rect.width)
