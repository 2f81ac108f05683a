//! The diagnostic codes: one stable code per kind of problem a designer fixes,
//! whatever the message's wording and wherever it is raised.
//!
//! `E` codes are errors, `W` codes warnings; the hundreds say the area:
//!
//! | codes | area |
//! |---|---|
//! | E00xx | the shape of any map or value: keys, types, ranges, names declared twice, limits |
//! | E01xx | the reader: text that is not well-formed |
//! | E02xx | expressions and effects, and the rule-set names they use |
//! | E03xx | rule-set files |
//! | E04xx | definitions files: cards, named effects, statuses |
//! | E05xx | spreadsheets (`.csv`) and markdown tables (`.md`) |
//! | E06xx | scenario files |
//! | E07xx | loading: files, rule sets, decks, `eval`'s state and arguments |
//! | E08xx | running: the budgets an evaluation may not pass |
//! | W0xxx | warnings, by the same areas |
//!
//! A code is never reused for another kind, and never renumbered; what each
//! means, why it happens and an example are in [`super::catalogue`].

use crate::dice::DiceFault;
use crate::syntax::{Form, Kind, ReadError};

/// Declares [`Code`]: each variant with its code, `Variant = "E0001"`.
macro_rules! codes {
    ($($(#[$doc:meta])* $var:ident = $code:literal,)+) => {
        /// A kind of diagnostic, shown as its code (`E0204`) in the human
        /// rendering and as `"code"` in JSON.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $($(#[$doc])* $var,)+
        }

        impl Code {
    /// The code for `found` where a whole number in a range belongs: a number
    /// outside it is [`Code::OutOfRange`], anything else [`Code::WrongType`].
    pub fn whole_number(found: &Form<'_>) -> Code {
        if matches!(found.kind, Kind::Int(_)) {
            Code::OutOfRange
        } else {
            Code::WrongType
        }
    }

            /// Every code, in the order of their numbers.
            pub const ALL: &'static [Code] = &[$(Code::$var),+];

            /// The code as written: `"E0204"`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$var => $code,)+
                }
            }
        }
    };
}

