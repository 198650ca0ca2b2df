"""Write the companion's sound effects as small WAV files (22050 Hz, mono, 16-bit).

    python -m sounds.make_sounds            # from the repository root
    python sounds/make_sounds.py [FOLDER]

Every effect is synthesised by :mod:`companion.sound.synth` (numpy, seeded), so running this
again gives the same files. The box-shake rattle is written for each chip count in
``SHAKE_CHIPS`` (``shake_<n>.wav``): cabinet mode then plays every sound without NumPy.
"""

from __future__ import annotations

import functools
import sys
import wave
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.sound.levels import SHAKE_CHIPS  # noqa: E402
from companion.sound.synth import EFFECTS, RATE, shake, to_pcm16  # noqa: E402


def write_all(folder: Path) -> list[Path]:
    """Write every fixed effect into ``folder``; returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    makers = {**EFFECTS, **{f"shake_{chips}": functools.partial(shake, chips) for chips in SHAKE_CHIPS}}
    for name, make in makers.items():
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(to_pcm16(make()))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Write the WAVs into the given folder (default: this script's folder)."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else Path(__file__).resolve().parent
    for path in write_all(folder):
        print(f"{path}  {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
