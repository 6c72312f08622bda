//! The ranks of one parity class visited in rank order, each with its neighbours' ranks: what
//! a search over every rank (the generator's scan search, `bfs_scan.rs`) needs in its hot loop.
//!
//! Consecutive ranks share all but their last few tiles, so a [`ScanCursor`] keeps the last
//! prefix it unranked and a table holds every suffix. A neighbour's rank is stepped from the
//! state's own: a horizontal move is one block over ([`Ranker::step`]); a vertical move makes
//! one tile jump over `cols − 1` others in the reading order, so only those positions' Lehmer
//! digits change, and the rank changes by their weights. Where those positions all lie in the
//! prefix, the change is the same for the whole prefix (the cursor keeps it); where they all lie
//! in the suffix, it depends on the suffix rank alone (a table holds it). A move across the
//! prefix's end unranks the state, except in a tabulated scan ([`Scan::tabulated`], the
//! generator's): there its change is split at the prefix's end into a part the cursor works
//! out once a prefix and a part a table holds for each suffix rank (`Kind::AcrossDown`,
//! `Kind::AcrossUp`), so no state of a whole-table pass is unranked for its moves.

use super::{Ranker, Ranks};
use crate::{factorial, Board, BoardError, Layout, Move, Neighbors, MAX_CELLS};

/// The neighbour ranking of one parity class of one board, shared by every thread of a scan,
/// in the width of `R` ([`Ranks`]): [`Ranker`] up to 14 cells, [`super::WideRanker`] for 15
/// and 16.
#[derive(Clone, Debug)]
pub struct Scan<R: Ranks = Ranker> {
    ranker: R,
    moves: Neighbors,
    class: u8,
    board: Board,
    /// Ranks per prefix: the suffix of the last `tail` tiles is ranked in `0..span`.
    span: u32,
    /// Tiles in the suffix (all but the first `prefix_digits` in reading order).
    tail: usize,
    prefix_digits: usize,
    /// For each suffix rank: the suffix as indices into its sorted tiles (nibble j = index of
    /// the j-th tile; last two ascending) in bits 0..32, its Lehmer digits (nibble j = digit
    /// of suffix position j) in bits 32..56, and bit 63 = the parity of those digits.
    suffixes: Vec<u64>,
    /// Optional ([`Scan::tabulated`]): each suffix of each set of suffix tiles.
    tiles: Option<Tiles>,
    /// For each blank cell, for each of its moves (in [`Neighbors::from`]'s order): how the
    /// move changes a rank.
    steps: [[Step; 4]; MAX_CELLS],
    /// The Lehmer part of the rank change of each [`Kind::Suffix`] move: `2 · span` values
    /// from the move's offset, for each parity a cursor can ask for ([`ScanCursor`]'s
    /// `parity`), for each suffix rank.
    suffix_deltas: Vec<i32>,
    /// The suffix's part of the rank change of each move across the prefix's end, once the
    /// scan is tabulated ([`Kind::AcrossDown`], [`Kind::AcrossUp`]).
    across: Vec<i64>,
    /// For each blank cell, the cells (bit `c` for cell `c`) its [`Kind::Prefix`] moves reach.
    prefix_cells: [u32; MAX_CELLS],
}

/// The moves within the prefix from the ranks of one prefix ([`Scan::prefix_moves`]): each
/// changes every one of those ranks alike, so a pass can make it for a word of them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefixMoves {
    /// The first rank past the prefix's.
    pub end: u64,
    /// Each move, the cell it takes the blank to, and the rank change: `count` of them.
    pub moves: [(Move, u8, i64); 2],
    /// How many of `moves` there are.
    pub count: usize,
}

/// How a move from a blank cell changes a rank: `offset` (the blank's blocks over) plus a
/// part that depends on the tiles the move passes, by [`Kind`].
#[derive(Clone, Copy, Debug)]
struct Step {
    offset: i64,
    kind: Kind,
}

/// Where the Lehmer digits a move changes lie, and so what its rank change depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A horizontal move: the tiles' reading order stays, the offset is all.
    Sideways,
    /// A vertical move whose tile and the tiles it passes are all in the prefix: the change
    /// is the same for every rank of a prefix ([`ScanCursor`]'s `shift`).
    Prefix,
    /// A vertical move within the suffix: the change depends on the suffix rank alone
    /// ([`Scan`]'s `suffix_deltas` from this index).
    Suffix(u32),
    /// A vertical move across the prefix's end: computed from the state.
    Across,
    /// A move down across the prefix's end, in a tabulated scan: the tile that jumps is in
    /// the suffix, the tiles it passes on both sides. The change is a part that depends on
    /// the suffix rank alone plus one that depends on the prefix and on which of the
    /// suffix's tiles jumps. `Scan`'s `across` holds, from this index, for each parity and
    /// suffix rank, the first part times 8 plus the jumping tile's index among the suffix's
    /// sorted tiles; the cursor holds the second part for each of those indices.
    AcrossDown(u32),
    /// A move up across the prefix's end, in a tabulated scan: the tile that jumps is in
    /// the prefix. The change is a part that depends on the prefix alone (the cursor's) plus
    /// one that depends on the suffix rank and on how many of the suffix's tiles are below
    /// the jumping one: `Scan`'s `across` holds, from this index, that part for each parity,
    /// each such count (0 ..= tail) and each suffix rank.
    AcrossUp(u32),
}