codes! {
    // E00xx: the shape of any map or value.
    /// `[:a 1]` where `{:a 1}` belongs: a map was expected (a definition, an
    /// effect, a section of a rule set, a scenario's values).
    NotAMap = "E0001",
    /// `{:effected :you :amout 1}`: a key this kind of map does not take.
    UnknownKey = "E0002",
    /// `{effected :you}`: a key written as a symbol, without its colon.
    SymbolKey = "E0003",
    /// `{"wall" 1}`: a key or declared name that is not a keyword.
    KeyNotKeyword = "E0004",
    /// `{:effected :you :resource :wall}`: a key the map needs is missing.
    MissingKey = "E0005",
    /// `:text 1` where a string belongs: a value of the wrong type.
    WrongType = "E0006",
    /// `:cost -3`: a whole number outside the range its key allows.
    OutOfRange = "E0007",
    /// `{:you {:wall -1}}` where `:wall` has `:min 0`: a value outside an attribute's bounds.
    OutOfBounds = "E0008",
    /// `:at :trun-start`: a keyword that must be one of a fixed few (a moment,
    /// a polarity, a stacking policy) and is not.
    NotOneOf = "E0009",
    /// `:kinds {:rock "…"}` declared twice, or a name used for two things.
    Duplicate = "E0010",
    /// More of something than the engine allows (seats, arguments, effects, entities).
    TooMany = "E0011",
    /// `{:card ""}`: a name or header that is empty.
    EmptyName = "E0012",
    /// A text that must hold one form (a rule-set file, the effects given to
    /// `eval`, the expression given to `roll`) holds none or several.
    OneForm = "E0013",

    // E01xx: the reader.
    /// `[1 2`: a collection that is never closed.
    Unclosed = "E0101",
    /// `[1 2)` or a `]` alone: a closer that does not match what is open.
    UnexpectedCloser = "E0102",
    /// `// note`: a comment written as in C; comments start with `;`.
    SlashComment = "E0103",
    /// `{:a 1 :b}`: a map with a key and no value.
    OddMap = "E0104",
    /// `{:amount 1 :amount 2}`: a key written twice in one map.
    DuplicateKey = "E0105",
    /// `#{:a :a}`: an element written twice in one set.
    DuplicateElement = "E0106",
    /// `99999999999999999999`, `1e999`: a number too large to hold.
    NumberTooLarge = "E0107",
    /// `1.2.3`, `12ab`: a token that starts like a number and is not one.
    BadNumber = "E0108",
    /// `"abc`: a string that is never closed.
    UnclosedString = "E0109",
    /// `"\q"`, `"\u00"`: an escape in a string that the reader does not know.
    BadEscape = "E0110",
    /// `::quarry`: an auto-resolved keyword, which the language does not have.
    DoubleColon = "E0111",
    /// `:` alone: a keyword without a name.
    EmptyKeyword = "E0112",
    /// `#inst "…"`: a `#` form other than a set `#{…}` or a discard `#_`.
    UnsupportedDispatch = "E0113",
    /// `[#_]`: a discard `#_` with no form after it.
    NothingToDiscard = "E0114",
    /// `\a`, `@x`, a control character: a character that starts no form.
    UnexpectedChar = "E0115",
    /// Collections nested more than 200 deep.
    TooDeep = "E0116",
    /// A text larger than 4 GiB; a document larger than the language server checks.
    TooLarge = "E0117",
    /// A file whose bytes are not UTF-8 text.
    NotUtf8 = "E0118",
    /// `grimoire fmt` would change what a file means: an internal error, and
    /// the file is left as it was.
    FormatterUnsafe = "E0119",

    // E02xx: expressions and effects, and the names they use.
    /// `:effected :yuo`: a role the rule set does not declare, or one not bound here.
    UnknownRole = "E0201",
    /// `:target` outside an operation's `:effects`, where nothing binds it.
    UnboundTarget = "E0202",
    /// `:amount :wall`: a keyword where a number belongs that names no number
    /// here (an attribute without its entity, an unknown param, `:amount` or
    /// `:magnitude` where they are not bound).
    KeywordNotNumber = "E0203",
    /// `[:you :wal]`: an attribute the rule set does not declare.
    UnknownAttribute = "E0204",
    /// `:resource :mana`: neither an attribute nor an operation of the rule set.
    UnknownResource = "E0205",
    /// `[=> a b]`: a symbol heading a vector that is no operator.
    UnknownOperator = "E0206",
    /// `[if c 1]`, `[formula :dc 1]`: an operator or formula given the wrong
    /// number of operands.
    Arity = "E0207",
    /// `:amount [< a b]`: a condition where a number belongs.
    ConditionNotNumber = "E0208",
    /// `[if 1 2 3]`: a number where a condition belongs.
    NumberNotCondition = "E0209",
    /// `:amount "3"`: a string, list or other non-number where a number belongs.
    NotANumber = "E0210",
    /// `:amount 1.5`: a decimal where a whole number belongs.
    DecimalNotInteger = "E0211",
    /// `[:you :wall :tower]`: a smart value that is not `[role attribute]`.
    SmartValueShape = "E0212",
    /// `[:other :damage]`: an operation read as a stored value.
    OperationRead = "E0213",
    /// `:resource :damage :set true`: an operation set instead of applied.
    OperationSet = "E0214",
    /// `{:acquire :rot :set true}`: `:set` on a change to statuses.
    StatusChangeSet = "E0215",
    /// `{:resource :wall :acquire :rot}`: one effect that changes two things.
    TwoChanges = "E0216",
    /// `{:resource :wall :pick :oldest}`: a key that belongs to another kind of effect.
    KeyNotHere = "E0217",
    /// `:effects "wall"`: effects not written as a vector of effect maps.
    EffectsNotVector = "E0218",
    /// `{:at-once …}` with other keys, nested, empty or over 16 effects.
    AtOnce = "E0219",
    /// `{:run :turn-start}`: an effect running a timing the turn machine runs by itself.
    NotRunTiming = "E0220",
    /// `:hooks {:turn-strat …}`: a timing the rule set does not declare.
    UnknownTiming = "E0221",
    /// `{:each :rock …}`: a kind the rule set does not declare.
    UnknownKind = "E0222",
    /// `:acquire :glow`: a status no definition defines.
    UnknownStatus = "E0223",
    /// `:category :fire`: a category the rule set does not declare.
    UnknownCategory = "E0224",
    /// `:flags [:stun]`: a flag the rule set does not declare.
    UnknownFlag = "E0225",
    /// `:dispel :rott`: a filter keyword that names no status, category, flag or polarity.
    FilterNoMatch = "E0226",
    /// A status filter that is empty or names two of one sort.
    FilterShape = "E0227",
    /// `:kind :slow`: a turn kind the rule set does not declare.
    UnknownTurnKind = "E0228",
    /// `[choice :dodge]` where no option is chosen.
    NothingChosen = "E0229",
    /// `[choice :dodgee]`: a field no option of the choice gives.
    UnknownField = "E0230",
    /// `:choose :body-prt`: a choice the rule set does not declare.
    UnknownChoice = "E0231",
    /// `[lookup :damages x]`: a lookup table the rule set does not declare.
    UnknownLookup = "E0232",
    /// `[formula :stamna x]`: a formula the rule set does not declare.
    UnknownFormula = "E0233",
    /// `3d`, `3d6x`: dice written in a shape the language does not read.
    DiceShape = "E0234",
    /// `0d6`, `1d0`, `2d6kh2`: dice whose count, faces, kept dice or modifier
    /// are out of range.
    DiceRange = "E0235",
    /// `[chance 0.5]` in a condition checked outside effects (an action's, a
    /// turn-order key, `:removed-when`), where drawing chance is not allowed.
    ChanceNotAllowed = "E0236",
    /// Effects that expand, through operations, to more changes than allowed.
    ExpandsTooFar = "E0237",
    /// `:base :OutgoingDamge` (or a table's base cell): a base the rule set does not declare.
    UnknownBase = "E0238",
    /// `[:hnad :you]`: a zone the rule set's `:zones` does not declare, in an
    /// effect or a query on cards.
    UnknownZone = "E0239",
    /// `:hand` without its owner for a zone per seat, or `[:deck :you]` giving
    /// a shared zone an owner.
    ZoneOwner = "E0240",
    /// A draw from, a top or bottom of, or a place at the top or bottom of a
    /// zone that is not `:ordered`.
    NotOrdered = "E0241",
    /// `:slot 9` on a board of 7, or `:slot` on a zone without `:slots`.
    NoSuchSlot = "E0242",
    /// An effect on cards, a query of zones or `:this-card` in a rule set
    /// without `:zones`.
    ZonesNeeded = "E0243",
    /// `:first :chmop`: a script naming a move its kind's `:moves` does not declare.
    UnknownMove = "E0244",

    // E03xx: rule-set files.
    /// `:roles {}`, `:kinds {}`: a section or entry that must declare
    /// something and declares nothing.
    EmptyDeclaration = "E0301",
    /// `:attributes {:target …}`: a name the engine binds itself.
    Reserved = "E0302",
    /// `{:min 5 :max 1}` or a `:default` outside `:min`..`:max`.
    AttributeBounds = "E0303",
    /// Operations that apply each other in a loop.
    OperationLoop = "E0304",
    /// Fewer seats than roles: each role names a different seat.
    SeatsAndRoles = "E0305",
    /// A lookup table whose ranges overlap, leave a gap or run backwards.
    LookupRanges = "E0306",
    /// Options of one choice that do not give the same fields.
    OptionFields = "E0307",
    /// `:setup` giving a seat a `:kind` or a `:for`.
    SeatSetup = "E0308",
    /// A `:setup` `:for` range that is empty or too long.
    ForRange = "E0309",
    /// A `:tables` shape whose columns cannot make rows: no `:status` or
    /// `:category` column, or two of one.
    TableColumns = "E0310",
    /// A `:tables` column meaning given the wrong number of arguments.
    ColumnShape = "E0311",
    /// A status the rule set's `:statuses` declares that no definitions file
    /// checked with it defines.
    StatusNeverDefined = "E0312",
    /// `:cards :hand-size` or `:cards :deck` beside `:zones`, which say how
    /// cards are dealt and held.
    CardsAndZones = "E0313",
    /// Zones that cannot work together: `:visible :owner` on a shared zone,
    /// two `:plays` zones, a draw from a zone that is not ordered, a
    /// reshuffle between zones laid out differently, a deal or refill past
    /// the capacity, `:zones` with no kind of card, `:plays :many` without `:zones`.
    ZoneRules = "E0314",
    /// A `:script` that cannot choose: no `:moves`, both `:sequence` and
    /// `:pick`, or moves given to the seats' kind, a kind of card or a kind
    /// that takes no turn; an `:instead` never read or nested.
    MoveScript = "E0315",

    // E04xx: definitions.
    /// A top-level form of a definitions file that is not `{:card …}`,
    /// `{:effect …}` or `{:status …}`.
    NotADefinition = "E0401",
    /// `:type :gold`: a card paid in what the rule set's `:cards :pay-with` does not list.
    UnknownCardType = "E0402",
    /// Two cards, effects or statuses of one rule set with the same name.
    DefinedTwice = "E0403",
    /// A status's `:segments` without `:lasts`, or more of them than it lasts.
    Segments = "E0404",
    /// A status modifier with neither `:add` nor `:mul`.
    EmptyModifier = "E0405",
    /// A status whose effects are not computed from its `:base`: they never
    /// use its base's attributes, or use another base's.
    BaseDisagrees = "E0406",
    /// `{:create "Wsip"}`, `[named :self "Gaurd"]`: a card name no card of the deck has.
    UnknownCardName = "E0407",
    /// `{:cancel :subject}` in effects that are not a reaction card's.
    CancelOutsideReaction = "E0408",

    // E05xx: spreadsheets and markdown tables.
    /// A spreadsheet cell whose opening quote is never closed.
    CsvUnclosedQuote = "E0501",
    /// Text after a quoted spreadsheet cell's closing quote.
    CsvTextAfterQuote = "E0502",
    /// A spreadsheet with no header row.
    CsvNoHeader = "E0503",
    /// A spreadsheet column that is not a card key.
    CsvUnknownColumn = "E0504",
    /// A spreadsheet without one of the columns every card needs.
    CsvMissingColumn = "E0505",
    /// A row (of a spreadsheet or a markdown table) with more or fewer cells
    /// than its header.
    RowLength = "E0506",
    /// An empty spreadsheet cell where a value is needed.
    CsvEmptyCell = "E0507",
    /// A spreadsheet cell holding two values.
    CsvTwoValues = "E0508",
    /// A markdown table naming a category the rule set does not declare.
    TableUnknownCategory = "E0509",
    /// A markdown status-table row whose status cell is empty.
    TableRowUnnamed = "E0510",
    /// A markdown row naming no status, in a table that cannot define one.
    TableUnknownStatus = "E0511",
    /// A markdown row whose status cannot be told buff or debuff.
    TablePolarity = "E0512",
    /// A markdown table and a status's definition that disagree: category,
    /// polarity, base or a figure.
    TableDisagrees = "E0513",
    /// A markdown figure cell that is not a whole number.
    TableFigure = "E0514",
    /// One status named twice in tables of one shape.
    TableRowTwice = "E0515",

    // E06xx: scenarios.
    /// A scenario naming another rule set than the one it is run with.
    ScenarioRules = "E0601",
    /// A scenario with no `:expect` and no `:log`.
    ExpectsNothing = "E0602",
    /// A scenario step or expectation written in the wrong shape.
    StepShape = "E0603",
    /// A scenario playing a card the deck does not hold.
    UnknownCard = "E0604",
    /// A scenario using an action the rule set does not declare.
    UnknownAction = "E0605",
    /// A scenario's action step with its target or option missing or unknown.
    ActionOption = "E0606",
    /// A scenario or `eval` naming an entity that is neither a role nor a
    /// seat or `:setup` entity.
    UnknownEntity = "E0607",

    // E07xx: loading.
    /// A file with no forms in it.
    EmptyFile = "E0701",
    /// A file checked without a rule set: not in a folder named after one, no `--rules`.
    WhichRuleSet = "E0702",
    /// A rule set named that is neither bundled nor a readable, valid file.
    RuleSetUnavailable = "E0703",
    /// The deck a scenario needs cannot be loaded.
    DeckUnavailable = "E0704",
    /// An `eval --state` file that is not a state.
    BadStateFile = "E0705",
    /// An `eval --set` or `--status` argument in the wrong shape.
    BadEvalArgument = "E0706",
    /// A definitions file whose rule set is among the files checked but has errors.
    RuleSetHasErrors = "E0707",
    /// A project's manifest (`grimoire.edn`) that is not `{:project "NAME"}`.
    BadManifest = "E0708",
    /// A project's `rules/X.edn` whose `:rules` is not `:X`.
    RuleSetMisnamed = "E0709",

    // E08xx: running.
    /// An evaluation that ran out of a budget: too much work in one step, or
    /// too many statuses held at once.
    BudgetExhausted = "E0801",

    // Warnings.
    /// More diagnostics in one file than `check` shows.
    MoreNotShown = "W0001",
    /// A card's text claims a change its effects do not make.
    TextDisagrees = "W0401",
    /// A card's text and its `:play-again` disagree.
    PlayAgainDisagrees = "W0402",
    /// A card with a `:cost` and no `:type` to pay it in: it is free.
    CostWithoutType = "W0403",
    /// A status that acquires itself again, through its own effects or
    /// others', stacking `:independent`: its instances can multiply without end.
    StatusAcquiresItself = "W0404",
    /// A card's trigger whose own effect, run whatever happens, makes an
    /// event of the sort it waits for: it runs itself again until the
    /// engine's trigger budget stops it.
    TriggerLoops = "W0405",
    /// A markdown row naming a status with no definition and no description.
    RowUndefined = "W0501",
    /// A markdown row that becomes a status which does nothing.
    RowDoesNothing = "W0502",
    /// A markdown table's trigger that is not a timing the definition acts at.
    TriggerDisagrees = "W0503",
}

