//! The report's charts, inline SVG (no script, no network): bars of rates,
//! a histogram of game lengths, and dots with their 95 % intervals. Every
//! chart has its axis drawn and labelled with what it measures and in what
//! unit, so a chart read alone says what it shows.

use std::fmt::Write as _;

use crate::sim::Difference;

/// Text made safe inside HTML and SVG.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colour of a bar with no other meaning.
pub(super) const BLUE: &str = "#4a7fb5";
/// The colour of deck B's bars beside deck A's blue.
pub(super) const ORANGE: &str = "#d08a2e";
/// The colour of a seat's losses beside its wins in blue.
pub(super) const RED: &str = "#b5443a";

/// One bar of a [`bars`] chart: its name, a value from 0 to 1, its colour.
pub(super) struct Bar<'a> {
    /// Written left of the bar.
    pub(super) name: String,
    /// The bar's length, 0 to 1 of the axis.
    pub(super) value: f64,
    /// Its fill.
    pub(super) colour: &'a str,
}

/// The shape of a [`bars`] chart.
pub(super) struct BarShape<'a> {
    /// The chart's accessible name.
    pub(super) aria: &'a str,
    /// The height of one row, in pixels.
    pub(super) row: f64,
    /// The width of the names' column.
    pub(super) left: f64,
    /// The width of a full bar.
    pub(super) width: f64,
    /// What the horizontal axis measures, with its unit.
    pub(super) axis: &'a str,
}

/// A horizontal axis at height `y` from `left` to `left + width`: its line,
/// its `ticks` (position from 0 to 1, label) and its `label` under them.
fn x_axis(
    svg: &mut String,
    (left, width, y): (f64, f64, f64),
    ticks: &[(f64, String)],
    label: &str,
) {
    let _ = writeln!(
        svg,
        "<g class=\"axis\"><line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#777\"/>",
        left + width
    );
    for (at, text) in ticks {
        let x = left + width * at;
        let _ = writeln!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#777\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y + 4.0,
            y + 16.0,
            esc(text)
        );
    }
    let _ = writeln!(
        svg,
        "<text class=\"axis-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
        left + width / 2.0,
        y + 32.0,
        esc(label)
    );
}

/// The ticks of a percentage axis from 0 % to 100 %.
fn percent_ticks() -> Vec<(f64, String)> {
    (0..=4)
        .map(|i| (f64::from(i) / 4.0, format!("{}%", 25 * i)))
        .collect()
}

/// Horizontal bars, one a row, each with its percentage written beside it,
/// over a percentage axis.
pub(super) fn bars(shape: &BarShape<'_>, rows: &[Bar<'_>]) -> String {
    let BarShape {
        row, left, width, ..
    } = *shape;
    let axis_y = row * rows.len() as f64 + 8.0;
    let height = axis_y + 40.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        esc(shape.aria),
        left + width + 60.0,
        left + width + 60.0
    );
    for (i, bar) in rows.iter().enumerate() {
        let y = i as f64 * row + 4.0;
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{:.1}\">{}</text><rect x=\"{left}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\">{:.1}%</text>",
            y + row * 0.6,
            esc(&bar.name),
            width * bar.value,
            row - 4.0,
            bar.colour,
            left + width * bar.value + 4.0,
            y + row * 0.6,
            100.0 * bar.value
        );
    }
    x_axis(
        &mut svg,
        (left, width, axis_y),
        &percent_ticks(),
        shape.axis,
    );
    svg.push_str("</svg>\n");
    svg
}

