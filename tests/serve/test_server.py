"""`tgpl serve` at the server's level: tokens, moves, persistence, views, bad input.

Through Starlette's TestClient (HTTP and WebSockets in this process); the browser's side is
tests/serve/test_browser.py."""

from __future__ import annotations

import json
import os
import re

import pytest
from starlette.testclient import TestClient

from tgpl.runtime.rng import Pcg32
from tgpl.serve.app import MESSAGE_LIMIT, Server, create_app
from tgpl.serve.session import Refused
from tgpl.frontend.loader import display_path  # what diagnostics show: relative to the working directory

TRIS = "examples/tris.tgpl"
CARDS = "examples/cards.tgpl"
CITADELS = "examples/citadels/citadels.tgpl"


def receive_state(ws, number: int | None = None) -> dict:
    """The next `state` message (at `number` moves, when given), skipping earlier broadcasts."""
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == "error":
            raise AssertionError(m["message"])
        if number is None or m["number"] == number:
            return m
    raise AssertionError(f"no state at move {number}")


def receive_source(ws) -> dict:
    """The next state message that carries news of the game's source."""
    for _ in range(50):
        m = receive_state(ws)
        if m["source"] is not None:
            return m
    raise AssertionError("no news of the source")


def receive_error(ws) -> str:
    for _ in range(50):
        m = ws.receive_json()
        if m["type"] == "error":
            return m["message"]
    raise AssertionError("no error message")


@pytest.fixture
def tris(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(TRIS, ["human", "human"], 0)
    with TestClient(create_app(server)) as client:
        yield server, session, client


def test_each_seat_moves_only_with_its_token(tris):
    server, session, client = tris
    gid, (t0, t1) = session.stored.id, session.stored.tokens
    with client.websocket_connect(f"/ws/{gid}?token={t0}") as p0, \
            client.websocket_connect(f"/ws/{gid}?token={t1}") as p1:
        first0 = receive_state(p0, 0)
        assert first0["you"] == 0 and len(first0["moves"]) == 9
        assert receive_state(p1, 0)["moves"] == []  # not player 1's move: no moves sent
        p1.send_json({"type": "move", "move": "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])", "at": 0})
        assert "player 0's move, not yours" in receive_error(p1)
        p0.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
        after = receive_state(p1, 1)
        assert after["history"] == [{"number": 1, "player": 0, "text": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])"}]
        assert len(after["moves"]) == 8
    assert session.number == 1


def test_unknown_tokens_and_games_are_refused(tris):
    server, session, client = tris
    gid = session.stored.id
    with client.websocket_connect(f"/ws/{gid}?token=guess") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["fatal"] and "opens no seat" in m["message"]
    with client.websocket_connect(f"/ws/{gid + 5}?token={session.stored.tokens[0]}") as ws:
        assert ws.receive_json()["message"] == f"no game {gid + 5}"
    assert client.get(f"/play/{gid}?token=guess").status_code == 403
    assert client.get(f"/play/{gid}?token={session.stored.tokens[1]}").status_code == 200
    assert client.get(f"/play/{gid}?token={session.stored.spectator_token}").status_code == 200
    assert client.get(f"/record/{gid}?token={session.stored.tokens[0]}").status_code == 403  # not over yet
    assert client.get(f"/record/{gid}?token={server.host_token}").status_code == 200
    assert "new game" not in client.get("/").text
    assert "new game" in client.get(f"/?host={server.host_token}").text


def test_spectators_watch_but_cannot_move(tris):
    server, session, client = tris
    gid = session.stored.id
    with client.websocket_connect(f"/ws/{gid}?token={session.stored.spectator_token}") as ws:
        first = receive_state(ws, 0)
        assert first["you"] is None and first["moves"] == []
        ws.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
        assert receive_error(ws) == "spectators cannot move"
    assert session.number == 0


def test_positions_of_the_log_are_shown_in_the_seats_view(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(CARDS, ["human", "first"], 0)
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{session.stored.id}?token={session.stored.tokens[0]}") as ws:
            receive_state(ws, 0)
            ws.send_json({"type": "move", "move": "Hand#0.Draw()", "at": 0})
            receive_state(ws, 2)
            ws.send_json({"type": "position", "at": 1})
            past = ws.receive_json()
            assert past["type"] == "position" and past["at"] == 1
            hands = {p["name"]: dict(p["fields"]) for p in past["view"]["panels"] if p["class"] == "Hand"}
            assert len(hands["Hand#0"]["Cards"]["list"]) == 1 and hands["Hand#1"]["Cards"] == {"hidden": 0}
            ws.send_json({"type": "position", "at": 2})
            assert ws.receive_json()["view"]["panels"][-1]["fields"][1][1] == {"hidden": 1}  # their card: hidden
            for bad in (3, -1, True, "1", None):
                ws.send_json({"type": "position", "at": bad})
                assert receive_error(ws) == "field 'at' must be a move number from 0 to 2"


@pytest.mark.parametrize("message, error", [
    ("not json", "a message is a JSON object"),
    ("[1, 2]", "a message is a JSON object"),
    ('{"type": "dance"}', "field 'type': expected 'move', 'state', 'position', 'hint' or 'undo'"),
    ('{"type": "move", "at": 0}', "a move is a non-empty string: its text"),
    ('{"type": "move", "move": 7, "at": 0}', "a move is a non-empty string: its text"),
    ('{"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])"}',
     "field 'at' must be the number of moves played when the move was chosen"),
    ('{"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": true}',
     "field 'at' must be the number of moves played when the move was chosen"),
    ('{"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 3}',
     "stale move: 0 moves have been played, not 3; the board is redrawn"),
    ('{"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[9][9])", "at": 0}',
     "illegal move 'PlayerState#0.Tick(chosenTile: TrisGrid[9][9])'"),
    ("[" * 100_000, f"a message is at most {MESSAGE_LIMIT} bytes"),
    ("[" * 50_000, "a message is a JSON object"),
])
def test_bad_messages_get_errors(tris, message, error):
    server, session, client = tris
    with client.websocket_connect(f"/ws/{session.stored.id}?token={session.stored.tokens[0]}") as ws:
        receive_state(ws, 0)
        ws.send_text(message)
        assert receive_error(ws).startswith(error)
        ws.send_bytes(b"\xff\xfe")
        assert receive_error(ws) == "a message is JSON text"
        ws.send_text('{"type": "state"}')  # the socket still answers
        assert receive_state(ws, 0)["number"] == 0
    assert session.number == 0


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static//etc/passwd", "/play/x", "/play/99999", "/record/abc", "/nothing", "/static/",
])
def test_no_file_outside_the_static_folder(tris, path):
    server, session, client = tris
    r = client.get(path)
    assert r.status_code in (400, 403, 404), (path, r.status_code)
    assert "import" not in r.text and "root:" not in r.text


