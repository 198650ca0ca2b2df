"""The drawings: one function per motif, all in the shared 100-unit design box.

Style, shared by every game: bold flat fills, one ink outline weight (:data:`canvas.STROKE`),
a white gloss on the upper left of each main body, and the motif filling about 80 % of the box
so it reads from across a table and prints cleanly on a card.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.art.palette import INK, RGB, mix, star_points

if TYPE_CHECKING:
    from companion.art.canvas import Canvas

Drawer = Callable[["Canvas"], None]

WHITE: RGB = (255, 255, 255)
LEAF: RGB = (60, 165, 70)
STEM: RGB = (110, 75, 40)
GOLD: RGB = (245, 190, 40)


def cherries(c: Canvas, color: RGB = (214, 28, 48)) -> None:
    """Two cherries on forked stems with a leaf."""
    c.stem([(36, 64), (44, 40), (58, 18)], STEM, 4.0)
    c.stem([(68, 60), (64, 38), (58, 18)], STEM, 4.0)
    c.ellipse((66, 20), (13, 6), -25, fill=LEAF)
    c.line((58, 18), (76, 13), INK, 1.4)
    for x, y in ((34, 70), (68, 66)):
        c.circle((x, y), 17, fill=color)
        c.gloss((x - 6, y - 6), (5, 3))


def plum(c: Canvas, color: RGB = (122, 52, 150)) -> None:
    """A plum: a plump oval with a crease, stalk and leaf."""
    c.stem([(52, 24), (56, 10)], STEM, 4.0)
    c.ellipse((68, 16), (14, 6), -20, fill=LEAF)
    c.ellipse((50, 56), (34, 32), -8, fill=color)
    c.ellipse((50, 56), (14, 28), -8, outline=mix(color, INK, 0.45), stroke=2.0, arc=(-80, 80))
    c.gloss((36, 44), (9, 5))


def bell(c: Canvas, color: RGB = GOLD) -> None:
    """A liberty bell: flared body, rim, clapper and handle loop."""
    c.ellipse((50, 16), (7, 7), fill=None, stroke=4.0)
    body: list[tuple[float, float]] = []
    for i in range(0, 19):
        t = i / 18
        y = 20 + 58 * t
        half = 16 + 10 * t**2 + 12 * max(0.0, t - 0.75) * 4
        body.append((50 + half, y))
    body.append((50 - 40, 78))
    for i in range(18, -1, -1):
        t = i / 18
        y = 20 + 58 * t
        half = 16 + 10 * t**2 + 12 * max(0.0, t - 0.75) * 4
        body.append((50 - half, y))
    top = [(50 - 16, 22)] + [
        (50 + 16 * math.cos(math.radians(a)), 22 - 10 * math.sin(math.radians(a)))
        for a in range(180, -1, -15)
    ]
    c.polygon(top + body, fill=color)
    c.circle((50, 84), 7, fill=mix(color, INK, 0.35))
    c.rounded_rect((10, 72, 90, 80), 4, fill=mix(color, (255, 255, 255), 0.2))
    c.gloss((38, 38), (5, 14), -15)


def seven(c: Canvas, color: RGB = (220, 30, 40)) -> None:
    """A lucky seven, drawn as a bold polygon (no font) with a slanted stem."""
    c.polygon([(16, 12), (84, 12), (84, 26), (56, 88), (36, 88), (63, 28), (16, 28)], fill=color, stroke=3.2)
    c.polygon([(20, 15), (80, 15), (80, 18), (20, 18)], fill=WHITE, outline=None, opacity=0.45)


def bar(c: Canvas, color: RGB = (30, 30, 36)) -> None:
    """The classic BAR: a black plate with white lettering."""
    c.rounded_rect((6, 30, 94, 70), 6, fill=color, stroke=3.2)
    c.rounded_rect((10, 34, 90, 66), 4, fill=None, outline=(235, 235, 235), stroke=1.8)
    c.text("BAR", (50, 50), 20, WHITE, outline=None, weight=0.2)


def wild_star(c: Canvas, word: str, color: RGB = (250, 200, 30)) -> None:
    """A wild: a gold star on a rainbow ring, with its word across the middle."""
    ring = [(228, 40, 60), (245, 150, 30), (250, 220, 40), (60, 170, 80), (40, 120, 220), (140, 60, 190)]
    for i, col in enumerate(ring):
        c.ellipse((50, 50), (44, 44), fill=None, outline=col, stroke=6.5, arc=(i * 60 - 90, i * 60 - 30))
    c.circle((50, 50), 47, outline=INK, stroke=1.8)
    c.circle((50, 50), 40.5, outline=INK, stroke=1.8)
    c.polygon(star_points((50, 53), 38, 17), fill=color)
    height = 11 if len(word) <= 3 else 8.5
    c.text(word, (50, 56), height, INK, outline=None, weight=0.22)


def blank(c: Canvas, color: RGB = (150, 150, 158)) -> None:
    """The bad-luck blank: an empty frame struck through (it matches nothing)."""
    c.rounded_rect((14, 14, 86, 86), 10, fill=(236, 236, 240), outline=color, stroke=4.0)
    c.line((24, 76), (76, 24), color, 6.0)


def die_box(c: Canvas, color: RGB, emblem: str) -> None:
    """A Pay Line die face / box: a coloured rounded tile with a white emblem."""
    c.rounded_rect((8, 8, 92, 92), 16, fill=color, stroke=3.2)
    c.rounded_rect((14, 14, 86, 86), 12, fill=None, outline=mix(color, WHITE, 0.45), stroke=1.6)
    light = WHITE
    if emblem == "circle":
        c.circle((50, 50), 20, fill=light)
    elif emblem == "diamond":
        c.polygon([(50, 26), (74, 50), (50, 74), (26, 50)], fill=light)
    else:
        c.polygon(star_points((50, 52), 26, 11), fill=light)
    c.gloss((28, 24), (10, 4), -20)


def apple(c: Canvas, color: RGB = (222, 50, 40)) -> None:
    """An apple: two lobes, a stalk and a leaf."""
    c.stem([(50, 30), (54, 10)], STEM, 4.0)
    c.ellipse((66, 16), (13, 6), -25, fill=LEAF)
    body = []
    for i in range(0, 73):
        a = math.radians(i * 5)
        r = 36 + 4 * math.cos(2 * a)
        dip = 7 * math.exp(-(((math.degrees(a) - 270) / 22) ** 2))  # the notch at the top
        dip += 4 * math.exp(-(((math.degrees(a) - 90) / 18) ** 2))  # and a softer one below
        body.append((50 + r * math.cos(a), 56 + (r - dip) * math.sin(a) * 0.92))
    c.polygon(body, fill=color)
    c.gloss((36, 46), (8, 5), -40)


def diamond(c: Canvas, color: RGB = (60, 190, 230)) -> None:
    """A cut gem: crown, table and pavilion facets."""
    outline = [(28, 20), (72, 20), (92, 40), (50, 90), (8, 40)]
    c.polygon(outline, fill=color, stroke=3.0)
    light = mix(color, WHITE, 0.55)
    dark = mix(color, INK, 0.25)
    c.polygon([(28, 20), (72, 20), (62, 40), (38, 40)], fill=light, outline=None)
    c.polygon([(38, 40), (62, 40), (50, 90)], fill=mix(color, WHITE, 0.25), outline=None)
    c.polygon([(72, 20), (92, 40), (62, 40)], fill=dark, outline=None)
    c.polygon([(62, 40), (92, 40), (50, 90)], fill=dark, outline=None, opacity=0.6)
    for a, b in (
        ((8, 40), (92, 40)),
        ((38, 40), (28, 20)),
        ((62, 40), (72, 20)),
        ((38, 40), (50, 90)),
        ((62, 40), (50, 90)),
    ):
        c.line(a, b, INK, 1.6)
    c.polygon(outline, outline=INK, stroke=3.0)


def carpet(c: Canvas, color: RGB = (150, 40, 160)) -> None:
    """A flying magic carpet: a wavy rug with fringe and a gold diamond pattern."""
    top = [(10 + i * 4, 32 + 6 * math.sin(i * 0.55)) for i in range(21)]
    bottom = [(10 + i * 4 - 6, 66 + 6 * math.sin(i * 0.55 + 0.6)) for i in range(20, -1, -1)]
    for x, y in bottom[::2]:
        c.line((x, y), (x - 3, y + 9), GOLD, 2.2)
    c.polygon(top + bottom, fill=color, stroke=3.0)
    inner_top = [(x + 2, y + 5) for x, y in top[1:-1]]
    inner_bottom = [(x + 2, y - 5) for x, y in bottom[1:-1]]
    c.polyline(inner_top, GOLD, 2.0)
    c.polyline(inner_bottom, GOLD, 2.0)
    for cx in (30, 50, 70):
        cy = 49 + 6 * math.sin((cx - 10) / 4 * 0.55 + 0.3)
        c.polygon([(cx, cy - 8), (cx + 7, cy), (cx, cy + 8), (cx - 7, cy)], fill=GOLD, stroke=1.5)
    c.line((6, 30), (10, 32), GOLD, 2.5)


def lamp(c: Canvas, color: RGB = GOLD) -> None:
    """The genie's lamp with a curl of smoke."""
    smoke = (170, 120, 230)
    c.ellipse((60, 28), (14, 9), 0, fill=smoke, outline=INK, stroke=1.8, opacity=0.9)
    c.ellipse((50, 16), (9, 6), 0, fill=smoke, outline=INK, stroke=1.8, opacity=0.9)
    c.polyline([(82, 54), (72, 40), (64, 36)], smoke, 5.0)
    c.ellipse((20, 64), (10, 12), 0, fill=None, stroke=5.0, arc=(90, 270))
    c.polygon([(66, 62), (92, 48), (96, 52), (74, 72)], fill=color)
    c.ellipse((48, 66), (30, 16), 0, fill=color)
    c.ellipse((48, 52), (12, 5), 0, fill=mix(color, INK, 0.15))
    c.polygon([(44, 48), (52, 48), (50, 40), (46, 40)], fill=color)
    c.rounded_rect((32, 80, 64, 88), 3, fill=mix(color, INK, 0.2))
    c.gloss((36, 60), (9, 4), -10)


