//! Markdown tables as a source: the seeds' own documents, read unchanged.

use std::fmt::Write as _;

use grimoire::diag::Source;
use grimoire::md;
use proptest::prelude::*;

/// Each table of a document: where it starts, its columns, and each row's first cell.
fn summary(path: &str) -> String {
    let text = std::fs::read_to_string(path).expect("read the seed");
    let source = Source::new(path, text.clone());
    let mut diags = Vec::new();
    let tables = md::tables(&text, &mut diags);
    let mut out = String::new();
    for d in &diags {
        out.push_str(&source.render(d, false));
    }
    for t in &tables {
        let line = text[..t.span.start as usize].lines().count() + 1;
        let _ = writeln!(
            out,
            "line {line}: {} rows | {}",
            t.rows.len(),
            t.columns().collect::<Vec<_>>().join(" | ")
        );
        let firsts: Vec<&str> = t.rows.iter().map(|r| r.cells[0].text.as_ref()).collect();
        let _ = writeln!(out, "  {}", firsts.join(", "));
    }
    out
}

#[test]
fn the_skill_seeds_tables() {
    insta::assert_snapshot!(summary("tests/data/seeds/000_31e8eb786b919423.md"));
}

#[test]
fn the_buff_seeds_tables() {
    insta::assert_snapshot!(summary("tests/data/seeds/001_e65c26276a805a93.md"));
}

#[test]
fn a_cell_points_at_its_place_in_the_document() {
    let text = std::fs::read_to_string("tests/data/seeds/000_31e8eb786b919423.md").unwrap();
    let mut diags = Vec::new();
    let tables = md::tables(&text, &mut diags);
    let buffs = tables
        .iter()
        .find(|t| t.rows.iter().any(|r| r.cells[0].text == "heal1"))
        .expect("the buff table");
    let heal1 = &buffs.rows[0].cells[0];
    let source = Source::new("seed", text.clone());
    let d = grimoire::diag::Diagnostic::error(heal1.span, "here");
    let shown = source.render(&d, false);
    assert!(shown.contains("seed:167:3"), "{shown}");
    assert_eq!(buffs.column("outputBase"), Some(3));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_text_reads_without_panicking_and_every_span_is_inside_it(
        text in prop::collection::vec(
            prop::sample::select(vec!["|", "-", ":", "a", " ", "\n", "\r\n", "`", "\\", "é", "---", "```"]),
            0..80,
        ).prop_map(|parts| parts.concat())
    ) {
        let mut diags = Vec::new();
        let tables = md::tables(&text, &mut diags);
        let inside = |s: grimoire::syntax::Span| {
            (s.start as usize) <= (s.end as usize)
                && (s.end as usize) <= text.len()
                && text.is_char_boundary(s.start as usize)
                && text.is_char_boundary(s.end as usize)
        };
        for t in &tables {
            prop_assert!(inside(t.span));
            for c in t.header.iter().chain(t.rows.iter().flat_map(|r| r.cells.iter())) {
                prop_assert!(inside(c.span));
            }
        }
        for d in &diags {
            prop_assert!(inside(d.span));
        }
    }
}