def test_bad_forms_are_refused(tris):
    server, session, client = tris
    assert client.post("/games", content=b"players=human,human").status_code == 403
    host = server.host_token
    assert client.post("/games", content=f"host={host}&path=/etc/passwd&players=human".encode()).status_code == 400
    assert client.post("/games", content=b"host=" + b"x" * 20_000).status_code == 413
    assert client.post("/games", content=b"\xff\xfe").status_code == 400
    r = client.post("/games", content=f"host={host}&path={session.stored.path}&players=human,dragon".encode())
    assert r.status_code == 400 and "unknown agent 'dragon'" in r.text
    r = client.post("/games", content=f"host={host}&path={session.stored.path}&players=human,first&seed=x".encode())
    assert r.status_code == 400
    r = client.post("/games", content=f"host={host}&path={session.stored.path}&players=human,first&seed=4".encode(),
                    follow_redirects=False)
    assert r.status_code == 303 and len(server.sessions) == 2
    assert client.get("/games").status_code == 405


def test_the_hosts_page_plays_every_human_seat(tris):
    server, session, client = tris
    with client.websocket_connect(f"/ws/{session.stored.id}?token={server.host_token}") as hot:
        first = receive_state(hot, 0)
        assert first["hot"] and first["you"] == 0 and len(first["moves"]) == 9
        hot.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
        second = receive_state(hot, 1)
        assert second["you"] == 1 and len(second["moves"]) == 8  # now seated as player 1
        hot.send_json({"type": "move", "move": "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])", "at": 1})
        assert receive_state(hot, 2)["you"] == 0
    assert client.get(f"/play/{session.stored.id}?token={server.host_token}").status_code == 200


def test_the_host_changes_seats_during_the_game(tris):
    server, session, client = tris
    gid, host = session.stored.id, server.host_token
    with client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[0]}") as ws:
        receive_state(ws, 0)
        r = client.post(f"/games/{gid}/seats", content=f"host={host}&seat=1&agent=first".encode(),
                        follow_redirects=False)
        assert r.status_code == 303
        assert receive_state(ws, 0)["seats"][1]["agent"] == "first"
        ws.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
        assert receive_state(ws, 2)["history"][1]["player"] == 1  # the new bot answered
    assert server.store.games()[0].agents == ["human", "first"]  # kept across a restart
    for form, status, text in [
        ("host=nope&seat=1&agent=first", 403, "only the host"),
        (f"host={host}&seat=2&agent=first", 400, "seats 0 to 1, not 2"),
        (f"host={host}&seat=x&agent=first", 400, "whole number"),
        (f"host={host}&seat=0&agent=robot", 400, "unknown agent 'robot'"),
    ]:
        r = client.post(f"/games/{gid}/seats", content=form.encode())
        assert r.status_code == status and text in r.text, (form, r.text)
    assert client.post(f"/games/{gid + 9}/seats", content=f"host={host}&seat=0&agent=first".encode()).status_code == 404


