// The troyka playground page: the rule editor with the checker's diagnostics, the game (played by
// clicking, against agents, or agents against each other) and records stepped through. Everything
// comes from the server's JSON API (docs/playground.md); the board is the server's SVG.
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  file: "rules.game",   // the name the editor's text is checked under (.zrf picks the ZRF reader)
  tab: "play",
  views: { play: null, replay: null },  // the last answer about each tab's game
  selected: null,       // the cell of the piece picked up, in the play tab
  errorLine: 0,         // the line of the checker's diagnostic, 0 when the rules check
  checkSerial: 0,       // only the answer to the latest check is shown
  checkTimer: null,
  agentsPlaying: false, // an agent loop runs
  paused: false,
  replayPly: 0,         // the ply asked for last in the replay tab: quick clicks step from it
  stepSerial: 0,        // only the answer to the latest step is shown
};

// ---- the API -----------------------------------------------------------------------------------

// Calls the API; an answer that is not 2xx throws an Error carrying the server's message and hint.
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let json;
  try {
    json = await response.json();
  } catch {
    json = { error: { message: `the server answered HTTP ${response.status}` } };
  }
  if (!response.ok) {
    const error = new Error((json.error && json.error.message) || `HTTP ${response.status}`);
    error.hint = json.error ? json.error.hint : "";
    error.diagnostic = json.error ? json.error.diagnostic : null;
    error.status = response.status;
    throw error;
  }
  return json;
}

function showError(error) {
  const box = $("error");
  box.textContent = error.hint ? `${error.message} (${error.hint})` : error.message;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the rule editor ---------------------------------------------------------------------------

// "width=6 height=6" as the API's {"width": "6", "height": "6"}.
function parseParams(text) {
  const params = {};
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const equals = word.indexOf("=");
    if (equals > 0) params[word.slice(0, equals)] = word.slice(equals + 1);
  }
  return params;
}

function rulesRequest() {
  return {
    text: $("rules").value,
    file: page.file,
    variant: $("variant").value.trim(),
    params: parseParams($("params").value),
  };
}

function lineHeight() {
  return parseFloat(getComputedStyle($("rules")).lineHeight);
}

// Line numbers beside the text, the diagnostic's line marked, and the band across that line.
function drawGutter() {
  const lines = $("rules").value.split("\n").length;
  const numbers = [];
  for (let line = 1; line <= lines; ++line)
    numbers.push(line === page.errorLine ? `<span class="bad-line">${line}</span>` : String(line));
  $("gutter").innerHTML = numbers.join("\n") + "\n\n";
  followScroll();
}

function followScroll() {
  const text = $("rules");
  $("gutter").scrollTop = text.scrollTop;
  const band = $("error-band");
  band.hidden = page.errorLine === 0;
  band.style.top = `${8 + (page.errorLine - 1) * lineHeight() - text.scrollTop}px`;
}

function scheduleCheck() {
  clearTimeout(page.checkTimer);
  page.checkTimer = setTimeout(checkRules, 350);
}

async function checkRules() {
  const serial = ++page.checkSerial;
  try {
    const answer = await api("POST", "/api/check", rulesRequest());
    if (serial === page.checkSerial) showDiagnostic(answer);
  } catch (error) {
    if (serial === page.checkSerial) showError(error);
  }
}

function showDiagnostic(answer) {
  const box = $("diagnostic");
  box.replaceChildren();
  if (answer.ok) {
    const game = answer.game;
    page.errorLine = 0;
    box.className = "diagnostic ok";
    box.textContent = `✔ ${game.name}${game.variant ? ` (${game.variant})` : ""}: ${game.width}x${game.height} ` +
      `${game.shape}, ${game.players.join(" against ")}, pieces ${game.pieces.join(", ")}.`;
    if (game.about) box.append(document.createElement("br"), game.about);
    if (answer.warning) {
      // The rules load, but nothing in them makes sure a game ends: said, not refused.
      const warning = document.createElement("div");
      warning.className = "warning";
      warning.append(`⚠ line ${answer.warning.line}, column ${answer.warning.column}: ${answer.warning.message}`,
        document.createElement("br"), `hint: ${answer.warning.hint}`);
      box.append(warning);
    }
    showSeats(game.players);
  } else {
    const diagnostic = answer.diagnostic;
    page.errorLine = diagnostic.line || 0;
    box.className = "diagnostic bad";
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = diagnostic.line ? `✖ line ${diagnostic.line}, column ${diagnostic.column}: ` : "✖ ";
    const details = document.createElement("pre");
    details.textContent = diagnostic.text;
    box.append(where, diagnostic.message, details);
    box.dataset.line = diagnostic.line || "";
    box.dataset.column = diagnostic.column || "";
    box.dataset.length = diagnostic.length || 1;
  }
  drawGutter();
}

