//! `stats --svg` and `heuristic --svg`: the charts are well-formed SVG, labelled, with one
//! bar (or point) per distance, written to a file or to standard output, and a file that
//! cannot be written is named.

use std::fs;
use std::path::Path;

mod common;
use common::{generate_into, run, scratch_dir, table_3x3, Run, USAGE};

/// The bars' colour in charts.rs.
const BAR: &str = "#1F77B4";

/// The chart parsed as XML (the test fails if it is not well-formed), its root an `svg`.
fn parse(svg: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

/// Every `text` element's text, trimmed.
fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").trim().to_string())
        .collect()
}

/// The bars: (left edge, height) of each `rect` filled with the bars' colour, left to right.
fn bars(doc: &roxmltree::Document<'_>) -> Vec<(i64, i64)> {
    let mut bars: Vec<(i64, i64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| {
            n.attribute("fill")
                .is_some_and(|f| f.eq_ignore_ascii_case(BAR))
        })
        .map(|n| {
            let number = |a: &str| n.attribute(a).unwrap().parse::<i64>().unwrap();
            (number("x"), number("height"))
        })
        .collect();
    bars.sort();
    bars
}

fn chart_in(dir: &Path, name: &str, command: &str, args: &[&str]) -> (Run, String) {
    let path = dir.join(name);
    let mut all = args.to_vec();
    let path_text = path.to_str().unwrap().to_string();
    all.extend(["--svg", &path_text]);
    let r = run(command, &all).ok();
    let svg = fs::read_to_string(&path).unwrap();
    (r, svg)
}

#[test]
fn stats_draws_one_bar_per_distance_with_labels() {
    let dir = scratch_dir("charts-stats");
    let (r, svg) = chart_in(&dir, "stats.svg", "stats", &[]);
    assert_eq!(r.stdout, "", "the chart replaces the text");
    let doc = parse(&svg);
    let labels = texts(&doc);
    let table = table_3x3().display().to_string();
    for want in [
        "States by distance (moves)".to_string(),
        format!("3x3, goal 1 2 3 4 5 6 7 8 0 (table {table})"),
        "distance (moves)".to_string(),
        "states".to_string(),
        "20,000".to_string(),
    ] {
        assert!(
            labels.iter().any(|t| *t == want || t.contains(&want)),
            "{want:?} not in {labels:?}"
        );
    }
    // Distances 0..=31, one bar each; the tallest at 24 (24,047 states), 22 (23,952) just
    // under it, and 0 (one state) flat on a linear axis.
    let linear = bars(&doc);
    assert_eq!(linear.len(), 32, "{linear:?}");
    let heights: Vec<i64> = linear.iter().map(|b| b.1).collect();
    let tallest = heights.iter().max().unwrap();
    assert_eq!(heights[24], *tallest);
    assert!(heights[22] < heights[24] && heights[22] > heights[21]);
    assert!(heights[0] <= 1);

    // --log: small layers show, in order (1, 2, 4, 8 states at 0..3), still one bar each.
    let (_, svg) = chart_in(&dir, "log.svg", "stats", &["--log"]);
    let doc = parse(&svg);
    let log: Vec<i64> = bars(&doc).iter().map(|b| b.1).collect();
    assert_eq!(log.len(), 32);
    assert!(
        log[0] > 0 && log[0] < log[1] && log[1] < log[2] && log[2] < log[3],
        "{log:?}"
    );
    assert!(texts(&doc).iter().any(|t| t == "states (log scale)"));
    assert!(log[31] < log[30], "2 states at 31, 221 at 30");
}

#[test]
fn stats_svg_to_standard_output_and_errors() {
    let dir = scratch_dir("charts-errors");
    let (_, file) = chart_in(&dir, "same.svg", "stats", &[]);
    let out = run("stats", &["--svg", "-"]).ok();
    assert_eq!(
        out.stdout, file,
        "`--svg -` writes the same chart to standard output"
    );

    // A file that cannot be written: exit 1, the file named.
    let missing = dir.join("no-such-directory").join("chart.svg");
    let r = run("stats", &["--svg", missing.to_str().unwrap()]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr
            .contains(&format!("cannot write the chart to {}", missing.display())),
        "{}",
        r.stderr
    );
    let r = run("heuristic", &["--svg", missing.to_str().unwrap()]);
    assert_eq!(r.code, Some(1), "{r:#?}");
    assert!(
        r.stderr.contains("cannot write the chart to"),
        "{}",
        r.stderr
    );

    // It replaces the JSON and CSV outputs, and heuristic's puzzles.
    for args in [
        ["stats", "--json"],
        ["stats", "--csv"],
        ["heuristic", "--json"],
        ["heuristic", "--csv"],
    ] {
        let r = run(args[0], &[args[1], "--svg", "-"]);
        assert_eq!(r.code, Some(USAGE), "{args:?}: {r:#?}");
    }
    let r = run("heuristic", &["--svg", "-", "data/examples/puzzles.txt"]);
    assert_eq!(r.code, Some(USAGE), "{r:#?}");
}