/// Every suffix's tiles of every set of suffix tiles, so a state is one look-up from its
/// prefix instead of a nibble gather; and, where they are few, every prefix of a block.
#[derive(Clone, Debug)]
struct Tiles {
    /// For each set of suffix tiles (bit `t − 1` for tile t), where its suffixes start in
    /// `tiles`.
    row: Vec<u32>,
    /// For each set, for each suffix rank: the suffix's tiles as nibbles (last two
    /// ascending).
    tiles: Vec<u32>,
    /// For each prefix of a block (by its first rank counted from the block's, over the
    /// span), when there are at most [`PREFIXES_TABULATED`]: its tiles and digits (as
    /// nibbles, in bits 0..32 and 32..64 of the first word), its suffix's tiles sorted (bits
    /// 0..24), where their suffixes start in `tiles` (bits 24..56) and its inversions (bits
    /// 56..64 of the second).
    prefixes: Vec<[u64; 2]>,
}

/// The most prefixes a block may have for [`Tiles`] to hold each of them.
const PREFIXES_TABULATED: u64 = 1 << 17;

/// A cursor's first rank before it holds a prefix: beyond every rank (a table has fewer
/// than 2^63 states), so that no rank is within a span of it.
const NO_PREFIX: u64 = 1 << 63;

/// A thread's place in a [`Scan`]: the last prefix it unranked, which the ranks that follow
/// in a scan nearly always share (a prefix covers 360 consecutive ranks).
#[derive(Clone, Copy, Debug)]
pub struct ScanCursor {
    /// The first rank of the prefix (past every rank before the first prefix is loaded).
    first: u64,
    blank: usize,
    /// The prefix's tiles in sequence order, first in the lowest nibble.
    prefix: u64,
    /// The suffix's tiles in increasing order, as nibbles.
    sorted: u64,
    /// The parity class the suffix's last two tiles must give if left ascending.
    parity: u8,
    /// Where the prefix's suffix tiles start in [`Scan`]'s `tiles` (when it has them).
    row: usize,
    /// The prefix's Lehmer digits, as nibbles.
    digits: u64,
    /// The Lehmer part of the rank change of each of the blank's [`Kind::Prefix`] moves
    /// (by their index in [`Neighbors::from`]), and the prefix's part of each
    /// [`Kind::AcrossUp`] move's.
    shift: [i64; 4],
    /// Where each [`Kind::AcrossDown`] and [`Kind::AcrossUp`] move's suffix ranks start in
    /// [`Scan`]'s `across` for this prefix (by their index in [`Neighbors::from`]).
    rows: [usize; 4],
    /// The prefix's part of the blank's [`Kind::AcrossDown`] move (a blank has at most one
    /// move down), for each index of the jumping tile among the suffix's sorted tiles.
    by_tile: [i64; 8],
}

/// The suffix's tiles of suffix `entry` (nibble j = index of the j-th tile) among the tiles
/// `sorted` (increasing, as nibbles), `tail` of them.
#[inline]
fn gather(entry: u64, sorted: u64, tail: usize) -> u64 {
    let mut suffix = 0u64;
    for j in 0..tail {
        let index = (entry >> (4 * j)) & 0xF;
        suffix |= ((sorted >> (4 * index)) & 0xF) << (4 * j);
    }
    suffix
}

/// The positions (in the reading order without the blank) whose Lehmer digits a vertical
/// move of the blank from `blank` to `to` changes: `p..=q`.
#[inline(always)]
fn window(blank: usize, to: usize) -> (usize, usize) {
    if to > blank {
        (blank, to - 1)
    } else {
        (to, blank - 1)
    }
}

/// Nibble `i` of `x`.
#[inline(always)]
fn nib(x: u64, i: usize) -> i64 {
    ((x >> (4 * i)) & 0xF) as i64
}

/// The tiles of `set` (bit t for tile t) in increasing order, as nibbles.
fn sorted_nibbles(mut set: u32) -> u64 {
    let mut sorted = 0u64;
    let mut j = 0;
    while set != 0 {
        sorted |= u64::from(set.trailing_zeros()) << (4 * j);
        set &= set - 1;
        j += 1;
    }
    sorted
}

/// A state as the neighbour ranking needs it: the tiles in reading order without the blank
/// (first in the lowest nibble), each position's Lehmer digit (the later tiles smaller than
/// it, also for the last two positions), and the blank's cell.
#[derive(Clone, Copy)]
struct State {
    seq: u64,
    digits: u64,
    blank: usize,
}

impl Scan {
    /// The scan of parity class `class` (0 or 1) of `board`, which must have at most
    /// [`crate::MAX_TABLE_CELLS`] cells.
    pub fn new(board: Board, class: u8) -> Result<Scan, BoardError> {
        Scan::build(board, class, false)
    }

    /// [`Scan::new`] with every suffix of every set of suffix tiles tabulated
    /// ([`Scan::build`]).
    pub fn tabulated(board: Board, class: u8) -> Result<Scan, BoardError> {
        Scan::build(board, class, true)
    }
}

impl<R: Ranks> Scan<R> {
    /// The scan of parity class `class` (0 or 1) of `board` in the width of `R` (which refuses
    /// the boards it cannot rank). With `tabulate`, every suffix of every set of suffix tiles
    /// is tabulated: C(cells − 1, tail) · span words (665 KB on 12 cells, 2.5 MB on 14, 7.2 MB
    /// on 16) and a word for each set of tiles, and on up to 12 cells each prefix of a block
    /// (887 KB), made once, for a pass over every rank, where unranking is then one look-up a
    /// state and loading a prefix one more; and the suffix's part of each move across the
    /// prefix's end (5.6 KB a move down, 39 KB a move up: 138 KB on 3×4, 276 KB on 2×7), so
    /// that such a move is two look-ups and no state is unranked for its neighbours.
    pub fn build(board: Board, class: u8, tabulate: bool) -> Result<Scan<R>, BoardError> {
        let scan = Scan::<R>::plain(board, class)?;
        Ok(if tabulate { scan.tabulate() } else { scan })
    }

