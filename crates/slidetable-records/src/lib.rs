//! What slidetable prints, as records: one puzzle's answer ([`Record`]), a search's cost
//! ([`SearchStats`]), a goal's statistics ([`Stats`]), a bad input line ([`BadLine`]), and
//! their writers (a JSON line, a CSV header). The command line's `--json` and `--csv` and the
//! web server's API print these same records, so both have one shape, the one docs/JSON.md
//! specifies (layouts as arrays of numbers, seeds as strings).
//!
//! ```
//! use slidetable_records::{line, Record};
//!
//! let mut out = Vec::new();
//! let mut record = Record { puzzle: &[1, 2, 0, 3], solvable: true, ..Record::default() };
//! record.measure(false, Some(1), None);
//! line(&mut out, &record);
//! assert_eq!(out, b"{\"puzzle\":[1,2,0,3],\"distance\":1,\"solvable\":true}\n");
//! ```

use std::io::{self, Write};

pub mod api;

use serde::{Serialize, Serializer};
use slidetable_core::Layout;
use slidetable_query::{HistogramStats, LayerStats};

/// One puzzle's answer. `distance` and `path` are `null` for a puzzle that cannot reach the
/// goal (`"solvable": false`); fields a command does not answer are left out. On a weighted
/// table, where what a path costs and how many moves it has differ, `cost` and `moves` stand
/// in place of `distance` (see [`Record::measure`]).
#[derive(Serialize, Default)]
pub struct Record<'a> {
    /// The tiles in reading order, the blank as 0 (docs/JSON.md: layouts are arrays).
    pub puzzle: &'a [u8],
    /// The fewest moves (unit costs), `null` when unsolvable; left out on a weighted table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<Option<u32>>,
    /// A search stopped at its time cap (`distance` and `path` `null`): no path is shorter
    /// than this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_least: Option<u32>,
    /// A weighted table: the cheapest cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Option<u32>>,
    /// A weighted table, where a path is given: its number of moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Option<u32>>,
    /// Left out by `distance`; `null` when there is no path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Option<&'a str>>,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// `search --stats`: what finding the path cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<SearchStats>,
    /// `search`: why there is no answer although the puzzle is solvable (a limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `search`: how the answer was found (method, heuristic, pattern databases).
    #[serde(flatten)]
    pub search: Option<SearchSetup<'a>>,
}

/// How `search` looked for its answers, in each of its records and its summary, so that a
/// table of results names its method beside its figures.
#[derive(Serialize, Clone, Copy, Default)]
pub struct SearchSetup<'a> {
    /// The method, as the command line names it (`idastar`).
    pub method: &'a str,
    /// The heuristic as given (`linear-conflict`, `pdb`, `pdb-4-4`); `null` for a method
    /// that uses none.
    pub heuristic: Option<&'a str>,
    /// Pattern databases only: the group sizes (`7-8`, `6-6-3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<&'a str>,
    /// Pattern databases only: the file they were read from; `null` when built in memory
    /// (`pdb-PARTITION`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<Option<&'a str>>,
}

/// The last report of `search --stats` (on standard error, or in `--summary FILE`), over
/// every puzzle read.
#[derive(Serialize, Default)]
pub struct SearchSummary<'a> {
    /// How the puzzles were searched.
    #[serde(flatten)]
    pub setup: SearchSetup<'a>,
    /// Valid puzzles read.
    pub puzzles: u64,
    /// Puzzles solved.
    pub solved: u64,
    /// Puzzles proved unsolvable.
    pub unsolvable: u64,
    /// Puzzles given up at a limit.
    pub unknown: u64,
    /// Nodes expanded, over every puzzle (those given up included).
    pub expanded: u64,
    /// Nodes generated, over every puzzle (those given up included).
    pub generated: u64,
    /// Time, over every puzzle (those given up included).
    pub milliseconds: f64,
    /// The mean effective branching factor over the solved puzzles of depth 1 or more.
    pub mean_branching_factor: Option<f64>,
}

/// `search`'s summary as one JSON line: `{"summary": {...}}`.
#[derive(Serialize)]
pub struct SearchSummaryLine<'a> {
    /// The summary.
    pub summary: SearchSummary<'a>,
}

impl Record<'_> {
    /// Fills `distance`, or on a `weighted` table `cost` and (when a path was asked for)
    /// `moves`: the one vocabulary of text and JSON alike.
    pub fn measure(&mut self, weighted: bool, value: Option<u32>, moves: Option<Option<u32>>) {
        if weighted {
            self.cost = Some(value);
            self.moves = moves;
        } else {
            self.distance = Some(value);
        }
    }
}

