"""The web server: a Starlette application over the store and the sessions.

Routes (docs/serve.md):

- `GET /?host=TOKEN`: the host's lobby (every game, its invite links, a form for a new game);
  without the host's token, a page saying that games are reached by invite links;
- `POST /games`: a new game (urlencoded `host`, `path`, `players`, `seed`);
- `GET /play/{id}?token=T`: the game's page for the seat (or spectators) the token names;
- `GET /record/{id}?token=T`: the game's record (`tgpl replay` reads it): for the host at any
  time, for the game's seats and spectators once it is over;
- `WS /ws/{id}?token=T`: the live game: the server sends `state` messages (the seat's view,
  its legal moves when it is to move, the log as it may read it), the page sends `move`s;
- `GET /static/...`: the page's files, from the package's `static` folder only.

Every refusal is an answer (an HTTP 4xx with a message, or an `error` message on the socket).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import html
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program
from tgpl.play.record import Record, RecordError, source_digest
from tgpl.runtime.game import Game, GameLoadError, compile_program, load_game
from tgpl.serve.session import HUMAN, Client, Refused, Session, bot_agent
from tgpl.serve.store import Store, new_token

STATIC = Path(__file__).parent / "static"
MESSAGE_LIMIT = 64 * 1024  # bytes of one WebSocket message from a page
FORM_LIMIT = 16 * 1024  # bytes of a POST body
RECORD_UPLOAD_LIMIT = 10_000_000  # bytes of a record opened on the host's page
HINT_LIMIT = 20_000
ANALYZE_LIMIT = 1000  # games one analysis from the host's page may play  # MCTS iterations one "what would the bot play" may ask for


class Server:
    """The games being served, their store, and the host's token."""

    def __init__(self, data: str | Path, watch_every: float | None = 1.0, turn_limit: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.watch_every = watch_every  # seconds between looks at the games' files; None: never
        # `--turn-limit`: seconds a human seat has for a decision, past which the server plays a random legal
        # move for it; `clock` is what it reads (time.monotonic; tests inject their own, never real seconds)
        self.turn_limit = turn_limit
        self.clock = clock
        self.store = Store(data)
        self.host_token = self.store.setting("host_token", new_token)
        self.games: dict[tuple[str, int], Game] = {}
        self.sessions: dict[int, Session] = {}
        self.broken: dict[int, str] = {}  # stored games whose source no longer loads
        self.driving: set[int] = set()
        self.tasks: set[asyncio.Task] = set()  # bots' tasks, held until done (asyncio keeps weak references)
        self.watched: dict[str, dict[str, str | None]] = {}  # game path -> its files' digests (`check_sources`)
        for stored in self.store.games():
            try:
                game = self.load(stored.path, stored.players)
            except Refused as e:
                self.broken[stored.id] = str(e)
                continue
            self.sessions[stored.id] = self._timed(Session.resume(stored, game))

    def _timed(self, session: Session) -> Session:
        """The session on the server's clock and turn limit, its open decision starting now."""
        session.clock, session.turn_limit, session.started = self.clock, self.turn_limit, self.clock()
        return session

    def expire_turns(self) -> list[Session]:
        """Play a random legal move for each human seat past the turn limit (Session.play_timeout): the
        sessions where one was played."""
        return [s for s in list(self.sessions.values()) if s.play_timeout(self.store)]

    async def time_turns(self, every: float) -> None:
        """`expire_turns` every `every` seconds, under each session's lock; then the pages are told and the
        bots, if the move gave them the turn, play."""
        while True:
            await asyncio.sleep(every)
            for session in list(self.sessions.values()):
                async with session.lock:
                    played = session.play_timeout(self.store)
                if played:
                    await self.broadcast(session)
                    self.start_driving(session)

    def load(self, path: str, players: int) -> Game:
        """The compiled game (compiled once per file and player count)."""
        key = (path, players)
        if key not in self.games:
            try:
                self.games[key] = load_game(path, players)
            except GameLoadError as e:
                raise Refused(f"{path} has errors:\n{e.render()}") from None
            except (OSError, ValueError) as e:
                raise Refused(f"{path}: {e}") from None
            self.watched.setdefault(path, digests(self.games[key].program.sources))
        return self.games[key]

    def check_sources(self) -> list[str]:
        """Look for saved changes to the served games' files (run every second by the server):
        a game with errors is shown to its pages as its diagnostics; one that checks clean is
        compiled, offered to its games (`Session.reload`) and used for new games. Returns the
        paths of the games whose files changed."""
        changed = []
        for path, known in list(self.watched.items()):
            now = digests(known)
            if now == known:
                continue
            changed.append(path)
            self.watched[path] = now
            sessions = [s for s in self.sessions.values() if s.stored.path == path]
            try:
                program = load_program(path)
            except OSError as e:
                program, errors = None, f"{path}: error: {e}"
            else:
                errors = None if program.ok else render_all(program.diagnostics, program.sources)
            if errors is not None:
                for session in sessions:
                    session.notice = {"errors": errors}
                continue
            compiled = compile_program(program)
            self.watched[path] = digests(program.sources)  # its imports may have changed too
            for key in [k for k in self.games if k[0] == path]:
                if key[1] in compiled.players:
                    self.games[key] = Game(program, compiled, key[1])
                else:
                    del self.games[key]
            for session in sessions:
                session.notice = {"new_rules": True}
        return changed

    async def watch(self, every: float = 1.0) -> None:
        """`check_sources` every `every` seconds, telling the pages of the games that changed."""
        while True:
            await asyncio.sleep(every)
            for path in await asyncio.to_thread(self.check_sources):
                for session in [s for s in self.sessions.values() if s.stored.path == path]:
                    await self.broadcast(session)

    def new_game(self, path: str, agents: list[str], seed: int) -> Session:
        """A new game of `path` seating `agents` (one spec per seat)."""
        path = os.path.abspath(path)
        game = self.load(path, len(agents))
        for seat, spec in enumerate(agents):
            bot_agent(spec, seed, seat)  # refuses an unknown spec before anything is stored
        stored = self.store.create_game(path, len(agents), seed, agents)
        session = self._timed(Session.resume(stored, game))
        self.sessions[stored.id] = session
        return session

    def fork(self, session: Session, at: int) -> Session:
        """A new game (new links) that starts as `session` stood after `at` moves."""
        s = session.stored
        stored = self.store.create_game(s.path, s.players, s.seed, list(s.agents), s.moves[:at], s.timed_out)
        forked = self._timed(Session.resume(stored, session.game))
        self.sessions[stored.id] = forked
        return forked

    def find(self, path: str, agents: list[str], seed: int) -> Session | None:
        """An unfinished game of `path` with these seats and seed: what a restart resumes."""
        path = os.path.abspath(path)
        for session in self.sessions.values():
            s = session.stored
            if (s.path == path and s.agents == agents and s.seed == seed
                    and not session.state.is_terminal and session.error is None):
                return session
        return None

    # ------------------------------------------------------------ live play
    async def broadcast(self, session: Session) -> None:
        for client in list(session.clients):
            try:
                await client.send(session.message(client.seat_now(session), client.hot))
            except Exception:  # a page gone away: its socket's loop drops it
                pass

    async def drive(self, session: Session) -> None:
        """Let the bots play while it is a bot's turn, one committed move at a time."""
        if session.stored.id in self.driving:
            return
        self.driving.add(session.stored.id)
        try:
            while session.bot_to_move() is not None:
                async with session.lock:
                    await asyncio.to_thread(session.play_bot, self.store)
                await self.broadcast(session)
        finally:
            self.driving.discard(session.stored.id)

    def start_driving(self, session: Session) -> None:
        task = asyncio.create_task(self.drive(session))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def links(self, session: Session, base: str) -> list[tuple[str, str]]:
        """(who, URL) for each seat and the spectators."""
        gid = session.stored.id
        out = []
        for seat, (agent, token) in enumerate(zip(session.stored.agents, session.stored.tokens)):
            out.append((f"player {seat} ({agent})", f"{base}/play/{gid}?token={quote(token)}"))
        out.append(("spectators", f"{base}/play/{gid}?token={quote(session.stored.spectator_token)}"))
        return out


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
                        f"<link rel='stylesheet' href='/static/play.css'></head><body class='lobby'>{body}</body></html>",
                        status_code=status)


