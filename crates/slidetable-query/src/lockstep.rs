//! [`Lockstep`]: many puzzles answered together, for batches. A path is a chain of dependent
//! reads (entry → move → rank → entry), each waiting on the last; walking a block of puzzles
//! a step each in turn lets the reads of different walks overlap. The answers, and the
//! contradictions a walk refuses, are exactly those of [`Goal::distance`] and
//! [`Goal::path_into`].

use slidetable_core::{slide, Move, Steps};
use slidetable_format::{byte_distance, byte_move};

use crate::walk::Walk;
use crate::{CostModel, Encoding, Goal, QueryError, Section};

/// A goal whose answers can be given a block of puzzles at a time: its section holds byte
/// entries (distance and first move) at unit cost, every block of its table is verified, and
/// its goal is the section's own (no relabelling). Puzzles are given in
/// [`slidetable_core::Layout::packed`] form with their blank's cell, on the table's board.
#[derive(Clone, Copy)]
pub struct Lockstep<'a> {
    section: Section<'a>,
    /// The walks' steps by tile order, on boards of at most 9 cells.
    steps: Option<Steps>,
}

/// A walk of [`Lockstep::paths`] under way.
#[derive(Clone, Copy)]
struct Lane {
    /// Where it stands, as its [`Mover`] keeps it, and its rank.
    state: u64,
    rank: u64,
    /// Where its next letter goes in the text.
    write: usize,
    /// The stored move where it stands, and its distance.
    value: u32,
    m: Move,
    blank: u8,
    /// Its puzzle's index in the block.
    index: u32,
}

/// How a walk moves from one layout to the next and ranks it: by the packed layout and the
/// ranker's step (any board), or by the tile order of [`Steps`] (boards of at most 9 cells:
/// the fewest instructions a step).
trait Mover {
    /// The walk's state at the layout `packed`, its blank in `blank`.
    fn state(&self, packed: u64, blank: usize) -> u64;

    /// Move `m` from `state` (blank in `blank`, rank `rank`): the new state, blank and rank,
    /// or `None` when the move leaves the board.
    fn step(&self, state: u64, blank: usize, rank: u64, m: Move) -> Option<(u64, usize, u64)>;

    /// The packed layout of `state` (for the message of a contradiction).
    fn packed(&self, state: u64, blank: usize) -> u64;
}

/// Walks by the packed layout.
struct ByLayout<'s, 'a>(&'s Section<'a>);

impl Mover for ByLayout<'_, '_> {
    #[inline(always)]
    fn state(&self, packed: u64, _: usize) -> u64 {
        packed
    }

    #[inline(always)]
    fn step(&self, state: u64, blank: usize, rank: u64, m: Move) -> Option<(u64, usize, u64)> {
        let to = self.0.neighbors.of(blank, m)?;
        let moved = slide(state, blank, to);
        Some((
            moved,
            to,
            self.0.ranker.step_unpredictable(rank, m, moved, to),
        ))
    }

    fn packed(&self, state: u64, _: usize) -> u64 {
        state
    }
}

/// Walks by the tile order, on a board of `.1` cells.
struct ByOrder<'s>(&'s Steps, usize);

impl Mover for ByOrder<'_> {
    #[inline(always)]
    fn state(&self, packed: u64, blank: usize) -> u64 {
        u64::from(self.0.order(packed, blank))
    }

    #[inline(always)]
    fn step(&self, state: u64, blank: usize, _: u64, m: Move) -> Option<(u64, usize, u64)> {
        let (order, to, rank) = self.0.step(state as u32, blank, m)?;
        Some((u64::from(order), to, rank))
    }

    fn packed(&self, state: u64, blank: usize) -> u64 {
        self.0.packed(state as u32, blank, self.1)
    }
}

impl<'a> Goal<'a> {
    /// This goal's answers a block of puzzles at a time, if its table allows it (see
    /// [`Lockstep`]); `None` when each must be answered on its own.
    pub fn lockstep(&self) -> Option<Lockstep<'a>> {
        let s = self.section;
        let fits = self.relabel.0.is_none()
            && s.encoding == Encoding::Byte
            && s.cost == CostModel::Unit
            && s.known.is_none()
            && s.checks.all_verified();
        fits.then(|| Lockstep {
            section: s,
            steps: s.ranker.narrow().and_then(Steps::new),
        })
    }
}

