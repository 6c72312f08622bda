//! [`Section`]: one goal's entries, and what they answer directly — the distance of a state
//! by rank or by layout, the states at a distance. Paths follow in the `walk` module.

use slidetable_core::{Layout, Move, Neighbors};
use slidetable_format::{
    byte_at, byte_distance, byte_move, two_bit_value, wide_at, wide_cost, wide_move, Header,
    SectionDescriptor,
};

use crate::blocks::Verified;
use crate::error::check_board;
use crate::ranks::TableRanks;
use crate::{CostModel, Encoding, QueryError};

/// One goal's entries.
#[derive(Clone, Copy)]
pub struct Section<'a> {
    pub(crate) descriptor: &'a SectionDescriptor,
    pub(crate) entries: &'a [u8],
    /// The blocks of the payload verified so far, and what verifies the others: every entry
    /// is read only from a verified block.
    pub(crate) checks: Checks<'a>,
    pub(crate) ranker: &'a TableRanks,
    pub(crate) neighbors: &'a Neighbors,
    pub(crate) goal_class: u8,
    pub(crate) goal_packed: u64,
    pub(crate) encoding: Encoding,
    pub(crate) cost: CostModel,
    /// Every state's distance, one byte each, when [`crate::Goal::knowing`] supplied them (2-bit
    /// sections, whose entries hold only residues): read instead of walking.
    pub(crate) known: Option<&'a [u8]>,
}

/// What a section needs to verify the block of an entry before reading it.
#[derive(Clone, Copy)]
pub(crate) struct Checks<'a> {
    pub(crate) header: &'a Header,
    /// The whole file's bytes.
    pub(crate) file: &'a [u8],
    pub(crate) verified: &'a Verified,
    /// The section's first entry byte, counted from the first payload byte.
    pub(crate) base: u64,
}

impl Checks<'_> {
    /// Whether every block of the payload is verified (no entry needs a check any more).
    #[inline]
    pub(crate) fn all_verified(&self) -> bool {
        self.verified.all()
    }

    /// Ok once entry byte `at` of the section lies in a verified block.
    #[inline]
    pub(crate) fn check(&self, at: u64) -> Result<(), QueryError> {
        self.verified.check(self.header, self.file, self.base + at)
    }
}

impl<'a> Section<'a> {
    /// The section's goal.
    pub fn goal(&self) -> &Layout {
        self.descriptor.goal()
    }

    /// The section's descriptor in the header: its goal, histogram and entries' extent.
    pub fn descriptor(&self) -> &SectionDescriptor {
        self.descriptor
    }

    /// [`QueryError::WrongBoard`] unless `layout` is on the section's board.
    #[inline]
    pub(crate) fn check_board(&self, layout: &Layout) -> Result<(), QueryError> {
        check_board(self.descriptor.goal().board(), layout)
    }

    /// The rank of `layout`, if it lies in the goal's class.
    #[inline]
    pub(crate) fn rank(&self, layout: &Layout) -> Result<Option<u64>, QueryError> {
        self.check_board(layout)?;
        let (rank, class) = self.ranker.rank_and_class(layout);
        Ok((class == self.goal_class).then_some(rank))
    }

    /// The stored value at `rank`: the distance (or cost) for byte and wide entries, the
    /// distance mod 3 for 2-bit ones, once the entry's block is verified. `rank` < states,
    /// which the header's check guarantees the payload covers.
    #[inline]
    pub(crate) fn value(&self, rank: u64) -> Result<u32, QueryError> {
        Ok(match self.encoding {
            Encoding::Byte => {
                self.checks.check(rank)?;
                byte_distance(byte_at(self.entries, rank))
            }
            Encoding::TwoBit => {
                self.checks.check(rank / 4)?;
                two_bit_value(self.entries, rank)
            }
            Encoding::Wide16 => {
                // Both bytes of an entry lie in one block: blocks have an even length.
                self.checks.check(rank * 2)?;
                wide_cost(wide_at(self.entries, rank))
            }
        })
    }

    /// The distance (or cost) and the stored first move at `rank`, from one read of the
    /// entry (byte and wide entries only), once the entry's block is verified.
    #[inline]
    pub(crate) fn stored(&self, rank: u64) -> Result<Option<(u32, Move)>, QueryError> {
        match self.encoding {
            Encoding::Byte => self.stored_byte(rank).map(Some),
            Encoding::TwoBit => Ok(None),
            Encoding::Wide16 => {
                self.checks.check(rank * 2)?;
                let entry = wide_at(self.entries, rank);
                Ok(Some((wide_cost(entry), wide_move(entry))))
            }
        }
    }