def monkey(c: Canvas, color: RGB = (140, 90, 50)) -> None:
    """A cheeky monkey face (the Mega Jackpot bust tile)."""
    face = (236, 196, 150)
    c.circle((16, 46), 12, fill=color)
    c.circle((84, 46), 12, fill=color)
    c.circle((16, 46), 6, fill=face, outline=None)
    c.circle((84, 46), 6, fill=face, outline=None)
    c.circle((50, 50), 36, fill=color)
    c.ellipse((50, 60), (26, 22), 0, fill=face)
    c.ellipse((40, 40), (11, 12), 0, fill=face, outline=None)
    c.ellipse((60, 40), (11, 12), 0, fill=face, outline=None)
    c.circle((41, 42), 4.5, fill=INK, outline=None)
    c.circle((59, 42), 4.5, fill=INK, outline=None)
    c.circle((42.5, 40.5), 1.5, fill=WHITE, outline=None)
    c.circle((60.5, 40.5), 1.5, fill=WHITE, outline=None)
    c.circle((46, 56), 1.8, fill=INK, outline=None)
    c.circle((54, 56), 1.8, fill=INK, outline=None)
    c.ellipse((50, 66), (12, 7), 0, fill=None, stroke=2.4, arc=(10, 170))
    c.gloss((34, 24), (7, 3), -25)