/// What finding one path cost a search (`search --stats`).
#[derive(Clone, Debug, Serialize)]
pub struct SearchStats {
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// The largest open list (IDA*: the deepest path).
    pub peak_open: u64,
    /// IDA*'s iterations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// A length no solution is shorter than, the solution's when found (docs/SEARCH.md
    /// defines it for each method).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<u32>,
    /// The search's time.
    pub milliseconds: f64,
    /// The effective branching factor; `null` at depth 0.
    pub branching_factor: Option<f64>,
}

impl SearchStats {
    /// The record of a search's `stats`, for a path of `length` moves when one was found
    /// (the branching factor needs it): what `search --stats` and the page's lesson on search
    /// effort both show.
    pub fn of(stats: &slidetable_search::Stats, length: Option<u32>) -> SearchStats {
        SearchStats {
            expanded: stats.expanded,
            generated: stats.generated,
            peak_open: stats.peak_open,
            iterations: stats.iterations,
            bound: stats.bound,
            milliseconds: stats.elapsed.as_secs_f64() * 1e3,
            branching_factor: length
                .and_then(|d| slidetable_search::effective_branching_factor(stats.generated, d)),
        }
    }
}

/// A bad input line under `--keep-going`, in the place its answer would have been.
#[derive(Serialize)]
pub struct BadLine<'a> {
    /// Its line number, from 1.
    pub line: u64,
    /// What is wrong with it.
    pub error: &'a str,
}

/// Appends `value` as one line of JSON to `buf`.
#[inline]
pub fn line(buf: &mut Vec<u8>, value: &impl Serialize) {
    // Serializing these plain structs into memory cannot fail.
    serde_json::to_writer(&mut *buf, value).expect("JSON of a plain struct");
    buf.push(b'\n');
}

/// Writes `{"line": N, "error": "…"}` for a bad input line.
pub fn bad_line(out: &mut impl Write, line_number: u64, error: &str) -> io::Result<()> {
    let mut buf = Vec::with_capacity(64 + error.len());
    line(
        &mut buf,
        &BadLine {
            line: line_number,
            error,
        },
    );
    out.write_all(&buf)
}

/// What a table's figures count, and the one set of words for them in every output (text,
/// CSV, JSON): the fewest moves on a unit-cost table (`distance`), the cheapest cost on a
/// weighted one (`cost`), where a path's cost and its number of moves differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Unit costs: the fewest moves.
    Distance,
    /// A weighted table: the cheapest cost.
    Cost,
}

impl Measure {
    /// [`Measure::Cost`] on a weighted table, else [`Measure::Distance`].
    pub fn of(weighted: bool) -> Measure {
        if weighted {
            Measure::Cost
        } else {
            Measure::Distance
        }
    }

    /// The quantity's name: a CSV column, a JSON key, a column head (`distance`, `cost`).
    pub fn name(self) -> &'static str {
        match self {
            Measure::Distance => "distance",
            Measure::Cost => "cost",
        }
    }

    /// The largest value from a goal, in text (`max distance`, `max cost`).
    pub fn max_name(self) -> &'static str {
        match self {
            Measure::Distance => "max distance",
            Measure::Cost => "max cost",
        }
    }

    /// A value in words: `15 moves`, `1 move`; `cost 15`.
    pub fn amount(self, value: u32) -> String {
        match self {
            Measure::Distance => slidetable_core::counted(u64::from(value), "move"),
            Measure::Cost => format!("cost {value}"),
        }
    }

    /// How far a state is from the goal, in words: `15 moves from the goal`, `at cost 15
    /// from the goal`.
    pub fn from_goal(self, value: u32) -> String {
        match self {
            Measure::Distance => format!("{} from the goal", self.amount(value)),
            Measure::Cost => format!("at {} from the goal", self.amount(value)),
        }
    }

    /// `value` in the field of this quantity, the other left out: `(distance, cost)` of a
    /// record with a `distance` and a `cost` field, each skipped when `None`.
    pub fn split<T>(self, value: T) -> (Option<T>, Option<T>) {
        match self {
            Measure::Distance => (Some(value), None),
            Measure::Cost => (None, Some(value)),
        }
    }
}

/// The CSV header of `distance` (`with_path` false) or `path` answers, the value's column
/// named by `measure`.
pub fn csv_header(with_path: bool, measure: Measure) -> &'static [u8] {
    match (with_path, measure) {
        (true, Measure::Distance) => b"puzzle,distance,path,solvable\n",
        (false, Measure::Distance) => b"puzzle,distance,solvable\n",
        (true, Measure::Cost) => b"puzzle,cost,path,solvable\n",
        (false, Measure::Cost) => b"puzzle,cost,solvable\n",
    }
}

