// tgpl serve: the game page. Draws whatever view the server sends (no per-game code) and
// sends moves. The server decides everything: this page only narrows the legal moves it was
// sent by what is clicked, and sends the move's text with the number of moves it saw.
"use strict";

const COLOURS = ["#c0392b", "#2b6cc0", "#27864a", "#b8860b", "#8e44ad", "#d35400", "#16a085", "#7f8c8d"];
const SVGNS = "http://www.w3.org/2000/svg";
const gameId = location.pathname.split("/").pop();
const token = new URLSearchParams(location.search).get("token") || "";
let socket = null;
let current = null;       // the last state message
let past = null;          // a position message while the player looks back in the log
let hint = null;          // the bot's visit shares for the live position (the host's page)
let shownSeat = null;     // the seat whose view a hot-seat page last showed: a change hides the board first
let movedAt = Date.now(); // when the number of moves last changed: the turn timer
let stateAt = Date.now(); // when the last state came: the turn limit's time left counts from it
let selection = [];       // clicked things: each a list of object names
let autoAt = -1;          // the position whose forced move this page last played by itself (once per position)
let retry = 500;

function $(id) { return document.getElementById(id); }
function colour(p) { return p === null || p === undefined ? "#555" : COLOURS[p % COLOURS.length]; }
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svg(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}?token=${encodeURIComponent(token)}`);
  socket.onopen = () => { retry = 500; $("status").dataset.connection = "open"; };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "error") { showError(msg.message); if (msg.fatal) socket.onclose = null; return; }
    if (msg.type === "state") {  // a look back stays until left
      showError("");
      if (!current || msg.number !== current.number) { hint = null; movedAt = Date.now(); }
      stateAt = Date.now();
      if (msg.hot && msg.you !== null && shownSeat !== null && msg.you !== shownSeat) {
        // hot seat: the next player's view only once they say they hold the screen
        $("handovertext").textContent = `Pass the screen to player ${msg.you}.`;
        $("handover").hidden = false;
      }
      if (msg.hot && msg.you !== null) shownSeat = msg.you;
      current = msg; selection = []; draw();
    }
    if (msg.type === "position") { past = msg; selection = []; draw(); }
    if (msg.type === "hint" && current && msg.at === current.number) { hint = msg; draw(); }
  };
  socket.onclose = () => {
    $("status").textContent = "disconnected: reconnecting…";
    $("status").dataset.connection = "closed";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(move) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { showError("not connected"); return; }
  socket.send(JSON.stringify({type: "move", move: move.text, at: current.number}));
  selection = [];
}

// ------------------------------------------------------------------ moves and clicks
function liveMoves() { return current && !past ? current.moves : []; }

function candidates() {
  const moves = liveMoves();
  return moves.filter(m => selection.every(names => m.objects.some(o => names.includes(o))));
}

function involved(moves) {
  const names = new Set();
  for (const m of moves) for (const o of m.objects) names.add(o);
  return names;
}

function pick(names, what) {
  if (liveMoves().length === 0) return;
  let chosen = [...selection, names];
  let left = current.moves.filter(m => chosen.every(ns => m.objects.some(o => ns.includes(o))));
  if (left.length === 0) {
    chosen = [names];
    left = current.moves.filter(m => m.objects.some(o => names.includes(o)));
  }
  if (left.length === 0) { showError(`no legal move involves ${what}`); selection = []; draw(); return; }
  showError("");
  if (left.length === 1) { send(left[0]); return; }
  selection = chosen;
  draw();
}

// ------------------------------------------------------------------ values
function valueNode(v, depth) {
  if (v === null) return el("span", {}, "null");
  if (typeof v !== "object") return el("span", {}, String(v));
  if ("player" in v) { const s = el("span", {}, `player ${v.player}`); s.style.color = colour(v.player); return s; }
  if ("hidden" in v) return el("span", {class: "hidden"}, v.hidden === null ? "hidden" : `${v.hidden} hidden`);
  if ("ref" in v) return v.card ? cardNode(v) : el("span", {"data-ref": v.ref}, v.label ? `${v.label}` : v.ref);
  if ("list" in v) {
    if (v.list.length > 0 && v.list.every(x => x && x.card)) {
      const row = el("div", {class: "cards"});
      for (const x of v.list) row.appendChild(cardNode(x));
      return row;
    }
    if (v.list.length > 12) {  // long lists (every square of the board) folded: their text in the tooltip
      const span = el("span", {class: "folded"}, `{${v.list.length} items}`);
      span.title = v.list.map(x => x && x.ref ? (x.label || x.ref) : JSON.stringify(x)).join(", ");
      return span;
    }
    const span = el("span", {}, "{");
    v.list.forEach((x, i) => { if (i) span.append(", "); span.appendChild(valueNode(x, depth + 1)); });
    span.append("}");
    return span;
  }
  if ("table" in v) return el("span", {}, `{${v.table.length} entries}`);
  return el("span", {}, JSON.stringify(v));
}

function cardNode(v) {
  const card = el("div", {class: "card", "data-ref": v.ref});
  card.appendChild(el("div", {class: "cardname"}, v.label || v.ref));
  const attrs = Object.entries(v.attrs || {}).filter(([k]) => k !== "Name")
    .map(([k, x]) => `${k} ${x !== null && typeof x === "object" ? (x.player !== undefined ? "player " + x.player : "") : x}`);
  if (attrs.length) card.appendChild(el("div", {class: "attrs"}, attrs.join(" · ")));
  if (v.owner !== null && v.owner !== undefined) card.style.borderColor = colour(v.owner);
  if (v.colour) card.style.borderLeft = `6px solid ${v.colour}`;  // a presentation hint: the card's Colour
  card.addEventListener("click", () => pick([v.ref], v.label || v.ref));
  return card;
}

// ------------------------------------------------------------------ the board
function hexPoints(cx, cy, r, pointy) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k + (pointy ? 30 : 0));
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function drawGroup(group) {
  const hex = group.geometry === "hex", graph = group.geometry === "graph";
  const r = 26, unit = hex ? Math.sqrt(3) * r : graph ? 70 : 48, pad = 30;
  const xs = group.tiles.map(t => t.x), ys = group.tiles.map(t => t.y);
  const minX = Math.min(0, ...xs), minY = Math.min(0, ...ys);
  const px = x => pad + (x - minX) * unit + unit / 2, py = y => pad + (y - minY) * unit + unit / 2;
  const width = pad * 2 + (Math.max(0, ...xs) - minX + 1) * unit, height = pad * 2 + (Math.max(0, ...ys) - minY + 1) * unit;
  const root = svg("svg", {class: "board", "data-group": group.name, "data-geometry": group.geometry,
                            width: width.toFixed(0), height: height.toFixed(0), viewBox: `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`});
  root.appendChild(svg("title", {}, group.name));
  const byName = new Map(group.tiles.map(t => [t.name, t]));
  for (const e of group.edges) {
    const a = byName.get(e.from), b = byName.get(e.to);
    if (a && b) root.appendChild(svg("line", {class: "edge", "data-class": e.class, x1: px(a.x), y1: py(a.y), x2: px(b.x), y2: py(b.y)}));
  }
  const legal = liveMoves().length ? involved(candidates()) : new Set();
  const chosen = new Set(selection.flat());
  const cols = new Set(), rows = new Set();
  for (const t of group.tiles) {
    const names = [t.name, ...t.pieces.map(p => p.name)];
    const classes = ["tile"];
    if (t.blank) classes.push("blank");
    if (t.flags && t.flags.length) classes.push("flag");
    if (names.some(n => legal.has(n))) classes.push(selection.length ? "candidate" : "legal");
    if (names.some(n => chosen.has(n))) classes.push("selected");
    const attrs = {class: classes.join(" "), "data-name": t.name, "data-i": t.i, "data-class": t.class};
    if (t.j !== undefined) { attrs["data-j"] = t.j; attrs["data-col"] = t.col; attrs["data-row"] = t.row; }
    const g = svg("g", attrs);
    const cx = px(t.x), cy = py(t.y);
    let cell;
    if (hex) cell = svg("polygon", {class: "cell", points: hexPoints(cx, cy, r - 1, group.orientation === "row")});
    else if (graph) cell = svg("circle", {class: "cell", cx, cy, r: 22});
    else cell = svg("rect", {class: "cell", x: cx - unit / 2, y: cy - unit / 2, width: unit, height: unit});
    if (t.colour) cell.style.fill = t.colour;  // a presentation hint: the tile's Colour attribute
    g.appendChild(cell);
    if (t.pieces.length) {
      const p = t.pieces[0];
      const mark = svg("g", {class: "piece", "data-name": p.name, "data-class": p.class});
      mark.appendChild(svg("circle", {cx, cy, r: 17, fill: p.colour || colour(p.owner)}));
      mark.appendChild(svg("text", {x: cx, y: cy + 6, "text-anchor": "middle"}, p.symbol || p.class.slice(0, 2)));
      mark.appendChild(svg("title", {}, `${p.label || p.name}${t.pieces.length > 1 ? ` (+${t.pieces.length - 1})` : ""}`));
      g.appendChild(mark);
    } else if (t.mark) {
      const mark = svg("g", {class: "mark"});
      mark.appendChild(svg("circle", {cx, cy, r: 16, fill: colour(t.mark.owner)}));
      mark.appendChild(svg("text", {x: cx, y: cy + 6, "text-anchor": "middle"}, t.mark.text));
      g.appendChild(mark);
    }
    if (t.label) g.appendChild(svg("text", {class: "tilelabel", x: cx, y: cy + (graph ? 34 : unit / 2 - 3), "text-anchor": "middle"}, t.label));
    const plain = Object.entries(t.attrs || {}).filter(([k, x]) => x !== null && typeof x !== "object" && k !== "Name")
      .map(([k, x]) => `${k} ${x}`);
    g.appendChild(svg("title", {}, t.name + (t.label ? ` (${t.label})` : "") + (plain.length ? `\n${plain.join(", ")}` : "")));
    if (hint && !past) {  // the share of the bot's search spent on the moves involving this tile
      const share = hint.moves.filter(m => m.objects.some(o => names.includes(o))).reduce((a, m) => a + m.share, 0);
      if (share > 0) g.appendChild(svg("text", {class: "share", x: cx + (graph ? 0 : unit / 2 - 3), y: cy - (graph ? 26 : unit / 2 - 12),
                                                 "text-anchor": graph ? "middle" : "end"}, `${Math.round(share * 100)}%`));
    }
    g.addEventListener("click", () => pick(names, t.label || t.name));
    root.appendChild(g);
    if (!graph && !t.blank) { cols.add(t.col); rows.add(t.row); }
  }
  if (!graph) {  // coordinates on the edges: the index each tile's name has in that direction
    const first = group.tiles.find(t => !t.blank) || {};
    for (const c of cols) {
      const t = group.tiles.find(u => u.col === c && !u.blank);
      const label = group.orientation === "row" && hex ? c : c;
      root.appendChild(svg("text", {class: "coord", x: px(t.x), y: pad / 2 + 4, "text-anchor": "middle"}, label));
    }
    for (const rw of rows) {
      const t = group.tiles.find(u => u.row === rw && !u.blank);
      root.appendChild(svg("text", {class: "coord", x: pad / 2, y: py(t.y) + 4, "text-anchor": "middle"}, rw));
    }
    void first;
  }
  return root;
}

// ------------------------------------------------------------------ panels
function drawPanel(p) {
  const box = el("div", {class: "panel", "data-name": p.name, "data-scope": p.scope});
  if (p.owners.length) box.style.borderTopColor = colour(p.owners[0]);
  const owners = p.owners.length ? ` — player ${p.owners.join(", ")}` : "";
  const head = el("h3", {}, `${p.label ? p.label + " (" + p.name + ")" : p.name}${owners}`);
  head.addEventListener("click", () => pick([p.name], p.label || p.name));
  box.appendChild(head);
  const table = el("table");
  for (const [k, v] of p.fields) {
    const row = el("tr");
    row.appendChild(el("td", {class: "key"}, k));
    const cell = el("td", {"data-field": k});
    cell.appendChild(valueNode(v, 0));
    row.appendChild(cell);
    table.appendChild(row);
  }
  box.appendChild(table);
  return box;
}

function markCards() {
  const legal = liveMoves().length ? involved(candidates()) : new Set();
  const chosen = new Set(selection.flat());
  for (const card of document.querySelectorAll(".card")) {
    const ref = card.dataset.ref;
    card.classList.toggle(selection.length ? "candidate" : "legal", legal.has(ref));
    card.classList.toggle("selected", chosen.has(ref));
  }
}

// ------------------------------------------------------------------ the page
function resultText(v) {
  if (!v.terminal) return "";
  const ranking = v.ranking || [];
  if (!ranking.some(r => r.length)) return "game over: no winner";
  if (ranking.length === 1 && ranking[0].length > 1) return `game over: draw between players ${ranking[0].join(", ")}`;
  if (ranking.length === 1) return `game over: player ${ranking[0][0]} wins`;
  return "game over: " + ranking.map((r, i) => `${i + 1}. player ${r.join(", ")}`).join("; ");
}

function draw() {
  const m = current, v = past ? past.view : m.view;
  $("past").hidden = !past;
  $("hostbuttons").hidden = !m.hot;
  $("undo").hidden = !m.undo;  // the host's page, or the page of the only human seat
  // the record holds every secret: the host's at any time, everyone's once the game is over (`tgpl replay` reads it)
  $("download").hidden = !(m.hot || m.view.terminal);
  $("download").href = `/record/${gameId}?token=${encodeURIComponent(token)}`;
  drawSource(m);
  $("forkpast").hidden = !m.hot;
  if (past) $("pasttext").textContent = past.at === 0 ? "the start of the game (from the log)" : `the position after move ${past.at} (from the log)`;
  document.title = `${m.name} — tgpl serve`;
  $("title").textContent = m.name || "tgpl";
  $("whoami").textContent = m.hot ? `hot seat: every human seat here, now player ${m.you ?? "-"}`
    : m.you === null ? "spectator" : `you are player ${m.you}`;
  $("whoami").style.color = colour(m.you);
  let status;
  if (m.error) status = "the game stopped";
  else if (v.terminal) status = resultText(v);
  else if (v.active === m.you) status = v.waiting ? `your choice: ${v.waiting.input}` : "your move";
  else status = `player ${v.active} to ${v.waiting ? "choose " + v.waiting.input : "move"}`;
  $("status").textContent = `${status} · turn ${v.turn ?? "-"}, phase ${v.phase ?? "-"} · move ${m.number}`;
  $("status").className = v.terminal ? "over" : "";
  $("status").dataset.number = m.number;
  $("status").dataset.terminal = v.terminal;
  if (m.error) showError(m.error);

  const seats = $("seats");
  seats.replaceChildren();
  for (const s of m.seats) {
    const li = el("li", {class: (s.connected || s.agent !== "human" ? "connected" : "away") + (v.active === s.seat ? " active" : ""),
                          "data-seat": s.seat}, `player ${s.seat}: ${s.agent}${s.seat === m.you ? " (you)" : ""}`);
    li.style.color = colour(s.seat);
    seats.appendChild(li);
  }
  if (m.spectators) seats.appendChild(el("li", {}, `${m.spectators} watching`));

  const boards = $("boards");
  boards.replaceChildren(...v.groups.map(drawGroup));
  $("panels").replaceChildren(...v.panels.map(drawPanel));
  markCards();
  drawMoves();

  const history = $("history");
  const start = el("li", {value: 0, "data-at": 0}, "start");
  history.replaceChildren(start, ...m.history.map(h => {
    const late = (m.timed_out || []).includes(h.number) ? " (out of time: played by the server)" : "";
    const li = el("li", {value: h.number, "data-at": h.number}, `player ${h.player}: ${h.text}${late}`);
    li.style.color = colour(h.player);
    return li;
  }));
  for (const li of history.children) {
    const at = Number(li.dataset.at);
    if (past && past.at === at) li.classList.add("viewing");
    li.addEventListener("click", () => lookAt(at));
  }
  if (!past) history.scrollTop = history.scrollHeight;
  $("gamelog").replaceChildren(...v.log.map(line => el("li", {}, line)));
  window.tgplDraws = (window.tgplDraws || 0) + 1;  // for bench/serve.py: click to redrawn board
}

function lookAt(at) {
  if (at === current.number) { past = null; draw(); return; }
  socket.send(JSON.stringify({type: "position", at}));
}

function drawMoves() {
  const m = {moves: liveMoves()};
  const query = $("search").value.trim().toLowerCase();
  const shown = candidates().filter(x => !query || x.label.toLowerCase().includes(query) || x.text.toLowerCase().includes(query));
  $("movecount").textContent = m.moves.length ? `(${shown.length} of ${m.moves.length})` : "";
  $("selection").textContent = selection.length ? `selected: ${selection.map(s => s[0]).join(" → ")} (click again elsewhere, or pick below)` : "";
  $("moves").replaceChildren(...shown.map(x => {
    const weighed = hint && !past ? hint.moves.find(h => h.text === x.text) : null;
    const li = el("li", {"data-move": x.text}, x.label + (weighed ? `  (${Math.round(weighed.share * 100)}%)` : ""));
    li.addEventListener("click", () => send(x));
    return li;
  }));
  if (m.moves.length === 1 && $("autoforced").checked && autoAt !== current.number) {
    autoAt = current.number;
    send(m.moves[0]);
  }
}

$("search").addEventListener("input", () => current && drawMoves());
// "play a forced move by itself" is this seat's option in this browser: kept (localStorage) for the game and link
const autoKey = `tgpl.autoforced.${gameId}.${token}`;
try { $("autoforced").checked = localStorage.getItem(autoKey) === "1"; } catch (e) { /* storage refused: unticked */ }
$("autoforced").addEventListener("change", () => {
  try { localStorage.setItem(autoKey, $("autoforced").checked ? "1" : "0"); } catch (e) { /* kept for this page only */ }
  if (current) drawMoves();  // a forced move waiting: played now
});
$("backlive").addEventListener("click", () => { past = null; draw(); });
$("undo").addEventListener("click", () => socket.send(JSON.stringify({type: "undo"})));
$("handoverok").addEventListener("click", () => { $("handover").hidden = true; });
setInterval(() => {  // the turn timer: how long the player to move has taken so far
  if (!current || current.view.terminal) { $("timer").textContent = ""; return; }
  const s = Math.floor((Date.now() - movedAt) / 1000);
  const clock = (t) => `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
  let text = clock(s);
  if (current.time_left !== null && current.time_left !== undefined) {  // --turn-limit: the human to move's time left
    text += `, ${clock(Math.max(0, Math.ceil(current.time_left - (Date.now() - stateAt) / 1000)))} left`;
  }
  $("timer").textContent = text;
}, 1000);
$("hint").addEventListener("click", () => {
  socket.send(JSON.stringify({type: "hint", iterations: Number($("hintiterations").value) || 500}));
});