def test_bots_play_their_seats(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(TRIS, ["human", "first"], 0)
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{session.stored.id}?token={session.stored.tokens[0]}") as ws:
            receive_state(ws, 0)
            ws.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
            bot = receive_state(ws, 2)  # the bot's move follows at once
            assert bot["history"][1] == {"number": 2, "player": 1,
                                         "text": "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])"}
            assert len(bot["moves"]) == 7


def test_games_resume_after_a_restart(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(CARDS, ["human", "human"], 3)
    with TestClient(create_app(server)) as client:
        for n in range(4):
            seat = session.state.active_player
            with client.websocket_connect(f"/ws/{session.stored.id}?token={session.stored.tokens[seat]}") as ws:
                state = receive_state(ws, n)
                ws.send_json({"type": "move", "move": state["moves"][0]["text"], "at": n})
                receive_state(ws, n + 1)
    key = session.state.key()
    server.store.close()
    again = Server(tmp_path)  # a new server on the same folder: a restart
    resumed = again.sessions[session.stored.id]
    assert resumed.number == 4 and resumed.state.key() == key
    assert resumed.stored.tokens == session.stored.tokens
    assert again.host_token == server.host_token
    assert again.find(CARDS, ["human", "human"], 3) is resumed


def test_a_broken_source_is_reported_not_fatal(tmp_path):
    game = tmp_path / "g.tgpl"
    game.write_text((open(TRIS).read()))
    server = Server(tmp_path / "data")
    server.new_game(str(game), ["human", "human"], 0)
    server.store.close()
    game.write_text("game \"broken\"; players 2; setup { x = ; }")
    again = Server(tmp_path / "data")
    assert not again.sessions and len(again.broken) == 1
    with TestClient(create_app(again)) as client:
        assert "has errors" in client.get(f"/?host={again.host_token}").text


def test_unknown_bots_are_refused(tmp_path):
    with pytest.raises(Refused, match="unknown agent 'mcts:x'|iterations per move"):
        Server(tmp_path).new_game(TRIS, ["human", "mcts:x"], 0)


# ------------------------------------------------------------------ what each seat sees
def test_cards_seats_see_only_their_own_hand(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(CARDS, ["human", "human"], 0)
    with TestClient(create_app(server)) as client:
        gid, tokens = session.stored.id, session.stored.tokens
        with client.websocket_connect(f"/ws/{gid}?token={tokens[0]}") as p0, \
                client.websocket_connect(f"/ws/{gid}?token={tokens[1]}") as p1, \
                client.websocket_connect(f"/ws/{gid}?token={session.stored.spectator_token}") as watcher:
            for n in range(4):
                ws = p0 if n % 2 == 0 else p1
                state = receive_state(ws, n)
                ws.send_json({"type": "move", "move": state["moves"][0]["text"], "at": n})
            seen = [receive_state(ws, 4) for ws in (p0, p1, watcher)]
    world = session.state.world
    hands = {world.owners_of(h)[0]: world.fields(h)["Cards"] for h in world.objects if h.cls.name == "Hand"}
    for seat, message in enumerate(seen):
        text = json.dumps(message)
        for owner, cards in hands.items():
            for card in cards:
                assert (f'"{card.name}"' in text) == (owner == seat), (seat, card.name)
                assert (world.fields(card)["Name"] in text) == (owner == seat)
        hand_fields = {p["owners"][0]: dict(p["fields"])["Cards"] for p in message["view"]["panels"] if p["class"] == "Hand"}
        for owner, cards in hands.items():
            expected = {"hidden": len(cards)} if owner != seat else None
            assert (hand_fields[owner] == expected) if expected else len(hand_fields[owner]["list"]) == len(cards)
        deck = next(p for p in message["view"]["panels"] if p["kind"] == "stack")
        assert dict(deck["fields"])["cards"] == {"hidden": 6}


DISTRICT = re.compile(r"District#\d+\b")


GAMES = 50  # random games of Citadels with five seats, each for MOVES moves: counts, never seconds
MOVES = 40  # the first round's choices and calls, and into the second round


def _secret_roles(world) -> dict[int, tuple[str, str]]:
    """Each seat whose character is still its secret (chosen, not yet called): seat -> (citizen, character)."""
    out = {}
    for citizen in (o for o in world.objects if o.cls.name == "Citizen"):
        fields = world.fields(citizen)
        role = fields["Role"]
        if role is not None and fields["Revealed"] is not role:
            out[world.owners_of(citizen)[0]] = (citizen.name, role.name)
    return out


def _assert_no_role_leaks(message: dict, seat: int | None, secrets: dict[int, tuple[str, str]], where) -> None:
    """No field of `message` ties another seat to the character it chose: not its citizen's Role, not the
    character's owners or Holder, not its Choose move in the log."""
    panels = {p["name"]: p for p in message["view"]["panels"]}
    for other, (citizen, role) in secrets.items():
        if other == seat:
            assert dict(panels[citizen]["fields"])["Role"]["ref"] == role, where  # one's own: shown
            continue
        assert dict(panels[citizen]["fields"])["Role"] == {"hidden": None}, where
        assert panels[role]["owners"] == [] and dict(panels[role]["fields"])["Holder"] == {"hidden": None}, where
        for entry in message.get("history", []):  # its character's own moves come once it is called, and revealed
            if entry["player"] == other and ".Choose(" in entry["text"]:
                assert role not in entry["text"], (where, entry)


def test_citadels_messages_never_show_a_seat_what_is_not_its_own(tmp_path):
    """Five seats, 50 random games: every message each seat (and a spectator) is sent (the broadcast state
    after each move, and the answer to a time-travel request for an earlier position, recorded as the server
    sends them) names no district card in the deck, nor one in another player's hand that the seat never
    held nor saw built (cards go deck, hand, city; the Magician swaps hands), and ties no other seat to the
    character it chose until that character is called (`private` Role, Holder, class and Choose;
    docs/language.md, decision 94)."""
    import asyncio

    from tgpl.serve.app import _handle
    from tgpl.serve.session import Client

    server = Server(tmp_path, watch_every=None)
    rng, looks = Pcg32(7, stream=3), Pcg32(8, stream=4)
    seats = [*range(5), None]
    counts = {"state": 0, "position": 0, "roles_hidden": 0}

    def check(message: dict, seat: int | None, known_then: dict, where) -> None:
        in_deck, hidden_from, known, secrets = known_then
        named = set(DISTRICT.findall(json.dumps(message)))
        assert not named & in_deck, where
        if seat is not None:
            leaked = named & (hidden_from[seat] - known[seat])
            assert not leaked, (where, leaked)
        _assert_no_role_leaks(message, seat, secrets, where)
        counts[message["type"]] += 1
        counts["roles_hidden"] += sum(1 for other in secrets if other != seat)

    async def play(game: int) -> None:
        session = server.new_game(CITADELS, ["human"] * 5, game)
        sent: dict[int | None, list[dict]] = {seat: [] for seat in seats}
        clients = {}
        for seat in seats:  # a page per seat and a spectator's, each recording what it is sent
            async def send(message: dict, seat=seat) -> None:
                sent[seat].append(message)
            clients[seat] = Client(send, seat)
            session.clients.append(clients[seat])
        known: dict[int, set[str]] = {s: set() for s in range(5)}  # cards each seat has held or seen built
        then = []  # per position: what was in the deck, hidden from and known to each seat, the secret roles
        for n in range(MOVES):
            state = session.state
            if state.is_terminal:
                break
            world = state.world
            hidden_from: dict[int, set[str]] = {s: set() for s in range(5)}
            deck = next(o for o in world.objects if o.cls.kind == "stack")
            in_deck = {c.name for c in world.fields(deck)["_items"]}
            for citizen in (o for o in world.objects if o.cls.name == "Citizen"):
                owner = world.owners_of(citizen)[0]
                known[owner] |= {c.name for c in world.fields(citizen)["Hand"]}
                for s in range(5):
                    known[s] |= {c.name for c in world.fields(citizen)["City"]}
                for s in range(5):
                    if s != owner:
                        hidden_from[s] |= {c.name for c in world.fields(citizen)["Hand"]}
            then.append((in_deck, hidden_from, {s: set(k) for s, k in known.items()}, _secret_roles(world)))
            await server.broadcast(session)
            at = looks.below(n + 1)  # each page looks back at a position of the log
            for seat in seats:
                reply = await _handle(server, session, clients[seat],
                                      {"type": "websocket.receive", "text": json.dumps({"type": "position", "at": at})})
                await clients[seat].send(reply)
            for seat in seats:
                for message in sent[seat]:
                    assert message["type"] in ("state", "position"), message
                    k = message["number"] if message["type"] == "state" else message["at"]
                    check(message, seat, then[k], (game, n, seat, message["type"], k))
                sent[seat].clear()
            moves = state.legal_moves()
            session.play(server.store, state.active_player, moves[rng.below(len(moves))].text, n)

    async def main() -> None:
        for game in range(GAMES):
            await play(game)

    asyncio.run(main())
    assert counts["state"] > GAMES * MOVES * 6 * 0.9 and counts["position"] == counts["state"]
    assert counts["roles_hidden"] > GAMES * 200


def test_the_log_redacts_cards_others_never_saw(tmp_path):
    """A move naming a card that goes to its player's hand reads `(hidden)` to the others."""
    server = Server(tmp_path)
    session = server.new_game(CITADELS, ["human"] * 5, 1)
    rng = Pcg32(1, stream=9)
    found = 0
    for n in range(200):
        state = session.state
        moves = state.legal_moves()
        move = moves[rng.below(len(moves))]
        player = state.active_player
        session.play(server.store, player, move.text, n)
        world = session.state.world
        named = DISTRICT.findall(move.text)
        hand = next(world.fields(o)["Hand"] for o in world.objects
                    if o.cls.name == "Citizen" and world.owners_of(o)[0] == player)
        if named and all(world.named(x) in hand for x in named):
            found += 1
            other = (player + 1) % 5
            assert session.history(other)[n]["text"] == DISTRICT.sub("(hidden)", move.text)
            assert session.history(player)[n]["text"] == move.text
    assert found > 0


def test_a_finished_games_record_replays(tmp_path):
    from click.testing import CliRunner

    from tgpl.cli import main

    server = Server(tmp_path / "data")
    session = server.new_game(TRIS, ["first", "random"], 5)
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{session.stored.id}?token={session.stored.spectator_token}") as ws:
            for _ in range(20):  # the bots play as soon as someone connects
                if ws.receive_json()["view"]["terminal"]:
                    break
        r = client.get(f"/record/{session.stored.id}?token={session.stored.spectator_token}")
    assert r.status_code == 200 and session.state.is_terminal
    record = tmp_path / "game.json"
    record.write_bytes(r.content)
    assert json.loads(r.content)["players"] == ["first", "random"]
    result = CliRunner().invoke(main, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert f"ok, {session.number} moves" in result.output


def test_the_host_undoes_back_to_a_human_decision_and_forks(tmp_path):
    server = Server(tmp_path)
    session = server.new_game(TRIS, ["human", "first"], 0)
    with TestClient(create_app(server)) as client:
        gid = session.stored.id
        with client.websocket_connect(f"/ws/{gid}?token={server.host_token}") as hot, \
                client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[0]}") as seat:
            receive_state(hot, 0)
            for n, cell in enumerate(["TrisGrid[1][1]", "TrisGrid[2][2]"]):
                hot.send_json({"type": "move", "move": f"PlayerState#0.Tick(chosenTile: {cell})", "at": 2 * n})
                receive_state(hot, 2 * n + 2)  # ours and the bot's
            hot.send_json({"type": "undo"})
            back = receive_state(hot, 2)  # the bot's move and ours taken back: player 0 to move again
            assert back["view"]["active"] == 0 and len(back["moves"]) == 7
            hot.send_json({"type": "undo"})
            receive_state(hot, 0)
            hot.send_json({"type": "undo"})
            assert receive_error(hot) == "nothing to undo: no move has been played"
            hot.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])", "at": 0})
            receive_state(hot, 2)
        assert [t for _, t in server.store.games()[0].moves] == [
            "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])", "PlayerState#1.Tick(chosenTile: TrisGrid[1][0])"]
        host = server.host_token
        r = client.post(f"/games/{gid}/fork", content=f"host={host}&at=1".encode(), follow_redirects=False)
        assert r.status_code == 303
        forked = server.sessions[int(r.headers["location"].split("/")[2].split("?")[0])]
        # it starts after move 1; its bot then answers at once
        assert forked.stored.moves[:1] == session.stored.moves[:1] and forked.stored.tokens != session.stored.tokens
        assert forked.stored.id != gid and forked.stored.agents == ["human", "first"]
        assert session.number == 2  # the original goes on untouched
        for form, status in [(f"host={host}&at=9", 400), (f"host={host}&at=x", 400), ("host=no&at=0", 403)]:
            assert client.post(f"/games/{gid}/fork", content=form.encode()).status_code == status


def test_a_saved_error_is_shown_and_fixed_rules_are_replayed(tmp_path):
    game = tmp_path / "tris.tgpl"
    original = open(TRIS).read()
    game.write_text(original)
    server = Server(tmp_path / "data", watch_every=None)  # looked at by hand here: no timing
    session = server.new_game(str(game), ["human", "human"], 0)
    host = server.host_token
    with TestClient(create_app(server)) as client:
        gid = session.stored.id
        with client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[0]}") as p0, \
                client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[1]}") as p1:
            for n, (ws, move) in enumerate([(p0, "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])"),
                                            (p1, "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])")]):
                receive_state(ws, n)
                ws.send_json({"type": "move", "move": move, "at": n})
                receive_state(ws, n + 1)
            assert server.check_sources() == []
            game.write_text(original.replace("TickedCount = 0;", "TickedCount = ;", 1))
            assert server.check_sources() == [os.path.abspath(game)]
            p0.send_json({"type": "state"})
            errors = receive_source(p0)["source"]["errors"]
            assert re.search(rf"{re.escape(display_path(game))}:\d+:\d+: error: ", errors) and "^" in errors
            assert client.post(f"/games/{gid}/reload", content=f"host={host}".encode()).status_code == 400
            # fixed, with a rule changed: the middle square is no longer playable
            fixed = original.replace("return chosenTile.AssignedTo == null;",
                                     "return chosenTile.AssignedTo == null && chosenTile != GameState.Board.TrisGrid[1][1];")
            game.write_text(fixed)
            assert server.check_sources() == [os.path.abspath(game)]
            p0.send_json({"type": "state"})
            assert receive_source(p0)["source"] == {"new_rules": True}
            assert client.post(f"/games/{gid}/reload", content=b"host=nope").status_code == 403
            r = client.post(f"/games/{gid}/reload", content=f"host={host}".encode())
            assert r.status_code == 200
            assert r.text == ("the new rules: 0 moves replayed; move 1 'PlayerState#0.Tick(chosenTile: "
                              "TrisGrid[1][1])' is no longer legal: " + r.text.split("is no longer legal: ")[1])
            reloaded = receive_source(p0)
            assert reloaded["number"] == 0 and reloaded["source"]["reloaded"] == r.text
    assert session.number == 0 and server.store.games()[0].moves == []


