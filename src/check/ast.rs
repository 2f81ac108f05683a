//! The typed AST: what the checker produces and the evaluator runs.
//!
//! Every name is resolved to an index and every expression has one type, so
//! evaluation does no lookup, no string comparison and no type test.

/// Where a checked construct was written: the span every effect map keeps.
pub use crate::syntax::Span;

pub use crate::ids::{
    AttrId, CategoryId, EntityId, FlagId, KindId, OpId, RoleId, StatusId, TimingId, TurnKindId,
    ZoneId,
};

/// A number a card gives, declared in `:cards :values`: integer or decimal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CardValue {
    /// `4`
    Int(i64),
    /// `1.5`
    Dec(f64),
}

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
    /// `:this-card`: the card whose effects run (a rule set with `:zones`).
    ThisCard,
}

/// The numbers of the event a trigger runs for: `[event :amount]`, `[event :position]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventField {
    /// An attribute's change (after − before); a status's turns; 0 otherwise.
    Amount,
    /// The subject's place in the pile it left (for `:leaves` and `:dies`) or
    /// entered, counted from the bottom: a board's slot.
    Position,
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
    /// `:magnitude` in a status's effects: what it was acquired with.
    Magnitude,
    /// `[statuses :you :debuff]`: how many statuses an entity holds that match.
    Statuses(Box<Entity>, Filter),
    /// `[turns-left :you :buff]`: the turns left of the matching statuses, summed.
    TurnsLeft(Box<Entity>, Filter),
    /// `[abs a]`: the distance of `a` from 0.
    Abs(Box<Int>),
    /// `[count :unit condition]`: how many entities of a kind in play it holds for.
    Count(Box<Over>),
    /// `[sum :unit value condition]`: a value summed over entities of a kind in play.
    Sum(Box<Over>),
    /// `[formula :stamina x]`: a named formula of the rule set applied to its
    /// arguments, each evaluated once (the body shared, never copied: a
    /// formula using another twice stays the size it is written).
    Formula(Box<Formula>),
    /// An argument inside a formula's body, by position.
    Arg(u8),
    /// `[lookup :damage x]`: the table's value for x (the table copied in).
    Lookup(Box<(Lookup, Int)>),
    /// `3d6+2`: dice rolled from the state's generator, their faces logged.
    Dice(crate::dice::Dice),
    /// `[+ 1d20 [:you :offense]]`: dice plus a modifier worked out as they
    /// roll, logged as one roll (`1d20+3: 15 (12+3)`). The modifier draws no chance.
    Roll(Box<(crate::dice::Dice, Int)>),
    /// `[advantage a]` (true) / `[disadvantage a]`: `a` evaluated twice, the
    /// higher (lower) kept.
    Best(bool, Box<Int>),
    /// `[choice :dodge]`: the field's number for every option (copied in), read
    /// at the option chosen for the action being used; 0 with none.
    Choice(Box<[i64]>),
    /// `[event :amount]`: a number of the event the trigger runs for.
    Event(crate::check::ast::EventField),
    /// `[max-of source value condition]` (true) / `[min-of …]`: the largest
    /// (smallest) value over the source's entities for which the condition
    /// holds; 0 when there is none.
    Extreme(bool, Box<Over>),
    /// `[top ZONE value default]` (true) / `[bottom …]`: a value of a pile's
    /// top (bottom) card, `:self` bound to it; the default when it is empty.
    Edge(bool, Box<Edge>),
    /// `[slot card]`: a card's place on its board, from 0; -1 off a board.
    Slot(Box<Entity>),
}

/// A pile named in an effect or a query: a zone, and whose.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneRef {
    /// The zone.
    pub zone: ZoneId,
    /// Its owner, for a zone per seat (`[:hand :you]`); `None` for a shared zone.
    pub owner: Option<Entity>,
    /// The most cards it holds: what a loop over it can cost.
    pub capacity: u16,
}

