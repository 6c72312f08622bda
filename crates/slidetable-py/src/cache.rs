//! The default tables, as the command line finds them: `$SLIDETABLE_TABLE` for the 3×3
//! board, else `slidetable/RxC.slt` in the cache directory, generated on first use under the
//! same lock file the command line takes (`.RxC.slt.lock` beside it), so a notebook and a
//! `slidetable` run that both find it missing build it once. A default table must be for the
//! board asked for, with unit costs, as the command line requires.

use std::fs::{self, File};
use std::path::{Path, PathBuf};

use pyo3::exceptions::PyOSError;
use pyo3::PyResult;
use slidetable_core::Board;
use slidetable_gen::cache::{generate, resolve, Origin, Plan, TABLE_ENV};
use slidetable_gen::{solve_partition, write_pattern_table, Partition};
use slidetable_query::{CostModel, MappedPatternTable, MappedTable, PatternTable, Table};

use crate::errors::{gen_error, table_error, value_error};

/// The partition the 4×4 database is made with on first use (the command line's default).
pub(crate) const DEFAULT_PARTITION: &str = "7-8";

/// The default table of `board`, generated on first use.
pub(crate) fn table(board: Board) -> PyResult<MappedTable> {
    let (path, origin) = resolve(None, board).map_err(gen_error)?;
    if origin == Origin::Cache && !path.exists() {
        let _lock = lock(&path)?;
        if !path.exists() {
            generate(&Plan::default_for(board), &path, &|_| ()).map_err(gen_error)?;
        }
    }
    let table = Table::open(&path).map_err(table_error)?;
    let problem = if table.board() != board {
        Some(format!("is for {} boards", table.board()))
    } else if table.header().cost() != CostModel::Unit {
        Some(format!("holds {} costs", table.header().cost()))
    } else {
        None
    };
    if let Some(problem) = problem {
        let from = match origin {
            Origin::Environment => format!("from ${TABLE_ENV}"),
            _ => "the cache's".to_string(),
        };
        return Err(value_error(format!(
            "table {} ({from}) {problem}, but the default table must be for {board} boards \
             with unit costs",
            path.display()
        )));
    }
    Ok(table)
}

/// The default pattern database of `board` (the cache's `RxC.slt`), made with
/// [`DEFAULT_PARTITION`] on first use.
pub(crate) fn patterns(board: Board) -> PyResult<MappedPatternTable> {
    let (path, origin) = resolve(None, board).map_err(gen_error)?;
    if origin == Origin::Cache && !path.exists() {
        let _lock = lock(&path)?;
        if !path.exists() {
            let goal = board.goal_with_blank(0);
            let partition = Partition::parse(DEFAULT_PARTITION, &goal).map_err(value_error)?;
            let sections = solve_partition(&goal, &partition, &|_| ()).map_err(gen_error)?;
            write_pattern_table(&path, &sections).map_err(gen_error)?;
        }
    }
    PatternTable::open(&path).map_err(table_error)
}

/// The lock on the cache table at `path` (its directory made first), held until dropped:
/// waits while another process holds it.
fn lock(path: &Path) -> PyResult<File> {
    let os = |what: String, e: std::io::Error| PyOSError::new_err(format!("{what}: {e}"));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| os(format!("cannot create directory {}", dir.display()), e))?;
    }
    let at = lock_path(path);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&at)
        .map_err(|e| os(format!("cannot open lock file {}", at.display()), e))?;
    file.lock()
        .map_err(|e| os(format!("cannot lock {}", at.display()), e))?;
    Ok(file)
}

/// The lock file of the table at `path`: `.NAME.lock` beside it, as the command line names it.
fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".to_string());
    path.with_file_name(format!(".{name}.lock"))
}