/// A table whose file name holds control characters (which XML 1.0 cannot carry, even
/// escaped): the title shows them escaped, and the chart stays well-formed.
#[test]
fn a_table_name_with_control_characters_keeps_the_chart_well_formed() {
    let dir = scratch_dir("charts-control");
    let table = dir.join("t\u{1}\u{1b}[31m.slt");
    std::fs::copy(table_3x3(), &table).unwrap();
    let r = common::slidetable()
        .arg("stats")
        .arg("--table")
        .arg(&table)
        .args(["--svg", "-"])
        .output()
        .unwrap();
    assert!(r.status.success(), "{r:#?}");
    let svg = String::from_utf8(r.stdout).unwrap();
    let doc = parse(&svg);
    assert!(
        texts(&doc)
            .iter()
            .any(|t| t.contains("t\\u{1}\\u{1b}[31m.slt")),
        "{:?}",
        texts(&doc)
    );
}

#[test]
fn stats_svg_on_a_tile_cost_table_says_cost() {
    let dir = scratch_dir("charts-cost");
    let table = dir.join("2x3-tile.slt");
    generate_into(&dir, "2x3", &["--cost", "tile"], &table);
    let r = Run::of(
        common::slidetable()
            .args(["stats", "--svg", "-", "--table"])
            .arg(&table),
    )
    .ok();
    let doc = parse(&r.stdout);
    let labels = texts(&doc);
    assert!(labels.iter().any(|t| t == "cheapest cost"), "{labels:?}");
    assert!(
        labels.iter().any(|t| t == "States by cheapest cost"),
        "{labels:?}"
    );
    // One bar per cost that some state has, as `stats --csv` counts them.
    let csv = Run::of(
        common::slidetable()
            .args(["stats", "--csv", "--table"])
            .arg(&table),
    )
    .ok();
    let held = csv
        .stdout
        .lines()
        .skip(1)
        .filter(|l| l.split(',').nth(1) != Some("0"))
        .count();
    assert_eq!(bars(&doc).len(), held);
}

#[test]
fn heuristic_svg_draws_each_estimate_against_the_truth() {
    let dir = scratch_dir("charts-heuristic");
    let (r, svg) = chart_in(&dir, "h.svg", "heuristic", &[]);
    assert_eq!(r.stdout, "");
    let doc = parse(&svg);
    let labels = texts(&doc);
    for want in [
        "Heuristic estimate against true distance (moves)",
        "true distance (moves)",
        "h = d",
        "manhattan",
        "linear-conflict",
        "misplaced",
    ] {
        assert!(
            labels.iter().any(|t| t == want),
            "{want:?} not in {labels:?}"
        );
    }
    // One point (the mean) per distance per heuristic: 3 × 32.
    let circles = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    assert_eq!(circles, 3 * 32);

    let (_, svg) = chart_in(&dir, "m.svg", "heuristic", &["--heuristic", "manhattan"]);
    let doc = parse(&svg);
    let circles: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| {
            let at = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
            (at("cx"), at("cy"))
        })
        .collect();
    assert_eq!(circles.len(), 32);
    // The mean estimate rises from the goal: the point at 0 is the lowest (largest y).
    let lowest = circles.iter().map(|c| c.1).fold(f64::MIN, f64::max);
    let first = circles.iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
    assert_eq!(first.1, lowest);
}

/// The y axis of a chart as a map from pixels to values, read from its labels (right-aligned
/// numbers left of the plot).
fn y_axis(doc: &roxmltree::Document<'_>) -> impl Fn(f64) -> f64 {
    let mut ticks: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some("end"))
        .filter_map(|n| {
            let value = n.text()?.trim().parse::<f64>().ok()?;
            Some((value, n.attribute("y")?.parse::<f64>().ok()?))
        })
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(ticks.len() >= 2, "{ticks:?}");
    let ((v0, y0), (v1, y1)) = (ticks[0], ticks[ticks.len() - 1]);
    move |y| v0 + (y - y0) * (v1 - v0) / (y1 - y0)
}

/// The ⌈k·n/4⌉-th smallest of `sorted` (k = 1, 2, 3): the nearest-rank quartiles.
fn nearest_rank(sorted: &[u32], k: usize) -> u32 {
    sorted[(k * sorted.len()).div_ceil(4).max(1) - 1]
}

