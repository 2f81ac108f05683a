//! Card text against card data: warnings where what a card says and what it does disagree.
//!
//! The text is read for simple claims: a number before a resource name, with
//! its sign and whom it is for ("+6 Wall", "-1 enemy Quarry", "10 Damage",
//! "enemy loses 3 Beasts", "You take 3 Damage", "3 Damage to your tower",
//! "All players lose 8 Bricks"), and "play again". A claim no effect can make
//! true, by amount, sign and target, is reported with what the effects do
//! instead, in the words of [`crate::check::explain`]: a spreadsheet whose
//! description says "+5 Wall" while its effect takes 5 is caught rather than
//! shipped.
//!
//! Without a target word, a change to an attribute is read as the card
//! player's own (`:you`) and an operation as aimed at the opponent (`:other`):
//! "+3 Wall" builds your wall, "5 Damage" hits the enemy. Changes inside
//! `{:when …}` and `{:each …}` bodies count: in a loop over the seats, a
//! change to `:self` is made to every seat ("For each player: +2 Wall" is
//! "+2 Wall", yours and the enemy's).

use crate::check::ast::{Effect, Entity, Int, Leaf, Resource};
use crate::check::rules::RuleSet;
use crate::diag::Code;
use crate::ids::{KindId, OpId, RoleId};

/// Which way a claim says a number goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    Up,
    Down,
}

/// Whom a claim names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Whom {
    /// "your", "you take".
    You,
    /// "enemy", "opponent".
    Other,
    /// "all players", "both", "all walls".
    All,
}

/// A number and the resource word after it, as found in a card's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Claim {
    /// The words as written ("+5 Wall", "10 Damage to enemy").
    text: String,
    /// The number, without its sign.
    amount: i64,
    /// The resource word, lower-case.
    word: String,
    /// A `+` or `-` written before the number.
    written_sign: Option<Sign>,
    /// The way a verb says it goes: "loses", "gains".
    verb_sign: Option<Sign>,
    /// Whom it names, if anyone.
    whom: Option<Whom>,
    /// Where an operation's amount lands: the words after "to" ("10 damage to
    /// enemy tower"), or the subject of its verb ("All walls take 5 damage").
    place: Vec<String>,
    /// Its whom and sign came from a verb ("enemy loses"): claims after it in
    /// the same sentence with none of their own share them ("5 Gems and 5 Beasts").
    shares: bool,
}

/// A word without case, possessive or punctuation: "Enemy's" → "enemy".
fn bare(word: &str) -> String {
    let w = word
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
        .to_lowercase();
    let w = w.strip_suffix("'s").unwrap_or(&w);
    w.trim_end_matches('\'').to_string()
}

fn whom(word: &str) -> Option<Whom> {
    match bare(word).as_str() {
        "you" | "your" | "yours" | "yourself" => Some(Whom::You),
        "enemy" | "enemies" | "opponent" | "opponents" => Some(Whom::Other),
        "all" | "both" | "every" | "each" => Some(Whom::All),
        _ => None,
    }
}

/// A verb before a number and the way it says the number goes ("take" says
/// nothing of the sign: "You take 3 Damage").
fn verb(word: &str) -> Option<Option<Sign>> {
    let w = bare(word);
    if w.starts_with("los") {
        Some(Some(Sign::Down))
    } else if w.starts_with("gain") || w == "get" || w == "gets" {
        Some(Some(Sign::Up))
    } else if matches!(w.as_str(), "take" | "takes" | "suffer" | "suffers") {
        Some(None)
    } else {
        None
    }
}

/// `+5` → (Some(Up), 5); `5` → (None, 5); anything else is not a number.
fn number(word: &str) -> Option<(Option<Sign>, i64)> {
    let (sign, digits) = match word.as_bytes().first()? {
        b'+' => (Some(Sign::Up), &word[1..]),
        b'-' => (Some(Sign::Down), &word[1..]),
        _ => (None, word),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(|n| (sign, n))
}

/// The text's sentences: split at `.` and `;` that end one (not inside "1.5").
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let ends =
            b == b';' || (b == b'.' && bytes.get(i + 1).is_none_or(|n| n.is_ascii_whitespace()));
        if ends {
            out.push(&text[start..i]);
            start = i + 1;
        }
    }
    out.push(&text[start..]);
    out
}

