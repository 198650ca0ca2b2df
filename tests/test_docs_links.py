"""The documents the code and the docs point to are in the repository.

Docstrings, comments and the README once cited ``RULINGS.md`` and ``PLATFORM.md``, design notes
kept outside the repository; a reader of the checkout could not follow them. Every ``docs/...``
path named anywhere, and every relative link in the README and ``docs/``, must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    path
    for folder in ("companion", "hardware", "vision", "tests", "scripts", "systemd", "docs")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.suffix in {".py", ".md", ".toml", ".sh", ".service", ".txt"} and path.name != Path(__file__).name
] + [ROOT / "README.md", ROOT / "Makefile"]
MARKDOWN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

DOCS_PATH = re.compile(r"\bdocs/[\w./-]*\w")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_nothing_cites_the_design_notes_outside_the_repository() -> None:
    cited = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in SOURCES
        for name in ("RULINGS.md", "PLATFORM.md", "install-pi.md")
        if name in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert cited == []


def test_every_docs_path_named_in_the_code_and_the_docs_exists() -> None:
    missing = {
        f"{path.relative_to(ROOT)}: {found}"
        for path in SOURCES
        for found in DOCS_PATH.findall(path.read_text(encoding="utf-8", errors="replace"))
        if not (ROOT / found).exists()
    }
    assert sorted(missing) == []


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_in_the_docs_exists(page: Path) -> None:
    links = [link for link in LINK.findall(page.read_text(encoding="utf-8")) if "://" not in link]
    assert [link for link in links if not (page.parent / link).exists()] == []


def test_the_readme_draws_the_layers_of_the_layering_test() -> None:
    from tests.test_layering import LAYERS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    drawing = text.split("## Architecture", 1)[1].split("```", 2)[1]
    drawn = []
    for line in drawing.splitlines():
        if line.strip() and not line.startswith((" ", "|")):
            names = re.split(r"\s*[,|]\s*", line.split("  ")[0].strip())
            drawn.append({name if name in ("vision", "hardware") else f"companion.{name}" for name in names})
    expected = [layer - {"companion", "companion.__main__"} for layer in reversed(LAYERS)]
    assert drawn == expected