def tile(c: Canvas, face: Drawer, color: RGB) -> None:
    """A square game tile behind a motif, scaled down to fit inside the tile border."""
    c.rounded_rect((4, 4, 96, 96), 12, fill=color, stroke=3.2)
    c.rounded_rect((9, 9, 91, 91), 9, fill=None, outline=mix(color, WHITE, 0.5), stroke=1.6)
    with c.inset(14, 72):
        face(c)


def lottery_ball(c: Canvas, numeral: str, color: RGB) -> None:
    """A lottery ball: a coloured ball, a white disc, a bold numeral."""
    c.circle((50, 50), 44, fill=color, stroke=3.2)
    c.circle((50, 50), 26, fill=WHITE, stroke=1.8)
    c.text(numeral, (50, 50), 24, INK, outline=None, weight=0.2)
    c.gloss((30, 26), (10, 5), -35)


def pip_token(c: Canvas, value: int, color: RGB) -> None:
    """A round lottery token showing a die value as pips."""
    c.circle((50, 50), 45, fill=color, stroke=3.2)
    c.circle((50, 50), 38, fill=WHITE, outline=mix(color, INK, 0.3), stroke=1.6)
    spots = {
        1: [(50, 50)],
        2: [(34, 34), (66, 66)],
        3: [(32, 32), (50, 50), (68, 68)],
        4: [(34, 34), (66, 34), (34, 66), (66, 66)],
        5: [(33, 33), (67, 33), (50, 50), (33, 67), (67, 67)],
        6: [(35, 30), (65, 30), (35, 50), (65, 50), (35, 70), (65, 70)],
    }[value]
    for p in spots:
        c.circle(p, 6.5, fill=INK, outline=None)


