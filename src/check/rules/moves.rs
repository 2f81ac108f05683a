//! A kind's `:moves` and `:script`: what an enemy that is not a seat can do,
//! and how it chooses what it does next, so that its intent is known (and
//! shown) before the seats act.
//!
//! ```clojure
//! :worm {:moves {:chomp {:intent "damage" :amount 11 :effects […]}
//!                :bellow {:intent "gains 3 strength and 6 block" :effects […]}}
//!        :script {:first :chomp
//!                 :pick [{:move :bellow :weight 45 :max-in-a-row 1}
//!                        {:move :chomp :weight 25 :max-in-a-row 1}]}}
//! ```
//!
//! The next move is the `:first` moves in order, then the `:sequence`
//! cycled, or a weighted draw among the `:pick` entries allowed (`:when` holds
//! and the move has not been done `:max-in-a-row` times running), where an
//! entry not allowed but with an `:instead` list stays in the draw and, when
//! drawn, draws again among that list (the model's re-roll with its own
//! odds); without either, the moves in the order written, cycled.

use super::{Reading, RuleSet, string};
use crate::check::ast::{Bool, Effect, Int};
use crate::check::keys::{Keys, keys};
use crate::check::{self, Declared, SELF, Scope};
use crate::diag::{Code, Diagnostic};
use crate::syntax::{Form, Kind};

use super::KindId;

/// The most moves a kind may have: a move is kept as one byte.
pub const MAX_MOVES: usize = 255;

keys! {
    /// The keys of one of a kind's `:moves`.
    pub enum MoveKey {
        /// `:name "Chomp"`: what the log and the view call it (its key's name without it).
        Name = "name",
        /// `:intent "damage"`: what the seats are shown it will do.
        Intent = "intent",
        /// `:amount 11`: the number shown with the intent ("11 damage"), read when shown, with `:self` bound.
        Amount = "amount",
        /// `:effects […]`: what it does, with `:self` bound to the entity and the first seat's roles.
        Effects = "effects",
    }
}

keys! {
    /// The keys of a kind's `:script`.
    pub enum ScriptKey {
        /// `:first :chomp` or `:first [:a :b]`: the opening moves, in order.
        First = "first",
        /// `:sequence [:a :b :c]`: after the opening, these moves cycled.
        Sequence = "sequence",
        /// `:pick [{:move :a :weight 45} …]`: after the opening, a weighted draw among the entries allowed.
        Pick = "pick",
        /// `:decide-at :after-turn` (the default) or `:round-start`: when the next move is chosen and shown.
        DecideAt = "decide-at",
    }
}

keys! {
    /// The keys of one entry of a script's `:pick`.
    pub enum PickKey {
        /// `:move :bellow`: the move.
        Move = "move",
        /// `:weight 45`: its share of the draw among the entries allowed.
        Weight = "weight",
        /// `:max-in-a-row 2`: not drawn when it was the last 2 moves.
        MaxInARow = "max-in-a-row",
        /// `:when condition`: drawn only while it holds (`:self` bound).
        When = "when",
        /// `:instead [{:move :a :weight 9} …]`: when this entry is drawn and not allowed, its own draw among these.
        Instead = "instead",
    }
}

keys! {
    /// When a scripted entity chooses its next move.
    pub enum DecideAt {
        /// At its setup and right after each of its turns.
        AfterTurn = "after-turn",
        /// At the start of every round (and of the game).
        RoundStart = "round-start",
    }
}

/// One move of a kind.
#[derive(Clone, Debug)]
pub struct Move {
    /// Its key, by which scripts and scenarios name it.
    pub key: String,
    /// What the log and the view call it (`:name`, else its key).
    pub name: String,
    /// What the seats are shown it will do.
    pub intent: String,
    /// The number shown with the intent, if any.
    pub amount: Option<Int>,
    /// What it does.
    pub effects: Vec<Effect>,
}

