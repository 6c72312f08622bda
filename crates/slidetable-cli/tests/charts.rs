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
