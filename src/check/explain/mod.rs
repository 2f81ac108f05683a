//! Effects in plain words: checked effects rendered as the English a card's
//! text is written in, "+6 Wall if your wall is 0, otherwise +3 Wall".
//!
//! The common shapes get the card text's own phrases: a number and a
//! resource ("+3 Wall", "-1 enemy Quarry", "enemy loses 3 Beasts"), an
//! operation by its name ("5 Damage to the enemy"), one change made to both
//! players ("all players lose 8 Bricks"). Conditions, arithmetic, dice and
//! status changes are said in English; an amount too long to say in one
//! breath is shown in the language's own syntax, so every effect explains.
//! `grimoire explain` and `grimoire cards` print it, and the lint quotes it.

mod abilities;
mod amounts;
mod cards;
mod cases;
mod conditions;
mod effects;
mod printer;
mod words;

use crate::check::ast::{Effect, Int};
use crate::check::rules::RuleSet;
use crate::ids::{AttrId, Id, KindId, OpId, StatusId, TimingId};
use words::{Bound, capitalize, join};

/// How deep conditions are split into cases before the rest is said as it is
/// (each level doubles the cases).
const MAX_SPLIT: usize = 6;

/// What `effects` do, in one line of card-text English ("Nothing" for none).
///
/// The roles are the rule set's own; use [`explain_with`] where the engine
/// binds more (`:self` in a hook, `:holder` in a status).
pub fn explain(rules: &RuleSet, effects: &[Effect]) -> String {
    explain_with(rules, effects, &[])
}

/// [`explain`] for effects checked with more roles bound than the rule set
/// declares: role `rules.roles.len() + i` is called `bound[i]` (`"self"`,
/// `"holder"`, `"target"`).
pub fn explain_with(rules: &RuleSet, effects: &[Effect], bound: &[&str]) -> String {
    let mut en = En::new(rules, bound);
    let items = en.list(effects);
    capitalize(&join(&items, ", ", "Nothing"))
}

/// What one effect does, as [`explain`] says it (without merging it with others).
pub fn explain_effect(rules: &RuleSet, effect: &Effect) -> String {
    let mut en = En::new(rules, &[]);
    let item = en.effect(effect);
    capitalize(&item.text())
}

pub use abilities::{activated, aimed, aura, keyword, reaction, trigger};

/// An integer expression in English ("half of the enemy's gems (rounded up)").
pub fn expression(rules: &RuleSet, e: &Int) -> String {
    En::new(rules, &[]).amount(e)
}

/// An integer expression in the language's own syntax (`[ceil [/ [:other :gems] 2]]`),
/// with every name the rule set gives it.
pub fn syntax(rules: &RuleSet, e: &Int) -> String {
    let en = En::new(rules, &[]);
    let mut out = String::new();
    en.int_syntax(e, &mut out);
    out
}

/// The cases an effect can be, with every condition that picks its entity,
/// resource or amount decided both ways: `[= [:you :wall] 0 6 3]` is one
/// effect adding 6 and one adding 3. Conditions inside arithmetic stay.
pub fn cases(effect: &Effect) -> Vec<Effect> {
    let mut out = Vec::new();
    cases::cases_into(effect, 0, &mut out);
    out
}

/// The explainer: the rule set whose names it says, and what is bound while
/// effects are said.
struct En<'r> {
    rules: &'r RuleSet,
    /// Roles bound beyond the declared ones: role `roles.len() + i` is `bound[i]`.
    bound: Vec<Bound>,
    /// The arguments of the formula being said, already in English.
    args: Vec<String>,
    /// How many conditions the effect being said was split on: past
    /// [`MAX_SPLIT`] the rest is said as it is, so the cases stay few.
    depth: usize,
}

/// The `i`-th of a rule set's names, or `missing` past the end.
fn name_at<'n, I: Id>(names: &'n [String], i: I, missing: &'n str) -> &'n str {
    names.get(i.index()).map_or(missing, String::as_str)
}