def test_an_imported_files_error_is_shown_with_its_own_location(tmp_path):
    """The server watches a game's imports too: an error saved in `lib/deck.tgpl` is shown located there."""
    import shutil

    shutil.copy(CARDS, tmp_path / "cards.tgpl")
    shutil.copytree("examples/lib", tmp_path / "lib")
    server = Server(tmp_path / "data", watch_every=None)
    session = server.new_game(str(tmp_path / "cards.tgpl"), ["human", "human"], 0)
    deck = tmp_path / "lib" / "deck.tgpl"
    original = deck.read_text()
    deck.write_text(original.replace('string Name = "";', 'string Name = ;', 1))
    assert server.check_sources() == [os.path.abspath(tmp_path / "cards.tgpl")]
    errors = session.message(0)["source"]["errors"]
    assert re.match(rf"{re.escape(display_path(deck))}:5:19: error: ", errors), errors
    deck.write_text(original)
    assert server.check_sources() == [os.path.abspath(tmp_path / "cards.tgpl")]
    assert session.message(0)["source"] == {"new_rules": True}


def test_the_host_starts_a_game_again_on_new_rules(tmp_path):
    game = tmp_path / "tris.tgpl"
    original = open(TRIS).read()
    game.write_text(original)
    server = Server(tmp_path / "data", watch_every=None)
    session = server.new_game(str(game), ["human", "first"], 0)
    host, gid = server.host_token, session.stored.id
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[0]}") as p0:
            receive_state(p0, 0)
            p0.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])", "at": 0})
            receive_state(p0, 2)  # ours and the bot's: legal on the new rules too
            game.write_text(original.replace("return chosenTile.AssignedTo == null;",
                                             "return chosenTile.AssignedTo == null && chosenTile != GameState.Board.TrisGrid[1][1];"))
            assert server.check_sources() == [os.path.abspath(game)]
            r = client.post(f"/games/{gid}/reload", content=f"host={host}&restart=1".encode())
            assert r.status_code == 200 and r.text == "the new rules: the game started again"
            again = receive_source(p0)
            assert again["number"] == 0 and again["history"] == [] and len(again["moves"]) == 8  # no middle square
            assert again["source"] == {"reloaded": "the new rules: the game started again"}
    assert server.store.games()[0].moves == [] and session.stored.tokens == server.store.games()[0].tokens
    # new rules whose setup fails at run time: refused, the game left as it was
    game.write_text(original.replace("turn.use(", "GameState.TickedCount = 1 / 0;\n    turn.use(", 1))
    assert server.check_sources() == [os.path.abspath(game)]
    with TestClient(create_app(server)) as client:
        r = client.post(f"/games/{gid}/reload", content=f"host={host}".encode())
        assert r.status_code == 400 and r.text.startswith("the new rules cannot start a game:\n")
        assert "division by zero" in r.text
    assert session.error is None and len(session.state.legal_moves()) == 8