/// Where a loop (`:each`) or a query (`count`, `sum`, `max-of`) finds its entities.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Every entity of a kind in play, in the order they were added.
    Kind(KindId),
    /// The cards of a pile, bottom first (a board's by slot).
    Zone(Box<ZoneRef>),
    /// `[adjacent card]`: the cards beside one on its board.
    Adjacent(Box<Entity>),
}

impl Source {
    /// The kind, for a source that is every entity of one.
    pub fn kind(&self) -> Option<KindId> {
        match self {
            Source::Kind(k) => Some(*k),
            Source::Zone(_) | Source::Adjacent(_) => None,
        }
    }

    /// The most entities it can hold, for the work a loop over it can do:
    /// `None` for a kind (bounded by the game, not the data).
    pub fn bound(&self) -> Option<u64> {
        match self {
            Source::Kind(_) => None,
            Source::Zone(z) => Some(u64::from(z.capacity)),
            Source::Adjacent(_) => Some(2),
        }
    }
}

/// `[top ZONE value default]`: a value of a pile's top or bottom card.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The pile.
    pub zone: ZoneRef,
    /// What is read of the card, with `:self` bound to it.
    pub value: Int,
    /// The value when the pile is empty.
    pub default: Int,
    /// How many roles were bound around the form: `:self` is the next.
    pub outer: RoleId,
}

/// A card's name, as an effect or a query writes it (`"Wisp"`): found among
/// the game's cards when it runs, and among the deck's when checked (E0407).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardName {
    /// The name.
    pub name: Box<str>,
    /// Where it is written.
    pub span: Span,
}

/// Which cards of a pile a selection takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardPick {
    /// From the top (the end of an ordered pile).
    Top,
    /// From the bottom.
    Bottom,
    /// At random, from the state's generator.
    Random,
    /// Every one that matches.
    All,
    /// The seat the effect touches chooses, after the effect list (a discard).
    Chosen,
}

/// Cards an effect acts on: one a role names, or some of a pile.
#[derive(Clone, Debug, PartialEq)]
pub enum Cards {
    /// `:this-card`, `:self`, `:target`.
    One(Entity),
    /// `{:from ZONE :pick :random :count 2 :where …}`.
    Pick(Box<Selection>),
}

/// Some cards of a pile: `{:from [:hand :you] :pick :random :count 1 :where c}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// Where they are: a pile, or the cards beside one.
    pub from: Source,
    /// Which.
    pub pick: CardPick,
    /// How many (every one, for [`CardPick::All`]).
    pub count: Int,
    /// Only the cards for which this holds, with `:self` bound.
    pub filter: Option<Bool>,
    /// How many roles were bound around the form: `:self` is the next.
    pub outer: RoleId,
}

/// Where in a pile a card is put.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// On top (a board's next slot).
    Top,
    /// At the bottom.
    Bottom,
    /// At a random place.
    Random,
    /// In this slot of a board.
    Slot(Int),
}

/// Where cards go: a pile, and the place in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Dest {
    /// The pile.
    pub zone: ZoneRef,
    /// The place.
    pub at: Place,
}

/// What a card effect does.
#[derive(Clone, Debug, PartialEq)]
pub enum CardVerb {
    /// `{:draw N}`: the effected seat draws N cards (the effect's amount)
    /// into `to`, from this pile, or else from what `to`'s zone `:draws-from`.
    Draw(Option<ZoneRef>),
    /// `{:discard N}`: the effected seat discards the cards selected to `to`.
    Discard,
    /// `{:move …}`: the cards selected go to `to`.
    Move,
    /// `{:shuffle ZONE}`.
    Shuffle(ZoneRef),
    /// `{:look …}`: the effected seat sees the cards selected, and knows them.
    Look,
    /// `{:reveal …}`: every seat (or this one) sees the cards selected.
    Reveal(Option<Entity>),
    /// `{:create "Wisp"}`: the effect's amount of new cards of that name go to `to`.
    Create(CardName),
    /// `{:destroy …}`: the cards selected fall: their `:on-removed` runs (in
    /// play), and each goes where its zone's `:leaves-to` says.
    Destroy,
    /// `{:remove …}`: the cards selected leave the game.
    Remove,
    /// `{:pass [:pack] :to :next}`: every seat's pile of each of these
    /// zones (one per seat) moves, whole and in order, to the next seat's
    /// (`true`) or the previous seat's (`false`), all at once.
    Pass(Box<[crate::ids::ZoneId]>, bool),
    /// `{:cancel :subject}`: the card a reaction answers is stopped: its
    /// effects do not run (only in a reaction card's effects).
    Cancel,
}