    /// [`Section::stored`] of a byte entry.
    #[inline]
    pub(crate) fn stored_byte(&self, rank: u64) -> Result<(u32, Move), QueryError> {
        self.checks.check(rank)?;
        let entry = byte_at(self.entries, rank);
        Ok((byte_distance(entry), byte_move(entry)))
    }

    /// [`Section::stored_byte`] without the block check, for a table whose every block is
    /// verified ([`Checks::all_verified`]): the walk of `path` on such a table pays no test
    /// and no `Result` at each step. On any other table it could read a damaged entry, which
    /// the walk's own checks then refuse as corrupt (or a byte that happens to fit).
    #[inline]
    pub(crate) fn verified_byte(&self, rank: u64) -> (u32, Move) {
        debug_assert!(self.checks.all_verified());
        let entry = byte_at(self.entries, rank);
        (byte_distance(entry), byte_move(entry))
    }

    /// Verifies every block of this section's entries not verified yet: before a question
    /// that reads them all (a layer, every state, every distance recovered).
    pub(crate) fn verify_entries(&self) -> Result<(), QueryError> {
        let base = self.checks.base;
        self.checks.verified.check_range(
            self.checks.header,
            self.checks.file,
            base..base + self.entries.len() as u64,
        )
    }

    /// The encoding of this section's entries.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// What a move costs in this section.
    pub fn cost(&self) -> CostModel {
        self.cost
    }

    /// The distance (or cheapest cost) of the state of the goal's class with rank `rank`:
    /// read directly from byte and wide entries, counted along a walk for 2-bit ones.
    pub fn distance_at(&self, rank: u64) -> Result<u32, QueryError> {
        if let Some(known) = self.known {
            return Ok(u32::from(known[rank as usize]));
        }
        match self.encoding {
            Encoding::TwoBit => self.walk(self.walk_at(rank), None, |_| {}),
            Encoding::Byte | Encoding::Wide16 => self.within_max(rank, self.value(rank)?),
        }
    }

    /// `value`, read at `rank`, unless it is beyond the section's maximum distance (an
    /// impossible entry: corrupt). One compare, made on every answer.
    #[inline]
    fn within_max(&self, rank: u64, value: u32) -> Result<u32, QueryError> {
        if value > self.descriptor.max_distance() {
            return Err(self.corrupt(self.walk_at(rank)));
        }
        Ok(value)
    }

    /// Whether `value`, read for the state packed as `packed`, can be its distance: within
    /// the section's maximum, and 0 only for the goal (an entry of 0 elsewhere would answer
    /// "solved" for a puzzle that is not). Two compares, made on every answer.
    #[inline]
    pub(crate) fn settled(&self, packed: u64, value: u32) -> bool {
        value <= self.descriptor.max_distance() && (value != 0 || packed == self.goal_packed)
    }

    /// Whether the state with rank `rank` is `distance` away, without walking when the
    /// stored residue already says no. Asked only after [`Section::verify_entries`]; an
    /// entry that could not be read is at no distance.
    fn is_at(&self, rank: u64, distance: u32) -> bool {
        if let Some(known) = self.known {
            return u32::from(known[rank as usize]) == distance;
        }
        match self.encoding {
            Encoding::TwoBit => {
                self.value(rank) == Ok(distance % 3) && self.distance_at(rank) == Ok(distance)
            }
            Encoding::Byte | Encoding::Wide16 => self.value(rank) == Ok(distance),
        }
    }

    /// The fewest moves (or the cheapest cost) from `start` to this section's goal, or `None`
    /// if unreachable. O(1) for byte and wide entries; O(distance) for 2-bit ones, which
    /// count the steps of an optimal walk.
    #[inline]
    pub fn distance(&self, start: &Layout) -> Result<Option<u32>, QueryError> {
        match self.rank(start)? {
            None => Ok(None),
            Some(rank) => match self.encoding {
                Encoding::TwoBit => self.walk(self.walk_start(start), None, |_| {}).map(Some),
                Encoding::Byte | Encoding::Wide16 => {
                    let value = match self.encoding {
                        Encoding::Byte if self.checks.all_verified() => self.verified_byte(rank).0,
                        _ => self.value(rank)?,
                    };
                    if !self.settled(start.packed(), value) {
                        return Err(self.corrupt(self.walk_start(start)));
                    }
                    Ok(Some(value))
                }
            },
        }
    }

    /// Every layout at exactly `distance` moves (or cost) from the goal, in rank order, once
    /// every block of the section's entries is verified.
    pub fn layouts_at(
        &self,
        distance: u32,
    ) -> Result<impl Iterator<Item = Layout> + 'a, QueryError> {
        self.verify_entries()?;
        let section = *self;
        Ok((0..self.ranker.states())
            .filter(move |&r| section.is_at(r, distance))
            .map(move |r| section.ranker.unrank(r, section.goal_class)))
    }
}
