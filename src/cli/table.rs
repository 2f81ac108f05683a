//! What the card tables of `simulate` and `simulate --versus-cards` share:
//! the width of the card column, a difference in percentage points, and a
//! card's name as a CSV cell.

use crate::sim::Difference;

/// The width of a table's card column: the longest name, at least "card".
pub(crate) fn name_width<'n>(names: impl Iterator<Item = &'n str>) -> usize {
    names.map(|n| n.chars().count()).max().unwrap_or(4).max(4)
}

/// A difference in percentage points with its interval, starred when
/// significant: "+2.1 (+0.4,+3.8)*".
pub(crate) fn points(d: &Difference) -> String {
    format!(
        "{:+.1} ({:+.1},{:+.1}){}",
        100.0 * d.value,
        100.0 * d.low,
        100.0 * d.high,
        if d.significant() { "*" } else { "" }
    )
}

/// A name as a CSV cell: quoted, its quotes doubled, when it holds a comma,
/// a quote or a line break.
/// A change of a metric's mean, "+0.22 (+0.10,+0.34)*" (* where the interval
/// leaves out 0); "-" where `known` is false (fewer than two games a side).
pub(crate) fn mean_difference(d: &crate::sim::metrics::MeanDifference, known: bool) -> String {
    if !known {
        return "-".to_string();
    }
    format!(
        "{:+.2} ({:+.2},{:+.2}){}",
        d.value,
        d.low,
        d.high,
        if d.significant { "*" } else { "" }
    )
}

pub(crate) fn csv_cell(name: &str) -> String {
    if name.contains([',', '"', '\n']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}