/// An effect on cards: `{:effected :you :draw 2}`, `{:move … :to …}`.
#[derive(Clone, Debug, PartialEq)]
pub struct CardOp {
    /// What it does.
    pub verb: CardVerb,
    /// The cards it acts on, where it acts on some.
    pub cards: Option<Cards>,
    /// Where they go, where they go somewhere.
    pub to: Option<Dest>,
}

/// A named formula applied: its definition, shared with every other use,
/// and the arguments.
#[derive(Clone, Debug)]
pub struct Formula {
    /// What it computes.
    pub def: std::sync::Arc<FormulaDef>,
    /// What its arguments are here.
    pub args: Box<[Int]>,
}

/// The same formula (one definition) with equal arguments: never a walk of
/// the body, which a chain of formulas makes exponential.
impl PartialEq for Formula {
    fn eq(&self, other: &Formula) -> bool {
        std::sync::Arc::ptr_eq(&self.def, &other.def) && self.args == other.args
    }
}

/// A named formula of the rule set's `:formulas`, as declared.
#[derive(Clone, Debug, PartialEq)]
pub struct FormulaDef {
    /// Its arguments' names, in order.
    pub args: Vec<String>,
    /// What it computes, with [`Int::Arg`] for its arguments.
    pub body: Int,
    /// The leaves of the body, each once, the formulas it uses included:
    /// what [`Int::leaves`] reports for a use, without walking the body again.
    pub leaves: Box<[Leaf]>,
    /// Whether the body uses another formula.
    pub nested: bool,
    /// The work one use of it does (its dice, `advantage`s, loops), its
    /// arguments' apart: the work estimate of the body, once.
    pub work: u64,
}

impl FormulaDef {
    /// A definition of `body` over `args`, its leaves gathered once;
    /// `nested` when the body uses another formula; `work` what one use does
    /// (the work estimate of the body).
    pub fn new(args: Vec<String>, body: Int, nested: bool, work: u64) -> FormulaDef {
        let mut leaves: Vec<Leaf> = Vec::new();
        body.leaves(&mut |leaf| {
            if !leaves.contains(&leaf) {
                leaves.push(leaf);
            }
        });
        FormulaDef {
            args,
            work,
            body,
            leaves: leaves.into(),
            nested,
        }
    }
}

/// A lookup table of the rule set's `:lookups`: ranges of numbers, each
/// with its value, in order, neither overlapping nor leaving gaps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Lookup {
    /// `(low, high, value)`, both ends included, sorted by `low`.
    pub ranges: Box<[(i64, i64, i64)]>,
    /// The value of a number outside every range.
    pub default: i64,
}

impl Lookup {
    /// The value for `x`.
    pub fn get(&self, x: i64) -> i64 {
        // The last range starting at or below x is the only one that can hold it.
        let i = self.ranges.partition_point(|&(lo, _, _)| lo <= x);
        match i.checked_sub(1).map(|i| self.ranges[i]) {
            Some((_, hi, v)) if x <= hi => v,
            _ => self.default,
        }
    }
}

