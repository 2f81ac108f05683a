//! Diagnostics that say what is true: each role listed once and only those
//! bound where the error is, `:target` bound by actions too, and every key
//! an effect map may hold named when one is unknown.

use grimoire::check::rules::RuleSet;
use grimoire::diag::{Code, Diagnostic};
use grimoire::syntax::{Arena, read_one};

use crate::common::messages;

/// The diagnostics of checking the rule-set text `text`.
fn rule_set_errors(text: &str) -> Vec<Diagnostic> {
    match RuleSet::parse(text) {
        Ok(_) => panic!("expected errors"),
        Err(diags) => diags,
    }
}

/// The diagnostics of checking `effects` against the bundled Arcomage.
fn effect_errors(effects: &str) -> Vec<Diagnostic> {
    let rules = RuleSet::bundled("arcomage")
        .and_then(Result::ok)
        .expect("arcomage checks");
    let arena = Arena::new();
    let form = read_one(&arena, effects).expect("reads");
    match rules.check_effects(&form) {
        Ok(_) => panic!("expected errors"),
        Err(diags) => diags,
    }
}

/// A rule set with rocks that give each player a point as they leave play:
/// `ON_REMOVED` is its `:on-removed`.
fn rocks(on_removed: &str) -> String {
    format!(
        r#"{{:rules :rocks
 :roles {{:you "the player acting" :other "the other player"}}
 :kinds {{:player "a seat's player"
         :rock {{:doc "a falling rock" :removed-when [<= [:self :hp] 0]
                :on-removed {on_removed}}}}}
 :attributes {{:hp {{:default 3}} :points {{:default 0}}}}
 :seats [:p1 :p2]}}"#
    )
}

#[test]
fn a_role_not_bound_where_an_entity_leaves_play_lists_the_roles_there_once() {
    for on_removed in [
        "[{:effected :you :resource :points :amount 1}]",
        // A loop binds `:self` again: still one role to name.
        "[{:each :player :effects [{:effected :you :resource :points :amount 1}]}]",
    ] {
        let diags = rule_set_errors(&rocks(on_removed));
        let unknown: Vec<&Diagnostic> = diags
            .iter()
            .filter(|d| d.code == Code::UnknownRole)
            .collect();
        assert_eq!(unknown.len(), 1, "{}", messages(&diags));
        let d = unknown[0];
        assert_eq!(d.message, "unknown role `:you`");
        assert_eq!(
            d.help.as_deref(),
            Some("the only role here is `:self`"),
            "{on_removed}"
        );
        assert_eq!(d.label.as_deref(), Some("not bound here"));
    }
    // Where the seat roles are bound, every role is listed once.
    let diags = effect_errors("[{:effected :nobody :resource :wall :amount 1}]");
    assert_eq!(
        messages(&diags),
        "unknown role `:nobody` | the roles are `:you` and `:other`"
    );
}

#[test]
fn target_unbound_says_operations_and_actions_bind_it() {
    let diags = effect_errors("[{:effected :target :resource :wall :amount 1}]");
    assert_eq!(
        messages(&diags),
        "`:target` is bound only in an operation's `:effects` and in an action with a `:target` | here, name a role: `:you` or `:other`"
    );
}

#[test]
fn an_unknown_effect_key_names_every_shape_of_effect() {
    let diags = effect_errors("[{:effected :you :resource :wall :amount 1 :zzz 2}]");
    assert_eq!(diags.len(), 1, "{}", messages(&diags));
    let help = diags[0].help.as_deref().unwrap_or("");
    for key in [
        ":effected",
        ":resource",
        ":amount",
        ":acquire",
        ":each",
        ":when",
        ":spawn",
        ":run",
        ":queue",
        ":at-once",
    ] {
        assert!(help.contains(&format!("`{key}`")), "{key} not in: {help}");
    }
    // A misspelt key of another shape is suggested.
    let diags = effect_errors("[{:effected :you :resource :wall :amount 1 :wehn true}]");
    assert_eq!(
        diags[0].help.as_deref(),
        Some("did you mean `:when`?"),
        "{}",
        messages(&diags)
    );
}

#[test]
fn one_at_once_group_alone_is_a_list_of_effects() {
    let rules = RuleSet::bundled("arcomage")
        .and_then(Result::ok)
        .expect("arcomage checks");
    let arena = Arena::new();
    let form = read_one(
        &arena,
        "{:at-once [{:effected :you :resource :wall :amount 1} {:effected :you :resource :tower :amount 1}]}",
    )
    .expect("reads");
    let effects = rules
        .check_effects(&form)
        .unwrap_or_else(|d| panic!("{}", messages(&d)));
    assert_eq!(effects.len(), 2);
    assert_eq!(effects[0].at_once, 2);
}

#[test]
fn target_unbound_in_a_status_hook_suggests_the_holder_too() {
    let rules = RuleSet::bundled("duel")
        .and_then(Result::ok)
        .expect("duel checks");
    let text = "{:status :sting :polarity :debuff
                 :hooks {:turn-start [{:effected :target :resource :roll-bonus :amount -1}]}}";
    let checked = grimoire::files::check_sources(
        vec![grimoire::diag::Source::new("cards/duel/s.edn", text)],
        Some(&rules),
    );
    let said: Vec<String> = checked
        .diagnostics
        .iter()
        .filter(|(_, d)| d.code == Code::UnboundTarget)
        .map(|(_, d)| d.help.clone().unwrap_or_default())
        .collect();
    assert_eq!(
        said,
        ["here, name a role: `:you`, `:other`, `:holder` or `:source`"]
    );
}