// Puts the cursor on the diagnostic's place, its underlined text selected.
function goToDiagnostic() {
  const box = $("diagnostic");
  const line = Number(box.dataset.line);
  if (!box.classList.contains("bad") || !line) return;
  const text = $("rules");
  const lines = text.value.split("\n");
  let offset = 0;
  for (let index = 0; index < line - 1; ++index) offset += lines[index].length + 1;
  offset += Number(box.dataset.column) - 1;
  text.focus();
  text.setSelectionRange(offset, offset + Number(box.dataset.length));
  text.scrollTop = Math.max(0, (line - 6) * lineHeight());
  followScroll();
}

async function loadGameList() {
  const { games } = await api("GET", "/api/games");
  const list = $("game-list");
  for (const game of games) list.add(new Option(game.file, game.file));
  list.games = games;
  const start = games.find((game) => game.file === "breakthrough.game") || games[0];
  if (start) {
    list.value = start.file;
    useGame(start);
  }
}

function useGame(game) {
  page.file = game.file;
  $("file-name").textContent = game.file;
  $("rules").value = game.text;
  $("variant").value = "";
  $("params").value = "";
  $("rules").scrollTop = 0;
  checkRules();
}

// ---- the game ----------------------------------------------------------------------------------

function currentView() {
  return page.views[page.tab];
}

function playerIndex(view) {
  return view.game.players.indexOf(view.to_move);
}

// The id of a part ("player", "kind", "agent") of a seat's controls: the first two seats have
// their own in the page, the seats of games of more players are made by showSeats.
function seatId(player, part) {
  return player === 0 ? `first-${part}` : player === 1 ? `second-${part}` : `seat-${player + 1}-${part}`;
}

// A row of controls for each player of the game: its name, who plays it, and the agent's spec.
// Rows past the second come and go with the game's players, and are played by agents at first.
function showSeats(players) {
  const sides = $("sides");
  while (sides.children.length > Math.max(2, players.length)) sides.lastElementChild.remove();
  for (let player = sides.children.length; player < players.length; ++player) {
    const side = document.createElement("div");
    side.className = "side";
    side.innerHTML = `<span id="${seatId(player, "player")}" class="player-name"></span>` +
      `<select id="${seatId(player, "kind")}"><option value="you">you</option>` +
      `<option value="agent" selected>agent</option></select>` +
      `<input id="${seatId(player, "agent")}" value="mcts:time=1s" size="16" aria-label="player ${player + 1}'s agent">`;
    sides.append(side);
  }
  players.forEach((name, player) => { $(seatId(player, "player")).textContent = name; });
}

function isAgent(player) {
  return $(seatId(player, "kind")).value === "agent";
}

function agentSpec(player) {
  return $(seatId(player, "agent")).value.trim();
}

// "1. Red, 2. White, 2. Black": the players by their places, tied ones sharing a place.
function rankingText(view) {
  const order = view.game.players.map((name, player) => ({ name, rank: view.ranks[player] }));
  order.sort((a, b) => a.rank - b.rank);
  return order.map(({ name, rank }) => `${rank}. ${name}`).join(", ");
}

function statusText(view) {
  const where = page.tab === "replay" ? ` (ply ${view.ply} of ${view.plies})` : "";
  if (view.over) {
    const result = view.game.players.length > 2 ? `ranking ${rankingText(view)}`
      : view.winner === "draw" ? "a draw" : `${view.winner} wins`;
    return `Game over: ${result}. ${view.reason}${where}`;
  }
  if (view.thinking) return `${view.to_move} is thinking${where}`;
  return `${view.to_move} to move${where}`;
}

// Shows a view of the active tab's game: board, status, moves, reports.
function render(view) {
  page.views[page.tab] = view;
  $("board").innerHTML = view.svg;
  const status = $("status");
  status.textContent = statusText(view);
  status.classList.toggle("thinking", Boolean(view.thinking));
  drawMoves(view);
  drawExtraMoves(view);
  const reported = [...view.moves.slice(0, view.ply)].reverse().find((move) => move.report);
  $("report").textContent = reported ? reportText(reported) : "No agent has moved yet.";
  if (page.tab === "replay") {
    const slider = $("ply-slider");
    slider.max = view.plies;
    slider.value = view.ply;
  }
}

