//! Card text against card data: warnings where what a card says and what it does disagree.
//!
//! The text is read for simple claims: a number before a resource name
//! ("+6 Wall", "10 Damage", "lose 8 bricks") and "play again". A claim no
//! effect can make true is reported, so a spreadsheet whose description says
//! 10 damage while its effect deals 6 is caught rather than shipped.

use crate::ast::{Effect, Int, Leaf, Resource};
use crate::rules::RuleSet;

/// A number and the resource word after it, as found in a card's text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Claim {
    amount: i64,
    word: String,
    /// Where an operation's amount lands: the words after "to" ("10 damage to
    /// enemy tower"), else the other words of the clause ("All walls take 5 damage").
    to: Vec<String>,
}

fn claims(text: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    // A claim's landing place is looked for within its clause: "All walls take 5 damage".
    for clause in text.split([',', '.', ';']) {
        let words: Vec<&str> = clause
            .split(|c: char| c.is_whitespace() || matches!(c, ':' | '(' | ')' | '!'))
            .filter(|w| !w.is_empty())
            .collect();
        for (i, pair) in words.windows(2).enumerate() {
            let number = pair[0].trim_start_matches(['+', '-']);
            if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let to = match words.get(i + 2) {
                Some(w) if w.eq_ignore_ascii_case("to") => words[i + 3..]
                    .iter()
                    .take(2)
                    .map(|w| w.to_lowercase())
                    .collect(),
                _ => words
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i && j != i + 1)
                    .map(|(_, w)| w.to_lowercase())
                    .collect(),
            };
            if let Ok(amount) = number.parse() {
                out.push(Claim {
                    amount,
                    word: pair[1].to_lowercase(),
                    to,
                });
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
        return Some(Resource::Attr(a as u16));
    }
    rules
        .operations
        .iter()
        .position(|o| matches(o))
        .map(|o| Resource::Op(o as u16))
}

fn can_be(t: &Resource, want: &Resource) -> bool {
    match t {
        Resource::If(_, a, b) => can_be(a, want) || can_be(b, want),
        _ => t == want,
    }
}

/// Every whole number written in an amount, conditions included.
fn int_literals(e: &Int, out: &mut Vec<i64>) {
    e.leaves(&mut |leaf| match leaf {
        Leaf::Int(n) => out.push(n),
        Leaf::Dec(d) if d.fract() == 0.0 => out.push(d as i64),
        _ => {}
    });
}

/// Where a card's text and its data disagree, one message each.
pub fn text_vs_card(
    rules: &RuleSet,
    text: &str,
    effects: &[Effect],
    play_again: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for claim in claims(text) {
        let Some(named) = resource(rules, &claim.word) else {
            continue;
        };
        // "N damage to enemy tower" lands on the tower, not through the wall.
        let landing = match named {
            Resource::Op(_) => claim.to.iter().find_map(|w| match resource(rules, w) {
                Some(t @ Resource::Attr(_)) => Some(t),
                _ => None,
            }),
            _ => None,
        };
        let makes = |target: &Resource| {
            effects.iter().any(|e| {
                let mut literals = Vec::new();
                int_literals(&e.amount, &mut literals);
                can_be(&e.resource, target)
                    && literals.iter().any(|n| n.saturating_abs() == claim.amount)
            })
        };
        let made = makes(&named) || landing.as_ref().is_some_and(makes);
        let target = named;
        if !made {
            let what = match target {
                Resource::Attr(a) => format!("`:{}`", rules.attributes[a as usize]),
                Resource::Op(o) => format!("`:{}`", rules.operations[o as usize]),
                Resource::If(..)
                | Resource::Status(_)
                | Resource::Each(_)
                | Resource::Spawn(_)
                | Resource::Run(_)
                | Resource::Queue(_) => String::new(),
            };
            out.push(format!(
                "the text says {} {}, but no effect changes {what} by {}",
                claim.amount, claim.word, claim.amount
            ));
        }
    }
    let says_again = text.to_lowercase().contains("play again");
    if says_again && !play_again {
        out.push("the text says \"play again\", but the card is not `:play-again true`".into());
    } else if play_again && !says_again {
        out.push("the card is `:play-again true`, but its text does not say \"play again\"".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_numbers_before_words() {
        let c = claims("+6 Wall, 10 Damage. -8 bricks; 1/2 amount");
        let pairs: Vec<(i64, &str)> = c.iter().map(|c| (c.amount, c.word.as_str())).collect();
        assert_eq!(pairs, [(6, "wall"), (10, "damage"), (8, "bricks")]);
        let c = claims("3 Damage to enemy tower");
        assert_eq!(c[0].to, ["enemy", "tower"]);
        let c = claims("All walls take 5 damage. Play again");
        assert_eq!(c[0].to, ["all", "walls", "take"]);
    }
}