impl Lockstep<'_> {
    /// The entry at `rank`: a verified byte table's, read without a check.
    #[inline(always)]
    fn entry(&self, rank: u64) -> u8 {
        self.section.entries[rank as usize]
    }

    /// Where the walk of the puzzle `(packed, blank)` starts: `None` when the puzzle is not
    /// in the goal's class (the goal cannot be reached).
    #[inline(always)]
    fn start(&self, (packed, blank): (u64, usize)) -> Option<Walk> {
        let s = &self.section;
        let (rank, class) = s.ranker.rank_and_class_packed(packed, blank);
        (class == s.goal_class).then_some(Walk {
            packed,
            blank,
            rank,
        })
    }

    /// Appends to `values` each puzzle's distance, `None` for a puzzle that cannot reach the
    /// goal. An entry beyond the section's greatest distance stops the block: `Err((i, e))`
    /// with `values` holding the answers of the puzzles before puzzle `i`, as
    /// [`Goal::distance`] would have refused puzzle `i`.
    pub fn distances(
        &self,
        starts: &[(u64, usize)],
        values: &mut Vec<Option<u32>>,
    ) -> Result<(), (usize, QueryError)> {
        values.reserve(starts.len());
        for (i, &start) in starts.iter().enumerate() {
            let Some(at) = self.start(start) else {
                values.push(None);
                continue;
            };
            let d = byte_distance(self.entry(at.rank));
            if !self.section.settled(at.packed, d) {
                return Err((i, self.section.corrupt(at)));
            }
            values.push(Some(d));
        }
        Ok(())
    }

    /// Appends to `text` each puzzle's optimal path (the stored first moves, as
    /// [`Goal::path_into`] gives it) as letters (`u d l r`) and a line end, or `unreachable`
    /// for a puzzle that cannot reach the goal, and to `ends` where each answer ends in
    /// `text`. The walks are taken a step each in turn. Entries that contradict each other
    /// stop the block at the first puzzle (in order) whose walk meets them: `Err((i, e))`,
    /// `e` as [`Goal::path_into`] names it, with `text` and `ends` holding the answers of the
    /// puzzles before puzzle `i`.
    pub fn paths(
        &self,
        starts: &[(u64, usize)],
        unreachable: &[u8],
        text: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), (usize, QueryError)> {
        match &self.steps {
            Some(steps) => {
                let cells = self.section.ranker.board().cells();
                self.paths_by(&ByOrder(steps, cells), starts, unreachable, text, ends)
            }
            None => self.paths_by(&ByLayout(&self.section), starts, unreachable, text, ends),
        }
    }

    /// [`Lockstep::paths`], the walks moved by `mover`.
    #[inline(always)]
    fn paths_by(
        &self,
        mover: &impl Mover,
        starts: &[(u64, usize)],
        unreachable: &[u8],
        text: &mut Vec<u8>,
        ends: &mut Vec<usize>,
    ) -> Result<(), (usize, QueryError)> {
        let s = &self.section;
        let max = s.descriptor.max_distance();
        let (base, first_end) = (text.len(), ends.len());
        let mut lanes: Vec<Lane> = Vec::with_capacity(starts.len());
        // The first contradiction met, by puzzle index.
        let mut failed: Option<(usize, QueryError)> = None;
        let corrupt = |state: u64, blank: usize, rank: u64| {
            s.corrupt(Walk {
                packed: mover.packed(state, blank),
                blank,
                rank,
            })
        };
        let goal_blank = s.descriptor.goal().blank();
        let goal = (mover.state(s.goal_packed, goal_blank), goal_blank as u8);
        // Each answer's room: a path of d moves takes d letters and a line end.
        for (index, &start) in starts.iter().enumerate() {
            let Some(at) = self.start(start) else {
                text.extend_from_slice(unreachable);
                ends.push(text.len());
                continue;
            };
            let entry = self.entry(at.rank);
            let (value, m) = (byte_distance(entry), byte_move(entry));
            if value > max {
                fail(index, s.corrupt(at), &mut failed);
                // No answer from here on is written.
                break;
            }
            let write = text.len();
            text.resize(write + value as usize, 0);
            text.push(b'\n');
            ends.push(text.len());
            if value == 0 {
                if at.packed != s.goal_packed {
                    fail(index, s.corrupt(at), &mut failed);
                }
                continue;
            }
            lanes.push(Lane {
                state: mover.state(at.packed, at.blank),
                rank: at.rank,
                write,
                value,
                m,
                blank: at.blank as u8,
                index: index as u32,
            });
        }
        // Every walk a step at a time, in turn; a finished one leaves the round.
        // The walks under way are `lanes[..live]`, kept in a slice (not the `Vec`, whose
        // length the compiler reloads after every letter written: callgrind, BENCHMARKS.md).
        let letters = &mut text[..];
        let lanes = &mut lanes[..];
        let mut live = lanes.len();
        while live > 0 {
            let mut j = 0;
            while j < live {
                let lane = &mut lanes[j];
                let Lane {
                    state,
                    rank,
                    value,
                    m,
                    blank,
                    ..
                } = *lane;
                let blank = usize::from(blank);
                let Some((next, to, next_rank)) = mover.step(state, blank, rank, m) else {
                    fail(
                        lane.index as usize,
                        corrupt(state, blank, rank),
                        &mut failed,
                    );
                    live -= 1;
                    lanes[j] = lanes[live];
                    continue;
                };
                let entry = self.entry(next_rank);
                let v = byte_distance(entry);
                // The three failures (no move, a value that does not drop by one, a walk that
                // ends off the goal) are each written out where they are found: this is
                // `path`'s batch loop, kept as measured by callgrind (BENCHMARKS.md).
                if v + 1 != value {
                    fail(
                        lane.index as usize,
                        corrupt(state, blank, rank),
                        &mut failed,
                    );
                    live -= 1;
                    lanes[j] = lanes[live];
                    continue;
                }
                letters[lane.write] = m.letter() as u8;
                lane.write += 1;
                (lane.state, lane.rank, lane.value) = (next, next_rank, v);
                (lane.m, lane.blank) = (byte_move(entry), to as u8);
                if v == 0 {
                    if (next, to as u8) != goal {
                        fail(
                            lane.index as usize,
                            corrupt(next, to, next_rank),
                            &mut failed,
                        );
                    }
                    live -= 1;
                    lanes[j] = lanes[live];
                    continue;
                }
                j += 1;
            }
        }
        match failed {
            None => Ok(()),
            Some((index, e)) => {
                // Keep the answers before puzzle `index`: every one of them is in `ends`.
                let kept = first_end + index;
                text.truncate(match index {
                    0 => base,
                    _ => ends[kept - 1],
                });
                ends.truncate(kept);
                Err((index, e))
            }
        }
    }
}

/// Keeps in `failed` the contradiction of the earliest puzzle: `e`, met by puzzle `index`,
/// unless an earlier puzzle's is there.
fn fail(index: usize, e: QueryError, failed: &mut Option<(usize, QueryError)>) {
    if !matches!(failed, Some((i, _)) if *i < index) {
        *failed = Some((index, e));
    }
}
