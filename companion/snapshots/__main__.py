"""``python -m companion.snapshots [--root DIR] [NAME ...]``: draw the documented pictures.

Without names every picture is drawn; a name is a picture's file name or a part of its path
(``bandit`` draws every Bandit picture). ``--root`` is the checkout (default: the current folder).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.snapshots import PICTURES, render


def main(argv: Sequence[str] | None = None) -> int:
    """Draw the pictures asked for and print each file written."""
    parser = argparse.ArgumentParser(prog="python -m companion.snapshots",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", help="draw only pictures whose path contains one of these")
    parser.add_argument("--root", type=Path, default=Path("."), help="the checkout to write docs/ into")
    args = parser.parse_args(argv)
    chosen = [p for p in PICTURES if not args.names or any(name in p.path for name in args.names)]
    if not chosen:
        print(f"no picture matches {' '.join(args.names)}", file=sys.stderr)
        return 2
    for picture in chosen:
        print(render(picture, args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
