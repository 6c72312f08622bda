//! What a table's search is asked for: the board, its goals, the entry encoding and what a
//! move costs. The cache's generation and the memory and disk check both take it.

use slidetable_core::{Board, Layout};
use slidetable_format::{CostModel, Encoding};

use crate::default_goals;

/// What to generate: the goals, the entry encoding (`None`: the board's default) and what a
/// move costs.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The board.
    pub board: Board,
    /// One section per goal.
    pub goals: Vec<Layout>,
    /// The entry encoding; `None` for the board's default.
    pub encoding: Option<Encoding>,
    /// What a move costs.
    pub cost: CostModel,
}

impl Plan {
    /// The default table of `board`: one section per blank cell up to 10 cells, the standard
    /// goal for 11 and 12; unit costs; the board's default encoding.
    pub fn default_for(board: Board) -> Plan {
        Plan {
            board,
            goals: default_goals(board),
            encoding: None,
            cost: CostModel::Unit,
        }
    }

    /// The states the search settles (all sections), for a progress display.
    pub fn total_states(&self) -> u64 {
        self.board.reachable_states() * self.goals.len() as u64
    }
}