/// One entry of a script's weighted draw.
#[derive(Clone, Debug)]
pub struct Pick {
    /// The move, by its index in [`Script::moves`].
    pub chosen: u8,
    /// Its weight among the entries allowed.
    pub weight: u32,
    /// Not drawn when it was the last this many moves.
    pub max_in_a_row: Option<u32>,
    /// Drawn only while this holds.
    pub when: Option<Bool>,
    /// When drawn but not allowed, the move is drawn among these allowed
    /// (their own weights and rules); empty, its weight is shared out among
    /// the entries allowed instead.
    pub instead: Vec<Pick>,
}

/// How an entity of a kind chooses its moves.
#[derive(Clone, Debug)]
pub struct Script {
    /// Its moves, in the order written.
    pub moves: Vec<Move>,
    /// The opening moves.
    pub first: Vec<u8>,
    /// The moves cycled after the opening.
    pub sequence: Vec<u8>,
    /// The weighted draw after the opening (when there is no sequence).
    pub pick: Vec<Pick>,
    /// When the next move is chosen.
    pub decide_at: DecideAt,
}

impl Script {
    /// The move whose key is `key`.
    pub fn move_named(&self, key: &str) -> Option<u8> {
        self.moves
            .iter()
            .position(|m| m.key == key)
            .map(|i| i as u8)
    }
}

/// Checks each kind's `:moves` and `:script`, once every name is declared.
pub(super) fn check(rules: &mut RuleSet, reading: &Reading<'_, '_>, diags: &mut Vec<Diagnostic>) {
    let mut scripts: Vec<Option<Box<Script>>> = vec![None; rules.kinds.len()];
    for &(kind, moves, script) in &reading.moves {
        let Some(moves) = moves else {
            if let Some(script) = script {
                diags.push(
                    Diagnostic::new(
                        Code::MoveScript,
                        script.span,
                        format!(
                            "kind `:{}` has a `:script` and no `:moves` to choose from",
                            rules.kinds[kind]
                        ),
                    )
                    .with_help("give it `:moves {:name {:intent \"…\" :effects […]}}`"),
                );
            }
            continue;
        };
        if kind == KindId::FIRST {
            diags.push(
                Diagnostic::new(
                    Code::MoveScript,
                    moves.span,
                    "the first kind is the seats' kind: seats choose their own moves",
                )
                .with_help("give `:moves` to a kind of enemy declared after the seats' kind"),
            );
            continue;
        }
        // An enemy that never takes a turn would show its intent for ever.
        let never = if rules.card_kinds.get(kind).copied().unwrap_or(false) {
            Some("is a kind of card: a card in a zone takes no turn")
        } else if rules.kind_turns.get(kind).is_some_and(Vec::is_empty) {
            Some("has `:turns []`: it takes no turn")
        } else {
            None
        };
        if let Some(why) = never {
            diags.push(
                Diagnostic::new(
                    Code::MoveScript,
                    moves.span,
                    format!(
                        "kind `:{}` {why}, so its moves are never done",
                        rules.kinds[kind]
                    ),
                )
                .with_help(
                    "an enemy with `:moves` takes turns: `:turns [:classic]`, or none given",
                ),
            );
            continue;
        }
        let scope = Scope {
            bound: &[SELF],
            ..rules.scope()
        };
        let Some(moves) = read_moves(moves, &scope, diags) else {
            continue;
        };
        let mut out = Script {
            moves,
            first: Vec::new(),
            sequence: Vec::new(),
            pick: Vec::new(),
            decide_at: DecideAt::AfterTurn,
        };
        if let Some(script) = script {
            read_script(script, &scope, &mut out, diags);
        }
        if let Some(slot) = scripts.get_mut(kind.index()) {
            *slot = Some(Box::new(out));
        }
    }
    rules.scripts = scripts.into();
}

