"""Teaching from every photo of ``shared/realcards``: taught or refused (and why), and each
taught cut-out checked against its label.

A single-card photo's cut-out is wrong when its outline's box overlaps the labelled box by
IoU < 0.85 while the card lies wholly in the photo; a multi-card photo must be refused (one
taught is a photo of several cards taken as one). One JSON line per photo goes to OUT, the
totals to stdout. Run from the repository with the project's interpreter::

    python scripts/realcards_teaching.py OUT.jsonl [dev-singles|held-singles|multis|all]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.bench.realcards import _box, _iou, default_photos, load_photos, part_of
from companion.errors import UserError
from vision.enrolled import capture_card
from vision.image_files import read_image

#: A taught cut-out is right when its box overlaps the labelled box at least this much.
RIGHT_IOU = 0.85


def _chosen(which: str, part: str, cards: int) -> bool:
    if which == "dev-singles":
        return part == "dev" and cards == 1
    if which == "held-singles":
        return part == "held-out" and cards == 1
    if which == "multis":
        return cards > 1
    return True


def look(which: str) -> list[dict[str, Any]]:
    """One row per chosen photo: taught (with the outline and its IoU) or refused (why)."""
    rows = []
    for index, photo in enumerate(load_photos(default_photos())):
        part = part_of(index)
        if not _chosen(which, part, len(photo.cards)):
            continue
        image = read_image(photo.path)
        h, w = image.shape[:2]
        row: dict[str, Any] = {"name": photo.path.name, "part": part, "cards": len(photo.cards)}
        cpu = time.thread_time()
        try:
            quad = np.asarray(capture_card(image, photo.path.name).quad, float)
        except UserError as error:
            row.update(status="refused", msg=str(error))
        else:
            row.update(status="taught", quad=quad.round(1).tolist())
            if len(photo.cards) == 1:
                box = photo.cards[0][1]
                row["whole"] = box[0] > 2 and box[1] > 2 and box[2] < w - 3 and box[3] < h - 3
                row["iou"] = round(_iou(_box(quad.tolist()), box), 3)
        row["cpu_ms"] = round((time.thread_time() - cpu) * 1000)
        rows.append(row)
    return rows


def main() -> None:
    """Write the rows and print the totals."""
    cv2.setNumThreads(1)
    out = Path(sys.argv[1])
    rows = look(sys.argv[2] if len(sys.argv) > 2 else "all")
    out.write_text("".join(json.dumps(row) + "\n" for row in rows))
    for part in ("dev", "held-out"):
        singles = [r for r in rows if r["cards"] == 1 and r["part"] == part]
        taught = [r for r in singles if r["status"] == "taught"]
        wrong = [r["name"] for r in taught if r["whole"] and r["iou"] < RIGHT_IOU]
        cut = [r["name"] for r in taught if not r["whole"]]
        if singles:
            refused = len(singles) - len(taught)
            print(f"singles {part}: {len(singles)}, taught {len(taught)}, refused {refused}, "
                  f"wrong cut-outs {wrong}, taught though cut by the photo's edge {cut}")
    multis = [r for r in rows if r["cards"] > 1]
    if multis:
        taken = [r["name"] for r in multis if r["status"] == "taught"]
        print(f"multi-card photos: {len(multis)}, taken as one {taken}")


if __name__ == "__main__":
    main()
