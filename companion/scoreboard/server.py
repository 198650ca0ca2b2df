"""The scoreboard's web server: one page, its live feed, the nights, the downloads. Read-only.

Why the standard library's threading HTTP server: on a Pi it costs nothing to install (no wheel
to find for aarch64), it stays at ~20 MB resident with 20 phones connected (a thread each, all
waiting on one condition), and the scoreboard needs only GET. Live updates are server-sent
events, which browsers reconnect by themselves.

Every route is a GET (or HEAD) of a fixed path; other methods get 405, query strings and unknown
paths 400/404, and a malformed request line is answered 400 by the base class. The server never
writes anything: the journal is open read-only and there is no route that takes input.
"""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from companion.scoreboard.art import SymbolSheet
from companion.scoreboard.board import Board

log = logging.getLogger(__name__)

#: More simultaneous connections than a table has phones; beyond it a client gets 503 and retries.
MAX_CONNECTIONS = 64
#: Seconds between keep-alive comments on an idle live feed (keeps phones' and proxies' sockets open).
KEEPALIVE_S = 15.0

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
_NIGHT = re.compile(r"/nights/(\d{1,9})\.(json|csv)")
_ART = re.compile(r"/art/([a-z-]{1,32})/([a-z0-9:-]{1,32})\.png")
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class ScoreboardServer(ThreadingHTTPServer):
    """A threading HTTP server over one :class:`Board`, with a cap on simultaneous connections."""

    daemon_threads = True
    allow_reuse_address = True
    #: Every phone at the table reconnecting at once (after a Wi-Fi blip) waits in the backlog, not
    #: in SYN retries (the base class's 5 made the 20th phone wait seconds).
    request_queue_size = MAX_CONNECTIONS

    def __init__(self, address: tuple[str, int], board: Board, art: SymbolSheet) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.board = board
        self.art = art
        self.pages = {path: resources.files(__package__).joinpath("static", name).read_bytes()
                      for path, (name, _) in STATIC.items()}
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(address, Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve on a thread if a slot is free, else answer 503 at once."""
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 5\r\n"
                                b"Content-Length: 0\r\n\r\n")
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve, then give the slot back."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def url(self) -> str:
        """Where it listens, for the log line."""
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{'[' + name + ']' if ':' in name else name}:{port}/"


class Handler(BaseHTTPRequestHandler):
    """GET-only routes; anything else is a 4xx and the server goes on."""

    server: ScoreboardServer
    server_version = "jackpot-scoreboard"
    sys_version = ""
    #: Answer even a one-word request with a proper status line (HTTP/0.9 has none).
    default_request_version = "HTTP/1.0"
    #: Seconds a client may take to send its request, or to take a chunk of the live feed.
    timeout = 30

    def parse_request(self) -> bool:
        """Refuse HTTP/0.9 with 400 and every method but GET and HEAD with 405 (not the base's 501)."""
        if not super().parse_request():
            return False
        if len(self.requestline.split()) != 3:
            self.send_error(HTTPStatus.BAD_REQUEST, "send HTTP/1.x")
            return False
        if self.command not in ("GET", "HEAD"):
            self.send_error(HTTPStatus.METHOD_NOT_ALLOWED, "the scoreboard is read-only")
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A request the base class cannot parse (HTTP/2.0, an unknown method) is the client's
        mistake: 400, not its 505/501."""
        if code in (HTTPStatus.NOT_IMPLEMENTED, HTTPStatus.HTTP_VERSION_NOT_SUPPORTED):
            code, message = HTTPStatus.BAD_REQUEST, message or "send an HTTP/1.x GET"
        super().send_error(code, message, explain)

    def do_HEAD(self) -> None:  # noqa: N802 (the base class's naming)
        """Headers of the GET response without its body."""
        self.do_GET()

    def do_GET(self) -> None:  # noqa: N802
        """Route by path."""
        path = self.path
        if "?" in path or "#" in path:
            self.send_error(HTTPStatus.BAD_REQUEST, "the scoreboard takes no query")
            return
        if path in self.server.pages:
            self._send(self.server.pages[path], STATIC[path][1], cache="no-cache")
        elif path == "/events":
            self._events()
        elif path == "/state.json":
            self._send(self.server.board.snapshot()[1], "application/json")
        elif path == "/nights.json":
            self._json(self.server.board.nights())
        elif path == "/art.json":
            self._json(self.server.art.manifest(), cache="max-age=86400")
        elif match := _ART.fullmatch(path):
            png = self.server.art.png.get((match[1], match[2]))
            if png is None:
                self.send_error(HTTPStatus.NOT_FOUND, "no such symbol")
            else:
                self._send(png, "image/png", cache="max-age=86400")
        elif match := _NIGHT.fullmatch(path):
            self._night(int(match[1]), match[2])
        else:
            self.send_error(HTTPStatus.NOT_FOUND, "no such page")

    def _night(self, night_id: int, kind: str) -> None:
        night = self.server.board.night(night_id)
        if night is None:
            self.send_error(HTTPStatus.NOT_FOUND, "no such night")
            return
        day = _day(night.started_at)
        name = f"jackpot-night-{day}-{night_id}.{kind}"
        extra = {"Content-Disposition": f'attachment; filename="{name}"'}
        if kind == "csv":
            self._send(night.to_csv().encode(), "text/csv; charset=utf-8", extra=extra)
        else:
            self._json(night.to_dict(), extra=extra)

    def _json(self, data: Any, cache: str = "no-store", extra: dict[str, str] | None = None) -> None:
        import json

        self._send(json.dumps(data, separators=(",", ":")).encode(), "application/json", cache, extra)

    def _send(self, body: bytes, kind: str, cache: str = "no-store",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        for key, value in {**_SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _events(self) -> None:
        """The live feed: the snapshot now, then each new one, until the phone goes away."""
        board = self.server.board
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.end_headers()
        if self.command == "HEAD":
            return
        seen = -1
        try:
            self.wfile.write(b"retry: 2000\n\n")
            while not board.stopping:
                version, data = board.wait(seen, KEEPALIVE_S) if seen >= 0 else board.snapshot()
                if version != seen:
                    self.wfile.write(b"id: %d\nevent: state\ndata: %s\n\n" % (version, data))
                    seen = version
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except OSError:  # the phone went away (closed tab, lost Wi-Fi, timed out)
            return

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        """Requests go to the debug log (a busy table would fill the system journal)."""
        log.debug("%s %s", self.address_string(), format % args)


def _day(stamp: float) -> str:
    import time

    return time.strftime("%Y-%m-%d", time.localtime(stamp))


def make_server(journal: Path, host: str, port: int, art: SymbolSheet | None = None) -> ScoreboardServer:
    """The server over ``journal``, bound and watching (call ``serve_forever`` to serve).

    Raises :class:`OSError` when the address cannot be bound (port in use, no such address).
    """
    from companion.scoreboard import art as art_module

    board = Board(journal)
    try:
        server = ScoreboardServer((host, port), board, art if art is not None else art_module.load())
    except BaseException:
        board.stop()
        raise
    board.start()
    return server