impl Code {
    /// The code written as `E0204` or `W0401` (either case), if it is one.
    pub fn parse(text: &str) -> Option<Code> {
        let text = text.trim();
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text))
    }

    /// Whether diagnostics of this code are warnings (`W`) rather than errors (`E`).
    pub fn is_warning(self) -> bool {
        self.as_str().starts_with('W')
    }
}

/// A code is written as its string, `"E0204"`, in JSON.
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&ReadError> for Code {
    fn from(e: &ReadError) -> Code {
        match e {
            ReadError::Unclosed { .. } => Code::Unclosed,
            ReadError::UnexpectedCloser { .. } => Code::UnexpectedCloser,
            ReadError::SlashComment { .. } => Code::SlashComment,
            ReadError::OddMap { .. } => Code::OddMap,
            ReadError::DuplicateKey { .. } => Code::DuplicateKey,
            ReadError::DuplicateElement { .. } => Code::DuplicateElement,
            ReadError::IntOverflow { .. } | ReadError::DecimalOutOfRange { .. } => {
                Code::NumberTooLarge
            }
            ReadError::BadNumber { .. } => Code::BadNumber,
            ReadError::UnclosedString { .. } => Code::UnclosedString,
            ReadError::BadEscape { .. } | ReadError::BadUnicodeEscape { .. } => Code::BadEscape,
            ReadError::DoubleColon { .. } => Code::DoubleColon,
            ReadError::BadKeyword { .. } => Code::EmptyKeyword,
            ReadError::UnsupportedDispatch { .. } => Code::UnsupportedDispatch,
            ReadError::NothingToDiscard { .. } => Code::NothingToDiscard,
            ReadError::UnexpectedChar { .. } => Code::UnexpectedChar,
            ReadError::TooDeep { .. } => Code::TooDeep,
            ReadError::TooLarge(_) => Code::TooLarge,
        }
    }
}

