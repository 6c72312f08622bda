//! What each judge problem is called: its name (the site and the problem's number, as people
//! type it), the other spellings it answers to, and the nearest name to a typo.

use crate::Format;

/// Why a name is not a judge's: the nearest names, if any is near.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct UnknownFormat {
    /// The name as given.
    pub name: String,
    /// The judges it may mean, nearest first: one for a typo, several for an ambiguous prefix
    /// (`uva`), none when nothing is near.
    pub nearest: Vec<Format>,
}

impl UnknownFormat {
    fn message(&self) -> String {
        let names: Vec<&str> = self.nearest.iter().map(|f| f.name()).collect();
        let hint = match names.as_slice() {
            [] => String::new(),
            [one] => format!(": did you mean {one}?"),
            many => format!(": did you mean one of {}?", many.join(", ")),
        };
        format!(
            "unknown judge '{}'{hint} (`slidetable judge --list` names every judge)",
            self.name
        )
    }
}

/// The letters that matter in a name: lower case, without the separators people put between
/// the site and the number (`POJ-1077`, `poj_1077`, `UVa 10181`, `luogu p1379`).
fn normalized(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.' | '#'))
        .flat_map(char::to_lowercase)
        .collect()
}

impl Format {
    /// Other names the command line takes for it: the short names of earlier versions and the
    /// other spellings of the site or problem. Separators and case never matter
    /// (`POJ-1077` is `poj1077`).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Poj => &["poj", "acwing179", "pku1077"],
            Format::Hdu => &["hdu", "hdoj1043", "zoj1217"],
            Format::Acwing845 => &[],
            Format::Hiho => &["hiho", "hiho1312"],
            Format::Pair => &[],
            Format::Luogu => &["luogu", "p1379", "luogup1379", "codevs1225"],
            Format::Hdu3567 => &["hdoj3567"],
            Format::Uva10085 => &[],
            Format::Leetcode773 => &["lc773", "leetcode"],
            Format::Uva652 => &[],
            Format::Uva10181 => &[],
            Format::Lightoj1121 => &["lightoj", "loj1121"],
        }
    }

    /// The site and problem, as a person would cite it.
    pub fn problem(self) -> &'static str {
        match self {
            Format::Poj => "POJ 1077 / AcWing 179 \"Eight\"",
            Format::Hdu => "HDU 1043 / ZOJ 1217 \"Eight\"",
            Format::Acwing845 => "AcWing 845 \"Eight-puzzle\"",
            Format::Hiho => "HihoCoder 1312 \"Eight-puzzle\"",
            Format::Pair => "Liu Rujia's textbook \"eight numbers\" (start and goal)",
            Format::Luogu => "Luogu P1379 / CodeVS 1225 \"Eight-puzzle\"",
            Format::Hdu3567 => "HDU 3567 \"Eight II\"",
            Format::Uva10085 => "UVa 10085 \"The most distant state\"",
            Format::Leetcode773 => "LeetCode 773 \"Sliding Puzzle\" (2x3)",
            Format::Uva652 => "UVa 652 \"Eight\"",
            Format::Uva10181 => "UVa 10181 \"15-Puzzle Problem\" (4x4)",
            Format::Lightoj1121 => "LightOJ 1121 \"15-Puzzle\" (4x4)",
        }
    }

    /// What it prints for each case, in a few words.
    pub fn prints(self) -> &'static str {
        match self {
            Format::Poj | Format::Hdu => "a move string (udlr) or `unsolvable`",
            Format::Acwing845 | Format::Pair | Format::Leetcode773 => "the fewest moves, or -1",
            Format::Hiho => "the fewest moves, or `No Solution!`",
            Format::Luogu => "the fewest moves",
            Format::Hdu3567 => "`Case k: n` and the smallest optimal path (d<l<r<u)",
            Format::Uva10085 => "`Puzzle #k`, a farthest state, the moves to it",
            Format::Uva652 => "a move string or `unsolvable`, blank line between",
            Format::Uva10181 => "a move string (LRUD) of at most 50 moves, or not solvable",
            Format::Lightoj1121 => "`Case k: ` and the smallest optimal moves (D<L<R<U)",
        }
    }

    /// What the site's judge accepts: any correct answer (a special judge), or only the
    /// expected output byte for byte.
    pub fn accepts(self) -> &'static str {
        match self {
            Format::Poj | Format::Hdu | Format::Uva652 => "any solution",
            Format::Uva10181 => "any solution of at most 50 moves",
            Format::Uva10085 => "any farthest state, with a path to it",
            _ => "this output byte for byte",
        }
    }

    /// The format called `name`, by its name or an alias, whatever the case and separators
    /// (`POJ-1077`, `uva_10181`, `lc773`); otherwise the nearest names.
    pub fn from_name(name: &str) -> Result<Format, UnknownFormat> {
        let wanted = normalized(name);
        let spellings = || {
            Format::ALL.into_iter().flat_map(|f| {
                std::iter::once(f.name())
                    .chain(f.aliases().iter().copied())
                    .map(move |n| (f, n))
            })
        };
        if let Some((f, _)) = spellings().find(|&(_, n)| n == wanted) {
            return Ok(f);
        }
        let mut nearest: Vec<Format> = Vec::new();
        let push = |nearest: &mut Vec<Format>, f: Format| {
            if !nearest.contains(&f) {
                nearest.push(f);
            }
        };
        // A prefix (`uva`, `hdu10`) may name several judges: offer them all.
        if wanted.len() >= 2 {
            spellings()
                .filter(|(_, n)| n.starts_with(&wanted))
                .for_each(|(f, _)| push(&mut nearest, f));
        }
        if nearest.is_empty() {
            let most = (wanted.chars().count() / 3).max(2);
            let mut scored: Vec<(usize, Format)> = spellings()
                .map(|(f, n)| (edits(&wanted, n), f))
                .filter(|&(d, _)| d <= most)
                .collect();
            scored.sort_by_key(|&(d, _)| d);
            if let Some(&(best, _)) = scored.first() {
                scored
                    .iter()
                    .filter(|&&(d, _)| d == best)
                    .for_each(|&(_, f)| push(&mut nearest, f));
            }
        }
        Err(UnknownFormat {
            name: name.to_string(),
            nearest,
        })
    }
}

