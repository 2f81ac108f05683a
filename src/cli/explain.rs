//! `grimoire explain` and `grimoire cards`: what effects and cards do, in
//! plain words; and where `eval` and `explain` read their effects from.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::{Format, Output, load_rules, to_json};
use crate::check::ast::Effect;
use crate::check::defs::Card;
use crate::check::rules::RuleSet;
use crate::diag::{Code, Diagnostic, Source};
use crate::files;
use crate::syntax::{Arena, Span, read};

/// What `grimoire explain` needs.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct ExplainArgs {
    /// The effects: a vector of effect maps; `-` reads them from standard input.
    #[arg(required_unless_present_any = ["card", "file"])]
    pub effects: Option<String>,
    /// Explain this card instead (from the bundled deck, or --cards).
    #[arg(long, conflicts_with_all = ["effects", "file"])]
    pub card: Option<String>,
    /// Read the effects from this file.
    #[arg(long, conflicts_with = "effects")]
    pub file: Option<PathBuf>,
    /// Card files or folders for --card (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
    #[arg(long)]
    pub cards: Vec<PathBuf>,
    /// Rule set: a name (the project's, else a bundled one such as arcomage) or a rule-set file.
    #[arg(long)]
    pub rules: String,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

/// `grimoire explain`: what a card or effects do, in one line of plain words.
pub fn explain(args: &ExplainArgs) -> Output {
    let rules = match load_rules(&args.rules, Format::Human, args.color) {
        Ok(r) => r,
        Err(out) => return out,
    };
    if let Some(name) = &args.card {
        let (deck, warnings) =
            match super::deck::lenient_deck(&args.rules, &rules, &args.cards, args.color) {
                Ok(found) => found,
                Err(out) => return out,
            };
        let mut out = match super::deck::find_card(&deck, name, &rules.name) {
            Ok(card) => Output {
                stdout: format!("{}\n", explain_card(&rules, card)),
                ..Output::default()
            },
            Err(out) => out,
        };
        out.stderr.insert_str(0, &warnings);
        return out;
    }
    let source = match effects_source(args.effects.as_deref().unwrap_or(""), args.file.as_deref()) {
        Ok(source) => source,
        Err(out) => return out,
    };
    match check_effects(&rules, &source, &[]) {
        Ok(effects) => Output {
            stdout: format!("{}\n", crate::check::explain::explain(&rules, &effects)),
            ..Output::default()
        },
        Err(diags) => {
            let located: Vec<_> = diags.iter().map(|d| (&source, d)).collect();
            Output::diagnostics(&located, Format::Human, args.color)
        }
    }
}

