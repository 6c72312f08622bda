// The page: a board to play, the exact distance after every move beside each heuristic, and a
// chart of both along the moves played. Every number comes from the server's /api routes.
"use strict";

const COLORS = { distance: "#1c1c1c", "linear-conflict": "#2f5d8a", manhattan: "#1b7f3a", misplaced: "#b5651d" };
const LETTERS = { u: "up", d: "down", l: "left", r: "right" };

const state = {
  board: "3x3",
  rows: 3,
  cols: 3,
  puzzle: [],        // tiles in reading order, 0 the blank
  goal: [],
  heuristics: [],    // names, from /api/boards
  answer: null,      // the last /api/solve answer for the puzzle shown
  history: [],       // one {distance, heuristics} per position since the puzzle was set
  busy: false,       // a solve is being animated
  generation: 0,     // bumped when the puzzle is replaced, to drop stale answers
};

const $ = (id) => document.getElementById(id);

async function api(route, params) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(`/api/${route}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `status ${response.status}`);
  return body;
}

function status(text, isError = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", isError);
}

function parseBoard(text) {
  const [rows, cols] = text.split("x").map(Number);
  return { rows, cols };
}

function standardGoal(cells) {
  return Array.from({ length: cells }, (_, i) => (i + 1) % cells);
}

function tokens(layout) {
  return layout.join(",");
}

function parseTokens(text) {
  return text.trim().split(/[\s,]+/).map((t) => (t === "x" || t === "X" ? 0 : Number(t)));
}

function sameLayout(a, b) {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

// The state in the address bar and the share link, so a teacher can hand out a position.
function updateUrl() {
  const params = new URLSearchParams({ board: state.board, puzzle: tokens(state.puzzle) });
  if (!sameLayout(state.goal, standardGoal(state.rows * state.cols))) {
    params.set("goal", tokens(state.goal));
  }
  const url = `${location.pathname}?${params.toString().replaceAll("%2C", ",")}`;
  history.replaceState(null, "", url);
  const share = $("share");
  share.href = url;
  share.textContent = location.origin + url;
}

function render() {
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${state.cols}, 64px)`;
  board.replaceChildren();
  const hint = state.hintCell;
  state.puzzle.forEach((tile, cell) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.cell = String(cell);
    if (tile === 0) {
      button.className = "blank";
      button.dataset.testid = "blank";
      button.setAttribute("aria-label", "gap");
      button.tabIndex = -1;
    } else {
      button.textContent = String(tile);
      button.dataset.testid = `tile-${tile}`;
      if (cell === hint) button.classList.add("hint");
    }
    button.disabled = state.busy;
    button.addEventListener("click", () => clickCell(cell));
    board.appendChild(button);
  });
  $("goal").value = tokens(state.goal);
  $("moves").textContent = String(Math.max(0, state.history.length - 1));
}

function showAnswer() {
  const answer = state.answer;
  const distance = $("distance");
  const verdict = $("verdict");
  if (!answer) return;
  distance.textContent = answer.solvable ? String(answer.distance) : "unreachable";
  verdict.className = "verdict";
  verdict.textContent = "";
  const n = state.history.length;
  if (n >= 2 && answer.solvable) {
    const before = state.history[n - 2].distance;
    if (before !== null) {
      const closer = answer.distance < before;
      verdict.textContent = closer ? "closer" : answer.distance > before ? "farther" : "same";
      verdict.classList.add(closer ? "closer" : "farther");
    }
  }
  if (answer.solvable && answer.distance === 0) status("solved: this is the goal");
  const rows = $("heuristics");
  rows.replaceChildren();
  for (const name of state.heuristics) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = name;
    const td = document.createElement("td");
    const value = document.createElement("span");
    value.dataset.testid = `h-${name}`;
    value.textContent = String(answer.heuristics[name]);
    td.appendChild(value);
    if (answer.solvable && answer.distance > 0) {
      const gap = document.createElement("span");
      gap.className = "verdict";
      const under = answer.distance - answer.heuristics[name];
      gap.textContent = under === 0 ? "exact" : `${under} under`;
      td.appendChild(gap);
    }
    tr.append(th, td);
    rows.appendChild(tr);
  }
  drawChart();
}

