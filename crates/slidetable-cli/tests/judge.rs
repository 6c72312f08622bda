//! `slidetable judge FORMAT` run as a judge runs it: every sample in `data/judges` reproduced
//! byte for byte; the special judges' answers (poj, hdu, uva10085) replayed and checked for
//! optimality; HDU 3567's "smallest optimal path" checked against every optimal path, found by
//! an independent brute force; input read as accepted solutions read it (`hdu` by tokens,
//! `poj` answering before reporting extra input, LeetCode's own `board = [[...]]` line, UVa 652's
//! blank lines); bad input, an end of input the judge did not expect, and endless or
//! millions of lines in constant memory, in every format; `judge --help` and the README on
//! which judges have a special judge.
//!
//! The 3×3, 2×3 and 15-puzzle tables are generated once per test binary (`common`).

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::thread;
use std::time::Duration;

use serde_json::Value;
use slidetable::core::{parse_layout, parse_path, Board, Layout, Move};
use slidetable_testkit::{for_each_permutation, swapped};
use tempfile::TempDir;

use crate::common::layouts::{
    brute_force, distances_of, grid, paths_of, replay, spelled, Rng, SAMPLE, SAMPLE_PATH,
};
use crate::common::{
    peak_rss, process, repo, sandboxed, slidetable, table_2x3, table_3x3, table_4x4_555, text,
    wait_at_most, Run, BAD_INPUT,
};

/// Every directory of `data/judges`, each a `judge` format of the same name.
const JUDGES: [&str; 12] = [
    "acwing845",
    "hdu1043",
    "hdu3567",
    "hihocoder1312",
    "leetcode773",
    "lightoj1121",
    "luogu1379",
    "pair",
    "poj1077",
    "uva10085",
    "uva10181",
    "uva652",
];

fn small_board() -> Board {
    Board::new(2, 3).unwrap()
}

/// The largest distance in the 3×3 table's section for each goal blank cell.
fn max_distance() -> &'static [u32; 9] {
    static MAX: OnceLock<[u32; 9]> = OnceLock::new();
    MAX.get_or_init(|| {
        let info = Run::of(slidetable().args(["info", "--json"]).arg(table_3x3())).ok();
        let info: Value = serde_json::from_str(&info.stdout).unwrap();
        let mut max_distance = [u32::MAX; 9];
        for section in info["sections"].as_array().unwrap() {
            let goal = section["goal"].as_array().unwrap();
            let blank = goal.iter().position(|t| t.as_u64() == Some(0)).unwrap();
            max_distance[blank] = section["max_distance"].as_u64().unwrap() as u32;
        }
        assert!(max_distance.iter().all(|&m| m < 40), "{max_distance:?}");
        max_distance
    })
}

fn table_for(format: &str) -> &'static Path {
    if format == "leetcode773" {
        table_2x3()
    } else if format == "uva10181" || format == "lightoj1121" {
        table_4x4_555()
    } else {
        table_3x3()
    }
}

/// `slidetable judge FORMAT --table T`, reading `input` on standard input.
fn judge(format: &str, input: impl AsRef<[u8]>) -> Run {
    Run::of(
        slidetable()
            .args(["judge", format, "--table"])
            .arg(table_for(format))
            .write_stdin(input.as_ref()),
    )
}

fn judges_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/judges")
}

/// A random layout exactly `d` moves from the goal `dist` was computed for (`board`'s), with
/// more than one optimal path to it.
fn with_a_choice(rng: &mut Rng, board: Board, dist: &HashMap<u64, u32>, d: u32) -> Layout {
    // The number of optimal paths of each layout, nearest first.
    let mut by_distance: Vec<(u32, u64)> = dist.iter().map(|(&p, &e)| (e, p)).collect();
    by_distance.sort_unstable();
    let mut count: HashMap<u64, u64> = HashMap::new();
    for &(e, p) in &by_distance {
        let layout = Layout::from_packed(board, p).unwrap();
        let n = if e == 0 {
            1
        } else {
            Move::ALL
                .iter()
                .filter_map(|&m| layout.moved(m))
                .filter(|next| dist.get(&next.packed()) == Some(&(e - 1)))
                .map(|next| count[&next.packed()])
                .sum()
        };
        count.insert(p, n);
    }
    let ring: Vec<u64> = by_distance
        .iter()
        .filter(|&&(e, p)| e == d && count[&p] > 1)
        .map(|&(_, p)| p)
        .collect();
    assert!(!ring.is_empty(), "no layout at {d} moves with a choice");
    Layout::from_packed(board, ring[rng.below(ring.len())]).unwrap()
}