function drawMoves(view) {
  const list = $("moves");
  list.replaceChildren();
  view.moves.forEach((move, index) => {
    const item = document.createElement("li");
    item.dataset.ply = move.ply;
    if (index === view.ply - 1) item.classList.add("current");
    const by = document.createElement("span");
    by.className = "by";
    by.textContent = ` ${move.player}, ${move.by}`;
    item.append(move.move, by);
    if (move.summary) {
      const summary = document.createElement("span");
      summary.className = "summary";
      summary.textContent = move.summary;
      item.append(summary);
    }
    list.append(item);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// Moves that are not on the board (pass, swap) as buttons.
function drawExtraMoves(view, choices) {
  const box = $("extra-moves");
  box.replaceChildren();
  const offBoard = view.legal_moves.filter((move) => move.from === null).map((move) => move.move);
  for (const text of choices || offBoard) {
    const button = document.createElement("button");
    button.textContent = text;
    button.addEventListener("click", () => playMove({ move: text }));
    box.append(button);
  }
}

function reportText(move) {
  const report = move.report;
  const lines = [
    `${move.by} played ${move.move} (ply ${move.ply})`,
    `${report.iterations} iterations in ${report.seconds.toFixed(3)} s, ` +
      `${Math.round(report.iterations_per_second)}/s, ${report.nodes} nodes`,
    `best ${report.best}: visits ${(100 * report.visit_share).toFixed(1)}%, value ${report.value.toFixed(3)}` +
      (report.proof !== "unknown" ? `, proven ${report.proof}` : ""),
  ];
  if (report.principal.length) lines.push(`expected line: ${report.principal.join(" ")}`);
  return lines.join("\n");
}

async function newGame() {
  clearError();
  page.paused = true;
  const old = page.views.play;
  try {
    page.selected = null;
    render(await api("POST", "/api/sessions", rulesRequest()));
    if (old) api("DELETE", `/api/sessions/${old.session}`).catch(() => {});
    page.paused = false;
    letAgentsPlay();
  } catch (error) {
    showError(error);
    if (error.diagnostic) showDiagnostic({ ok: false, diagnostic: error.diagnostic });
  }
}

async function playMove(move) {
  clearError();
  const view = page.views.play;
  try {
    page.selected = null;
    render(await api("POST", `/api/sessions/${view.session}/moves`, move));
    letAgentsPlay();
  } catch (error) {
    showError(error);
  }
}

// The agent of the side to move thinks (on the server's job queue) and plays.
async function agentMoves() {
  const view = page.views.play;
  const spec = agentSpec(playerIndex(view));
  if (page.tab === "play") render({ ...view, thinking: true });
  const { job } = await api("POST", `/api/sessions/${view.session}/agent`, { agent: spec });
  for (;;) {
    const status = await api("GET", `/api/jobs/${job}?wait=2`);
    if (status.status === "done") {
      if (page.tab === "play") render(status.result);
      else page.views.play = status.result;
      return;
    }
    if (status.status === "failed") {
      const error = new Error(status.error.message);
      error.hint = status.error.hint;
      throw error;
    }
  }
}

// While an agent is to move, it moves; agents play on until the game ends or Pause.
async function letAgentsPlay() {
  if (page.agentsPlaying) return;
  page.agentsPlaying = true;
  try {
    for (let view = page.views.play; view && !view.over && !page.paused && isAgent(playerIndex(view));
         view = page.views.play) {
      await agentMoves();
      // Time to see each move when agents play every seat.
      if (view.game.players.every((name, player) => isAgent(player))) await sleep(300);
    }
  } catch (error) {
    showError(error);
  } finally {
    page.agentsPlaying = false;
  }
}

async function agentMoveNow() {
  const view = page.views.play;
  if (!view || view.over || page.agentsPlaying) return;
  clearError();
  try {
    await agentMoves();
    page.paused = false;
    letAgentsPlay();
  } catch (error) {
    showError(error);
  }
}

// A click on the board: pick up a piece (its targets are shown), put it down on a target, or drop
// a piece on an empty cell when the game has drops.
async function clickCell(event) {
  const target = event.target.closest("[data-cell]");
  const view = page.views.play;
  if (!target || page.tab !== "play" || !view) return;
  if (view.over || view.thinking || page.agentsPlaying || isAgent(playerIndex(view))) return;
  const cell = target.dataset.cell;
  const from = page.selected;
  if (from && view.targets.includes(cell)) {
    const matching = view.legal_moves.filter((move) => move.from === from && move.to === cell);
    if (matching.length > 1) {
      drawExtraMoves(view, matching.map((move) => move.move));
      return;
    }
    return playMove({ from, to: cell });
  }
  if (view.legal_moves.some((move) => move.from === cell && move.to === cell)) return playMove({ from: cell, to: cell });
  const movable = view.legal_moves.some((move) => move.from === cell && move.to !== cell);
  page.selected = movable && cell !== from ? cell : null;
  try {
    const query = page.selected ? `?selected=${page.selected}` : "";
    render(await api("GET", `/api/sessions/${view.session}${query}`));
  } catch (error) {
    showError(error);
  }
}

// ---- records -----------------------------------------------------------------------------------

async function loadRecord() {
  clearError();
  const record = $("record").value;
  try {
    let view;
    try {
      view = await api("POST", "/api/records", { record });
    } catch (error) {
      // A record of a game the server does not have: its rules may be the ones in the editor.
      if (!/not among this server's games/.test(error.message)) throw error;
      view = await api("POST", "/api/records", { record, text: $("rules").value, file: page.file });
    }
    const old = page.views.replay;
    page.replayPly = view.ply;
    render(view);
    if (old) api("DELETE", `/api/sessions/${old.session}`).catch(() => {});
  } catch (error) {
    showError(error);
  }
}

async function showPly(ply) {
  const view = page.views.replay;
  if (!view) return;
  page.replayPly = Math.max(0, Math.min(view.plies, ply));
  const serial = ++page.stepSerial;
  try {
    const answer = await api("GET", `/api/sessions/${view.session}?ply=${page.replayPly}`);
    if (serial === page.stepSerial && page.tab === "replay") render(answer);
  } catch (error) {
    showError(error);
  }
}

function readRecordFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => {
    $("record").value = reader.result;
  };
  reader.readAsText(file);
}

// ---- tabs and wiring ---------------------------------------------------------------------------

function showTab(tab) {
  page.tab = tab;
  for (const button of document.querySelectorAll(".tab")) button.classList.toggle("active", button.dataset.tab === tab);
  for (const pane of document.querySelectorAll("[data-pane]")) pane.hidden = !pane.dataset.pane.split(" ").includes(tab);
  clearError();
  const view = currentView();
  if (tab === "analyze") {
    $("status").textContent = "Measure the edited game by self-play, and compare it with another version.";
  } else if (view) {
    render(view);
  } else {
    $("board").replaceChildren();
    $("moves").replaceChildren();
    $("extra-moves").replaceChildren();
    $("status").textContent = tab === "play" ? "Press New game to play the rules in the editor." : "Load a record.";
  }
}

async function showLimits() {
  const limits = await api("GET", "/api/limits");
  $("server-note").textContent =
    `agents think at most ${limits.max_move_seconds} s a move; games close after ${limits.session_idle_minutes} idle minutes`;
}

function wire() {
  const rules = $("rules");
  rules.addEventListener("input", () => {
    drawGutter();
    scheduleCheck();
  });
  rules.addEventListener("scroll", followScroll);
  rules.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;  // a tab key indents instead of leaving the editor
    event.preventDefault();
    rules.setRangeText("  ", rules.selectionStart, rules.selectionEnd, "end");
    drawGutter();
    scheduleCheck();
  });
  $("variant").addEventListener("input", scheduleCheck);
  $("params").addEventListener("input", scheduleCheck);
  $("diagnostic").addEventListener("click", goToDiagnostic);
  $("game-list").addEventListener("change", (event) => {
    const game = event.target.games.find((candidate) => candidate.file === event.target.value);
    if (game) useGame(game);
  });
  for (const button of document.querySelectorAll(".tab")) button.addEventListener("click", () => showTab(button.dataset.tab));
  $("new-game").addEventListener("click", newGame);
  $("agent-move").addEventListener("click", agentMoveNow);
  $("pause").addEventListener("click", () => {
    page.paused = true;
  });
  $("board").addEventListener("click", clickCell);
  $("load-record").addEventListener("click", loadRecord);
  $("record-file").addEventListener("change", readRecordFile);
  $("first-ply").addEventListener("click", () => showPly(0));
  $("previous-ply").addEventListener("click", () => showPly(page.replayPly - 1));
  $("next-ply").addEventListener("click", () => showPly(page.replayPly + 1));
  $("last-ply").addEventListener("click", () => showPly(page.views.replay ? page.views.replay.plies : 0));
  $("ply-slider").addEventListener("input", (event) => showPly(Number(event.target.value)));
}

wire();
showTab("play");
Promise.all([loadGameList(), showLimits()]).catch(showError);
