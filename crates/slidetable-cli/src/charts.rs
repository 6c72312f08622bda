//! The charts of `stats --svg` and `heuristic --svg`, drawn as SVG by plotters for a slide or
//! a page: the states at each distance, and each heuristic's estimates against the true
//! distance. The text is left to the viewer's sans-serif font (plotters only estimates its
//! width), so drawing needs no font file and no system library.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use slidetable::heuristic::{HeuristicReport, Quartiles};
use slidetable::query::HistogramStats;

use crate::streams;

/// The picture's size in pixels: 16:10, the shape of most slides.
const SIZE: (u32, u32) = (1200, 750);
/// The bars' colour (also what the tests count the bars by).
pub(crate) const BAR: RGBColor = RGBColor(0x1f, 0x77, 0xb4);
/// One colour per heuristic, in the order they were asked for (then again from the first).
const SERIES: [RGBColor; 6] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x8c, 0x56, 0x4b),
];
const FONT: &str = "sans-serif";
/// The opacity of the heuristic chart's boxes (the whiskers and the median show through;
/// the tests find the boxes by it).
const BOX_OPACITY: f64 = 0.3;

/// What the charts' axes and title say of the table.
pub(crate) struct Labels<'a> {
    /// The table file (or what stands for it).
    pub(crate) table: &'a str,
    /// The board, `3x3`.
    pub(crate) board: String,
    /// The goal, as a puzzle is written.
    pub(crate) goal: String,
    /// A tile-cost table: distances are cheapest costs, not moves.
    pub(crate) weighted: bool,
}

impl Labels<'_> {
    fn distance(&self, true_: bool) -> String {
        match (self.weighted, true_) {
            (false, false) => "distance (moves)".into(),
            (false, true) => "true distance (moves)".into(),
            (true, false) => "cheapest cost".into(),
            (true, true) => "true cheapest cost".into(),
        }
    }

    fn subtitle(&self) -> String {
        // XML 1.0 cannot hold control characters, not even as references: a file name's
        // are shown as Rust escapes (`\u{1b}`), as a terminal would not show them either.
        let table: String = self
            .table
            .chars()
            .map(|c| match c.is_control() {
                true => c.escape_default().to_string(),
                false => c.to_string(),
            })
            .collect();
        format!("{}, goal {} (table {table})", self.board, self.goal)
    }
}

/// Refuses a chart's `path` that is not a regular file (a FIFO nobody reads would block
/// the write forever), as `-o` refuses one: before the work, and again when it is written.
pub(crate) fn check_path(path: Option<&Path>) -> Result<Option<&Path>> {
    match path {
        Some(p) if p != Path::new("-") => {
            slidetable::generate::check_replaceable(p).map_err(|e| refusal(p, e))?;
            Ok(Some(p))
        }
        other => Ok(other),
    }
}

fn refusal(path: &Path, e: slidetable::generate::GenError) -> anyhow::Error {
    match e {
        slidetable::generate::GenError::NotAFile { kind, .. } => anyhow::anyhow!(
            "refusing to write the chart to {}: it is {kind}, not a regular file",
            path.display()
        ),
        e => {
            anyhow::Error::from(e).context(format!("cannot write the chart to {}", path.display()))
        }
    }
}