fn claims(text: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    for sentence in sentences(text) {
        let mut previous: Option<Claim> = None;
        for clause in sentence.split(',') {
            let words: Vec<&str> = clause
                .split(|c: char| c.is_whitespace() || matches!(c, ':' | '(' | ')' | '!'))
                .filter(|w| !w.is_empty())
                .collect();
            // Where the words about the next claim start: after the last one.
            let mut from = 0;
            let mut i = 0;
            while i < words.len() {
                let Some((written_sign, amount)) = number(words[i]) else {
                    i += 1;
                    continue;
                };
                // "+1 enemy Tower": whom between the number and the word.
                let (between, at) = match words.get(i + 1).and_then(|w| whom(w)) {
                    Some(w) if i + 2 < words.len() => (Some(w), i + 2),
                    _ => (None, i + 1),
                };
                let Some(word) = words.get(at) else {
                    break;
                };
                // "5 ×": no word after the number.
                if bare(word).is_empty() {
                    i += 1;
                    continue;
                }
                let mut end = at + 1;
                let mut place = Vec::new();
                if words
                    .get(end)
                    .is_some_and(|w| matches!(bare(w).as_str(), "to" | "for"))
                {
                    place = words[end + 1..].iter().take(2).map(|w| bare(w)).collect();
                    end = (end + 1 + place.len()).min(words.len());
                }
                // "enemy loses 3 Beasts", "All walls take 5 damage": the verb
                // right before the number, and its subject before that.
                let mut start = i;
                let mut verb_sign = None;
                let mut subject: Vec<String> = Vec::new();
                if i > from
                    && let Some(sign) = verb(words[i - 1])
                {
                    verb_sign = sign;
                    start = from.max(i.saturating_sub(4));
                    subject = words[start..i - 1].iter().map(|w| bare(w)).collect();
                }
                let said_verb = start < i;
                let mut claim = Claim {
                    text: words[start..end].join(" "),
                    amount,
                    word: bare(word),
                    written_sign,
                    verb_sign,
                    // The last word naming someone: "your opponent" is the opponent.
                    whom: between
                        .or_else(|| place.iter().rev().find_map(|w| whom(w)))
                        .or_else(|| subject.iter().rev().find_map(|w| whom(w))),
                    place: if place.is_empty() { subject } else { place },
                    shares: said_verb,
                };
                if !said_verb
                    && written_sign.is_none()
                    && claim.whom.is_none()
                    && let Some(p) = previous.as_ref().filter(|p| p.shares)
                {
                    claim.whom = p.whom;
                    claim.verb_sign = p.verb_sign;
                    claim.shares = true;
                }
                previous = Some(claim.clone());
                out.push(claim);
                from = end;
                i = end;
            }
        }
    }
    out
}

/// The attribute or operation a word names: its name, or its name with or without a final `s`.
fn resource(rules: &RuleSet, word: &str) -> Option<Resource> {
    let matches = |name: &str| {
        word == name || word.strip_suffix('s') == Some(name) || name.strip_suffix('s') == Some(word)
    };
    if let Some(a) = rules.attributes.iter().position(|a| matches(a)) {
        return Some(Resource::Attr(crate::ids::AttrId::new(a)));
    }
    rules
        .operations
        .iter()
        .position(|o| matches(o))
        .map(|o| Resource::Op(OpId::new(o)))
}

/// A number an effect's amount can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    /// Exactly this, sign and all.
    Exact(i64),
    /// A literal somewhere in a computed amount: its size, any sign.
    Loose(i64),
}

/// What an amount can be: a literal exactly, a negated one negated; else
/// every whole number written in it, conditions included, of any sign.
fn values(amount: &Int, set: bool, out: &mut Vec<Value>) {
    match amount {
        Int::Lit(n) if !set => out.push(Value::Exact(*n)),
        Int::Neg(x) if !set => {
            let mut inner = Vec::new();
            values(x, set, &mut inner);
            out.extend(inner.into_iter().map(|v| match v {
                Value::Exact(n) => Value::Exact(n.saturating_neg()),
                loose => loose,
            }));
        }
        _ => amount.leaves(&mut |leaf| match leaf {
            Leaf::Int(n) => out.push(Value::Loose(n.saturating_abs())),
            Leaf::Dec(d) if d.fract() == 0.0 => out.push(Value::Loose((d as i64).saturating_abs())),
            _ => {}
        }),
    }
}