impl<'r> En<'r> {
    fn new(rules: &'r RuleSet, bound: &[&str]) -> En<'r> {
        En {
            rules,
            bound: bound.iter().map(|b| Bound::Name((*b).into())).collect(),
            args: Vec::new(),
            depth: 0,
        }
    }

    fn kind(&self, k: KindId) -> &str {
        self.rules.kinds.get(k).map_or("entity", String::as_str)
    }

    /// A kind's name in the plural: "minions", "heroes".
    fn kinds(&self, k: KindId) -> String {
        plural(self.kind(k))
    }

    fn attr(&self, a: AttrId) -> &str {
        self.rules.attributes.get(a).map_or("?", String::as_str)
    }

    fn op(&self, o: OpId) -> &str {
        name_at(&self.rules.operations, o, "?")
    }

    fn status(&self, s: StatusId) -> &str {
        self.rules.statuses.get(s).map_or("?", String::as_str)
    }

    fn timing(&self, t: TimingId) -> &str {
        self.rules.timings.get(t).map_or("?", |t| t.name.as_str())
    }
}

/// An English noun's plural by the regular rules, for a kind's name: "unit"
/// → "units", "hero" → "heroes", "box" → "boxes", "harpy" → "harpies".
fn plural(word: &str) -> String {
    let vowel = |c: char| "aeiou".contains(c);
    let mut rev = word.chars().rev();
    let (last, before) = (rev.next(), rev.next());
    match (last, before) {
        (Some('s' | 'x' | 'z'), _) | (Some('h'), Some('c' | 's')) => format!("{word}es"),
        (Some('o'), Some(b)) if !vowel(b) => format!("{word}es"),
        (Some('y'), Some(b)) if !vowel(b) => format!("{}ies", &word[..word.len() - 1]),
        _ => format!("{word}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_said_in_the_plural_by_the_regular_rules() {
        for (one, many) in [
            ("unit", "units"),
            ("hero", "heroes"),
            ("rodeo", "rodeos"),
            ("box", "boxes"),
            ("witch", "witches"),
            ("harpy", "harpies"),
            ("monkey", "monkeys"),
            ("boss", "bosses"),
            ("o", "os"),
        ] {
            assert_eq!(plural(one), many);
        }
    }

    fn bundled(name: &str) -> RuleSet {
        RuleSet::bundled(name)
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("{name} checks"))
    }

    /// The explanation of `effects`, checked against the bundled rule set `rules`.
    fn say_in(rules: &str, effects: &str) -> String {
        let rules = bundled(rules);
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(&arena, effects).unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        explain(&rules, &effects)
    }

    fn say(effects: &str) -> String {
        say_in("arcomage", effects)
    }

    #[test]
    fn signs_are_said_as_card_texts_say_them() {
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 3}]"),
            "+3 Wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount -5}]"),
            "-5 Wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :tower :amount 1}]"),
            "+1 enemy Tower"
        );
        // What players spend is lost; what they build or produce goes down.
        assert_eq!(
            say("[{:effected :other :resource :beasts :amount -3}]"),
            "Enemy loses 3 Beasts"
        );
        assert_eq!(
            say("[{:effected :other :resource :quarry :amount -1}]"),
            "-1 enemy Quarry"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [- [:other :quarry]]}]"),
            "Subtract the enemy's quarry from your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 1d6}]"),
            "+1d6 Wall"
        );
    }

    #[test]
    fn self_inside_count_and_sum_is_printed_as_written() {
        // Too long for words: said in the language, with `:self` as written.
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [random [count :player [> [:self :wall] [:you :wall]]] [sum :player [:self :wall] [> [:self :tower] 3]]]}]"
            ),
            "Add `[random [count :player [> [:self :wall] [:you :wall]]] [sum :player [:self :wall] [> [:self :tower] 3]]]` to your wall"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [* 2 [random 1 [sum :player [* 2 [:self :wall]]]]]}]"
            ),
            "Add `[* 2 [random 1 [sum :player [* 2 [:self :wall]]]]]` to your wall"
        );
    }

    #[test]
    fn targets_name_whom_an_effect_changes() {
        assert_eq!(
            say("[{:effected :other :resource :damage :amount 5}]"),
            "5 Damage to the enemy"
        );
        assert_eq!(
            say("[{:effected :you :resource :damage :amount 3}]"),
            "3 Damage to you"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount 0 :set true}]"),
            "Your wall becomes 0"
        );
        assert_eq!(
            say("[{:effected :other :resource :wall :amount [:you :wall] :set true}]"),
            "The enemy's wall becomes your wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount [* 2 [:you :zoo]]}]"),
            "Damage of 2 × your zoo to the enemy"
        );
    }

    #[test]
    fn the_same_change_to_both_players_is_said_once() {
        assert_eq!(
            say(
                "[{:effected :you :resource :bricks :amount -8} {:effected :other :resource :bricks :amount -8}]"
            ),
            "All players lose 8 Bricks"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :quarry :amount 1} {:effected :other :resource :quarry :amount 1}]"
            ),
            "+1 Quarry for all players"
        );
        // Losses of one subject are gathered; other changes between them do not
        // stop the pairing when they touch other numbers.
        assert_eq!(
            say("[{:effected :you :resource :gems :amount -5} {:effected :you :resource :beasts :amount -5}
                  {:effected :other :resource :gems :amount -5} {:effected :other :resource :beasts :amount -5}]"),
            "All players lose 5 Gems and 5 Beasts"
        );
        // Different amounts are two changes.
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount 1} {:effected :other :resource :wall :amount 2}]"
            ),
            "+1 Wall, +2 enemy Wall"
        );
    }

    #[test]
    fn conditions_pick_between_two_cases() {
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]"),
            "+6 Wall if your wall is 0, otherwise +3 Wall"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :quarry :amount [< [:you :quarry] [:other :quarry] 2 1]}]"
            ),
            "+2 Quarry if your quarry is less than the enemy's, otherwise +1 Quarry"
        );
        // No change in one case: said once, with its condition.
        assert_eq!(
            say("[{:effected :you :resource :zoo :amount [< [:you :zoo] [:other :zoo] 1 0]}]"),
            "+1 Zoo if your zoo is less than the enemy's"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount [if [chance 0.5] 4 0]}]"),
            "4 Damage to the enemy with a 50% chance"
        );
        // Resource and amount picked by one test are decided together.
        assert_eq!(
            say(
                "[{:effected :other :resource [> [:you :wall] [:other :wall] :tower :damage]
                   :amount [> [:you :wall] [:other :wall] -6 6]}]"
            ),
            "-6 enemy Tower if your wall is greater than the enemy's, otherwise 6 Damage to the enemy"
        );
        assert_eq!(
            say(
                "[{:effected [> [:you :tower] [:other :tower] :other :you] :resource :gems :amount 3}]"
            ),
            "+3 enemy Gems if your tower is greater than the enemy's, otherwise +3 Gems"
        );
        // Taking the higher of two values is no choice between cases.
        assert_eq!(
            say("[{:effected :you :resource :quarry :set true
                   :amount [< [:you :quarry] [:other :quarry] [:other :quarry] [:you :quarry]]}]"),
            "Your quarry becomes the higher of your quarry and the enemy's"
        );
        assert_eq!(
            say("[{:when [< [:you :wall] 5] :effects [{:effected :you :resource :wall :amount 3}
                                                     {:effected :you :resource :bricks :amount -1}]}]"),
            "If your wall is less than 5: +3 Wall and -1 Bricks"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [and [not [= [:you :wall] 0]] [or [> [:you :tower] 3] [has :you :any]] 2 0]}]"
            ),
            "+2 Wall if your wall is not 0 and (your tower is greater than 3 or you hold a status)"
        );
    }

    #[test]
    fn groups_swaps_and_loops() {
        assert_eq!(
            say(
                "[{:at-once [{:effected :you :resource :wall :set true :amount [:other :wall]}
                             {:effected :other :resource :wall :set true :amount [:you :wall]}]}]"
            ),
            "Swap your wall with the enemy's"
        );
        assert_eq!(
            say(
                "[{:at-once [{:effected :other :resource :wall :set true :amount 0}
                             {:effected :other :resource :damage :amount 5}]}]"
            ),
            "At once: the enemy's wall becomes 0 and 5 Damage to the enemy"
        );
        assert_eq!(
            say("[{:each :player :effects [{:effected :self :resource :wall :amount 2}]}]"),
            "For each player: +2 Wall for that player"
        );
        assert_eq!(
            say(
                "[{:each :player :where [> [:self :wall] 3] :effects [{:effected :self :resource :wall :amount -1}]}]"
            ),
            "For each player with wall greater than 3: -1 Wall for that player"
        );
        assert_eq!(
            say("[{:spawn :player :values {:wall 3}}]"),
            "A new player enters play with wall 3"
        );
    }

    #[test]
    fn arithmetic_dice_and_the_rest_of_the_operators() {
        assert_eq!(
            say("[{:effected :other :resource :gems :amount [- [ceil [/ [:other :gems] 2]]]}]"),
            "Subtract half of the enemy's gems (rounded up) from the enemy's gems"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [+ [max 0 [- [:other :wall] 3]] 2]}]"),
            "Add (the higher of 0 and (the enemy's wall - 3)) + 2 to your wall"
        );
        assert_eq!(
            say(
                "[{:effected :you :resource :wall :amount [abs [- [:you :tower] [:other :tower]]]}]"
            ),
            "Add the difference between your tower and the enemy's to your wall"
        );
        assert_eq!(
            say("[{:effected :other :resource :damage :amount 1d6}]"),
            "1d6 Damage to the enemy"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [advantage [+ 1d20 [:you :quarry]]]}]"),
            "Add 1d20 + your quarry with advantage to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [random 1 6]}]"),
            "Add a random number from 1 to 6 to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [count :player [> [:self :wall] 3]]}]"),
            "Add the number of players in play with wall greater than 3 to your wall"
        );
        assert_eq!(
            say("[{:effected :you :resource :wall :amount [sum :player [:self :tower]]}]"),
            "Add the total tower of the players in play to your wall"
        );
        assert_eq!(
            say_in(
                "duel",
                "[{:effected :you :resource :stamina :set true :amount [formula :stamina [lookup :index [:you :endurance]]]}]"
            ),
            "Your stamina becomes the stamina formula of the index table's value for your endurance"
        );
    }

    #[test]
    fn an_amount_too_long_for_words_is_shown_in_the_language() {
        let said = say(
            "[{:effected :you :resource :wall :amount [+ [max [:you :wall] [:other :wall] [:you :tower]]
                                                         [min [:you :quarry] [:other :quarry] [:you :magic]]
                                                         [* 2 [:you :zoo] [:other :zoo]]]}]",
        );
        assert_eq!(
            said,
            "Add `[+ [max [:you :wall] [:other :wall] [:you :tower]] [min [:you :quarry] [:other :quarry] [:you :magic]] [* 2 [:you :zoo] [:other :zoo]]]` to your wall"
        );
        // The syntax reads back to the same expression.
        let rules = bundled("arcomage");
        let text = format!(
            "[{{:effected :you :resource :wall :amount {}}}]",
            said.trim_start_matches("Add `")
                .trim_end_matches("` to your wall")
        );
        let arena = crate::syntax::Arena::new();
        let effects = rules
            .check_effects(
                &crate::syntax::read_one(&arena, &text).unwrap_or_else(|e| panic!("{e:?}")),
            )
            .unwrap_or_else(|d| panic!("{d:?}"));
        let again = explain(&rules, &effects);
        assert_eq!(again, said);
    }

    #[test]
    fn timings_queues_and_choices_are_named() {
        let tbwg = bundled("tbwg");
        let hit = tbwg.operations.iter().position(|o| o == "bludgeoning-hit");
        let said = explain(
            &tbwg,
            &tbwg.operation_defs[OpId::new(hit.unwrap_or(usize::MAX))].effects,
        );
        assert!(
            said.contains("1d6 + the target's dex + the chosen option's dodge"),
            "{said}"
        );
        assert_eq!(
            say_in("tbwg", "[{:queue :turns :effected :you :count 3}]"),
            "3 extra classic turns for you at the front of the queue"
        );
        assert_eq!(
            say_in(
                "tbwg",
                "[{:queue :timed :after 2 :run :bomb :effected :other}]"
            ),
            "After 2 reorders of the queue, run bomb for the enemy"
        );
        assert_eq!(
            say_in("skills", "[{:run :etiOnHealCalculation :effected :other}]"),
            "Run etiOnHealCalculation for the enemy"
        );
        assert_eq!(
            say_in("skills", "[{:run :etiOnSkillStart}]"),
            "Run etiOnSkillStart for each player"
        );
    }

    #[test]
    fn cases_decide_every_condition_both_ways() {
        let rules = bundled("arcomage");
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(
            &arena,
            "[{:effected :you :resource [> [:other :wall] 10 :wall :tower] :amount [= [:you :wall] 0 6 3]}]",
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let all = cases(&effects[0]);
        let said: Vec<String> = all.iter().map(|c| explain_effect(&rules, c)).collect();
        assert_eq!(said, ["+6 Wall", "+3 Wall", "+6 Tower", "+3 Tower"]);
    }
}
