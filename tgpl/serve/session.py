"""One game being served: its states, seats, bots and the clients watching it.

The states of every position are kept (a world is copied on write, so they share most of
their data): the log's redaction compares what a seat sees before and after each move, and
time travel will show them. Moves go through `play`, which checks whose move it is, that the
client saw the latest position, and that the move is legal, then commits it to the store
before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tgpl.play.agents import Agent, automatic_agent
from tgpl.play.display import describe_move
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, State
from tgpl.serve.store import StoredGame, Store
from tgpl.serve.views import move_objects, redact, sight, view

HUMAN = "human"
BOT_SPECS = ("random", "first", "mcts", "mcts:N")


class Refused(Exception):
    """A request the server answers with an error message (never a traceback)."""


def bot_agent(spec: str, seed: int, seat: int) -> Agent | None:
    """The agent a seat's spec names; None for a human seat. Raises Refused on an unknown spec."""
    if spec == HUMAN:
        return None
    try:
        return automatic_agent(spec, seed, seat)
    except ValueError as e:
        raise Refused(f"{e}; expected human or one of {', '.join(BOT_SPECS)}") from None


@dataclass
class Client:
    """A connected page: its socket's send function and the seat it holds (None: spectator), or
    every human seat (`hot`: the host's page, several players at one screen)."""

    send: object  # async callable taking a dict
    seat: int | None
    hot: bool = False

    def seat_now(self, session: Session) -> int | None:
        """The seat this page acts for and sees as now: a hot seat's is the human seat to move
        (else the last one that moved, so a bot's turn does not show what no one should see)."""
        if not self.hot:
            return self.seat
        state = session.state
        active = state.active_player
        if active is not None and session.agents[active] is None:
            self.seat = active
        return self.seat


