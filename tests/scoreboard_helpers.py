"""Shared by the scoreboard tests: a journal filled with real games, a server on a free port."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.engine import GameConfig, HeuristicBot
from companion.engine.simulate import play_game
from companion.journal import Journal
from companion.scoreboard.art import SymbolSheet
from companion.scoreboard.server import ScoreboardServer, make_server


def game_actions(game: str, players: int, seed: int) -> tuple[dict[str, Any], list[str], tuple[int, ...]]:
    """A whole bot-played game: its config, its actions and its final scores."""
    config = GameConfig(game, players=players, seed=seed)
    played = play_game(config, [HeuristicBot()] * players)
    return config.to_dict(), [str(a) for a in played.match.log], played.result.scores


def record_game(journal: Journal, game: str, seats: list[str], seed: int, upto: int | None = None) -> int:
    """Write a bot-played game into ``journal`` as the daemon would (finished unless cut at ``upto``)."""
    config, actions, scores = game_actions(game, len(seats), seed)
    game_id = journal.start_game(config, seats=seats, mode="cabinet")
    for action in actions[:upto]:
        journal.record_action(game_id, action)
    if upto is None:
        top = max(scores)
        journal.finish_game(game_id, {"scores": list(scores),
                                      "winners": [i for i, s in enumerate(scores) if s == top]})
    return game_id


@contextmanager
def running(journal: Path, art: SymbolSheet | None = None) -> Iterator[ScoreboardServer]:
    """A scoreboard on a free loopback port, serving on a thread; stopped afterwards."""
    import threading

    server = make_server(journal, "127.0.0.1", 0, art if art is not None else SymbolSheet())
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        server.board.stop()
        thread.join(timeout=10)


def get(server: ScoreboardServer, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """One request: status, headers, body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def get_json(server: ScoreboardServer, path: str) -> Any:
    """GET a JSON route (must answer 200)."""
    status, _, body = get(server, path)
    assert status == 200, (path, status, body[:200])
    return json.loads(body)
