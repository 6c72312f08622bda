//! `search`: the seeds' algorithms at query time, with the same input and output as `path`.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use slidetable::core::{counted, path_string, Move};
use slidetable::search::{
    effective_branching_factor, solve, solve_with_patterns, HeuristicKind, Limit, Limits,
    SearchError, Stats,
};

use crate::answers::{self, write_invalid};
use crate::cli::HeuristicChoice;
use crate::error::{Interrupted, EXIT_INTERRUPTED};
use crate::json::{self, Record, SearchSetup, SearchStats, SearchSummary, SearchSummaryLine};
use crate::puzzles::each_puzzle;
use crate::resolved::{Answer, Output, PatternSource, Search};
use crate::show::Printed;
use crate::streams::{note, warning};
use crate::{signals, streams};

pub(crate) fn run(search: Search<'_>) -> Result<ExitCode> {
    let Search {
        method,
        board,
        goal,
        limits,
        heuristic: choice,
        patterns,
        output,
        stats: with_stats,
        summary: summary_file,
        input,
        keep_going,
    } = search;
    let pattern = patterns.as_ref().map(|s| s.heuristic(&goal)).transpose()?;
    let kind = match choice {
        HeuristicChoice::Kind(k) => k,
        HeuristicChoice::Pattern(_) => HeuristicKind::Manhattan,
    };
    let heuristic = method.uses_heuristic().then(|| choice.to_string());
    let partition = patterns.as_ref().map(PatternSource::partition);
    let database = patterns.as_ref().map(|p| p.database());
    let setup = SearchSetup {
        method: method.name(),
        heuristic: heuristic.as_deref(),
        partition: partition.as_deref(),
        database: database.as_ref().map(|d| d.as_deref()),
    };
    let mut out = streams::stdout();
    if output == Output::Csv {
        out.write_all(csv_header(with_stats).as_bytes())?;
    }
    let summary_file = SummaryFile::create(summary_file)?;
    let ctrl_c = signals::stop_on_ctrl_c();
    let limits = Limits {
        stop: Some(ctrl_c.stop()),
        ..limits
    };
    let mut tally = Tally::new(setup);
    let mut buf = Vec::with_capacity(256);
    let run = each_puzzle(
        input,
        board,
        keep_going,
        &mut out,
        |start, line, out| {
            // Ctrl-C between two searches: the run ends before the next.
            if ctrl_c.requested() {
                return Err(Interrupted.into());
            }
            let searching = ctrl_c.searching();
            let outcome = match &pattern {
                Some(h) => solve_with_patterns(method, h, start, &limits),
                None => solve(method, kind, start, &goal, &limits),
            };
            drop(searching);
            // What the answer is: the path (None when there is none), whether the goal can
            // be reached, what the search cost (a search given up cost something too), and
            // why there is no answer when a limit stopped it.
            let (path, solvable, stats, error) = match outcome {
                Ok(solution) => (Some(solution.path), true, Some(solution.stats), None),
                Err(SearchError::Unsolvable { .. }) => (None, false, None, None),
                Err(e @ SearchError::LimitReached { .. }) => {
                    let message = e.to_string();
                    let SearchError::LimitReached { limit, stats } = e else {
                        return Err(e.into());
                    };
                    let option = match limit {
                        Limit::Memory(_) => " (the limit is --max-memory)",
                        Limit::Stopped => " (Ctrl-C)",
                        _ => "",
                    };
                    warning!("{line}: {message}{option}");
                    (None, true, Some(stats), Some(message))
                }
                // Any other failure (a damaged database the search finds) ends the run,
                // naming the line as every message about one does.
                Err(e) => return Err(anyhow::Error::from(e).context(line.to_string())),
            };
            let depth = path.as_ref().map(|p| p.len() as u32);
            tally.add(depth, solvable, stats.as_ref());
            let figures = stats
                .as_ref()
                .filter(|_| with_stats)
                .map(|s| SearchStats::of(s, depth));
            buf.clear();
            let answer = Found {
                path: path.as_deref(),
                solvable,
                figures,
                error,
            };
            write_record(&mut buf, output, start, answer, &setup, with_stats);
            if let (Output::Text, true, Some(s), Some(d)) = (output, with_stats, &stats, depth) {
                note!("{line}: {}", stats_text(&setup, s, d));
            }
            out.write_all(&buf)?;
            match ctrl_c.requested() {
                true => Err(Interrupted.into()),
                false => Ok(()),
            }
        },
        |line, what, out| write_invalid_record(out, output, with_stats, line, what),
    );
    // Stopped by Ctrl-C: the answers so far and the summary are written, then exit 130.
    let code = match run {
        Err(e) if e.is::<Interrupted>() => ExitCode::from(EXIT_INTERRUPTED),
        run => run?,
    };
    out.flush()?;
    tally.end(summary_file, with_stats, output, code)
}