    fn plain(board: Board, class: u8) -> Result<Scan<R>, BoardError> {
        let ranker = R::for_board(board)?;
        let m = board.cells() - 1;
        let tail = m.min(6);
        let prefix_digits = m - tail;
        let span = (factorial(tail) / 2) as u32;
        // Lehmer digits of the suffix: weights (tail−1−i)!/2 for i < tail − 2.
        let weights: Vec<u32> = (0..tail - 2)
            .map(|i| (factorial(tail - 1 - i) / 2) as u32)
            .collect();
        let suffixes = (0..span)
            .map(|lo| {
                let mut r = lo;
                let mut left: Vec<u64> = (0..tail as u64).collect();
                let (mut pattern, mut digits, mut parity) = (0u64, 0u64, 0u64);
                for (j, &w) in weights.iter().enumerate() {
                    let d = r / w;
                    r %= w;
                    parity += u64::from(d);
                    digits |= u64::from(d) << (4 * j);
                    pattern |= left.remove(d as usize) << (4 * j);
                }
                pattern |= left[0] << (4 * (tail - 2)) | left[1] << (4 * (tail - 1));
                pattern | digits << 32 | (parity & 1) << 63
            })
            .collect();
        let mut scan = Scan {
            ranker,
            moves: Neighbors::new(board),
            class: class & 1,
            board,
            span,
            tail,
            prefix_digits,
            suffixes,
            tiles: None,
            steps: [[Step {
                offset: 0,
                kind: Kind::Sideways,
            }; 4]; MAX_CELLS],
            suffix_deltas: Vec::new(),
            across: Vec::new(),
            prefix_cells: [0; MAX_CELLS],
        };
        scan.classify();
        Ok(scan)
    }

    /// Fills in `steps` and `suffix_deltas`: each move's offset and [`Kind`], and each
    /// suffix move's Lehmer change for each parity and suffix rank, from the same formula
    /// ([`Scan::lehmer`]) on the suffix's tiles as indices (their order is all it reads).
    fn classify(&mut self) {
        let block = self.ranker.block() as i64;
        let cut = 4 * self.prefix_digits;
        for blank in 0..self.board.cells() {
            for (i, &(m, to)) in self.moves.from(blank).iter().enumerate() {
                let to = to as usize;
                let (p, q) = window(blank, to);
                let kind = match m {
                    Move::Left | Move::Right => Kind::Sideways,
                    _ if q < self.prefix_digits => Kind::Prefix,
                    _ if p >= self.prefix_digits => {
                        let at = self.suffix_deltas.len() as u32;
                        for parity in 0..2u8 {
                            for &entry in &self.suffixes {
                                let pattern = entry & 0xFFFF_FFFF;
                                let (seq, digits) = self.in_class(entry, pattern, parity);
                                let delta = self.lehmer(seq << cut, digits << cut, blank, to);
                                self.suffix_deltas.push(delta as i32);
                            }
                        }
                        Kind::Suffix(at)
                    }
                    _ => Kind::Across,
                };
                if kind == Kind::Prefix {
                    self.prefix_cells[blank] |= 1 << to;
                }
                self.steps[blank][i] = Step {
                    offset: (to as i64 - blank as i64) * block,
                    kind,
                };
            }
        }
    }

    /// The scan with its tables ([`Scan::build`]).
    fn tabulate(mut self) -> Scan<R> {
        let scan = &mut self;
        let m = scan.board.cells() - 1;
        let mut row = vec![0u32; 1 << m];
        let mut tiles = Vec::new();
        for (set, at) in row.iter_mut().enumerate() {
            if set.count_ones() as usize != scan.tail {
                continue;
            }
            *at = tiles.len() as u32;
            let sorted = sorted_nibbles((set as u32) << 1);
            let suffixes = scan.suffixes.iter();
            tiles.extend(suffixes.map(|&e| gather(e, sorted, scan.tail) as u32));
        }
        // Each prefix of a block, while they are few enough to stay in cache (12 cells:
        // 55,440 of them, 887 KB).
        let keys = scan.ranker.block() / u64::from(scan.span);
        let prefixes = if keys <= PREFIXES_TABULATED {
            (0..keys)
                .map(|k| {
                    let (prefix, digits, rest, inversions) =
                        scan.prefix_of(k * u64::from(scan.span));
                    let at = u64::from(row[(rest >> 1) as usize]);
                    [
                        prefix | digits << 32,
                        sorted_nibbles(rest) | at << 24 | u64::from(inversions) << 56,
                    ]
                })
                .collect()
        } else {
            Vec::new()
        };
        scan.tiles = Some(Tiles {
            row,
            tiles,
            prefixes,
        });
        scan.tabulate_across();
        self
    }

    /// Makes every [`Kind::Across`] move an [`Kind::AcrossDown`] or [`Kind::AcrossUp`] one,
    /// with its table of suffix parts in `across`.
    fn tabulate_across(&mut self) {
        let suffixes = self.suffixes.clone();
        for blank in 0..self.board.cells() {
            for (i, &(_, to)) in self.moves.from(blank).iter().enumerate() {
                if self.steps[blank][i].kind != Kind::Across {
                    continue;
                }
                let to = to as usize;
                let at = self.across.len() as u32;
                let (p, q) = window(blank, to);
                // Down moves: one row per parity; up moves: one per parity and count.
                let counts = if to > blank { 1 } else { self.tail + 1 };
                for parity in 0..2u8 {
                    for below in 0..counts {
                        for &entry in &suffixes {
                            let (tiles, digits) = self.in_class(entry, entry & 0xFFFF_FFFF, parity);
                            let part = if to > blank {
                                let (part, jumper) = self.down_suffix(tiles, digits, p, q);
                                part * 8 + jumper
                            } else {
                                self.up_suffix(tiles, digits, q, below as i64)
                            };
                            self.across.push(part);
                        }
                    }
                }
                self.steps[blank][i].kind = if to > blank {
                    Kind::AcrossDown(at)
                } else {
                    Kind::AcrossUp(at)
                };
            }
        }
    }

