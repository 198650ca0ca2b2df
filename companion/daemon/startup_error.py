"""When the service cannot start (a configuration mistake), say why on the screen.

Before, ``companion run`` printed one line to the log and exited; systemd restarted it ten times
and gave up, leaving the table with a blank screen and nobody knowing to run ``journalctl``.
Under systemd, :func:`show_until_fixed` instead puts the same one line on the screen, tells
systemd (``READY=1`` so it is not killed as a failed start, ``STATUS=`` with the message for
``systemctl status``), keeps the watchdog fed, and exits when the file changes, with
:data:`RESTART_STATUS` so ``Restart=on-failure`` starts the companion again on the fixed file.
From a terminal the one-line error is enough and nothing is drawn.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.daemon.notify import Notifier
from companion.screen.views import MessageView

log = logging.getLogger(__name__)

#: Exit status after the file changed: EX_TEMPFAIL, a failure, so ``Restart=on-failure`` acts.
RESTART_STATUS = 75


def _stamp(path: Path | None) -> tuple[float, int] | None:
    if path is None:
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime, stat.st_size


def error_view(message: str, path: Path | None) -> MessageView:
    """The screen: what is wrong (the config error's own line) and what to do."""
    where = str(path) if path else "the configuration file"
    return MessageView("The companion cannot start", (
        message,
        f"Fix {where}; the companion starts again by itself once the file is saved.",
        "Details: journalctl -u jackpot-companion",
    ), tone="warn")


def show_until_fixed(message: str, path: Path | None, *, notifier: Notifier | None = None,
                     display_factory: Callable[[], Any] | None = None, poll: float = 0.5,
                     stop: threading.Event | None = None) -> int:
    """Show ``message`` until ``path`` changes (returns :data:`RESTART_STATUS`) or SIGTERM (0).

    Raises whatever ``display_factory`` raises when no screen can be opened (the caller then
    reports the config error as usual).
    """
    notifier = notifier or Notifier()
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    if display_factory is None:
        from companion.screen.display import Display

        def display_factory() -> Any:
            return Display(fullscreen=True)

    display = display_factory()
    view = error_view(message, path)
    before = _stamp(path)
    log.error("cannot start: %s (shown on the screen until the file changes)", message)
    notifier.ready(f"cannot start: {message}")
    try:
        while not stop.is_set():
            now = time.monotonic()
            display.draw(view, now)
            notifier.watchdog(now)
            if _stamp(path) != before:
                log.info("%s changed: restarting to read it", path)
                return RESTART_STATUS
            stop.wait(poll)
    finally:
        display.close()
    return 0


def under_systemd(env: dict[str, str] | None = None) -> bool:
    """True when run as the service (systemd's notify socket is set)."""
    return bool((os.environ if env is None else env).get("NOTIFY_SOCKET"))
