//! What the card tables of `simulate` and `simulate --versus-cards` share:
//! the width of the card column, and a card's name as a CSV cell.

/// The width of a table's card column: the longest name, at least "card".
pub(crate) fn name_width<'n>(names: impl Iterator<Item = &'n str>) -> usize {
    names.map(|n| n.chars().count()).max().unwrap_or(4).max(4)
}

/// A name as a CSV cell: quoted, its quotes doubled, when it holds a comma,
/// a quote or a line break.
pub(crate) fn csv_cell(name: &str) -> String {
    if name.contains([',', '"', '\n']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}