    /// The suffix's part of the rank change of a move down across the prefix's end over
    /// positions `p..=q` ([`Scan::lehmer`] split at the prefix's end), from the suffix's
    /// tiles as indices into its sorted tiles and its digits (as nibbles, from the suffix's
    /// first position); and the index of the tile that jumps.
    fn down_suffix(&self, tiles: u64, digits: u64, p: usize, q: usize) -> (i64, i64) {
        let w = |i: usize| self.ranker.weight(i);
        let cut = self.prefix_digits;
        let (x, xc) = (nib(tiles, q - cut), nib(digits, q - cut));
        let mut part = xc * (w(p) - w(q));
        for j in cut..q {
            let (e, ce) = (nib(tiles, j - cut), nib(digits, j - cut));
            part += (ce - i64::from(x < e)) * w(j + 1) - ce * w(j) + i64::from(e < x) * w(p);
        }
        (part, x)
    }

    /// The prefix's part of the same move ([`Scan::down_suffix`]) for each index of the tile
    /// that jumps among the suffix's tiles (`below`: for each tile, how many suffix tiles are
    /// smaller), from the prefix's tiles and digits (as nibbles). The tile passes each prefix
    /// tile at `j` either way: the part is one sum plus, for each prefix tile smaller than
    /// the jumping one, a term of its own.
    fn down_prefix(
        &self,
        prefix: u64,
        digits: u64,
        p: usize,
        below: impl Fn(i64) -> usize,
        by_tile: &mut [i64; 8],
    ) {
        let w = |i: usize| self.ranker.weight(i);
        let (mut part, mut smaller) = (0, [0i64; 8]);
        for j in p..self.prefix_digits {
            let (e, ce) = (nib(prefix, j), nib(digits, j));
            part += ce * (w(j + 1) - w(j)) - w(j + 1);
            // Smaller than the suffix tiles from index `below(e)` on.
            smaller[below(e)] += w(j + 1) + w(p);
        }
        for (out, add) in by_tile.iter_mut().zip(smaller).take(self.tail) {
            part += add;
            *out = part;
        }
    }

    /// The suffix's part of the rank change of a move up across the prefix's end over
    /// positions `p..=q` when `below` of the suffix's tiles are smaller than the tile that
    /// jumps (which is at `p`, in the prefix), from the suffix's tiles as indices into its
    /// sorted tiles and its digits (as [`Scan::down_suffix`] has them).
    fn up_suffix(&self, tiles: u64, digits: u64, q: usize, below: i64) -> i64 {
        let w = |i: usize| self.ranker.weight(i);
        let cut = self.prefix_digits;
        (cut..=q)
            .map(|j| {
                let (e, ce) = (nib(tiles, j - cut), nib(digits, j - cut));
                (ce + i64::from(e >= below)) * w(j - 1) - ce * w(j) - i64::from(e < below) * w(q)
            })
            .sum()
    }

    /// The prefix's part of the same move ([`Scan::up_suffix`]), from the prefix's tiles
    /// and digits (as nibbles).
    fn up_prefix(&self, prefix: u64, digits: u64, p: usize, q: usize) -> i64 {
        let w = |i: usize| self.ranker.weight(i);
        let (x, xc) = (nib(prefix, p), nib(digits, p));
        let passed: i64 = (p + 1..self.prefix_digits)
            .map(|j| {
                let (e, ce) = (nib(prefix, j), nib(digits, j));
                (ce + i64::from(x < e)) * w(j - 1) - ce * w(j) - i64::from(e < x) * w(q)
            })
            .sum();
        passed + xc * (w(q) - w(p))
    }

    /// The ranker of the scan's board.
    #[inline]
    pub fn ranker(&self) -> &R {
        &self.ranker
    }

    /// The moves of each blank cell, in code order.
    #[inline]
    pub fn moves(&self) -> &Neighbors {
        &self.moves
    }

    /// A fresh cursor, for one thread.
    pub fn cursor(&self) -> ScanCursor {
        ScanCursor {
            first: NO_PREFIX,
            blank: 0,
            prefix: 0,
            sorted: 0,
            parity: 0,
            row: 0,
            digits: 0,
            shift: [0; 4],
            rows: [0; 4],
            by_tile: [0; 8],
        }
    }

    /// The packed layout and blank of `rank` (as [`Ranker::unrank_packed`] with the scan's
    /// class), reusing the cursor's prefix when it can.
    #[inline]
    pub fn unrank(&self, cursor: &mut ScanCursor, rank: u64) -> (u64, usize) {
        let State { seq, blank, .. } = self.state(cursor, rank);
        let below = (1u64 << (4 * blank)) - 1;
        ((seq & below) | ((seq & !below) << 4), blank)
    }

    /// The layout of `rank`, as [`Scan::unrank`] finds it, without checking it again: a
    /// whole-table pass builds hundreds of millions of them.
    pub fn layout(&self, cursor: &mut ScanCursor, rank: u64) -> Layout {
        let (packed, blank) = self.unrank(cursor, rank);
        let mut tiles = [0u8; MAX_CELLS];
        for (cell, t) in tiles.iter_mut().enumerate().take(self.board.cells()) {
            *t = ((packed >> (4 * cell)) & 0xF) as u8;
        }
        Layout::from_parts(self.board, tiles, blank)
    }

