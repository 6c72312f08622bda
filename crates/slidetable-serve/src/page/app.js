// The page: a board to play, the exact distance after every move beside each heuristic, a
// chart of both along the moves played, and the lesson on search effort. Every number comes
// from the server's /api routes.
"use strict";

const COLORS = {
  distance: "#1c1c1c", "linear-conflict": "#2f5d8a", manhattan: "#1b7f3a",
  misplaced: "#b5651d", pdb: "#7b3fa0",
};
const LETTERS = { u: "up", d: "down", l: "left", r: "right" };
const DRAWS = {
  depth: "exactly N moves from the goal",
  walk: "a walk of N random moves",
  uniform: "uniformly random (any puzzle)",
};

const state = {
  board: "3x3",
  rows: 3,
  cols: 3,
  answers: "table",  // "table" or "search" (IDA* on pattern databases), from /api/boards
  boards: [],        // /api/boards' boards
  puzzle: [],        // tiles in reading order, 0 the blank
  goal: [],
  heuristics: [],    // names, from /api/boards (and "pdb" where the answers have it)
  positions: [],     // {puzzle, answer} from the starting position on; answer null until known
  at: 0,             // the position shown
  answer: null,      // the answer for the position shown
  farthest: null,    // the goal's farthest distance (boards with a table)
  busy: false,       // a solve is being animated
  solving: null,     // the animation under way (a token): a stopped one never plays again
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

// The long work last seen and when it was first seen, for the estimate of what is left.
let workSeen = null;

// What is left of work `w` at time `now` (ms), in whole seconds, from the rate measured since
// it was first seen; null until half a second and some progress have been measured.
function secondsLeft(w, now) {
  if (!workSeen || workSeen.task !== w.task || w.done < workSeen.done) {
    workSeen = { task: w.task, done: w.done, at: now };
    return null;
  }
  const elapsed = now - workSeen.at;
  const done = w.done - workSeen.done;
  if (elapsed < 500 || done <= 0) return null;
  return Math.ceil(((w.total - w.done) * elapsed) / done / 1000);
}

// What keeps a request waiting, from /api/boards: the board's long work (a table made,
// distances read, pattern databases built) with an estimate of the time left once its rate
// is measured, or (`queue`: a search request's place, kept between polls) the searches
// ahead of it at the gate; null when nothing is.
function waitingFor(boards, queue, now = performance.now()) {
  const mine = boards.boards.find((b) => b.board === state.board);
  if (mine && mine.work) {
    const w = mine.work;
    const share = w.total ? Math.floor((100 * w.done) / w.total) : 0;
    const left = secondsLeft(w, now);
    const estimate = left === null ? "" : `, about ${left} s left`;
    return `${w.task}: ${share}%${estimate} (once per server)`;
  }
  const s = boards.searches;
  // Every search slot taken and others waiting: this request is one of them. The gate is
  // first come, first served, so those ahead only leave: later arrivals (counted in
  // `waiting` too) never lift the count.
  if (queue && s.running >= s.most_running && s.waiting > 0) {
    queue.ahead = Math.min(queue.ahead ?? Infinity, s.waiting - 1);
    return `waiting for a free search slot: ${queue.ahead} ahead (${s.running} searching)`;
  }
  return null;
}

// While `promise` runs, shows what keeps it waiting, as /api/boards reports it; the message
// goes when the answer comes.
async function watching(promise, queued = false) {
  let done = false;
  let shown = null;
  const queue = queued ? {} : null;
  const poll = (async () => {
    await sleep(300);
    while (!done) {
      try {
        const text = waitingFor(await api("boards", {}), queue);
        if (!done && text) {
          status(text);
          shown = text;
        } else if (!done && shown && $("status").textContent === shown) {
          status("");
          shown = null;
        }
      } catch (e) {
        // The work's own request reports failures.
      }
      await sleep(400);
    }
  })();
  try {
    return await promise;
  } finally {
    done = true;
    await poll;
    if (shown && $("status").textContent === shown) status("");
  }
}

function status(text, isError = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", isError);
}

// Says `text` to screen readers (the live region is replaced, never cleared).
function speak(text) {
  $("spoken").textContent = text;
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

// The distance as words: a number, "more than N moves" when the search hit its time cap.
function distanceText(answer) {
  if (!answer) return "…";
  if (answer.distance !== null && answer.distance !== undefined) return String(answer.distance);
  if (answer.at_least) return `more than ${answer.at_least - 1} moves`;
  return "unreachable";
}

function render() {
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${state.cols}, auto)`;
  board.style.setProperty("--rows", String(state.rows));
  board.style.setProperty("--cols", String(state.cols));
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
  const goal = $("goal-board");
  goal.style.gridTemplateColumns = `repeat(${state.cols}, auto)`;
  goal.replaceChildren();
  for (const tile of state.goal) {
    const span = document.createElement("span");
    span.textContent = tile === 0 ? "" : String(tile);
    if (tile === 0) span.className = "blank";
    goal.appendChild(span);
  }
  if (document.activeElement !== $("goal")) {
    $("goal").value = tokens(state.goal);
    // The whole goal in view (16 cells need 37 characters).
    $("goal").size = Math.max(12, $("goal").value.length + 1);
  }
  $("moves").textContent = String(state.at);
  $("played").textContent = String(state.at);
  $("undo").disabled = state.busy || state.at === 0;
  $("reset").disabled = state.busy || state.at === 0;
  $("step-prev").disabled = state.busy || state.at === 0;
  $("redo").disabled = state.busy || state.at >= state.positions.length - 1;
  $("step-next").disabled = state.busy;
  $("hint").disabled = state.busy;
}

function showAnswer() {
  const answer = state.answer;
  const distance = $("distance");
  const verdict = $("verdict");
  distance.textContent = distanceText(answer);
  $("readout").textContent = distanceText(answer);
  verdict.className = "verdict";
  verdict.textContent = "";
  if (!answer) return;
  const before = state.at > 0 ? state.positions[state.at - 1].answer : null;
  if (before && before.distance != null && answer.distance != null) {
    const closer = answer.distance < before.distance;
    verdict.textContent = closer ? "closer" : answer.distance > before.distance ? "farther" : "same";
    verdict.classList.add(closer ? "closer" : "farther");
  }
  if (answer.distance === 0) status("solved: this is the goal");
  const said = answer.distance === 0 ? "solved: this is the goal"
    : `${distanceText(answer)} moves to the goal${verdict.textContent ? `, ${verdict.textContent}` : ""}`;
  speak(`after ${state.at} ${state.at === 1 ? "move" : "moves"}: ${said}`);
  const rows = $("heuristics");
  rows.replaceChildren();
  for (const name of seriesNames().slice(1)) {
    if (answer.heuristics[name] === undefined) continue;
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = name === "pdb" ? "pattern databases" : name;
    const td = document.createElement("td");
    const value = document.createElement("span");
    value.dataset.testid = `h-${name}`;
    value.textContent = String(answer.heuristics[name]);
    td.appendChild(value);
    if (answer.distance > 0) {
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

// The series the chart and the table show: the distance, then each heuristic the answers
// carry, the pattern databases last.
function seriesNames() {
  const names = ["distance", ...state.heuristics];
  if (state.answer && state.answer.heuristics.pdb !== undefined) names.push("pdb");
  return names;
}

function drawChart() {
  const svg = $("chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const series = seriesNames();
  const points = state.positions.slice(0, state.at + 1).map((p) => p.answer);
  const top = Math.max(1, ...points.flatMap((p) => series.map((s) => value(p, s) ?? 0)));
  const width = 400, height = 200, pad = 24;
  const x = (i) => pad + (points.length <= 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  const line = (d, color) => {
    const path = document.createElementNS(ns, "path");
    path.setAttribute("d", d);
    path.setAttribute("stroke", color);
    path.setAttribute("fill", "none");
    svg.appendChild(path);
  };
  const label = (text, at, anchor, data) => {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", String(at[0]));
    t.setAttribute("y", String(at[1]));
    t.setAttribute("font-size", "10");
    t.setAttribute("text-anchor", anchor);
    if (data) t.dataset.move = data;
    t.textContent = text;
    svg.appendChild(t);
  };
  line(`M${pad},${pad} V${height - pad} H${width - pad}`, "#999");
  label(String(top), [2, pad + 4], "start");
  label("0", [2, height - pad + 4], "start");
  // Move numbers along the x-axis: about eight ticks, whole moves.
  const moves = points.length - 1;
  const every = Math.max(1, Math.ceil(moves / 8));
  for (let m = 0; m <= moves; m += every) {
    line(`M${x(m).toFixed(1)},${height - pad} v4`, "#999");
    label(String(m), [x(m), height - pad + 14], "middle", String(m));
  }
  label("moves played", [width - pad, height - 2], "end");
  for (const s of series) {
    const poly = document.createElementNS(ns, "polyline");
    const coords = points
      .map((p, i) => [i, value(p, s)])
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([i, v]) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    poly.setAttribute("points", coords.join(" "));
    poly.setAttribute("fill", "none");
    poly.setAttribute("stroke", COLORS[s] || "#888");
    poly.setAttribute("stroke-width", s === "distance" ? "3" : "2");
    poly.dataset.series = s;
    svg.appendChild(poly);
  }
  const legend = $("legend");
  legend.replaceChildren();
  for (const s of series) {
    const span = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.style.background = COLORS[s] || "#888";
    span.append(swatch, s === "distance" ? "exact distance" : s === "pdb" ? "pattern databases" : s);
    legend.appendChild(span);
  }
}

function value(answer, series) {
  if (!answer) return null;
  return series === "distance" ? answer.distance : answer.heuristics[series];
}

// Shows position `at` (its answer asked for if not known yet).
async function show(at) {
  state.at = at;
  const position = state.positions[at];
  state.puzzle = [...position.puzzle];
  state.hintCell = undefined;
  state.answer = position.answer;
  updateUrl();
  render();
  showAnswer();
  if (!position.answer) await ask(position);
}

// Asks the server about `position` and shows the answer if it is still on the board.
async function ask(position) {
  const generation = state.generation;
  try {
    const answer = await watching(api("solve", {
      board: state.board,
      puzzle: tokens(position.puzzle),
      goal: tokens(state.goal),
    }), state.answers === "search");
    if (generation !== state.generation) return;
    position.answer = answer;
    if (state.positions[state.at] === position) {
      state.answer = answer;
      render();
      showAnswer();
      if (answer.at_least) {
        status(`the search stopped at its time cap: the goal is more than ${answer.at_least - 1} moves away`);
      }
    }
  } catch (e) {
    if (generation === state.generation) status(e.message, true);
  }
}

// Starts over from `puzzle`, with its answer if known.
async function startFrom(puzzle, answer) {
  state.generation += 1;
  state.positions = [{ puzzle: [...puzzle], answer: answer || null }];
  await show(0);
}

// Moves the blank of `puzzle` by a path letter (u d l r), as the command line's paths do;
// the new layout, or null off the board.
function moved(puzzle, letter) {
  const blank = puzzle.indexOf(0);
  const row = Math.floor(blank / state.cols), col = blank % state.cols;
  const target = {
    u: row > 0 ? blank - state.cols : -1,
    d: row < state.rows - 1 ? blank + state.cols : -1,
    l: col > 0 ? blank - 1 : -1,
    r: col < state.cols - 1 ? blank + 1 : -1,
  }[letter];
  if (target === undefined || target < 0) return null;
  const next = [...puzzle];
  next[blank] = next[target];
  next[target] = 0;
  return next;
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

// Plays a move: the positions after this one (the redo list) are dropped.
async function play(letter, byProgram = false) {
  if ((state.busy && !byProgram) || !letter) return;
  const next = moved(state.puzzle, letter);
  if (!next) return;
  if (!byProgram) status("");
  state.positions = state.positions.slice(0, state.at + 1);
  state.positions.push({ puzzle: next, answer: null });
  await show(state.at + 1);
}

function clickCell(cell) {
  const letter = letterFor(cell);
  if (!letter && !state.busy && state.puzzle[cell] !== 0) {
    // Feedback for a tile that cannot slide: the status line, the live region, a shake.
    const text = `tile ${state.puzzle[cell]} cannot slide: only a tile next to the gap moves`;
    status(text, true);
    speak(text);
    const button = $("board").querySelector(`[data-cell="${cell}"]`);
    if (button) {
      button.classList.remove("illegal");
      void button.offsetWidth;
      button.classList.add("illegal");
    }
    return Promise.resolve();
  }
  return play(letter);
}

// An arrow key slides the tile beside the gap in the arrow's direction.
const ARROWS = { ArrowUp: "d", ArrowDown: "u", ArrowLeft: "r", ArrowRight: "l" };

// The first move of an optimal path from here, or null (with the reason shown).
function nextMove() {
  const answer = state.answer;
  if (!answer) { status("the distance is still being found"); return null; }
  if (answer.at_least) {
    status(`no hint: the search stopped at its time cap (more than ${answer.at_least - 1} moves); step back nearer the goal or draw a shorter walk`, true);
    return null;
  }
  if (!answer.solvable) { status("no move reaches the goal from here", true); return null; }
  if (answer.distance === 0) { status("solved: this is the goal"); return null; }
  return answer.path[0];
}

function hint() {
  const letter = nextMove();
  if (!letter) return;
  const blank = state.puzzle.indexOf(0);
  const cell = { u: blank - state.cols, d: blank + state.cols, l: blank - 1, r: blank + 1 }[letter];
  state.hintCell = cell;
  render();
  status(`hint: slide tile ${state.puzzle[cell]} (the gap moves ${LETTERS[letter]}, '${letter}')`);
}

async function stepNext() {
  if (state.busy) return;
  const letter = nextMove();
  if (letter) await play(letter);
}

async function undo() {
  if (state.busy || state.at === 0) return;
  status("");
  await show(state.at - 1);
}

async function redo() {
  if (state.busy || state.at >= state.positions.length - 1) return;
  status("");
  await show(state.at + 1);
}

async function reset() {
  if (state.busy || state.at === 0) return;
  status("back to the starting position (redo replays the moves)");
  await show(0);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function stopSolving() {
  state.busy = false;
  state.solving = null;
  $("solve").textContent = "solve";
  render();
}

// Plays an optimal path to the goal, one move per tick of the speed control; "stop" ends it.
async function solve() {
  if (state.busy) {
    stopSolving();
    status("");
    return;
  }
  const answer = state.answer;
  if (!nextMove()) return;
  state.busy = true;
  // Stopped and started again within one tick, the old loop must not play on beside the new.
  const run = {};
  state.solving = run;
  const generation = state.generation;
  const mine = () => state.solving === run && generation === state.generation;
  $("solve").textContent = "stop";
  render();
  status(`solving: ${answer.distance} moves, ${answer.path}`);
  while (mine()) {
    await sleep(Number($("speed").value));
    if (!mine()) break;
    const here = state.answer;
    if (!here || here.distance === null || here.distance === 0) break;
    await play(here.path[0], true);
  }
  if (mine()) stopSolving();
}

function depthLimit() {
  const draw = $("draw").value;
  // Until the board's farthest state is known, nothing to clamp to.
  if (draw === "depth") return state.farthest ?? 10000;
  return 10000;
}

// Keeps the depth field within what the board and the kind of draw allow.
function clampDepth() {
  const depth = $("depth");
  const most = depthLimit();
  depth.max = String(most);
  const n = Math.floor(Number(depth.value));
  if (!Number.isFinite(n) || n < 0) depth.value = "0";
  else if (n > most) depth.value = String(most);
  else depth.value = String(n);
}

function drawChanged() {
  const draw = $("draw").value;
  $("depth").disabled = draw === "uniform";
  $("depth-label").textContent = draw === "walk" ? "moves" : "depth";
  clampDepth();
}

// Draws a new puzzle as the draw control says; false (with the reason shown) if the server
// cannot.
async function newPuzzle() {
  if (state.busy) stopSolving();
  clampDepth();
  const draw = $("draw").value;
  const params = { board: state.board, goal: tokens(state.goal) };
  if (draw === "depth") params.depth = $("depth").value;
  if (draw === "walk") params.walk = $("depth").value;
  let drawn;
  try {
    status(state.answers === "search" ? "drawing a puzzle and searching for its distance…" : "drawing a puzzle…");
    drawn = await watching(api("random", params), state.answers === "search" && draw !== "depth");
  } catch (e) {
    status(e.message, true);
    return false;
  }
  $("seed").textContent = drawn.seed;
  await startFrom(drawn.puzzle, drawn);
  const how = drawn.drawn === "depth" ? `a puzzle ${drawn.depth} moves from the goal`
    : drawn.drawn === "walk" ? `a walk of ${drawn.walk} random moves from the goal`
    : "a uniformly random puzzle";
  let text = `${how} (seed ${drawn.seed})`;
  if (drawn.at_least) text += `: the search stopped at its time cap, more than ${drawn.at_least - 1} moves`;
  if (drawn.drawn === "depth") {
    text += `; the command line draws it again with: slidetable random --board ${state.board} --depth ${drawn.depth} --seed ${drawn.seed}`;
  }
  status(text);
  return true;
}

function fillDraws() {
  const select = $("draw");
  const previous = select.value;
  select.replaceChildren();
  const kinds = state.answers === "search" ? ["walk", "uniform"] : ["depth", "walk", "uniform"];
  for (const k of kinds) {
    const option = document.createElement("option");
    option.value = k;
    option.textContent = DRAWS[k];
    select.appendChild(option);
  }
  select.value = kinds.includes(previous) ? previous : kinds[0];
  if (state.answers === "search" && select.value === "walk" && Number($("depth").value) < 1) {
    $("depth").value = "30";
  }
  drawChanged();
}

async function setBoard(board, puzzle, goal, answer) {
  if (state.busy) stopSolving();
  state.board = board;
  Object.assign(state, parseBoard(board));
  const info = state.boards.find((b) => b.board === board);
  state.answers = info ? info.answers : "table";
  const cells = state.rows * state.cols;
  state.goal = goal || standardGoal(cells);
  $("board-size").value = board;
  state.farthest = null;
  $("farthest").textContent = state.answers === "search"
    ? "not known here: answers come from search (no table of every state)" : "…";
  $("seed").textContent = "–";
  clearEffort();
  fillDraws();
  status("");
  if (state.answers === "table") await loadStats();
  if (!puzzle && (await newPuzzle())) return;
  // A puzzle from the link (with its answer when known), or the goal itself when none could
  // be drawn: play from there.
  await startFrom(puzzle || [...state.goal], puzzle ? answer : null);
}

// The goal's farthest distance, which bounds the depth of a new puzzle; false (with the
// reason shown) if the server cannot tell.
async function loadStats() {
  try {
    const stats = await watching(api("stats", { board: state.board, goal: tokens(state.goal) }));
    state.farthest = stats.max_distance;
    $("farthest").textContent = `${stats.max_distance} moves`;
    clampDepth();
    return true;
  } catch (e) {
    status(e.message, true);
    return false;
  }
}

// A new goal: the puzzle on the board stays, and its distance is found again for the goal.
// The server reads the text as the command line reads a goal (`1 2 3 8 0 4 7 6 5`,
// `123804765`, `x` the gap), and the goal it read is the one drawn: one reading, the server's.
async function setGoal() {
  if (state.busy) stopSolving();
  const text = $("goal").value.trim();
  let goal;
  try {
    const read = state.answers === "table"
      ? await api("stats", { board: state.board, goal: text })
      : await api("solve", { board: state.board, puzzle: text, goal: text });
    goal = read.goal;
  } catch (e) {
    return status(e.message, true);
  }
  state.goal = goal;
  if (state.answers === "table") await loadStats();
  clearEffort();
  status("goal set: the distance is for the new goal");
  await startFrom(state.puzzle, null);
}

// The effort lesson's names: a method as the page says it, a heuristic as the table says it.
const METHODS = { bfs: "breadth-first", dijkstra: "uniform-cost", astar: "A*", idastar: "IDA*" };
const HEURISTICS = { pdb: "pattern databases", none: "none (blind)" };

function clearEffort() {
  state.effort = null;
  $("effort").querySelector("tbody").replaceChildren();
  $("effort-chart").replaceChildren();
  $("effort-status").textContent = "";
}

// The lesson on search effort: every method and heuristic on the puzzle shown.
async function runEffort() {
  const button = $("effort-run");
  const puzzle = [...state.puzzle];
  button.disabled = true;
  clearEffort();
  $("effort-status").textContent = "searching with every method and heuristic…";
  try {
    const effort = await watching(
      api("effort", { board: state.board, puzzle: tokens(puzzle), goal: tokens(state.goal) }), true);
    showEffort(effort);
    $("effort-status").textContent =
      `puzzle ${effort.puzzle.join(" ")}: each run stops after ${effort.max_expanded.toLocaleString("en")} states or ${effort.max_milliseconds / 1000} s`;
  } catch (e) {
    $("effort-status").textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

function showEffort(effort) {
  state.effort = effort;
  const body = $("effort").querySelector("tbody");
  body.replaceChildren();
  for (const run of effort.runs) {
    const tr = document.createElement("tr");
    tr.dataset.method = run.method;
    tr.dataset.heuristic = run.heuristic;
    const more = run.stopped ? "> " : "";
    const cells = [
      ["method", METHODS[run.method] || run.method],
      ["heuristic", HEURISTICS[run.heuristic] || run.heuristic],
      ["expanded", more + run.expanded.toLocaleString("en"), run.expanded],
      ["memory", run.peak_open.toLocaleString("en"), run.peak_open],
      ["iterations", run.iterations === undefined ? "–" : String(run.iterations), run.iterations],
      ["time", `${run.milliseconds.toFixed(1)} ms`],
      ["length", run.length === null ? `stopped (${run.stopped})` : String(run.length)],
    ];
    cells.forEach(([name, text, number], i) => {
      const td = document.createElement("td");
      td.textContent = text;
      td.dataset.col = name;
      if (number !== undefined) td.dataset.value = String(number);
      if (i >= 2) td.className = "number";
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  drawEffort();
}

// Bars of states expanded: on a log scale by default (they differ by orders of magnitude),
// linear when the toggle says so (how much bigger the blind searches really are).
function drawEffort() {
  const effort = state.effort;
  if (!effort) return;
  const log = $("effort-scale").getAttribute("aria-pressed") === "true";
  const svg = $("effort-chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  svg.dataset.scale = log ? "log" : "linear";
  const rowHeight = 22, labelWidth = 190, width = 600;
  const most = Math.max(10, ...effort.runs.map((r) => r.expanded));
  const room = width - labelWidth - 90;
  const scale = log ? (n) => (room * Math.log10(1 + n)) / Math.log10(1 + most)
    : (n) => (room * n) / most;
  svg.setAttribute("viewBox", `0 0 ${width} ${effort.runs.length * rowHeight + 20}`);
  effort.runs.forEach((run, i) => {
    const y = i * rowHeight + 4;
    const text = document.createElementNS(ns, "text");
    text.setAttribute("x", "4");
    text.setAttribute("y", String(y + 14));
    text.setAttribute("font-size", "12");
    text.textContent = run.heuristic === "none" ? METHODS[run.method]
      : `${METHODS[run.method] || run.method} ${run.heuristic}`;
    const bar = document.createElementNS(ns, "rect");
    bar.setAttribute("x", String(labelWidth));
    bar.setAttribute("y", String(y));
    bar.setAttribute("height", "16");
    bar.setAttribute("width", scale(run.expanded).toFixed(1));
    bar.dataset.expanded = String(run.expanded);
    bar.setAttribute("fill", COLORS[run.heuristic] || "#888");
    bar.setAttribute("opacity", run.stopped ? "0.4" : "1");
    const count = document.createElementNS(ns, "text");
    count.setAttribute("x", String(labelWidth + scale(run.expanded) + 4));
    count.setAttribute("y", String(y + 13));
    count.setAttribute("font-size", "11");
    count.textContent = (run.stopped ? "> " : "") + run.expanded.toLocaleString("en");
    svg.append(text, bar, count);
  });
  const axis = document.createElementNS(ns, "text");
  axis.setAttribute("x", String(labelWidth));
  axis.setAttribute("y", String(effort.runs.length * rowHeight + 16));
  axis.setAttribute("font-size", "10");
  axis.textContent = `states expanded (${log ? "log" : "linear"} scale)`;
  svg.appendChild(axis);
}

function toggleScale() {
  const button = $("effort-scale");
  const log = button.getAttribute("aria-pressed") !== "true";
  button.setAttribute("aria-pressed", String(log));
  button.textContent = log ? "log scale" : "linear scale";
  drawEffort();
}

// Presentation mode: large text and a board as tall as the screen (the class on <html>).
function togglePresent() {
  const on = document.documentElement.classList.toggle("present");
  $("present").setAttribute("aria-pressed", String(on));
  $("present").textContent = on ? "leave presentation mode" : "presentation mode";
  if (on) $("board").scrollIntoView({ block: "start" });
}

// The board, puzzle and goal the address names (the picker follows it).
async function fromUrl() {
  const params = new URLSearchParams(location.search);
  let board = params.get("board") || "3x3";
  const info = state.boards.find((b) => b.board === board);
  if (!info || info.refused) {
    status(info ? `${info.refused}; showing 3x3` : `no ${board} board here; showing 3x3`, true);
    board = "3x3";
  }
  // The link's puzzle and goal are read by the server as the command line reads them
  // (`2,3,4,1,5,0,7,6,8`, `23415x768`, `x` the gap); its answer is kept for the puzzle.
  const given = params.get("puzzle"), goalText = params.get("goal");
  let puzzle = null, goal = null, answer = null, refused = null;
  if (given || goalText) {
    const ask = { board, puzzle: given || goalText };
    if (goalText) ask.goal = goalText;
    const searched = (state.boards.find((b) => b.board === board) || {}).answers === "search";
    try {
      const read = await watching(api("solve", ask), searched);
      if (goalText) goal = read.goal;
      if (given) [puzzle, answer] = [read.puzzle, read];
    } catch (e) {
      refused = `the link's puzzle or goal: ${e.message}`;
    }
  }
  await setBoard(board, puzzle, goal, answer);
  if (refused) status(refused, true);
}