/// A query over entities: `[count …]`, `[sum …]`, `[max-of …]`, `[min-of …]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Over {
    /// The entities: of a kind in play, or the cards of a pile.
    pub source: Source,
    /// What is summed for each (`[sum …]`; 1 for `[count …]`), with `:self` bound.
    pub value: Int,
    /// Only the entities for which this holds, with `:self` bound.
    pub filter: Option<Bool>,
    /// How many roles were bound around the form: `:self` is the next.
    pub outer: RoleId,
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
    /// `[has :you :power]`: whether an entity holds a status that matches.
    /// (Boxed whole: a filter beside the entity would make every condition bigger.)
    Has(Box<(Entity, Filter)>),
    /// `[= :holder :you]`: the two names are bound to the same entity.
    Same(Box<Entity>, Box<Entity>),
    /// `[named card "Guard"]`: the entity is an instance of the card of that name.
    Named(Box<(Entity, CardName)>),
    /// `[of-kind card :minion]`: the entity is of the kind (a card out of
    /// play, of the kind it has in play).
    OfKind(Box<Entity>, KindId),
    /// `[in card ZONE]`: the card is in the pile.
    In(Box<(Entity, ZoneRef)>),
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
    /// `:acquire`, `:dispel`, `:extend`: a change to an entity's statuses.
    Status(Box<StatusOp>),
    /// `{:each :tile :where … :effects […]}`: effects run once for each entity
    /// of a kind in play (the effect's own `:effected` and `:amount` unused).
    Each(Box<Each>),
    /// `{:spawn :tile :values {…}}`: a new entity of a kind enters play.
    Spawn(Box<Spawn>),
    /// `{:run :skill-start}`: a timing's hooks run now, the rule set's and
    /// its statuses', for the effected entity (or each entity of the timing's
    /// `:each` kind).
    Run(TimingId),
    /// `{:queue …}`: a change to the turn queue, made by the engine (outside
    /// a game, `eval` lists it).
    Queue(Box<QueueOp>),
    /// An effect on cards in zones: a draw, a discard, a move, a shuffle, a
    /// look, a reveal, a card made, destroyed or removed.
    Cards(Box<CardOp>),
}

/// A change to the turn queue.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueOp {
    /// `{:queue :turns :kind :classic}`: the effect's amount of extra turns of
    /// this turn kind for the effected entity, at the front of the queue.
    Turns(TurnKindId),
    /// `{:queue :timed :run :bomb …}`: an entry after the effect's amount of
    /// reorders that runs this timing (at the moment `:run`) for the effected
    /// entity, with the roles of where it was queued.
    Timed(TimingId),
}

/// A new entity: its kind and the values that differ from the defaults,
/// computed where the effect runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Spawn {
    /// The kind, by index in the rule set's `:kinds`.
    pub kind: KindId,
    /// Its values.
    pub values: Vec<(AttrId, Int)>,
}

/// Effects run once for each entity of a kind (or card of a pile), with `:self` bound to it; or,
/// without a kind (`{:when condition :effects […]}`), once if the condition
/// holds, with nothing more bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Each {
    /// The entities: of a kind in play, or the cards of a pile; `None` for `{:when …}`.
    pub source: Option<Source>,
    /// Only the entities for which this holds.
    pub filter: Option<Bool>,
    /// What is run for each.
    pub effects: Vec<Effect>,
    /// How many roles were bound around the form when it was checked: `:self`
    /// is the next, whatever else the frame carries.
    pub outer: RoleId,
}

/// Buff or debuff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Polarity {
    /// Good for its holder.
    Buff,
    /// Bad for its holder.
    Debuff,
}

/// Which statuses a query, a dispel or a block matches: every part given must
/// hold; an empty filter matches every status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// This status.
    pub status: Option<StatusId>,
    /// A status of one of these categories (bit `i`: category `i`); 0 for any.
    pub categories: u64,
    /// A buff or a debuff.
    pub polarity: Option<Polarity>,
    /// A status that sets this flag.
    pub flag: Option<FlagId>,
}

impl Filter {
    /// True if the filter has no part: it matches every status.
    pub fn is_any(&self) -> bool {
        *self == Filter::default()
    }
}

/// The bit a filter's `categories` sets for category `c` (none past 64).
#[inline]
pub fn category_bit(c: CategoryId) -> u64 {
    1u64.checked_shl(c.index() as u32).unwrap_or(0)
}

/// The most categories a rule set may declare: a filter holds them as bits.
pub const MAX_CATEGORIES: usize = 64;

/// Which of the matching statuses a dispel removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Chosen by the state's generator.
    Random,
    /// The first acquired.
    Oldest,
    /// The last acquired.
    Newest,
    /// The one with the most turns left (the oldest of equals).
    MostLeft,
    /// The one with the fewest turns left (the oldest of equals).
    LeastLeft,
    /// Every one: the amount is ignored.
    All,
}