    /// The state of `rank`, reusing the cursor's prefix when it can.
    #[inline]
    fn state(&self, cursor: &mut ScanCursor, rank: u64) -> State {
        let lo = self.locate(cursor, rank);
        let entry = self.suffixes[lo];
        let suffix = match &self.tiles {
            Some(t) => u64::from(t.tiles[cursor.row + lo]),
            None => gather(entry, cursor.sorted, self.tail),
        };
        let (suffix, suffix_digits) = self.in_class(entry, suffix, cursor.parity);
        let cut = 4 * self.prefix_digits;
        State {
            seq: cursor.prefix | suffix << cut,
            digits: cursor.digits | suffix_digits << cut,
            blank: cursor.blank,
        }
    }

    /// Suffix `entry`'s tiles `suffix` (as nibbles, the last two ascending) and its Lehmer
    /// digits (as nibbles, the last two positions' too), in the class that a cursor's
    /// `parity` asks for: the last two tiles in the other order when the entry's own
    /// parity differs.
    #[inline(always)]
    fn in_class(&self, entry: u64, mut suffix: u64, parity: u8) -> (u64, u64) {
        let top = 4 * (self.tail - 2);
        let mut last = 0u64;
        if (entry >> 63) as u8 != parity {
            // The other order of the last two tiles lands in the class asked for.
            let two = (suffix >> top) & 0xFF;
            suffix = (suffix & !(0xFF << top)) | ((two >> 4) | (two & 0xF) << 4) << top;
            last = 1;
        }
        (suffix, (entry >> 32) & ((1u64 << top) - 1) | last << top)
    }

    /// The Lehmer part of the rank change when the blank of a state (its tiles `seq` in
    /// reading order without the blank, their digits `digits`, as nibbles) moves vertically
    /// from `b` to `to`: one tile jumps over `cols − 1` others in the reading order, so only
    /// those positions' digits change, by one each, and the jumping tile's by how many it
    /// passed. It reads positions `min(b, to)..max(b, to)` only.
    #[inline(always)]
    fn lehmer(&self, seq: u64, digits: u64, b: usize, to: usize) -> i64 {
        let nib = |x: u64, i: usize| ((x >> (4 * i)) & 0xF) as i64;
        let w = |i: usize| self.ranker.weight(i);
        let mut delta = 0;
        if to > b {
            // Down: the tile at position to − 1 moves to position b; b..to−1 shift right.
            let (p, q) = (b, to - 1);
            let (x, xc) = (nib(seq, q), nib(digits, q));
            let mut smaller = 0;
            for j in p..q {
                let (e, ce) = (nib(seq, j), nib(digits, j));
                delta += (ce - i64::from(x < e)) * w(j + 1) - ce * w(j);
                smaller += i64::from(e < x);
            }
            delta += (xc + smaller) * w(p) - xc * w(q);
        } else {
            // Up: the tile at position to moves to position b − 1; to+1..b−1 shift left.
            let (p, q) = (to, b - 1);
            let (x, xc) = (nib(seq, p), nib(digits, p));
            let mut smaller = 0;
            for j in p + 1..=q {
                let (e, ce) = (nib(seq, j), nib(digits, j));
                delta += (ce + i64::from(x < e)) * w(j - 1) - ce * w(j);
                smaller += i64::from(e < x);
            }
            delta += (xc - smaller) * w(q) - xc * w(p);
        }
        delta
    }

    /// The prefix of the ranks from `within` (the first rank of a prefix, counted from its
    /// block's first): its tiles and Lehmer digits as nibbles, the set of the suffix's tiles
    /// (bit `t` for tile `t`) and the prefix's inversions.
    fn prefix_of(&self, within: u64) -> (u64, u64, u32, u32) {
        let mut r = within;
        let mut rest = (1u32 << self.board.cells()) - 2;
        let (mut prefix, mut digits, mut inversions) = (0u64, 0u64, 0u32);
        for i in 0..self.prefix_digits {
            let (d, left) = self.ranker.digit(r, i);
            r = left;
            // Every later tile smaller than this one is one inversion with it.
            inversions += d;
            let t = super::nth_set_bit(rest, d);
            rest ^= 1 << t;
            prefix |= u64::from(t) << (4 * i);
            digits |= u64::from(d) << (4 * i);
        }
        (prefix, digits, rest, inversions)
    }

    #[cold]
    fn load_prefix(&self, cursor: &mut ScanCursor, key: u64) {
        // The prefix is that of the first rank that has it: its Lehmer digits are that
        // rank's leading digits (the suffix's are all zero, its tiles ascending).
        let first = key * u64::from(self.span);
        let block = self.ranker.block();
        let blank = (first / block) as usize;
        let within = first % block;
        let (prefix, digits, sorted, row, inversions) = match &self.tiles {
            Some(t) if !t.prefixes.is_empty() => {
                let [a, b] = t.prefixes[(within / u64::from(self.span)) as usize];
                let row = (b >> 24) as u32 as usize;
                (
                    a & 0xFFFF_FFFF,
                    a >> 32,
                    b & 0xFF_FFFF,
                    row,
                    (b >> 56) as u32,
                )
            }
            _ => {
                let (prefix, digits, rest, inversions) = self.prefix_of(within);
                let row = match &self.tiles {
                    Some(t) => t.row[(rest >> 1) as usize] as usize,
                    None => 0,
                };
                (prefix, digits, sorted_nibbles(rest), row, inversions)
            }
        };
        // With the suffix's own digits summing to an even number and its last two tiles
        // ascending, the class would be this.
        let base = crate::layout::class_of(self.board, inversions, blank);
        let parity = base ^ self.class;
        // The prefix's moves change every one of its ranks alike; the moves across its end
        // take the prefix's part from here and the suffix's from `across`.
        let (mut shift, mut rows, mut by_tile) = ([0i64; 4], [0usize; 4], [0i64; 8]);
        let span = self.span as usize;
        let set = (0..self.tail).fold(0u32, |set, j| set | 1 << nib(sorted, j));
        let below = |t: i64| (set & ((1 << t) - 1)).count_ones() as usize;
        for (i, &(_, to)) in self.moves.from(blank).iter().enumerate() {
            let to = to as usize;
            let (p, q) = window(blank, to);
            match self.steps[blank][i].kind {
                Kind::Prefix => shift[i] = self.lehmer(prefix, digits, blank, to),
                Kind::AcrossDown(at) => {
                    rows[i] = at as usize + usize::from(parity) * span;
                    self.down_prefix(prefix, digits, p, below, &mut by_tile);
                }
                Kind::AcrossUp(at) => {
                    let row = usize::from(parity) * (self.tail + 1) + below(nib(prefix, p));
                    rows[i] = at as usize + row * span;
                    shift[i] = self.up_prefix(prefix, digits, p, q);
                }
                Kind::Sideways | Kind::Suffix(_) | Kind::Across => {}
            }
        }
        *cursor = ScanCursor {
            first,
            blank,
            prefix,
            sorted,
            parity,
            row,
            digits,
            shift,
            rows,
            by_tile,
        };
    }

