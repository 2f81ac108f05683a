//! Runs every example of docs/LANGUAGE.md and holds its operator table to the registry.

use grimoire::check::keys::Keys;
use grimoire::check::rules::RuleSet;
use grimoire::check::{self, ops};
use grimoire::diag::Diagnostic;
use grimoire::eval::{State, apply, eval_expr};
use grimoire::ids::EntityId;
use grimoire::syntax::{read, read_one};

const DOC: &str = "docs/LANGUAGE.md";

/// One ```grimoire block: its `key: value` lines, continuation lines joined.
fn blocks(doc: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, Vec<(String, String)>)> = None;
    for (n, line) in doc.lines().enumerate() {
        if line.trim() == "```grimoire" {
            current = Some((n + 1, Vec::new()));
        } else if line.trim() == "```" {
            if let Some(block) = current.take() {
                out.push(block);
            }
        } else if let Some((_, fields)) = &mut current {
            if line.starts_with(' ') {
                let last = fields.last_mut().expect("continuation after a key");
                last.1.push('\n');
                last.1.push_str(line);
            } else {
                let (k, v) = line.split_once(':').expect("`key: value` line");
                fields.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    out
}

fn field<'b>(fields: &'b [(String, String)], key: &str) -> Option<&'b str> {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn diag_text(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {} {}",
                d.message,
                d.label.clone().unwrap_or_default(),
                d.help.clone().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// For a rule set whose cards are in `:zones` (named by its file in
/// `rules:`), the state its game starts with from `seed`: the deck of the
/// folders beside it made, shuffled and dealt, the first turn's draw made.
fn dealt(rules: &RuleSet, fields: &[(String, String)], seed: u64) -> Option<State> {
    rules.zones.as_ref().filter(|z| !z.classic)?;
    let path = field(fields, "rules")?;
    let home = grimoire::files::Library::current().home(path, &rules.name);
    let mut rules = rules.clone();
    let deck = grimoire::files::load_deck_in(&mut rules, home.as_ref(), &[], &[]).ok()?;
    let game =
        grimoire::engine::Game::new(&rules, &deck.cards, seed, grimoire::engine::Log::Skip).ok()?;
    Some(game.state().clone())
}

fn state(rules: &RuleSet, fields: &[(String, String)]) -> State {
    let seed = field(fields, "seed").map_or(0, |s| s.parse().expect("seed"));
    let mut state =
        dealt(rules, fields, seed).unwrap_or_else(|| State::new(rules, rules.roles.len(), seed));
    for set in field(fields, "given").unwrap_or("").split_whitespace() {
        let (path, value) = set.split_once('=').expect("entity.attr=value");
        let (who, attr) = path.split_once('.').expect("entity.attr");
        state.put(
            EntityId::new(rules.role(who).expect("role").index()),
            rules.attribute(attr).expect("attribute"),
            value.parse().expect("integer"),
        );
    }
    state
}

/// `rules` with the statuses a `define:` field writes, declared and installed.
fn with_statuses(rules: &RuleSet, text: &str) -> Result<RuleSet, String> {
    let arena = grimoire::syntax::Arena::new();
    let read = read(&arena, text);
    if !read.errors.is_empty() {
        return Err(format!("define: {:?}", read.errors));
    }
    let mut out = rules.clone();
    out.declare_statuses(
        read.forms
            .iter()
            .filter_map(|f| f.get("status").and_then(|v| v.as_keyword())),
    );
    let mut defs = Vec::new();
    for form in &read.forms {
        let mut diags = Vec::new();
        match grimoire::check::defs::definition(form, &out, 0, &mut diags) {
            Some(d) if diags.is_empty() => defs.push(d),
            _ => return Err(format!("define: {}", diag_text(&diags))),
        }
    }
    out.install_statuses(
        defs.iter()
            .filter_map(|d| d.status.clone().map(|s| (d.name.as_str(), s, None))),
    );
    Ok(out)
}

fn run(rules: &RuleSet, line: usize, fields: &[(String, String)]) -> Result<(), String> {
    // `rules:` names another bundled rule set (with its bundled statuses).
    let named;
    let rules = match field(fields, "rules") {
        Some(name) => {
            named = grimoire::files::load_rules(name).map_err(|e| format!("{DOC}:{line}: {e}"))?;
            &named
        }
        None => rules,
    };
    let defined;
    let rules = match field(fields, "define") {
        Some(text) => {
            defined = with_statuses(rules, text).map_err(|e| format!("{DOC}:{line}: {e}"))?;
            &defined
        }
        None => rules,
    };
    let expect = field(fields, "expect");
    let error = field(fields, "error");
    let fail = |what: String| Err(format!("{DOC}:{line}: {what}"));
    if let Some(text) = field(fields, "read") {
        let arena = grimoire::syntax::Arena::new();
        let read = read(&arena, text);
        let errors: Vec<Diagnostic> = read.errors.iter().map(Diagnostic::from).collect();
        return match (error, expect) {
            (Some(e), _) if diag_text(&errors).contains(e) => Ok(()),
            (Some(e), _) => fail(format!(
                "expected an error containing {e:?}, got {:?}",
                diag_text(&errors)
            )),
            (None, Some(x)) => {
                let shown: Vec<String> = read.forms.iter().map(ToString::to_string).collect();
                if errors.is_empty() && shown.join(" ") == x {
                    Ok(())
                } else {
                    fail(format!(
                        "read {:?} with errors {:?}",
                        shown.join(" "),
                        diag_text(&errors)
                    ))
                }
            }
            (None, None) => fail("a read example needs expect: or error:".into()),
        };
    }
    let mut state = state(rules, fields);
    let roles: Vec<EntityId> = EntityId::below(rules.roles.len()).collect();
    let mut diags = Vec::new();
    if let Some(text) = field(fields, "value")
        && field(fields, "effects").is_none()
    {
        let arena = grimoire::syntax::Arena::new();
        let form = read_one(&arena, text).map_err(|e| format!("{DOC}:{line}: {e:?}"))?;
        // `choice:` names the option chosen, as for an action with `:choose`.
        let mut scope = rules.scope();
        if let Some(option) = field(fields, "choice") {
            let Some(k) = rules.options.iter().position(|o| o == option) else {
                return fail(format!("choice: no option `{option}`"));
            };
            state.choice = Some(grimoire::ids::OptionId::new(k));
            scope.choosable = check::Choosable::Any;
        }
        let checked = check::expr(&form, &scope, &mut diags);
        return match (checked, error, expect) {
            (_, Some(e), _) if diag_text(&diags).contains(e) => Ok(()),
            (Some(expr), None, Some(x)) if diags.is_empty() => {
                let got = eval_expr(&expr, &mut state, &roles).to_string();
                if got == x {
                    Ok(())
                } else {
                    fail(format!("{text} gave {got}, expected {x}"))
                }
            }
            _ => fail(format!("unexpected diagnostics: {}", diag_text(&diags))),
        };
    }
    let text = field(fields, "effects")
        .ok_or_else(|| format!("{DOC}:{line}: no read:, value: or effects:"))?;
    let arena = grimoire::syntax::Arena::new();
    let form = read_one(&arena, text).map_err(|e| format!("{DOC}:{line}: {e:?}"))?;
    match (rules.check_effects(&form), error) {
        (Err(diags), Some(e)) if diag_text(&diags).contains(e) => Ok(()),
        (Err(diags), _) => fail(format!("diagnostics: {}", diag_text(&diags))),
        (Ok(_), Some(e)) => fail(format!(
            "expected an error containing {e:?}, but it checked"
        )),
        (Ok(effects), None) => {
            let mut events = Vec::new();
            apply(rules, &effects, &mut state, &roles, &mut events);
            let mut removed = Vec::new();
            state.remove_fallen(rules, &roles, &mut removed, &mut events);
            // `then:` timings run after the effects, as `eval --then` runs them.
            for name in field(fields, "then").unwrap_or("").split_whitespace() {
                let Some(t) = rules.timing(name) else {
                    return fail(format!("then: no timing `{name}`"));
                };
                grimoire::engine::run_timing(rules, &mut state, t, EntityId::FIRST, &mut events);
                state.remove_fallen(rules, &roles, &mut removed, &mut events);
            }
            // `value:` after `effects:`: a query of the state they leave.
            if let Some(text) = field(fields, "value") {
                let arena = grimoire::syntax::Arena::new();
                let form = read_one(&arena, text).map_err(|e| format!("{DOC}:{line}: {e:?}"))?;
                let Some(expr) = check::expr(&form, &rules.scope(), &mut diags) else {
                    return fail(format!("diagnostics: {}", diag_text(&diags)));
                };
                let got = eval_expr(&expr, &mut state, &roles).to_string();
                return match expect {
                    Some(x) if got == x => Ok(()),
                    _ => fail(format!("{text} gave {got}, expected {expect:?}")),
                };
            }
            for want in expect.unwrap_or("").split_whitespace() {
                let (path, value) = want.split_once('=').expect("entity.attr=value");
                let (who, attr) = path.split_once('.').expect("entity.attr");
                let got = state.get(
                    EntityId::new(rules.role(who).expect("role").index()),
                    rules.attribute(attr).expect("attr"),
                );
                if got.to_string() != value {
                    return fail(format!("{path} is {got}, expected {value}"));
                }
            }
            Ok(())
        }
    }
}

#[test]
fn every_example_in_the_language_reference_holds() {
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let blocks = blocks(&doc);
    assert!(blocks.len() > 40, "found only {} examples", blocks.len());
    let failures: Vec<String> = blocks
        .iter()
        .filter_map(|(line, f)| run(&rules, *line, f).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_operator_and_effect_key_has_a_tested_example() {
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let code: Vec<String> = blocks(&doc)
        .into_iter()
        .flat_map(|(_, f)| {
            f.into_iter()
                .filter(|(k, _)| k == "value" || k == "effects")
                .map(|(_, v)| v)
        })
        .collect();
    let code = code.join("\n");
    for op in ops::OPERATORS {
        assert!(
            code.contains(&format!("[{} ", op.name)),
            "no example uses `{}`",
            op.name
        );
    }
    let each = check::EachKey::ALL
        .iter()
        .map(|k| k.name())
        .chain(check::SpawnKey::ALL.iter().map(|k| k.name()))
        .chain(check::WhenKey::ALL.iter().map(|k| k.name()))
        .chain(check::RunKey::ALL.iter().map(|k| k.name()))
        .chain(check::cards::CardKey::ALL.iter().map(|k| k.name()))
        .chain(check::cards::SelectKey::ALL.iter().map(|k| k.name()));
    for key in check::EffectKey::ALL.iter().map(|k| k.name()).chain(each) {
        assert!(
            code.contains(&format!(":{key} ")),
            "no example uses `:{key}`"
        );
    }
}

#[test]
fn operator_table_matches_the_registry() {
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let begin = doc
        .find("<!-- operators:begin")
        .expect("operators:begin marker");
    let begin = begin + doc[begin..].find('\n').expect("marker line") + 1;
    let end = doc
        .find("<!-- operators:end -->")
        .expect("operators:end marker");
    let mut table = String::from("| operator | forms | meaning |\n|---|---|---|\n");
    for op in ops::OPERATORS {
        table.push_str(&format!(
            "| `{}` | `{}` | {} |\n",
            op.name, op.forms, op.doc
        ));
    }
    if doc[begin..end] != table {
        if std::env::var_os("GRIMOIRE_BLESS").is_some() {
            let updated = format!("{}{}{}", &doc[..begin], table, &doc[end..]);
            std::fs::write(DOC, updated).expect("write docs/LANGUAGE.md");
        } else {
            panic!(
                "docs/LANGUAGE.md's operator table is out of date; rerun with GRIMOIRE_BLESS=1. Expected:\n{table}"
            );
        }
    }
}

/// The ```clojure blocks of the reference: definitions, scenarios and operation bodies.
fn clojure_blocks(doc: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in doc.lines().enumerate() {
        match (&mut current, line.trim()) {
            (None, "```clojure") => current = Some((n + 2, String::new())),
            (Some(_), "```") => out.extend(current.take()),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

#[test]
fn every_clojure_example_in_the_reference_checks_or_runs() {
    use grimoire::check::Scope;
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let rules = RuleSet::bundled("arcomage").unwrap().unwrap();
    let blocks = clojure_blocks(&doc);
    assert!(blocks.len() >= 3);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("doc-examples/arcomage");
    std::fs::create_dir_all(&dir).unwrap();
    for (line, text) in &blocks {
        let arena = grimoire::syntax::Arena::new();
        let read = read(&arena, text);
        assert!(read.errors.is_empty(), "{DOC}:{line}: {:?}", read.errors);
        let first = &read.forms[0];
        let by_path = first
            .get("rules")
            .is_some_and(|r| matches!(r.kind, grimoire::syntax::Kind::Str(_)));
        if first.has_key("scenario") && by_path {
            // A scenario of the skirmish or the draft fixture names its rule
            // set by path, as the fixture's own do: `../rules/skirmish.edn`.
            let draft = first.get("rules").is_some_and(
                |r| matches!(r.kind, grimoire::syntax::Kind::Str(s) if s.ends_with("draft.edn")),
            );
            let root = if draft {
                draft_fixture(&dir)
            } else {
                zones_fixture(&dir)
            };
            let file = root.join(format!("scenarios/scenario-{line}.edn"));
            std::fs::write(&file, text).unwrap();
            let out = grimoire::cli::test(&[file], &[], false);
            assert_eq!(out.code, 0, "{DOC}:{line}: {}{}", out.stdout, out.stderr);
        } else if first.has_key("scenario") {
            // A scenario runs with the rule set its folder names: its `:rules`, or Arcomage.
            let named = first.get("rules").and_then(|r| r.as_keyword());
            let dir = dir.with_file_name(named.unwrap_or("arcomage"));
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("scenario-{line}.edn"));
            std::fs::write(&file, text).unwrap();
            let out = grimoire::cli::test(&[file], &[], false);
            assert_eq!(out.code, 0, "{DOC}:{line}: {}{}", out.stdout, out.stderr);
        } else if first.has_key("project") {
            if let Err(diags) = grimoire::check::manifest::parse(text) {
                panic!("{DOC}:{line}: {diags:?}");
            }
        } else if first.has_key("rules") {
            if let Err(diags) = RuleSet::parse(text) {
                panic!("{DOC}:{line}: {diags:?}");
            }
        } else if first.has_key("card") || first.has_key("effect") || first.has_key("status") {
            // A first line `; rules: skills` checks it against another bundled rule set.
            let named = text
                .strip_prefix("; rules: ")
                .and_then(|t| t.lines().next());
            let dir = dir.with_file_name(named.unwrap_or("arcomage").trim());
            std::fs::create_dir_all(&dir).unwrap();
            let file = dir.join(format!("definitions-{line}.edn"));
            std::fs::write(&file, text).unwrap();
            // A rule set named by its path is checked as `--rules PATH` is.
            let by_file = named.map(str::trim).filter(|n| n.ends_with(".edn"));
            let out = grimoire::cli::check(&[file], by_file, grimoire::cli::Format::Human, false);
            assert_eq!(out.code, 0, "{DOC}:{line}: {}", out.stderr);
            assert!(
                !out.stderr.contains("warning:"),
                "{DOC}:{line}: {}",
                out.stderr
            );
        } else {
            // An operation's body: effect maps with `:target` and `:amount` bound.
            let scope = Scope {
                in_operation: true,
                ..rules.scope()
            };
            for form in &read.forms {
                let mut diags = Vec::new();
                let checked = check::effects(form, &scope, &mut diags);
                assert!(
                    checked.is_some() && diags.is_empty(),
                    "{DOC}:{line}: {diags:?}"
                );
            }
        }
    }
}

/// A copy of the skirmish fixture (`tests/data/zones/`: its rule set and
/// deck) beside `dir`, with a `scenarios/` folder for the reference's
/// scenarios of it; its root.
fn zones_fixture(dir: &std::path::Path) -> std::path::PathBuf {
    let root = dir.with_file_name("zones");
    for (from, to) in [
        ("tests/data/zones/rules/skirmish.edn", "rules/skirmish.edn"),
        (
            "tests/data/zones/cards/skirmish/cards.edn",
            "cards/skirmish/cards.edn",
        ),
        // The triggers fixture (tests/data/triggers): `../rules/brawl.edn`.
        ("tests/data/triggers/rules/brawl.edn", "rules/brawl.edn"),
        (
            "tests/data/triggers/cards/brawl/cards.edn",
            "cards/brawl/cards.edn",
        ),
        (
            "tests/data/triggers/effects/brawl/statuses.edn",
            "effects/brawl/statuses.edn",
        ),
        // The solo fixture (tests/data/solo): `../rules/solo.edn`.
        ("tests/data/solo/rules/solo.edn", "rules/solo.edn"),
        (
            "tests/data/solo/cards/solo/cards.edn",
            "cards/solo/cards.edn",
        ),
        // The reactions fixture (tests/data/reactions): `../rules/duel.edn`.
        ("tests/data/reactions/rules/duel.edn", "rules/duel.edn"),
        (
            "tests/data/reactions/cards/duel/cards.edn",
            "cards/duel/cards.edn",
        ),
    ] {
        let to = root.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, &to).unwrap();
    }
    std::fs::create_dir_all(root.join("scenarios")).unwrap();
    root
}

/// A copy of the draft fixture (`tests/data/draft/`: its rule set and
/// deck) beside `dir`, with a `scenarios/` folder; its root.
fn draft_fixture(dir: &std::path::Path) -> std::path::PathBuf {
    let root = dir.with_file_name("draft");
    for (from, to) in [
        ("tests/data/draft/rules/draft.edn", "rules/draft.edn"),
        (
            "tests/data/draft/cards/draft/gems.edn",
            "cards/draft/gems.edn",
        ),
    ] {
        let to = root.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, &to).unwrap();
    }
    std::fs::create_dir_all(root.join("scenarios")).unwrap();
    root
}

/// The first-column keywords of the table between `<!-- NAME:begin` and `<!-- NAME:end -->`.
fn table_keys(doc: &str, name: &str) -> Vec<String> {
    let begin = doc
        .find(&format!("<!-- {name}:begin"))
        .unwrap_or_else(|| panic!("{name}:begin marker"));
    let end = doc
        .find(&format!("<!-- {name}:end -->"))
        .unwrap_or_else(|| panic!("{name}:end marker"));
    doc[begin..end]
        .lines()
        .filter_map(|l| l.strip_prefix("| `:"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect()
}

#[test]
fn rule_set_sections_and_moments_are_documented_in_order() {
    use grimoire::check::rules::{Moment, Section};
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let sections: Vec<String> = Section::ALL.iter().map(|s| s.name().to_string()).collect();
    assert_eq!(table_keys(&doc, "sections"), sections);
    let moments: Vec<String> = Moment::ALL.iter().map(|m| m.name().to_string()).collect();
    assert_eq!(table_keys(&doc, "moments"), moments);
}

#[test]
fn every_key_of_every_map_is_documented() {
    use grimoire::check::defs::DefKey;
    use grimoire::scenario::{ExpectKey, ScenarioKey};
    let doc = std::fs::read_to_string(DOC).expect("read docs/LANGUAGE.md");
    let mut names: Vec<&str> = Vec::new();
    names.extend(DefKey::ALL.iter().map(|k| k.name()));
    names.extend(ScenarioKey::ALL.iter().map(|k| k.name()));
    names.extend(ExpectKey::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::rules::nested_keys());
    names.extend(
        grimoire::check::status_defs::StatusKey::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(
        grimoire::check::status_defs::ModKey::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(grimoire::check::ast::Polarity::ALL.iter().map(|k| k.name()));
    names.extend(
        grimoire::check::status_defs::BlockKey::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(grimoire::check::PickName::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::EachKey::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::SpawnKey::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::WhenKey::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::RunKey::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::QueueKey::ALL.iter().map(|k| k.name()));
    names.extend(
        grimoire::check::cards::CardKey::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(
        grimoire::check::cards::SelectKey::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(
        grimoire::check::cards::CardPickName::ALL
            .iter()
            .map(|k| k.name()),
    );
    names.extend(grimoire::check::cards::AtName::ALL.iter().map(|k| k.name()));
    names.extend(grimoire::check::cards::PassTo::ALL.iter().map(|k| k.name()));
    names.extend(
        grimoire::check::status_defs::StackingName::ALL
            .iter()
            .map(|k| k.name()),
    );
    for name in names {
        // Written as a key, in a table or an example: `:name` followed by a value or a backtick.
        let shown = [' ', '`']
            .iter()
            .any(|c| doc.contains(&format!(":{name}{c}")));
        assert!(shown, "`:{name}` is not in {DOC}");
    }
}