/// `--summary FILE`, made before any puzzle is searched: a path that cannot be written is
/// refused before the work, not after it with the summary lost.
pub(crate) struct SummaryFile {
    path: PathBuf,
    file: File,
}

impl SummaryFile {
    /// Makes (or empties) `path`, if given.
    pub(crate) fn create(path: Option<&Path>) -> Result<Option<SummaryFile>> {
        path.map(|path| {
            let file = File::create(path)
                .with_context(|| format!("--summary: cannot write {}", path.display()))?;
            Ok(SummaryFile {
                path: path.to_path_buf(),
                file,
            })
        })
        .transpose()
    }
}

/// What `search` counts over every puzzle for its summary (`--stats` with `--json` or
/// `--csv`, or `--summary FILE`), on every board.
pub(crate) struct Tally<'a> {
    summary: SearchSummary<'a>,
    /// The sum and the count of the effective branching factors.
    factors: (f64, u64),
}

impl<'a> Tally<'a> {
    pub(crate) fn new(setup: SearchSetup<'a>) -> Tally<'a> {
        Tally {
            summary: SearchSummary {
                setup,
                ..SearchSummary::default()
            },
            factors: (0.0, 0),
        }
    }

    /// One puzzle: solved in `depth` moves (`None`: unsolvable, or given up when
    /// `solvable`), what its search cost.
    pub(crate) fn add(&mut self, depth: Option<u32>, solvable: bool, stats: Option<&Stats>) {
        let summary = &mut self.summary;
        summary.puzzles += 1;
        match (depth, solvable) {
            (Some(_), _) => summary.solved += 1,
            (None, false) => summary.unsolvable += 1,
            (None, true) => summary.unknown += 1,
        }
        if let Some(s) = stats {
            summary.expanded += s.expanded;
            summary.generated += s.generated;
            summary.milliseconds += s.elapsed.as_secs_f64() * 1e3;
            if let Some(b) = depth.and_then(|d| effective_branching_factor(s.generated, d)) {
                self.factors.0 += b;
                self.factors.1 += 1;
            }
        }
    }

    /// Writes the summary (to `file`, or with `--stats` beside JSON or CSV records on
    /// stderr), and the run's exit code: `code`, or 1 when a search gave up.
    pub(crate) fn end(
        mut self,
        file: Option<SummaryFile>,
        with_stats: bool,
        output: Output,
        code: ExitCode,
    ) -> Result<ExitCode> {
        let factors = self.factors;
        self.summary.mean_branching_factor = (factors.1 > 0).then(|| factors.0 / factors.1 as f64);
        let gave_up = self.summary.unknown;
        let mut line = Vec::new();
        json::line(
            &mut line,
            &SearchSummaryLine {
                summary: self.summary,
            },
        );
        match file {
            Some(mut summary) => summary
                .file
                .write_all(&line)
                .with_context(|| format!("--summary: cannot write {}", summary.path.display()))?,
            // Beside the records, not among them: standard output holds one per puzzle. (The
            // text output's statistics are already one line per puzzle on stderr.)
            None if with_stats && output != Output::Text => {
                note!("{}", String::from_utf8_lossy(line.trim_ascii_end()))
            }
            None => {}
        }
        if gave_up > 0 && code == ExitCode::SUCCESS {
            match gave_up {
                1 => warning!("1 search stopped at a limit; its answer reads `unknown`"),
                n => warning!("{n} searches stopped at a limit; their answers read `unknown`"),
            }
            return Ok(ExitCode::FAILURE);
        }
        Ok(code)
    }
}

/// What a search found for one puzzle, as its record gives it.
pub(crate) struct Found<'a> {
    /// The path (`None`: none found).
    pub(crate) path: Option<&'a [Move]>,
    /// Whether the goal can be reached.
    pub(crate) solvable: bool,
    /// The search's figures (with `--stats`).
    pub(crate) figures: Option<SearchStats>,
    /// Why there is no answer although the puzzle is solvable (a limit).
    pub(crate) error: Option<String>,
}

