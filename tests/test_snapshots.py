"""The docs' pictures are what ``make screens`` (``python -m companion.snapshots``) draws today.

Every picture is drawn again from its scene (real games through the flows) and compared with
the committed file by content: both are shrunk to half size and a picture matches when fewer
than :data:`MOST_CHANGED` of its pixels clearly differ. A changed word, a reel symbol or a
prompt changes thousands of pixels; font hinting and the 96-colour palette change a few edge
pixels by a little. When this fails, run ``make screens`` and look at what changed.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.snapshots import PICTURES, Picture, render

ROOT = Path(__file__).resolve().parent.parent
#: Share of half-size pixels allowed to differ clearly (by more than CLEARLY in a channel).
MOST_CHANGED = 0.004
CLEARLY = 40
#: Pictures of the web scoreboard, taken in a browser by tests/scoreboard_browser.py.
BROWSER_PICTURES = {"docs/screens/scoreboard-phone.png", "docs/screens/scoreboard-laptop.png"}
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.png)\)")


def changed_share(a: Path, b: Path) -> float:
    """The share of pixels that clearly differ between two pictures, both shrunk to half size."""
    first, second = (Image.open(path).convert("RGB") for path in (a, b))
    if first.size != second.size:
        return 1.0
    half = (first.width // 2, first.height // 2)
    x, y = (np.asarray(image.resize(half, Image.Resampling.BOX), dtype=np.int16) for image in (first, second))
    return float((np.abs(x - y).max(axis=2) > CLEARLY).mean())


def shown_pictures() -> set[str]:
    """Every PNG the README and docs/ show, as a path from the checkout."""
    shown = set()
    for page in PAGES:
        for link in IMAGE.findall(page.read_text(encoding="utf-8")):
            shown.add((page.parent / link).resolve().relative_to(ROOT).as_posix())
    return shown


@pytest.mark.parametrize("picture", PICTURES, ids=lambda picture: Path(picture.path).name)
def test_the_committed_picture_is_what_its_scene_draws(picture: Picture, tmp_path: Path) -> None:
    drawn = render(picture, tmp_path)
    committed = ROOT / picture.path
    assert committed.exists(), f"{picture.path} is not committed: run make screens"
    share = changed_share(committed, drawn)
    assert share < MOST_CHANGED, f"{picture.path}: {share:.1%} of it changed: run make screens and check it"


def test_a_changed_word_is_a_changed_picture(tmp_path: Path) -> None:
    """The comparison sees what the docs once got wrong: the menu's items."""
    from companion.screen.display import Display
    from companion.screen.views import MenuItem, MenuView

    pictures = []
    for index, label in enumerate(("End this game", "Restart game")):
        items = (MenuItem("Resume"), MenuItem("Volume", "80 %"), MenuItem("Rotation", "0"), MenuItem(label))
        with Display(800, 480) as display:
            display.draw(MenuView(items, 0, title="Menu"), 0.0)
            pictures.append(tmp_path / f"{index}.png")
            display.save_png(pictures[-1])
    assert changed_share(pictures[0], pictures[0]) == 0.0
    assert changed_share(pictures[0], pictures[1]) > MOST_CHANGED


def test_every_picture_the_docs_show_is_drawn_by_the_command() -> None:
    made = {picture.path for picture in PICTURES}
    assert shown_pictures() - BROWSER_PICTURES == made


def test_every_picture_is_shown_where_the_registry_says() -> None:
    for picture in PICTURES:
        for page in picture.shown_in:
            text = (ROOT / page).read_text(encoding="utf-8")
            assert Path(picture.path).name in text, f"{picture.path} is not in {page}"


def test_no_picture_in_docs_is_left_over() -> None:
    committed = {path.relative_to(ROOT).as_posix() for path in (ROOT / "docs").rglob("*.png")}
    assert committed == {picture.path for picture in PICTURES} | BROWSER_PICTURES
