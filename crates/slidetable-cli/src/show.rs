//! `path --show`: a solution drawn as boards, one after another, several per row.

use slidetable::core::{Layout, Layout25, Move};

use crate::json::Measure;

/// A puzzle as the answers print it: a layout of a board of up to 16 cells, or of the
/// 24-puzzle's ([`Layout25`]), so that one writer (`answers::write`) and one drawing ([`draw`]) serve every board.
pub(crate) trait Printed: Copy + std::fmt::Display {
    /// The tiles in reading order, the blank as 0.
    fn tiles(&self) -> &[u8];
    /// The board's rows and columns.
    fn shape(&self) -> (usize, usize);
    /// The layout after the blank moves in direction `m`, if that stays on the board.
    fn moved(&self, m: Move) -> Option<Self>;
}

impl Printed for Layout {
    #[inline(always)]
    fn tiles(&self) -> &[u8] {
        Layout::tiles(self)
    }
    fn shape(&self) -> (usize, usize) {
        (self.board().rows(), self.board().cols())
    }
    fn moved(&self, m: Move) -> Option<Layout> {
        Layout::moved(self, m)
    }
}

impl Printed for Layout25 {
    fn tiles(&self) -> &[u8] {
        Layout25::tiles(self)
    }
    fn shape(&self) -> (usize, usize) {
        (self.rows(), self.cols())
    }
    fn moved(&self, m: Move) -> Option<Layout25> {
        Layout25::moved(self, m)
    }
}

/// Columns the drawing stays within.
const WIDTH: usize = 80;
/// Spaces between two boards.
const GAP: usize = 3;

/// Appends a drawing of `start` and the boards along `path` (`None`: no path) to `out`: a
/// heading line numbered `number` (the puzzle's number on the question sheet `random
/// --show` draws), then rows of boards, each labelled with its move number and the blank's
/// move (`start` for the first). The blank is drawn as `.`. On a weighted table `cost` is
/// the path's cost, named beside its moves.
pub(crate) fn draw<P: Printed>(
    out: &mut Vec<u8>,
    number: u64,
    start: &P,
    path: Option<&[Move]>,
    cost: Option<u32>,
) {
    let heading = match path {
        None => format!("{number}. {start}: unsolvable\n\n"),
        Some([]) => format!("{number}. {start}: solved already (0 moves)\n\n"),
        Some(path) => format!(
            "{number}. {start}: {}{}, {}\n\n",
            Measure::Distance.amount(path.len() as u32),
            cost.map_or(String::new(), |c| format!(
                " at {}",
                Measure::Cost.amount(c)
            )),
            path.iter().map(|m| m.letter()).collect::<String>()
        ),
    };
    out.extend_from_slice(heading.as_bytes());
    let Some(path) = path else {
        return;
    };
    let mut boards = vec![("start".to_string(), *start)];
    let mut at = *start;
    for (i, &m) in path.iter().enumerate() {
        at = at.moved(m).expect("a path from the table is legal");
        boards.push((format!("{} {}", i + 1, m.letter()), at));
    }
    draw_boards(out, &boards);
}

/// Appends `puzzles` drawn side by side, numbered from 1, without their solutions: a
/// question sheet (`random --show`). A goal other than the standard one (tiles in order,
/// blank last) is drawn first, labelled `goal`, so the sheet says where the tiles go.
pub(crate) fn sheet(out: &mut Vec<u8>, puzzles: &[Layout], goal: &Layout) {
    let shown = (!goal.is_standard_goal()).then(|| ("goal".to_string(), *goal));
    let boards: Vec<(String, Layout)> = shown
        .into_iter()
        .chain(
            puzzles
                .iter()
                .enumerate()
                .map(|(i, p)| ((i + 1).to_string(), *p)),
        )
        .collect();
    draw_boards(out, &boards);
}

/// Appends `boards` in rows of as many as fit in [`WIDTH`] columns, each under its label.
fn draw_boards<P: Printed>(out: &mut Vec<u8>, boards: &[(String, P)]) {
    let Some((_, first)) = boards.first() else {
        return;
    };
    let (rows, cols) = first.shape();
    let cell = if rows * cols > 10 { 2 } else { 1 };
    let label_width = boards.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
    let column = (cols * (cell + 1) - 1).max(label_width);
    let per_row = ((WIDTH + GAP) / (column + GAP)).max(1);
    for row in boards.chunks(per_row) {
        let mut lines = vec![String::new(); rows + 1];
        for (j, (label, layout)) in row.iter().enumerate() {
            let pad = if j == 0 { 0 } else { GAP };
            lines[0].push_str(&format!("{:pad$}{label:<column$}", ""));
            for (r, tiles) in layout.tiles().chunks(cols).enumerate() {
                let text: Vec<String> = tiles
                    .iter()
                    .map(|&t| match t {
                        0 => format!("{:>cell$}", "."),
                        t => format!("{t:>cell$}"),
                    })
                    .collect();
                lines[r + 1].push_str(&format!("{:pad$}{:<column$}", "", text.join(" ")));
            }
        }
        for line in lines {
            out.extend_from_slice(line.trim_end().as_bytes());
            out.push(b'\n');
        }
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use slidetable::core::{parse_layout, parse_path, Board};

    fn drawing(start: &str, path: Option<&str>) -> String {
        let start = parse_layout(Board::EIGHT, start.as_bytes()).unwrap();
        let path = path.map(|p| parse_path(p).unwrap());
        let mut out = Vec::new();
        draw(&mut out, 7, &start, path.as_deref(), None);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn draws_each_board_under_its_move() {
        assert_eq!(
            drawing("1 2 3 4 5 6 7 0 8", Some("r")),
            "7. 1 2 3 4 5 6 7 0 8: 1 move, r\n\n\
             start   1 r\n\
             1 2 3   1 2 3\n\
             4 5 6   4 5 6\n\
             7 . 8   7 8 .\n\n"
        );
        assert_eq!(
            drawing("2 1 3 4 5 6 7 8 0", None),
            "7. 2 1 3 4 5 6 7 8 0: unsolvable\n\n"
        );
        assert_eq!(
            drawing("1 2 3 4 5 6 7 8 0", Some("")),
            "7. 1 2 3 4 5 6 7 8 0: solved already (0 moves)\n\n\
             start\n1 2 3\n4 5 6\n7 8 .\n\n"
        );
    }

    #[test]
    fn long_paths_wrap_into_rows() {
        let text = drawing("2 3 4 1 5 0 7 6 8", Some("ullddrurdllurrdlurd"));
        // 20 boards, 10 to a row of at most 80 columns: two rows of 4 lines and a blank each.
        assert_eq!(text.lines().count(), 2 + 2 * 5);
        assert!(text.lines().all(|l| l.len() <= WIDTH));
        assert!(text.contains("\n10 l"));
    }
}
