//! `serve`: the classroom page and its JSON API (the work is `slidetable_serve`'s; this reads
//! the arguments, runs the server and prints its URL).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use slidetable_core::Board;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on; the default answers this machine only. Port 0 lets the
    /// system choose one (the URL printed names it).
    #[arg(long, value_name = "ADDR:PORT", default_value = slidetable_serve::DEFAULT_BIND)]
    pub bind: SocketAddr,
    /// A table to serve (repeatable, one per board); every other board uses its default
    /// table, generated in the cache directory on first use.
    #[arg(long, value_name = "PATH")]
    pub table: Vec<PathBuf>,
    /// Open this board's table before listening (repeatable) [default: 3x3].
    #[arg(long, value_name = "RxC", value_parser = parse_board)]
    pub board: Vec<Board>,
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
    Ok(board)
}

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    let config = slidetable_serve::Config {
        bind: args.bind,
        tables: args.table.clone(),
        preload: if args.board.is_empty() {
            vec![Board::EIGHT]
        } else {
            args.board.clone()
        },
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
    let served = runtime.block_on(slidetable_serve::serve(&config, |url| {
        let mut out = std::io::stdout().lock();
        // The URL is the one line a user (or a script) waits for: flushed at once.
        let _ = writeln!(out, "slidetable: serving {url} (Ctrl-C stops)");
        let _ = out.flush();
    }));
    // Work still running after the grace period (a table being generated) is abandoned.
    runtime.shutdown_background();
    served?;
    Ok(ExitCode::SUCCESS)
}