def all_token(c: Canvas, color: RGB) -> None:
    """The 'all' token: every die scores that space (a star)."""
    c.circle((50, 50), 45, fill=color, stroke=3.2)
    c.circle((50, 50), 38, fill=WHITE, outline=mix(color, INK, 0.3), stroke=1.6)
    c.polygon(star_points((50, 52), 30, 13), fill=GOLD)
    c.text("ALL", (50, 54), 9, INK, outline=None, weight=0.22)


def none_token(c: Canvas, color: RGB) -> None:
    """The 'none' token: no die scores that space (a struck circle)."""
    c.circle((50, 50), 45, fill=color, stroke=3.2)
    c.circle((50, 50), 38, fill=WHITE, outline=mix(color, INK, 0.3), stroke=1.6)
    c.circle((50, 50), 24, fill=None, outline=(210, 40, 40), stroke=7)
    c.line((34, 66), (66, 34), (210, 40, 40), 7)


def grapes(c: Canvas, color: RGB = (110, 60, 170)) -> None:
    """A bunch of grapes with a vine leaf."""
    c.stem([(50, 22), (54, 6)], STEM, 4.0)
    c.polygon([(54, 16), (70, 6), (86, 12), (80, 24), (64, 26)], fill=LEAF)
    rows = [(22, [34, 50, 66]), (38, [26, 42, 58, 74]), (54, [34, 50, 66]), (69, [42, 58]), (84, [50])]
    for y, xs in rows:
        for x in xs:
            c.circle((x, y), 10.5, fill=color, stroke=2.2)
            c.gloss((x - 3.5, y - 3.5), (3, 1.8))


def crown(c: Canvas, color: RGB = GOLD) -> None:
    """A royal crown with three jewels."""
    pts = [(12, 76), (8, 30), (30, 50), (50, 18), (70, 50), (92, 30), (88, 76)]
    c.polygon(pts, fill=color, stroke=3.0)
    for x, y in ((8, 30), (50, 18), (92, 30)):
        c.circle((x, y), 5.5, fill=color)
    c.rounded_rect((12, 70, 88, 86), 3, fill=mix(color, INK, 0.15))
    c.circle((50, 78), 5, fill=(214, 28, 48), stroke=1.6)
    c.circle((30, 78), 4, fill=(60, 170, 80), stroke=1.6)
    c.circle((70, 78), 4, fill=(40, 120, 220), stroke=1.6)
    c.gloss((30, 56), (8, 3.5), -35)


def shamrock(c: Canvas, color: RGB = (40, 160, 70)) -> None:
    """A shamrock: three heart-shaped leaves and a stem."""
    c.stem([(50, 54), (56, 74), (66, 90)], color, 5.0)
    for angle in (-90, 30, 150):
        a = math.radians(angle)
        cx, cy = 50 + 20 * math.cos(a), 50 + 20 * math.sin(a)
        c.polygon(_heart((cx, cy), 19, angle + 90), fill=color)
    c.circle((50, 50), 5, fill=mix(color, INK, 0.2), outline=None)
    c.gloss((44, 28), (5, 3), -30)


def _heart(center: tuple[float, float], size: float, rotate: float) -> list[tuple[float, float]]:
    pts = []
    r = math.radians(rotate)
    for i in range(48):
        t = 2 * math.pi * i / 48
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        x, y = x * size / 17, (y + 2) * size / 17
        # the heart's tip points toward the middle: rotate so "down" points inward
        xr = x * math.cos(r) - y * math.sin(r)
        yr = x * math.sin(r) + y * math.cos(r)
        pts.append((center[0] + xr, center[1] + yr))
    return pts