/// Every optimal path from `start` to the goal `dist` was computed for (`start` must be in it).
fn all_optimal_paths(start: &Layout, dist: &HashMap<u64, u32>) -> Vec<String> {
    fn walk(
        at: &Layout,
        d: u32,
        dist: &HashMap<u64, u32>,
        prefix: &mut String,
        out: &mut Vec<String>,
    ) {
        if d == 0 {
            out.push(prefix.clone());
            return;
        }
        for m in Move::ALL {
            if let Some(next) = at.moved(m) {
                if dist.get(&next.packed()) == Some(&(d - 1)) {
                    prefix.push(m.letter());
                    walk(&next, d - 1, dist, prefix, out);
                    prefix.pop();
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(
        start,
        dist[&start.packed()],
        dist,
        &mut String::new(),
        &mut out,
    );
    out
}

/// The smallest of `paths` when letters compare in `order` (e.g. `dlru`: d < l < r < u).
fn smallest(paths: &[String], order: &str) -> String {
    let key = |p: &String| -> Vec<usize> { p.chars().map(|c| order.find(c).unwrap()).collect() };
    paths.iter().min_by_key(|p| key(p)).unwrap().clone()
}

// ---------------------------------------------------------------------------------------------
// The samples

#[test]
fn every_sample_is_reproduced_byte_for_byte() {
    let mut dirs: Vec<String> = fs::read_dir(judges_dir())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(dirs, JUDGES, "a judge directory without a test, or gone");
    for name in JUDGES {
        let dir = judges_dir().join(name);
        let input = fs::read(dir.join("input.txt")).unwrap();
        let expected = text(&fs::read(dir.join("expected.txt")).unwrap());
        let run = judge(name, input).ok();
        assert_eq!(run.stdout, expected, "{name}: standard input");
        // The same, with the input named as an argument.
        let run = Run::of(
            slidetable()
                .args(["judge", name, "--table"])
                .arg(table_for(name))
                .arg(dir.join("input.txt")),
        )
        .ok();
        assert_eq!(run.stdout, expected, "{name}: input file");
    }
}

#[test]
fn leetcode773_makes_its_2x3_table_in_the_cache_on_first_use() {
    let scratch = TempDir::new_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let dir = judges_dir().join("leetcode773");
    let input = fs::read(dir.join("input.txt")).unwrap();
    let expected = text(&fs::read(dir.join("expected.txt")).unwrap());
    let cached = scratch.path().join("cache/slidetable/2x3.slt");

    let first = Run::of(
        sandboxed(scratch.path())
            .args(["judge", "leetcode773"])
            .write_stdin(input.clone()),
    );
    assert_eq!(first.code, Some(0), "{first:#?}");
    assert_eq!(first.stdout, expected);
    assert!(first.stderr.contains("generating it once"), "{first:#?}");
    assert!(cached.is_file());
    // Only the 2×3 table: nothing made the 3×3 one.
    assert!(!scratch.path().join("cache/slidetable/3x3.slt").exists());

    let second = Run::of(
        sandboxed(scratch.path())
            .args(["judge", "leetcode773"])
            .write_stdin(input),
    )
    .ok();
    assert_eq!(second.stdout, expected);
}

#[test]
fn a_table_for_the_wrong_board_is_refused() {
    let run = Run::of(
        slidetable()
            .args(["judge", "poj1077", "--table"])
            .arg(table_2x3())
            .write_stdin(SAMPLE),
    );
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("is for 2x3 boards"), "{run:#?}");
    let run = Run::of(
        slidetable()
            .args(["judge", "leetcode773", "--table"])
            .arg(table_3x3())
            .write_stdin("[[1,2,3],[4,0,5]]\n"),
    );
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("is for 3x3 boards"), "{run:#?}");
}

#[test]
fn leetcode773_answers_every_2x3_board_as_a_breadth_first_search_does() {
    let board = small_board();
    let dist = brute_force(&board.standard_goal(), u32::MAX);
    assert_eq!(dist.len(), 360);
    // All 720 boards, in LeetCode's spelling, some with spaces.
    let mut boards = Vec::new();
    for_each_permutation(6, |t| boards.push(Layout::new(board, t).unwrap()));
    assert_eq!(boards.len(), 720);
    let mut input = String::new();
    let mut expected = String::new();
    for (i, b) in boards.iter().enumerate() {
        let t = b.tiles();
        if i % 3 == 0 {
            input += &format!(
                " [ [{}, {}, {}], [{}, {}, {}] ] \n",
                t[0], t[1], t[2], t[3], t[4], t[5]
            );
        } else {
            input += &format!(
                "[[{},{},{}],[{},{},{}]]\n",
                t[0], t[1], t[2], t[3], t[4], t[5]
            );
        }
        match dist.get(&b.packed()) {
            Some(d) => expected += &format!("{d}\n"),
            None => expected += "-1\n",
        }
    }
    assert_eq!(judge("leetcode773", input).ok().stdout, expected);
}

#[test]
fn hiho_acwing845_luogu_and_pair_count_as_distance_does() {
    let mut rng = Rng(845);
    let board = Board::EIGHT;

    // hiho: many cases in one run.
    let mut starts: Vec<Layout> = (0..300).map(|_| rng.layout(board)).collect();
    starts.push(board.standard_goal());
    let want = distances_of(&starts, None);
    let mut input = format!("{}\n", starts.len());
    for s in &starts {
        input += &grid(s);
    }
    let expected: String = want
        .iter()
        .map(|d| d.map_or("No Solution!\n".into(), |d| format!("{d}\n")))
        .collect();
    assert_eq!(judge("hihocoder1312", input).ok().stdout, expected);
    assert!(want.iter().filter(|d| d.is_none()).count() > 100);
    assert!(want.iter().filter(|d| d.is_some()).count() > 100);

    // acwing845 and luogu: one puzzle per run.
    let luogu_goal = Layout::new(board, &[1, 2, 3, 8, 0, 4, 7, 6, 5]).unwrap();
    let few = &starts[..12];
    let to_standard = distances_of(few, None);
    let to_luogu = distances_of(few, Some(&luogu_goal));
    for (i, s) in few.iter().enumerate() {
        let answer = |d: Option<u32>| d.map_or("-1\n".into(), |d| format!("{d}\n"));
        let run = judge("acwing845", spelled(s, 'x', " ") + "\n").ok();
        assert_eq!(run.stdout, answer(to_standard[i]), "acwing845 {s}");
        let run = judge("luogu1379", spelled(s, '0', "") + "\n").ok();
        assert_eq!(run.stdout, answer(to_luogu[i]), "luogu {s}");
    }

    // pair: a random goal per run.
    for _ in 0..12 {
        let start = rng.layout(board);
        let goal = rng.layout(board);
        let want = distances_of(&[start], Some(&goal))[0];
        let run = judge("pair", format!("{start}\n{goal}\n")).ok();
        assert_eq!(
            run.stdout,
            want.map_or("-1\n".into(), |d| format!("{d}\n")),
            "pair {start} -> {goal}"
        );
    }
}

/// Checks one poj/hdu answer for `start`: `unsolvable` exactly when `distance` says -1, else a
/// legal path to the standard goal of `distance` moves.
fn check_standard_path(start: &Layout, answer: &str, distance: Option<u32>, case: &str) {
    match distance {
        None => assert_eq!(answer, "unsolvable", "{case}"),
        Some(d) => {
            let end = replay(start, answer, "udlr", case);
            assert!(end.is_standard_goal(), "{case}: '{answer}' ends on {end}");
            assert_eq!(answer.len() as u32, d, "{case}: '{answer}' is not optimal");
        }
    }
}

#[test]
fn poj_prints_a_legal_optimal_path_the_smallest_under_udlr() {
    let mut rng = Rng(1077);
    let board = Board::EIGHT;
    let goal = board.standard_goal();
    let mut starts = vec![parse_layout(board, SAMPLE.as_bytes()).unwrap(), goal];
    starts.push(goal.moved(Move::Up).unwrap());
    starts.push(swapped(&goal));
    starts.extend((0..24).map(|_| rng.layout(board)));
    let want = distances_of(&starts, None);
    let ordered = paths_of(&starts, None, Some("udlr"));
    for (i, s) in starts.iter().enumerate() {
        let run = judge("poj1077", format!(" {} \n", spelled(s, 'x', "  "))).ok();
        let answer = run
            .stdout
            .strip_suffix('\n')
            .unwrap_or_else(|| panic!("{run:#?}"));
        assert!(!answer.contains('\n'), "{run:#?}");
        check_standard_path(s, answer, want[i], &format!("poj {s}"));
        assert_eq!(answer, ordered[i], "poj {s}: path --order udlr differs");
    }
    assert_eq!(ordered[0], SAMPLE_PATH);
    assert_eq!(ordered[1], "");
}

#[test]
fn hdu_prints_legal_optimal_paths_as_path_order_udlr_does() {
    let mut rng = Rng(1043);
    let board = Board::EIGHT;
    let mut starts = vec![
        parse_layout(board, SAMPLE.as_bytes()).unwrap(),
        board.standard_goal(),
    ];
    starts.extend((0..500).map(|_| rng.layout(board)));
    // The spellings HDU inputs come in: single or double spaces, padding, compact, blank lines.
    let mut input = String::new();
    for (i, s) in starts.iter().enumerate() {
        input += &match i % 5 {
            0 => spelled(s, 'x', "  "),
            1 => format!(" {} ", spelled(s, 'x', " ")),
            2 => spelled(s, 'x', ""),
            3 => spelled(s, 'x', "\t") + "\r",
            _ => spelled(s, 'x', " ") + "\n",
        };
        input.push('\n');
    }
    let run = judge("hdu1043", input).ok();
    let mut answers: Vec<&str> = run.stdout.split('\n').collect();
    assert_eq!(answers.pop(), Some(""), "output ends with a newline");
    assert_eq!(answers.len(), starts.len());
    let want = distances_of(&starts, None);
    let ordered = paths_of(&starts, None, Some("udlr"));
    for (i, s) in starts.iter().enumerate() {
        check_standard_path(s, answers[i], want[i], &format!("hdu {s}"));
        assert_eq!(answers[i], ordered[i], "hdu {s}: path --order udlr differs");
    }
    assert_eq!(answers[0], SAMPLE_PATH);
    assert_eq!(answers[1], "", "the goal itself: an empty line");
    let unsolvable = want.iter().filter(|d| d.is_none()).count();
    assert!((150..350).contains(&unsolvable), "{unsolvable}");
}

#[test]
fn uva10085_prints_a_farthest_state_and_a_shortest_path_to_it() {
    let mut rng = Rng(10085);
    let board = Board::EIGHT;
    // The sample, then a start with the blank in each cell.
    let mut starts = vec![Layout::new(board, &[2, 6, 4, 1, 3, 7, 0, 5, 8]).unwrap()];
    starts.extend((0..9).map(|cell| rng.layout_with_blank(board, cell)));
    let mut input = format!("{}\n\n", starts.len());
    for start in &starts {
        input += &grid(start);
        input.push('\n');
    }
    let run = judge("uva10085", input).ok();
    let lines = run.lines();
    assert!(run.stdout.ends_with("\n\n"), "{run:#?}");
    assert_eq!(lines.len(), 6 * starts.len(), "{run:#?}");
    for (k, (start, block)) in starts.iter().zip(lines.chunks(6)).enumerate() {
        let case = format!("uva10085 case {} ({start})", k + 1);
        assert_eq!(block[0], format!("Puzzle #{}", k + 1), "{case}");
        for row in &block[1..4] {
            let tokens: Vec<&str> = row.split(' ').collect();
            assert_eq!(tokens.len(), 3, "{case}: row {row:?}");
            assert!(tokens.iter().all(|t| t.len() == 1), "{case}: row {row:?}");
        }
        let far = parse_layout(board, block[1..4].join(" ").as_bytes()).unwrap();
        assert_eq!(block[5], "", "{case}: an empty line after each case");
        let path = block[4];
        let end = replay(start, path, "UDLR", &case);
        assert_eq!(
            end, far,
            "{case}: '{path}' does not lead to the printed state"
        );

        // An independent search from the start: the farthest distance, and the printed
        // state's.
        let dist = brute_force(start, u32::MAX);
        assert_eq!(dist.len(), 181_440);
        let farthest = *dist.values().max().unwrap();
        assert_eq!(farthest, max_distance()[start.blank()], "{case}: table max");
        assert_eq!(
            dist[&far.packed()],
            farthest,
            "{case}: {far} is not farthest"
        );
        assert_eq!(
            path.len() as u32,
            farthest,
            "{case}: '{path}' is not shortest"
        );
    }
    // The sample's answer (a farthest state reached last by a U, D, L, R search).
    assert_eq!(
        lines[1..5],
        ["8 1 5", "7 3 6", "4 0 2", "UURDDRULLURRDLLDRRULULDDRUULDDR"]
    );
}

/// A 3×3 table whose payload is corrupt so that no state is at a section's maximum distance
/// (every entry says 55 moves; the header says 31 at most): `judge uva10085` has no farthest
/// state to print and says the table is corrupt, exit 1, without a panic. Opening the table
/// reads only its header, so the payload's checksum is not what refuses it.
#[test]
fn uva10085_on_a_table_without_states_at_its_maximum_distance_is_refused() {
    let dir = TempDir::new().unwrap();
    let mut bytes = fs::read(table_3x3()).unwrap();
    let header_len = u32::from_le_bytes(bytes[16..20].try_into().unwrap()) as usize;
    bytes[header_len..].fill(0xDC);
    let bad = dir.path().join("bad.slt");
    fs::write(&bad, &bytes).unwrap();
    let run = Run::of(
        slidetable()
            .args(["judge", "uva10085", "--table"])
            .arg(&bad)
            .write_stdin("1\n\n2 6 4\n1 3 7\n0 5 8\n"),
    );
    assert_eq!(run.code, Some(1), "{run:#?}");
    assert!(!run.stderr.contains("panicked"), "{run:#?}");
    assert!(run.stderr.contains("corrupt"), "{run:#?}");
    assert_eq!(run.stdout, "", "{run:#?}");
}

#[test]
fn hdu3567_prints_optimal_paths_as_path_order_dlru_does() {
    let mut rng = Rng(3567);
    let board = Board::EIGHT;
    // 20 goals (the blank in every cell, twice or more), 10 starts each: 8 that reach the
    // goal and 1 that does not; the first case's start is its goal.
    let mut groups: Vec<(Layout, Vec<Layout>)> = Vec::new();
    for g in 0..20 {
        let goal = rng.layout_with_blank(board, g % 9);
        let mut starts: Vec<Layout> = (0..9).map(|_| rng.layout_reaching(&goal, true)).collect();
        starts.insert(rng.below(10), rng.layout_reaching(&goal, false));
        if g == 0 {
            starts[0] = goal;
        }
        groups.push((goal, starts));
    }
    let cases: usize = groups.iter().map(|(_, s)| s.len()).sum();
    let mut input = format!("{cases}\n");
    for (goal, starts) in &groups {
        for s in starts {
            input += &format!("{}\n{}\n", spelled(s, 'X', ""), spelled(goal, 'X', ""));
        }
    }
    let run = judge("hdu3567", input).ok();
    let lines: Vec<&str> = run.stdout.split('\n').collect();
    assert_eq!(lines.len(), 2 * cases + 1, "{run:#?}");
    assert_eq!(lines[2 * cases], "");

    let mut k = 0;
    for (goal, starts) in &groups {
        let want = distances_of(starts, Some(goal));
        let ordered = paths_of(starts, Some(goal), Some("dlru"));
        for (i, start) in starts.iter().enumerate() {
            k += 1;
            let case = format!("hdu3567 case {k}: {start} -> {goal}");
            let (head, path) = (lines[2 * k - 2], lines[2 * k - 1]);
            let n = head
                .strip_prefix(&format!("Case {k}: "))
                .unwrap_or_else(|| panic!("{case}: {head:?}"));
            match want[i] {
                None => {
                    assert_eq!(n, "-1", "{case}");
                    assert_eq!(path, "unsolvable", "{case}");
                    assert_eq!(ordered[i], "unsolvable", "{case}");
                }
                Some(d) => {
                    assert_eq!(n, d.to_string(), "{case}");
                    assert_eq!(path.len() as u32, d, "{case}: '{path}' has another length");
                    let end = replay(start, path, "dlru", &case);
                    assert_eq!(end, *goal, "{case}: '{path}' ends on {end}");
                    assert_eq!(path, ordered[i], "{case}: path --order dlru differs");
                }
            }
        }
    }
    assert_eq!(lines[..2], ["Case 1: 0", ""], "a start equal to its goal");
}

/// Pairs at most 16 moves apart with more than one optimal path (there is never a choice below
/// 6 moves: the shortest cycle of the 8-puzzle has 12), every optimal path enumerated by a
/// search pruned by exact distances: the judge's path must be the smallest of them in its order.
#[test]
fn ordered_paths_are_the_smallest_of_all_optimal_paths() {
    let mut rng = Rng(12);
    let board = Board::EIGHT;

    // hdu3567: random goals, d < l < r < u.
    let mut input = String::from("20\n");
    let mut expected = String::new();
    for k in 1..=20 {
        let goal = rng.layout_with_blank(board, k % 9);
        let dist = brute_force(&goal, 16);
        let start = with_a_choice(&mut rng, board, &dist, 6 + k as u32 % 11);
        let paths = all_optimal_paths(&start, &dist);
        assert!(paths.len() > 1, "{start} -> {goal}: {paths:?}");
        let best = smallest(&paths, "dlru");
        input += &format!(
            "{}\n{}\n",
            spelled(&start, 'X', ""),
            spelled(&goal, 'X', "")
        );
        expected += &format!("Case {k}: {}\n{best}\n", best.len());
    }
    assert_eq!(judge("hdu3567", input).ok().stdout, expected);

    // hdu (and path --order udlr): the standard goal, u < d < l < r; path --order on another
    // order, r < l < u < d.
    let goal = board.standard_goal();
    let dist = brute_force(&goal, 16);
    let starts: Vec<Layout> = (0..20)
        .map(|k| with_a_choice(&mut rng, board, &dist, 6 + k % 11))
        .collect();
    let mut udlr = String::new();
    let mut rlud = Vec::new();
    for start in &starts {
        let paths = all_optimal_paths(start, &dist);
        assert!(paths.len() > 1, "{start}: {paths:?}");
        udlr += &(smallest(&paths, "udlr") + "\n");
        rlud.push(smallest(&paths, "rlud"));
    }
    let input: String = starts.iter().map(|s| spelled(s, 'x', " ") + "\n").collect();
    assert_eq!(judge("hdu1043", input).ok().stdout, udlr);
    assert_eq!(paths_of(&starts, None, Some("rlud")), rlud);
}

/// A byte-order mark before the input (an editor's: Notepad saves UTF-8 with one) is skipped
/// as `distance` and `path` skip it: every judge said 'unknown tile '\xef'' or 'expected the
/// number of cases, found '\xef\xbb\xbf1'' for the file `distance` read.
#[test]
fn a_byte_order_mark_before_the_input_is_skipped_in_every_format() {
    for name in JUDGES {
        let dir = judges_dir().join(name);
        let mut input = b"\xEF\xBB\xBF".to_vec();
        input.extend(fs::read(dir.join("input.txt")).unwrap());
        let expected = text(&fs::read(dir.join("expected.txt")).unwrap());
        let run = judge(name, &input);
        assert_eq!(run.code, Some(0), "{name}: {run:#?}");
        assert_eq!(run.stdout, expected, "{name}");
    }
    // Only at the start of the input: elsewhere it is a byte that is no tile.
    let run = judge(
        "hdu1043",
        b"1 2 3 4 5 6 7 8 x\n\xEF\xBB\xBF1 2 3 4 5 6 7 8 x\n",
    );
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert!(
        run.stderr
            .contains("line 2: unknown tile '\\xef\\xbb\\xbf'"),
        "{}",
        run.stderr
    );
}

/// Every byte C's `isspace` takes (space, `\t`, `\n`, `\v`, `\f`, `\r`) separates tokens, as
/// it does for the accepted solutions (`scanf`, `cin`) and for `distance`: a vertical tab was
/// read as part of a tile ("unknown tile '0\x0b'") while a form feed was skipped.
#[test]
fn every_whitespace_byte_of_c_separates_tokens_in_every_format() {
    for name in JUDGES {
        let dir = judges_dir().join(name);
        let expected = text(&fs::read(dir.join("expected.txt")).unwrap());
        for space in [b'\x0b', b'\x0c'] {
            let input: Vec<u8> = fs::read(dir.join("input.txt"))
                .unwrap()
                .into_iter()
                .flat_map(|b| if b == b' ' { vec![space] } else { vec![b] })
                .chain([space, space])
                .collect();
            let run = judge(name, &input);
            assert_eq!(run.code, Some(0), "{name} {space:#x}: {run:#?}");
            assert_eq!(run.stdout, expected, "{name} {space:#x}");
        }
    }
}

#[test]
fn crlf_tabs_and_either_blank_letter_are_accepted() {
    let cases = [
        ("hihocoder1312", "1\r\n8 0 1\r\n5 7 4\r\n3 6 2\r\n", "25\n"),
        ("hihocoder1312", "\n1\n\n8\t0\t1\n\n5 7 4\n3 6 2", "25\n"),
        ("uva10085", "1\r\n\r\n2 6 4\r\n1 3 7\r\n0 5 8\r\n\r\n", ""),
        (
            "hdu3567",
            "1\r\n12x453786\r\n12345678x\r\n",
            "Case 1: 2\ndd\n",
        ),
        (
            "hdu3567",
            "1\n12X 453 786\n\n12345678X\n",
            "Case 1: 2\ndd\n",
        ),
        ("poj1077", "2 3 4\n1 5 0\n7 6 8\n", "ullddrurdllurdruldr\n"),
        ("poj1077", "23415X768", "ullddrurdllurdruldr\n"),
        ("acwing845", "2 3 4 1 5 x 7 6 8\r\n", "19\n"),
        ("luogu1379", "2 8 3 1 0 4 7 6 5\r\n", "4\n"),
        ("pair", "2 6 4 1 3 7 0 5 8 8 1 5 7 3 6 4 0 2", "31\n"),
        ("leetcode773", "\r\n[[4,1,2],[5,0,3]]\r\n\r\n", "5\n"),
    ];
    for (format, input, want) in cases {
        let run = judge(format, input).ok();
        if format == "uva10085" {
            let expected = fs::read_to_string(judges_dir().join("uva10085/expected.txt")).unwrap();
            assert_eq!(run.stdout, expected, "{format} {input:?}");
        } else {
            assert_eq!(run.stdout, want, "{format} {input:?}");
        }
    }
    // Empty inputs of the formats that read until the end: no answers.
    for format in ["hdu1043", "leetcode773"] {
        assert_eq!(judge(format, "").ok().stdout, "");
        assert_eq!(judge(format, "\n \n").ok().stdout, "");
    }
    for format in ["hihocoder1312", "uva10085", "hdu3567"] {
        assert_eq!(judge(format, "0\n").ok().stdout, "", "{format}");
    }
}

// ---------------------------------------------------------------------------------------------
// Input read as accepted solutions read it

#[test]
fn hdu_reads_a_puzzle_split_over_lines() {
    let run = judge("hdu1043", "2 3 4\n1 5 x\n7 6 8\n").ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    // Any split, even one token per line and blank lines between.
    let spread: String = SAMPLE.split(' ').map(|t| format!("{t}\n\n")).collect();
    assert_eq!(
        judge("hdu1043", &spread).ok().stdout,
        format!("{SAMPLE_PATH}\n")
    );
}

#[test]
fn hdu_reads_two_puzzles_on_one_line() {
    let run = judge(
        "hdu1043",
        format!("{SAMPLE}  1 2 3 4 5 6 7 8 x\n2 1 3 4 5 6 7 8 x\n"),
    )
    .ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n\nunsolvable\n"));
}

#[test]
fn hdu_reports_a_puzzle_cut_short_at_the_end_after_the_earlier_answers() {
    let run = judge("hdu1043", format!("{SAMPLE}\n1 2 3\n4 5\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    assert!(
        run.stderr.contains("line 3") && run.stderr.contains("5"),
        "{run:#?}"
    );
}

#[test]
fn poj_answers_its_puzzle_then_reports_the_extra_input() {
    let run = judge("poj1077", format!("{SAMPLE}\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"), "{run:#?}");
    assert!(run.stderr.contains("line 2"), "{run:#?}");
    // The same for acwing845, which reads one puzzle as poj does.
    let run = judge("acwing845", format!("{SAMPLE}\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, "19\n", "{run:#?}");
}

#[test]
fn leetcode773_takes_leetcodes_own_example_line() {
    let run = judge(
        "leetcode773",
        "board = [[4,1,2],[5,0,3]]\nboard = [[1,2,3],[4,0,5]]\n[[1,2,3],[5,4,0]]\nboard=[[1,2,3],[4,5,0]]\n",
    )
    .ok();
    assert_eq!(run.stdout, "5\n1\n-1\n0\n");
}

#[test]
fn leetcode773_still_refuses_another_name() {
    let run = judge("leetcode773", "grid = [[4,1,2],[5,0,3]]\n");
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert!(run.stderr.contains("line 1"), "{run:#?}");
}

#[test]
fn uva652_reproduces_its_sample() {
    let dir = repo().join("data/judges/uva652");
    let input = std::fs::read_to_string(dir.join("input.txt")).unwrap();
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    assert_eq!(judge("uva652", &input).ok().stdout, expected);
}

#[test]
fn uva652_separates_cases_by_a_blank_line_and_prints_an_empty_line_for_a_solved_one() {
    let input = format!("4\n\n{SAMPLE}\n\n2 1 3 4 5 6 7 8 x\n\n1 2 3\n4 5 6\n7 8 x\n\n123x46758\n");
    let run = judge("uva652", &input).ok();
    assert_eq!(
        run.stdout,
        format!("{SAMPLE_PATH}\n\nunsolvable\n\n\n\nrdr\n"),
        "{run:#?}"
    );
    // Without the blank lines, and with one case.
    let run = judge("uva652", format!("1\n{SAMPLE}\n")).ok();
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
}

#[test]
fn uva652_refuses_extra_or_missing_cases_after_the_earlier_answers() {
    let run = judge("uva652", format!("1\n\n{SAMPLE}\n\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    assert!(run.stderr.contains("line 5"), "{run:#?}");
    let run = judge("uva652", format!("2\n\n{SAMPLE}\n"));
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert_eq!(run.stdout, format!("{SAMPLE_PATH}\n"));
    let run = judge("uva652", "two\n");
    assert_eq!(run.code, Some(BAD_INPUT), "{run:#?}");
    assert!(run.stderr.contains("line 1"), "{run:#?}");
}

// ---------------------------------------------------------------------------------------------
// Bad input

/// One bad input: the answers printed before the error, and where and what the error is.
struct Bad {
    format: &'static str,
    input: &'static str,
    stdout: &'static str,
    line: u64,
    what: &'static str,
}

const fn bad(
    format: &'static str,
    input: &'static str,
    stdout: &'static str,
    line: u64,
    what: &'static str,
) -> Bad {
    Bad {
        format,
        input,
        stdout,
        line,
        what,
    }
}

/// What is wrong with the judge's handling of `case`, if anything.
fn check_bad(case: &Bad) -> Result<(), String> {
    let run = judge(case.format, case.input);
    let label = format!("{} {:?}", case.format, case.input);
    let head = format!(
        "slidetable: judge {}: <stdin>: line {}: ",
        case.format, case.line
    );
    if run.code != Some(BAD_INPUT) {
        Err(format!(
            "{label}: exit {:?}, not {BAD_INPUT}: {run:?}",
            run.code
        ))
    } else if run.stdout != case.stdout {
        Err(format!(
            "{label}: printed {:?} before the error, not {:?}",
            run.stdout, case.stdout
        ))
    } else if !run.stderr.starts_with(&head) || !run.stderr.contains(case.what) {
        Err(format!(
            "{label}: expected {head:?} and {:?}, got {:?}",
            case.what, run.stderr
        ))
    } else if run.stderr.lines().count() != 1 {
        Err(format!("{label}: more than one line: {:?}", run.stderr))
    } else {
        Ok(())
    }
}

/// Checks every case, then fails naming each one that went wrong.
fn check_all_bad(cases: &[Bad]) {
    let wrong: Vec<String> = cases.iter().filter_map(|c| check_bad(c).err()).collect();
    assert!(
        wrong.is_empty(),
        "{} of {} bad inputs handled wrongly:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

const UVA_SAMPLE_ANSWER: &str =
    "Puzzle #1\n8 1 5\n7 3 6\n4 0 2\nUURDDRULLURRDLLDRRULULDDRUULDDR\n\n";

#[rustfmt::skip]
const BAD_INPUTS: &[Bad] = &[
    // A missing count.
    bad("hihocoder1312", "", "", 1, "expected the number of cases, found the end of the input"),
    bad("uva10085", "", "", 1, "expected the number of cases, found the end of the input"),
    bad("hdu3567", "", "", 1, "expected the number of cases, found the end of the input"),
    // A count that is not a number.
    bad("hihocoder1312", "three\n1 2 3\n4 5 6\n7 8 0\n", "", 1, "expected the number of cases, found 'three'"),
    bad("uva10085", "\n\n-2\n", "", 3, "expected the number of cases, found '-2'"),
    bad("hdu3567", "2 cases\n12X453786\n12345678X\n", "", 1, "expected the number of cases, found '2 cases'"),
    bad("hdu3567", "12X453786\n12345678X\n", "", 1, "expected the number of cases, found '12X453786'"),
    // A short (or long) grid row.
    bad("hihocoder1312", "2\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n4 5\n7 8 0\n", "0\n", 6, "expected 3 numbers in row 2 of puzzle 2, found 2"),
    bad("uva10085", "1\n\n2 6 4\n1 3\n7 0 5 8\n", "", 4, "expected 3 numbers in row 2 of puzzle 1, found 2"),
    bad("uva10085", "1\n\n2 6 4 1\n3 7\n0 5 8\n", "", 3, "expected 3 numbers in row 1 of puzzle 1, found 4"),
    // A tile that is not a digit (or x).
    bad("hihocoder1312", "1\n1 2 3\n4 ? 6\n7 8 0\n", "", 3, "unknown tile '?'"),
    bad("uva10085", "1\n\n2 6 4\n1 3 7\n0 5 eight\n", "", 5, "unknown tile 'eight'"),
    bad("poj1077", "2 3 4 1 5 x 7 6 y\n", "", 1, "unknown tile 'y'"),
    bad("poj1077", "2 3 4\n1 5 x\n7 6 -\n", "", 3, "unknown tile '-'"),
    bad("acwing845", "2 3 4 1 5 * 7 6 8\n", "", 1, "unknown tile '*'"),
    bad("hdu1043", "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 y\n", "ullddrurdllurdruldr\n", 2, "unknown tile 'y'"),
    bad("hdu1043", "1 2 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 \u{e9}\n", "\n", 2, "unknown tile '\\xc3\\xa9'"),
    // A character of two bytes is named whole, as `distance` names it.
    bad("poj1077", "2 3 4 1 5 x 7 6 \u{e9}\n", "", 1, "unknown tile '\\xc3\\xa9'"),
    bad("luogu1379", "28310\u{e9}765\n", "", 1, "unknown tile '\\xc3\\xa9'"),
    bad("pair", "2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 two\n", "", 2, "unknown tile 'two'"),
    bad("hdu3567", "2\n12X453786\n12345678X\n564178X23\n7568Z4123\n", "Case 1: 2\ndd\n", 5, "unknown tile 'Z'"),
    bad("luogu1379", "28310a765\n", "", 1, "unknown tile 'a'"),
    bad("leetcode773", "[[1,2,3],[4,0,5]]\n[[1,2,3],[4,a,5]]\n", "1\n", 2, "unknown tile 'a'"),
    // A tile out of range.
    bad("hihocoder1312", "1\n1 2 3\n4 5 6\n7 9 0\n", "", 4, "tile 9 is not on a 3x3 board"),
    bad("leetcode773", "[[1,2,3],[4,0,6]]\n", "", 1, "tile 6 is not on a 2x3 board"),
    // A repeated tile. Grids name the line the puzzle starts on.
    bad("hihocoder1312", "2\n8 0 1\n5 7 4\n3 6 2\n1 2 3\n4 5 6\n5 8 0\n", "25\n", 5, "puzzle 2: tile 5 appears twice"),
    bad("uva10085", "1\n\n2 6 4\n1 3 7\n0 5 5\n", "", 3, "puzzle 1: tile 5 appears twice"),
    bad("poj1077", "1 2 3 4 5 6 7 8 8\n", "", 1, "tile 8 appears twice"),
    bad("poj1077", "x 2 3 4 5 6 7 8 x\n", "", 1, "tile 0 appears twice"),
    bad("hdu1043", "2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 7 x\n", "ullddrurdllurdruldr\n", 3, "tile 7 appears twice"),
    bad("pair", "2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 8\n", "", 2, "goal: tile 8 appears twice"),
    bad("pair", "2 6 4 1 3 7 0 5 2\n8 1 5 7 3 6 4 0 2\n", "", 1, "start: tile 2 appears twice"),
    bad("hdu3567", "1\n12X453786\n12345677X\n", "", 3, "tile 7 appears twice"),
    bad("luogu1379", "283104763\n", "", 1, "tile 3 appears twice"),
    bad("leetcode773", "[[1,2,3],[4,5,5]]\n", "", 1, "tile 5 appears twice"),
    // A count larger than the cases given: the answers to those, then the error. These inputs
    // end without a newline: the line is then the last one under any convention (see
    // `end_of_input_is_reported_on_the_last_line_of_the_input`).
    bad("hihocoder1312", "3\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n4 5 6\n8 7 0", "0\nNo Solution!\n", 7, "expected puzzle 3 of 3 (row 1 of 3), found the end of the input"),
    bad("hihocoder1312", "2\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n4 5 6", "0\n", 6, "expected puzzle 2 of 2 (row 3 of 3), found the end of the input"),
    bad("uva10085", "2\n\n2 6 4\n1 3 7\n0 5 8", UVA_SAMPLE_ANSWER, 5, "expected puzzle 2 of 2 (row 1 of 3), found the end of the input"),
    bad("hdu3567", "2\n12X453786\n12345678X", "Case 1: 2\ndd\n", 3, "expected the start of case 2 of 2, found the end of the input"),
    bad("hdu3567", "1\n12X453786", "", 2, "expected the goal of case 1 of 1, found the end of the input"),
    // Input after the announced cases (or after the one case of a single-case format).
    bad("hihocoder1312", "1\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n", "0\n", 5, "unexpected '1' after the 1 puzzles announced"),
    bad("uva10085", "1\n\n2 6 4\n1 3 7\n0 5 8\n\n1 2 3\n", UVA_SAMPLE_ANSWER, 7, "unexpected '1' after the 1 puzzles announced"),
    bad("hdu3567", "1\n12X453786\n12345678X\nextra\n", "Case 1: 2\ndd\n", 4, "unexpected 'extra' after the 1 cases announced"),
    bad("hdu3567", "0\n12X453786\n", "", 2, "unexpected '12X453786' after the 0 cases announced"),
    bad("acwing845", "2 3 4 1 5 x 7 6 8\n2 3 4 1 5 x 7 6 8\n", "19\n", 2, "unexpected '2' after the puzzle"),
    bad("luogu1379", "283104765\n123804765\n", "4\n", 2, "unexpected '123804765' after the puzzle"),
    bad("pair", "2 6 4 1 3 7 0 5 8\n8 1 5 7 3 6 4 0 2\n\n0\n", "31\n", 4, "unexpected '0' after the start and goal"),
    // poj with 8 tiles (named on the line that holds the last of them), and with 10.
    bad("poj1077", "1 2 3 4 5 6 7 8", "", 1, "expected 9 tiles, found 8 before the end of the input"),
    bad("poj1077", "1 2 3 4 5 6 7 8\n", "", 1, "expected 9 tiles, found 8 before the end of the input"),
    bad("poj1077", "1 2 3\n4 5 6\n7 8\n\n\n", "", 5, "expected 9 tiles, found 8 before the end of the input"),
    bad("acwing845", "1 2 3 4 5 6 7 x\n", "", 1, "expected 9 tiles, found 8 before the end of the input"),
    bad("luogu1379", "12345678\n", "", 1, "expected 9 tiles, found 8 before the end of the input"),
    bad("poj1077", "1 2 3 4 5 6 7 8 x 1\n", "\n", 1, "unexpected '1' after the puzzle"),
    bad("poj1077", "12345678x1\n", "", 1, "unexpected '1' after the puzzle"),
    bad("poj1077", "1 2 3\n4 5 6\n7 8 x\n1\n", "\n", 4, "unexpected '1' after the puzzle"),
    // hdu reads 9 tiles at a time, as accepted solutions do: a line of 8 tiles takes the
    // next line's first as its ninth, and a tenth tile starts a puzzle the input cuts short.
    bad("hdu1043", "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 8 x\n", "ullddrurdllurdruldr\n", 2, "tile 1 appears twice"),
    bad("hdu1043", "1 2 3 4 5 6 7 8 x\n\n\n1 2 3 4 5 6 7 x\n2 3 4 1 5 x 7 6 8\n", "\n", 4, "tile 2 appears twice"),
    bad("hdu1043", "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x 1\n", "ullddrurdllurdruldr\n\n", 2, "expected 9 tiles, found 1 before the end of the input"),
    // pair without its goal, or with part of it.
    bad("pair", "2 6 4 1 3 7 0 5 8", "", 1, "expected 9 tiles for the goal, found 0 before the end of the input"),
    bad("pair", "2 6 4 1 3 7 0 5 8\n\n", "", 2, "expected 9 tiles for the goal, found 0 before the end of the input"),
    bad("pair", "2 6 4 1 3 7 0 5 8\n8 1 5\n", "", 2, "expected 9 tiles for the goal, found 3 before the end of the input"),
    // leetcode773: malformed boards.
    bad("leetcode773", "[[1,2,3],[4,5]]\n", "", 1, "expected a board like [[1,2,3],[4,5,0]], found '[[1,2,3],[4,5]]'"),
    bad("leetcode773", "[[1,2,3,4],[5,0]]\n", "", 1, "expected a board like [[1,2,3],[4,5,0]], found '[[1,2,3,4],[5,0]]'"),
    bad("leetcode773", "hello\n", "", 1, "expected a board like [[1,2,3],[4,5,0]], found 'hello'"),
    bad("leetcode773", "[[4,1,2],[5,0,3]]\n\n[[1,2,3],[4,5,0]\n", "5\n", 3, "expected a board like"),
    bad("leetcode773", "[[1,2,3],[4,5,0],[1,2,3]]\n", "", 1, "expected a board like"),
    bad("leetcode773", "[[1,2,3][4,5,0]]\n", "", 1, "expected a board like"),
    bad("leetcode773", "[[1,2,3],[4,,5,0]]\n", "", 1, "expected a board like"),
    bad("leetcode773", "[[1,2,3],[4,5,0]]]\n", "", 1, "expected a board like"),
    bad("leetcode773", "[[1,2,3]],[4,5,0]]\n", "", 1, "expected a board like"),
    bad("leetcode773", "[[1,2,3],[4,5,0]],\n", "", 1, "expected a board like"),
    bad("leetcode773", "[1,2,3],[4,5,0]\n", "", 1, "expected a board like"),
    // luogu with a letter (besides x).
    bad("luogu1379", "2831o4765\n", "", 1, "unknown tile 'o'"),
    // uva652: a bad count, a bad tile, a puzzle cut short, a case too many.
    bad("uva652", "one\n\n2 3 4 1 5 x 7 6 8\n", "", 1, "expected the number of cases, found 'one'"),
    bad("uva652", "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 8 y\n", "ullddrurdllurdruldr\n", 5, "unknown tile 'y'"),
    bad("uva652", "1\n\n1 2 3 4 5 6 7 8\n", "", 3, "expected 9 tiles for the puzzle 1 of 1, found 8 before the end of the input"),
    bad("uva652", "1\n\n1 2 3 4 5 6 7 8 x\n\n1\n", "\n", 5, "unexpected '1' after the 1 puzzles announced"),
    // The 15-puzzle judges: a short row, a repeated tile, a missing puzzle, extra input.
    bad("uva10181", "1\n1 2 3\n", "", 2, "expected 4 numbers in row 1 of puzzle 1, found 3"),
    bad("uva10181", "1\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 15\n", "", 2, "puzzle 1: tile 15 appears twice"),
    bad("lightoj1121", "2\n\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n", "Case 1: R\n", 6, "expected puzzle 2 of 2 (row 1 of 4), found the end of the input"),
    bad("lightoj1121", "1\n\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 0 15\n\nx\n", "Case 1: R\n", 8, "unexpected 'x' after the 1 puzzles announced"),
];

#[test]
fn bad_input_stops_with_the_line_and_what_is_wrong_after_the_earlier_answers() {
    check_all_bad(BAD_INPUTS);
    // Every format has cases.
    for format in JUDGES {
        assert!(
            BAD_INPUTS.iter().any(|c| c.format == format),
            "no bad input for {format}"
        );
    }
}

/// The lines of `input`: a last line without a line end counts; an empty input has one.
fn line_count(input: &str) -> usize {
    (input.matches('\n').count() + usize::from(!input.is_empty() && !input.ends_with('\n'))).max(1)
}

/// Inputs that end too early, each followed by nothing, a newline, blank lines, or spaces and
/// tabs: the same answers, and the error on the input's last line, where the input ended.
fn end_of_input_cases(formats: &[&str]) -> Vec<String> {
    #[rustfmt::skip]
    let cut_short = [
        ("poj1077", "1 2 3\n4 5 6\n7 8"),
        ("acwing845", "1 2 3 4 5 6 7 x"),
        ("luogu1379", "12345678"),
        ("pair", "2 6 4 1 3 7 0 5 8"),
        ("pair", "2 6 4 1 3 7 0 5 8\n8 1 5"),
        ("hihocoder1312", ""),
        ("hihocoder1312", "2\n1 2 3\n4 5 6\n7 8 0\n1 2 3\n4 5 6"),
        ("hihocoder1312", "2\n1 2 3\n4 5 6\n7 8 0"),
        ("uva10085", "2\n\n2 6 4\n1 3 7\n0 5 8"),
        ("hdu3567", "1\n12X453786"),
        ("hdu3567", "2\n12X453786\n12345678X"),
    ];
    let mut wrong = Vec::new();
    for (format, base) in cut_short.into_iter().filter(|(f, _)| formats.contains(f)) {
        let first = judge(format, base);
        assert_eq!(first.code, Some(BAD_INPUT), "{format} {base:?}: {first:#?}");
        let head = format!(
            "slidetable: judge {format}: <stdin>: line {}: ",
            line_count(base)
        );
        let what = first.stderr.strip_prefix(&head).unwrap_or_else(|| {
            panic!(
                "{format} {base:?}: {:?} is not on line {}",
                first.stderr,
                line_count(base)
            )
        });
        for tail in ["\n", "\n\n\n", " \n\t\n", "\r\n\r\n"] {
            let input = format!("{base}{tail}");
            let run = judge(format, input.clone());
            let want = format!(
                "slidetable: judge {format}: <stdin>: line {}: {what}",
                line_count(&input)
            );
            if (run.code, &run.stdout, &run.stderr) != (first.code, &first.stdout, &want) {
                wrong.push(format!(
                    "{format} {base:?}: after {tail:?}: {:?}, not {want:?}",
                    run.stderr
                ));
            }
        }
    }
    wrong
}

#[test]
fn a_puzzle_cut_short_is_reported_on_the_last_line_of_the_input() {
    let wrong = end_of_input_cases(&["poj1077", "acwing845", "luogu1379", "pair"]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// hiho, uva10085 and hdu3567 report a missing count, row or case on the input's last line,
/// whatever blank lines come before the end, as the single-puzzle formats do.
#[test]
fn end_of_input_is_reported_on_the_last_line_of_the_input() {
    let wrong = end_of_input_cases(&["hihocoder1312", "uva10085", "hdu3567"]);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// An end of input the judge did not expect is on the input's last line, however many blank
/// lines come before it.
#[test]
fn judge_end_of_input_names_the_last_line() {
    let dir = TempDir::new().unwrap();
    let r = Run::process(process(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    for (format, input, want) in [
        (
            "hdu3567",
            "3\n\n\n\n\n",
            "line 5: expected the start of case 1 of 3, found the end of the input",
        ),
        (
            "hdu3567",
            "2\n12X453786\n\n\n\n",
            "line 5: expected the goal of case 1 of 2, found the end of the input",
        ),
        (
            "hihocoder1312",
            "3\n\n\n\n\n\n\n",
            "line 7: expected puzzle 1 of 3 (row 1 of 3), found the end of the input",
        ),
    ] {
        let r = Run::process_with(
            process(dir.path()).args(["judge", format]),
            input.as_bytes(),
        );
        assert_eq!(r.code, Some(BAD_INPUT), "{r:#?}");
        assert_eq!(
            r.stderr,
            format!("slidetable: judge {format}: <stdin>: {want}\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Endless input and millions of lines, in constant memory

const STREAMED_JUDGES: [&str; 9] = [
    "poj1077",
    "hdu1043",
    "acwing845",
    "hihocoder1312",
    "pair",
    "luogu1379",
    "hdu3567",
    "uva10085",
    "leetcode773",
];

/// Writes `total` bytes of `block`s to a `judge FORMAT` run, measuring its peak memory just
/// before the input ends (`None` if it had already stopped reading and exited).
fn stream_judge(
    dir: &Path,
    format: &str,
    first: &[u8],
    block: &[u8],
    repeats: usize,
) -> (Option<u64>, Option<i32>, String, usize) {
    let mut child = process(dir)
        .args(["judge", format])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let counter = thread::spawn(move || stdout.split(b'\n').count());
    let errors = thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).unwrap();
        s
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut written = stdin.write_all(first).is_ok();
    for _ in 0..repeats {
        if !written || stdin.write_all(block).is_err() {
            written = false;
            break;
        }
    }
    let _ = stdin.flush();
    let peak = if written { peak_rss(child.id()) } else { None };
    drop(stdin);
    let status = wait_at_most(&mut child, Duration::from_secs(120), format);
    let stderr = errors.join().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (peak, status.code(), stderr, counter.join().unwrap())
}

/// 48 MB with no line end, to every format: one error naming line 1 and the line limit, exit
/// 65, in memory that does not grow with the input (the judges used to read it all first).
#[test]
fn every_judge_refuses_an_endless_line_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    // The default tables, made once.
    for board in ["3x3", "2x3"] {
        let r = Run::process(process(dir.path()).args(["info", "--board", board]));
        assert_eq!(r.code, Some(0), "{r:#?}");
    }
    let block = vec![b'7'; 1 << 20];
    for format in STREAMED_JUDGES {
        let (peak, code, stderr, _) = stream_judge(dir.path(), format, b"", &block, 48);
        assert_eq!(code, Some(BAD_INPUT), "{format}: {stderr}");
        assert!(
            stderr.contains(": line 1: ") && stderr.contains("at most 65536 are read"),
            "{format}: {stderr}"
        );
        if let Some(peak) = peak {
            assert!(peak < 16 << 20, "{format}: peak RSS {peak} bytes");
        }
    }
}

/// `judge hdu` over 3,000,000 puzzle lines: one answer per line, and a peak resident size
/// that does not grow with the input.
#[test]
fn judge_hdu_streams_millions_of_lines_in_constant_memory() {
    let dir = TempDir::new().unwrap();
    let r = Run::process(process(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    let block = "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n".repeat(500);
    let (peak, code, stderr, answers) =
        stream_judge(dir.path(), "hdu1043", b"", block.as_bytes(), 3_000);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(answers, 3_000_000);
    let peak = peak.expect("still running at the end of its input");
    assert!(peak < 16 << 20, "peak RSS {peak} bytes");
}

/// Counts announced first, cases streamed: `hdu3567` with 2,000,000 pairs answers each.
#[test]
fn judge_with_a_count_streams_its_cases() {
    let dir = TempDir::new().unwrap();
    let r = Run::process(process(dir.path()).args(["info", "--board", "3x3"]));
    assert_eq!(r.code, Some(0), "{r:#?}");
    let block = "12X453786\n12345678X\n".repeat(1000);
    let (peak, code, stderr, answers) =
        stream_judge(dir.path(), "hdu3567", b"2000000\n", block.as_bytes(), 2000);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(answers, 4_000_000);
    let peak = peak.expect("still running at the end of its input");
    assert!(peak < 16 << 20, "peak RSS {peak} bytes");
}

// ---------------------------------------------------------------------------------------------
// The 15-puzzle judges: uva10181, lightoj1121

#[test]
fn fifteen_puzzle_judges_print_the_smallest_optimal_path_and_their_limits() {
    let board = Board::new(4, 4).unwrap();
    let goal = board.standard_goal();
    // 12 moves from the goal, the goal's other class, and a puzzle of more than 35 but at
    // most 50 moves: Korf's instance 79 (42 moves to 0 1 2 … 15) turned by 180° with tile t
    // renamed 16 − t, which makes it 42 moves from the blank-last goal.
    let near = goal.after(&parse_path("uullddrruuld").unwrap()).unwrap();
    let swapped = parse_layout(board, b"2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0").unwrap();
    let grid = |l: &Layout| {
        let t = l.tiles();
        (0..4)
            .map(|r| {
                format!(
                    "{} {} {} {}\n",
                    t[4 * r],
                    t[4 * r + 1],
                    t[4 * r + 2],
                    t[4 * r + 3]
                )
            })
            .collect::<String>()
    };
    let far = parse_layout(board, b"1 6 10 8 14 12 4 2 13 11 3 5 9 7 15 0").unwrap();
    let far_len = {
        let run = query_fifteen("distance", &far.to_string());
        run.stdout.trim().parse::<usize>().unwrap()
    };
    assert_eq!(far_len, 42);
    let input = format!("3\n{}{}{}", grid(&near), grid(&swapped), grid(&far));
    let uva = judge("uva10181", input.clone()).ok();
    let lines = uva.lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "This puzzle is not solvable.");
    for (start, line) in [(near, lines[0]), (far, lines[2])] {
        let path = parse_path(&line.to_lowercase()).unwrap();
        assert_eq!(start.after(&path), Some(goal), "{start}: {line}");
        // The alphabetically smallest optimal path (D < L < R < U) is what `path --order
        // dlru` prints.
        let ordered = query_fifteen_args("path", &["--order", "dlru"], &start.to_string());
        assert_eq!(line.to_lowercase(), ordered.stdout.trim(), "{start}");
    }
    assert_eq!(lines[2].len(), far_len);
    let light = judge("lightoj1121", input.replace('\n', "\n\n")).ok();
    assert_eq!(
        light.lines(),
        [
            format!("Case 1: {}", lines[0]),
            "Case 2: This puzzle is not solvable.".to_string(),
            "Case 3: This puzzle is not solvable.".to_string(),
        ]
    );
    let bad = judge("uva10181", "1\n1 2 3\n");
    assert_eq!(bad.code, Some(BAD_INPUT));
    assert_eq!(
        bad.stderr,
        "slidetable: judge uva10181: <stdin>: line 2: expected 4 numbers in row 1 of puzzle 1, found 3\n"
    );
}

fn query_fifteen(command: &str, input: &str) -> Run {
    query_fifteen_args(command, &[], input)
}

fn query_fifteen_args(command: &str, args: &[&str], input: &str) -> Run {
    Run::of(
        slidetable()
            .arg(command)
            .arg("--table")
            .arg(table_4x4_555())
            .args(args)
            .write_stdin(format!("{input}\n")),
    )
    .ok()
}

// ---------------------------------------------------------------------------------------------
// Which judges accept any optimal answer

#[test]
fn judge_list_says_which_judges_accept_any_optimal_answer() {
    let run = Run::of(slidetable().args(["judge", "--list"])).ok();
    let special = ["poj1077", "hdu1043", "uva10085", "uva652", "uva10181"];
    let exact = [
        "acwing845",
        "hihocoder1312",
        "pair",
        "luogu1379",
        "hdu3567",
        "leetcode773",
        "lightoj1121",
    ];
    assert_eq!(run.stdout.lines().count(), 1 + special.len() + exact.len());
    for format in special.iter().chain(&exact) {
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("{format} ")))
            .unwrap_or_else(|| panic!("no line for {format} in {}", run.stdout));
        if special.contains(format) {
            assert!(line.contains("any "), "{format}: {line}");
        } else {
            assert!(
                line.ends_with("this output byte for byte"),
                "{format}: {line}"
            );
        }
    }
}

#[test]
fn judges_take_the_names_people_type_and_suggest_the_nearest_for_a_typo() {
    let sample = fs::read_to_string(judges_dir().join("poj1077/input.txt")).unwrap();
    let expected = fs::read_to_string(judges_dir().join("poj1077/expected.txt")).unwrap();
    for name in ["poj1077", "poj", "POJ-1077", "acwing179", "pku1077"] {
        let run = Run::of(
            slidetable()
                .args(["judge", name, "--table"])
                .arg(table_3x3())
                .write_stdin(sample.as_bytes()),
        )
        .ok();
        assert_eq!(run.stdout, expected, "{name}");
    }
    // The same problem on other judges: ZOJ 1217 is HDU 1043's "Eight", LOJ 1121 LightOJ's.
    let sample = fs::read_to_string(judges_dir().join("hdu1043/input.txt")).unwrap();
    let expected = fs::read_to_string(judges_dir().join("hdu1043/expected.txt")).unwrap();
    for name in ["zoj1217", "ZOJ 1217"] {
        let run = Run::of(
            slidetable()
                .args(["judge", name, "--table"])
                .arg(table_3x3())
                .write_stdin(sample.as_bytes()),
        )
        .ok();
        assert_eq!(run.stdout, expected, "{name}");
    }
    let list = Run::of(slidetable().args(["judge", "--list"])).ok();
    assert!(
        list.stdout
            .lines()
            .any(|l| l.starts_with("lightoj1121 ") && l.contains("loj1121")),
        "{}",
        list.stdout
    );
    for (typo, hint) in [
        ("zoj1271", "did you mean hdu1043?"),
        ("loj1112", "did you mean lightoj1121?"),
        ("poj1707", "did you mean poj1077?"),
        ("hdu1034", "did you mean hdu1043?"),
        ("uva", "did you mean one of uva10085, uva652, uva10181?"),
        ("lightoj112", "did you mean lightoj1121?"),
    ] {
        let run = Run::of(slidetable().args(["judge", typo]));
        assert_eq!(run.code, Some(2), "{typo}: {run:?}");
        assert!(
            run.stderr
                .contains(&format!("unknown judge '{typo}': {hint}")),
            "{typo}: {}",
            run.stderr
        );
    }
}

#[test]
fn judge_help_names_each_problem_in_plain_words() {
    let short = Run::of(slidetable().args(["judge", "-h"])).ok();
    let long = Run::of(slidetable().args(["judge", "--help"])).ok();
    for help in [&short.stdout, &long.stdout] {
        for (name, problem) in [
            ("poj1077", "POJ 1077 / AcWing 179"),
            ("hdu1043", "HDU 1043"),
            ("uva10181", "UVa 10181"),
            ("lightoj1121", "LightOJ 1121"),
        ] {
            assert!(
                help.lines()
                    .any(|l| l.contains(name) && l.contains(problem)),
                "{name}: {help}"
            );
        }
        // Rustdoc links and a claim that every format answers with no search were shown once.
        assert!(!help.contains("[`"), "{help}");
        assert!(!help.contains("with no search"), "{help}");
    }
}

#[test]
fn the_readme_names_the_source_of_pair_and_says_hiho_prints_a_number_of_moves() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let row = |name: &str| {
        readme
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no README row for {name}"))
            .to_string()
    };
    let pair = row("pair");
    assert!(
        pair.contains("Liu Rujia") && !pair.contains("seed"),
        "{pair}"
    );
    assert!(
        row("hihocoder1312").contains("number of moves"),
        "{}",
        row("hihocoder1312")
    );
    assert!(row("uva652").contains("UVa 652"), "{}", row("uva652"));
}

// ---------------------------------------------------------------------------------------------
// A local special judge: --check

#[test]
fn check_accepts_every_sample_answer_and_exits_1_on_a_wrong_one() {
    for format in JUDGES {
        let dir = judges_dir().join(format);
        let run = Run::of(
            slidetable()
                .args(["judge", format, "--table"])
                .arg(table_for(format))
                .arg("--check")
                .arg(dir.join("expected.txt"))
                .arg(dir.join("input.txt")),
        )
        .ok();
        assert!(
            run.stdout.lines().last().unwrap().starts_with("Accepted: "),
            "{format}: {}",
            run.stdout
        );
    }
    let dir = TempDir::new().unwrap();
    let theirs = dir.path().join("theirs.txt");
    fs::write(&theirs, "ullddrurdllurdruldrux\n").unwrap();
    let run = Run::of(
        slidetable()
            .args(["judge", "poj1077", "--table"])
            .arg(table_3x3())
            .arg("--check")
            .arg(&theirs)
            .arg(judges_dir().join("poj1077/input.txt")),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(
        run.stdout,
        "case 1 (line 1): Wrong Answer: format: 'x' (character 21) is not a move: the moves are \
         u d l r\nWrong Answer: 0 of 1 cases accepted\n"
    );
    let missing = dir.path().join("missing.txt");
    let run = Run::of(
        slidetable()
            .args(["judge", "poj1077", "--table"])
            .arg(table_3x3())
            .arg("--check")
            .arg(&missing)
            .arg(judges_dir().join("poj1077/input.txt")),
    );
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("cannot open"), "{}", run.stderr);
}

/// `judge FORMAT --check THEIR_OUTPUT INPUT` with `args` after it, their output on standard
/// input when THEIR_OUTPUT is `-`.
fn check_run(format: &str, theirs: &str, input: &Path, args: &[&str], stdin: &str) -> Run {
    Run::of(
        slidetable()
            .args(["judge", format, "--table"])
            .arg(table_for(format))
            .args(["--check", theirs])
            .arg(input)
            .args(args)
            .write_stdin(stdin),
    )
}

/// POJ 1077, HDU 1043 and UVa 652 accept any solution: a longer valid path is Accepted, with
/// its length and the optimum, exit 0; `--strict` asks for the optimum.
#[test]
fn check_accepts_a_longer_valid_path_as_the_site_does_and_strict_refuses_it() {
    let input = judges_dir().join("poj1077/input.txt");
    let longer = "ullddrurdllurdruldrud\n";
    let run = check_run("poj1077", "-", &input, &[], longer);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert_eq!(
        run.stdout,
        "case 1 (line 1): Accepted (valid, 21 moves; optimal is 19)\n\
         Accepted: 1 of 1 cases (1 valid but not optimal)\n"
    );
    let run = check_run("poj1077", "-", &input, &["--strict"], longer);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert_eq!(
        run.stdout,
        "case 1 (line 1): Wrong Answer: 21 moves where the optimum is 19\n\
         Wrong Answer: 0 of 1 cases accepted\n"
    );
    // --strict means nothing without --check.
    let run = Run::of(slidetable().args(["judge", "poj1077", "--strict"]));
    assert_eq!(run.code, Some(2), "{run:?}");
}

/// `--check -` reads the output to judge from standard input, as INPUT `-` does; both on
/// standard input at once is refused, naming why.
#[test]
fn check_dash_reads_the_output_from_standard_input() {
    let dir = judges_dir().join("hdu1043");
    let expected = fs::read_to_string(dir.join("expected.txt")).unwrap();
    let run = check_run("hdu1043", "-", &dir.join("input.txt"), &[], &expected);
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(
        run.stdout.lines().last().unwrap().starts_with("Accepted: "),
        "{}",
        run.stdout
    );
    // INPUT `-` still reads standard input.
    let input = fs::read_to_string(dir.join("input.txt")).unwrap();
    let run = check_run(
        "hdu1043",
        dir.join("expected.txt").to_str().unwrap(),
        Path::new("-"),
        &[],
        &input,
    );
    assert_eq!(run.code, Some(0), "{run:?}");
    for both in [&["-"][..], &[]] {
        let run = Run::of(
            slidetable()
                .args(["judge", "hdu1043", "--table"])
                .arg(table_3x3())
                .args(["--check", "-"])
                .args(both)
                .write_stdin(input.as_bytes()),
        );
        assert_eq!(run.code, Some(2), "{both:?}: {run:?}");
        assert!(
            run.stderr.contains(
                "--check - reads the output to judge from standard input, so INPUT must be a file"
            ),
            "{}",
            run.stderr
        );
    }
}

/// A program that never stops printing, judged as a local judge must: at its first line
/// after the last case (`yes uldr`), or at a line longer than 64 KiB (one endless line): at
/// once, whatever it goes on writing (the check used to read it all into memory first).
#[test]
fn check_judges_an_endless_output_at_once() {
    let dir = TempDir::new().unwrap();
    let input = dir.path().join("in.txt");
    fs::write(&input, "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 x 8\n").unwrap();
    for (block, code, said) in [
        (
            "uldr\n".repeat(1 << 12),
            1,
            "line 3: Wrong Answer: the output continues after the last case: 'uldr' (not read \
             further)",
        ),
        (
            "u".repeat(1 << 14),
            1,
            "line 1: Output Limit Exceeded: a line longer than 65536 bytes; the output is not \
             read further",
        ),
        (
            "\n".repeat(1 << 12),
            1,
            "case 1 (line 1): Wrong Answer: 0 moves do not reach the goal",
        ),
    ] {
        let mut child = process(dir.path())
            .args(["judge", "hdu1043", "--table"])
            .arg(table_3x3())
            .args(["--check", "/dev/stdin"])
            .arg(&input)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Writes until the judge stops reading (a broken pipe), or 4 GB.
        let writer = thread::spawn(move || {
            for _ in 0..(1u64 << 32) / block.len() as u64 {
                if stdin.write_all(block.as_bytes()).is_err() {
                    return;
                }
            }
        });
        let status = wait_at_most(&mut child, Duration::from_secs(30), "judge --check");
        let stdout = crate::common::stdout_of(&mut child);
        assert_eq!(status.code(), Some(code), "{stdout}");
        assert!(stdout.lines().any(|l| l == said), "{stdout}");
        writer.join().unwrap();
    }
}

/// HDU 3567 compares bytes: CRLF line ends or a trailing space are a Presentation Error,
/// exit 3, as HDU says; a missing last line end is accepted and said so.
#[test]
fn check_calls_a_difference_in_whitespace_a_presentation_error() {
    let input = judges_dir().join("hdu3567/input.txt");
    let expected = fs::read_to_string(judges_dir().join("hdu3567/expected.txt")).unwrap();
    for (theirs, code, last) in [
        (
            expected.replace('\n', "\r\n"),
            3,
            "Presentation Error: line 1 of 4: expected 'Case 1: 2', found 'Case 1: 2\\r' (a \
             CRLF line end: \\r before \\n); only whitespace differs",
        ),
        (
            expected.replace("dd\n", "dd \n"),
            3,
            "Presentation Error: line 2 of 4: expected 'dd', found 'dd ' (whitespace at the end \
             of the line); only whitespace differs",
        ),
        (
            expected.trim_end().to_string(),
            0,
            "Accepted: 4 lines of output, the expected output byte for byte but for the line \
             end the last line lacks (the sites accept that)",
        ),
        (
            expected.replace("urrulldr", "urrulldl"),
            1,
            "Wrong Answer: line 4 of 4: expected 'urrulldr', found 'urrulldl'",
        ),
    ] {
        let run = check_run("hdu3567", "-", &input, &[], &theirs);
        assert_eq!(run.code, Some(code), "{theirs:?}: {run:?}");
        assert_eq!(run.stdout.trim_end(), last, "{theirs:?}");
    }
}

/// The files the other way round (`--check INPUT THEIR_OUTPUT`): the bad input's message says
/// they look swapped.
#[test]
fn check_hints_that_the_files_look_swapped() {
    let dir = judges_dir().join("hdu1043");
    let run = Run::of(
        slidetable()
            .args(["judge", "hdu1043", "--table"])
            .arg(table_3x3())
            .arg("--check")
            .arg(dir.join("input.txt"))
            .arg(dir.join("expected.txt")),
    );
    assert_eq!(run.code, Some(BAD_INPUT), "{run:?}");
    assert!(
        run.stderr.contains(": line 1: ")
            && run.stderr.contains(
                "which looks like an answer: are the input and the output to check swapped?"
            ),
        "{}",
        run.stderr
    );
}