def test_the_host_asks_what_the_bot_would_play(tris):
    server, session, client = tris
    gid = session.stored.id
    with client.websocket_connect(f"/ws/{gid}?token={server.host_token}") as hot, \
            client.websocket_connect(f"/ws/{gid}?token={session.stored.tokens[0]}") as seat:
        receive_state(hot, 0)
        for n, move in enumerate(["PlayerState#0.Tick(chosenTile: TrisGrid[0][0])",
                                  "PlayerState#1.Tick(chosenTile: TrisGrid[1][0])",
                                  "PlayerState#0.Tick(chosenTile: TrisGrid[0][1])"]):
            hot.send_json({"type": "move", "move": move, "at": n})
            receive_state(hot, n + 1)
        hot.send_json({"type": "hint", "iterations": 300})
        for _ in range(10):
            hint = hot.receive_json()
            if hint["type"] == "hint":
                break
        assert hint["at"] == 3 and len(hint["moves"]) == 6
        assert abs(sum(m["share"] for m in hint["moves"]) - 1) < 1e-9
        best = max(hint["moves"], key=lambda m: m["share"])
        assert best["text"] == "PlayerState#1.Tick(chosenTile: TrisGrid[0][2])"  # the only block
        seat.send_json({"type": "hint"})
        assert receive_error(seat).startswith("only the host's page can ask the bot")
        for bad in (0, -3, True, 10**9, "5"):
            hot.send_json({"type": "hint", "iterations": bad})
            assert receive_error(hot).startswith("field 'iterations' must be a whole number")


