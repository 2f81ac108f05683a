//! The operator registry: the one list of operators the language has.
//!
//! The checker resolves operator names here, suggestions come from here, and a
//! test holds `docs/LANGUAGE.md` to this list, so the three cannot drift apart.

use crate::check::ast::{Arith, Cmp, Rounding};

/// What an operator does, as the checker needs to know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A comparison: `[< a b]` is a condition, `[< a b then else]` chooses.
    Compare(Cmp),
    /// `[and a b]` / `[and a b then else]`
    And,
    /// `[or a b]` / `[or a b then else]`
    Or,
    /// `[not a]`
    Not,
    /// `[if cond then else]`
    If,
    /// `+ - * min max`
    Arith(Arith),
    /// `/`
    Div,
    /// `round floor ceil`
    Round(Rounding),
    /// `[random lo hi]`
    Random,
    /// `[chance p]`
    Chance,
    /// `[statuses who filter…]`: how many matching statuses an entity holds.
    Statuses,
    /// `[turns-left who filter…]`: their turns left, summed.
    TurnsLeft,
    /// `[has who filter…]`: whether it holds one.
    Has,
    /// `[abs a]`
    Abs,
    /// `[count kind condition]`: how many entities of a kind it holds for.
    Count,
    /// `[sum kind value condition]`: a value summed over entities of a kind.
    Sum,
    /// `[lookup :table x]`: a lookup table's value for x.
    Lookup,
    /// `[choice :field]`: the number the chosen option of an action gives.
    Choice,
    /// `[event :amount]`
    Event,
    /// `[formula :name a ...]`: a named formula applied to arguments.
    Formula,
    /// `[advantage a]` (true) / `[disadvantage a]`: a evaluated twice, the
    /// higher (lower) kept.
    Best(bool),
    /// `[max-of source value condition]` (true) / `[min-of …]`.
    Extreme(bool),
    /// `[top ZONE value default]` (true) / `[bottom …]`.
    Edge(bool),
    /// `[slot card]`: a card's place on its board.
    Slot,
    /// `[named card "Name"]`: whether it is a card of that name.
    Named,
    /// `[of-kind entity :kind]`: whether it is of that kind.
    OfKind,
    /// `[in card ZONE]`: whether the card is in that pile.
    In,
    /// `[holds who "Name"]`: whether a seat's hand (or a pile) holds a card of that name.
    Holds,
    /// `[adjacent card]`: the cards beside one on its board, a source of cards.
    Adjacent,
}

/// One operator of the language.
#[derive(Clone, Copy, Debug)]
pub struct Operator {
    /// The symbol that names it.
    pub name: &'static str,
    /// What it does.
    pub kind: OpKind,
    /// Its shapes, as written in the language.
    pub forms: &'static str,
    /// What it means, in one line.
    pub doc: &'static str,
}

const fn op(name: &'static str, kind: OpKind, forms: &'static str, doc: &'static str) -> Operator {
    Operator {
        name,
        kind,
        forms,
        doc,
    }
}