/// A change to statuses, made by an effect.
#[derive(Clone, Debug, PartialEq)]
pub enum StatusOp {
    /// `{:acquire :weakness}`: the entity acquires the status, with the amount as
    /// its magnitude, through blocks and stacking; `:lasts` overrides its duration.
    Acquire {
        /// Which status.
        status: StatusId,
        /// How many counts of its timing it lasts, instead of its definition's.
        lasts: Option<Int>,
    },
    /// `{:dispel :debuff :pick :oldest}`: removes as many matching statuses as the amount.
    Dispel {
        /// Which statuses may go.
        filter: Filter,
        /// Which of them go first.
        pick: Pick,
    },
    /// `{:extend :buff}`: adds the amount to the turns left of every matching status.
    Extend {
        /// Which statuses change.
        filter: Filter,
    },
}

/// What acquiring a status its holder already has does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stacking {
    /// Its turns left are reset; nothing else happens.
    Refresh,
    /// A new instance beside the old.
    Independent,
    /// One more stack, up to this many, and its turns left are reset.
    Stack(u8),
}

/// A change to one attribute while a status is active.
#[derive(Clone, Debug, PartialEq)]
pub struct Modifier {
    /// The attribute.
    pub attr: AttrId,
    /// Added to its base value, once per stack.
    pub add: Option<Int>,
    /// The sum is multiplied by it, once per stack.
    pub mul: Option<Dec>,
}

/// What a status blocks: statuses its holder would acquire.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Which statuses are blocked.
    pub filter: Filter,
    /// The chance each is blocked; always, without one.
    pub chance: Option<Dec>,
    /// How many it blocks before it ends; unlimited, without.
    pub charges: Option<u16>,
    /// A blocked status goes to its source instead.
    pub reflect: bool,
}

/// A checked status definition.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusDef {
    /// Buff or debuff.
    pub polarity: Polarity,
    /// Its category.
    pub category: Option<CategoryId>,
    /// What its output is computed from (`:base`), one of the rule set's `:bases`.
    pub base: Option<crate::ids::BaseId>,
    /// How many times which timing passes before it runs out; `None`: until removed.
    pub lasts: Option<(u32, TimingId)>,
    /// What acquiring it again does.
    pub stacking: Stacking,
    /// Effects run once on acquiring it (and on each new stack); they stay after it ends.
    pub on_acquire: Vec<Effect>,
    /// Changes to attributes while active.
    pub modifiers: Vec<Modifier>,
    /// Flags set while active.
    pub flags: Vec<FlagId>,
    /// What it blocks while active.
    pub blocks: Option<Block>,
    /// Effects run at timings while active, by timing.
    pub hooks: Vec<(TimingId, Vec<Effect>)>,
    /// Effects run when it runs out.
    pub on_expire: Vec<Effect>,
    /// Effects run when it is removed before that.
    pub on_remove: Vec<Effect>,
    /// Effect lists run one after another, the i-th at the i-th time its
    /// `:lasts` timing passes (before the countdown).
    pub segments: Vec<Vec<Effect>>,
    /// When it leaves its holder (its `:on-remove` runs): checked after every
    /// change, with `:holder`, `:source` and `:magnitude` bound.
    pub removed_when: Option<Bool>,
    /// Turns (by turn kind) its holder has in the base queue while it is
    /// active, after its kind's: a passive that gives an extra turn a round.
    pub turns: Vec<TurnKindId>,
    /// Left out of what a player is shown: their screen's statuses and log
    /// lines (a spectator's log marks it); the holder does not know it has it.
    pub invisible: bool,
}