def test_a_runtime_error_in_the_bots_search_is_an_answer(tmp_path):
    """A game whose third move divides by zero: the bot's search meets it in its playouts; the host's page
    is told so (located), and its socket goes on answering."""
    game = tmp_path / "zero.tgpl"
    game.write_text(open(TRIS).read().replace(
        "            GameState.TickedCount += 1;\n",
        "            GameState.TickedCount += 1;\n"
        "            if (GameState.TickedCount == 3) { GameState.TickedCount = GameState.TickedCount / 0; }\n", 1))
    server = Server(tmp_path / "data", watch_every=None)
    session = server.new_game(str(game), ["human", "human"], 0)
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{session.stored.id}?token={server.host_token}") as hot:
            receive_state(hot, 0)
            hot.send_json({"type": "hint", "iterations": 50})
            error = receive_error(hot)
            assert error.startswith("the bot's search ran into an error of the game:\n")
            assert re.search(rf"{re.escape(display_path(game))}:\d+:\d+: .*division by zero", error), error
            hot.send_json({"type": "state"})
            assert receive_state(hot, 0)["number"] == 0


def test_the_host_opens_a_record_to_step_through(tris, tmp_path):
    from click.testing import CliRunner

    from tgpl.cli import main

    server, session, client = tris
    record = tmp_path / "r.json"
    played = CliRunner().invoke(main, ["play", session.stored.path, "--players", "random,random", "--seed", "2",
                                       "--quiet", "--record", str(record)])
    assert played.exit_code == 0, played.output
    moves = json.loads(record.read_text())["moves"]
    host = server.host_token
    r = client.post(f"/records?host={host}", content=record.read_bytes(), follow_redirects=False)
    assert r.status_code == 303
    opened = server.sessions[int(r.headers["location"].split("/")[2].split("?")[0])]
    assert [t for _, t in opened.stored.moves] == [m["move"] for m in moves] and opened.state.is_terminal
    with client.websocket_connect(f"/ws/{opened.stored.id}?token={host}") as ws:
        receive_state(ws, len(moves))
        ws.send_json({"type": "position", "at": 1})  # stepping through
        assert ws.receive_json()["at"] == 1
    liar = json.loads(record.read_text())  # a record whose second move is said to be player 0's
    liar["moves"][1]["player"] = 0
    r = client.post(f"/records?host={host}", content=json.dumps(liar).encode(), follow_redirects=False)
    kept = server.sessions[int(r.headers["location"].split("/")[2].split("?")[0])]
    assert kept.number == 1 and len(kept.stored.moves) == 1 and [h["player"] for h in kept.history(None)] == [0]
    assert kept.error == (f"move 2 '{moves[1]['move']}' is said to be player 0's, but it is player 1's decision")
    bad = json.loads(record.read_text())
    bad["path"] = "/etc/passwd"
    for body, status, text in [(record.read_bytes(), 403, "only the host"), (b"{", 400, "not a record"),
                               (b"\xff", 400, "UTF-8"), (json.dumps(bad).encode(), 400, "not one of the games")]:
        url = "/records" if status == 403 else f"/records?host={host}"
        r = client.post(url, content=body)
        assert r.status_code == status and text in r.text, (status, r.text)


