"""systemd's notify protocol in a few lines of standard library (no python-systemd needed).

``READY=1`` once screen, controls and camera are up; ``WATCHDOG=1`` from the main loop itself so
a frozen loop gets restarted; ``STATUS=...`` for ``systemctl status``. Without ``$NOTIFY_SOCKET``
(not under systemd) every call is a no-op.

>>> Notifier(env={}).send("READY=1")
False
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping


class Notifier:
    """Sends sd_notify messages; rate-limits watchdog pings to a fraction of ``WATCHDOG_USEC``."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        path = env.get("NOTIFY_SOCKET")
        # An abstract socket name starts with '@', which stands for a leading NUL byte.
        self.address = ("\0" + path[1:]) if path and path.startswith("@") else path
        usec = env.get("WATCHDOG_USEC", "")
        interval = int(usec) / 1e6 / 3 if usec.isdigit() and int(usec) > 0 else 5.0
        self.watchdog_interval = interval
        self._last_ping = 0.0

    @property
    def enabled(self) -> bool:
        """True under systemd (``$NOTIFY_SOCKET`` set)."""
        return bool(self.address)

    def send(self, message: str) -> bool:
        """Send one message; returns False when there is no socket or sending failed."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode())
        except OSError:
            return False
        return True

    def ready(self, status: str = "playing") -> bool:
        """Tell systemd the service is up."""
        return self.send(f"READY=1\nSTATUS={status}")

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status``."""
        return self.send(f"STATUS={text}")

    def watchdog(self, now: float | None = None) -> bool:
        """Ping the watchdog if a third of its interval has passed; call every loop iteration."""
        now = time.monotonic() if now is None else now
        if now - self._last_ping < self.watchdog_interval:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        """Tell systemd we are shutting down on purpose."""
        return self.send("STOPPING=1")