impl StatusDef {
    /// Every effect list it runs, each with the key it is written under:
    /// `on-acquire`, `on-expire`, `on-remove`, then each hook and each segment.
    pub fn effect_lists(&self) -> impl Iterator<Item = (&'static str, &[Effect])> {
        [
            ("on-acquire", self.on_acquire.as_slice()),
            ("on-expire", self.on_expire.as_slice()),
            ("on-remove", self.on_remove.as_slice()),
        ]
        .into_iter()
        .chain(
            self.hooks
                .iter()
                .map(|(_, list)| ("hooks", list.as_slice())),
        )
        .chain(
            self.segments
                .iter()
                .map(|list| ("segments", list.as_slice())),
        )
    }

    /// Does this status match `filter`, being status `id`?
    #[inline]
    pub fn matches(&self, id: StatusId, filter: &Filter) -> bool {
        filter.status.is_none_or(|s| s == id)
            && (filter.categories == 0
                || self
                    .category
                    .is_some_and(|c| filter.categories & category_bit(c) != 0))
            && filter.polarity.is_none_or(|p| self.polarity == p)
            && filter.flag.is_none_or(|f| self.flags.contains(&f))
    }
}

impl Default for StatusDef {
    /// A buff that does nothing and lasts until removed: what a status whose
    /// definition did not check stands for, so indices stay stable.
    fn default() -> StatusDef {
        StatusDef {
            polarity: Polarity::Buff,
            category: None,
            base: None,
            lasts: None,
            stacking: Stacking::Refresh,
            on_acquire: Vec::new(),
            modifiers: Vec::new(),
            flags: Vec::new(),
            blocks: None,
            hooks: Vec::new(),
            on_expire: Vec::new(),
            on_remove: Vec::new(),
            segments: Vec::new(),
            removed_when: None,
            turns: Vec::new(),
            invisible: false,
        }
    }
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

/// The most cards a zone may hold (`:capacity`): what one draw or one
/// `:create` makes at most, and a loop over a pile visits.
pub const MAX_PILE: u16 = 1000;

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
    /// A read or change of statuses, not of one attribute.
    Status,
    /// A read over every entity of a kind (`count`, `sum`), or of cards in zones, not of one attribute.
    Entities,
}

impl Int {
    /// Calls `f` on every leaf, conditions included, in source order (a
    /// formula's leaves once each, as its definition gathered them).
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
            Int::Dice(_) => f(Leaf::Draw),
            Int::Roll(r) => {
                f(Leaf::Draw);
                r.1.leaves(f);
            }
            Int::Lookup(l) => l.1.leaves(f),
            Int::Formula(call) => {
                call.def.leaves.iter().for_each(|&leaf| f(leaf));
                call.args.iter().for_each(|a| a.leaves(f));
            }
            // An argument's leaves are its value's, walked with the arguments.
            Int::Arg(_) => {}
            // A number of the chosen option: no attribute, no chance.
            Int::Choice(_) => {}
            // A number of the event a trigger runs for: read, not drawn.
            Int::Event(_) => f(Leaf::Amount),
            Int::Best(_, a) => {
                f(Leaf::Draw);
                a.leaves(f);
            }
            Int::Magnitude => f(Leaf::Amount),
            Int::Statuses(who, _) | Int::TurnsLeft(who, _) => {
                f(Leaf::Status);
                who.leaves(f);
            }
            Int::Abs(a) => a.leaves(f),
            Int::Count(over) | Int::Sum(over) | Int::Extreme(_, over) => {
                f(Leaf::Entities);
                over.source.leaves(f);
                over.value.leaves(f);
                if let Some(c) = &over.filter {
                    c.leaves(f);
                }
            }
            Int::Edge(_, edge) => {
                f(Leaf::Entities);
                edge.zone.leaves(f);
                edge.value.leaves(f);
                edge.default.leaves(f);
            }
            Int::Slot(who) => {
                f(Leaf::Entities);
                who.leaves(f);
            }
        }
    }
}

impl ZoneRef {
    /// Calls `f` on every leaf of the expression that names its owner.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        if let Some(owner) = &self.owner {
            owner.leaves(f);
        }
    }
}

impl Source {
    /// Calls `f` on every leaf of what names the pile or the card.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Source::Kind(_) => {}
            Source::Zone(z) => z.leaves(f),
            Source::Adjacent(who) => who.leaves(f),
        }
    }
}