/// A histogram of game lengths (`lengths[t]` games lasted `t` turns), in at
/// most 50 bins, with the turns along and the games up.
pub(super) fn lengths(lengths: &[u64]) -> String {
    let first = lengths.iter().position(|&n| n > 0).unwrap_or(0);
    let last = lengths.iter().rposition(|&n| n > 0).unwrap_or(0);
    let span = last.saturating_sub(first) + 1;
    let per = span.div_ceil(50).max(1);
    let bins: Vec<u64> = (first..=last)
        .step_by(per)
        .map(|s| {
            lengths
                .get(s..(s + per).min(last + 1))
                .map_or(0, |b| b.iter().sum())
        })
        .collect();
    let top = bins.iter().copied().max().unwrap_or(1).max(1);
    let (w, h, left, top_y) = (12.0, 160.0, 60.0, 10.0);
    let width = w * bins.len() as f64;
    let total_w = left + width.max(200.0) + 20.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"game length histogram\" width=\"{total_w}\" height=\"{}\" viewBox=\"0 0 {total_w} {}\" xmlns=\"http://www.w3.org/2000/svg\">\n",
        h + top_y + 44.0,
        h + top_y + 44.0
    );
    for (i, &n) in bins.iter().enumerate() {
        let bh = h * n as f64 / top as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#6a9f58\"><title>{}–{} turns: {n} games</title></rect>",
            left + i as f64 * w,
            h - bh + top_y,
            w - 1.0,
            first + i * per,
            first + (i + 1) * per - 1
        );
    }
    // The vertical axis: games, from 0 to the tallest bin.
    let _ = writeln!(
        svg,
        "<g class=\"axis\"><line x1=\"{:.1}\" y1=\"{top_y}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#777\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{top}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">0</text><text class=\"axis-label\" transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">games</text></g>",
        left - 2.0,
        left - 2.0,
        h + top_y,
        left - 6.0,
        top_y + 10.0,
        left - 6.0,
        h + top_y,
        top_y + h / 2.0
    );
    // The horizontal axis: the turns of the first and last bins.
    let mut ticks = vec![(0.5 * w / width, first.to_string())];
    if bins.len() > 1 {
        let last_bin = first + (bins.len() - 1) * per;
        ticks.push((1.0 - 0.5 * w / width, last_bin.to_string()));
    }
    x_axis(
        &mut svg,
        (left, width, h + top_y),
        &ticks,
        "game length (turns)",
    );
    svg.push_str("</svg>\n");
    svg
}

/// The shape of an [`intervals`] chart.
pub(super) struct IntervalShape<'a> {
    /// The chart's accessible name.
    pub(super) aria: &'a str,
    /// What the horizontal axis measures, with its unit.
    pub(super) axis: &'a str,
}

/// The half-width of an axis centred on 0 that holds `widest` (a fraction):
/// twice a round step (1, 2, 2.5 or 5 times a power of ten, in percentage
/// points), so that the ticks at the half and the ends read as round numbers.
fn nice_half_axis(widest: f64) -> f64 {
    let points = 100.0 * widest;
    let mut scale = 0.01;
    loop {
        for step in [1.0, 2.0, 2.5, 5.0] {
            if 2.0 * step * scale >= points || scale > 1e6 {
                return 2.0 * step * scale / 100.0;
            }
        }
        scale *= 10.0;
    }
}

/// One row a name: a dot at a difference of rates and a line across its 95 %
/// interval, dark where the interval leaves out 0, on an axis in percentage
/// points centred on 0.
pub(super) fn intervals(shape: &IntervalShape<'_>, rows: &[(&str, Difference)]) -> String {
    let limit = nice_half_axis(
        rows.iter()
            .flat_map(|(_, d)| [d.low.abs(), d.high.abs()])
            .fold(0.01f64, f64::max),
    );
    let (row, left, width) = (14.0, 170.0, 600.0);
    let x = |v: f64| left + width / 2.0 + v / limit * width / 2.0;
    let axis_y = row * rows.len() as f64 + 8.0;
    let height = axis_y + 40.0;
    let mut svg = format!(
        "<svg role=\"img\" aria-label=\"{}\" width=\"{}\" height=\"{height}\" viewBox=\"0 0 {} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n<line x1=\"{:.1}\" y1=\"0\" x2=\"{:.1}\" y2=\"{axis_y}\" stroke=\"#999\"/>\n",
        esc(shape.aria),
        left + width + 20.0,
        left + width + 20.0,
        x(0.0),
        x(0.0)
    );
    for (i, (name, d)) in rows.iter().enumerate() {
        let y = i as f64 * row + 10.0;
        let colour = if d.significant() {
            "#b5443a"
        } else {
            "#d9a09b"
        };
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{:.1}\">{}</text><line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/><circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"3.5\" fill=\"{colour}\"><title>{}: {:+.1} ({:+.1}, {:+.1})</title></circle>",
            y + 4.0,
            esc(name),
            x(d.low),
            x(d.high),
            x(d.value),
            esc(name),
            100.0 * d.value,
            100.0 * d.low,
            100.0 * d.high
        );
    }
    let ticks: Vec<(f64, String)> = [-1.0, -0.5, 0.0, 0.5, 1.0]
        .into_iter()
        .map(|t: f64| {
            let text = if t == 0.0 {
                "0".to_string()
            } else {
                format!("{:+}", (1000.0 * limit * t).round() / 10.0)
            };
            ((t + 1.0) / 2.0, text)
        })
        .collect();
    x_axis(&mut svg, (left, width, axis_y), &ticks, shape.axis);
    svg.push_str("</svg>\n");
    svg
}
