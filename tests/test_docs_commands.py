"""Every command the README and docs/ show runs as written, after ``make run``'s set-up.

Three checks, from the cheapest:

- every ``companion ...`` the docs write out (in ``sh`` blocks and in inline code) is accepted
  by the real argument parser: the sub-command exists, its options exist, nothing required is
  missing. A span of command words only (``companion vision identify``) names a command and
  must name a real one. Synopses (``[--seconds N]``, ``print|mat``, ``GAME``) are skipped;
- the ``$ command`` examples run in a shell, from the checkout, with the venv's ``bin`` first on
  the PATH (what ``. .venv/bin/activate`` does), and print exactly the lines shown under them,
  exiting 2 when they show a ``companion:`` error line and 0 otherwise;
- every side-effect-free command shown (``companion games``, ``... --help``) runs and exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|console)\n(.*?)^```", re.S | re.M)
ANY_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")
OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1"}
#: Sub-commands that read or print and change nothing: the docs' examples of them are run.
SIDE_EFFECT_FREE = {"games", "adjudicate"}


@dataclass(frozen=True)
class Example:
    """A ``$ command`` line of a shell block and the output shown under it."""

    page: str
    command: str
    output: str


def rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def shell_lines(body: str) -> list[str]:
    """A shell block's lines, continuation backslashes joined."""
    return body.replace("\\\n", " ").splitlines()


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        for body in SHELL_BLOCK.findall(page.read_text(encoding="utf-8")):
            lines = shell_lines(body)
            for index, line in enumerate(lines):
                if line.startswith("$ "):
                    output = []
                    for after in lines[index + 1:]:
                        if after.startswith("$ "):
                            break
                        output.append(after)
                    found.append(Example(rel(page), line[2:], "\n".join(output)))
    return found


def invocations(line: str) -> list[list[str]]:
    """The argument lists of every ``companion`` run in one shell line (comments dropped)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:
        return []
    runs, current = [], None
    for token in tokens:
        if current is not None and token in OPERATORS:
            runs.append(current)
            current = None
        elif current is not None:
            current.append(token)
        elif token == "companion" or token.endswith("/companion"):
            current = []
    return runs + ([current] if current is not None else [])


def written_commands() -> list[tuple[str, str, list[str]]]:
    """(page, the text as written, its arguments) for every companion command the docs show."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for body in SHELL_BLOCK.findall(text):
            for line in shell_lines(body):
                if line.startswith("companion:"):
                    continue  # an error line an example prints
                for args in invocations(line.removeprefix("$ ")):
                    found.append((rel(page), line, args))
        for span in INLINE.findall(ANY_BLOCK.sub("", text)):
            if span.startswith(("companion ", ".venv/bin/companion ")):
                for args in invocations(span):
                    found.append((rel(page), span, args))
    return found


def is_synopsis(args: list[str]) -> bool:
    """A usage line rather than a command: optional parts, alternatives, placeholders."""
    return any(
        any(mark in arg for mark in ("[", "|", "...", "<")) or re.fullmatch(r"[A-Z][A-Z0-9_]*", arg)
        for arg in args
    )


def command_words(parser: argparse.ArgumentParser, args: list[str]) -> int:
    """How many leading ``args`` are (sub-)command names."""
    count = 0
    while count < len(args):
        subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subparsers or args[count] not in subparsers[0].choices:
            break
        parser = subparsers[0].choices[args[count]]
        count += 1
    return count


def parse_error(args: list[str]) -> str | None:
    """What the real parser says about ``args`` (None: accepted)."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(args)
    except SystemExit as leaving:
        if leaving.code not in (0, None):
            return errors.getvalue().strip().splitlines()[-1]
    return None


def test_the_readme_says_how_companion_gets_on_the_path() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    two_commands = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    assert ". .venv/bin/activate" in two_commands and ".venv/bin/companion" in two_commands


def test_every_companion_command_in_the_docs_parses() -> None:
    parser = build_parser()
    checked, wrong = 0, []
    for page, span, args in written_commands():
        if is_synopsis(args):
            continue
        words = command_words(parser, args)
        if words == 0:
            wrong.append(f"{page}: `{span}`: no such command")
            continue
        error = parse_error(args + ["--help"] if words == len(args) else args)
        checked += 1
        if error:
            wrong.append(f"{page}: `{span}`: {error}")
    assert wrong == []
    assert checked > 20  # the docs show dozens: a broken extractor must not pass by finding none


def test_a_command_missing_a_required_option_is_found() -> None:
    assert parse_error(["cards", "print", "bandit"]) is not None
    assert parse_error(["cards", "print", "bandit", "--out", "cards.pdf"]) is None


def run_as_written(command: str, folder: Path) -> subprocess.CompletedProcess[str]:
    """``command`` in bash from the checkout, the venv's bin first on the PATH (as activated)."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", HOME=str(folder))
    return subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("example", examples(), ids=lambda e: f"{e.page}:{e.command[:40]}")
def test_every_dollar_example_prints_what_the_docs_show(example: Example, tmp_path: Path) -> None:
    runs = invocations(example.command)
    assert runs and all(args[0] in SIDE_EFFECT_FREE for args in runs), "only side-effect-free examples"
    done = run_as_written(example.command, tmp_path)
    error = example.output.startswith("companion:")
    assert done.returncode == (2 if error else 0), done.stderr
    assert (done.stderr if error else done.stdout).rstrip("\n") == example.output


def side_effect_free_commands() -> list[tuple[str, str]]:
    shown = {
        (page, shlex.join(["companion", *args]))
        for page, span, args in written_commands()
        if not is_synopsis(args) and args and (args == ["games"] or args[-1] == "--help")
    }
    return sorted(shown)


def test_some_side_effect_free_commands_are_shown() -> None:
    assert ("README.md", "companion games") in side_effect_free_commands()


@pytest.mark.parametrize("page, command", side_effect_free_commands())
def test_every_side_effect_free_command_shown_runs(page: str, command: str, tmp_path: Path) -> None:
    done = run_as_written(command, tmp_path)
    assert done.returncode == 0, f"{page}: {command}: {done.stderr}"
    assert done.stdout.strip()


def subcommand(parser: argparse.ArgumentParser, words: list[str]) -> argparse.ArgumentParser:
    """The parser of the (sub-)command ``words`` names."""
    for word in words:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


def test_every_option_a_usage_line_names_exists() -> None:
    parser = build_parser()
    wrong = []
    for page, span, args in written_commands():
        if not is_synopsis(args):
            continue
        args = [arg.split("|")[0] for arg in args]  # of alternatives (print|mat|images), the first
        words = command_words(parser, args)
        if words == 0:
            if args != ["..."]:  # `companion ...`: any command
                wrong.append(f"{page}: `{span}`: no such command")
            continue
        actions = subcommand(parser, args[:words])._actions
        known = {option for action in actions for option in action.option_strings}
        for option in re.findall(r"--[a-z][a-z-]*", " ".join(args[words:])):
            if option not in known:
                wrong.append(f"{page}: `{span}`: no option {option}")
    assert wrong == []