/// `text` as one CSV field (RFC 4180): as it is, or quoted, with its quotes doubled, when it
/// holds a comma, a quote or a line end (a file name may).
pub fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// A seed, written as a string in JSON: seeds go up to 2^64 − 1, and JavaScript's numbers
/// lose every integer above 2^53.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed(pub u64);

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// How the states spread over distances from one goal (`stats --json`, `/api/stats`): per
/// distance on a unit-cost table, per cheapest cost on a weighted one.
#[derive(Serialize)]
pub struct Stats<'a> {
    /// The table file.
    pub table: String,
    /// `RxC`.
    pub board: String,
    /// The goal's tiles, the blank as 0.
    pub goal: &'a [u8],
    /// Every state of the goal's class.
    pub states: u64,
    /// The mean distance (cost).
    pub mean: f64,
    /// The lower median.
    pub median: u32,
    /// The largest distance (unit costs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_distance: Option<u32>,
    /// The largest cheapest cost (a weighted table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_cost: Option<u32>,
    /// Unit costs: per distance. Left out on a weighted table, which has `costs` instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distances: Option<Vec<Layer>>,
    /// A weighted table: per cheapest cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub costs: Option<Vec<Layer>>,
}

/// The states at one distance (or cheapest cost).
#[derive(Serialize)]
pub struct Layer {
    /// The distance (unit costs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    /// The cheapest cost (a weighted table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<u32>,
    /// States there.
    pub states: u64,
    /// Their share of all states (a fraction of 1).
    pub share: f64,
    /// The share at this distance or less.
    pub cumulative: f64,
}

impl<'a> Stats<'a> {
    /// The record of `stats` for `goal` of the table named `table` (`weighted`: its figures
    /// are cheapest costs).
    pub fn new(
        table: String,
        goal: &'a Layout,
        stats: &HistogramStats,
        weighted: bool,
    ) -> Stats<'a> {
        let measure = Measure::of(weighted);
        let layers: Vec<Layer> = stats
            .layers
            .iter()
            .map(|l| {
                let (distance, cost) = measure.split(l.distance);
                Layer {
                    distance,
                    cost,
                    states: l.states,
                    share: l.share,
                    cumulative: l.cumulative,
                }
            })
            .collect();
        let (max_distance, max_cost) = measure.split(stats.max);
        let (distances, costs) = if weighted {
            (None, Some(layers))
        } else {
            (Some(layers), None)
        };
        Stats {
            table,
            board: goal.board().to_string(),
            goal: goal.tiles(),
            states: stats.states,
            mean: stats.mean,
            median: stats.median,
            max_distance,
            max_cost,
            distances,
            costs,
        }
    }
}

/// Writes the CSV of a histogram's `layers`: `distance,states,share,cumulative` (`cost,…` on
/// a weighted table) and a row per distance (cost); a whole table's and a table within `D`
/// moves' alike.
pub fn write_stats_csv(
    out: &mut impl Write,
    layers: &[LayerStats],
    measure: Measure,
) -> io::Result<()> {
    writeln!(out, "{},states,share,cumulative", measure.name())?;
    for l in layers {
        writeln!(
            out,
            "{},{},{},{}",
            l.distance, l.states, l.share, l.cumulative
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_strings_exact_past_two_to_the_53() {
        let mut out = Vec::new();
        line(&mut out, &Seed(u64::MAX));
        assert_eq!(out, b"\"18446744073709551615\"\n");
    }

    #[test]
    fn costs_are_never_called_distances_nor_counted_in_moves() {
        assert_eq!(Measure::of(false).amount(1), "1 move");
        assert_eq!(Measure::of(false).amount(15), "15 moves");
        assert_eq!(Measure::of(true).amount(15), "cost 15");
        assert_eq!(Measure::of(true).name(), "cost");
        assert_eq!(Measure::Cost.split(3), (None, Some(3)));
        assert_eq!(Measure::Distance.split(3), (Some(3), None));
        assert_eq!(
            csv_header(true, Measure::Cost),
            b"puzzle,cost,path,solvable\n"
        );
    }

    #[test]
    fn a_bad_line_names_its_number_and_what_is_wrong() {
        let mut out = Vec::new();
        bad_line(&mut out, 3, "expected 9 tiles").unwrap();
        assert_eq!(out, b"{\"line\":3,\"error\":\"expected 9 tiles\"}\n");
    }
}