#[test]
fn heuristic_svg_boxes_are_the_quartiles_of_every_states_estimate() {
    // Every layout of 2x3, each one's distance and estimates from `heuristic INPUT` (one
    // puzzle at a time, no report), grouped by distance and sorted: the quartiles computed
    // apart from the report's counts.
    let mut lines = String::new();
    let mut tiles = [0u8, 1, 2, 3, 4, 5];
    let mut each = |t: &[u8]| {
        let words: Vec<String> = t.iter().map(u8::to_string).collect();
        lines += &words.join(" ");
        lines.push('\n');
    };
    permutations(&mut tiles, 0, &mut each);
    let table = common::table_2x3().to_str().unwrap().to_string();
    let names = ["manhattan", "misplaced"];
    let csv = common::query_table(
        common::table_2x3(),
        "heuristic",
        &["--heuristic", "manhattan,misplaced", "--csv", "-"],
        lines.as_bytes(),
    )
    .ok();
    let mut by_distance: Vec<[Vec<u32>; 2]> = Vec::new();
    for row in csv.stdout.lines().skip(1) {
        let cells: Vec<&str> = row.split(',').collect();
        let Ok(d) = cells[1].parse::<usize>() else {
            continue;
        };
        if by_distance.len() <= d {
            by_distance.resize(d + 1, [Vec::new(), Vec::new()]);
        }
        for h in 0..2 {
            by_distance[d][h].push(cells[2 + h].parse().unwrap());
        }
    }
    assert_eq!(by_distance.iter().map(|e| e[0].len()).sum::<usize>(), 360);
    for estimates in &mut by_distance {
        for e in estimates.iter_mut() {
            e.sort();
        }
    }

    let dir = scratch_dir("charts-quartiles");
    let path = dir.join("q.svg");
    Run::of(common::slidetable().args([
        "heuristic",
        "--table",
        &table,
        "--heuristic",
        "manhattan,misplaced",
        "--svg",
        path.to_str().unwrap(),
    ]))
    .ok();
    let svg = fs::read_to_string(&path).unwrap();
    let doc = parse(&svg);
    let value = y_axis(&doc);
    let number =
        |n: &roxmltree::Node<'_, '_>, a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
    for (h, colour) in ["#1F77B4", "#D62728"].into_iter().enumerate() {
        // The boxes, left to right: (x, 25th, 75th percentile).
        let mut boxes: Vec<(f64, u32, u32)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some("0.3"))
            .filter(|n| {
                n.attribute("fill")
                    .is_some_and(|f| f.eq_ignore_ascii_case(colour))
            })
            .map(|n| {
                let (y, height) = (number(&n, "y"), number(&n, "height"));
                let lower = value(y + height).round() as u32;
                let upper = value(y).round() as u32;
                (number(&n, "x"), lower, upper)
            })
            .collect();
        boxes.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The medians: the thin level lines across the boxes.
        let mut medians: Vec<(f64, u32)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
            .filter(|n| {
                n.attribute("stroke")
                    .is_some_and(|f| f.eq_ignore_ascii_case(colour))
            })
            .map(|n| {
                let points: Vec<(f64, f64)> = n
                    .attribute("points")
                    .unwrap()
                    .split_whitespace()
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                assert_eq!(points.len(), 2);
                assert_eq!(points[0].1, points[1].1, "a median is level");
                (points[0].0, value(points[0].1).round() as u32)
            })
            .collect();
        medians.sort_by(|a, b| a.0.total_cmp(&b.0));
        let expected: Vec<(u32, u32, u32)> = by_distance
            .iter()
            .map(|e| {
                let s = &e[h];
                (nearest_rank(s, 1), nearest_rank(s, 2), nearest_rank(s, 3))
            })
            .collect();
        let drawn: Vec<(u32, u32, u32)> = boxes
            .iter()
            .zip(&medians)
            .map(|(b, m)| (b.1, m.1, b.2))
            .collect();
        assert_eq!(boxes.len(), by_distance.len(), "{}", names[h]);
        assert_eq!(medians.len(), by_distance.len(), "{}", names[h]);
        assert_eq!(drawn, expected, "{}", names[h]);
        // Not every box is flat: the check can see a wrong quartile.
        assert!(expected.iter().any(|q| q.0 < q.2), "{}", names[h]);
    }
}

/// Calls `each` with every permutation of `tiles[k..]` after `tiles[..k]`.
fn permutations(tiles: &mut [u8; 6], k: usize, each: &mut impl FnMut(&[u8])) {
    if k == tiles.len() {
        each(tiles);
        return;
    }
    for i in k..tiles.len() {
        tiles.swap(k, i);
        permutations(tiles, k + 1, each);
        tiles.swap(k, i);
    }
}
