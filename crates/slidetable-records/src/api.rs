//! The records only `slidetable serve`'s API answers with (docs/JSON.md, "`slidetable
//! serve`'s API"): a puzzle's answer with every heuristic's estimate ([`Solve`]), a puzzle
//! drawn ([`Draw`]), the lesson on search effort ([`Effort`]) and what is served
//! ([`Boards`]). Each is built on the command line's records where they share a meaning.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::{Record, SearchStats, Seed};

/// `/api/solve`: `path --json`'s answer, with each heuristic's estimate by name (`pdb`, the
/// pattern databases', on a board answered by search), the board and the goal.
#[derive(Serialize)]
pub struct Solve<'a> {
    /// The answer, as `path --json` writes it (with `at_least` when a search stopped at its
    /// time cap).
    #[serde(flatten)]
    pub answer: Record<'a>,
    /// Each heuristic's estimate from the puzzle to the goal, by name.
    pub heuristics: BTreeMap<&'static str, u32>,
    /// `RxC`.
    pub board: String,
    /// The goal's tiles, the blank as 0.
    pub goal: &'a [u8],
}

/// How a puzzle was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Drawn {
    /// Exactly `depth` moves from the goal, drawn from a table as `random --depth` draws.
    Depth,
    /// `walk` random moves from the goal.
    Walk,
    /// Uniformly among the puzzles that reach the goal.
    Uniform,
}

/// `/api/random`: a puzzle drawn, with `/api/solve`'s answer for it.
#[derive(Serialize)]
pub struct Draw<'a> {
    /// The puzzle's answer, as `/api/solve` gives it.
    #[serde(flatten)]
    pub answer: Solve<'a>,
    /// The seed drawn with (a string: JavaScript rounds numbers above 2^53).
    pub seed: Seed,
    /// How it was drawn.
    pub drawn: Drawn,
    /// The distance asked for (the request's `depth`) of a depth draw; `null` otherwise.
    pub depth: Option<u32>,
    /// The number of random moves (the request's `walk`) of a walk draw; `null` otherwise.
    pub walk: Option<u32>,
}

/// `/api/effort`: one puzzle solved by A* and IDA* with each heuristic, side by side.
#[derive(Serialize)]
pub struct Effort<'a> {
    /// `RxC`.
    pub board: String,
    /// The puzzle's tiles, the blank as 0.
    pub puzzle: &'a [u8],
    /// The goal's tiles.
    pub goal: &'a [u8],
    /// The cap on each run's expanded states.
    pub max_expanded: u64,
    /// The cap on each run's time.
    pub max_milliseconds: u64,
    /// Breadth-first and uniform-cost search (blind), then A* and IDA*, each with the
    /// heuristics from weakest to strongest.
    pub runs: Vec<Run>,
}

/// One method with one heuristic: what `search --method M --heuristic H --json --stats`
/// reports for the puzzle.
#[derive(Serialize)]
pub struct Run {
    /// `bfs`, `dijkstra` (uniform-cost), `astar` or `idastar`.
    pub method: &'static str,
    /// The command line's name (`pdb` for the pattern databases; `none` for a blind method).
    pub heuristic: &'static str,
    /// What the search cost, as `search --stats` counts it (to where a cap stopped it).
    #[serde(flatten)]
    pub stats: SearchStats,
    /// The optimal path's length; `null` when a cap stopped the run.
    pub length: Option<u32>,
    /// Which cap stopped the run, if one did.
    pub stopped: Option<String>,
}

/// `/api/boards`: every board served, the heuristics' names and the searches under way.
#[derive(Serialize)]
pub struct Boards {
    /// The boards, in the order served.
    pub boards: Vec<BoardInfo>,
    /// The heuristics' names, as `/api/solve` gives their estimates.
    pub heuristics: Vec<&'static str>,
    /// The searches now, and their caps.
    pub searches: Searches,
}

/// One board served.
#[derive(Serialize)]
pub struct BoardInfo {
    /// `RxC`.
    pub board: String,
    /// Its standard goal.
    pub goal: Vec<u8>,
    /// The source's table file's name (never its directory on the server), once it is open
    /// (`null` until the first request for the board).
    pub table: Option<String>,
    /// `table` (every state's distance stored) or `search` (IDA* on pattern databases).
    pub answers: &'static str,
    /// Long work under way for the board (its table being made, its distances read).
    pub work: Option<Work>,
    /// Why the board's default table is refused, before its first request (its file holds
    /// another board, or weighted costs): the message a request for it gets; `None` otherwise.
    pub refused: Option<String>,
}

/// How far one piece of long work is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Work {
    /// What is being done, for the page to show.
    pub task: String,
    /// Units done so far (states or placements).
    pub done: u64,
    /// Units in all.
    pub total: u64,
}

/// The searches running and waiting, and the caps on them.
#[derive(Serialize)]
pub struct Searches {
    /// Running now.
    pub running: usize,
    /// Waiting for a turn now.
    pub waiting: usize,
    /// The most run at once.
    pub most_running: usize,
    /// The most that wait; past them a search is refused (503).
    pub most_waiting: usize,
    /// Each search's time cap.
    pub milliseconds: u64,
    /// The effort lesson's cap on each run's expanded states.
    pub effort_expanded: u64,
}