/// Whom a change is made to, as claims name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Aim {
    /// A role of the rule set.
    Role(RoleId),
    /// `:self` of an `{:each …}` over the seats: every seat, whichever a claim names.
    EverySeat,
    /// Someone no claim names: a target chosen by a condition, an entity of another kind.
    Unnamed,
}

/// One case of an effect: who, what, and the numbers its amount can be.
struct Change {
    aim: Aim,
    resource: Resource,
    values: Vec<Value>,
}

/// Every case of every effect, `{:when …}` and `{:each …}` groups opened:
/// `{:when …}` keeps the roles; in `{:each :kind …}`, `:self` is each seat
/// where the kind is the seats' (the first), and someone unnamed otherwise.
/// `loops` holds, for each `:self` bound around `effects`, its role and
/// whether it ranges over the seats.
fn changes(effects: &[Effect], loops: &mut Vec<(RoleId, bool)>, out: &mut Vec<Change>) {
    for e in effects {
        if let Resource::Each(each) = &e.resource {
            match &each.source {
                None => changes(&each.effects, loops, out),
                Some(source) => {
                    loops.push((each.outer, source.kind() == Some(KindId::FIRST)));
                    changes(&each.effects, loops, out);
                    loops.pop();
                }
            }
            continue;
        }
        for case in crate::check::explain::cases(e) {
            let mut vs = Vec::new();
            values(&case.amount, case.set, &mut vs);
            let aim = match case.entity {
                // The innermost loop binding the role wins, as in the checker.
                Entity::Role(r) => match loops.iter().rev().find(|(bound, _)| *bound == r) {
                    Some((_, true)) => Aim::EverySeat,
                    Some((_, false)) => Aim::Unnamed,
                    None => Aim::Role(r),
                },
                _ => Aim::Unnamed,
            };
            out.push(Change {
                aim,
                resource: case.resource,
                values: vs,
            });
        }
    }
}

fn fits(values: &[Value], amount: i64, sign: Option<Sign>) -> bool {
    values.iter().any(|v| match *v {
        Value::Exact(n) => {
            n.saturating_abs() == amount
                && match sign {
                    Some(Sign::Up) => n > 0,
                    Some(Sign::Down) => n < 0,
                    None => true,
                }
        }
        Value::Loose(n) => n == amount,
    })
}

/// Whether an effect can change `resource` (or, for `Some`, the attribute
/// `landing`), in `{:when …}` and `{:each …}` bodies too.
fn touches(e: &Effect, resource: &Resource, landing: Option<&Resource>) -> bool {
    match &e.resource {
        Resource::Each(each) => each
            .effects
            .iter()
            .any(|inner| touches(inner, resource, landing)),
        _ => crate::check::explain::cases(e)
            .iter()
            .any(|c| c.resource == *resource || Some(&c.resource) == landing),
    }
}