def test_the_host_runs_an_analysis(tris):
    server, session, client = tris
    host, path = server.host_token, session.stored.path
    r = client.post("/analyze", content=f"host={host}&path={path}&players=first,random&games=8&seed=3".encode())
    assert r.status_code == 200
    assert f"{path}: 8 games, seeds 3..10, players first,random: 8 finished" in r.text
    assert "seat 0 (first): 100.0%" in r.text  # first always wins tris against random from these seeds
    import base64

    plots = re.findall(r"<img class='plot' alt='(\w+\.png)' src='data:image/png;base64,([^']+)'>", r.text)
    assert [name for name, _ in plots] == ["length.png", "wins.png", "branching.png"]  # analyze --report's
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for _, data in plots)
    for form, status in [(f"host=no&path={path}", 403), (f"host={host}&path=/etc/passwd", 400),
                         (f"host={host}&path={path}&games=0", 400), (f"host={host}&path={path}&games=x", 400),
                         (f"host={host}&path={path}&players=wizard", 400),
                         (f"host={host}&path={path}&players=random,random,random", 400)]:
        assert client.post("/analyze", content=form.encode()).status_code == status, form


class FakeClock:
    """The turn limit's clock, moved by the test: no real second is waited for."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_seat_past_the_turn_limit_gets_a_random_legal_move(tmp_path):
    clock = FakeClock()
    server = Server(tmp_path / "data", watch_every=None, turn_limit=30, clock=clock)
    session = server.new_game(TRIS, ["human", "human"], 4)
    first = {m.text for m in session.state.legal_moves()}
    assert session.time_left() == 30 and session.message(0)["turn_limit"] == 30
    clock.now += 29.5
    assert server.expire_turns() == [] and session.number == 0
    assert session.message(1)["time_left"] == 0.5
    clock.now += 0.5
    assert server.expire_turns() == [session]
    (player, text), = session.stored.moves
    assert player == 0 and text in first and session.timed_out == [1]
    assert session.message(1)["timed_out"] == [1]
    assert server.store.games()[0].moves == [(0, text)]  # committed, as any move
    assert session.time_left() == 30  # player 1's decision starts with the move
    # a seat that moves in time starts the next seat's limit
    clock.now += 12
    reply = next(m.text for m in session.state.legal_moves())
    session.play(server.store, 1, reply, 1)
    assert session.timed_out == [1] and session.time_left() == 30
    # the same seed and position give the same move: another server, another clock
    other = Server(tmp_path / "other", watch_every=None, turn_limit=5, clock=FakeClock())
    again = other.new_game(TRIS, ["human", "human"], 4)
    other.clock.now += 5
    assert other.expire_turns() == [again] and again.stored.moves == [(0, text)]


def test_the_moves_the_turn_limit_played_are_still_marked_after_a_restart(tmp_path):
    """`timed_out` is kept in the store with the moves: a restarted server, a fork and an undo say the same."""
    clock = FakeClock()
    server = Server(tmp_path / "data", watch_every=None, turn_limit=10, clock=clock)
    session = server.new_game(TRIS, ["human", "human"], 4)
    session.play(server.store, 0, next(m.text for m in session.state.legal_moves()), 0)  # in time
    clock.now += 10
    assert server.expire_turns() == [session]  # move 2: the server's
    session.play(server.store, 0, next(m.text for m in session.state.legal_moves()), 2)
    clock.now += 10
    assert server.expire_turns() == [session]  # move 4
    assert session.timed_out == [2, 4]
    server.store.close()
    again = Server(tmp_path / "data", watch_every=None, turn_limit=10, clock=clock)
    resumed = again.sessions[session.stored.id]
    assert resumed.number == 4 and resumed.timed_out == [2, 4] and resumed.message(0)["timed_out"] == [2, 4]
    forked = again.fork(resumed, 3)
    assert forked.timed_out == [2] and again.store.games()[-1].timed_out == [2]
    resumed.undo(again.store)  # back to move 3: move 4's mark goes with it
    assert resumed.timed_out == [2] and again.store.games()[0].timed_out == [2]
    clock.now += 10
    assert resumed in again.expire_turns() and resumed.timed_out == [2, 4]


def test_a_database_from_before_the_marks_is_opened(tmp_path):
    import sqlite3

    db = sqlite3.connect(tmp_path / "games.sqlite3")
    db.executescript("""CREATE TABLE moves (game INTEGER NOT NULL, number INTEGER NOT NULL, player INTEGER NOT NULL,
                        text TEXT NOT NULL, PRIMARY KEY (game, number));""")
    db.close()
    server = Server(tmp_path, watch_every=None)
    session = server.new_game(TRIS, ["human", "human"], 0)
    session.play(server.store, 0, next(m.text for m in session.state.legal_moves()), 0)
    assert server.store.games()[0].moves == session.stored.moves and session.timed_out == []


def test_the_turn_limit_waits_for_no_bot_and_no_finished_game(tmp_path):
    clock = FakeClock()
    server = Server(tmp_path, watch_every=None, turn_limit=10, clock=clock)
    bots = server.new_game(TRIS, ["first", "human"], 0)
    assert bots.time_left() is None  # a bot to move: the limit is a human's
    clock.now += 100
    assert server.expire_turns() == [] and bots.number == 0
    unlimited = Server(tmp_path / "u", watch_every=None, clock=clock).new_game(TRIS, ["human", "human"], 0)
    clock.now += 10_000
    assert unlimited.time_left() is None and not unlimited.play_timeout(server.store)
    # a game played out by the clock alone ends, and then nothing more is played
    game = server.new_game(TRIS, ["human", "human"], 9)
    for _ in range(9):
        clock.now += 10
        server.expire_turns()
    assert game.state.is_terminal and game.timed_out == list(range(1, game.number + 1))
    clock.now += 10
    assert game not in server.expire_turns()


def test_serve_refuses_a_turn_limit_under_a_second():
    from click.testing import CliRunner

    from tgpl.cli import main

    result = CliRunner().invoke(main, ["serve", TRIS, "--turn-limit", "0.5"])
    assert result.exit_code == 2 and "--turn-limit" in result.output


def test_the_only_human_seat_may_undo_and_a_seat_among_humans_may_not(tmp_path):
    """Undo needs every human seat in one browser: the host's page, or a game's only human seat."""
    server = Server(tmp_path)
    alone = server.new_game(TRIS, ["human", "first"], 0)
    shared = server.new_game(TRIS, ["human", "human"], 0)
    with TestClient(create_app(server)) as client:
        with client.websocket_connect(f"/ws/{alone.stored.id}?token={alone.stored.tokens[0]}") as seat, \
                client.websocket_connect(f"/ws/{alone.stored.id}?token={alone.stored.spectator_token}") as watcher:
            assert receive_state(seat, 0)["undo"] is True and receive_state(watcher, 0)["undo"] is False
            seat.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
            receive_state(seat, 2)  # ours and the bot's
            watcher.send_json({"type": "undo"})
            assert "can undo" in receive_error(watcher)
            seat.send_json({"type": "undo"})
            back = receive_state(seat, 0)
            assert back["view"]["active"] == 0 and len(back["moves"]) == 9
        gid, (t0, t1) = shared.stored.id, shared.stored.tokens
        with client.websocket_connect(f"/ws/{gid}?token={t0}") as p0, client.websocket_connect(f"/ws/{gid}?token={t1}") as p1:
            assert receive_state(p0, 0)["undo"] is False
            p0.send_json({"type": "move", "move": "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])", "at": 0})
            receive_state(p1, 1)
            p1.send_json({"type": "undo"})
            assert receive_error(p1) == ("only the host's page, or the page of a game's only human seat, can undo")
        assert shared.number == 1