/// Every operator, in the order the language reference lists them.
pub const OPERATORS: &[Operator] = &[
    op(
        "=",
        OpKind::Compare(Cmp::Eq),
        "[= a b] [= a b then else]",
        "a equals b",
    ),
    op(
        "not=",
        OpKind::Compare(Cmp::Ne),
        "[not= a b] [not= a b then else]",
        "a differs from b",
    ),
    op(
        "<",
        OpKind::Compare(Cmp::Lt),
        "[< a b] [< a b then else]",
        "a is less than b",
    ),
    op(
        ">",
        OpKind::Compare(Cmp::Gt),
        "[> a b] [> a b then else]",
        "a is greater than b",
    ),
    op(
        "<=",
        OpKind::Compare(Cmp::Le),
        "[<= a b] [<= a b then else]",
        "a is at most b",
    ),
    op(
        ">=",
        OpKind::Compare(Cmp::Ge),
        "[>= a b] [>= a b then else]",
        "a is at least b",
    ),
    op(
        "and",
        OpKind::And,
        "[and c1 c2] [and c1 c2 then else]",
        "both conditions hold",
    ),
    op(
        "or",
        OpKind::Or,
        "[or c1 c2] [or c1 c2 then else]",
        "at least one condition holds",
    ),
    op("not", OpKind::Not, "[not c]", "the condition does not hold"),
    op(
        "if",
        OpKind::If,
        "[if c then else]",
        "then when c holds, else otherwise",
    ),
    op(
        "+",
        OpKind::Arith(Arith::Add),
        "[+ a b ...]",
        "sum (saturates at the 64-bit limits)",
    ),
    op(
        "-",
        OpKind::Arith(Arith::Sub),
        "[- a] [- a b ...]",
        "negation, or a minus the rest",
    ),
    op("*", OpKind::Arith(Arith::Mul), "[* a b ...]", "product"),
    op(
        "/",
        OpKind::Div,
        "[/ a b]",
        "a divided by b, a decimal; dividing by zero gives 0",
    ),
    op(
        "abs",
        OpKind::Abs,
        "[abs a]",
        "the distance of a from 0 (saturates at the 64-bit limit)",
    ),
    op(
        "min",
        OpKind::Arith(Arith::Min),
        "[min a b ...]",
        "the smallest",
    ),
    op(
        "max",
        OpKind::Arith(Arith::Max),
        "[max a b ...]",
        "the largest",
    ),
    op(
        "round",
        OpKind::Round(Rounding::Nearest),
        "[round d]",
        "nearest integer, halves away from zero",
    ),
    op(
        "floor",
        OpKind::Round(Rounding::Floor),
        "[floor d]",
        "largest integer not above d",
    ),
    op(
        "ceil",
        OpKind::Round(Rounding::Ceil),
        "[ceil d]",
        "smallest integer not below d",
    ),
    op(
        "random",
        OpKind::Random,
        "[random lo hi]",
        "a uniform integer from lo to hi inclusive, from the state's seeded generator",
    ),
    op(
        "lookup",
        OpKind::Lookup,
        "[lookup :table x]",
        "the value of the rule set's lookup table for x (its `:default` outside every range)",
    ),
    op(
        "choice",
        OpKind::Choice,
        "[choice :field]",
        "the number the option chosen for the action being used gives field (`:choose`; 0 with none chosen)",
    ),
    op(
        "event",
        OpKind::Event,
        "[event :amount]",
        "a number of the event the trigger runs for: `:amount` (an attribute's change), `:position` (the subject's place in its pile)",
    ),
    op(
        "formula",
        OpKind::Formula,
        "[formula :name a ...]",
        "the rule set's named formula applied to the arguments, each evaluated once",
    ),
    op(
        "advantage",
        OpKind::Best(true),
        "[advantage a]",
        "a evaluated twice (its dice rolled twice), the higher kept",
    ),
    op(
        "disadvantage",
        OpKind::Best(false),
        "[disadvantage a]",
        "a evaluated twice (its dice rolled twice), the lower kept",
    ),
    op(
        "chance",
        OpKind::Chance,
        "[chance p]",
        "true with probability p (0 to 1), from the state's seeded generator",
    ),
    op(
        "statuses",
        OpKind::Statuses,
        "[statuses who] [statuses who filter ...]",
        "how many statuses who holds that match every filter keyword (a status, category, flag, `:buff` or `:debuff`)",
    ),
    op(
        "turns-left",
        OpKind::TurnsLeft,
        "[turns-left who] [turns-left who filter ...]",
        "the turns left of who's matching statuses, summed (a status that never runs out counts 0)",
    ),
    op(
        "has",
        OpKind::Has,
        "[has who filter ...]",
        "who holds a status that matches every filter keyword",
    ),
    op(
        "count",
        OpKind::Count,
        "[count kind] [count kind condition]",
        "how many entities of the kind are in play (for which the condition holds, with `:self` bound to each)",
    ),
    op(
        "sum",
        OpKind::Sum,
        "[sum kind value] [sum kind value condition]",
        "the value summed over the entities of the kind in play (for which the condition holds), with `:self` bound to each",
    ),
    op(
        "max-of",
        OpKind::Extreme(true),
        "[max-of source value] [max-of source value condition]",
        "the largest value over a kind's entities in play or a zone's cards (for which the condition holds), with `:self` bound to each; 0 when there is none",
    ),
    op(
        "min-of",
        OpKind::Extreme(false),
        "[min-of source value] [min-of source value condition]",
        "the smallest value over a kind's entities in play or a zone's cards (for which the condition holds), with `:self` bound to each; 0 when there is none",
    ),
    op(
        "top",
        OpKind::Edge(true),
        "[top zone value default]",
        "a value of the top card of an ordered zone (a board's last), with `:self` bound to it; default when the zone is empty",
    ),
    op(
        "bottom",
        OpKind::Edge(false),
        "[bottom zone value default]",
        "a value of the bottom card of an ordered zone (a board's first), with `:self` bound to it; default when the zone is empty",
    ),
    op(
        "slot",
        OpKind::Slot,
        "[slot card]",
        "the card's slot on its board, from 0; -1 off a board",
    ),
    op(
        "named",
        OpKind::Named,
        "[named card name]",
        "the entity is an instance of the card of that name (a string)",
    ),
    op(
        "of-kind",
        OpKind::OfKind,
        "[of-kind who kind]",
        "the entity is of the kind (a card out of play, of the kind it has in play)",
    ),
    op(
        "in",
        OpKind::In,
        "[in card zone]",
        "the card is in the zone",
    ),
    op(
        "holds",
        OpKind::Holds,
        "[holds who name] [holds zone name]",
        "the seat's hand (its `:plays` zone), or the zone, holds a card of that name",
    ),
    op(
        "adjacent",
        OpKind::Adjacent,
        "[adjacent card]",
        "the cards beside the card on its board: a source for `count`, `sum`, `max-of`, `min-of`, `:each` and selections",
    ),
];

/// The operator named `name`.
pub fn find(name: &str) -> Option<&'static Operator> {
    OPERATORS.iter().find(|o| o.name == name)
}

/// Every operator name, for suggestions.
pub fn names() -> impl Iterator<Item = &'static str> {
    OPERATORS.iter().map(|o| o.name)
}

/// The operator people from other languages mean by `name` (`!=` is `not=`).
pub fn alias(name: &str) -> Option<&'static str> {
    Some(match name {
        "!=" | "<>" | "/=" | "≠" => "not=",
        "==" | "===" => "=",
        "=>" | "≥" => ">=",
        "=<" | "≤" => "<=",
        "&&" | "&" => "and",
        "||" | "|" => "or",
        "!" => "not",
        _ => return None,
    })
}