/// What a card does: its effects in plain words, then what it does besides
/// ("Draw 1 card, discard 1 card. Play again"), as card texts say it.
pub fn explain_card(rules: &RuleSet, card: &Card) -> String {
    let mut parts = Vec::new();
    for &k in &card.play.keywords {
        parts.push(crate::check::explain::keyword(&rules.statuses[k]));
    }
    // A reaction's effects name the card it answers: said with what it answers.
    if let Some(r) = &card.reaction {
        parts.push(crate::check::explain::reaction(rules, r, &card.effects));
    } else if !card.effects.is_empty() || !card.aims.targets.is_empty() {
        parts.push(crate::check::explain::aimed(
            rules,
            &card.aims.targets,
            &card.effects,
        ));
    }
    for p in &card.aims.playable {
        parts.push(format!("only while it may be: {}", p.reason));
    }
    if let Some(f) = &card.aims.forced {
        parts.push(format!("forced: {}", f.reason));
    }
    for t in &card.triggers {
        parts.push(crate::check::explain::trigger(rules, t));
    }
    for a in &card.auras {
        parts.push(crate::check::explain::aura(rules, a));
    }
    for a in &card.abilities {
        parts.push(crate::check::explain::activated(rules, a));
    }
    let mut cards = Vec::new();
    let count = |n: u8| format!("{n} card{}", crate::diag::plural(n));
    if card.play.draw > 0 {
        cards.push(format!("draw {}", count(card.play.draw)));
    }
    if card.play.discard > 0 {
        cards.push(format!("discard {}", count(card.play.discard)));
    }
    if !cards.is_empty() {
        parts.push(cards.join(", "));
    }
    if card.play.play_again {
        parts.push("play again".into());
    }
    if !card.play.discardable {
        parts.push("cannot be discarded".into());
    }
    if card.play.once {
        parts.push("used once, then it leaves the game".into());
    }
    if parts.is_empty() {
        return "Nothing".into();
    }
    parts
        .iter()
        .map(|p| {
            let mut chars = p.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(". ")
}

/// What `grimoire cards` needs.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct CardsArgs {
    /// Rule set: a name (the project's, else a bundled one such as arcomage) or a rule-set file.
    pub rules: String,
    /// Card files or folders (default: the rule set's own, its project's or the bundled cards/NAME and effects/NAME).
    #[arg(long)]
    pub cards: Vec<PathBuf>,
    /// Output format; JSON: [{"name","type","cost","text"}].
    #[arg(long, value_enum, default_value = "human")]
    pub format: Format,
    /// Colour diagnostics.
    #[arg(skip)]
    pub color: bool,
}

/// `grimoire cards`: a deck's cards, one row each: name, type, cost and text
/// (what its effects do, said in plain words, where it has no text).
pub fn cards(args: &CardsArgs) -> Output {
    let (rules, deck) = match super::deck::load_deck(&args.rules, &args.cards, args.color) {
        Ok(found) => found,
        Err(out) => return out,
    };
    if deck.source == files::DeckSource::NoZones {
        return Output::usage(format!(
            "rule set `{}` deals no cards: it has no `:cards` section",
            rules.name
        ));
    }
    let rows: Vec<[String; 4]> = deck
        .cards
        .iter()
        .map(|card| {
            let kind = card
                .play
                .pay_with
                .and_then(|a| rules.attributes.get(a))
                .cloned()
                .unwrap_or_default();
            let text = if card.text.trim().is_empty() {
                explain_card(&rules, card)
            } else {
                card.text.clone()
            };
            [card.name.clone(), kind, card.play.cost.to_string(), text]
        })
        .collect();
    let stdout = match args.format {
        Format::Json => to_json(
            &rows
                .iter()
                .map(|[name, kind, cost, text]| {
                    json!({
                        "name": name,
                        "type": kind,
                        "cost": cost.parse::<i64>().unwrap_or(0),
                        "text": text,
                    })
                })
                .collect::<Vec<_>>(),
        ),
        Format::Human => table(&rows),
    };
    Output {
        stdout,
        ..Output::default()
    }
}

/// Rows under a header, columns padded to their widest cell; the cost right-aligned.
fn table(rows: &[[String; 4]]) -> String {
    let header = ["name", "type", "cost", "text"].map(String::from);
    let width = |i: usize| {
        std::iter::once(&header)
            .chain(rows)
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = String::new();
    for [name, kind, cost, text] in std::iter::once(&header).chain(rows) {
        // Widths count characters, as `format!` pads.
        let _ = writeln!(out, "{name:<w0$}  {kind:<w1$}  {cost:>w2$}  {text}");
    }
    out
}

/// Where effects come from: `--file PATH` (named by its path in diagnostics),
/// `-` for standard input (`<stdin>`), else the text itself (`<effects>`).
/// A file or standard input that cannot be read is a usage error, exit 2.
pub(crate) fn effects_source(text: &str, file: Option<&Path>) -> Result<Source, Output> {
    if let Some(path) = file {
        return crate::files::read_file_text(path)
            .map(|text| Source::new(path.display().to_string(), text))
            .map_err(|e| Output::usage(format!("{}: {e}", path.display())));
    }
    if text.trim() == "-" {
        return crate::files::read_capped(std::io::stdin())
            .and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other))
            .map(|input| Source::new("<stdin>", input))
            .map_err(|e| Output::usage(format!("standard input: {e}")));
    }
    Ok(Source::new("<effects>", text.to_string()))
}

/// Reads and checks one vector of effects from `source`, with the names
/// `bound` bound as roles after the rule set's (`eval`'s setup entities).
pub(crate) fn check_effects(
    rules: &RuleSet,
    source: &Source,
    bound: &[&str],
) -> Result<Vec<Effect>, Vec<Diagnostic>> {
    let arena = Arena::new();
    let read = read(&arena, &source.text);
    if !read.errors.is_empty() {
        return Err(read.errors.iter().map(Diagnostic::from).collect());
    }
    match read.forms.as_slice() {
        [form] => {
            let scope = crate::check::Scope {
                bound,
                ..rules.scope()
            };
            let mut diags = Vec::new();
            match crate::check::effects(form, &scope, &mut diags) {
                Some(effects) if diags.is_empty() => Ok(effects),
                _ => Err(diags),
            }
        }
        [] => Err(vec![Diagnostic::new(
            Code::OneForm,
            Span::new(0, 0),
            "no effects given: expected a vector of effect maps",
        )]),
        [_, second, ..] => Err(vec![
            Diagnostic::new(
                Code::OneForm,
                second.span,
                "expected one vector of effects; this is a second form",
            )
            .with_help("put all effect maps in one vector: `[{…} {…}]`"),
        ]),
    }
}