fn read_moves(
    form: &Form<'_>,
    scope: &Scope<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<Move>> {
    let entries = super::keyword_map(form, "`:moves`", diags);
    if entries.is_empty() && matches!(form.kind, Kind::Map(_)) {
        diags.push(Diagnostic::new(
            Code::EmptyDeclaration,
            form.span,
            "`:moves` declares no move",
        ));
        return None;
    }
    if entries.len() > MAX_MOVES {
        diags.push(Diagnostic::new(
            Code::TooMany,
            form.span,
            format!("a kind may have at most {MAX_MOVES} moves"),
        ));
        return None;
    }
    let mut out = Vec::new();
    for (name, (_, body)) in entries {
        let mut m = Move {
            key: name.to_string(),
            name: name.to_string(),
            intent: String::new(),
            amount: None,
            effects: Vec::new(),
        };
        let Some(pairs) = check::fields(body, "a move", MoveKey::ALL, diags) else {
            continue;
        };
        for (key, v) in pairs {
            match key {
                MoveKey::Name => m.name = string(v, diags).unwrap_or(m.name),
                MoveKey::Intent => m.intent = string(v, diags).unwrap_or_default(),
                MoveKey::Amount => m.amount = check::integer(v, scope, diags),
                MoveKey::Effects => m.effects = check::effects(v, scope, diags).unwrap_or_default(),
            }
        }
        if m.amount.is_none()
            && m.intent.contains("{amount}")
            && let Some(intent) = body.get(MoveKey::Intent.name())
        {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    intent.span,
                    format!(
                        "move `:{name}`'s intent shows `{{amount}}`, but the move has no `:amount`"
                    ),
                )
                .with_help("say the number shown: `:amount [+ 11 [:self :strength]]`"),
            );
        }
        if !body.has_key(MoveKey::Effects.name()) {
            diags.push(
                Diagnostic::new(
                    Code::MissingKey,
                    body.span,
                    format!("move `:{name}` has no `:effects`"),
                )
                .with_help(
                    "say what it does: `:effects [{:effected :you :resource :health :amount -6}]`",
                ),
            );
        }
        out.push(m);
    }
    Some(out)
}

fn read_script(form: &Form<'_>, scope: &Scope<'_>, out: &mut Script, diags: &mut Vec<Diagnostic>) {
    let Some(pairs) = check::fields(form, "a script", ScriptKey::ALL, diags) else {
        return;
    };
    for (key, v) in pairs {
        match key {
            ScriptKey::First => out.first = move_list(v, out, diags),
            ScriptKey::Sequence => out.sequence = move_list(v, out, diags),
            ScriptKey::Pick => out.pick = picks(v, scope, out, diags),
            ScriptKey::DecideAt => {
                let message = format!(
                    "`:decide-at` is `:after-turn` or `:round-start`, found {}",
                    v.describe()
                );
                if let Some(d) = check::fields::keyword_in::<DecideAt>(
                    v,
                    message,
                    "not a moment a script decides at",
                    None,
                    diags,
                ) {
                    out.decide_at = d;
                }
            }
        }
    }
    if let (Some(seq), Some(pick)) = (
        form.get(ScriptKey::Sequence.name()),
        form.get(ScriptKey::Pick.name()),
    ) {
        diags.push(
            Diagnostic::new(
                Code::MoveScript,
                pick.span,
                "a script has a `:sequence` or a `:pick`, not both",
            )
            .with_related(seq.span, "the sequence")
            .with_help("to cycle moves, `:sequence`; to draw them, `:pick`"),
        );
    }
    for (key, empty) in [
        (ScriptKey::Sequence, out.sequence.is_empty()),
        (ScriptKey::Pick, out.pick.is_empty()),
    ] {
        if let Some(v) = form.get(key.name())
            && empty
            && matches!(&v.kind, Kind::Vector(items) if items.is_empty())
        {
            diags.push(Diagnostic::new(
                Code::EmptyDeclaration,
                v.span,
                format!("`:{}` names no move", key.name()),
            ));
        }
    }
}

/// The move a keyword names among the script's moves, with the nearest when none.
fn move_index(v: &Form<'_>, script: &Script, diags: &mut Vec<Diagnostic>) -> Option<u8> {
    let message = format!(
        "a script names one of the kind's moves, found {}",
        v.describe()
    );
    Declared::new(
        script.moves.iter().map(|m| m.key.as_str()),
        "a move",
        "moves",
        Code::UnknownMove,
    )
    .labelled("not a move of this kind".to_string())
    .find(v.as_keyword().unwrap_or(""), v.span, message, diags)
    .map(|i| i as u8)
}

