"""`tgpl serve` in a real browser: Debian's chromium driven by Playwright for Python.

Few and quick: every example opens and is drawn; tris is played to its end by clicks; two
players play Connect Four through their invite links while a third page watches, and a page
closed and opened again resumes. Each test saves a screenshot in its tmp_path. `.ci/run`
installs chromium with apt-get; Playwright is pointed at it (`playwright install` is not used).
"""

from __future__ import annotations

import json
import math
import re
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from tgpl.serve.app import Server, create_app
from tgpl.frontend.loader import display_path  # what diagnostics show: relative to the working directory

CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 30_000  # how long a page may take to show what the server sent: liveness, not speed

EXAMPLES = [
    ("examples/tris.tgpl", 2), ("examples/connect4.tgpl", 2), ("examples/fiveinarow.tgpl", 2),
    ("examples/hex.tgpl", 2), ("examples/graph.tgpl", 2), ("examples/cards.tgpl", 2),
    ("examples/treasure.tgpl", 2), ("examples/draughts.tgpl", 2), ("examples/chess/chess.tgpl", 2),
    ("examples/citadels/citadels.tgpl", 5),
]
# played to their end by our clicks alone (the other seats bots); the long ones three moves, then bots
BY_CLICKS = {"examples/tris.tgpl", "examples/connect4.tgpl", "examples/graph.tgpl", "examples/cards.tgpl",
             "examples/treasure.tgpl", "examples/hex.tgpl"}
CLICKS_LIMIT = 60  # our moves in one of those, at most: counted, so a game that never ends fails here


