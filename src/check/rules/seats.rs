//! `:seats [:p1 :p2]`: the players of a game, in turn order. A rule set without
//! seats is not a game: its effects can be evaluated but not played.

use super::RuleSet;
use crate::check::keys::{Keys, keys};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

pub(super) fn read(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    match &value.kind {
        Kind::Vector(items) if items.len() > usize::from(u8::MAX) => diags.push(Diagnostic::new(
            Code::TooMany,
            value.span,
            format!("a game has at most 255 seats; this lists {}", items.len()),
        )),
        Kind::Vector(items) => {
            for item in items.iter() {
                match item.as_keyword() {
                    Some(name) if rules.seats.iter().any(|s| s == name) => {
                        diags.push(Diagnostic::new(
                            Code::Duplicate,
                            item.span,
                            format!("seat `:{name}` is listed twice"),
                        ))
                    }
                    Some(name) => rules.seats.push(name.to_string()),
                    None => diags.push(Diagnostic::new(
                        Code::WrongType,
                        item.span,
                        format!("a seat is named by a keyword, found {}", item.describe()),
                    )),
                }
            }
        }
        _ => diags.push(Diagnostic::new(
            Code::WrongType,
            value.span,
            format!(
                "`:seats` is a vector of keywords such as `[:p1 :p2]`, found {}",
                value.describe()
            ),
        )),
    }
}

/// Seat roles bind each role to a different seat, so a game needs at least as many seats as roles.
pub(super) fn check_roles(form: &Form<'_>, rules: &RuleSet, diags: &mut Vec<Diagnostic>) {
    if !rules.seats.is_empty() && rules.seats.len() < rules.roles.len() {
        diags.push(Diagnostic::new(
            Code::SeatsAndRoles,
            form.span,
            format!(
                "{} seats cannot bind {} roles: each role names a different seat",
                rules.seats.len(),
                rules.roles.len()
            ),
        ));
    }
}

/// `:players {:min 2 :default 2}`: a rule set played by any number of its
/// seats from `:min` to all of them, the first N in `:seats` order; a game
/// is set up for `:default` unless asked for another count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    /// The fewest players a game may have.
    pub min: usize,
    /// The count a game has unless asked for another.
    pub default: usize,
    /// Every seat `:seats` lists: a game of N players takes the first N.
    pub all: Vec<String>,
}

keys! {
    /// The keys of `:players`.
    pub enum PlayersKey {
        /// `:min`: the fewest players a game may have (at least the roles' count).
        Min = "min",
        /// `:default`: the count a game has unless asked for another (`:min` without it).
        Default = "default",
    }
}

/// Reads `:players`, once `:seats` and `:roles` are known.
pub(super) fn players(value: &Form<'_>, rules: &mut RuleSet, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = crate::check::fields(value, "`:players`", PlayersKey::ALL, diags) else {
        return;
    };
    if rules.seats.is_empty() {
        // Without seats the rule set is no game: a count of players would
        // be silently ignored.
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                value.span,
                "`:players` without `:seats`: the players are the first seats of `:seats`",
            )
            .with_help("name the seats a game may have: `:seats [:p1 :p2 :p3 :p4]`"),
        );
        return;
    }
    let max = rules.seats.len() as i64;
    let least = rules.roles.len().max(1) as i64;
    if max < least {
        return; // `:seats` is reported already (too few, or none).
    }
    let (mut min, mut default) = (None, None);
    for (key, v) in pairs {
        match key {
            PlayersKey::Min => min = super::whole(v, "`:min` (players)", least, max, diags),
            PlayersKey::Default => default = Some(v),
        }
    }
    let Some(min) = min else {
        if !value.has_key(PlayersKey::Min.name()) {
            diags.push(
                Diagnostic::new(Code::MissingKey, value.span, "`:players` has no `:min`")
                    .with_help(
                        "the fewest players a game may have: `:players {:min 2 :default 2}`",
                    ),
            );
        }
        return;
    };
    let default = match default {
        Some(v) => match super::whole(v, "`:default` (players)", min, max, diags) {
            Some(n) => n,
            None => return,
        },
        None => min,
    };
    rules.players = Some(Players {
        min: min as usize,
        default: default as usize,
        all: rules.seats.clone(),
    });
}

impl RuleSet {
    /// Sets games up for `n` players: the first `n` of `:seats` (a rule set
    /// with `:players`); an error saying the counts it is played by otherwise.
    pub fn choose_players(&mut self, n: usize) -> Result<(), String> {
        let Some(players) = &self.players else {
            return if n == self.seats.len() {
                Ok(())
            } else {
                Err(format!(
                    "rule set `{}` is played by {} players only (it declares no `:players`)",
                    self.name,
                    self.seats.len()
                ))
            };
        };
        if n < players.min || n > players.all.len() {
            return Err(format!(
                "rule set `{}` is played by {} to {} players, not {n}",
                self.name,
                players.min,
                players.all.len()
            ));
        }
        self.seats = players.all[..n].to_vec();
        Ok(())
    }
}