    /// The suffix rank of `rank` (its place in its prefix's span), the cursor moved to its
    /// prefix if it holds another: one subtraction and a compare when it does not.
    #[inline(always)]
    fn locate(&self, cursor: &mut ScanCursor, rank: u64) -> usize {
        // A rank below the prefix's first wraps far past the span, as does every rank
        // before the first prefix is loaded: one subtraction, no division, the same prefix.
        let mut lo = rank.wrapping_sub(cursor.first);
        if lo >= u64::from(self.span) {
            self.load_prefix(cursor, rank / u64::from(self.span));
            lo = rank - cursor.first;
        }
        lo as usize
    }

    /// The cells (bit `c` for cell `c`) that the moves within the prefix take the blank to
    /// from `blank` ([`Scan::prefix_moves`]).
    #[inline]
    pub fn prefix_cells(&self, blank: usize) -> u32 {
        self.prefix_cells[blank]
    }

    /// The moves within the prefix from the ranks of `rank`'s prefix (the ranks from the
    /// prefix's first to [`PrefixMoves::end`]): the cursor moved to that prefix.
    #[inline]
    pub fn prefix_moves(&self, cursor: &mut ScanCursor, rank: u64) -> PrefixMoves {
        self.locate(cursor, rank);
        let blank = cursor.blank;
        let mut moves = PrefixMoves {
            end: cursor.first + u64::from(self.span),
            moves: [(Move::Up, 0, 0); 2],
            count: 0,
        };
        for (i, &(m, to)) in self.moves.from(blank).iter().enumerate() {
            let step = self.steps[blank][i];
            if step.kind == Kind::Prefix {
                moves.moves[moves.count] = (m, to, step.offset + cursor.shift[i]);
                moves.count += 1;
            }
        }
        moves
    }

    /// Calls `f(move, neighbour rank)` for each legal move from `rank` (which must be below
    /// [`Ranker::states`]), in code order, until `f` returns true; whether it did.
    #[inline]
    pub fn any_neighbor(
        &self,
        cursor: &mut ScanCursor,
        rank: u64,
        f: impl FnMut(Move, u64) -> bool,
    ) -> bool {
        self.locate(cursor, rank);
        let blank = cursor.blank;
        self.neighbors(cursor, rank, blank, 0, f)
    }

    /// [`Scan::any_neighbor`] of `rank`, whose blank is in cell `blank` (`rank / block`),
    /// without the moves to the cells of `away` (bit `c` for cell `c`): those neighbours are
    /// neither made nor passed to `f`, and a state whose other moves are all horizontal is
    /// not unranked. The search in parts leaves out the moves whose neighbours lie in
    /// another process's slice: their blocks of ranks are that process's.
    #[inline]
    pub fn any_neighbor_off(
        &self,
        cursor: &mut ScanCursor,
        rank: u64,
        blank: usize,
        away: u32,
        f: impl FnMut(Move, u64) -> bool,
    ) -> bool {
        debug_assert_eq!(rank / self.ranker.block(), blank as u64);
        self.neighbors(cursor, rank, blank, away, f)
    }

    /// The one loop over a state's moves of [`Scan::any_neighbor`] and
    /// [`Scan::any_neighbor_off`], each neighbour by its move's [`Kind`]: a horizontal move
    /// is its offset; a move within the prefix, the prefix's shift; a move within the suffix,
    /// one look-up by the suffix rank; only a move across the prefix's end unranks the state.
    #[inline(always)]
    fn neighbors(
        &self,
        cursor: &mut ScanCursor,
        rank: u64,
        blank: usize,
        away: u32,
        mut f: impl FnMut(Move, u64) -> bool,
    ) -> bool {
        let mut at: Option<State> = None;
        for (i, &(m, to)) in self.moves.from(blank).iter().enumerate() {
            if away >> to & 1 != 0 {
                continue;
            }
            let step = self.steps[blank][i];
            let delta = match step.kind {
                Kind::Sideways => 0,
                Kind::Prefix => {
                    self.locate(cursor, rank);
                    cursor.shift[i]
                }
                Kind::Suffix(from) => {
                    let lo = self.locate(cursor, rank);
                    let parity = usize::from(cursor.parity) * self.span as usize;
                    i64::from(self.suffix_deltas[from as usize + parity + lo])
                }
                Kind::Across => {
                    let at = at.get_or_insert_with(|| self.state(cursor, rank));
                    self.lehmer(at.seq, at.digits, blank, to as usize)
                }
                Kind::AcrossDown(_) => {
                    let lo = self.locate(cursor, rank);
                    let part = self.across[cursor.rows[i] + lo];
                    (part >> 3) + cursor.by_tile[(part & 7) as usize]
                }
                Kind::AcrossUp(_) => {
                    let lo = self.locate(cursor, rank);
                    cursor.shift[i] + self.across[cursor.rows[i] + lo]
                }
            };
            if f(m, (rank as i64 + step.offset + delta) as u64) {
                return true;
            }
        }
        false
    }
}

