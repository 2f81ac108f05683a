//! The typed AST: what the checker produces and the evaluator runs.
//!
//! Every name is resolved to an index and every expression has one type, so
//! evaluation does no lookup, no string comparison and no type test.

use crate::syntax::Span;

/// Index of an attribute in the rule set (`:wall`).
pub type AttrId = u16;
/// An entity's number in a state: a seat's player, a unit, a tile; never reused in a game.
pub type EntityId = u32;
/// Index of an operation in the rule set (`:damage`).
pub type OpId = u16;
/// Index of a role in the rule set (`:you`): a name bound to an entity when effects run.
pub type RoleId = u8;

/// Comparison operators of simple logic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `=`
    Eq,
    /// `not=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
}

impl Cmp {
    /// Applies the comparison.
    #[inline]
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Gt => a > b,
            Cmp::Le => a <= b,
            Cmp::Ge => a >= b,
        }
    }
}

/// Rounding from a decimal to an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// `round`: to the nearest, halves away from zero (22.5 → 23).
    Nearest,
    /// `floor`: down.
    Floor,
    /// `ceil`: up.
    Ceil,
}

/// Arithmetic operators shared by integers and decimals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `min`
    Min,
    /// `max`
    Max,
}

/// Who an effect touches, or whose attribute a smart value reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Entity {
    /// A role the rule set declares (`:you`, `:other`), bound to an entity when applied.
    Role(RoleId),
    /// `:target` inside an operation: the entity the operation was applied to.
    Target,
    /// Simple logic choosing between two entities.
    If(Box<Bool>, Box<Entity>, Box<Entity>),
}

/// An integer expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Int {
    /// `6`
    Lit(i64),
    /// A smart value `[:you :wall]`.
    Attr(Entity, AttrId),
    /// `:amount` inside an operation.
    Amount,
    /// `[op a b ...]` folded left; `-` with one operand is `Neg`.
    Fold(Arith, Box<[Int]>),
    /// `[- a]`
    Neg(Box<Int>),
    /// `[op p1 p2 then else]` or `[if c then else]`.
    If(Box<Bool>, Box<Int>, Box<Int>),
    /// The seed's commonest shape, `[= [:you :wall] 0 6 3]`, kept flat: compare an
    /// entity's attribute with a number and choose between two numbers.
    Pick(Cmp, RoleId, AttrId, i64, i64, i64),
    /// `[round d]`, `[floor d]`, `[ceil d]`.
    Round(Rounding, Box<Dec>),
    /// `[random lo hi]`: uniform in `lo..=hi`, drawn from the state's generator.
    Random(Box<Int>, Box<Int>),
}

/// A decimal expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Dec {
    /// `1.5`
    Lit(f64),
    /// An integer used where a decimal is wanted.
    Int(Box<Int>),
    /// `[op a b ...]` folded left.
    Fold(Arith, Box<[Dec]>),
    /// `[- a]`
    Neg(Box<Dec>),
    /// `[/ a b]`: division; dividing by zero gives 0.
    Div(Box<Dec>, Box<Dec>),
    /// Simple logic choosing between decimals.
    If(Box<Bool>, Box<Dec>, Box<Dec>),
}

/// A condition.
#[derive(Clone, Debug, PartialEq)]
pub enum Bool {
    /// `true`, `false`
    Lit(bool),
    /// Comparing integers.
    CmpInt(Cmp, Box<Int>, Box<Int>),
    /// Comparing an entity's attribute with a number, `[= [:you :wall] 0]`: the
    /// commonest condition, kept flat so it costs one load and one compare.
    AttrCmp(Cmp, RoleId, AttrId, i64),
    /// Comparing decimals (one side at least was a decimal).
    CmpDec(Cmp, Box<Dec>, Box<Dec>),
    /// `[and a b]`
    And(Box<Bool>, Box<Bool>),
    /// `[or a b]`
    Or(Box<Bool>, Box<Bool>),
    /// `[not a]`
    Not(Box<Bool>),
    /// Simple logic choosing between conditions: `[if c a b]`.
    If(Box<Bool>, Box<Bool>, Box<Bool>),
    /// `[chance p]`: true with probability `p`, drawn from the state's generator.
    Chance(Box<Dec>),
}

