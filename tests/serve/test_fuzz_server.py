"""Malformed requests to `tgpl serve`, drawn from a seeded generator: every HTTP request gets an
answer below 500, every WebSocket message an `error` or a `state`, and the game is unchanged
unless a legal move was sent. Counted: a fixed number of cases per run."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from tgpl.runtime.rng import Pcg32
from tgpl.serve.app import Server, create_app

SEGMENTS = ["", "play", "ws", "record", "games", "static", "seats", "1", "0", "-1", "99999999999999999999",
            "play.js", "..", "%2e%2e", "%00", "é", "a" * 300, "?", "#", "..%2f..%2fpyproject.toml", "%ff"]
VALUES = [None, True, False, 0, 1, -1, 2**70, 1.5, float("inf"), "", "x", "é" * 50, [], {}, [1, [2, [3]]],
          {"type": "move"}, "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "Tick", "\u0000"]
KEYS = ["type", "move", "at", "token", "seat", "agent", "iterations", "", "é"]
TYPES = ["move", "state", "position", "hint", "undo", "MOVE", "", None, 3, "seats"]


def pick(rng: Pcg32, xs: list):
    return xs[rng.below(len(xs))]


def random_message(rng: Pcg32) -> str:
    kind = rng.below(6)
    if kind == 0:  # not JSON, or JSON cut short
        text = json.dumps({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
        return text[: rng.below(len(text))]
    if kind == 1:  # JSON that is not an object
        return json.dumps(pick(rng, VALUES), allow_nan=True)
    message = {"type": pick(rng, TYPES)}
    for _ in range(rng.below(4)):
        message[pick(rng, KEYS)] = pick(rng, VALUES)
    return json.dumps(message, allow_nan=True)


def test_random_websocket_messages_get_answers(tmp_path):
    """From a seat's page and from the host's (which may also ask the bot and undo)."""
    server = Server(tmp_path)
    session = server.new_game("examples/tris.tgpl", ["human", "human"], 0)
    rng = Pcg32(11, stream=5)
    answered = {"error": 0, "state": 0, "position": 0, "hint": 0}
    with TestClient(create_app(server)) as client:
        for token in (session.stored.tokens[0], server.host_token):
            with client.websocket_connect(f"/ws/{session.stored.id}?token={token}") as ws:
                first = ws.receive_json()
                assert first["type"] == "state"
                for _ in range(400):
                    before = session.number
                    text = random_message(rng)
                    ws.send_text(text)
                    reply = ws.receive_json()
                    assert reply["type"] in answered, (text, reply)
                    answered[reply["type"]] += 1
                    if reply["type"] == "state" and reply["number"] != before:  # a legal move or an undo: fine
                        assert json.loads(text)["type"] in ("move", "undo"), text
    assert answered["error"] > 600 and answered["hint"] > 0


def test_random_http_requests_never_get_a_500(tmp_path):
    server = Server(tmp_path)
    session = server.new_game("examples/tris.tgpl", ["human", "human"], 0)
    tokens = [session.stored.tokens[0], server.host_token, "", "x" * 500, "%ff"]
    rng = Pcg32(12, stream=6)
    with TestClient(create_app(server)) as client:
        for _ in range(300):
            path = "/" + "/".join(pick(rng, SEGMENTS) for _ in range(1 + rng.below(3)))
            if rng.below(2):
                path += f"?token={pick(rng, tokens)}&host={pick(rng, tokens)}"
            method = pick(rng, ["GET", "POST", "PUT", "DELETE", "HEAD"])
            body = bytes(rng.below(256) for _ in range(rng.below(64))) if method == "POST" else None
            r = client.request(method, path, content=body)
            assert r.status_code < 500, (method, path, r.status_code)
            assert "Traceback" not in r.text
    assert session.number == 0