class Live:
    """A server on a free loopback port, in a thread of this process."""

    def __init__(self, folder):
        self.server = Server(folder)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.uvicorn = uvicorn.Server(uvicorn.Config(create_app(self.server), log_level="warning"))
        self.thread = threading.Thread(target=self.uvicorn.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        for _ in range(600):  # counted, not timed: the thread sets `started` once it listens
            if self.uvicorn.started:
                break
            time.sleep(0.05)

    def url(self, session, seat: int | None) -> str:
        token = session.stored.spectator_token if seat is None else session.stored.tokens[seat]
        return f"{self.base}/play/{session.stored.id}?token={token}"

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    server = Live(tmp_path_factory.mktemp("serve"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def moves_played(page: Page) -> int:
    return int(page.locator("#status").get_attribute("data-number"))


def wait_for_move(page: Page, number: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('#status').dataset.number) >= {number}", timeout=WAIT_MS)


def wait_for_our_turn(page: Page, after: int) -> None:
    """Until the page shows a position past move `after` where we move or the game is over."""
    page.wait_for_function(f"Number(document.querySelector('#status').dataset.number) > {after} && "
                           "(document.querySelector('#moves li') !== null || "
                           "document.querySelector('#status').dataset.terminal === 'true')", timeout=WAIT_MS)


def click_a_move(page: Page) -> None:
    """Play one move by clicks: a highlighted tile, else a highlighted card; when that leaves
    several moves, the first of the short list left; with nothing to click, the list's first."""
    before = moves_played(page)
    for things in ("svg .tile.legal", ".card.legal"):
        if page.locator(things).count():
            page.locator(things).first.click()
            break
    else:
        page.locator("#moves li").first.click()
    if page.evaluate("selection.length") > 0:  # narrowed, not played: pick from what is left
        page.locator("#moves li").first.click()
    wait_for_our_turn(page, before)


def test_every_example_is_drawn_and_played_to_its_end(live, browser, tmp_path):
    """Each example: drawn (one SVG element per tile, with its coordinates); the short ones played to
    their end by our clicks alone, the long ones three moves by clicks, then the host seats a bot in
    our place and the bots finish the game; the page opened again shows the end."""
    errors = []
    for path, players in EXAMPLES:
        session = live.server.new_game(path, ["human"] + ["random"] * (players - 1), 0)
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.url(session, 0))
        wait_for_our_turn(page, -1)
        world = session.state.world
        groups = [o for o in world.objects if o.cls.name == "Group"]
        tiles = sum(len(world.fields(g)["tiles"]) for g in groups)
        assert page.locator("svg .tile").count() == tiles, path
        drawn = page.evaluate("[...document.querySelectorAll('svg .tile')].map(t => [t.closest('svg').dataset.group, "
                              "t.dataset.name, t.dataset.i, t.dataset.j === undefined ? null : t.dataset.j, t.classList.contains('blank')])")
        for g in groups:  # every tile once, carrying its coordinates: its name's indices, or its place in a graph
            names = [t.name for t in world.fields(g)["tiles"]]
            ours = [(name, i, j) for group, name, i, j, _ in drawn if group == g.name]
            shown = [(i, j) for group, _, i, j, blank in drawn if group == g.name and not blank]
            assert sorted(name for name, _, _ in ours) == sorted(names), (path, g.name)
            if world.fields(g)["geometry"] == "graph":
                assert sorted(int(i) for _, i, _ in ours) == list(range(len(names))), path
            else:
                for name, i, j in ours:
                    assert re.search(r"\[(\d+)\]\[(\d+)\]$", name).groups() == (i, j), (path, name)
                coords = page.locator(f"svg[data-group='{g.name}'] .coord").all_text_contents()
                assert {i for i, _ in shown} | {j for _, j in shown} <= set(coords), path  # on the edges
        if not session.state.is_terminal:
            assert page.locator("#moves li").count() == len(session.state.legal_moves())
        ours = 0
        limit = CLICKS_LIMIT if path in BY_CLICKS else 3
        while ours < limit and not session.state.is_terminal:
            click_a_move(page)
            ours += 1
        if path in BY_CLICKS:
            assert session.state.is_terminal, (path, ours)
            page.wait_for_selector("#status[data-terminal='true']", timeout=WAIT_MS)
        page.close()
        form = f"host={live.server.host_token}&seat=0&agent=random".encode()
        with urllib.request.urlopen(f"{live.base}/games/{session.stored.id}/seats", data=form) as answer:
            assert answer.status == 200 and answer.url.startswith(f"{live.base}/?host=")  # 303 to the host's page
        for _ in range(6000):  # counted waits for the bots (liveness, not speed)
            if session.state.is_terminal or session.error:
                break
            time.sleep(0.05)
        assert session.state.is_terminal and session.error is None, (path, session.error)
        page = browser.new_page()
        page.goto(live.url(session, 0))
        expect(page.locator("#status")).to_contain_text("game over", timeout=WAIT_MS)
        page.screenshot(path=tmp_path / f"{Path(path).stem}.png", full_page=True)
        page.close()
    assert errors == []


def test_tris_is_played_to_its_end_by_clicks(live, browser, tmp_path):
    session = live.server.new_game("examples/tris.tgpl", ["human", "first"], 0)
    page = browser.new_page()
    page.goto(live.url(session, 0))
    page.wait_for_selector("svg .tile", timeout=WAIT_MS)
    expect(page.locator("#download")).to_be_hidden()  # the record holds every secret: not before the end
    for _ in range(5):
        if page.locator("#status[data-terminal='true']").count():
            break
        played = moves_played(page)
        page.locator("svg .tile.legal").last.click()  # one move per tile: played at once
        wait_for_our_turn(page, played)  # after ours, the bot's if the game goes on
    expect(page.locator("#status")).to_contain_text("game over: player 0 wins", timeout=WAIT_MS)
    assert session.state.ranking == [[0]]
    assert page.locator("#history li").count() == session.number + 1  # and the start
    page.screenshot(path=tmp_path / "tris.png", full_page=True)
    with page.expect_download(timeout=WAIT_MS) as download:  # the record, once the game is over
        page.locator("#download").click()
    record = tmp_path / "tris.json"
    download.value.save_as(record)
    from click.testing import CliRunner

    from tgpl.cli import main

    replayed = CliRunner().invoke(main, ["replay", str(record)])
    assert replayed.exit_code == 0 and f"ok, {session.number} moves" in replayed.output, replayed.output
    # time travel: a log entry shows that position; "back to the game" the live one
    page.locator("#history li[data-at='1']").click()
    expect(page.locator("#past")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("svg .tile .mark")).to_have_count(1)
    page.locator("#backlive").click()
    expect(page.locator("svg .tile .mark")).to_have_count(session.number)


def test_connect4_through_invite_links_with_a_spectator(live, browser, tmp_path):
    session = live.server.new_game("examples/connect4.tgpl", ["human", "human"], 0)
    contexts = [browser.new_context() for _ in range(3)]  # separate browsers, as three people
    pages = [c.new_page() for c in contexts]
    for page, seat in zip(pages, [0, 1, None]):
        page.goto(live.url(session, seat))
        page.wait_for_selector("svg .tile", timeout=WAIT_MS)
    expect(pages[2].locator("#whoami")).to_have_text("spectator")
    assert pages[2].locator("#moves li").count() == 0
    for n in range(6):
        page = pages[n % 2]
        wait_for_move(page, n)
        page.locator("#moves li").first.wait_for(timeout=WAIT_MS)
        page.locator("svg .tile.legal").nth(n // 2 % 2 + 2).click()
        for p in pages:
            wait_for_move(p, n + 1)
    histories = [[li.text_content() for li in p.locator("#history li").all()] for p in pages]
    assert histories[0] == histories[1] == histories[2] and len(histories[0]) == 7  # the start, 6 moves
    for page in pages:  # who is connected: both players (a spectator is counted apart)
        expect(page.locator("#seats li.connected")).to_have_count(2, timeout=WAIT_MS)
        expect(page.locator("#seats li.active")).to_have_attribute("data-seat", "0")  # whose turn it is
    expect(pages[0].locator("#seats")).to_contain_text("1 watching")
    # a page closed and opened again resumes where the game is; meanwhile the others see the seat away
    pages[1].close()
    expect(pages[0].locator("#seats li[data-seat='1']")).to_have_class("away", timeout=WAIT_MS)
    expect(pages[2].locator("#seats li[data-seat='1']")).to_have_class("away", timeout=WAIT_MS)
    reopened = contexts[1].new_page()
    reopened.goto(live.url(session, 1))
    wait_for_move(reopened, 6)
    assert [li.text_content() for li in reopened.locator("#history li").all()] == histories[0]
    expect(reopened.locator("#whoami")).to_have_text("you are player 1")
    expect(pages[0].locator("#seats li[data-seat='1']")).to_have_class("connected", timeout=WAIT_MS)
    pages[2].screenshot(path=tmp_path / "connect4-spectator.png", full_page=True)
    for c in contexts:
        c.close()


def test_citadels_hides_other_hands_and_plays_cards_by_clicks(live, browser, tmp_path):
    session = live.server.new_game("examples/citadels/citadels.tgpl", ["human"] + ["first"] * 4, 0)
    page = browser.new_page()
    page.goto(live.url(session, 0))
    page.wait_for_selector("#status[data-number]", timeout=WAIT_MS)
    hands = page.locator(".panel[data-scope='player'] td[data-field='Hand']")
    assert hands.count() == 5
    assert hands.nth(0).locator(".card").count() == 4  # our own hand, face up
    for k in range(1, 5):
        assert hands.nth(k).text_content() == "4 hidden"
    played = 0
    for _ in range(12):  # our moves by clicks: a card or a panel's name when one is legal, else the list
        if session.state.is_terminal or session.state.active_player != 0:
            break
        page.locator("#moves li").first.wait_for(timeout=WAIT_MS)
        before = moves_played(page)
        cards = page.locator(".card.legal")
        if cards.count():
            cards.first.click()
            if page.locator("#selection").text_content():
                page.locator("#moves li").first.click()
        else:
            page.locator("#moves li").first.click()
        wait_for_our_turn(page, before)
        played += 1
    assert played >= 3 and session.number > played
    page.screenshot(path=tmp_path / "citadels.png", full_page=True)


def test_a_planted_error_is_shown_in_the_page_and_fixing_it_restores_play(live, browser, tmp_path):
    game = tmp_path / "tris.tgpl"
    original = Path("examples/tris.tgpl").read_text(encoding="utf-8")
    game.write_text(original, encoding="utf-8")
    session = live.server.new_game(str(game), ["human", "human"], 0)
    page = browser.new_page()
    page.goto(f"{live.base}/play/{session.stored.id}?token={live.server.host_token}")  # the host's hot seat
    page.wait_for_selector("svg .tile.legal", timeout=WAIT_MS)
    page.locator("svg .tile[data-name='TrisGrid[0][0]']").click()
    wait_for_move(page, 1)
    expect(page.locator("#handover")).to_contain_text("Pass the screen to player 1.")  # hot seat: a pause
    page.locator("#handoverok").click()
    game.write_text(original.replace("TickedCount = 0;", "TickedCount = ;", 1), encoding="utf-8")
    errors = page.locator("#sourceerrors")  # the server looks each second
    expect(errors).to_contain_text(f"{display_path(game)}:31:26: error: unexpected ';', expected an expression",
                                   timeout=WAIT_MS)
    lines = errors.text_content().splitlines()
    at = lines.index(" 31 |     number TickedCount = ;")  # the source line, and a caret under the ';'
    assert lines[at + 1] == "    |                          ^"
    expect(page.locator("#reload")).to_be_hidden()
    page.screenshot(path=tmp_path / "tris-error.png", full_page=True)
    page.locator("svg .tile[data-name='TrisGrid[2][2]']").click()  # play goes on with the rules it had
    wait_for_move(page, 2)
    page.locator("#handoverok").click()
    game.write_text(original, encoding="utf-8")
    expect(page.locator("#reload")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#restart")).to_be_visible()
    expect(page.locator("#sourceerrors")).to_have_text("")
    page.locator("#reload").click()
    expect(page.locator("#sourcetext")).to_contain_text("Reloaded the new rules: 2 moves replayed", timeout=WAIT_MS)
    page.locator("svg .tile[data-name='TrisGrid[1][1]']").click()
    wait_for_move(page, 3)
    assert [t for _, t in session.stored.moves][-1] == "PlayerState#0.Tick(chosenTile: TrisGrid[1][1])"


def test_the_host_sees_what_the_bot_would_play(live, browser, tmp_path):
    session = live.server.new_game("examples/connect4.tgpl", ["human", "human"], 0)
    page = browser.new_page()
    page.goto(f"{live.base}/play/{session.stored.id}?token={live.server.host_token}")
    page.wait_for_selector("svg .tile.legal", timeout=WAIT_MS)
    page.locator("#hintiterations").fill("200")
    page.locator("#hint").click()
    expect(page.locator("svg .share")).to_have_count(7, timeout=WAIT_MS)  # one share per column's drop
    shares = [int(t.rstrip("%")) for t in page.locator("svg .share").all_text_contents()]
    assert 95 <= sum(shares) <= 105
    sent = page.evaluate("hint")  # what the server sent: each legal move's share of the search
    assert sorted(m["text"] for m in sent["moves"]) == sorted(m.text for m in session.state.legal_moves())
    for m in sent["moves"]:  # on the board, on the tile each move names; in the list, beside the move
        listed = page.locator(f"#moves li[data-move='{m['text']}']").text_content()
        assert listed.endswith(f"({js_round(m['share'] * 100)}%)"), (listed, m)
    drawn = page.evaluate("[...document.querySelectorAll('svg .tile')].filter(t => t.querySelector('.share'))"
                          ".map(t => [t.dataset.name, t.querySelector('.share').textContent])")
    for name, text in drawn:
        share = sum(m["share"] for m in sent["moves"] if name in m["objects"])
        assert text == f"{js_round(share * 100)}%", (name, text, share)
    page.screenshot(path=tmp_path / "connect4-hint.png", full_page=True)


def js_round(x: float) -> int:
    """JavaScript's Math.round: halves go up (Python's round goes to even)."""
    return math.floor(x + 0.5)


def host_page_url(live, session) -> str:
    return f"{live.base}/play/{session.stored.id}?token={live.server.host_token}"


def test_the_host_forks_from_a_log_entry(live, browser, tmp_path):
    """A log entry clicked, then "fork from here": a new game (new links) that starts at that position,
    opened as the host's page; the original goes on untouched."""
    session = live.server.new_game("examples/tris.tgpl", ["human", "first"], 0)
    page = browser.new_page()
    page.goto(host_page_url(live, session))
    for cell in ("TrisGrid[1][1]", "TrisGrid[2][2]"):
        played = session.number
        page.wait_for_selector(f"svg .tile.legal[data-name='{cell}']", timeout=WAIT_MS)
        page.locator(f"svg .tile[data-name='{cell}']").click()
        wait_for_our_turn(page, played)  # ours, then the bot's
    assert session.number == 4
    page.locator("#history li[data-at='2']").click()
    expect(page.locator("#pasttext")).to_have_text("the position after move 2 (from the log)", timeout=WAIT_MS)
    expect(page.locator("svg .tile .mark")).to_have_count(2)
    page.locator("#forkpast").click()
    page.wait_for_url(re.compile(rf"/play/(?!{session.stored.id}\?)\d+\?token="), timeout=WAIT_MS)
    forked = live.server.sessions[int(re.search(r"/play/(\d+)", page.url).group(1))]
    wait_for_move(page, 2)
    expect(page.locator("#past")).to_be_hidden()
    assert forked.stored.moves == session.stored.moves[:2] and forked.stored.tokens != session.stored.tokens
    assert moves_played(page) == 2 and page.locator("svg .tile .mark").count() == 2
    assert session.number == 4
    page.locator("svg .tile[data-name='TrisGrid[0][2]']").click()  # the fork plays on
    wait_for_our_turn(page, 2)
    assert forked.stored.moves[2] == (0, "PlayerState#0.Tick(chosenTile: TrisGrid[0][2])") and session.number == 4
    page.screenshot(path=tmp_path / "tris-fork.png", full_page=True)


def test_a_record_is_opened_and_stepped_through_in_a_seats_view(live, browser, tmp_path):
    """The host opens a record from the lobby; each seat's link of the opened game steps through it by
    the log, and each position shows that seat's own hand and only the number of the other's cards."""
    from click.testing import CliRunner

    from tgpl.cli import main

    served = live.server.new_game("examples/cards.tgpl", ["human", "human"], 0)  # the game must be served
    record = tmp_path / "cards.json"
    played = CliRunner().invoke(main, ["play", served.stored.path, "--players", "random,random", "--seed", "3",
                                       "--quiet", "--record", str(record)])
    assert played.exit_code == 0, played.output
    moves = [m["move"] for m in json.loads(record.read_text())["moves"]]
    page = browser.new_page()
    page.goto(f"{live.base}/?host={live.server.host_token}")
    page.locator("#record").set_input_files(str(record))
    page.wait_for_url(re.compile(r"/play/\d+\?token="), timeout=WAIT_MS)
    opened = live.server.sessions[int(re.search(r"/play/(\d+)", page.url).group(1))]
    assert [t for _, t in opened.stored.moves] == moves and opened.state.is_terminal
    expect(page.locator("#history li")).to_have_count(len(moves) + 1, timeout=WAIT_MS)
    page.close()
    for seat in (0, 1):
        page = browser.new_page()
        page.goto(live.url(opened, seat))
        expect(page.locator("#history li")).to_have_count(len(moves) + 1, timeout=WAIT_MS)
        for at in (1, 2, len(moves) - 1):
            page.locator(f"#history li[data-at='{at}']").click()
            expect(page.locator("#pasttext")).to_have_text(f"the position after move {at} (from the log)",
                                                           timeout=WAIT_MS)
            world = opened.states[at].world
            hands = {world.owners_of(h)[0]: world.fields(h)["Cards"] for h in world.objects if h.cls.name == "Hand"}
            mine = page.locator(f".panel[data-name='Hand#{seat}'] td[data-field='Cards']")
            theirs = page.locator(f".panel[data-name='Hand#{1 - seat}'] td[data-field='Cards']")
            expect(mine.locator(".card")).to_have_count(len(hands[seat]))
            assert sorted(mine.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.ref)")) == \
                sorted(c.name for c in hands[seat])
            expect(theirs).to_have_text(f"{len(hands[1 - seat])} hidden")
            content = page.content()  # their cards are not in the page at all
            assert not any(re.search(rf"{re.escape(c.name)}(?!\d)", content) for c in hands[1 - seat])
        page.screenshot(path=tmp_path / f"cards-record-seat{seat}.png", full_page=True)
        page.close()


def test_the_host_changes_a_seat_from_human_to_bot_and_back(live, browser, tmp_path):
    """The lobby's seat form during a game: seat 1 becomes a bot that answers at once, then a human
    again whose page gets the legal moves; every page shows who holds each seat."""
    session = live.server.new_game("examples/tris.tgpl", ["human", "human"], 0)
    context = browser.new_context()
    pages = [context.new_page() for _ in range(2)]
    for seat, page in enumerate(pages):
        page.goto(live.url(session, seat))
        page.wait_for_selector("svg .tile", timeout=WAIT_MS)
    lobby = browser.new_page()

    def seat_one(agent: str) -> None:
        lobby.goto(f"{live.base}/?host={live.server.host_token}")
        form = lobby.locator(f"section[data-game='{session.stored.id}'] form")
        form.locator("select[name='seat']").select_option("1")
        form.locator("input[name='agent']").fill(agent)
        form.locator("button").click()
        lobby.wait_for_url(re.compile(r"/\?host="), timeout=WAIT_MS)
        for page in pages:
            expect(page.locator("#seats li[data-seat='1']")).to_have_text(
                "player 1: " + agent + (" (you)" if page is pages[1] else ""), timeout=WAIT_MS)

    seat_one("first")
    pages[0].locator("svg .tile[data-name='TrisGrid[1][1]']").click()
    wait_for_move(pages[0], 2)  # ours and the bot's
    assert session.stored.moves[1] == (1, "PlayerState#1.Tick(chosenTile: TrisGrid[0][0])")
    seat_one("human")
    pages[0].locator("svg .tile[data-name='TrisGrid[2][2]']").click()
    wait_for_move(pages[1], 3)
    assert session.number == 3  # no bot answered: the human's move now
    pages[1].locator("svg .tile.legal[data-name='TrisGrid[0][2]']").click()
    wait_for_move(pages[0], 4)
    assert session.stored.moves[3] == (1, "PlayerState#1.Tick(chosenTile: TrisGrid[0][2])")
    assert next(g for g in live.server.store.games() if g.id == session.stored.id).agents == ["human", "human"]
    pages[0].screenshot(path=tmp_path / "tris-seats.png", full_page=True)
    context.close()
    lobby.close()


def test_a_forced_move_is_one_click_or_played_by_itself(live, browser, tmp_path):
    """Cards: each decision has one legal move (draw). One click on it plays it; with "play a forced move
    by itself" checked, the page plays the rest of our moves with no click, to the end."""
    session = live.server.new_game("examples/cards.tgpl", ["human", "first"], 0)
    page = browser.new_page()
    page.goto(live.url(session, 0))
    page.locator("#moves li").first.wait_for(timeout=WAIT_MS)
    assert page.locator("#moves li").count() == 1 and len(session.state.legal_moves()) == 1
    page.locator("#moves li").first.click()
    wait_for_our_turn(page, 0)
    assert session.stored.moves[0] == (0, "Hand#0.Draw()")
    page.locator("#autoforced").check()
    page.wait_for_selector("#status[data-terminal='true']", timeout=WAIT_MS)
    assert session.state.is_terminal and session.number > 2
    assert [t for p, t in session.stored.moves if p == 0] == ["Hand#0.Draw()"] * ((session.number + 1) // 2)
    page.screenshot(path=tmp_path / "cards-forced.png", full_page=True)


def test_a_chess_move_is_made_click_by_click_searched_and_undone(live, browser, tmp_path):
    """A move with two inputs: the piece clicked keeps its moves (their squares highlighted, the list
    narrowed), the square clicked next plays it. The list's search narrows by text. The game's only human
    seat may undo: the bot's answer and our move are taken back."""
    session = live.server.new_game("examples/chess/chess.tgpl", ["human", "first"], 0)
    page = browser.new_page()
    page.goto(live.url(session, 0))
    page.locator("#moves li").first.wait_for(timeout=WAIT_MS)
    assert page.locator("#moves li").count() == 20
    page.locator("#search").fill("to: Board[5][5]")  # the moves to f3: the g-knight's and the f-pawn's
    expect(page.locator("#moves li")).to_have_count(2)
    page.locator("#search").fill("")
    page.locator("svg .tile[data-name='Board[4][6]']").click()  # the e-pawn
    expect(page.locator("svg .tile.candidate")).to_have_count(3)  # itself and its two squares
    assert sorted(page.locator("svg .tile.candidate").evaluate_all("ts => ts.map(t => t.dataset.name)")) == \
        ["Board[4][4]", "Board[4][5]", "Board[4][6]"]
    expect(page.locator("#moves li")).to_have_count(2)
    page.locator("svg .tile[data-name='Board[4][4]']").click()
    wait_for_our_turn(page, 0)  # ours and the bot's
    assert session.stored.moves[0] == (0, "Seat#0.Move(from: Board[4][6], to: Board[4][4])")
    assert session.number == 2
    page.screenshot(path=tmp_path / "chess-clicks.png", full_page=True)
    expect(page.locator("#undo")).to_be_visible()
    page.locator("#undo").click()
    page.wait_for_function("document.querySelector('#status').dataset.number === '0'", timeout=WAIT_MS)
    assert session.number == 0 and session.stored.moves == []
    expect(page.locator("#moves li")).to_have_count(20)


def test_the_forced_move_option_is_kept_for_the_seat(live, browser):
    """Ticked on seat 0's page, "play a forced move by itself" plays its forced move, and after the page
    is opened again it still plays seat 0's next one, with no click there."""
    session = live.server.new_game("examples/cards.tgpl", ["human", "human"], 0)
    context = browser.new_context()  # one browser, both seats' links: the option is kept per seat
    p0, p1 = context.new_page(), context.new_page()
    p0.goto(live.url(session, 0))
    p0.locator("#moves li").first.wait_for(timeout=WAIT_MS)
    p0.locator("#autoforced").check()
    wait_for_move(p0, 1)
    p0.reload()
    wait_for_move(p0, 1)
    expect(p0.locator("#autoforced")).to_be_checked()
    p1.goto(live.url(session, 1))
    p1.locator("#moves li").first.wait_for(timeout=WAIT_MS)
    expect(p1.locator("#autoforced")).not_to_be_checked()  # seat 0's option, not this browser's
    assert session.number == 1
    p1.locator("#moves li").first.click()  # seat 1 by a click: then seat 0's page plays by itself
    wait_for_move(p1, 3)
    assert [p for p, _ in session.stored.moves[:3]] == [0, 1, 0]
    context.close()


def test_a_lost_solitaire_says_no_winner(live, browser, tmp_path):
    """A game of one player lost with `winner {};` (decision 96) has an empty ranking: the page says so, where it
    once read "game over: " and nothing more. Peg solitaire played by a bot (seed 0 loses, as analyze's
    solitaire test counts: one game in 120 is solved)."""
    session = live.server.new_game("tests/data/designers/pegs.tgpl", ["random"], 0)
    page = browser.new_page()
    page.goto(live.url(session, 0))  # the page's connection sets the bot going
    expect(page.locator("#status")).to_contain_text("game over: no winner", timeout=WAIT_MS)
    assert session.state.is_terminal and session.error is None and session.state.ranking == []
    page.screenshot(path=tmp_path / "pegs.png", full_page=True)
    page.close()
