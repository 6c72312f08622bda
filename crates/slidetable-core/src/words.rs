//! Counts in words, as every message and report writes them.

/// `n` and `noun`, plural unless `n` is 1: `1 state`, `2 states`, `0 moves`. The one place
/// a count is put into words (regular nouns: an `s` added).
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `names` as a message lists choices: `a`, `a or b`, `a, b or c` (empty for none).
pub fn one_of(names: &[String]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// The shapes of `cells` cells with two rows and two columns at least, the squarest first
/// (`3x4`, `4x3`, `2x6`, `6x2` for 12), named as boards are (`RxC`): the boards a puzzle of
/// that many tiles may be for, of any size (the caller says which have tables).
pub fn shapes_of(cells: usize) -> Vec<String> {
    let mut shapes: Vec<(usize, usize)> = (2..=cells / 2)
        .filter(|r| cells.is_multiple_of(*r) && cells / r >= 2)
        .map(|r| (r, cells / r))
        .collect();
    shapes.sort_by_key(|&(r, c)| (r.abs_diff(c), r));
    shapes.iter().map(|(r, c)| format!("{r}x{c}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_come_squarest_first_and_lists_read_as_choices() {
        assert_eq!(shapes_of(12), ["3x4", "4x3", "2x6", "6x2"]);
        assert_eq!(shapes_of(9), ["3x3"]);
        assert_eq!(shapes_of(16), ["4x4", "2x8", "8x2"]);
        assert!(shapes_of(7).is_empty());
        assert!(shapes_of(3).is_empty());
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(one_of(&names(&[])), "");
        assert_eq!(one_of(&names(&["3x3"])), "3x3");
        assert_eq!(one_of(&names(&["2x4", "4x2"])), "2x4 or 4x2");
        assert_eq!(one_of(&names(&["3x4", "4x3", "2x6"])), "3x4, 4x3 or 2x6");
    }

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "state"), "1 state");
        assert_eq!(counted(0, "state"), "0 states");
        assert_eq!(counted(2, "move"), "2 moves");
        assert_eq!(counted(u64::MAX, "line"), format!("{} lines", u64::MAX));
    }
}