/// `:chomp` or `[:chomp :thrash]`.
fn move_list(v: &Form<'_>, script: &Script, diags: &mut Vec<Diagnostic>) -> Vec<u8> {
    match &v.kind {
        Kind::Vector(items) => items
            .iter()
            .filter_map(|item| move_index(item, script, diags))
            .collect(),
        _ => move_index(v, script, diags).into_iter().collect(),
    }
}

fn picks(
    v: &Form<'_>,
    scope: &Scope<'_>,
    script: &Script,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Pick> {
    let Kind::Vector(items) = &v.kind else {
        diags.push(Diagnostic::new(
            Code::WrongType,
            v.span,
            format!(
                "`:pick` is a vector of `{{:move … :weight …}}` maps, found {}",
                v.describe()
            ),
        ));
        return Vec::new();
    };
    if items.len() > MAX_MOVES {
        diags.push(Diagnostic::new(
            Code::TooMany,
            v.span,
            format!("a script's `:pick` may have at most {MAX_MOVES} entries"),
        ));
        return Vec::new();
    }
    items
        .iter()
        .filter_map(|item| pick(item, scope, script, true, diags))
        .collect()
}

/// One entry of a `:pick` (or, not `top`, of an entry's `:instead`).
fn pick(
    item: &Form<'_>,
    scope: &Scope<'_>,
    script: &Script,
    top: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Pick> {
    let pairs = check::fields(item, "a script's pick", PickKey::ALL, diags)?;
    let (mut chosen, mut weight) = (None, Some(1));
    let (mut max_in_a_row, mut when, mut instead) = (None, None, Vec::new());
    for (key, v) in pairs {
        match key {
            PickKey::Move => chosen = move_index(v, script, diags),
            PickKey::Weight => {
                weight = super::whole(v, "`:weight`", 1, 1_000_000, diags).map(|w| w as u32)
            }
            PickKey::MaxInARow => {
                max_in_a_row =
                    super::whole(v, "`:max-in-a-row`", 1, 1_000_000, diags).map(|n| n as u32)
            }
            PickKey::When => when = check::condition(v, scope, diags),
            PickKey::Instead => instead = instead_list(item, v, scope, script, top, diags),
        }
    }
    if !item.has_key(PickKey::Move.name()) {
        diags.push(Diagnostic::new(
            Code::MissingKey,
            item.span,
            "this pick names no `:move`",
        ));
    }
    Some(Pick {
        chosen: chosen?,
        weight: weight?,
        max_in_a_row,
        when,
        instead,
    })
}

/// An entry's `:instead`: a vector of entries without an `:instead` of
/// their own, on an entry that can be disallowed (else it is never read).
fn instead_list(
    item: &Form<'_>,
    v: &Form<'_>,
    scope: &Scope<'_>,
    script: &Script,
    top: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Pick> {
    let Kind::Vector(items) = &v.kind else {
        diags.push(Diagnostic::new(
            Code::WrongType,
            v.span,
            format!(
                "`:instead` is a vector of `{{:move … :weight …}}` maps, found {}",
                v.describe()
            ),
        ));
        return Vec::new();
    };
    let problem = if !top {
        Some((
            "an `:instead` entry has no `:instead` of its own",
            "list every alternative in the one `:instead`",
        ))
    } else if items.is_empty() {
        diags.push(Diagnostic::new(
            Code::EmptyDeclaration,
            v.span,
            "`:instead` names no move",
        ));
        return Vec::new();
    } else if !item.has_key(PickKey::MaxInARow.name()) && !item.has_key(PickKey::When.name()) {
        Some((
            "this entry is always allowed, so its `:instead` is never drawn",
            "give the entry the rule that forbids it: `:max-in-a-row 1` or `:when condition`",
        ))
    } else if items.len() > MAX_MOVES {
        diags.push(Diagnostic::new(
            Code::TooMany,
            v.span,
            format!("an `:instead` may have at most {MAX_MOVES} entries"),
        ));
        return Vec::new();
    } else {
        None
    };
    if let Some((message, help)) = problem {
        diags.push(Diagnostic::new(Code::MoveScript, v.span, message).with_help(help));
        return Vec::new();
    }
    items
        .iter()
        .filter_map(|item| pick(item, scope, script, false, diags))
        .collect()
}
