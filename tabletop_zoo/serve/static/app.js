// tabletop-zoo in the browser: plain JS over the JSON API (see tabletop_zoo/serve/app.py). No build step.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["rect", "circle", "line", "polygon", "polyline", "text"]);
const $ = (id) => document.getElementById(id);
const state = { catalogue: null, view: null, paused: false, timer: null, watchPlaying: false, placeFilter: null };

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ detail: `HTTP ${res.status}` }));
  if (!res.ok) {
    const detail = typeof data.detail === "string" ? data.detail
      : (data.detail || []).map((d) => `${(d.loc || []).join(".")}: ${d.msg}`).join("; ");
    throw new Error(detail || `HTTP ${res.status}`);
  }
  return data;
}

function showError(err) {
  const box = $("error");
  if (!err) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = err.message || String(err);
}

function pace() { return Number($("pace").value); }

// --- the board -----------------------------------------------------------------------------------
function drawBoard(scene, targets, lastPlace) {
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${scene.width} ${scene.height}`);
  if (scene.title) {  // the picture's headline: its accessible name and tooltip
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = scene.title;
    svg.appendChild(title);
  }
  for (const [tag, attrs, text] of scene.items) {
    if (!SVG_TAGS.has(tag)) continue;  // the server only sends these; anything else is ignored
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== null && text !== undefined) el.textContent = text;
    const place = attrs["data-place"];
    if (place !== undefined) {
      if (targets.has(place)) el.classList.add("target");
      if (place === lastPlace) el.classList.add("last");
    }
    svg.appendChild(el);
  }
}

function targetAt(ev) {
  // Places can overlap (a gamer inside a post, a section under a settlement): take the topmost place
  // under the pointer that a legal move names.
  const view = state.view;
  if (!view || view.kind !== "play" || view.waiting !== "human") return null;
  const places = new Set(view.legal.map((m) => m.place));
  for (const el of document.elementsFromPoint(ev.clientX, ev.clientY)) {
    const place = el.getAttribute && el.getAttribute("data-place");
    if (place && places.has(place)) return place;
  }
  return null;
}

function onBoardClick(ev) {
  const place = targetAt(ev);
  if (!place) {
    if (state.placeFilter) { state.placeFilter = null; renderMoves(state.view); }
    return;
  }
  const moves = state.view.legal.filter((m) => m.place === place);
  if (moves.length === 1) { play(moves[0].action); return; }
  if (moves.length > 1) { state.placeFilter = place; renderMoves(state.view); }
}

// --- the side panel ------------------------------------------------------------------------------
function seatName(view, seat) {
  const label = view.labels ? view.labels[seat] : null;
  return label ? `player_${seat} (${label})` : `player_${seat}`;
}

function renderLog(view) {
  const log = $("log");
  log.replaceChildren();
  for (const entry of view.log) {
    const li = document.createElement("li");
    li.textContent = `${seatName(view, entry.seat)}: ${entry.name}`;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

function renderMoves(view) {
  const box = $("moves");
  box.replaceChildren();
  const filter = state.placeFilter;
  $("place-filter").textContent = filter ? `moves at ${filter} (click the map elsewhere to clear)` : "";
  for (const m of view.legal || []) {
    const b = document.createElement("button");
    b.className = "move" + (filter && m.place !== filter ? " dim" : "");
    b.dataset.action = m.action;
    if (m.place) b.dataset.place = m.place;
    b.textContent = m.name;
    b.addEventListener("click", () => play(m.action));
    box.appendChild(b);
  }
}

function outcomeText(view) {
  if (!view.outcome) return "";
  return " final scores: " + view.outcome.scores.map((s, i) => `player_${i} ${s}`).join(", ");
}

function render(view) {
  state.view = view;
  $("table-view").hidden = false;
  const targets = new Set((view.legal || []).map((m) => m.place).filter((p) => p));
  drawBoard(view.board, targets, view.last_place);
  renderLog(view);
  $("table").textContent = view.table;
  $("status").dataset.decisions = view.log.length;
  if (view.kind === "play") {
    $("play-controls").hidden = false;
    $("watch-controls").hidden = true;
    $("undo").disabled = !view.can_undo;
    let status;
    if (view.broken) status = `game broke: ${view.broken}`;
    else if (view.over) status = "game over." + outcomeText(view);
    else if (view.waiting === "human") status = `${seatName(view, view.to_move)}: your move`;
    else status = `${seatName(view, view.to_move)} is thinking` + (state.paused ? " (paused)" : "");
    $("status").textContent = `${view.title}, ${view.num_players} players, seed ${view.seed} - ` + status;
    $("status").dataset.waiting = view.broken ? "broken" : view.waiting;
    renderMoves(view);
    scheduleAgent();
  } else {
    $("play-controls").hidden = true;
    $("watch-controls").hidden = false;
    $("moves").replaceChildren();
    $("scrub").max = view.total;
    $("scrub").value = view.at;
    $("w-pos").textContent = `${view.at}/${view.total}`;
    $("status").textContent = `${view.source} (${view.game}, ${view.num_players} players, seed ${view.seed})`
      + (view.at === view.total ? " - end." + outcomeText(view) : "");
    $("status").dataset.waiting = view.at === view.total ? "end" : "watching";
    scheduleWatch();
  }
}

// --- playing -------------------------------------------------------------------------------------
function scheduleAgent() {
  clearTimeout(state.timer);
  const view = state.view;
  if (!view || view.kind !== "play" || view.waiting !== "agent" || view.broken || state.paused) return;
  state.timer = setTimeout(async () => {
    if (state.view !== view) return;
    try { render(await api("POST", `/api/play/${view.id}/advance`)); } catch (e) { showError(e); }
  }, pace());
}

async function play(action) {
  state.placeFilter = null;
  try { showError(null); render(await api("POST", `/api/play/${state.view.id}/move`, { action })); }
  catch (e) { showError(e); }
}

async function startGame(ev) {
  ev.preventDefault();
  showError(null);
  let options;
  try { options = JSON.parse($("options").value || "{}"); }
  catch (e) { showError(new Error(`options must be a JSON object, e.g. {"turn_limit": 3}: ${e.message}`)); return; }
  if ($("ruleset").value) options.ruleset = $("ruleset").value;
  const seats = [...document.querySelectorAll("#seats input")].map((i) => i.value.trim());
  const body = { game: $("game").value, players: Number($("players").value), seed: Number($("seed").value),
                 options, seats };
  state.paused = false;
  $("pause").textContent = "pause agents";
  try { render(await api("POST", "/api/play", body)); } catch (e) { showError(e); }
}

function setupSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = `player_${i} `;
    const input = document.createElement("input");
    input.id = `seat-${i}`;
    input.setAttribute("list", "agent-list");
    input.value = old[i] !== undefined ? old[i] : (i === 0 ? "human" : "random");
    label.appendChild(input);
    box.appendChild(label);
  }
}

function setupGame() {
  const g = state.catalogue.games.find((x) => x.id === $("game").value);
  const players = $("players");
  players.min = g.min_players;
  players.max = g.max_players;
  players.value = g.default_players;
  const rs = $("ruleset");
  rs.replaceChildren();
  for (const r of g.rulesets) rs.appendChild(new Option(r, r));
  $("ruleset-label").hidden = g.rulesets.length < 2;
  $("options").title = Object.entries(g.options).map(([k, v]) => `${k}: ${v}`).join("\n");
  setupSeats();
}

// --- watching ------------------------------------------------------------------------------------
async function watchAt(at) {
  const view = state.view;
  try { render(await api("GET", `/api/watch/${view.id}?at=${at}`)); } catch (e) { showError(e); }
}

function scheduleWatch() {
  clearTimeout(state.timer);
  const view = state.view;
  $("w-play").textContent = state.watchPlaying ? "pause" : "play";
  if (!state.watchPlaying || view.kind !== "watch") return;
  if (view.at >= view.total) { state.watchPlaying = false; $("w-play").textContent = "play"; return; }
  state.timer = setTimeout(() => { if (state.view === view) watchAt(view.at + 1); }, pace());
}

async function watch(body) {
  showError(null);
  state.watchPlaying = false;
  try { render(await api("POST", "/api/watch", body)); } catch (e) { showError(e); }
}

async function loadRuns() {
  const box = $("runs");
  box.replaceChildren();
  const { runs } = await api("GET", "/api/runs");
  if (!runs.length) box.textContent = "No run folders: start the server with --runs DIR to watch arena games.";
  for (const run of runs) {
    const div = document.createElement("div");
    div.className = "run";
    const h = document.createElement("h3");
    h.textContent = run.name;
    div.appendChild(h);
    for (const a of run.arena) {
      const sel = document.createElement("select");
      sel.className = "arena-game";
      for (const g of a.games) sel.appendChild(new Option(`game ${g}`, g));
      const b = document.createElement("button");
      b.textContent = `watch ${a.file}`;
      b.className = "watch-arena";
      b.addEventListener("click", () => watch({ run: run.run, file: a.file, game_index: Number(sel.value) }));
      div.append(sel, " ", b, document.createElement("br"));
    }
    for (const r of run.replays) {
      const b = document.createElement("button");
      b.textContent = `watch ${r.file} (${r.game}, ${r.decisions} decisions)`;
      b.className = "watch-replay";
      b.addEventListener("click", () => watch({ run: run.run, file: r.file }));
      div.append(b, document.createElement("br"));
    }
    box.appendChild(div);
  }
}

function showTab(name) {
  $("tab-play").classList.toggle("active", name === "play");
  $("tab-watch").classList.toggle("active", name === "watch");
  $("play-setup").hidden = name !== "play";
  $("watch-setup").hidden = name !== "watch";
  if (name === "watch") loadRuns().catch(showError);
}

// --- wiring --------------------------------------------------------------------------------------
// What a seat can be: human, every agent, and every model of the server's --models folder by name.
function seatChoices(catalogue) {
  const choices = [catalogue.human, ...Object.keys(catalogue.agents)];
  for (const m of catalogue.models) for (const agent of m.agents) choices.push(`${agent}:model=${m.name}`);
  return choices;
}

async function init() {
  state.catalogue = await api("GET", "/api/catalogue");
  for (const g of state.catalogue.games) $("game").appendChild(new Option(g.id, g.id));
  const list = document.createElement("datalist");
  list.id = "agent-list";
  for (const name of seatChoices(state.catalogue)) list.appendChild(new Option(name));
  document.body.appendChild(list);
  $("agent-names").textContent = Object.entries(state.catalogue.agents)
    .map(([n, params]) => params.length ? `${n} (${params.join(", ")})` : n).join("; ");
  $("model-names").textContent = state.catalogue.models.map((m) => m.name).join(", ")
    || "none (start the server with --models DIR to play model files)";
  $("max-seconds").textContent = state.catalogue.limits.seconds;
  setupGame();
  $("game").addEventListener("change", setupGame);
  $("players").addEventListener("change", setupSeats);
  $("new-game").addEventListener("submit", startGame);
  $("board").addEventListener("click", onBoardClick);
  $("pace").addEventListener("input", () => { $("pace-ms").textContent = `${pace()} ms`; });
  $("pause").addEventListener("click", () => {
    state.paused = !state.paused;
    $("pause").textContent = state.paused ? "resume agents" : "pause agents";
    render(state.view);
  });
  $("undo").addEventListener("click", async () => {
    try { showError(null); render(await api("POST", `/api/play/${state.view.id}/undo`)); } catch (e) { showError(e); }
  });
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-watch").addEventListener("click", () => showTab("watch"));
  $("w-first").addEventListener("click", () => watchAt(0));
  $("w-last").addEventListener("click", () => watchAt(state.view.total));
  $("w-prev").addEventListener("click", () => watchAt(Math.max(0, state.view.at - 1)));
  $("w-next").addEventListener("click", () => watchAt(Math.min(state.view.total, state.view.at + 1)));
  $("w-play").addEventListener("click", () => { state.watchPlaying = !state.watchPlaying; scheduleWatch(); });
  $("scrub").addEventListener("change", () => watchAt(Number($("scrub").value)));
  $("replay-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    let replay;
    try { replay = JSON.parse(await file.text()); }
    catch (e) { showError(new Error(`${file.name} is not a replay: not valid JSON (${e.message})`)); return; }
    watch({ replay });
  });
}

init().catch(showError);