/// The Levenshtein distance between `a` and `b`: insertions, deletions and substitutions.
pub(crate) fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_names_its_own_format_and_no_other() {
        let mut seen = std::collections::HashSet::new();
        for f in Format::ALL {
            for n in std::iter::once(f.name()).chain(f.aliases().iter().copied()) {
                assert!(seen.insert(n), "{n} names two formats");
                assert_eq!(Format::from_name(n), Ok(f), "{n}");
                assert_eq!(normalized(n), n, "{n} is not in its normal form");
            }
        }
    }

    #[test]
    fn the_spellings_people_type_are_taken() {
        for (typed, f) in [
            ("poj1077", Format::Poj),
            ("POJ-1077", Format::Poj),
            ("AcWing179", Format::Poj),
            ("hdu1043", Format::Hdu),
            ("HDU 1043", Format::Hdu),
            ("hihocoder1312", Format::Hiho),
            ("luogu1379", Format::Luogu),
            ("Luogu P1379", Format::Luogu),
            ("leetcode773", Format::Leetcode773),
            ("lc773", Format::Leetcode773),
            ("lightoj", Format::Lightoj1121),
            ("UVa_10181", Format::Uva10181),
            ("poj", Format::Poj),
            ("hdu", Format::Hdu),
            ("zoj1217", Format::Hdu),
            ("ZOJ-1217", Format::Hdu),
            ("loj1121", Format::Lightoj1121),
            ("LOJ 1121", Format::Lightoj1121),
            ("codevs1225", Format::Luogu),
        ] {
            assert_eq!(Format::from_name(typed), Ok(f), "{typed}");
        }
    }

    #[test]
    fn a_typo_gets_the_nearest_name_and_a_prefix_every_judge_it_begins() {
        let err = Format::from_name("poj1707").unwrap_err();
        assert_eq!(err.nearest, [Format::Poj]);
        assert_eq!(
            err.to_string(),
            "unknown judge 'poj1707': did you mean poj1077? \
             (`slidetable judge --list` names every judge)"
        );
        assert_eq!(
            Format::from_name("uva1018").unwrap_err().nearest,
            [Format::Uva10181]
        );
        assert_eq!(
            Format::from_name("uva").unwrap_err().nearest,
            [Format::Uva10085, Format::Uva652, Format::Uva10181]
        );
        assert_eq!(
            Format::from_name("hidocoder1312").unwrap_err().nearest,
            [Format::Hiho]
        );
        // The other judges' ids of the same problems have their typos answered too.
        assert_eq!(
            Format::from_name("zoj1271").unwrap_err().nearest,
            [Format::Hdu]
        );
        assert_eq!(
            Format::from_name("loj1112").unwrap_err().nearest,
            [Format::Lightoj1121]
        );
        let far = Format::from_name("codeforces").unwrap_err();
        assert_eq!(far.nearest, []);
        assert_eq!(
            far.to_string(),
            "unknown judge 'codeforces' (`slidetable judge --list` names every judge)"
        );
    }

    #[test]
    fn edits_count_insertions_deletions_and_substitutions() {
        assert_eq!(edits("", ""), 0);
        assert_eq!(edits("poj", "poj"), 0);
        assert_eq!(edits("poj", "pojx"), 1);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "abc"), 3);
    }
}
