//! `info`: what a table file holds.

use std::fmt::Display;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use slidetable::core::counted;
use slidetable::query::{AnyTable, CostModel, Encoding, MappedPatternTable, TableError};

use crate::json::Measure;
use crate::resolved::{Described, Info};
use crate::streams;
use crate::streams::warning;

#[derive(Serialize)]
struct InfoJson<'a> {
    path: String,
    board: String,
    encoding: &'static str,
    cost: &'static str,
    file_size: u64,
    sections: Vec<SectionJson<'a>>,
    /// `null` unless `--verify` was given.
    checksum_ok: Option<bool>,
}

#[derive(Serialize)]
struct SectionJson<'a> {
    goal: &'a [u8],
    entries: u64,
    /// Unit costs: the largest distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_distance: Option<u32>,
    /// A weighted table: the largest cheapest cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_cost: Option<u32>,
    histogram: &'a [u64],
}

pub(crate) fn run(info: Info) -> Result<ExitCode> {
    let Info {
        table,
        path,
        verify,
        json,
    } = info;
    let table = match table {
        Described::TwentyFour(databases) => return twentyfour(&databases, verify, json),
        Described::Table(AnyTable::Patterns(databases)) => {
            return pattern_database(&databases, verify, json)
        }
        Described::Table(AnyTable::Table(table)) => table,
        Described::Table(AnyTable::Bounded(table)) => {
            let path = table.file().map_or(path, Path::to_path_buf);
            return Ok(match crate::bounded::info(&table, &path, verify, json)? {
                Some(e) => {
                    warning!("{e}");
                    ExitCode::FAILURE
                }
                None => ExitCode::SUCCESS,
            });
        }
    };
    let path = table.file().map_or(path, Path::to_path_buf);
    let header = table.header();
    // The checksums, then each section's entries against its histogram (damage under
    // checksums made again, which only the counts show).
    let checksum = verify.then(|| table.verify().and_then(|()| table.verify_counts()));
    let checksum_ok = checksum.as_ref().map(Result::is_ok);
    let mut out = streams::stdout();
    let measure = Measure::of(header.cost() != CostModel::Unit);
    if json {
        let info = InfoJson {
            path: path.display().to_string(),
            board: header.board().to_string(),
            encoding: header.encoding().name(),
            cost: header.cost().name(),
            file_size: header.file_len(),
            sections: header
                .sections()
                .iter()
                .map(|s| {
                    let (max_distance, max_cost) = measure.split(s.max_distance());
                    SectionJson {
                        goal: s.goal().tiles(),
                        entries: s.entries(),
                        max_distance,
                        max_cost,
                        histogram: s.histogram(),
                    }
                })
                .collect(),
            checksum_ok,
        };
        write_json(&mut out, &info)?;
    } else {
        write_file(&mut out, &path, header.board())?;
        let (what, first) = match header.cost() {
            CostModel::Unit => ("distance", "an optimal path"),
            CostModel::Tile => ("cheapest cost", "a cheapest path"),
        };
        let encoding = match header.encoding() {
            Encoding::Byte => format!("one byte per state: {what} and first move of {first}"),
            Encoding::Wide16 => format!("16 bits per state: {what} and first move of {first}"),
            Encoding::TwoBit => format!(
                "2 bits per state: {what} mod 3, walked to the goal for distances and paths"
            ),
        };
        writeln!(out, "encoding  {} ({encoding})", header.encoding())?;
        let cost = match header.cost() {
            CostModel::Unit => "every move costs 1",
            CostModel::Tile => "moving tile k costs k",
        };
        writeln!(out, "cost      {} ({cost})", header.cost())?;
        writeln!(out, "size      {} bytes", header.file_len())?;
        write_checksum(&mut out, &checksum)?;
        writeln!(out, "sections  {}", header.sections().len())?;
        for (i, s) in header.sections().iter().enumerate() {
            writeln!(out)?;
            writeln!(out, "section {i}: goal {}", s.goal())?;
            writeln!(out, "  entries       {}", s.entries())?;
            let max = s.max_distance();
            write_histogram(&mut out, measure.max_name(), max, "state", s.histogram())?;
        }
    }
    end(out, checksum)
}

