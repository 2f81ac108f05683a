//! Markdown tables as a source: the seeds' own documents, read unchanged.

use std::fmt::Write as _;

use grimoire::check::md;
use grimoire::diag::Source;
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
    let d = grimoire::diag::Diagnostic::new(grimoire::diag::Code::TableFigure, heal1.span, "here");
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

/// `grimoire check` over `paths`, with `rules`: exit code and what it printed.
fn check(paths: &[std::path::PathBuf], rules: Option<&str>) -> (i32, String) {
    let out = grimoire::cli::check(paths, rules, grimoire::cli::Format::Human, false);
    (out.code, out.stderr)
}

/// A folder named after the skills rule set holding `files`.
fn skills_folder(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("md-{name}"))
        .join("skills");
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn the_skill_seeds_document_gets_its_own_faults_reported() {
    let (code, err) = check(
        &["tests/data/seeds/000_31e8eb786b919423.md".into()],
        Some("skills"),
    );
    assert_eq!(code, 1, "{err}");
    // Exactly the seed's two faults are errors: a name defined twice, a misspelt category.
    assert!(err.contains("2 errors"), "{err}");
    assert!(
        err.contains("`blockDebuffs7` is defined twice in these tables"),
        "{err}"
    );
    assert!(err.contains("000_31e8eb786b919423.md:194:3"), "{err}");
    assert!(
        err.contains("`ecaaBlockDebuffs` is not a category of rule set `skills`"),
        "{err}"
    );
    assert!(err.contains("000_31e8eb786b919423.md:136:3"), "{err}");
    insta::assert_snapshot!(err);
}

#[test]
fn the_bundled_corrected_tables_agree_with_their_definitions() {
    let (code, err) = check(&["effects/skills".into()], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 errors, 0 warnings"), "{err}");
}

#[test]
fn a_row_that_disagrees_with_its_definition_is_reported_at_its_cell() {
    let doc = "## Buffs\n\n| Name | Trigger | Category | Description |\n|---|---|---|---|\n| heal4 | etiOnTurnStart | ecaDoDamage | heals |\n\n## Debuffs\n\n| Name | Trigger | Category | Description |\n|---|---|---|---|\n| heal3 | etiOnTurnStart | ecaHeal | heals |\n";
    let dir = skills_folder("disagree", &[("t.md", doc)]);
    let (code, err) = check(&[dir], None);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the table says `heal4` is of category `ecaDoDamage`; its definition in the rule set's bundled data says `ecaHeal`"),
        "{err}"
    );
    assert!(err.contains("t.md:5:28"), "{err}");
    assert!(err.contains("the table lists `heal3` as a debuff"), "{err}");
    assert!(
        err.contains("the table says `heal4` acts at `etiOnTurnStart`; its definition in the rule set's bundled data acts at `etiOnTurnEnd`"),
        "{err}"
    );
}

#[test]
fn a_described_row_without_a_definition_is_a_status_that_does_nothing() {
    let doc = "# Notes\n\nProse is skipped.\n\n## Buffs\n\n| Name | Trigger | Category | Description |\n|---|---|---|---|\n| shield1 | etiOnSkillStart | ecaBlockDamage | a shield |\n| shield2 | etiOnSkillStart | ecaBlockDamage |  |\n";
    let card = "{:card \"Shield\" :effects [{:effected :you :acquire :shield1}]}";
    let dir = skills_folder("becomes", &[("t.md", doc), ("c.edn", card)]);
    let (code, err) = check(&[dir], None);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("`shield1` does nothing"), "{err}");
    assert!(
        err.contains("`shield2` has no description and no definition: it is undefined"),
        "{err}"
    );
    let (code, err) = check(&["README.md".into(), "docs".into()], None);
    assert_eq!(code, 0, "prose documents have no tables to check: {err}");
}

#[test]
fn the_buff_seeds_document_checks_clean_against_tactics() {
    // Both of its figure tables are read (POWER is in both: checked twice, not
    // defined twice), and every figure agrees with effects/tactics/buffs.edn.
    let (code, err) = check(
        &["tests/data/seeds/001_e65c26276a805a93.md".into()],
        Some("tactics"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("0 errors, 0 warnings"), "{err}");
}

#[test]
fn a_figure_that_disagrees_with_its_definition_is_reported_at_its_cell() {
    let doc = "# Figures\n\n| BUFF | ATK | HP (instant) | HP/round | Special |\n|---|---|---|---|---|\n| POWER | +2 | +1 | — | note |\n| LIFE | — | 3 HP | — | None |\n| SPEED | -1 | — | — | x |\n| BLEED | — | — | -2 per round | DoT |\n| SLOWW | — | — | — | late |\n| WEAKNESS | 2.5 | -1 | — | None |\n\n| BUFF | Instant Effect |\n|---|---|\n| weakness | +1 HP |\n";
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("md-figures")
        .join("tactics");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("figures.md"), doc).unwrap();
    let (code, err) = check(&[dir.join("figures.md")], None);
    assert_eq!(code, 1, "{err}");
    let err = err.replace(&dir.display().to_string(), "tactics");
    insta::assert_snapshot!(err);
}

#[test]
fn a_row_that_names_nothing_says_so() {
    let doc = "| BUFF | ATK | HP (instant) | HP/round | Special |\n|---|---|---|---|---|\n|  | +3 | +1 | — | x |\n|  | +3 | +1 | — | y |\n";
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("md-nameless")
        .join("tactics");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.md"), doc).unwrap();
    let (code, err) = check(&[dir.join("t.md")], None);
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.matches("this row names no status").count(), 2, "{err}");
    assert!(
        err.contains("write the status's name in the `BUFF` column"),
        "{err}"
    );
    assert!(!err.contains("defined twice"), "{err}");
    assert!(err.contains("t.md:3:4"), "{err}");
}