async def _form(request: Request) -> tuple[dict, Response | None]:
    """An urlencoded form of at most FORM_LIMIT bytes, or the response refusing it."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_LIMIT:
            return {}, PlainTextResponse("request too large", status_code=413)
    try:
        return {k: v[0] for k, v in parse_qs(body.decode("utf-8")).items()}, None
    except UnicodeDecodeError:
        return {}, PlainTextResponse("the form is not UTF-8", status_code=400)


async def _host_form(server: Server, request: Request, what: str, game: bool = False
                     ) -> tuple[dict, Session | None, Response | None]:
    """The host's urlencoded form (`_form`), checked to hold the host's token (403: "only the host can `what`"),
    and with `game`, the game of the request's path (404); else the response refusing it."""
    form, refused = await _form(request)
    if refused is not None:
        return form, None, refused
    if form.get("host") != server.host_token:
        return form, None, PlainTextResponse(f"only the host can {what}", status_code=403)
    if not game:
        return form, None, None
    session, why = _session(server, request)
    if session is None:
        return form, None, PlainTextResponse(why, status_code=404)
    return form, session, None


def _session(server: Server, request: Request) -> tuple[Session | None, str]:
    try:
        gid = int(request.path_params["gid"])
    except (KeyError, ValueError):
        return None, "no such game"
    if gid in server.broken:
        return None, f"game {gid} cannot be resumed: {server.broken[gid]}"
    session = server.sessions.get(gid)
    return (session, "") if session is not None else (None, f"no game {gid}")


