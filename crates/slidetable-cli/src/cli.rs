//! The command line: names here are the interface scripts depend on.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use slidetable_core::Board;

/// Exact answers for sliding-tile puzzles from a precomputed table of every state.
#[derive(Parser, Debug)]
#[command(name = "slidetable", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 success, 1 failure (unreadable file, bad table), \
                        2 bad arguments, 65 a bad puzzle line in the input."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Search every state backwards from the goals and write the table file.
    Generate(GenerateArgs),
    /// Describe a table file: board, sections, histograms, size; --verify checks its checksum.
    Info(InfoArgs),
    /// Print the fewest moves to 1 2 3 4 5 6 7 8 0 for each puzzle, or -1 if unreachable.
    Distance(BatchArgs),
    /// Print an optimal move string (u d l r: where the blank goes) for each puzzle,
    /// an empty line if already solved, or `unsolvable`.
    Path(BatchArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Board size, rows x columns.
    #[arg(long, default_value = "3x3", value_parser = parse_board)]
    pub board: Board,
    /// Where to write the table [default: $SLIDETABLE_TABLE, else the cache directory's
    /// slidetable/3x3.slt].
    #[arg(short = 'o', long = "output", value_name = "PATH")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The table file [default: as for `distance`].
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// Read the whole payload and check its checksum (exit 1 if it does not hold).
    #[arg(long)]
    pub verify: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The table file [default: $SLIDETABLE_TABLE, else the cache directory's
    /// slidetable/3x3.slt, generated on first use].
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// On a bad line print `invalid`, report it on stderr and go on (exit 65 at the end).
    #[arg(long)]
    pub keep_going: bool,
    /// Puzzles, one per line: 9 tokens (`2 3 4 1 5 x 7 6 8`, commas allowed) or one string
    /// (`23415x768`); blank is 0 or x; empty lines and # comments are skipped. `-` or
    /// nothing reads standard input.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

fn parse_board(s: &str) -> Result<Board, String> {
    let board: Board = s
        .parse()
        .map_err(|e: slidetable_core::BoardError| e.to_string())?;
    if !board.supports_tables() {
        return Err(format!(
            "a {board} board has {} cells; tables go up to {} cells",
            board.cells(),
            slidetable_core::MAX_TABLE_CELLS
        ));
    }
    if board.cells() > 10 {
        return Err(format!(
            "{board} tables need the compact 2-bit encoding, which this version does not have yet \
             (boards up to 10 cells work)"
        ));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
