"""``companion bench scoreboard``: 20 phones on the scoreboard while the daemon plays at full speed.

Figures (one JSON line each):

- ``button_to_screen_ms`` without and with the scoreboard, measured as ``bench daemon`` does
  (a mock pin pressed on another thread while the real loop runs paced at 60 fps), in rounds
  that alternate without/with so a busy machine affects both alike. In both, a writer process
  fills a journal at ``--writes`` actions per second (whole bot-played games, as the daemon
  journals them at full speed); "with" adds a ``companion scoreboard`` process following that
  journal and a client process holding ``--clients`` live feeds open.
- ``scoreboard``: the scoreboard's peak resident memory (VmHWM) and CPU seconds, and how many
  live updates each client received (every client must have received some).
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.bench import child_env, headless_here

NAME = "scoreboard"
HELP = "daemon button-to-screen time with and without 20 phones on the scoreboard; its memory"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options: clients, presses per round, rounds, journal writes per second."""
    parser.add_argument("--clients", type=int, default=20, help="live feeds held open (default 20)")
    parser.add_argument("--presses", type=int, default=30, help="button presses per round (default 30)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of without/with (default 2)")
    parser.add_argument("--writes", type=float, default=100.0,
                        help="journal actions per second while measuring (default 100)")
    parser.add_argument("--seed", type=int, default=1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _python(*args: str) -> subprocess.Popen[str]:
    env = child_env()
    return subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def _proc(pid: int) -> tuple[float, float]:
    """Peak resident MB (VmHWM) and CPU seconds (user + system) of a running process."""
    status = Path(f"/proc/{pid}/status").read_text()
    hwm = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return hwm / 1024, (int(fields[11]) + int(fields[12])) / ticks


def _wait_for_port(port: int, process: subprocess.Popen[str], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the scoreboard exited: {process.stderr.read() if process.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the scoreboard did not start listening")


def run(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    """Alternate rounds without and with the scoreboard; then its memory and the clients' counts."""
    from companion.bench.daemon import _stats, press_latencies

    headless_here()
    latencies: dict[str, list[float]] = {"without": [], "with": []}
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "journal.sqlite"
        writer = _python("-m", "companion.bench.scoreboard", "writer", str(journal), str(args.writes),
                         str(args.seed))
        port = _free_port()
        board = _python("-m", "companion", "scoreboard", "--journal", str(journal), "--host", "127.0.0.1",
                        "--port", str(port))
        try:
            _wait_for_port(port, board)
            clients = None
            for round_ in range(args.rounds):
                for phase in ("without", "with"):
                    if phase == "with" and clients is None:
                        clients = _python("-m", "companion.bench.scoreboard", "clients", str(port),
                                          str(args.clients))
                        os.kill(board.pid, signal.SIGCONT)
                        assert clients.stdout is not None
                        clients.stdout.readline()  # "connected": every feed is open
                    # "without": the scoreboard process is stopped (SIGSTOP): no CPU, no feeds
                    os.kill(board.pid, signal.SIGSTOP if phase == "without" else signal.SIGCONT)
                    latencies[phase] += press_latencies(args.presses, args.seed + round_)
            os.kill(board.pid, signal.SIGCONT)
            memory, cpu = _proc(board.pid)
            received = _stop_clients(clients)
        finally:
            for process in (writer, board):
                process.kill()
                process.wait()
    for phase, values in latencies.items():
        yield {"figure": "button_to_screen_ms", "scoreboard": phase == "with",
               "clients": args.clients if phase == "with" else 0, **_stats(values)}
    yield {"figure": "scoreboard", "clients": args.clients, "peak_resident_mb": round(memory, 1),
           "cpu_s": round(cpu, 2), "journal_writes_per_s": args.writes,
           "updates_per_client": {"min": min(received, default=0), "max": max(received, default=0)},
           "clients_served": sum(1 for n in received if n > 0)}


def _stop_clients(clients: subprocess.Popen[str] | None) -> list[int]:
    if clients is None:
        return []
    clients.terminate()
    out, err = clients.communicate(timeout=60)
    lines = [line for line in out.splitlines() if line.startswith("[")]
    if not lines:
        raise RuntimeError(f"the client process said nothing: {err[-500:]}")
    return list(json.loads(lines[-1]))


# --- the child processes ------------------------------------------------------------------------

def writer(journal: Path, per_second: float, seed: int) -> None:
    """Journal bot-played Bandit games at ``per_second`` actions a second, until killed."""
    from companion.engine import GameConfig, HeuristicBot
    from companion.engine.simulate import play_game
    from companion.journal import Journal

    with Journal.open(journal) as j:
        while True:
            config = GameConfig("bandit", players=2, seed=seed)
            played = play_game(config, [HeuristicBot(), HeuristicBot()])
            game_id = j.start_game(config.to_dict(), seats=["Ann", "Bob"], mode="cabinet")
            for action in played.match.log:
                j.record_action(game_id, str(action))
                time.sleep(1 / per_second)
            j.finish_game(game_id, {"scores": list(played.result.scores),
                                    "winners": list(played.result.winners)})
            seed += 1


def clients(port: int, count: int) -> None:
    """Hold ``count`` live feeds open; on SIGTERM print how many updates each one received."""
    stop = False

    def on_term(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    selector = selectors.DefaultSelector()
    received: dict[socket.socket, int] = {}
    for _ in range(count):
        conn = socket.create_connection(("127.0.0.1", port), timeout=30)
        conn.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
        conn.setblocking(False)
        selector.register(conn, selectors.EVENT_READ)
        received[conn] = 0
    print("connected", flush=True)
    while not stop:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(65536)
            except BlockingIOError:
                continue
            received[sock] += data.count(b"event: state")
    print(json.dumps(list(received.values())), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "writer":
        writer(Path(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "clients":
        clients(int(sys.argv[2]), int(sys.argv[3]))