/// The horizontal moves of a whole word of states at once. A horizontal move leaves the
/// tiles' reading order alone, so it is exactly one block of ranks over
/// ([`Ranker::block`]). When a block is a whole number of bitmap words ((n − 1)!/2 a multiple
/// of 64: boards of 9 cells or more), the states of a bitmap word (64 ranks) or of a word of
/// 2-bit entries (32) share their blank cell, and their neighbours one move left or right are
/// the same bits of the word one block away: a level pass of a breadth-first search reads and
/// writes those a word at a time, and ranks and unranks states for their vertical moves only.
/// The generator's searches and the query crate's recovery of distances all take their
/// horizontal moves from here.
#[derive(Clone, Copy)]
pub struct Sideways<'a, R: Ranks = Ranker> {
    scan: &'a Scan<R>,
    block: u64,
    on: bool,
}

impl<'a, R: Ranks> Sideways<'a, R> {
    /// The word-at-a-time moves of `scan`'s class (none when a block is not whole words).
    pub fn new(scan: &'a Scan<R>) -> Sideways<'a, R> {
        let block = scan.ranker().block();
        Sideways {
            scan,
            block,
            on: block.is_multiple_of(64),
        }
    }

    /// The rank offsets of a move left and a move right (in that order) from the states of
    /// the word of `lanes` (bit `k` for local rank `start + k`, `k < 64`; the ranks counted
    /// from a slice's `first` rank), where the move is legal and every neighbour it reaches
    /// lies in the slice's `len` ranks.
    #[inline]
    pub fn steps(self, first: u64, len: u64, start: u64, lanes: u64) -> [Option<i64>; 2] {
        if !self.on || lanes == 0 {
            return [None, None];
        }
        let blank = ((first + start) / self.block) as usize;
        let (lo, hi) = (
            (start + u64::from(lanes.trailing_zeros())) as i64,
            (start + 63 - u64::from(lanes.leading_zeros())) as i64,
        );
        let block = self.block as i64;
        let step = |m: Move, by: i64| {
            let inside = lo + by >= 0 && hi + by < len as i64;
            (self.scan.moves().of(blank, m).is_some() && inside).then_some(by)
        };
        [step(Move::Left, -block), step(Move::Right, block)]
    }
}

impl Sideways<'_> {
    /// Whether move `m` is one that [`Sideways::steps`] gave (`done[0]` left, `done[1]`
    /// right), so a state's own moves skip it.
    #[inline]
    pub fn handled(done: [bool; 2], m: Move) -> bool {
        match m {
            Move::Left => done[0],
            Move::Right => done[1],
            Move::Up | Move::Down => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time horizontal moves are the moves the scan makes, state by state,
    /// and are left to the states' own moves when the block is not whole words or the
    /// neighbours fall outside the slice.
    #[test]
    fn sideways_steps_are_the_scans_horizontal_moves() {
        for (rows, cols, on) in [(3, 3, true), (2, 5, true), (2, 4, false), (2, 3, false)] {
            let board = Board::new(rows, cols).unwrap();
            let scan = Scan::new(board, 0).unwrap();
            let states = scan.ranker().states();
            let sideways = Sideways::new(&scan);
            assert_eq!(sideways.on, on, "{board}");
            let mut cursor = scan.cursor();
            for start in (0..states).step_by(64) {
                let lanes = if states - start < 64 {
                    (1u64 << (states - start)) - 1
                } else {
                    u64::MAX
                };
                let steps = sideways.steps(0, states, start, lanes);
                if !on {
                    assert_eq!(steps, [None, None]);
                    continue;
                }
                for r in start..(start + 64).min(states) {
                    let mut seen = [None, None];
                    scan.any_neighbor(&mut cursor, r, |m, n| {
                        match m {
                            Move::Left => seen[0] = Some(n as i64 - r as i64),
                            Move::Right => seen[1] = Some(n as i64 - r as i64),
                            Move::Up | Move::Down => {}
                        }
                        false
                    });
                    assert_eq!(seen, steps, "{board} rank {r}");
                }
                // A slice that starts with the word's block has no room for a move left
                // from it, and one that ends a rank short of the last neighbour none for a
                // move right.
                let block = scan.ranker().block();
                if steps[0].is_some() {
                    let first = start / block * block;
                    let inside = sideways.steps(first, states - first, start - first, lanes);
                    assert_eq!(inside, [None, steps[1]], "{board} rank {start}");
                }
                if steps[1].is_some() {
                    let short = start + block + 64 - 1;
                    assert_eq!(sideways.steps(0, short, start, lanes)[1], None);
                    assert_eq!(sideways.steps(0, short + 1, start, lanes)[1], steps[1]);
                }
            }
        }
    }

    /// The boards the neighbour tests step through have moves of every kind, so each way
    /// of making a vertical neighbour is checked against the ranker.
    #[test]
    fn larger_boards_have_moves_of_every_kind() {
        for (rows, cols) in [(3, 3), (2, 5), (3, 4), (4, 3), (2, 6)] {
            let scan = Scan::new(Board::new(rows, cols).unwrap(), 0).unwrap();
            let mut kinds = [0; 4];
            for blank in 0..scan.board.cells() {
                for i in 0..scan.moves.from(blank).len() {
                    kinds[match scan.steps[blank][i].kind {
                        Kind::Sideways => 0,
                        Kind::Prefix => 1,
                        Kind::Suffix(_) => 2,
                        Kind::Across | Kind::AcrossDown(_) | Kind::AcrossUp(_) => 3,
                    }] += 1;
                }
            }
            let vertical = 2 * (rows - 1) * cols;
            assert_eq!(kinds[0], 2 * rows * (cols - 1), "{rows}x{cols}");
            assert_eq!(kinds[1] + kinds[2] + kinds[3], vertical, "{rows}x{cols}");
            assert!(kinds[2] > 0 && kinds[3] > 0, "{rows}x{cols}: {kinds:?}");
            assert_eq!(
                kinds[1] > 0,
                scan.prefix_digits >= cols,
                "{rows}x{cols}: {kinds:?}"
            );
        }
    }

    /// A tabulated scan makes the moves across the prefix's end from its tables, a plain
    /// one from each state: the same neighbours, for runs of ranks through whole prefixes
    /// spread over every block, in both classes.
    #[test]
    fn the_tabulated_moves_across_the_prefix_are_the_plain_ones() {
        for (rows, cols) in [(3, 3), (2, 5), (3, 4), (4, 3), (2, 6), (6, 2), (2, 7)] {
            let board = Board::new(rows, cols).unwrap();
            for class in 0..2 {
                let (plain, table) = (
                    Scan::new(board, class).unwrap(),
                    Scan::tabulated(board, class).unwrap(),
                );
                let across = |scan: &Scan| {
                    let kinds = scan.steps.iter().flatten().map(|s| s.kind);
                    kinds
                        .filter(|k| matches!(k, Kind::AcrossDown(_) | Kind::AcrossUp(_)))
                        .count()
                };
                assert_eq!(across(&plain), 0, "{board}");
                assert!(across(&table) > 0, "{board}");
                let states = plain.ranker().states();
                let (mut a, mut b) = (plain.cursor(), table.cursor());
                let stride = (states / 1500).max(1);
                for start in (0..states).step_by(stride as usize) {
                    for r in start..(start + 800).min(states) {
                        let mut want = Vec::new();
                        plain.any_neighbor(&mut a, r, |m, n| {
                            want.push((m, n));
                            false
                        });
                        let mut got = Vec::new();
                        table.any_neighbor(&mut b, r, |m, n| {
                            got.push((m, n));
                            false
                        });
                        assert_eq!(got, want, "{board} class {class} rank {r}");
                    }
                }
            }
        }
    }

    /// A prefix's moves within the prefix are the moves every one of its ranks makes to
    /// those cells, and end where the next prefix starts.
    #[test]
    fn prefix_moves_are_each_ranks_moves_within_the_prefix() {
        for (rows, cols) in [(4, 3), (3, 4), (2, 4), (5, 2)] {
            let board = Board::new(rows, cols).unwrap();
            for class in 0..2 {
                let scan = Scan::tabulated(board, class).unwrap();
                let states = scan.ranker().states();
                let span = u64::from(scan.span);
                let (mut cursor, mut other) = (scan.cursor(), scan.cursor());
                let mut some = 0;
                for r in (0..states).step_by(97) {
                    let pm = scan.prefix_moves(&mut cursor, r);
                    assert_eq!(pm.end, (r / span + 1) * span, "{board} rank {r}");
                    let cells = scan.prefix_cells(r as usize / scan.ranker().block() as usize);
                    let made: Vec<_> = pm.moves[..pm.count].to_vec();
                    assert_eq!(made.iter().fold(0, |c, &(_, to, _)| c | 1 << to), cells);
                    for s in [r - r % span, r, pm.end - 1] {
                        let mut want = Vec::new();
                        scan.any_neighbor(&mut other, s, |m, n| {
                            if let Some(&(_, to, d)) = made.iter().find(|x| x.0 == m) {
                                want.push((m, to, s as i64 + d));
                                assert_eq!(n as i64, s as i64 + d, "{board} rank {s} {m:?}");
                            }
                            false
                        });
                        assert_eq!(want.len(), made.len(), "{board} rank {s}");
                    }
                    some += pm.count;
                }
                assert_eq!(some > 0, scan.prefix_digits >= cols, "{board}");
            }
        }
    }

    /// A cursor taken through ranks in any order (backwards within a prefix's span, from
    /// one prefix to the one before, rank 0 first) unranks each as the ranker does.
    #[test]
    fn a_cursor_unranks_ranks_in_any_order() {
        for (rows, cols) in [(3, 3), (2, 5), (3, 4)] {
            let board = Board::new(rows, cols).unwrap();
            for class in 0..2 {
                for scan in [
                    Scan::new(board, class).unwrap(),
                    Scan::tabulated(board, class).unwrap(),
                ] {
                    let states = scan.ranker().states();
                    let span = u64::from(scan.span);
                    let mut ranks = vec![0, 1, span - 1, span, span - 1, span + 1, 0, span];
                    ranks.extend([states - 1, states - span - 1, states - span, states - 1]);
                    let mut x = 0x9E37_79B9_7F4A_7C15u64;
                    for _ in 0..2_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let r = x % states;
                        ranks.extend([r, r.saturating_sub(x >> 40 & 7), (r + 1).min(states - 1)]);
                    }
                    let mut cursor = scan.cursor();
                    for r in ranks {
                        let want = scan.ranker().unrank_packed(r, class);
                        assert_eq!(scan.unrank(&mut cursor, r), want, "{board} rank {r}");
                    }
                }
            }
        }
    }
}