function drawChart() {
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const series = ["distance", ...state.heuristics];
  const points = state.history;
  const top = Math.max(1, ...points.flatMap((p) => series.map((s) => value(p, s) ?? 0)));
  const width = 400, height = 200, pad = 24;
  const x = (i) => pad + (points.length <= 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  const axis = document.createElementNS(ns, "path");
  axis.setAttribute("d", `M${pad},${pad} V${height - pad} H${width - pad}`);
  axis.setAttribute("stroke", "#999");
  axis.setAttribute("fill", "none");
  svg.appendChild(axis);
  for (const [label, at] of [[String(top), pad], ["0", height - pad]]) {
    const text = document.createElementNS(ns, "text");
    text.setAttribute("x", "2");
    text.setAttribute("y", String(at + 4));
    text.setAttribute("font-size", "10");
    text.textContent = label;
    svg.appendChild(text);
  }
  for (const s of series) {
    const line = document.createElementNS(ns, "polyline");
    const coords = points
      .map((p, i) => [i, value(p, s)])
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    line.setAttribute("points", coords.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", COLORS[s] || "#888");
    line.setAttribute("stroke-width", s === "distance" ? "3" : "2");
    line.dataset.series = s;
    svg.appendChild(line);
  }
  const legend = $("legend");
  legend.replaceChildren();
  for (const s of series) {
    const span = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = COLORS[s] || "#888";
    span.append(swatch, s === "distance" ? "exact distance" : s);
    legend.appendChild(span);
  }
}

function value(point, series) {
  return series === "distance" ? point.distance : point.heuristics[series];
}

// Asks the server about the puzzle shown; `fresh` starts a new history (a new puzzle or goal).
async function refresh(fresh) {
  const generation = state.generation;
  updateUrl();
  render();
  try {
    const answer = await api("solve", {
      board: state.board,
      puzzle: tokens(state.puzzle),
      goal: tokens(state.goal),
    });
    if (generation !== state.generation) return;
    state.answer = answer;
    if (fresh) state.history = [];
    state.history.push({ distance: answer.distance, heuristics: answer.heuristics });
    render();
    showAnswer();
  } catch (e) {
    status(e.message, true);
  }
}

// Moves the blank by a path letter (u d l r), as the command line's paths do.
function moveBlank(letter) {
  const blank = state.puzzle.indexOf(0);
  const row = Math.floor(blank / state.cols), col = blank % state.cols;
  const target = {
    u: row > 0 ? blank - state.cols : -1,
    d: row < state.rows - 1 ? blank + state.cols : -1,
    l: col > 0 ? blank - 1 : -1,
    r: col < state.cols - 1 ? blank + 1 : -1,
  }[letter];
  if (target === undefined || target < 0) return false;
  state.puzzle[blank] = state.puzzle[target];
  state.puzzle[target] = 0;
  state.hintCell = undefined;
  return true;
}

function letterFor(cell) {
  const blank = state.puzzle.indexOf(0);
  const sameRow = Math.floor(cell / state.cols) === Math.floor(blank / state.cols);
  if (cell === blank - state.cols) return "u";
  if (cell === blank + state.cols) return "d";
  if (cell === blank - 1 && sameRow) return "l";
  if (cell === blank + 1 && sameRow) return "r";
  return null;
}

async function play(letter) {
  if (state.busy || !letter) return;
  if (moveBlank(letter)) {
    status("");
    await refresh(false);
  }
}

function clickCell(cell) {
  return play(letterFor(cell));
}

// An arrow key slides the tile beside the gap in the arrow's direction.
const ARROWS = { ArrowUp: "d", ArrowDown: "u", ArrowLeft: "r", ArrowRight: "l" };

function hint() {
  const answer = state.answer;
  if (!answer || !answer.solvable) return status("no move reaches the goal from here", true);
  if (answer.distance === 0) return status("solved: this is the goal");
  const letter = answer.path[0];
  const blank = state.puzzle.indexOf(0);
  const cell = { u: blank - state.cols, d: blank + state.cols, l: blank - 1, r: blank + 1 }[letter];
  state.hintCell = cell;
  render();
  status(`hint: slide tile ${state.puzzle[cell]} (the gap moves ${LETTERS[letter]}, '${letter}')`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function solve() {
  if (state.busy) {
    state.busy = false;
    return;
  }
  const answer = state.answer;
  if (!answer || !answer.solvable) return status("no move reaches the goal from here", true);
  state.busy = true;
  $("solve").textContent = "stop";
  status(`solving: ${answer.distance} moves, ${answer.path || "none needed"}`);
  for (const letter of answer.path) {
    if (!state.busy) break;
    await sleep(250);
    moveBlank(letter);
    await refresh(false);
  }
  state.busy = false;
  $("solve").textContent = "solve";
  render();
}

// Draws a puzzle the chosen number of moves from the goal; false (with the reason shown) if
// the server cannot.
async function newPuzzle() {
  const depth = $("depth").value;
  let drawn;
  try {
    drawn = await api("random", { board: state.board, depth, goal: tokens(state.goal) });
  } catch (e) {
    status(e.message, true);
    return false;
  }
  setPuzzle(drawn.puzzle);
  await refresh(true);
  status(`a puzzle ${drawn.distance} moves from the goal (seed ${drawn.seed})`);
  return true;
}

function setPuzzle(puzzle) {
  state.generation += 1;
  state.puzzle = puzzle;
  state.hintCell = undefined;
  state.answer = null;
}

async function setBoard(board, puzzle, goal) {
  state.board = board;
  Object.assign(state, parseBoard(board));
  const cells = state.rows * state.cols;
  state.goal = goal || standardGoal(cells);
  $("board-size").value = board;
  status(`opening the ${board} table (made on its first use: a moment, up to a minute for 12 cells)`);
  if (await loadStats()) status("");
  if (!puzzle && (await newPuzzle())) return;
  // A puzzle from the link, or the goal itself when none could be drawn: play from there.
  setPuzzle(puzzle || [...state.goal]);
  await refresh(true);
}

// The goal's farthest distance, which bounds the depth of a new puzzle; false (with the
// reason shown) if the server cannot tell.
async function loadStats() {
  try {
    const stats = await api("stats", { board: state.board, goal: tokens(state.goal) });
    $("farthest").textContent = `${stats.max_distance} moves`;
    const depth = $("depth");
    depth.max = String(stats.max_distance);
    if (Number(depth.value) > stats.max_distance) depth.value = String(stats.max_distance);
    return true;
  } catch (e) {
    status(e.message, true);
    return false;
  }
}

async function setGoal() {
  const goal = parseTokens($("goal").value);
  try {
    await api("stats", { board: state.board, goal: tokens(goal) });
  } catch (e) {
    return status(e.message, true);
  }
  state.goal = goal;
  state.generation += 1;
  await loadStats();
  status("goal set");
  await refresh(true);
}

async function start() {
  const params = new URLSearchParams(location.search);
  try {
    const boards = await api("boards", {});
    state.heuristics = boards.heuristics;
    const select = $("board-size");
    for (const b of boards.boards) {
      const option = document.createElement("option");
      option.value = b.board;
      option.textContent = b.board.replace("x", "×");
      select.appendChild(option);
    }
  } catch (e) {
    return status(e.message, true);
  }
  $("board-size").addEventListener("change", (e) => setBoard(e.target.value));
  $("set-goal").addEventListener("click", setGoal);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("new-puzzle").addEventListener("click", newPuzzle);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (ARROWS[e.key]) {
      e.preventDefault();
      play(ARROWS[e.key]);
    }
  });
  const board = params.get("board") || "3x3";
  const puzzle = params.get("puzzle") ? parseTokens(params.get("puzzle")) : null;
  const goal = params.get("goal") ? parseTokens(params.get("goal")) : null;
  await setBoard(board, puzzle, goal);
}

start();