/// What an effect's `:resource` names: a stored attribute or a rule-set operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Resource {
    /// `:wall`
    Attr(AttrId),
    /// `:damage`
    Op(OpId),
    /// `[> [:other :wall] 10 :wall :tower]`
    If(Box<Bool>, Box<Resource>, Box<Resource>),
}

/// One checked effect map: `{:effected :you :resource :wall :amount 3}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    /// `:effected`
    pub entity: Entity,
    /// `:resource`
    pub resource: Resource,
    /// `:amount`
    pub amount: Int,
    /// `:set true`: replace instead of add.
    pub set: bool,
    /// How many effects, this one first, are computed together from one state
    /// before any of them applies (`{:at-once [...]}`); 1 for an effect on its own.
    pub at_once: u8,
    /// The map in the source.
    pub span: Span,
}

/// A checked expression of any type: for tools and the language reference.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer expression.
    Int(Int),
    /// A decimal expression.
    Dec(Dec),
    /// A condition.
    Bool(Bool),
}

/// The most effects one `{:at-once [...]}` group may hold.
pub const MAX_AT_ONCE: usize = 16;

/// The leaves of an expression, as [`Int::leaves`] and friends report them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    /// An integer literal (the literals of a fused node included).
    Int(i64),
    /// A decimal literal.
    Dec(f64),
    /// A smart value: whose (`None` when computed by simple logic, which is not
    /// walked further) and which attribute.
    Attr(Option<RoleId>, AttrId),
    /// `:amount` inside an operation.
    Amount,
    /// A draw from the generator: `random` or `chance`.
    Draw,
}

impl Int {
    /// Calls `f` on every leaf, conditions included, in source order.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Int::Lit(n) => f(Leaf::Int(*n)),
            Int::Attr(who, a) => f(Leaf::Attr(
                match who {
                    Entity::Role(r) => Some(*r),
                    _ => None,
                },
                *a,
            )),
            Int::Amount => f(Leaf::Amount),
            Int::Pick(_, r, a, n, then, other) => {
                f(Leaf::Attr(Some(*r), *a));
                [*n, *then, *other]
                    .into_iter()
                    .for_each(|n| f(Leaf::Int(n)));
            }
            Int::Fold(_, items) => items.iter().for_each(|i| i.leaves(f)),
            Int::Neg(a) => a.leaves(f),
            Int::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
            Int::Round(_, d) => d.leaves(f),
            Int::Random(a, b) => {
                f(Leaf::Draw);
                a.leaves(f);
                b.leaves(f);
            }
        }
    }
}

impl Dec {
    /// Calls `f` on every leaf, conditions included, in source order.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Dec::Lit(d) => f(Leaf::Dec(*d)),
            Dec::Int(i) => i.leaves(f),
            Dec::Fold(_, items) => items.iter().for_each(|d| d.leaves(f)),
            Dec::Neg(a) => a.leaves(f),
            Dec::Div(a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            Dec::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
        }
    }
}

impl Bool {
    /// Calls `f` on every leaf, in source order.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Bool::Lit(_) => {}
            Bool::AttrCmp(_, r, a, n) => {
                f(Leaf::Attr(Some(*r), *a));
                f(Leaf::Int(*n));
            }
            Bool::CmpInt(_, a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            Bool::CmpDec(_, a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            Bool::And(a, b) | Bool::Or(a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            Bool::Not(a) => a.leaves(f),
            Bool::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
            Bool::Chance(p) => {
                f(Leaf::Draw);
                p.leaves(f);
            }
        }
    }
}

impl Entity {
    /// Calls `f` on every leaf of the conditions that choose the entity.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Entity::Role(_) | Entity::Target => {}
            Entity::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
        }
    }
}

impl Resource {
    /// Calls `f` on every leaf of the conditions that choose the resource.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Resource::Attr(_) | Resource::Op(_) => {}
            Resource::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
        }
    }
}

impl Effect {
    /// Calls `f` on every leaf of the effect: who, what and how much.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        self.entity.leaves(f);
        self.resource.leaves(f);
        self.amount.leaves(f);
    }
}