/// `info --json`'s record, on one line, for every kind of file.
fn write_json(out: &mut impl Write, record: &impl Serialize) -> Result<()> {
    serde_json::to_writer(&mut *out, record)?;
    writeln!(out)?;
    Ok(())
}

/// The first lines of `info`'s text, for every kind of file: where it is and its board.
fn write_file(out: &mut impl Write, path: &Path, board: impl Display) -> io::Result<()> {
    writeln!(out, "table     {}", path.display())?;
    writeln!(out, "board     {board}")
}

/// The checksum line of `info`'s text: not checked, ok, or what failed.
fn write_checksum(
    out: &mut impl Write,
    checksum: &Option<Result<(), TableError>>,
) -> io::Result<()> {
    match checksum {
        None => writeln!(out, "checksum  not checked (use --verify)"),
        Some(Ok(())) => writeln!(out, "checksum  ok"),
        Some(Err(e)) => writeln!(out, "checksum  FAILED: {}", e.kind),
    }
}

/// A section's largest value (`max distance` or `max value`), how many of `unit` have it
/// (`1 state`, `2 states`), and the whole histogram.
fn write_histogram(
    out: &mut impl Write,
    max_label: &str,
    max: u32,
    unit: &str,
    histogram: &[u64],
) -> io::Result<()> {
    writeln!(
        out,
        "  {max_label:<14}{max} ({})",
        counted(histogram[max as usize], unit)
    )?;
    let hist: Vec<String> = histogram.iter().map(u64::to_string).collect();
    writeln!(out, "  histogram     {}", hist.join(" "))
}