async function start() {
  try {
    const boards = await api("boards", {});
    state.heuristics = boards.heuristics;
    state.boards = boards.boards;
    const select = $("board-size");
    for (const b of boards.boards) {
      const option = document.createElement("option");
      option.value = b.board;
      option.textContent = b.board.replace("x", "×");
      // A board whose default table the server refuses: shown, not offered, with the reason.
      if (b.refused) {
        option.disabled = true;
        option.title = b.refused;
        option.textContent += " (refused)";
      }
      select.appendChild(option);
    }
  } catch (e) {
    return status(e.message, true);
  }
  $("board-size").addEventListener("change", (e) => setBoard(e.target.value));
  $("set-goal").addEventListener("click", setGoal);
  $("hint").addEventListener("click", hint);
  $("solve").addEventListener("click", solve);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("reset").addEventListener("click", reset);
  $("step-next").addEventListener("click", stepNext);
  $("step-prev").addEventListener("click", undo);
  $("new-puzzle").addEventListener("click", newPuzzle);
  $("draw").addEventListener("change", drawChanged);
  $("depth").addEventListener("change", clampDepth);
  $("effort-run").addEventListener("click", runEffort);
  $("effort-scale").addEventListener("click", toggleScale);
  $("present").addEventListener("click", togglePresent);
  window.addEventListener("popstate", fromUrl);
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (ARROWS[e.key]) {
      e.preventDefault();
      play(ARROWS[e.key]);
    }
  });
  await fromUrl();
}

start();