/// Where a card's text and its data disagree, one message each, with its code.
pub fn text_vs_card(
    rules: &RuleSet,
    text: &str,
    effects: &[Effect],
    play_again: bool,
    bound: &[&str],
) -> Vec<(Code, String)> {
    let mut out = Vec::new();
    let mut made = Vec::new();
    changes(effects, &mut Vec::new(), &mut made);
    let role = |name: &str| rules.roles.iter().position(|r| r == name).map(RoleId::new);
    let (you, other) = (role("you"), role("other"));
    for claim in claims(text) {
        let Some(named) = resource(rules, &claim.word) else {
            continue;
        };
        let is_op = matches!(named, Resource::Op(_));
        // "N damage to enemy tower" lands on the tower, not through the wall.
        let landing = if is_op {
            claim.place.iter().find_map(|w| match resource(rules, w) {
                Some(t @ Resource::Attr(_)) => Some(t),
                _ => None,
            })
        } else {
            None
        };
        // An operation's amount is positive unless a `-` is written; a verb
        // ("you take") says whom, not which way.
        let sign = if is_op {
            Some(claim.written_sign.unwrap_or(Sign::Up))
        } else {
            claim.written_sign.or(claim.verb_sign)
        };
        let whom = claim
            .whom
            .unwrap_or(if is_op { Whom::Other } else { Whom::You });
        // A rule set without these roles has its targets unchecked.
        let targets: Vec<Option<RoleId>> = match whom {
            Whom::You => vec![you],
            Whom::Other => vec![other],
            Whom::All => vec![you, other],
        };
        let holds = targets.iter().all(|target| {
            made.iter().any(|c| {
                let aimed = match (target, c.aim) {
                    (None, _) | (_, Aim::EverySeat) => true,
                    // A role past the rule set's is a name the card binds (a target).
                    (Some(t), Aim::Role(r)) => r == *t || r.index() >= rules.roles.len(),
                    // An effect on an entity it binds (the card itself, each
                    // of a loop, a target) may be on any side: the text's
                    // side cannot be told wrong from the data.
                    (Some(_), Aim::Unnamed) => true,
                };
                aimed
                    && ((c.resource == named && fits(&c.values, claim.amount, sign))
                        || (landing.as_ref() == Some(&c.resource)
                            && fits(&c.values, claim.amount, Some(Sign::Down))))
            })
        });
        if holds {
            continue;
        }
        let relevant: Vec<Effect> = effects
            .iter()
            .filter(|e| touches(e, &named, landing.as_ref()))
            .cloned()
            .collect();
        let does = if relevant.is_empty() {
            let name = match named {
                Resource::Attr(a) => &rules.attributes[a],
                Resource::Op(o) => &rules.operations[o],
                _ => &claim.word,
            };
            format!(
                "no effect changes `:{name}`; the card does: {}",
                crate::check::explain::explain_with(rules, effects, bound)
            )
        } else {
            format!(
                "the card does: {}",
                crate::check::explain::explain_with(rules, &relevant, bound)
            )
        };
        out.push((
            Code::TextDisagrees,
            format!("the text says \"{}\", but {does}", claim.text),
        ));
    }
    let says_again = text.to_lowercase().contains("play again");
    if says_again && !play_again {
        out.push((
            Code::PlayAgainDisagrees,
            "the text says \"play again\", but the card is not `:play-again true`".into(),
        ));
    } else if play_again && !says_again {
        out.push((
            Code::PlayAgainDisagrees,
            "the card is `:play-again true`, but its text does not say \"play again\"".into(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> Vec<(i64, String, Option<Sign>, Option<Whom>)> {
        claims(text)
            .into_iter()
            .map(|c| (c.amount, c.word, c.written_sign.or(c.verb_sign), c.whom))
            .collect()
    }

    #[test]
    fn claims_are_numbers_before_words() {
        let c = summary("+6 Wall, 10 Damage. -8 bricks; 1/2 amount");
        assert_eq!(
            c,
            [
                (6, "wall".into(), Some(Sign::Up), None),
                (10, "damage".into(), None, None),
                (8, "bricks".into(), Some(Sign::Down), None),
            ]
        );
        let c = claims("3 Damage to enemy tower");
        assert_eq!(c[0].place, ["enemy", "tower"]);
        assert_eq!(c[0].whom, Some(Whom::Other));
        assert_eq!(c[0].text, "3 Damage to enemy tower");
        let c = claims("All walls take 5 damage. Play again");
        assert_eq!(c[0].place, ["all", "walls"]);
        assert_eq!(c[0].whom, Some(Whom::All));
        // A decimal is no claim, and does not end a sentence.
        assert!(claims("1.5 × power").is_empty());
    }

    #[test]
    fn claims_read_whom_and_which_way() {
        assert_eq!(
            summary("+1 enemy Tower, -1 enemy Quarry"),
            [
                (1, "tower".into(), Some(Sign::Up), Some(Whom::Other)),
                (1, "quarry".into(), Some(Sign::Down), Some(Whom::Other)),
            ]
        );
        assert_eq!(
            summary("6 Damage, enemy loses 3 Beasts. You take 3 Damage"),
            [
                (6, "damage".into(), None, None),
                (3, "beasts".into(), Some(Sign::Down), Some(Whom::Other)),
                (3, "damage".into(), None, Some(Whom::You)),
            ]
        );
        // The subject and verb carry on to the claims after them in the sentence.
        assert_eq!(
            summary("All players lose 5 Bricks, 5 Gems and 5 Beasts. +2 Wall"),
            [
                (5, "bricks".into(), Some(Sign::Down), Some(Whom::All)),
                (5, "gems".into(), Some(Sign::Down), Some(Whom::All)),
                (5, "beasts".into(), Some(Sign::Down), Some(Whom::All)),
                (2, "wall".into(), Some(Sign::Up), None),
            ]
        );
        assert_eq!(
            summary("+1 Tower to all players, 3 Damage to your tower"),
            [
                (1, "tower".into(), Some(Sign::Up), Some(Whom::All)),
                (3, "damage".into(), None, Some(Whom::You)),
            ]
        );
        // A condition's words name no target: "If enemy has no wall 10 damage".
        assert_eq!(
            summary("If enemy has no wall 10 damage"),
            [(10, "damage".into(), None, None)]
        );
    }

    #[test]
    fn odd_texts_give_no_claim_and_no_panic() {
        for text in [
            "",
            "+",
            "-",
            "+-5 Wall",
            "5",
            "5 to",
            "5 Wall to",
            "5 enemy",
            "loses 5",
            "５ Wall",
            "é 5 ×",
            "...",
            "1.",
            ".5 wall",
            "5.",
            "; ; 5 ; wall",
            "99999999999999999999 Wall",
            "enemy loses",
            "and 5 Gems",
            "to 5 to to",
        ] {
            for c in claims(text) {
                assert!(c.amount >= 0 && !c.word.is_empty(), "{text:?}: {c:?}");
            }
        }
        assert!(claims("99999999999999999999 Wall").is_empty());
    }

    fn arcomage() -> RuleSet {
        RuleSet::bundled("arcomage")
            .and_then(Result::ok)
            .unwrap_or_else(|| panic!("arcomage checks"))
    }

    fn lint(text: &str, effects: &str) -> Vec<String> {
        let rules = arcomage();
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(&arena, effects).unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        text_vs_card(&rules, text, &effects, false, &[])
            .into_iter()
            .map(|(_, message)| message)
            .collect()
    }

    #[test]
    fn claims_and_play_again_have_their_codes() {
        let rules = arcomage();
        let arena = crate::syntax::Arena::new();
        let form = crate::syntax::read_one(&arena, "[{:effected :you :resource :wall :amount -5}]")
            .unwrap_or_else(|e| panic!("{e:?}"));
        let effects = rules
            .check_effects(&form)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let codes = |text: &str, again: bool| -> Vec<Code> {
            text_vs_card(&rules, text, &effects, again, &[])
                .into_iter()
                .map(|(code, _)| code)
                .collect()
        };
        assert_eq!(codes("+5 Wall", false), [Code::TextDisagrees]);
        assert_eq!(
            codes("-5 Wall. Play again", false),
            [Code::PlayAgainDisagrees]
        );
        assert_eq!(codes("-5 Wall", true), [Code::PlayAgainDisagrees]);
        assert_eq!(codes("-5 Wall", false), []);
    }

    #[test]
    fn changes_inside_each_and_when_bodies_count() {
        let each = "[{:each :player :effects [{:effected :self :resource :wall :amount 2}]}]";
        // A loop over the seats changes your wall, and every player's.
        assert_eq!(lint("+2 Wall", each), Vec::<String>::new());
        assert_eq!(lint("+2 Wall to all players", each), Vec::<String>::new());
        assert_eq!(lint("+2 enemy Wall", each), Vec::<String>::new());
        // A claim it cannot make true is said with the loop, never as "no effect changes".
        assert_eq!(
            lint("+3 Wall", each),
            [
                "the text says \"+3 Wall\", but the card does: For each player: +2 Wall for that player"
            ]
        );
        assert_eq!(
            lint(
                "+3 Wall",
                "[{:when [> [:you :wall] 3] :effects [{:effected :you :resource :wall :amount 2}]}]"
            ),
            [
                "the text says \"+3 Wall\", but the card does: +2 Wall if your wall is greater than 3"
            ]
        );
        // Inside a loop, a role keeps its seat.
        assert_eq!(
            lint(
                "+2 enemy Wall",
                "[{:each :player :effects [{:effected :you :resource :wall :amount 2}]}]"
            ),
            ["the text says \"+2 enemy Wall\", but the card does: For each player: +2 Wall"]
        );
    }

    #[test]
    fn a_wrong_sign_warns_with_what_the_card_does() {
        assert_eq!(
            lint("+5 Wall", "[{:effected :you :resource :wall :amount -5}]"),
            ["the text says \"+5 Wall\", but the card does: -5 Wall"]
        );
        assert_eq!(
            lint("-5 Wall", "[{:effected :you :resource :wall :amount 5}]"),
            ["the text says \"-5 Wall\", but the card does: +5 Wall"]
        );
        assert_eq!(
            lint(
                "Enemy loses 5 Gems",
                "[{:effected :other :resource :gems :amount 5}]"
            ),
            ["the text says \"Enemy loses 5 Gems\", but the card does: +5 enemy Gems"]
        );
        assert!(lint("+5 Wall", "[{:effected :you :resource :wall :amount 5}]").is_empty());
        assert!(lint("-6 Gems", "[{:effected :you :resource :gems :amount -6}]").is_empty());
    }

    #[test]
    fn your_opponent_is_the_opponent() {
        assert!(
            lint(
                "Your opponent loses 5 Bricks",
                "[{:effected :other :resource :bricks :amount -5}]"
            )
            .is_empty()
        );
        assert!(
            lint(
                "Deal 5 damage to your opponent",
                "[{:effected :other :resource :damage :amount 5}]"
            )
            .is_empty()
        );
        assert_eq!(
            lint(
                "Your opponent loses 5 Bricks",
                "[{:effected :you :resource :bricks :amount -5}]"
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_wrong_target_warns_with_what_the_card_does() {
        assert_eq!(
            lint("+5 Wall", "[{:effected :other :resource :wall :amount 5}]"),
            ["the text says \"+5 Wall\", but the card does: +5 enemy Wall"]
        );
        assert_eq!(
            lint("5 Damage", "[{:effected :you :resource :damage :amount 5}]"),
            ["the text says \"5 Damage\", but the card does: 5 Damage to you"]
        );
        assert_eq!(
            lint(
                "3 Damage to your tower",
                "[{:effected :other :resource :tower :amount -3}]"
            ),
            ["the text says \"3 Damage to your tower\", but the card does: -3 enemy Tower"]
        );
        assert_eq!(
            lint(
                "All players lose 8 Bricks",
                "[{:effected :you :resource :bricks :amount -8}]"
            ),
            ["the text says \"All players lose 8 Bricks\", but the card does: -8 Bricks"]
        );
        assert!(
            lint(
                "You take 3 Damage",
                "[{:effected :you :resource :damage :amount 3}]"
            )
            .is_empty()
        );
        assert!(
            lint(
                "+1 enemy Tower",
                "[{:effected :other :resource :tower :amount 1}]"
            )
            .is_empty()
        );
    }

    #[test]
    fn conditions_are_read_case_by_case() {
        let foundations = "[{:effected :you :resource :wall :amount [= [:you :wall] 0 6 3]}]";
        assert!(
            lint(
                "If you have no wall, +6 Wall, otherwise +3 Wall",
                foundations
            )
            .is_empty()
        );
        assert_eq!(
            lint(
                "If you have no wall, +6 Wall, otherwise +4 Wall",
                foundations
            ),
            [
                "the text says \"+4 Wall\", but the card does: +6 Wall if your wall is 0, otherwise +3 Wall"
            ]
        );
        // Resource and amount chosen by one test: each case keeps its own sign.
        let archers = "[{:effected :other :resource [> [:you :wall] [:other :wall] :tower :damage]
                         :amount [> [:you :wall] [:other :wall] -6 6]}]";
        assert!(
            lint(
                "If Wall > enemy Wall, 6 Damage to enemy tower. Else 6 Damage",
                archers
            )
            .is_empty()
        );
        assert_eq!(
            lint("+6 enemy Tower", archers).len(),
            1,
            "the tower case takes 6, it does not add 6"
        );
    }

    #[test]
    fn a_claim_with_no_effect_names_the_resource() {
        assert_eq!(
            lint("+2 Zoo", "[{:effected :you :resource :wall :amount 2}]"),
            ["the text says \"+2 Zoo\", but no effect changes `:zoo`; the card does: +2 Wall"]
        );
    }
}