def create_app(server: Server) -> Starlette:
    async def lobby(request: Request) -> Response:
        if request.query_params.get("host") != server.host_token:
            return _page("tgpl serve", "<h1>tgpl serve</h1><p>Games here are joined by invite links: "
                                       "ask the host for one.</p>")
        base = str(request.base_url).rstrip("/")
        rows = []
        for gid, session in sorted(server.sessions.items()):
            state = session.state
            status = session.error or ("over" if state.is_terminal else f"{session.number} moves")
            links = "".join(f"<li>{html.escape(who)}: <a href='{html.escape(url)}'>{html.escape(url)}</a></li>"
                            for who, url in server.links(session, base))
            hot = f"{base}/play/{gid}?token={quote(server.host_token)}"
            links += f"<li>every human seat in one page (hot seat): <a href='{html.escape(hot)}'>{html.escape(hot)}</a></li>"
            seat_options = "".join(f"<option value='{s}'>{s}</option>" for s in range(len(session.agents)))
            links += (f"<li><form method='post' action='/games/{gid}/seats'>"
                      f"<input type='hidden' name='host' value='{html.escape(server.host_token)}'>"
                      f"seat <select name='seat'>{seat_options}</select> is now "
                      f"<input name='agent' value='mcts:200' size='10'> <button>change</button></form></li>")
            record = f"{base}/record/{gid}?token={quote(server.host_token)}"
            rows.append(f"<section class='game' data-game='{gid}'><h2>game {gid}: {html.escape(session.game.name or '')}"
                        f" <small>{html.escape(session.stored.path)}, seed {session.stored.seed}: "
                        f"{html.escape(status.splitlines()[0])}</small></h2><ul>{links}</ul>"
                        f"<a href='{html.escape(record)}'>record</a></section>")
        for gid, why in sorted(server.broken.items()):
            rows.append(f"<section class='game broken'><h2>game {gid}</h2><pre>{html.escape(why)}</pre></section>")
        paths = sorted({s.stored.path for s in server.sessions.values()})
        options = "".join(f"<option>{html.escape(p)}</option>" for p in paths)
        form = (f"<form method='post' action='/games'><input type='hidden' name='host' value='{html.escape(server.host_token)}'>"
                f"<label>game <input name='path' list='paths' size='50' value='{html.escape(paths[0] if paths else '')}'>"
                f"<datalist id='paths'>{options}</datalist></label> "
                f"<label>players <input name='players' value='human,random'></label> "
                f"<label>seed <input name='seed' value='0' size='6'></label> <button>new game</button></form>")
        analysis = (f"<form method='post' action='/analyze'><input type='hidden' name='host' value='{html.escape(server.host_token)}'>"
                    f"<label>analyze <input name='path' list='paths' size='50' value='{html.escape(paths[0] if paths else '')}'></label> "
                    f"<label>players <input name='players' value='random,random'></label> "
                    f"<label>games <input name='games' value='100' size='5'></label> "
                    f"<label>seed <input name='seed' value='0' size='6'></label> <button>analyze</button></form>")
        opener = analysis + ("<p><label>open a record to step through (a game served here): <input type='file' id='record' "
                  "accept='.json,application/json'></label> <span id='recorderror'></span></p>"
                  "<script>document.getElementById('record').addEventListener('change', async (e) => {"
                  "const r = await fetch('/records' + location.search, {method: 'POST', body: await e.target.files[0].text()});"
                  "if (r.ok && r.redirected) location.href = r.url;"
                  "else document.getElementById('recorderror').textContent = await r.text(); });</script>")
        return _page("tgpl serve: games", "<h1>games</h1>" + form + opener + "".join(rows))

    async def create(request: Request) -> Response:
        form, _, refused = await _host_form(server, request, "start games")
        if refused is not None:
            return refused
        path = form.get("path", "")
        known = {s.stored.path for s in server.sessions.values()}
        if path not in known:  # only games the host has served: no file outside them is opened
            return PlainTextResponse(f"'{path}' is not one of the games served here", status_code=400)
        agents = [a.strip() for a in form.get("players", "").split(",") if a.strip()]
        try:
            seed = int(form.get("seed", "0"))
        except ValueError:
            return PlainTextResponse("seed must be a whole number", status_code=400)
        try:
            served = next(s for s in server.sessions.values() if s.stored.path == path)
            allowed = server.load(path, served.stored.players).compiled.players
            if not agents or len(agents) > allowed[-1]:
                raise Refused(f"the game has {_counts(allowed)} players, not {len(agents)}")
            agents += [HUMAN] * (allowed.start - len(agents))
            server.new_game(path, agents, seed)
        except Refused as e:
            return PlainTextResponse(str(e), status_code=400)
        return RedirectResponse(f"/?host={quote(server.host_token)}", status_code=303)

    async def seats(request: Request) -> Response:
        """The host seats a human or a bot at a seat: urlencoded `host`, `seat`, `agent`."""
        form, session, refused = await _host_form(server, request, "change seats", game=True)
        if refused is not None:
            return refused
        try:
            seat = int(form.get("seat", ""))
        except ValueError:
            return PlainTextResponse("seat must be a whole number", status_code=400)
        try:
            async with session.lock:
                session.set_agent(server.store, seat, form.get("agent", "").strip())
        except Refused as e:
            return PlainTextResponse(str(e), status_code=400)
        await server.broadcast(session)
        server.start_driving(session)
        return RedirectResponse(f"/?host={quote(server.host_token)}", status_code=303)

    async def fork(request: Request) -> Response:
        """The host forks a game at a move: urlencoded `host`, `at`; 303 to the new game's hot-seat page."""
        form, session, refused = await _host_form(server, request, "fork games", game=True)
        if refused is not None:
            return refused
        try:
            at = int(form.get("at", ""))
        except ValueError:
            at = -1
        if not 0 <= at <= session.number:
            return PlainTextResponse(f"at must be a move number from 0 to {session.number}", status_code=400)
        forked = server.fork(session, at)
        server.start_driving(forked)
        return RedirectResponse(f"/play/{forked.stored.id}?token={quote(server.host_token)}", status_code=303)

    async def open_record(request: Request) -> Response:
        """The host opens a record (`tgpl play --record`, or this server's) to step through: the
        body is its JSON, `?host=` the host's token; a new game of every seat human, its moves
        played (to the first that is not legal, which it names). 303 to its hot-seat page."""
        if request.query_params.get("host") != server.host_token:
            return PlainTextResponse("only the host can open records", status_code=403)
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > RECORD_UPLOAD_LIMIT:
                return PlainTextResponse("the record is too large", status_code=413)
        try:
            rec = Record.from_json(body.decode("utf-8"))
        except UnicodeDecodeError:
            return PlainTextResponse("a record is UTF-8 JSON", status_code=400)
        except RecordError as e:
            return PlainTextResponse(f"not a record: {e}", status_code=400)
        served = {os.path.abspath(s.stored.path): s.stored.path for s in server.sessions.values()}
        path = served.get(os.path.abspath(rec.path))
        if path is None:  # only games the host serves: no other file is opened
            return PlainTextResponse(f"the record's game '{rec.path}' is not one of the games served here",
                                     status_code=400)
        try:
            game = server.load(path, len(rec.players))
        except Refused as e:
            return PlainTextResponse(str(e), status_code=400)
        if rec.game != game.name:
            return PlainTextResponse(f"the record is of '{rec.game}', the game served is '{game.name}'", status_code=400)
        stored = server.store.create_game(path, len(rec.players), rec.seed, [HUMAN] * len(rec.players),
                                          [(m["player"], m["move"]) for m in rec.moves])
        session = server.sessions[stored.id] = server._timed(Session.resume(stored, game))
        if session.number < len(rec.moves):  # keep only what replays, as `tgpl replay` would stop there
            server.store.truncate(stored.id, session.number)
            del stored.moves[session.number:]
        return RedirectResponse(f"/play/{stored.id}?token={quote(server.host_token)}", status_code=303)

    async def analyze(request: Request) -> Response:
        """The host's analysis: `tgpl analyze` of a game served here (urlencoded `host`, `path`,
        `players`, `games`, `seed`), played in a worker thread; its figures as a page."""
        form, _, refused = await _host_form(server, request, "run analyses")
        if refused is not None:
            return refused
        path = form.get("path", "")
        if path not in {s.stored.path for s in server.sessions.values()}:
            return PlainTextResponse(f"'{path}' is not one of the games served here", status_code=400)
        try:
            games, seed = int(form.get("games", "100")), int(form.get("seed", "0"))
        except ValueError:
            return PlainTextResponse("games and seed must be whole numbers", status_code=400)
        if not 1 <= games <= ANALYZE_LIMIT:
            return PlainTextResponse(f"games must be from 1 to {ANALYZE_LIMIT}", status_code=400)
        try:
            text, plots = await asyncio.to_thread(_analysis, path, form.get("players", ""), games, seed)
        except Refused as e:
            return PlainTextResponse(str(e), status_code=400)
        back = f"/?host={quote(server.host_token)}"
        return _page("tgpl analyze", f"<p><a href='{html.escape(back)}'>back to the games</a></p>"
                                     f"<h1>tgpl analyze {html.escape(path)}</h1><pre id='analysis'>{html.escape(text)}</pre>"
                                     + "".join(f"<img class='plot' alt='{html.escape(name)}' src='data:image/png;base64,"
                                               f"{base64.b64encode(png).decode('ascii')}'>" for name, png in plots))

    async def reload(request: Request) -> Response:
        """The host replays a game's moves on its game's new rules: urlencoded `host`, and `restart=1`
        to start it again on them instead (same seats, seed and links)."""
        form, session, refused = await _host_form(server, request, "reload a game's rules", game=True)
        if refused is not None:
            return refused
        game = server.games.get((session.stored.path, session.stored.players))
        if game is None or (session.notice or {}).get("errors"):
            return PlainTextResponse("the game's source does not check clean: nothing to reload", status_code=400)
        async with session.lock:
            try:
                session.reload(server.store, game, restart=form.get("restart") == "1")
            except Refused as e:
                return PlainTextResponse(str(e), status_code=400)
        await server.broadcast(session)
        server.start_driving(session)
        return PlainTextResponse(session.notice["reloaded"])

    async def play_page(request: Request) -> Response:
        session, why = _session(server, request)
        if session is None:
            return _page("no such game", f"<p>{html.escape(why)}</p>", 404)
        token = request.query_params.get("token", "")
        known, _ = session.seat_of(token)
        if not known and token != server.host_token:
            return _page("not invited", "<p>This link's token opens no seat of this game.</p>", 403)
        return HTMLResponse((STATIC / "play.html").read_text(encoding="utf-8"))

    async def record(request: Request) -> Response:
        session, why = _session(server, request)
        if session is None:
            return PlainTextResponse(why, status_code=404)
        token = request.query_params.get("token", "")
        known, _ = session.seat_of(token)
        if token != server.host_token and not (known and session.state.is_terminal):
            return PlainTextResponse("the record holds every secret: the host's, or everyone's once the game is over",
                                     status_code=403)
        s = session.stored
        rec = Record(session.game.name, s.path, source_digest(session.game.program.sources), s.seed, list(s.agents))
        rec.moves = [{"player": p, "move": t} for p, t in s.moves]
        state = session.state
        rec.log = state.log
        if state.is_terminal:
            rec.result = {"ranking": state.ranking, "goals": state.goals}
        return Response(rec.to_json(), media_type="application/json",
                        headers={"content-disposition": f"attachment; filename=game-{s.id}.json"})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            gid = int(ws.path_params["gid"])
        except (KeyError, ValueError):
            gid = -1
        session = server.sessions.get(gid)
        if session is None:
            await ws.send_json({"type": "error", "message": server.broken.get(gid, f"no game {gid}"), "fatal": True})
            await ws.close(code=4404)
            return
        token = ws.query_params.get("token", "")
        hot = token == server.host_token  # the host's page plays every human seat (hot seat)
        known, seat = session.seat_of(token)
        if not known and not hot:
            await ws.send_json({"type": "error", "message": "this link's token opens no seat of this game",
                                "fatal": True})
            await ws.close(code=4403)
            return
        client = Client(ws.send_json, seat, hot)
        session.clients.append(client)
        try:
            await server.broadcast(session)  # the newcomer's first state, and "connected" for the others
            server.start_driving(session)
            while True:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                reply = await _handle(server, session, client, raw)
                if reply is not None:
                    await ws.send_json(reply)
        except WebSocketDisconnect:
            pass
        finally:
            if client in session.clients:
                session.clients.remove(client)
            await server.broadcast(session)

    async def not_found(request: Request, exc) -> Response:
        return PlainTextResponse(getattr(exc, "detail", "not found"), status_code=getattr(exc, "status_code", 404))

    async def server_error(request: Request, exc) -> Response:
        return PlainTextResponse("the server could not answer this request", status_code=500)

    routes = [
        Route("/", lobby),
        Route("/games", create, methods=["POST"]),
        Route("/games/{gid}/seats", seats, methods=["POST"]),
        Route("/games/{gid}/fork", fork, methods=["POST"]),
        Route("/games/{gid}/reload", reload, methods=["POST"]),
        Route("/records", open_record, methods=["POST"]),
        Route("/analyze", analyze, methods=["POST"]),
        Route("/play/{gid}", play_page),
        Route("/record/{gid}", record),
        WebSocketRoute("/ws/{gid}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    from starlette.exceptions import HTTPException
    @contextlib.asynccontextmanager
    async def lifespan(app):
        watcher = asyncio.create_task(server.watch(server.watch_every)) if server.watch_every else None
        timer = (asyncio.create_task(server.time_turns(min(1.0, server.turn_limit / 4)))
                 if server.turn_limit is not None else None)
        try:
            yield
        finally:
            for task in (watcher, timer):
                if task is not None:
                    task.cancel()

    return Starlette(routes=routes, exception_handlers={HTTPException: not_found, Exception: server_error},
                     lifespan=lifespan)


def _counts(allowed: range) -> str:
    """'2' or '4 to 7': how many players a game takes."""
    return f"{allowed.start}" if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"


def _analysis(path: str, players: str, games: int, seed: int) -> tuple[str, list[tuple[str, bytes]]]:
    """`tgpl analyze PATH --players PLAYERS --games G --seed S --jobs 1`'s report, as text, and the plots of
    `--report` (name, PNG), written in a temporary folder and read back."""
    import tempfile

    from tgpl.analysis.figures import play_games, summarise, text_report
    from tgpl.play.agents import automatic_agent

    try:
        game = load_game(path)  # its own compiled game: the worker thread shares nothing with play
    except GameLoadError as e:
        raise Refused(f"{path} has errors:\n{e.render()}") from None
    allowed = game.compiled.players
    specs = [p.strip() for p in players.split(",") if p.strip()]
    if len(specs) > allowed[-1]:
        raise Refused(f"the game has {_counts(allowed)} players, not {len(specs)}")
    specs += ["random"] * (allowed.start - len(specs))
    for spec in specs:
        try:
            automatic_agent(spec, 0, 0)
        except ValueError as e:
            raise Refused(f"{e}; analyses seat random, first, mcts or mcts:N") from None
    game = Game(game.program, game.compiled, len(specs))
    played, _ = play_games(game, specs, range(seed, seed + games), 1, 10_000)
    summary = summarise(game, path, specs, seed, played)
    from tgpl.analysis.report import write_report

    with tempfile.TemporaryDirectory() as folder:
        plots = [(p.name, p.read_bytes()) for p in write_report(summary, folder) if p.suffix == ".png"]
    return text_report(summary), plots


def digests(files) -> dict[str, str | None]:
    """Each file's SHA-256 (None: unreadable): what tells a saved change, whatever the clock says."""
    out = {}
    for name in files:
        try:
            out[name] = hashlib.sha256(Path(name).read_bytes()).hexdigest()
        except OSError:
            out[name] = None
    return out


async def _handle(server: Server, session: Session, client: Client, raw: dict) -> dict | None:
    """One message from a page: a move, or a request for the state again. Returns the error
    to send back, or None when the answer is the broadcast state."""
    text = raw.get("text")
    if text is None:
        data = raw.get("bytes") or b""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return {"type": "error", "message": "a message is JSON text"}
    if len(text.encode("utf-8")) > MESSAGE_LIMIT:
        return {"type": "error", "message": f"a message is at most {MESSAGE_LIMIT} bytes"}
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return {"type": "error", "message": "a message is a JSON object"}
    if not isinstance(message, dict):
        return {"type": "error", "message": "a message is a JSON object"}
    kind = message.get("type")
    seat = client.seat_now(session)
    if kind == "state":
        return session.message(seat, client.hot)
    if kind == "position":  # time travel: an earlier position, as this seat saw it then
        at = message.get("at")
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= session.number:
            return {"type": "error", "message": f"field 'at' must be a move number from 0 to {session.number}"}
        return session.position(seat, at)
    if kind == "hint":  # what would the bot play: MCTS's visits of each legal move, for the host
        if not client.hot:
            return {"type": "error", "message": "only the host's page can ask the bot (it sees every secret)"}
        iterations = message.get("iterations", 200)
        if isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= HINT_LIMIT:
            return {"type": "error", "message": f"field 'iterations' must be a whole number from 1 to {HINT_LIMIT}"}
        try:
            return await asyncio.to_thread(session.hint, iterations)
        except Refused as e:
            return {"type": "error", "message": str(e)}
    if kind == "undo":
        if not session.may_undo(seat, client.hot):
            return {"type": "error", "message": "only the host's page, or the page of a game's only human seat, "
                                                "can undo"}
        async with session.lock:
            try:
                session.undo(server.store)
            except Refused as e:
                return {"type": "error", "message": str(e)}
        await server.broadcast(session)
        server.start_driving(session)
        return None
    if kind != "move":
        return {"type": "error", "message": "field 'type': expected 'move', 'state', 'position', 'hint' or 'undo'"}
    async with session.lock:
        try:
            session.play(server.store, seat, message.get("move"), message.get("at"))
        except Refused as e:
            return {"type": "error", "message": str(e)}
    await server.broadcast(session)
    server.start_driving(session)
    return None