impl From<DiceFault> for Code {
    fn from(fault: DiceFault) -> Code {
        match fault {
            DiceFault::Shape => Code::DiceShape,
            DiceFault::Range => Code::DiceRange,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_number_out_of_range_and_a_string_get_different_codes() {
        let arena = crate::syntax::Arena::new();
        let code = |text: &str| {
            let form = crate::syntax::read_one(&arena, text).expect("reads");
            Code::whole_number(&form)
        };
        assert_eq!(code("-3"), Code::OutOfRange);
        assert_eq!(code("\"3\""), Code::WrongType);
        assert_eq!(code(":three"), Code::WrongType);
    }

    #[test]
    fn codes_are_unique_well_formed_and_in_order() {
        let mut seen = std::collections::BTreeSet::new();
        for pair in Code::ALL.windows(2) {
            assert!(
                pair[0].as_str() < pair[1].as_str(),
                "{} before {}",
                pair[0],
                pair[1]
            );
        }
        for &code in Code::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert_eq!(s.len(), 5, "{s}");
            assert!(s.starts_with(['E', 'W']), "{s}");
            assert!(s[1..].bytes().all(|b| b.is_ascii_digit()), "{s}");
            assert_eq!(Code::parse(s), Some(code));
            assert_eq!(Code::parse(&s.to_lowercase()), Some(code));
        }
        assert_eq!(Code::parse("E9999"), None);
        assert_eq!(Code::parse("wall"), None);
    }
}