// the game's files changed: their errors, new rules to reload (the host), or how the reload went
function drawSource(m) {
  const note = m.source;
  $("source").hidden = !note;
  if (!note) return;
  $("sourceerrors").textContent = note.errors || "";
  $("sourcetext").textContent = note.errors ? "The game's files have errors: the game goes on with the rules it has."
    : note.new_rules ? (m.hot ? "The game's files changed and check clean." : "The game's files changed and check clean: the host can replay this game on them, or start it again.")
    : note.reloaded ? `Reloaded ${note.reloaded}.` : "";
  $("reload").hidden = $("restart").hidden = !(note.new_rules && m.hot);
}
async function reload(restart) {  // the host: the moves so far replayed on the new rules, or none of them
  const body = new URLSearchParams({host: token, restart: restart ? "1" : "0"});
  const response = await fetch(`/games/${gameId}/reload`, {method: "POST", body});
  if (!response.ok) showError(await response.text());
}
$("reload").addEventListener("click", () => reload(false));
$("restart").addEventListener("click", () => reload(true));

// the host forks the game at a move: a new game (new links), opened here as its hot seat
async function fork(at) {
  const response = await fetch(`/games/${gameId}/fork`, {method: "POST", body: new URLSearchParams({host: token, at})});
  if (response.ok && response.redirected) location.href = response.url;
  else showError(await response.text());
}
$("forknow").addEventListener("click", () => fork(current.number));
$("forkpast").addEventListener("click", () => fork(past.at));
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && current) { selection = []; draw(); } });
connect();
