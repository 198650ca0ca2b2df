"""Where phones find the scoreboard: ``http://<hostname>.local:8080/`` and the Pi's LAN address,
and the QR code of it that the companion's attract screen and menu show.

>>> scoreboard_urls(8080, "0.0.0.0", hostname="jackpot", lan_ip="192.168.1.20")
['http://jackpot.local:8080/', 'http://192.168.1.20:8080/']
>>> scoreboard_urls(9000, "127.0.0.1", hostname="jackpot", lan_ip="192.168.1.20")
['http://127.0.0.1:9000/']
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from companion.screen.views import ScoreboardLink

_ANY = ("", "0.0.0.0", "::")


def lan_ip(fib_trie: Path = Path("/proc/net/fib_trie")) -> str | None:
    """The address this machine reaches its LAN with, or None without a network.

    A UDP "connect" only picks the route; no packet is sent, so this works without internet.
    The daemon's unit allows no internet sockets at all (``RestrictAddressFamilies``), so then
    the kernel's own table of local addresses is read instead.
    """
    for family, probe in ((socket.AF_INET, "10.255.255.255"), (socket.AF_INET6, "fd00::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = str(s.getsockname()[0])
        except OSError:
            continue
        if not ip.startswith("127.") and ip != "::1":
            return ip
    return local_address(fib_trie)


def local_address(fib_trie: Path) -> str | None:
    """The first non-loopback ``/32 host LOCAL`` address in ``/proc/net/fib_trie``.

    >>> import tempfile
    >>> table = Path(tempfile.mkdtemp()) / "fib_trie"
    >>> _ = table.write_text("|-- 127.0.0.1\\n /32 host LOCAL\\n|-- 192.168.1.255\\n /32 link BROADCAST\\n"
    ...                      "|-- 192.168.1.20\\n /32 host LOCAL\\n")
    >>> local_address(table)
    '192.168.1.20'
    """
    try:
        lines = fib_trie.read_text().splitlines()
    except OSError:
        return None
    for above, line in zip(lines, lines[1:], strict=False):
        if line.split() == ["/32", "host", "LOCAL"] and "-- " in above:
            ip = above.split("-- ", 1)[1].strip()
            if not ip.startswith("127."):
                return ip
    return None


def scoreboard_urls(port: int, host: str = "0.0.0.0", hostname: str | None = None,
                    lan_ip: str | None = None) -> list[str]:
    """The addresses to show: the ``.local`` name (mDNS, what phones type) first, then the IP.

    A scoreboard bound to one address is only reachable there, so only that one is shown.
    """
    if host not in _ANY:
        return [f"http://{_bracket(host)}:{port}/"]
    name = (hostname if hostname is not None else socket.gethostname()).split(".")[0]
    urls = [f"http://{name}.local:{port}/"] if name and name != "localhost" else []
    if lan_ip:
        urls.append(f"http://{_bracket(lan_ip)}:{port}/")
    return urls or [f"http://127.0.0.1:{port}/"]


def addresses(port: int, host: str = "0.0.0.0") -> list[str]:
    """:func:`scoreboard_urls` for this machine, as it is now."""
    return scoreboard_urls(port, host, lan_ip=lan_ip() if host in _ANY else None)


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class LinkSource:
    """The scoreboard's link as the companion's screen shows it, looked up again every
    ``refresh_s`` seconds (the Wi-Fi may come up after the companion, or the router may hand out
    a new address); the QR code is made again only when the address changed.

    >>> source = LinkSource(8080, "0.0.0.0", hostname="jackpot", find_ip=lambda: "10.0.0.7")
    >>> source.get(now=0.0).urls
    ('http://jackpot.local:8080/', 'http://10.0.0.7:8080/')
    """

    def __init__(self, port: int, host: str = "0.0.0.0", refresh_s: float = 30.0,
                 hostname: str | None = None, find_ip: Callable[[], str | None] = lan_ip) -> None:
        self.port, self.host, self.refresh_s = port, host, refresh_s
        self._hostname = hostname
        self._find_ip = find_ip
        self._at: float | None = None
        self._link: ScoreboardLink | None = None

    def get(self, now: float) -> ScoreboardLink:
        """The addresses (the ``.local`` name first) and the QR code of the first."""
        if self._link is None or self._at is None or now - self._at >= self.refresh_s:
            self._at = now
            ip = self._find_ip() if self.host in _ANY else None
            urls = tuple(scoreboard_urls(self.port, self.host, self._hostname, ip))
            if self._link is None or urls != self._link.urls:
                self._link = ScoreboardLink.of(urls)
        return self._link