impl CardOp {
    /// Calls `f` on every leaf of what it reads, and [`Leaf::Draw`] where it
    /// may draw from the generator (a draw may reshuffle; a random pick or
    /// place; a shuffle).
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        f(Leaf::Entities);
        let mut draws = matches!(self.verb, CardVerb::Draw(_) | CardVerb::Shuffle(_));
        match &self.verb {
            CardVerb::Draw(Some(z)) | CardVerb::Shuffle(z) => z.leaves(f),
            CardVerb::Reveal(Some(who)) => who.leaves(f),
            _ => {}
        }
        match &self.cards {
            Some(Cards::One(who)) => who.leaves(f),
            Some(Cards::Pick(sel)) => {
                draws |= sel.pick == CardPick::Random;
                sel.from.leaves(f);
                sel.count.leaves(f);
                if let Some(c) = &sel.filter {
                    c.leaves(f);
                }
            }
            None => {}
        }
        if let Some(to) = &self.to {
            to.zone.leaves(f);
            match &to.at {
                Place::Random => draws = true,
                Place::Slot(n) => n.leaves(f),
                Place::Top | Place::Bottom => {}
            }
        }
        if draws {
            f(Leaf::Draw);
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
            Bool::Has(has) => {
                let who = &has.0;
                f(Leaf::Status);
                who.leaves(f);
            }
            Bool::Same(a, b) => {
                a.leaves(f);
                b.leaves(f);
            }
            Bool::Named(named) => {
                f(Leaf::Entities);
                named.0.leaves(f);
            }
            Bool::OfKind(who, _) => {
                f(Leaf::Entities);
                who.leaves(f);
            }
            Bool::In(is_in) => {
                f(Leaf::Entities);
                is_in.0.leaves(f);
                is_in.1.leaves(f);
            }
        }
    }
}

impl Entity {
    /// Calls `f` on every leaf of the conditions that choose the entity.
    pub fn leaves(&self, f: &mut impl FnMut(Leaf)) {
        match self {
            Entity::Role(_) | Entity::Target | Entity::ThisCard => {}
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
            Resource::Status(op) => {
                f(Leaf::Status);
                match &**op {
                    // A random pick draws from the generator.
                    StatusOp::Dispel {
                        pick: Pick::Random, ..
                    } => f(Leaf::Draw),
                    StatusOp::Acquire {
                        lasts: Some(lasts), ..
                    } => lasts.leaves(f),
                    _ => {}
                }
            }
            Resource::If(c, a, b) => {
                c.leaves(f);
                a.leaves(f);
                b.leaves(f);
            }
            Resource::Spawn(spawn) => {
                f(Leaf::Status);
                spawn.values.iter().for_each(|(_, v)| v.leaves(f));
            }
            // What a timing's hooks (its statuses' above all) do is not known here.
            // What runs later (a timing's hooks, a queued entry) may do anything a status does.
            Resource::Run(_) | Resource::Queue(_) => f(Leaf::Status),
            Resource::Cards(op) => {
                // A card moved may enter or leave play: as much as a status change.
                f(Leaf::Status);
                op.leaves(f);
            }
            Resource::Each(each) => {
                // What the nested effects read is not known before they run.
                f(Leaf::Status);
                if let Some(source) = &each.source {
                    source.leaves(f);
                }
                if let Some(c) = &each.filter {
                    c.leaves(f);
                }
                each.effects.iter().for_each(|e| e.leaves(f));
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

#[cfg(test)]
mod tests {
    use super::Lookup;

    #[test]
    fn a_lookup_finds_the_range_holding_a_number() {
        let bands = Lookup {
            ranges: vec![(1, 3, 3), (4, 9, 5), (10, i64::MAX, 10)].into(),
            default: -1,
        };
        let got: Vec<i64> = [i64::MIN, 0, 1, 3, 4, 9, 10, 1000, i64::MAX]
            .iter()
            .map(|&x| bands.get(x))
            .collect();
        assert_eq!(got, [-1, -1, 3, 3, 5, 5, 10, 10, 10]);
        assert_eq!(Lookup::default().get(5), 0);
    }
}