@dataclass
class Session:
    stored: StoredGame
    game: Game
    states: list[State]
    agents: list[Agent | None]
    error: str | None = None  # a runtime error or a stuck position: the game cannot go on
    notice: dict | None = None  # the game's source changed: its errors, new rules, or how a reload went
    clients: list[Client] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _log_cache: dict = field(default_factory=dict)  # (move number, seat) -> redacted text
    _sights: dict = field(default_factory=dict)  # (state number, seat) -> Sight
    # The turn time limit (`tgpl serve --turn-limit`): the clock it reads (injected by tests), when the
    # decision now open began on it (the moves the clock played for a seat are the store's: `timed_out`)
    clock: Callable[[], float] = time.monotonic
    turn_limit: float | None = None
    started: float = 0.0

    @classmethod
    def resume(cls, stored: StoredGame, game: Game) -> Session:
        """Rebuild a stored game by replaying its moves (games are deterministic)."""
        agents = [bot_agent(a, stored.seed, s) for s, a in enumerate(stored.agents)]
        session = cls(stored, game, [], agents)
        try:
            state = game.initial_state(stored.seed)
            session.states.append(state)
            for n, (player, text) in enumerate(stored.moves, 1):
                move = state.move_by_text(text)
                if move is None:
                    session.error = f"move {n} '{text}' is no longer legal: {state.explain(text)}"
                    break
                if player != state.active_player:  # an opened record may say so: its log would lie
                    session.error = f"move {n} '{text}' is said to be player {player}'s, but it is player " \
                                    f"{state.active_player}'s decision"
                    break
                state = state.apply(move)
                session.states.append(state)
        except TGPLRuntimeError as e:
            session.error = e.render()
        session._check_stuck()
        return session

    # ------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def timed_out(self) -> list[int]:
        """The moves (numbered from 1) the server played for a seat past the turn limit: kept in the
        store with the moves, so a resumed game still says which they were."""
        return [n for n in self.stored.timed_out if n <= self.number]

    @property
    def number(self) -> int:
        """Moves played so far: what a client names as the position it moves from."""
        return len(self.states) - 1

    def seat_of(self, token: str) -> tuple[bool, int | None]:
        """(known, seat): a seat's token gives its seat, the spectators' token None."""
        for seat, t in enumerate(self.stored.tokens):
            if token == t:
                return True, seat
        return token == self.stored.spectator_token, None

    def _sight(self, k: int, seat: int | None):
        key = (k, seat)
        found = self._sights.get(key)
        if found is None:
            found = self._sights[key] = sight(self.states[k].world, seat)
        return found

    def history(self, seat: int | None) -> list[dict]:
        """The moves played, each as `seat` may read it."""
        out = []
        for n, (player, text) in enumerate(self.stored.moves[:self.number]):
            if seat == player:
                shown = text
            else:
                shown = self._log_cache.get((n, seat))
                if shown is None:
                    shown = self._log_cache[(n, seat)] = redact(text, self._sight(n, seat), self._sight(n + 1, seat))
            out.append({"number": n + 1, "player": player, "text": shown})
        return out

    def message(self, seat: int | None, hot: bool = False) -> dict:
        """Everything a client holding `seat` is sent after each change (`hot`: the host's page
        playing every human seat, now showing `seat`)."""
        state = self.state
        moves = []
        if (self.error is None and seat is not None and not state.is_terminal
                and state.active_player == seat and self.agents[seat] is None):
            moves = [{"text": m.text, "label": describe_move(state, m), "objects": move_objects(m)}
                     for m in state.legal_moves()]
        connected = {c.seat for c in self.clients if not c.hot}
        return {
            "type": "state",
            "game": self.stored.id,
            "name": self.game.name,
            "number": self.number,
            "you": seat,
            "seats": [{"seat": s, "agent": a, "connected": s in connected} for s, a in enumerate(self.stored.agents)],
            "spectators": sum(1 for c in self.clients if c.seat is None and not c.hot),
            "hot": hot,
            "view": view(state, seat, self._sight(self.number, seat)),
            "moves": moves,
            "history": self.history(seat),
            "undo": self.may_undo(seat, hot),
            "turn_limit": self.turn_limit,
            "time_left": self.time_left(),
            "timed_out": self.timed_out,
            "error": self.error,
            "source": self.notice,
        }

    def position(self, seat: int | None, at: int) -> dict:
        """The position after `at` moves (0: the start) as `seat` sees it: time travel in the log."""
        return {"type": "position", "game": self.stored.id, "at": at, "view": view(self.states[at], seat, self._sight(at, seat))}

    def hint(self, iterations: int) -> dict:
        """What an MCTS bot of `iterations` would play here: the share of its search each legal
        move took. It searches the true state, secrets included: for the host's page only."""
        state, at = self.state, self.number
        if self.error is not None or state.is_terminal:
            raise Refused("no move to weigh: the game is over or stopped")
        from tgpl.play.mcts import MctsAgent

        moves = state.legal_moves()
        agent = MctsAgent(self.stored.seed + at, state.active_player, iterations)
        try:  # its playouts may reach a position where the game's code fails: the answer says so
            visits = {m.text: v for m, v in agent.visits(state, moves)} if len(moves) > 1 else {moves[0].text: 1}
        except TGPLRuntimeError as e:
            raise Refused(f"the bot's search ran into an error of the game:\n{e.render()}") from None
        total = sum(visits.values()) or 1
        return {"type": "hint", "at": at, "iterations": iterations,
                "moves": [{"text": m.text, "objects": move_objects(m), "share": visits.get(m.text, 0) / total}
                          for m in moves]}

    # ------------------------------------------------------------ changing
    def _check_stuck(self) -> None:
        """A position where the player to move has none, or where listing the moves runs into a
        runtime error (a `require` dividing by zero), stops the game with that message."""
        state = self.state
        if self.error is not None or state.is_terminal:
            return
        try:
            moves = state.legal_moves()
        except TGPLRuntimeError as e:
            self.error = e.render()
            return
        if not moves:
            c = state.world.control
            self.error = f"stuck: player {state.active_player} has no legal move (turn {c.turn}, phase {c.phase})"

    def _apply(self, store: Store, player: int, move, timeout: bool = False) -> None:
        """Apply a legal move, commit it, then keep it: the store first, so a crash between the
        two loses nothing that was acknowledged. `timeout`: the turn limit played it."""
        try:
            new = self.state.apply(move)
        except TGPLRuntimeError as e:
            self.error = e.render()
            return
        store.add_move(self.stored.id, self.number, player, move.text, timeout)
        self.stored.moves.append((player, move.text))
        if timeout:
            self.stored.timed_out.append(self.number + 1)
        self.states.append(new)
        self.started = self.clock()
        self._check_stuck()

    def time_left(self) -> float | None:
        """Seconds the human seat to move has left under the turn limit (None: no limit, or no human to move)."""
        if self.turn_limit is None or self.error is not None or self.state.is_terminal \
                or self.agents[self.state.active_player] is not None:
            return None
        return max(0.0, self.turn_limit - (self.clock() - self.started))

    def play_timeout(self, store: Store) -> bool:
        """When the human seat to move has run past the turn limit, play a random legal move for it (drawn
        from the game's seed and the move number: the same on every run), and say so in `timed_out`.
        TGPL has no move that passes by itself: a forced move is the only one there is. Returns whether a
        move was played."""
        left = self.time_left()
        if left is None or left > 0:
            return False
        from tgpl.runtime.rng import Pcg32

        state = self.state
        moves = state.legal_moves()
        move = moves[Pcg32(self.stored.seed + self.number, stream=35).below(len(moves))]
        self._apply(store, state.active_player, move, timeout=True)
        return True

    def play(self, store: Store, seat: int | None, text: object, at: object) -> None:
        """A human seat's move; raises Refused, saying why, when it cannot be played."""
        if seat is None:
            raise Refused("spectators cannot move")
        if not isinstance(text, str) or not text.strip():
            raise Refused("a move is a non-empty string: its text")
        if isinstance(at, bool) or not isinstance(at, int):
            raise Refused("field 'at' must be the number of moves played when the move was chosen")
        if self.error is not None:
            raise Refused(f"the game cannot go on: {self.error}")
        state = self.state
        if state.is_terminal:
            raise Refused("the game is over")
        if at != self.number:
            raise Refused(f"stale move: {self.number} moves have been played, not {at}; the board is redrawn")
        if state.active_player != seat:
            raise Refused(f"it is player {state.active_player}'s move, not yours (player {seat})")
        if self.agents[seat] is not None:
            raise Refused(f"seat {seat} is played by a bot ({self.stored.agents[seat]})")
        move = state.move_by_text(text)
        if move is None:
            try:
                why = state.explain(text)
            except TGPLRuntimeError as e:  # explaining runs the game's requires and filters again
                why = e.message
            raise Refused(f"illegal move '{text.strip()}': {why}")
        self._apply(store, seat, move)

    def may_undo(self, seat: int | None, hot: bool) -> bool:
        """Whether a page may take moves back: the host's, or the page of the game's only human seat (every
        human seat is then in that browser, so nobody else's move is taken back from under them)."""
        if hot:
            return True
        humans = [s for s, agent in enumerate(self.agents) if agent is None]
        return seat is not None and humans == [seat]

    def bot_to_move(self) -> Agent | None:
        state = self.state
        if self.error is not None or state.is_terminal:
            return None
        return self.agents[state.active_player]

    def play_bot(self, store: Store) -> None:
        """One move by the bot whose turn it is (run in a worker thread: MCTS takes a while)."""
        agent = self.bot_to_move()
        if agent is None:
            return
        state = self.state
        player = state.active_player
        try:
            move = agent.choose(state, state.legal_moves())
        except TGPLRuntimeError as e:
            self.error = e.render()
            return
        self._apply(store, player, move)

    def reload(self, store: Store, game: Game, restart: bool = False) -> None:
        """Go on with the game's new rules: its moves replayed on them up to the first that is no
        longer legal (that one and those after it are dropped, from the store too), said in `notice`;
        with `restart`, none is replayed: the game starts again (same seats, seed and links). Raises
        Refused, changing nothing, when the new rules' setup fails."""
        try:
            states = [game.initial_state(self.stored.seed)]
        except TGPLRuntimeError as e:
            raise Refused(f"the new rules cannot start a game:\n{e.render()}") from None
        why = None
        try:
            for n, (player, text) in enumerate([] if restart else self.stored.moves, 1):
                state = states[-1]
                if state.is_terminal:
                    why = f"move {n} '{text}' is no longer legal: the game is over before it"
                elif state.active_player != player:
                    why = f"move {n} '{text}' is no longer legal: it is player {state.active_player}'s decision"
                elif (move := state.move_by_text(text)) is None:
                    why = f"move {n} '{text}' is no longer legal: {state.explain(text)}"
                else:
                    states.append(state.apply(move))
                    continue
                break
        except TGPLRuntimeError as e:
            why = f"move {len(states)}: {e.render()}"
        kept = len(states) - 1
        if kept < len(self.stored.moves):
            store.truncate(self.stored.id, kept)
            del self.stored.moves[kept:]
        self.game, self.states = game, states
        self._log_cache, self._sights = {}, {}
        self.error = None
        self.started = self.clock()
        self.stored.timed_out = [n for n in self.stored.timed_out if n <= kept]
        self._check_stuck()
        done = "the new rules: the game started again" if restart else f"the new rules: {kept} moves replayed"
        self.notice = {"reloaded": done + (f"; {why}, so the game goes on from move {kept}" if why else "")}

    def undo(self, store: Store) -> None:
        """Take back the last move, and the bots' moves before it, back to a position where a
        human seat is to move (or the start): the host's page, or a hot seat, plays again from there."""
        if self.number == 0:
            raise Refused("nothing to undo: no move has been played")
        target = self.number - 1
        while target > 0 and self.agents[self.states[target].active_player] is not None:
            target -= 1
        store.truncate(self.stored.id, target)
        del self.stored.moves[target:]
        del self.states[target + 1:]
        self._log_cache = {k: v for k, v in self._log_cache.items() if k[0] < target}
        self._sights = {k: v for k, v in self._sights.items() if k[0] <= target}
        self.error = None
        self.started = self.clock()
        self.stored.timed_out = [n for n in self.stored.timed_out if n <= target]
        self._check_stuck()

    def set_agent(self, store: Store, seat: int, spec: str) -> None:
        """Seat a human or another bot at `seat` from now on (the host's page)."""
        if not 0 <= seat < len(self.agents):
            raise Refused(f"the game has seats 0 to {len(self.agents) - 1}, not {seat}")
        agent = bot_agent(spec, self.stored.seed + self.number, seat)
        store.set_agent(self.stored.id, seat, spec)
        self.stored.agents[seat] = spec
        self.agents[seat] = agent