/// Writes `svg` to `path`, or to standard output when `path` is `-`.
pub(crate) fn save(path: &Path, svg: &str) -> Result<()> {
    if path == Path::new("-") {
        let mut out = streams::stdout();
        out.write_all(svg.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    // As a table is written: only over a regular file, through a temporary file renamed
    // into place.
    slidetable::generate::write_file(path, svg.as_bytes())
        .map(drop)
        .map_err(|e| refusal(path, e))
}

/// Integers with thousands separators (`181,440`), the axes' numbers.
fn grouped(n: f64) -> String {
    let digits = format!("{:.0}", n.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0.0 && digits != "0" {
        out.insert(0, '-');
    }
    out
}

/// The states at each distance as bars, one per distance that holds any; with `log`, on a
/// logarithmic axis so that layers of a few states show.
pub(crate) fn distances(stats: &HistogramStats, labels: &Labels<'_>, log: bool) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let most = stats.layers.iter().map(|l| l.states).max().unwrap_or(1) as f64;
        let x = -0.5..f64::from(stats.max) + 0.5;
        let title = format!("States by {}", labels.distance(false));
        if log {
            // From 1/2 so that a layer of one state is a bar too.
            let y = (0.5..most * 2.0).log_scale();
            bars(
                &root,
                stats,
                labels,
                &title,
                x,
                y,
                0.5,
                "states (log scale)",
            )?;
        } else {
            bars(
                &root,
                stats,
                labels,
                &title,
                x,
                0.0..most * 1.05,
                0.0,
                "states",
            )?;
        }
        root.present()?;
    }
    Ok(svg)
}

#[allow(clippy::too_many_arguments)]
fn bars<Y>(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    stats: &HistogramStats,
    labels: &Labels<'_>,
    title: &str,
    x: std::ops::Range<f64>,
    y: Y,
    floor: f64,
    y_name: &str,
) -> Result<()>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (top, body) = root.split_vertically(80);
    heading(&top, title, labels)?;
    let mut chart = ChartBuilder::on(&body)
        .margin(20)
        .x_label_area_size(70)
        .y_label_area_size(130)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(usize::min(stats.max as usize + 1, 40))
        .x_label_formatter(&|d| format!("{d:.0}"))
        .y_label_formatter(&|s| grouped(*s))
        .x_desc(labels.distance(false))
        .y_desc(y_name)
        .label_style((FONT, 20))
        .axis_desc_style((FONT, 24))
        .draw()?;
    chart.draw_series(stats.layers.iter().filter(|l| l.states > 0).map(|l| {
        let d = f64::from(l.distance);
        Rectangle::new([(d - 0.4, floor), (d + 0.4, l.states as f64)], BAR.filled())
    }))?;
    Ok(())
}

/// The title, and under it the board, goal and table.
fn heading(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    labels: &Labels<'_>,
) -> Result<()> {
    let (w, _) = area.dim_in_pixel();
    let centre = |size: u32| {
        TextStyle::from((FONT, size).into_font()).pos(Pos::new(HPos::Center, VPos::Top))
    };
    area.draw_text(title, &centre(32), (w as i32 / 2, 12))?;
    area.draw_text(&labels.subtitle(), &centre(22), (w as i32 / 2, 50))?;
    Ok(())
}

/// Each heuristic's estimates against the true distance: at each distance a box plot (a box
/// from the 25th to the 75th percentile with the median across it, whiskers from the least to
/// the greatest estimate), the mean as a line with a point, and the diagonal h = d (where an
/// admissible heuristic's whiskers stay at or under).
pub(crate) fn heuristics(
    reports: &[(String, HeuristicReport)],
    labels: &Labels<'_>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, body) = root.split_vertically(80);
        heading(
            &top,
            &format!("Heuristic estimate against {}", labels.distance(true)),
            labels,
        )?;
        let reached = reports
            .iter()
            .flat_map(|(_, r)| r.by_distance.iter().enumerate())
            .filter(|(_, a)| a.states > 0);
        let (mut far, mut high) = (1u32, 1u32);
        for (d, a) in reached {
            far = far.max(d as u32);
            high = high.max(a.max_estimate);
        }
        let top = f64::from(far.max(high)) * 1.05;
        let mut chart = ChartBuilder::on(&body)
            .margin(20)
            .x_label_area_size(70)
            .y_label_area_size(100)
            .build_cartesian_2d(-0.5..f64::from(far) + 0.5, 0.0..top)?;
        chart
            .configure_mesh()
            .x_labels(usize::min(far as usize + 1, 40))
            .x_label_formatter(&|d| format!("{d:.0}"))
            .y_label_formatter(&|h| format!("{h:.0}"))
            .x_desc(labels.distance(true))
            .y_desc("estimate h (box: quartiles; line: mean; bar: range)")
            .label_style((FONT, 20))
            .axis_desc_style((FONT, 24))
            .draw()?;
        chart
            .draw_series(DashedLineSeries::new(
                [(0.0, 0.0), (f64::from(far), f64::from(far))],
                10,
                6,
                BLACK.stroke_width(2),
            ))?
            .label("h = d")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 30, y)], BLACK.stroke_width(2)));
        // Side by side within a distance, so that the bars of several heuristics show.
        let n = reports.len() as f64;
        for (i, (name, report)) in reports.iter().enumerate() {
            let colour = SERIES[i % SERIES.len()];
            let shift = if n > 1.0 {
                (i as f64 - (n - 1.0) / 2.0) * 0.5 / n
            } else {
                0.0
            };
            let points: Vec<(f64, &slidetable::heuristic::Accuracy)> = report
                .by_distance
                .iter()
                .enumerate()
                .filter(|(_, a)| a.states > 0)
                .map(|(d, a)| (d as f64 + shift, a))
                .collect();
            chart.draw_series(points.iter().map(|&(d, a)| {
                PathElement::new(
                    [
                        (d, f64::from(a.min_estimate)),
                        (d, f64::from(a.max_estimate)),
                    ],
                    colour.stroke_width(3),
                )
            }))?;
            // The box: the middle half of the estimates, from the 25th to the 75th
            // percentile, with the median across it (exact, from the counts).
            let half = 0.3 / n;
            let quartiles: Vec<(f64, Quartiles)> = points
                .iter()
                .filter_map(|&(d, a)| a.quartiles().map(|q| (d, q)))
                .collect();
            chart.draw_series(quartiles.iter().map(|&(d, q)| {
                Rectangle::new(
                    [
                        (d - half, f64::from(q.lower)),
                        (d + half, f64::from(q.upper)),
                    ],
                    colour.mix(BOX_OPACITY).filled(),
                )
            }))?;
            chart.draw_series(quartiles.iter().map(|&(d, q)| {
                PathElement::new(
                    [
                        (d - half, f64::from(q.median)),
                        (d + half, f64::from(q.median)),
                    ],
                    colour.stroke_width(2),
                )
            }))?;
            chart
                .draw_series(LineSeries::new(
                    points.iter().map(|&(d, a)| (d, a.mean_estimate)),
                    colour.stroke_width(3),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 30, y)], colour.stroke_width(3))
                });
            chart.draw_series(
                points
                    .iter()
                    .map(|&(d, a)| Circle::new((d, a.mean_estimate), 5, colour.filled())),
            )?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 20))
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn axis_numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0.0), "0");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1000.0), "1,000");
        assert_eq!(grouped(181_440.0), "181,440");
        assert_eq!(grouped(1_234_567.4), "1,234,567");
        assert_eq!(grouped(-2500.0), "-2,500");
    }
}