/// One puzzle's answer as `search` writes it on every board, into `buf`: the path (or
/// `unsolvable`, `unknown`), a JSON record, or a CSV row (`path --csv`'s columns, then the
/// setup's and with `--stats` the figures').
pub(crate) fn write_record<P: Printed>(
    buf: &mut Vec<u8>,
    output: Output,
    start: &P,
    found: Found<'_>,
    setup: &SearchSetup<'_>,
    with_stats: bool,
) {
    let Found {
        path,
        solvable,
        figures,
        error,
    } = found;
    let depth = path.map(|p| p.len() as u32);
    match output {
        Output::Json => {
            let moves = path.map(path_string);
            json::line(
                buf,
                &Record {
                    puzzle: start.tiles(),
                    distance: Some(depth),
                    path: Some(moves.as_deref()),
                    solvable,
                    stats: figures,
                    error,
                    search: Some(*setup),
                    ..Record::default()
                },
            );
        }
        Output::Csv => {
            answers::write_csv_row(buf, start, Answer::Path, depth, path, solvable);
            // The row goes on past `path`'s columns.
            buf.pop();
            write_csv_setup(buf, setup);
            if with_stats {
                write_csv_stats(buf, figures.as_ref());
            }
            buf.push(b'\n');
        }
        _ => {
            match (path, solvable) {
                (Some(p), _) => buf.extend_from_slice(path_string(p).as_bytes()),
                (None, false) => buf.extend_from_slice(b"unsolvable"),
                (None, true) => buf.extend_from_slice(b"unknown"),
            }
            buf.push(b'\n');
        }
    }
}

/// What `search` answers bad line `line` with under `--keep-going`.
pub(crate) fn write_invalid_record(
    out: &mut impl Write,
    output: Output,
    with_stats: bool,
    line: u64,
    what: &str,
) -> std::io::Result<()> {
    match output {
        Output::Csv => out.write_all(if with_stats {
            b"invalid,,,,,,,,,,,,,,\n"
        } else {
            b"invalid,,,,,,,\n"
        }),
        _ => write_invalid(out, output == Output::Json, line, what),
    }
}

/// The text of `--stats` for one solved puzzle, on standard error, on every board: how it
/// was searched (`idastar/linear-conflict`; a pattern database by its partition,
/// `idastar/pdb-6-6-3`), then its figures.
pub(crate) fn stats_text(setup: &SearchSetup<'_>, s: &Stats, depth: u32) -> String {
    let how = match (setup.heuristic, setup.partition) {
        (Some("pdb"), Some(partition)) => format!("{}/pdb-{partition}", setup.method),
        (Some(heuristic), _) => format!("{}/{heuristic}", setup.method),
        (None, _) => setup.method.to_string(),
    };
    let mut text = format!(
        "{how}: {}, {} expanded, {} generated, peak open {}",
        json::Measure::Distance.amount(depth),
        s.expanded,
        s.generated,
        s.peak_open
    );
    if let Some(i) = s.iterations {
        text += &format!(", {}", counted(u64::from(i), "iteration"));
    }
    if let Some(b) = effective_branching_factor(s.generated, depth) {
        text += &format!(", b* {b:.3}");
    }
    text += &format!(", {:.3} ms", s.elapsed.as_secs_f64() * 1e3);
    text
}

/// `search --csv`'s header: `path --csv`'s columns, how the search was made, and with
/// `--stats` its figures.
pub(crate) fn csv_header(stats: bool) -> String {
    let mut header = String::from_utf8_lossy(json::csv_header(true, json::Measure::Distance))
        .trim_end()
        .to_string();
    header += ",method,heuristic,partition,database";
    if stats {
        header += ",expanded,generated,peak_open,iterations,bound,milliseconds,branching_factor";
    }
    header.push('\n');
    header
}

/// The method, heuristic, partition and database columns (empty where there is none).
fn write_csv_setup(buf: &mut Vec<u8>, setup: &SearchSetup<'_>) {
    for field in [
        Some(setup.method),
        setup.heuristic,
        setup.partition,
        setup.database.flatten(),
    ] {
        buf.push(b',');
        buf.extend_from_slice(json::csv_field(field.unwrap_or("")).as_bytes());
    }
}

/// The `--stats` columns; empty for an unsolvable puzzle.
fn write_csv_stats(buf: &mut Vec<u8>, stats: Option<&SearchStats>) {
    let Some(s) = stats else {
        buf.extend_from_slice(b",,,,,,,");
        return;
    };
    let optional = |v: Option<String>| v.unwrap_or_default();
    buf.extend_from_slice(
        format!(
            ",{},{},{},{},{},{:.3},{}",
            s.expanded,
            s.generated,
            s.peak_open,
            optional(s.iterations.map(|i| i.to_string())),
            optional(s.bound.map(|b| b.to_string())),
            s.milliseconds,
            optional(s.branching_factor.map(|b| format!("{b:.4}"))),
        )
        .as_bytes(),
    );
}
