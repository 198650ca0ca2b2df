"""A configuration mistake under systemd is shown on the screen (not a blank screen after ten
failed restarts), systemd hears why, and fixing the file restarts the companion."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from companion.daemon.notify import Notifier
from companion.daemon.startup_error import RESTART_STATUS, show_until_fixed
from companion.screen.views import MessageView


class _Screen:
    def __init__(self) -> None:
        self.views: list[Any] = []
        self.closed = False

    def draw(self, view: Any, now: float) -> None:
        self.views.append(view)

    def close(self) -> None:
        self.closed = True


def test_the_screen_says_what_is_wrong_until_the_file_changes(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[screen]\nrotation = 45\n")
    screen = _Screen()
    drawn = threading.Event()

    class Watch(_Screen):
        def draw(self, view: Any, now: float) -> None:
            screen.draw(view, now)
            drawn.set()

    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(show_until_fixed(
        "config.toml: screen.rotation must be 0, 90, 180 or 270, not 45", config,
        notifier=Notifier(env={}), display_factory=Watch, poll=0.02)))
    worker.start()
    assert drawn.wait(60)
    config.write_text("[screen]\nrotation = 90\n")
    worker.join(60)
    assert result == [RESTART_STATUS]
    view = screen.views[0]
    assert isinstance(view, MessageView) and view.tone == "warn"
    assert "screen.rotation" in view.lines[0] and str(config) in view.lines[1]


def test_under_systemd_a_bad_config_is_shown_and_systemd_is_told(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[screen]\nrotation = 45\n")
    notify = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(120)
    env = dict(os.environ, NOTIFY_SOCKET=str(notify), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               STATE_DIRECTORY=str(tmp_path / "state"))
    process = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config)],
                               env=env, stderr=subprocess.PIPE, text=True)
    try:
        message = sock.recv(4096).decode()
        assert message.startswith("READY=1") and "screen.rotation" in message
        config.write_text("[screen]\nrotation = 90\n")  # fixed: the companion restarts itself
        assert process.wait(timeout=120) == RESTART_STATUS
        assert "screen.rotation" in (process.stderr.read() if process.stderr else "")
    finally:
        if process.poll() is None:
            process.kill()
        sock.close()


def test_from_a_terminal_a_bad_config_is_still_one_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[screen]\nrotation = 45\n")
    env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--config", str(config)],
                          env=dict(env, SDL_VIDEODRIVER="dummy"), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "screen.rotation" in done.stderr
