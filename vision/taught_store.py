"""Where taught pictures live, and folders in it that the service and the host can both write.

On a Pi the companion runs as the service user ``jackpot`` with its state in
``/var/lib/jackpot-companion`` (the unit's ``StateDirectory=``, exported to it as
``$STATE_DIRECTORY``). A host who teaches from photos logs in as another user: their
``companion vision enroll`` must file the pictures where the service reads them, not in their
own home, where the camera would never see them. So the installed service's store is used
whenever it exists, and it is shared through the ``jackpot`` group: the installer makes
``enrolled`` setgid and group-writable and adds the host to the group; folders and pictures made
inside it keep it so (:func:`make_folder`, :func:`share`), whichever of the two made them.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from companion.errors import UserError

#: The installed service's state directory (the unit's ``StateDirectory=jackpot-companion``).
SERVICE_STATE_DIR = Path("/var/lib/jackpot-companion")
#: The group the installer shares the service's taught store with.
SERVICE_GROUP = "jackpot"
#: What a host does when the store is not theirs to open or write.
JOIN_THE_GROUP = f"sudo usermod -aG {SERVICE_GROUP} $USER, then log in again"


def default_store() -> Path:
    """Where taught pictures live: systemd's state directory (the service itself), else the
    installed service's (a host at a shell on the Pi), else the XDG state home (off the Pi).

    A host who cannot reach the installed service's store gets one line saying how, rather than
    a store of their own that the camera never reads.
    """
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "enrolled"
    if SERVICE_STATE_DIR.is_dir():
        store = SERVICE_STATE_DIR / "enrolled"
        reachable = os.access(SERVICE_STATE_DIR, os.X_OK)
        if reachable and (not store.exists() or os.access(store, os.R_OK | os.X_OK)):
            return store
        raise UserError(
            f"the companion's taught cards are in {store}, which this user cannot open: "
            f"{JOIN_THE_GROUP} (or give --store DIR)"
        )
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "jackpot-companion" / "enrolled"


def _shared(folder: Path) -> bool:
    """Whether ``folder`` is in a group-shared store (setgid: its files take its group)."""
    with contextlib.suppress(OSError):
        return bool(folder.stat().st_mode & stat.S_ISGID)
    return False


def make_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents); in a shared store group-writable like its parent, so
    that a face first taught by the host can be taught again at the table and the other way
    round (the service's umask 0027 and a login's 022 would each lock the other out).
    One line, not a traceback, when it cannot be made."""
    missing = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for made in reversed(missing):
            if _shared(made.parent):
                os.chmod(made, 0o2770)
    except OSError as error:
        raise UserError(
            f"cannot make {folder} ({error.strerror or error}): check the store's permissions "
            f"(on the Pi: {JOIN_THE_GROUP})"
        ) from None


def share(path: Path) -> None:
    """A file written into a shared store: readable and replaceable by the group."""
    if _shared(path.parent):
        with contextlib.suppress(OSError):
            os.chmod(path, 0o660)


def set_aside_note(damaged: Sequence[Path]) -> str:
    """What a host is told of taught pictures set aside as damaged (``EnrolledDeck.damaged``):
    the faces to teach again, by the names people know them by ("damaged taught pictures set
    aside: teach Plum, Bell again"); "" when there are none."""
    from vision.teachable import face_name

    faces: dict[tuple[str, str], None] = {}
    for path in damaged:
        # <store>/<game>/<face>/<n>.png, or the older flat <store>/<game>/<face>.png
        flat = not path.stem.isdigit()
        game, face = (path.parent.name, path.stem) if flat else (path.parent.parent.name, path.parent.name)
        faces[(game, face)] = None
    if not faces:
        return ""
    names = sorted({face_name(game, face) for game, face in faces})
    return f"damaged taught pictures set aside: teach {', '.join(names)} again"
