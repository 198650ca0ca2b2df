"""READY and WATCHDOG reach systemd's notify socket, including abstract socket names."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from companion.daemon.notify import Notifier


def _receiver(address: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(2)
    return sock


def test_ready_and_watchdog_reach_a_path_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "notify")
    receiver = _receiver(path)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "3000000")
    notifier = Notifier()
    assert notifier.watchdog_interval == pytest.approx(1.0)
    assert notifier.ready("screen, controls and camera up")
    assert receiver.recv(256) == b"READY=1\nSTATUS=screen, controls and camera up"
    assert notifier.watchdog(now=100.0)
    assert receiver.recv(256) == b"WATCHDOG=1"
    assert not notifier.watchdog(now=100.5)  # rate-limited: not yet a third of the interval
    assert notifier.watchdog(now=101.1)
    receiver.close()


def test_an_abstract_socket_name_starting_with_at_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"jackpot-test-{os.getpid()}"
    receiver = _receiver("\0" + name)
    monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
    assert Notifier().send("STATUS=hello")
    assert receiver.recv(64) == b"STATUS=hello"
    receiver.close()


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog()