/// The end of `info`: its output flushed, and a failed checksum reported and exit 1.
fn end<E: Display>(mut out: impl Write, checksum: Option<Result<(), E>>) -> Result<ExitCode> {
    out.flush()?;
    match checksum {
        Some(Err(e)) => {
            warning!("{e}");
            Ok(ExitCode::FAILURE)
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

#[derive(serde::Serialize)]
struct PatternInfoJson {
    path: String,
    board: String,
    encoding: &'static str,
    /// The group sizes in the file's order: `7-8`, `6-6-3`.
    partition: String,
    goal: Vec<u8>,
    file_size: u64,
    groups: Vec<GroupJson>,
    /// `null` unless `--verify` was given.
    checksum_ok: Option<bool>,
}

#[derive(serde::Serialize)]
struct GroupJson {
    tiles: Vec<u8>,
    entries: u64,
    max_value: u32,
    histogram: Vec<u64>,
}

/// `info` on a pattern database: its goal, groups and histograms, checksum on request.
fn pattern_database(table: &MappedPatternTable, verify: bool, as_json: bool) -> Result<ExitCode> {
    let path = table.file().unwrap_or(Path::new("?"));
    let header = table.header();
    let checksum = verify.then(|| table.verify());
    let checksum_ok = checksum.as_ref().map(Result::is_ok);
    let partition = slidetable::format::group_sizes(header.sections().iter().map(|s| s.tiles()));
    let mut out = streams::stdout();
    if as_json {
        let info = PatternInfoJson {
            path: path.display().to_string(),
            board: header.board().to_string(),
            encoding: "pattern4",
            partition,
            goal: header.goal().tiles().to_vec(),
            file_size: header.file_len(),
            groups: header
                .sections()
                .iter()
                .map(|s| GroupJson {
                    tiles: s.group(),
                    entries: s.entries(),
                    max_value: s.max_value(),
                    histogram: s.histogram().to_vec(),
                })
                .collect(),
            checksum_ok,
        };
        write_json(&mut out, &info)?;
    } else {
        write_file(&mut out, path, header.board())?;
        writeln!(
            out,
            "encoding  pattern4 (pattern database {partition}: 4 bits per placement, the moves of the group's tiles above their Manhattan distance, halved)"
        )?;
        writeln!(out, "goal      {}", header.goal())?;
        writeln!(out, "size      {} bytes", header.file_len())?;
        write_checksum(&mut out, &checksum)?;
        writeln!(out, "groups    {}", header.sections().len())?;
        for (i, s) in header.sections().iter().enumerate() {
            let tiles: Vec<String> = s.group().iter().map(u8::to_string).collect();
            writeln!(out)?;
            writeln!(out, "group {i}: tiles {}", tiles.join(" "))?;
            writeln!(out, "  placements    {}", s.entries())?;
            write_histogram(
                &mut out,
                "max value",
                s.max_value(),
                "placement",
                s.histogram(),
            )?;
        }
    }
    end(out, checksum)
}

#[derive(serde::Serialize)]
struct TwentyFourInfoJson {
    path: String,
    board: String,
    encoding: &'static str,
    /// The group sizes in the file's order: `6-6-6-6`.
    partition: String,
    goal: Vec<u8>,
    /// Whether the solver also looks the databases up on the reflected board.
    reflected: bool,
    file_size: u64,
    groups: Vec<Group25Json>,
    /// `null` unless `--verify` was given.
    checksum_ok: Option<bool>,
}

#[derive(serde::Serialize)]
struct Group25Json {
    tiles: Vec<u8>,
    entries: u64,
    bytes: u64,
    max_value: u32,
    histogram: Vec<u64>,
}

/// `info` on the 24-puzzle's databases (`SLIDEP25`): goal, reflection, groups and their
/// histograms, the entries' checksum on request.
fn twentyfour(databases: &slidetable::TwentyFour, verify: bool, as_json: bool) -> Result<ExitCode> {
    let path = databases.file().unwrap_or(Path::new("?"));
    let header = databases.header();
    // The error's words: all `info` does with it is print them.
    let checksum = verify.then(|| databases.verify().map_err(|e| e.to_string()));
    let checksum_ok = checksum.as_ref().map(Result::is_ok);
    let partition = databases.sizes();
    let goal = databases.goal();
    let board = format!("{}x{}", goal.rows(), goal.cols());
    let reflected = databases.reflects();
    let groups: Vec<Group25Json> = header
        .groups()
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let entries = header.entries(databases.bytes(), i).len() as u64;
            Group25Json {
                tiles: slidetable::core::mask_tiles_25(g.tiles).collect(),
                entries,
                bytes: entries,
                max_value: g.histogram.len().saturating_sub(1) as u32,
                histogram: g.histogram.clone(),
            }
        })
        .collect();
    let mut out = streams::stdout();
    if as_json {
        let info = TwentyFourInfoJson {
            path: path.display().to_string(),
            board,
            encoding: "pattern25",
            partition,
            goal: goal.tiles().to_vec(),
            reflected,
            file_size: databases.len(),
            groups,
            checksum_ok,
        };
        write_json(&mut out, &info)?;
    } else {
        write_file(&mut out, path, &board)?;
        writeln!(
            out,
            "encoding  pattern25 (pattern database {partition}: one byte per placement, the moves of the group's tiles)"
        )?;
        writeln!(out, "goal      {goal}")?;
        let reflection = if reflected {
            "yes (each search also looks the databases up on the board reflected about its main diagonal, and takes the larger sum)"
        } else {
            "no (the board is not square, or the goal's blank is off its main diagonal)"
        };
        writeln!(out, "reflected {reflection}")?;
        writeln!(out, "size      {} bytes", databases.len())?;
        match &checksum {
            None => writeln!(out, "checksum  not checked (use --verify)")?,
            Some(Ok(())) => writeln!(out, "checksum  ok")?,
            Some(Err(e)) => writeln!(out, "checksum  FAILED: {e}")?,
        }
        writeln!(out, "groups    {}", groups.len())?;
        for (i, g) in groups.iter().enumerate() {
            let tiles: Vec<String> = g.tiles.iter().map(u8::to_string).collect();
            writeln!(out)?;
            writeln!(out, "group {i}: tiles {}", tiles.join(" "))?;
            writeln!(out, "  placements    {}", g.entries)?;
            writeln!(out, "  bytes         {}", g.bytes)?;
            write_histogram(
                &mut out,
                "max value",
                g.max_value,
                "placement",
                &g.histogram,
            )?;
        }
    }
    end(out, checksum)
}
