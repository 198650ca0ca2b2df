// The scoreboard page: one live feed (server-sent events), rendered with textContent only.
"use strict";

const $ = (id) => document.getElementById(id);
let art = {};           // game -> {accent, symbols: [{id, label, color}]}
let nightKey = "";      // re-fetch the past nights when tonight changes

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function symbolImg(game, symbol, label) {
  const img = el("img", "sym");
  img.src = "/art/" + game + "/" + symbol + ".png";
  img.alt = label || symbol;
  img.width = 48;
  img.height = 48;
  return img;
}

function gameIcon(game) {
  const info = art[game];
  if (!info || !info.symbols.length) return el("span", "sym-none");
  const s = info.symbols[0];
  return symbolImg(game, s.id, s.label);
}

function clock(t) {
  return new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function day(t) {
  return new Date(t * 1000).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short" });
}

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  return m ? m + " min" : Math.round(seconds) + " s";
}

function wins(w) {
  return Number.isInteger(w) ? String(w) : w.toFixed(1);
}

function renderLive(live) {
  const section = $("live");
  const players = $("live-players");
  const lines = $("live-lines");
  const symbols = $("live-symbols");
  players.replaceChildren();
  lines.replaceChildren();
  symbols.replaceChildren();
  if (!live) {
    $("live-title").textContent = "No game yet tonight";
    $("live-bank").textContent = "";
    $("live-turn").textContent = "The next game shows up here as it starts.";
    section.style.removeProperty("--accent");
    return;
  }
  const info = art[live.game];
  if (info) {
    section.style.setProperty("--accent", info.accent);
    for (const s of info.symbols) symbols.append(symbolImg(live.game, s.id, s.label));
  }
  $("live-title").textContent = live.title + (live.over ? " · finished" : "");
  $("live-bank").textContent = live.bank || "";
  for (const p of live.players) {
    const li = el("li", "player" + (p.turn ? " turn" : ""));
    li.append(el("span", "name", p.name), el("span", "score", p.score === null ? "–" : p.score));
    players.append(li);
  }
  $("live-turn").textContent = live.error ? live.error
    : live.over ? "Game over." : live.turn ? live.turn + "'s turn" : "Waiting for the reels…";
  for (const line of live.lines.slice().reverse()) lines.append(el("li", "", line));
}

function renderNight(night) {
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  const games = $("games");
  games.replaceChildren();
  if (!night) {
    $("night-when").textContent = "";
    $("night-downloads").hidden = true;
    return;
  }
  $("night-when").textContent = "since " + clock(night.started_at);
  for (const s of night.standings) {
    const tr = el("tr");
    tr.append(el("td", "name", s.name), el("td", "num", wins(s.wins)), el("td", "num", s.played),
              el("td", "num", s.points));
    body.append(tr);
  }
  for (const g of night.games.slice().reverse()) games.append(gameItem(g));
  if (!night.games.length) games.append(el("li", "empty", "No game yet tonight."));
  $("night-downloads").hidden = !night.id;
  $("night-csv").href = "/nights/" + night.id + ".csv";
  $("night-json").href = "/nights/" + night.id + ".json";
}

function gameItem(g) {
  const li = el("li", "game " + g.status);
  const head = el("div", "game-head");
  head.append(gameIcon(g.game), el("span", "game-title", g.title),
              el("span", "when", clock(g.started_at) + " · " + minutes(g.duration_s)));
  const scores = el("div", "game-scores");
  g.players.forEach((name, i) => {
    const won = g.status === "finished" && g.winners.includes(name);
    const span = el("span", won ? "won" : "", name + " " + (i < g.scores.length ? g.scores[i] : "–"));
    scores.append(span);
  });
  const verdict = g.status === "playing" ? "playing now" : g.status === "abandoned" ? "stopped early"
    : g.winners.length > 1 ? "shared by " + g.winners.join(" and ") : g.winners[0] + " wins";
  li.append(head, scores, el("div", "verdict", verdict));
  return li;
}

async function loadNights() {
  const list = $("nights");
  let nights = [];
  try {
    nights = await (await fetch("/nights.json")).json();
  } catch (e) {
    return;
  }
  list.replaceChildren();
  for (const n of nights.slice(1)) {
    if (!n.id) continue;
    const li = el("li", "night");
    const details = el("details");
    const summary = el("summary", "", day(n.started_at) + " · " + n.games + " game" + (n.games === 1 ? "" : "s")
                       + (n.leader ? " · " + n.leader + " on top" : ""));
    const links = el("p", "downloads");
    const csv = el("a", "", "CSV");
    csv.href = "/nights/" + n.id + ".csv";
    const json = el("a", "", "JSON");
    json.href = "/nights/" + n.id + ".json";
    links.append("Download: ", csv, " ", json);
    const games = el("ol", "games");
    details.append(summary, links, games);
    details.addEventListener("toggle", async () => {
      if (!details.open || games.childElementCount) return;
      const night = await (await fetch("/nights/" + n.id + ".json")).json();
      for (const g of night.games.slice().reverse()) games.append(gameItem(g));
    });
    li.append(details);
    list.append(li);
  }
  if (!list.childElementCount) list.append(el("li", "empty", "None yet."));
}

function render(state) {
  $("problem").hidden = !state.problem;
  $("problem").textContent = state.problem || "";
  renderLive(state.live);
  renderNight(state.night);
  const key = state.nights + ":" + (state.night ? state.night.id : "");
  if (key !== nightKey) {
    nightKey = key;
    loadNights();
  }
}

function setConn(state, text) {
  $("conn").dataset.state = state;
  $("conn").textContent = text;
}

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("state", (event) => {
    setConn("live", "live");
    render(JSON.parse(event.data));
  });
  source.onerror = () => {
    setConn("lost", "reconnecting…");
    // The browser retries by itself unless the server refused the feed (e.g. 503): then we do.
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 3000);
  };
}

fetch("/art.json").then((r) => r.json()).then((a) => { art = a; }).catch(() => {}).finally(connect);
