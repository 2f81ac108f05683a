//! What each diagnostic code means, why it happens, and a minimal failing
//! example with its fix: the text `grimoire check --explain CODE` prints
//! ([`render`]). `tests/language/codes.rs` runs every example as its
//! [`Input`] says: the failing one must give its code, the fixed one nothing.

use super::Code;

/// What an example is, and so the command that checks it (run from the
/// repository root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A definitions file (cards, named effects, statuses) checked against a
    /// bundled rule set: `grimoire check --rules RULES FILE.edn`.
    Definitions(&'static str),
    /// A rule-set file: `grimoire check FILE.edn`.
    RuleSet,
    /// A scenario file: `grimoire check --rules arcomage FILE.edn` (a
    /// scenario's own `:rules` wins).
    Scenario,
    /// A card spreadsheet: `grimoire check --rules RULES FILE.csv`.
    Csv(&'static str),
    /// A markdown document of status tables: `grimoire check --rules RULES FILE.md`.
    Markdown(&'static str),
    /// A file checked with no rule set, outside any rule set's folder:
    /// `grimoire check FILE.edn`.
    Unruled,
    /// A definitions file whose failing example is saved in Latin-1, not
    /// UTF-8: `grimoire check --rules RULES FILE.edn`.
    Latin1(&'static str),
    /// A state file: `grimoire eval --rules arcomage --state FILE.ron '[]'`.
    StateFile,
    /// The arguments of a command: `grimoire ARGUMENTS`.
    Command,
    /// No input is known to produce it: an internal error, or a limit no
    /// example can reach in reasonable size.
    None,
}

impl Input {
    /// How the example is checked, for people.
    pub fn describe(self) -> String {
        match self {
            Input::Definitions(rules) => {
                format!(
                    "a definitions file, checked with `grimoire check --rules {rules} FILE.edn`"
                )
            }
            Input::RuleSet => "a rule-set file, checked with `grimoire check FILE.edn`".to_string(),
            Input::Scenario => {
                "a scenario file, checked with `grimoire check --rules arcomage FILE.edn`"
                    .to_string()
            }
            Input::Csv(rules) => {
                format!(
                    "a card spreadsheet, checked with `grimoire check --rules {rules} FILE.csv`"
                )
            }
            Input::Markdown(rules) => {
                format!(
                    "a markdown document, checked with `grimoire check --rules {rules} FILE.md`"
                )
            }
            Input::Unruled => {
                "a file outside any rule set's folder, checked with `grimoire check FILE.edn`"
                    .to_string()
            }
            Input::Latin1(rules) => format!(
                "a definitions file (the failing one saved in Latin-1), checked with `grimoire check --rules {rules} FILE.edn`"
            ),
            Input::StateFile => {
                "a state file, read by `grimoire eval --rules arcomage --state FILE.ron '[]'`"
                    .to_string()
            }
            Input::Command => "the arguments of a command, `grimoire ARGUMENTS`".to_string(),
            Input::None => "no small input produces it".to_string(),
        }
    }
}

/// One code's entry in the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct Explanation {
    /// The code.
    pub code: Code,
    /// A short title, in lower case: "unknown attribute".
    pub title: &'static str,
    /// What the diagnostic says is wrong.
    pub means: &'static str,
    /// How designers usually come to write it, and how to fix it.
    pub why: &'static str,
    /// What the examples are, and so how they are checked.
    pub input: Input,
    /// A minimal input that produces the code (empty for [`Input::None`]).
    pub failing: &'static str,
    /// The same input, fixed: it checks clean (empty for [`Input::None`]).
    pub fixed: &'static str,
}

/// The text `grimoire check --explain CODE` prints for `code`.
pub fn render(code: Code) -> String {
    let e = explain(code);
    let kind = if code.is_warning() {
        "warning"
    } else {
        "error"
    };
    let indent = |text: &str| {
        if text.is_empty() {
            return "    (an empty file)".to_string();
        }
        text.lines()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("    {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut out = format!("{code}: {} ({kind})\n\n{}\n\n{}\n", e.title, e.means, e.why);
    if e.input == Input::None {
        out.push_str("\nNo small input produces it.\n");
    } else {
        out.push_str(&format!(
            "\nFor example, {}:\n\n{}\n\nFixed:\n\n{}\n",
            e.input.describe(),
            indent(e.failing),
            indent(e.fixed)
        ));
    }
    out
}

/// The catalogue entry of `code`.
// One arm per code: the catalogue is data, and an exhaustive match makes a
// code without an explanation a compile error.
pub fn explain(code: Code) -> Explanation {
    let (title, means, why, input, failing, fixed) = match code {
        Code::NotAMap => (
            "expected a map",
            "A map `{…}` belongs here (an effect, a definition, a section of a \
             rule set, a scenario's values), and something else is written.",
            "Usually a vector `[…]` written for a map, often an effect written \
             `[:effected :you …]`. Write it as a map of keys and values.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [[:effected :you :resource :wall :amount 2]]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnknownKey => (
            "unknown key",
            "A map has a key that its kind of map does not take: every map of \
             the language has a closed set of keys.",
            "Usually a misspelt key (`:amout`), a key under a former name, or \
             a key of another kind of map. The help names the nearest key or \
             lists them all.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amout 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::SymbolKey => (
            "a key without its colon",
            "A key is written as a symbol (`effected`), but keys are keywords \
             (`:effected`).",
            "The colon was left out, as some spreadsheets of card effects \
             write it. Add the colon.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::KeyNotKeyword => (
            "a key that is not a keyword",
            "A key of a map, or a name a rule set declares, is a string, a \
             number or another form; keys and names are keywords.",
            "Usually a key written as a string, as in JSON. Write it as a \
             keyword: `\"effected\"` is `:effected`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{"effected" :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::MissingKey => (
            "a required key is missing",
            "A map lacks a key its kind needs: an effect its `:effected`, \
             `:resource` or `:amount`, a card its `:effects`, a status its \
             `:polarity`, a timing its `:at`.",
            "The key was forgotten, or misspelt (a misspelling is reported as \
             an unknown key instead). Add the key the message names.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::WrongType => (
            "a value of the wrong type",
            "A key's value is of another type than the key takes: a number \
             where a string belongs, a keyword where a vector belongs, a \
             string where `true` or `false` belongs. The message says what \
             the key takes.",
            "Usually a value written as it would be in another format (a \
             quoted `\"true\"`, a bare number for a text). Write the value in \
             the shape the message gives.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :text 2 :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :text "+2 Wall" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::OutOfRange => (
            "a whole number out of its range",
            "A whole number is outside the range its key allows: a `:cost` \
             below 0, a status lasting 0 times, a hand of 100 cards.",
            "The range is in the message. A negative cost is usually meant as \
             a gain: write it as an effect instead.",
            Input::Definitions("arcomage"),
            r#"{:card "Cheap Wall" :type :bricks :cost -1
 :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:card "Cheap Wall" :type :bricks :cost 0
 :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::OutOfBounds => (
            "a value outside an attribute's bounds",
            "A value given for an attribute (in a scenario, a `:setup` entity \
             or `eval --set`) is outside the attribute's `:min`..`:max`.",
            "Every change to an attribute stops at its bounds, so a value \
             outside them could never be reached. Give a value within them, \
             or widen the attribute's bounds in the rule set.",
            Input::Scenario,
            r#"{:scenario "A wall at its lowest" :rules :arcomage
 :given {:you {:wall -1}}
 :expect {:you {:wall 0}}}"#,
            r#"{:scenario "A wall at its lowest" :rules :arcomage
 :given {:you {:wall 0}}
 :expect {:you {:wall 0}}}"#,
        ),
        Code::NotOneOf => (
            "a keyword that is not one of the allowed few",
            "A key takes one of a fixed set of keywords (a moment, a polarity, \
             a stacking policy, a dispel's pick, a column's meaning) and the \
             keyword written is none of them.",
            "Usually a misspelling; the help names the nearest or lists them.",
            Input::Definitions("arcomage"),
            r#"{:status :shelter :polarity :good}"#,
            r#"{:status :shelter :polarity :buff}"#,
        ),
        Code::Duplicate => (
            "a name declared twice",
            "A rule set declares a name twice: in one section (two timings of \
             one name), or in two sections that share their names (roles, \
             attributes, operations and params share one set).",
            "Usually a copy-paste, or an attribute named like a role. Rename \
             one of them.",
            Input::RuleSet,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:you {:default 0}}}"#,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:wall {:default 0}}}"#,
        ),
        Code::TooMany => (
            "more than the limit allows",
            "A list is longer than the engine allows: formula arguments (8), \
             seats (255), effects in one list (10 000), entities a `:for` \
             makes, turns of an entity in a round.",
            "The limits keep every game's work bounded. Split the thing in \
             two, or write it another way (a formula of fewer arguments, an \
             operation for a repeated effect).",
            Input::RuleSet,
            r#"{:rules :sums
 :roles {:you "the player"}
 :formulas {:sum9 {:args [:a :b :c :d :e :f :g :h :i]
                   :value [+ :a :b :c :d :e :f :g :h :i]}}}"#,
            r#"{:rules :sums
 :roles {:you "the player"}
 :formulas {:sum8 {:args [:a :b :c :d :e :f :g :h]
                   :value [+ :a :b :c :d :e :f :g :h]}}}"#,
        ),
        Code::EmptyName => (
            "an empty name",
            "A card's or effect's name, or a table column's header, is empty.",
            "A name identifies the card in decks, scenarios and logs, and a \
             header identifies its column: give it one.",
            Input::Definitions("arcomage"),
            r#"{:effect "" :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::OneForm => (
            "one form expected",
            "A text that holds exactly one form holds none or several: a \
             rule-set file (one map), the effects given to `eval` or \
             `explain` (one vector), the expression given to `roll`.",
            "Usually effect maps given one after another instead of in one \
             vector, or a second rule set appended to a rule-set file. Put \
             them in one vector, or in files of their own.",
            Input::Command,
            r#"eval --rules arcomage "[{:effected :you :resource :wall :amount 2}] [{:effected :you :resource :gems :amount 1}]""#,
            r#"eval --rules arcomage "[{:effected :you :resource :wall :amount 2} {:effected :you :resource :gems :amount 1}]""#,
        ),
        Code::Unclosed => (
            "a collection never closed",
            "A `[`, `{`, `(` or `#{` is never closed: the text ends first. \
             The caret points at the opener.",
            "Usually a closer forgotten at the end of a card, or one lost \
             while editing. Close the collection where it ends.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnexpectedCloser => (
            "a closer that matches nothing",
            "A `]`, `}` or `)` does not close what is open there: a `]` where \
             a `{` is open, or a closer with nothing open at all.",
            "Usually brackets swapped (`{…]`), or one closer too many. The \
             note shows the collection still open.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2]]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::SlashComment => (
            "a comment written with `//`",
            "`//` starts a comment in C and JavaScript, not here: a comment \
             starts with `;` and runs to the end of the line.",
            "Write `;` (or `;;` for a whole-line comment) instead of `//`.",
            Input::Definitions("arcomage"),
            r#"// builds the wall
{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"; builds the wall
{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::OddMap => (
            "a map with a key and no value",
            "A map holds an odd number of forms: some key has no value.",
            "Usually a value forgotten, or a key written twice by mistake. \
             Give every key its value.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::DuplicateKey => (
            "a key written twice in one map",
            "A map has the same key twice; which value was meant cannot be \
             told, so neither is taken.",
            "Usually a line copied and changed halfway. Keep one of the two.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2 :amount 3}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 3}]}"#,
        ),
        Code::DuplicateElement => (
            "an element written twice in one set",
            "A set `#{…}` holds the same element twice; a set holds each once.",
            "Usually a copy-paste, or a different element meant. Remove one, \
             or write the one meant.",
            Input::Definitions("skills"),
            r#"{:effect "Cleanse" :effects [{:effected :you :dispel #{:ecaTakeDamage :ecaTakeDamage}}]}"#,
            r#"{:effect "Cleanse" :effects [{:effected :you :dispel #{:ecaTakeDamage :ecaDecreasePower}}]}"#,
        ),
        Code::NumberTooLarge => (
            "a number too large",
            "An integer does not fit in 64 bits, or a decimal is beyond the \
             range of a 64-bit float. Numbers never wrap around.",
            "Usually digits typed twice. Write a smaller number; arithmetic \
             that could grow past the limit saturates there instead.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 99999999999999999999}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 99}]}"#,
        ),
        Code::BadNumber => (
            "not a number",
            "A token starts like a number but is not one: `1.2.3`, `12ab`, `1,5`.",
            "Usually a typo, or a decimal written with a comma. Write the \
             number (`1.5`), or a keyword (`:ab`) if a name was meant.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 1.2.3}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 1}]}"#,
        ),
        Code::UnclosedString => (
            "a string never closed",
            "A string's opening `\"` has no closing one: the rest of the file \
             was read as the string. The caret points at the opening quote.",
            "Usually a closing quote forgotten, or a `\"` inside the text \
             written without its backslash (`\\\"`).",
            Input::Definitions("arcomage"),
            r#"{:effect "Build :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::BadEscape => (
            "an unknown escape in a string",
            "A backslash in a string starts an escape the reader does not \
             know. The escapes are `\\\"` `\\\\` `\\n` `\\t` `\\r` `\\b` `\\f` \
             and `\\uXXXX` (four hex digits naming a character).",
            "Usually a path or a backslash meant as itself: write it doubled, \
             `\\\\`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :text "Wall \ Tower" :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :text "Wall \\ Tower" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::DoubleColon => (
            "a `::` keyword",
            "`::wall` is Clojure's auto-resolved keyword; the language has \
             plain keywords only.",
            "Write one colon: `:wall`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource ::wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::EmptyKeyword => (
            "a keyword without a name",
            "A `:` stands alone, or is followed by a space: a keyword needs a \
             name after its colon.",
            "Usually a space typed after the colon. Join the colon to its name.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource : wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnsupportedDispatch => (
            "an unsupported `#` form",
            "`#` starts only sets (`#{…}`) and discards (`#_`); tagged \
             literals such as `#inst` and other `#` forms are not part of the \
             language.",
            "Write the value itself, or `#_` before a form to comment it out.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount #int 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::NothingToDiscard => (
            "`#_` with nothing to discard",
            "`#_` discards the form after it, and there is none before the \
             collection closes or the text ends.",
            "Usually the form it was meant to comment out was deleted. Remove \
             the `#_` too.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2} #_]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnexpectedChar => (
            "a character that starts no form",
            "A character cannot start any form here: `\\a` (a character \
             literal), `@`, `^`, `~`, a control character.",
            "Usually a stray key press, or Clojure syntax the language does \
             not have. Use a string for text, and remove the rest.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount @2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::TooDeep => (
            "collections nested too deep",
            "Collections are nested more than 200 deep; the reader refuses \
             deeper text, so no input can exhaust the stack.",
            "Nothing written by hand nests so deep: the text is likely \
             generated or corrupt. Flatten the expression (`[+ a b c]` is one \
             level where `[+ a [+ b c]]` is two).",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}
#_[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}
#_[[[[]]]]"#,
        ),
        Code::TooLarge => (
            "a text too large",
            "A text larger than 4 GiB (spans hold 32-bit offsets); or, in an \
             editor, a document larger than the 16 MiB the language server \
             checks as it is typed.",
            "No definitions or rule set is this large; the file is not one. \
             Split it, or check the right file (`grimoire check` reads a file \
             of up to 64 MiB).",
            Input::None,
            "",
            "",
        ),
        Code::NotUtf8 => (
            "a file that is not UTF-8",
            "A file's bytes are not UTF-8 text; the caret points at the first \
             byte that is not.",
            "Usually a file saved in Latin-1 or Windows-1252 by an older \
             editor or a spreadsheet, or not a text file at all. Save it as \
             UTF-8.",
            Input::Latin1("arcomage"),
            r#"{:effect "Café" :effects [{:effected :you :resource :wall :amount 2}]}"#,
            r#"{:effect "Café" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::FormatterUnsafe => (
            "the formatter would change the meaning",
            "`grimoire fmt` laid a file out, read the result back, and found \
             forms other than the file's: it leaves the file as it was.",
            "This is an internal error of the formatter, never the file's \
             fault. Please report the file.",
            Input::None,
            "",
            "",
        ),
        Code::UnknownRole => (
            "unknown role",
            "A keyword where an entity belongs (`:effected`, a smart value's \
             first part, `:winner`) is not a role of the rule set, nor a name \
             bound there (`:self`, `:holder`, `:actor`).",
            "Usually a misspelt role, or a role of another rule set (`:enemy` \
             for Arcomage's `:other`). The help names the nearest role or \
             lists them.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :yuo :resource :wall :amount 2}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnboundTarget => (
            "`:target` outside an operation or action",
            "`:target` names the entity an operation is applied to, or the \
             one an action is aimed at, so it is bound only in an operation's \
             `:effects` and in an action with a `:target`.",
            "A card or hook names whom it touches by role: `:you`, `:other`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Hit" :effects [{:effected :target :resource :wall :amount -2}]}"#,
            r#"{:effect "Hit" :effects [{:effected :other :resource :wall :amount -2}]}"#,
        ),
        Code::KeywordNotNumber => (
            "a keyword that is no number here",
            "A keyword stands where a number belongs, and names no number \
             there: it is not a param, a formula's argument or a card's value, \
             and `:amount` and `:magnitude` are bound only in an operation \
             and a status.",
            "Usually an attribute written alone (`:wall`) where a smart value \
             says whose it is (`[:you :wall]`), or a misspelt param.",
            Input::Definitions("arcomage"),
            r#"{:effect "Double Wall" :effects [{:effected :you :resource :wall :amount :wall}]}"#,
            r#"{:effect "Double Wall" :effects [{:effected :you :resource :wall :amount [:you :wall]}]}"#,
        ),
        Code::UnknownAttribute => (
            "unknown attribute",
            "A keyword where an attribute belongs (a smart value's second \
             part, a modifier, a scenario's values, `:setup`, `--set`) is not \
             an attribute of the rule set.",
            "Usually a misspelling; the help names the nearest attribute or \
             lists them.",
            Input::Definitions("arcomage"),
            r#"{:effect "Match" :effects [{:effected :you :resource :wall :amount [:other :wal]}]}"#,
            r#"{:effect "Match" :effects [{:effected :you :resource :wall :amount [:other :wall]}]}"#,
        ),
        Code::UnknownResource => (
            "unknown resource",
            "An effect's `:resource` is neither an attribute nor an operation \
             of the rule set.",
            "Usually a misspelling, or a resource of another game (`:mana`). \
             The help names the nearest resource or lists them.",
            Input::Definitions("arcomage"),
            r#"{:effect "Quarry" :effects [{:effected :you :resource :quary :amount 1}]}"#,
            r#"{:effect "Quarry" :effects [{:effected :you :resource :quarry :amount 1}]}"#,
        ),
        Code::UnknownOperator => (
            "unknown operator",
            "A vector starts with a symbol that is not an operator. The \
             operators are a closed set: `=` `not=` `<` `>` `<=` `>=` `and` \
             `or` `not` `if` `+` `-` `*` `/` `abs` `min` `max` `round` `floor` \
             `ceil` `random` `lookup` `choice` `formula` `advantage` \
             `disadvantage` `chance` `statuses` `turns-left` `has` `count` `sum`.",
            "Usually an operator of another language (`!=`, `=>`, `mod`). The \
             help names the one meant where it can tell.",
            Input::Definitions("arcomage"),
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [=> [:you :wall] 5 1 2]}]}"#,
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [>= [:you :wall] 5 1 2]}]}"#,
        ),
        Code::Arity => (
            "wrong number of operands",
            "An operator, or a rule set's formula, is given more or fewer \
             operands than it takes. The help shows its forms.",
            "Usually an `else` left out (`[if c then]`), or a comparison given \
             three operands (it takes two, or four to choose a value).",
            Input::Definitions("arcomage"),
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [if [> [:you :wall] 5] 1]}]}"#,
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [if [> [:you :wall] 5] 1 2]}]}"#,
        ),
        Code::ConditionNotNumber => (
            "a condition where a number belongs",
            "An expression gives true or false (`[< a b]`, `[not c]`, \
             `[chance p]`) where a number belongs.",
            "A comparison chooses a number when given the two results: \
             `[< a b then else]`, or `[if condition then else]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [< [:you :wall] 5]}]}"#,
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [< [:you :wall] 5 2 0]}]}"#,
        ),
        Code::NumberNotCondition => (
            "a number where a condition belongs",
            "An expression gives a number (a literal, `[+ …]`, a smart value) \
             where a condition belongs: `if`, `and`, `or`, `not`, `:when`, \
             `:victory`.",
            "Compare the number: `[> … 0]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [if [- [:you :wall] 5] 1 2]}]}"#,
            r#"{:effect "Bonus" :effects [{:effected :you :resource :wall :amount [if [> [:you :wall] 5] 1 2]}]}"#,
        ),
        Code::NotANumber => (
            "not a number",
            "A string, a list, `nil` or another form that is no number stands \
             where a number belongs.",
            "Usually a number in quotes (`\"2\"`), or simple logic in round \
             brackets (`(= a b 1 2)`): numbers are written bare, expressions \
             in square brackets.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount "2"}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::DecimalNotInteger => (
            "a decimal where a whole number belongs",
            "An amount, a `random` bound or another whole number is given a \
             decimal (`1.5`, or `/`, which always gives one). Decimals are \
             never cut silently.",
            "Make it whole with `[round …]`, `[floor …]` or `[ceil …]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Half" :effects [{:effected :you :resource :wall :amount [/ [:you :wall] 2]}]}"#,
            r#"{:effect "Half" :effects [{:effected :you :resource :wall :amount [floor [/ [:you :wall] 2]]}]}"#,
        ),
        Code::SmartValueShape => (
            "a smart value of the wrong shape",
            "A smart value reads one attribute of one entity: `[:you :wall]`, \
             two parts exactly.",
            "Usually two attributes in one (`[:you :wall :tower]`): add them \
             with `[+ [:you :wall] [:you :tower]]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Sum" :effects [{:effected :you :resource :wall :amount [:you :wall :tower]}]}"#,
            r#"{:effect "Sum" :effects [{:effected :you :resource :wall :amount [+ [:you :wall] [:you :tower]]}]}"#,
        ),
        Code::OperationRead => (
            "an operation read as a value",
            "A smart value names an operation (`[:other :damage]`); an \
             operation is applied, not stored, so it has no value to read.",
            "Read the attributes the operation changes instead.",
            Input::Definitions("arcomage"),
            r#"{:effect "Mirror" :effects [{:effected :you :resource :wall :amount [:other :damage]}]}"#,
            r#"{:effect "Mirror" :effects [{:effected :you :resource :wall :amount [:other :wall]}]}"#,
        ),
        Code::OperationSet => (
            "an operation set",
            "An effect with `:set true` names an operation: an operation can \
             be applied, not set.",
            "Remove `:set true`, or set a stored attribute.",
            Input::Definitions("arcomage"),
            r#"{:effect "Ruin" :effects [{:effected :other :resource :damage :amount 3 :set true}]}"#,
            r#"{:effect "Ruin" :effects [{:effected :other :resource :damage :amount 3}]}"#,
        ),
        Code::StatusChangeSet => (
            "`:set` on a change to statuses",
            "An effect that acquires, dispels or extends statuses has \
             `:set true`; its amount is a magnitude, a count or turns, never \
             a value to set.",
            "Remove `:set true`.",
            Input::Definitions("arcomage"),
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :acquire :shelter :set true}]}"#,
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :acquire :shelter}]}"#,
        ),
        Code::TwoChanges => (
            "an effect that changes two things",
            "An effect names more than one of `:resource`, `:acquire`, \
             `:dispel` and `:extend`; each effect changes one thing.",
            "Write two effects.",
            Input::Definitions("arcomage"),
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :resource :wall :amount 2 :acquire :shelter}]}"#,
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :resource :wall :amount 2}
                          {:effected :you :acquire :shelter}]}"#,
        ),
        Code::KeyNotHere => (
            "a key that belongs to another effect",
            "An effect has a key that only another kind of effect takes: \
             `:pick` (a dispel's), `:lasts` (an acquire's), `:count` (a \
             `:queue :turns`'), `:effected` on a `:run` of a timing that runs \
             for each entity of a kind.",
            "Remove the key, or make the effect the kind that takes it.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2 :pick :oldest}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::EffectsNotVector => (
            "effects not a vector of effect maps",
            "`:effects` (and every list of effects: hooks, `:on-acquire`, an \
             `:at-once` group) is a vector of effect maps, and something else \
             is written.",
            "Write the effects as `[{:effected :you :resource :wall :amount 3}]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects "+2 wall"}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::AtOnce => (
            "a malformed `:at-once` group",
            "`{:at-once [e1 e2 …]}` holds only `:at-once`, groups 1 to 16 \
             effects, and cannot hold another group.",
            "Put the effects inside the one vector; a nested group adds \
             nothing, since the whole group is computed from one state.",
            Input::Definitions("arcomage"),
            r#"{:effect "Swap" :effects [{:at-once []}]}"#,
            r#"{:effect "Swap" :effects [{:at-once [{:effected :you :resource :wall :set true :amount [:other :wall]}
                                         {:effected :other :resource :wall :set true :amount [:you :wall]}]}]}"#,
        ),
        Code::NotRunTiming => (
            "running a timing the turn machine runs",
            "`{:run :timing}` names a timing attached to a moment of the turn \
             machine (`:turn-start` …); effects can run only timings declared \
             `:at :run`.",
            "Declare a timing for effects to run, `{:at :run}`, and hook the \
             effects there.",
            Input::Definitions("skills"),
            r#"{:effect "Calculate" :effects [{:run :etiOnTurnStart}]}"#,
            r#"{:effect "Calculate" :effects [{:run :etiOnSkillCalculation}]}"#,
        ),
        Code::UnknownTiming => (
            "unknown timing",
            "A hook, a status's `:lasts` or `:hooks`, a `:run` or a table \
             column names a timing the rule set does not declare. There are \
             no built-in timings: each is declared in `:timings`.",
            "Usually a misspelling; the help names the nearest timing, or says \
             how to declare one.",
            Input::Definitions("arcomage"),
            r#"{:status :shelter :polarity :buff :lasts [2 :turn-strat]}"#,
            r#"{:status :shelter :polarity :buff :lasts [2 :turn-start]}"#,
        ),
        Code::UnknownKind => (
            "unknown kind",
            "`:each`, `count`, `sum`, `:spawn`, a timing's `:each`, an \
             action's `:actor` or a `:setup` entity's `:kind` names a kind the \
             rule set does not declare. Without `:kinds` there is one, \
             `:player`.",
            "Usually a misspelling, or a kind not yet declared in `:kinds`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Everyone" :effects [{:each :players :effects [{:effected :self :resource :wall :amount 1}]}]}"#,
            r#"{:effect "Everyone" :effects [{:each :player :effects [{:effected :self :resource :wall :amount 1}]}]}"#,
        ),
        Code::UnknownStatus => (
            "unknown status",
            "An effect, a scenario or `eval --status` names a status that no \
             definition defines (`{:status :id …}`, in the files checked or \
             the rule set's own).",
            "Usually a misspelt id, or a status whose definition file is not \
             among those checked.",
            Input::Definitions("arcomage"),
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :acquire :shelterr}]}"#,
            r#"{:status :shelter :polarity :buff}
{:effect "Hide" :effects [{:effected :you :acquire :shelter}]}"#,
        ),
        Code::UnknownCategory => (
            "unknown category",
            "A status's `:category`, or a category set in a filter, names a \
             category the rule set does not declare in `:categories`.",
            "Usually a misspelling; the help names the nearest category.",
            Input::Definitions("skills"),
            r#"{:status :warmth :polarity :buff :category :ecaHeall}"#,
            r#"{:status :warmth :polarity :buff :category :ecaHeal}"#,
        ),
        Code::UnknownFlag => (
            "unknown flag",
            "A status's `:flags` names a flag the rule set does not declare \
             in `:flags`.",
            "Usually a misspelling; the help names the nearest flag.",
            Input::Definitions("tactics"),
            r#"{:status :rage :polarity :buff :flags [:powr]}"#,
            r#"{:status :rage :polarity :buff :flags [:power]}"#,
        ),
        Code::FilterNoMatch => (
            "a filter keyword that matches nothing",
            "A status filter (of `:dispel`, `:extend`, `:blocks`, `statuses`, \
             `has`, `turns-left`) holds a keyword that is no status, \
             category, flag, `:buff`, `:debuff` or `:any`.",
            "Usually a misspelling; the help names the nearest.",
            Input::Definitions("arcomage"),
            r#"{:status :rot :polarity :debuff}
{:effect "Cleanse" :effects [{:effected :you :dispel :rott}]}"#,
            r#"{:status :rot :polarity :debuff}
{:effect "Cleanse" :effects [{:effected :you :dispel :rot}]}"#,
        ),
        Code::FilterShape => (
            "a malformed status filter",
            "A filter is empty, or names two of one sort: every keyword of a \
             filter must hold, so two statuses (or two polarities) match \
             nothing. A set of categories `#{…}` matches any one of them.",
            "To match either of two categories, write a set; to match every \
             status, write `:any`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Cleanse" :effects [{:effected :you :dispel [:buff :debuff]}]}"#,
            r#"{:effect "Cleanse" :effects [{:effected :you :dispel :any}]}"#,
        ),
        Code::UnknownTurnKind => (
            "unknown turn kind",
            "A `:queue :turns` effect's `:kind`, a kind's or status's \
             `:turns`, a turn kind's `:allows`, an action's `:type` or a \
             scenario's queue names a turn kind the rule set does not declare. \
             Without `:turn-kinds` there is one, `:turn`.",
            "Usually a misspelling; the help names the nearest turn kind.",
            Input::Definitions("arcomage"),
            r#"{:effect "Haste" :effects [{:queue :turns :effected :you :count 1 :kind :turns}]}"#,
            r#"{:effect "Haste" :effects [{:queue :turns :effected :you :count 1 :kind :turn}]}"#,
        ),
        Code::NothingChosen => (
            "`choice` where nothing is chosen",
            "`[choice :field]` reads the option chosen for the action being \
             used, so only an action with `:choose` (its conditions and \
             effects) and the operations it applies can read it.",
            "Give the action `:choose` and the set of options, or read a \
             number that is there.",
            Input::RuleSet,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player
                   :effects [{:effected :target :resource :hp :amount [- [choice :damage]]}]}}}"#,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player :choose :aim
                   :effects [{:effected :target :resource :hp :amount [- [choice :damage]]}]}}}"#,
        ),
        Code::UnknownField => (
            "unknown choice field",
            "`[choice :field]` names a field no option of the choice gives \
             (in an operation, of any choice).",
            "Usually a misspelling; the help names the nearest field.",
            Input::RuleSet,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player :choose :aim
                   :effects [{:effected :target :resource :hp :amount [- [choice :damge]]}]}}}"#,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player :choose :aim
                   :effects [{:effected :target :resource :hp :amount [- [choice :damage]]}]}}}"#,
        ),
        Code::UnknownChoice => (
            "unknown choice",
            "An action's `:choose` names a set of options the rule set does \
             not declare in `:choices`.",
            "Usually a misspelling; the help names the nearest choice, or says \
             how to declare one.",
            Input::RuleSet,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player :choose :aimm
                   :effects [{:effected :target :resource :hp :amount [- [choice :damage]]}]}}}"#,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}
 :actions {:punch {:actor :player :target :player :choose :aim
                   :effects [{:effected :target :resource :hp :amount [- [choice :damage]]}]}}}"#,
        ),
        Code::UnknownLookup => (
            "unknown lookup table",
            "`[lookup :table x]` names a table the rule set does not declare \
             in `:lookups`.",
            "Usually a misspelling; the help names the nearest table, or says \
             how to declare one.",
            Input::RuleSet,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :lookups {:damage {:ranges [[1 3 3] [4 nil 5]]}}
 :operations {:hit {:effects [{:effected :target :resource :hp :amount [- [lookup :damages :amount]]}]}}}"#,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :lookups {:damage {:ranges [[1 3 3] [4 nil 5]]}}
 :operations {:hit {:effects [{:effected :target :resource :hp :amount [- [lookup :damage :amount]]}]}}}"#,
        ),
        Code::UnknownFormula => (
            "unknown formula",
            "`[formula :name …]` names a formula the rule set does not \
             declare in `:formulas`, or one declared after the formula using \
             it.",
            "Usually a misspelling; the help names the nearest formula, or \
             says how to declare one.",
            Input::RuleSet,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :formulas {:twice {:args [:x] :value [+ :x :x]}}
 :operations {:hit {:effects [{:effected :target :resource :hp :amount [- [formula :twise :amount]]}]}}}"#,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :formulas {:twice {:args [:x] :value [+ :x :x]}}
 :operations {:hit {:effects [{:effected :target :resource :hp :amount [- [formula :twice :amount]]}]}}}"#,
        ),
        Code::DiceShape => (
            "dice of the wrong shape",
            "A token read as dice (digits and a `d`, or a `d` and a digit) is \
             not `[COUNT]dSIDES[khN|klN][+M|-M]`: the faces are missing, or \
             something follows the dice.",
            "Say how many faces (`3d6`); write other arithmetic on a roll \
             with the operators: `[* 2 3d6]`.",
            Input::Definitions("arcomage"),
            r#"{:effect "Rubble" :effects [{:effected :you :resource :wall :amount 3d}]}"#,
            r#"{:effect "Rubble" :effects [{:effected :you :resource :wall :amount 3d6}]}"#,
        ),
        Code::DiceRange => (
            "dice out of range",
            "Dice throw 1 to 100 dice of 1 to 10 000 faces, keep 1 to one \
             fewer than they throw, and add at most 1 000 000.",
            "Usually `0d6` or `1d0` typed for another number, or `kh` keeping \
             every die (`2d20kh2`): keep fewer than you throw.",
            Input::Definitions("arcomage"),
            r#"{:effect "Rubble" :effects [{:effected :you :resource :wall :amount 0d6}]}"#,
            r#"{:effect "Rubble" :effects [{:effected :you :resource :wall :amount 1d6}]}"#,
        ),
        Code::ChanceNotAllowed => (
            "chance where it cannot be drawn",
            "A condition that is checked outside effects (an action's `:when`, \
             a turn-order key, a status's `:removed-when`) draws chance \
             (`random`, `chance`, dice). Such conditions are checked often \
             and at no fixed place, so a draw there would change the seeded \
             game.",
            "Roll in an effect, keep the result in an attribute, and test the \
             attribute.",
            Input::Definitions("arcomage"),
            r#"{:status :shaky :polarity :debuff :removed-when [chance 0.5]}"#,
            r#"{:status :shaky :polarity :debuff :removed-when [< [:holder :wall] 5]}"#,
        ),
        Code::ExpandsTooFar => (
            "effects that expand too far",
            "Effects can do more work than allowed: an operation may expand \
             to 10 000 changes through the operations it applies (and 32 \
             operations deep); a card's, hook's or status's effects may do \
             100 000 units of work, estimated without running them: each \
             change one, each die one, each `advantage` doubling what it \
             wraps, each loop over the entities of a kind (`:each`, `count`, \
             `sum`) its body at least twice.",
            "An operation applying another several times, nested \
             `advantage`s and nested loops multiply their work: flatten the \
             chain, apply fewer times, or roll once and keep the result in \
             an attribute.",
            Input::RuleSet,
            r#"{:rules :chain
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :operations {:o1 {:effects [{:effected :target :resource :hp :amount -1}
                             {:effected :target :resource :hp :amount -1}]}
              :o2 {:effects [{:effected :target :resource :o1 :amount 1} {:effected :target :resource :o1 :amount 1}]}
              :o3 {:effects [{:effected :target :resource :o2 :amount 1} {:effected :target :resource :o2 :amount 1}]}
              :o4 {:effects [{:effected :target :resource :o3 :amount 1} {:effected :target :resource :o3 :amount 1}]}
              :o5 {:effects [{:effected :target :resource :o4 :amount 1} {:effected :target :resource :o4 :amount 1}]}
              :o6 {:effects [{:effected :target :resource :o5 :amount 1} {:effected :target :resource :o5 :amount 1}]}
              :o7 {:effects [{:effected :target :resource :o6 :amount 1} {:effected :target :resource :o6 :amount 1}]}
              :o8 {:effects [{:effected :target :resource :o7 :amount 1} {:effected :target :resource :o7 :amount 1}]}
              :o9 {:effects [{:effected :target :resource :o8 :amount 1} {:effected :target :resource :o8 :amount 1}]}
              :o10 {:effects [{:effected :target :resource :o9 :amount 1} {:effected :target :resource :o9 :amount 1}]}
              :o11 {:effects [{:effected :target :resource :o10 :amount 1} {:effected :target :resource :o10 :amount 1}]}
              :o12 {:effects [{:effected :target :resource :o11 :amount 1} {:effected :target :resource :o11 :amount 1}]}
              :o13 {:effects [{:effected :target :resource :o12 :amount 1} {:effected :target :resource :o12 :amount 1}]}
              :o14 {:effects [{:effected :target :resource :o13 :amount 1} {:effected :target :resource :o13 :amount 1}]}}}"#,
            r#"{:rules :chain
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :operations {:o1 {:effects [{:effected :target :resource :hp :amount -1}
                             {:effected :target :resource :hp :amount -1}]}
              :o2 {:effects [{:effected :target :resource :o1 :amount 1} {:effected :target :resource :o1 :amount 1}]}
              :o3 {:effects [{:effected :target :resource :o2 :amount 1} {:effected :target :resource :o2 :amount 1}]}
              :o4 {:effects [{:effected :target :resource :o3 :amount 1} {:effected :target :resource :o3 :amount 1}]}
              :o5 {:effects [{:effected :target :resource :o4 :amount 1} {:effected :target :resource :o4 :amount 1}]}
              :o6 {:effects [{:effected :target :resource :o5 :amount 1} {:effected :target :resource :o5 :amount 1}]}
              :o7 {:effects [{:effected :target :resource :o6 :amount 1} {:effected :target :resource :o6 :amount 1}]}
              :o8 {:effects [{:effected :target :resource :o7 :amount 1} {:effected :target :resource :o7 :amount 1}]}
              :o9 {:effects [{:effected :target :resource :o8 :amount 1} {:effected :target :resource :o8 :amount 1}]}
              :o10 {:effects [{:effected :target :resource :o9 :amount 1} {:effected :target :resource :o9 :amount 1}]}
              :o11 {:effects [{:effected :target :resource :o10 :amount 1} {:effected :target :resource :o10 :amount 1}]}
              :o12 {:effects [{:effected :target :resource :o11 :amount 1} {:effected :target :resource :o11 :amount 1}]}
              :o13 {:effects [{:effected :target :resource :o12 :amount 1} {:effected :target :resource :o12 :amount 1}]}}}"#,
        ),
        Code::EmptyDeclaration => (
            "a declaration of nothing",
            "A rule set, section or entry that must declare at least one \
             thing declares none: a rule set without `:roles`, an empty \
             `:kinds` or `:turn-kinds`, a choice without options, a lookup \
             table without ranges.",
            "Declare at least one, or leave the section out to keep its \
             default (`:kinds` and `:turn-kinds` have one).",
            Input::RuleSet,
            r#"{:rules :siege
 :attributes {:wall {:default 0}}}"#,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:wall {:default 0}}}"#,
        ),
        Code::Reserved => (
            "a reserved name",
            "A rule set declares a name the engine binds itself: `:target`, \
             `:amount`, `:self`, `:holder`, `:source`, `:actor` or \
             `:magnitude`.",
            "Choose another name.",
            Input::RuleSet,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:target {:default 0}}}"#,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:aim {:default 0}}}"#,
        ),
        Code::AttributeBounds => (
            "an attribute's bounds that do not hold its default",
            "An attribute's `:min` is above its `:max`, or its `:default` is \
             outside `:min`..`:max`.",
            "Usually a bound written for another attribute. Make the default \
             lie within the bounds.",
            Input::RuleSet,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:wall {:default 0 :min 1}}}"#,
            r#"{:rules :siege
 :roles {:you "the attacker"}
 :attributes {:wall {:default 1 :min 1}}}"#,
        ),
        Code::OperationLoop => (
            "operations that apply each other in a loop",
            "An operation applies another that, through some chain, applies \
             the first again: it would never end.",
            "An operation may use other operations, but never, through any \
             chain, itself. Break the loop.",
            Input::RuleSet,
            r#"{:rules :loop
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :operations {:hit {:effects [{:effected :target :resource :wound :amount :amount}]}
              :wound {:effects [{:effected :target :resource :hit :amount :amount}]}}}"#,
            r#"{:rules :loop
 :roles {:you "the one acting"}
 :attributes {:hp {:default 10}}
 :operations {:hit {:effects [{:effected :target :resource :wound :amount :amount}]}
              :wound {:effects [{:effected :target :resource :hp :amount [- :amount]}]}}}"#,
        ),
        Code::SeatsAndRoles => (
            "more roles than seats",
            "On a seat's turn the roles are bound to different seats in turn \
             order, so a game needs at least as many seats as roles.",
            "Add a seat, or drop a role.",
            Input::RuleSet,
            r#"{:rules :trio
 :roles {:you "the player" :left "the next player" :right "the one after"}
 :seats [:p1 :p2]}"#,
            r#"{:rules :trio
 :roles {:you "the player" :left "the next player" :right "the one after"}
 :seats [:p1 :p2 :p3]}"#,
        ),
        Code::LookupRanges => (
            "lookup ranges out of order",
            "A lookup table's ranges overlap (a number in two), leave a gap \
             between them (a number in none), or run backwards.",
            "Each number is in one range at most; a number outside every \
             range gives the table's `:default`. Move the range ends so they \
             meet.",
            Input::RuleSet,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :lookups {:damage {:ranges [[1 3 3] [5 nil 5]]}}}"#,
            r#"{:rules :levels
 :roles {:you "the one acting"}
 :lookups {:damage {:ranges [[1 3 3] [4 nil 5]]}}}"#,
        ),
        Code::OptionFields => (
            "options that give different fields",
            "Every option of a choice gives the same numbers (its fields): the \
             first option names them, and an option leaves one out or gives \
             another.",
            "Usually a misspelt field. Give every option every field (`0` for \
             one that adds nothing).",
            Input::RuleSet,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :choices {:aim {:options {:head {:damage 3} :body {:dmg 1}}}}}"#,
            r#"{:rules :aims
 :roles {:you "the one acting"}
 :choices {:aim {:options {:head {:damage 3} :body {:damage 1}}}}}"#,
        ),
        Code::SeatSetup => (
            "a seat given a kind or a `:for`",
            "A `:setup` entry named after a seat gives that seat's values; a \
             seat is one entity of the first kind, so it takes no `:kind` and \
             no `:for`.",
            "Give the seat `:values` only, or name the entry after no seat.",
            Input::RuleSet,
            r#"{:rules :board
 :roles {:you "the player"}
 :kinds {:player "a seat's player" :unit "a piece"}
 :attributes {:team {:default 0}}
 :seats [:p1 :p2]
 :setup {:p1 {:kind :unit :values {:team 1}}}}"#,
            r#"{:rules :board
 :roles {:you "the player"}
 :kinds {:player "a seat's player" :unit "a piece"}
 :attributes {:team {:default 0}}
 :seats [:p1 :p2]
 :setup {:p1 {:values {:team 1}}}}"#,
        ),
        Code::ForRange => (
            "an empty or overlong `:for` range",
            "A `:setup` entry's `:for {:x [lo hi]}` range runs backwards, or \
             makes more values than allowed.",
            "Write the low end first: `[0 4]` makes 0, 1, 2, 3, 4.",
            Input::RuleSet,
            r#"{:rules :board
 :roles {:you "the player"}
 :kinds {:player "a seat's player" :cell "a square"}
 :attributes {:x {:default 0}}
 :setup {:cell {:kind :cell :for {:x [4 0]}}}}"#,
            r#"{:rules :board
 :roles {:you "the player"}
 :kinds {:player "a seat's player" :cell "a square"}
 :attributes {:x {:default 0}}
 :setup {:cell {:kind :cell :for {:x [0 4]}}}}"#,
        ),
        Code::TableColumns => (
            "a table shape whose columns make no rows",
            "A shape of `:tables` joins each row to a status (a `:status` \
             column) or a category (a `:category` column, and no figures or \
             texts); it has neither, or two of one kind.",
            "Add the column that names each row's status (or category), and \
             keep one of each.",
            Input::RuleSet,
            r#"{:rules :board
 :roles {:you "the player"}
 :tables {:notes {:columns {"Note" :note}}}}"#,
            r#"{:rules :board
 :roles {:you "the player"}
 :tables {:notes {:columns {"Name" :status "Note" :note}}}}"#,
        ),
        Code::ColumnShape => (
            "a table column of the wrong shape",
            "A column's meaning takes arguments it is not given, or is given \
             some it does not take: `[:modifier ATTRIBUTE]`, `[:on-acquire \
             ATTRIBUTE]`, `[:hook TIMING ATTRIBUTE]`; the others are bare \
             keywords.",
            "Write the column as the message shows.",
            Input::RuleSet,
            r#"{:rules :board
 :roles {:you "the player"}
 :attributes {:attack {:default 1}}
 :tables {:summary {:columns {"Name" :status "ATK" :modifier}}}}"#,
            r#"{:rules :board
 :roles {:you "the player"}
 :attributes {:attack {:default 1}}
 :tables {:summary {:columns {"Name" :status "ATK" [:modifier :attack]}}}}"#,
        ),
        Code::StatusNeverDefined => (
            "a declared status no file defines",
            "A status the rule set's `:statuses` declares (for its own \
             operations and hooks to name) is defined by none of the \
             definitions files checked with the rule set. Undefined, the \
             status would do nothing and never run out. A rule set checked \
             with none of its definitions files is not judged on this.",
            "Usually the status's definition is missing, misspelt \
             (`{:status :vulnerible …}`: the help names it), or in a file \
             left out of the check: define it in a definitions file of the \
             rule set (`effects/NAME/`) and check the rule set with its files.",
            Input::Command,
            "check tests/data/undefined-status/rules tests/data/undefined-status/effects",
            "check tests/data/undefined-status/rules tests/data/undefined-status/effects tests/data/undefined-status/fix",
        ),
        Code::UnknownZone => (
            "unknown zone",
            "An effect or a query on cards names a zone the rule set's `:zones` \
             does not declare (nor the engine's `:playing` and `:removed`), or \
             `count`, `sum` or `:each` names something that is neither a zone \
             nor a kind; or a pile of an `eval --state` file (`\"hnad.you\"`) \
             names no zone.",
            "Usually a misspelling; the help names the nearest zone.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Hoard" :kind :spell :type :mana :cost 1
 :effects [{:effected :you :draw 2 :to [:hnad :you]}]}"#,
            r#"{:card "Hoard" :kind :spell :type :mana :cost 1
 :effects [{:effected :you :draw 2 :to [:hand :you]}]}"#,
        ),
        Code::ZoneOwner => (
            "a zone without its owner, or a shared zone given one",
            "A zone per seat (a hand, a board) is one pile for each seat: an \
             effect or a query names the one it means with its owner, \
             `[:hand :you]`. A shared zone (a deck, a discard pile) is one pile \
             that no seat owns, named alone: `:deck`. An `eval --state` file \
             names piles the same way: `\"hand.you\"`, `\"deck\"`.",
            "Write `[:hand :you]` for a zone per seat, and `:deck` for a shared \
             one; `:shared true` in `:zones` says which a zone is.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Riffle" :kind :spell :type :mana :cost 1 :effects [{:shuffle [:deck :you]}]}"#,
            r#"{:card "Riffle" :kind :spell :type :mana :cost 1 :effects [{:shuffle :deck}]}"#,
        ),
        Code::NotOrdered => (
            "a top or a bottom of a zone that has none",
            "Only a zone with `:ordered true` is a pile with a top and a \
             bottom (a board's slots are in order too): a draw takes its top \
             card, `:pick :top` and `:bottom` take from its ends, `:at :top` \
             and `:bottom` put cards there, and `[top …]` and `[bottom …]` \
             read them. A zone that is not ordered has no ends.",
            "Give the zone `:ordered true`, or take and put its cards at \
             random: `:pick :random`, `:at :random`.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Stash" :kind :spell :type :mana :cost 1
 :effects [{:move {:from :deck :pick :top} :to :aside :at :bottom}]}"#,
            r#"{:card "Stash" :kind :spell :type :mana :cost 1
 :effects [{:move {:from :deck :pick :top} :to :aside}]}"#,
        ),
        Code::NoSuchSlot => (
            "a slot the zone does not have",
            "`:slot N` puts a card in slot N of a board, a zone with `:slots`: \
             a zone without slots has none, and a board of 7 has slots 0 to \
             6 (as does a board's map of slots in an `eval --state` file). A \
             slot computed as the game runs and out of range is refused then: \
             the card stays where it was.",
            "Name a slot of the board, from 0; or give the zone `:slots`.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Rally" :kind :spell :type :mana :cost 2
 :effects [{:create "Wisp" :to [:board :you] :slot 7}]}"#,
            r#"{:card "Rally" :kind :spell :type :mana :cost 2
 :effects [{:create "Wisp" :to [:board :you] :slot 6}]}"#,
        ),
        Code::ZonesNeeded => (
            "cards in zones, in a rule set without `:zones`",
            "An effect on cards (`:draw`, `:discard`, `:move`, `:create`…), \
             a query of zones (`[count [:hand :you]]`, `top`, `holds`, \
             `named`…) or `:this-card` reaches cards kept in the rule set's \
             `:zones`. A rule set with `:cards` alone keeps its cards in the \
             engine's own piles, which no effect reaches.",
            "Declare the rule set's `:zones`, or say it with the card's own \
             keys: `:draw 2` draws two cards after the card is played, \
             `:discard 1` makes its player discard one.",
            Input::Definitions("arcomage"),
            r#"{:card "Scout" :type :bricks :cost 1 :effects [{:effected :you :draw 2}]}"#,
            r#"{:card "Scout" :type :bricks :cost 1 :draw 2 :effects []}"#,
        ),
        Code::UnknownMove => (
            "a script naming a move the kind does not have",
            "A kind's `:script` names the moves of the same kind's `:moves` by \
             their keys: in `:first`, in `:sequence` and in each `:pick` \
             entry's `:move`. This one names none of them.",
            "Usually a misspelt move: the message suggests the nearest. A \
             move's `:name` is what the log shows; the script names its key.",
            Input::RuleSet,
            r#"{:rules :fight
 :roles {:you "the player"}
 :kinds {:player "the player"
         :worm {:doc "an enemy"
                :moves {:bite {:intent "damage" :amount 6 :effects [{:effected :you :resource :health :amount -6}]}}
                :script {:first :bitr}}}
 :attributes {:health {:default 40 :min 0}}
 :seats [:p1]}"#,
            r#"{:rules :fight
 :roles {:you "the player"}
 :kinds {:player "the player"
         :worm {:doc "an enemy"
                :moves {:bite {:intent "damage" :amount 6 :effects [{:effected :you :resource :health :amount -6}]}}
                :script {:first :bite}}}
 :attributes {:health {:default 40 :min 0}}
 :seats [:p1]}"#,
        ),
        Code::CardsAndZones => (
            "`:cards` saying how cards are dealt, beside `:zones`",
            "A rule set with `:zones` says how its cards are dealt and held in \
             the zones themselves (a hand's `:refill`, `:deal` and `:capacity`, \
             a deck per seat when the `:start :deck` zone is not `:shared`). \
             Beside it, `:cards` keeps only what cards are paid with \
             (`:pay-with`), `:played` and `:values`; its `:hand-size` and \
             `:deck` would say the same thing a second way.",
            "Usually `:cards` kept from before the zones were written: move the \
             hand size to the hand's `:refill`, and drop `:deck`.",
            Input::RuleSet,
            r#"{:rules :hands
 :roles {:you "the player"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :seats [:p1 :p2]
 :cards {:hand-size 5}
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :plays true :refill 5}}}"#,
            r#"{:rules :hands
 :roles {:you "the player"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :plays true :refill 5}}}"#,
        ),
        Code::ZoneRules => (
            "zones that cannot work together",
            "The zones are each well formed but break a rule of how the engine \
             moves cards: a shared zone seen only by its owner (it has none); \
             two zones a seat plays from; a draw from a zone that is not \
             `:ordered` (a draw takes the top card); a reshuffle between a zone \
             per seat and a shared one; a deal or refill past the zone's \
             capacity; a fallen card sent to a zone in play; `:zones` with no \
             kind marked `:card true` for the cards to be; `:turns :plays \
             :many` without `:zones`.",
            "The message names the zone and the rule; the help says the usual \
             fix. A shared pile is `:visible :nobody` or `:all`; a hand is the \
             one zone with `:plays true`.",
            Input::RuleSet,
            r#"{:rules :hands
 :roles {:you "the player"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :visible :nobody :start :deck}
         :hand {:visible :owner :plays true :refill 5}}}"#,
            r#"{:rules :hands
 :roles {:you "the player"}
 :kinds {:player "a seat" :card {:card true :doc "a card"}}
 :seats [:p1 :p2]
 :zones {:deck {:shared true :ordered true :visible :nobody :start :deck}
         :hand {:visible :owner :plays true :refill 5}}}"#,
        ),
        Code::MoveScript => (
            "a script that cannot choose a move",
            "A kind's `:script` says how an enemy chooses among its `:moves`: \
             a kind with a script and no moves has nothing to choose; a script \
             with both a `:sequence` and a `:pick` says two ways at once; \
             the first kind is the seats', whose players choose for themselves; \
             a kind of card, or one with `:turns []`, takes no turn to do \
             its moves in; and a `:pick` entry's `:instead` (its move drawn \
             again when it is not allowed) is never read on an entry with \
             neither `:max-in-a-row` nor `:when`, nor inside an `:instead`.",
            "Give the kind `:moves`, keep one of `:sequence` and `:pick`, \
             declare the enemy as a kind of its own after the seats' kind, \
             give an entry with `:instead` the rule that forbids it, or list \
             every alternative in one `:instead`.",
            Input::RuleSet,
            r#"{:rules :fight
 :roles {:you "the player"}
 :kinds {:player "the player"
         :worm {:doc "an enemy" :script {:first :bite}}}
 :attributes {:health {:default 40 :min 0}}
 :seats [:p1]}"#,
            r#"{:rules :fight
 :roles {:you "the player"}
 :kinds {:player "the player"
         :worm {:doc "an enemy"
                :moves {:bite {:intent "damage" :amount 6 :effects [{:effected :you :resource :health :amount -6}]}}
                :script {:first :bite}}}
 :attributes {:health {:default 40 :min 0}}
 :seats [:p1]}"#,
        ),
        Code::NotADefinition => (
            "not a definition",
            "A top-level form of a definitions file is not a card \
             `{:card \"Name\" …}`, a named effect `{:effect \"Name\" …}` or a \
             status `{:status :id …}`.",
            "Usually effects written at the top level: put them in a \
             definition's `:effects`.",
            Input::Definitions("arcomage"),
            r#"[{:effected :you :resource :wall :amount 2}]"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::UnknownCardType => (
            "a card type the rule set does not pay with",
            "A card's `:type` names what its cost is paid in, one of the rule \
             set's `:cards :pay-with` attributes, and names something else.",
            "Usually a misspelling, or a resource of another game. The help \
             names the nearest type.",
            Input::Definitions("arcomage"),
            r#"{:card "Miners" :type :gold :cost 3
 :effects [{:effected :you :resource :quarry :amount 1}]}"#,
            r#"{:card "Miners" :type :bricks :cost 3
 :effects [{:effected :you :resource :quarry :amount 1}]}"#,
        ),
        Code::DefinedTwice => (
            "a name defined twice",
            "Two cards, named effects or statuses of one rule set have the same \
             name, in one file or in two files checked together.",
            "Names are unique within a rule set, across its files: rename one, \
             or remove the copy.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}
{:effect "Build" :effects [{:effected :you :resource :wall :amount 3}]}"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}
{:effect "Build More" :effects [{:effected :you :resource :wall :amount 3}]}"#,
        ),
        Code::Segments => (
            "segments that never run",
            "A status's `:segments` run one at a time, each time the timing of \
             its `:lasts` passes: without `:lasts` none runs, and segments \
             beyond the count it lasts never run.",
            "Give the status `:lasts [N :timing]` with N at least the number \
             of segments, or drop the last segments.",
            Input::Definitions("arcomage"),
            r#"{:status :quake :polarity :debuff
 :segments [[{:effected :holder :resource :wall :amount -1}]
            [{:effected :holder :resource :wall :amount -2}]]}"#,
            r#"{:status :quake :polarity :debuff :lasts [2 :turn-start]
 :segments [[{:effected :holder :resource :wall :amount -1}]
            [{:effected :holder :resource :wall :amount -2}]]}"#,
        ),
        Code::UnknownBase => (
            "unknown base",
            "A status's `:base`, or a markdown table's base cell, names a base \
             the rule set does not declare in `:bases`.",
            "Usually a misspelling; the help names the nearest base.",
            Input::Definitions("skills"),
            r#"{:status :warmth :polarity :buff :category :ecaHeal :base :OutgoingDamge
 :hooks {:etiOnSkillEnd [{:effected :holder :resource :heal :amount [:holder :dealt]}]}}"#,
            r#"{:status :warmth :polarity :buff :category :ecaHeal :base :OutgoingDamage
 :hooks {:etiOnSkillEnd [{:effected :holder :resource :heal :amount [:holder :dealt]}]}}"#,
        ),
        Code::BaseDisagrees => (
            "a status not computed from its base",
            "A status says with `:base` what its output is computed from, and \
             its effects disagree: they never read or change any attribute of \
             its base's `:attributes`, or they use an attribute that holds \
             another base.",
            "One of the two is wrong: compute the output from the base named, \
             or name the base it is computed from (the help names it).",
            Input::Definitions("skills"),
            r#"{:status :warmth :polarity :buff :category :ecaHeal :base :ActualDamageTaken
 :hooks {:etiOnSkillEnd [{:effected :holder :resource :heal :amount [:holder :dealt]}]}}"#,
            r#"{:status :warmth :polarity :buff :category :ecaHeal :base :OutgoingDamage
 :hooks {:etiOnSkillEnd [{:effected :holder :resource :heal :amount [:holder :dealt]}]}}"#,
        ),
        Code::UnknownCardName => (
            "a card name no card of the deck has",
            "`{:create \"Wisp\"}`, `[named :self \"Guard\"]` and `[holds :you \
             \"Princess\"]` name a card of the deck. The name is checked \
             against the cards checked with the rule set and the rule set's \
             own deck (its `cards/NAME/` folder), and again against the deck a \
             game deals (`--cards`): `eval`'s effects and its `--state` file's \
             piles are checked against that deck too.",
            "Usually a misspelling; the help names the nearest card. A token \
             only ever made by effects is a card with `:token true`.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Conjure" :kind :spell :type :mana :cost 3
 :effects [{:create "Wsip" :to [:board :you] :count 2}]}"#,
            r#"{:card "Conjure" :kind :spell :type :mana :cost 3
 :effects [{:create "Wisp" :to [:board :you] :count 2}]}"#,
        ),
        Code::CancelOutsideReaction => (
            "`:cancel` outside a reaction",
            "`{:cancel :subject}` stops the card a reaction answers: its \
             effects do not run and it goes where a played card goes. Only a \
             card with `:reaction` is played in answer to another, so only its \
             effects may cancel; a hook, a trigger or another card has no card \
             to stop.",
            "Give the card `:reaction {:on :played :where …}` (it is then \
             played out of turn, when another seat plays a card), or remove \
             the effect.",
            Input::Definitions("tests/data/reactions/rules/duel.edn"),
            r#"{:card "Dispel" :kind :spell :type :mana :cost 2
 :effects [{:cancel :subject}]}"#,
            r#"{:card "Dispel" :kind :spell :type :mana :cost 2
 :reaction {:on :played :where [= :source :other]}
 :effects [{:cancel :subject}]}"#,
        ),
        Code::EmptyModifier => (
            "a modifier that changes nothing",
            "A status's modifier of an attribute has neither `:add` nor `:mul`.",
            "Write `{:add N}`, `{:mul X}` or both, or remove the modifier.",
            Input::Definitions("arcomage"),
            r#"{:status :mortar :polarity :buff :modifiers {:wall {}}}"#,
            r#"{:status :mortar :polarity :buff :modifiers {:wall {:add 2}}}"#,
        ),
        Code::CsvUnclosedQuote => (
            "a spreadsheet cell never closed",
            "A cell opens with `\"` and its closing quote never comes: the rest \
             of the file was read as the cell.",
            "Usually a quote inside the cell written single: write it doubled \
             (`\"\"`), as spreadsheets do.",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects
Miners,"+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,"+1 Quarry",true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvTextAfterQuote => (
            "text after a quoted cell",
            "A quoted cell's closing `\"` is followed by more text before the \
             comma.",
            "Put the text inside the quotes, or write a quote in the text \
             doubled (`\"\"`).",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects
Miners,"+1" Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,"+1 Quarry",true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvNoHeader => (
            "a spreadsheet without a header",
            "A card spreadsheet is empty: its first row, the header, names \
             the columns.",
            "Start it with the header `name,description,discardable,\
             play-again,type,cost,effects`.",
            Input::Csv("arcomage"),
            "",
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvUnknownColumn => (
            "an unknown spreadsheet column",
            "A header cell names no column of a card spreadsheet: `name`, \
             `description`, `discardable`, `play-again`, `type`, `cost`, \
             `effects`.",
            "Usually a misspelling, or a column of notes: keep notes in \
             another file.",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects,notes
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}],cheap
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvMissingColumn => (
            "a spreadsheet column missing",
            "The header lacks a column every card spreadsheet has (all but \
             `description`).",
            "Add the column, with a cell in every row.",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,cost,effects
Miners,+1 Quarry,true,false,3,[{:effected :you :resource :quarry :amount 1}]
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::RowLength => (
            "a row with the wrong number of cells",
            "A row of a spreadsheet or of a markdown table has more or fewer \
             cells than its header.",
            "Usually a comma inside a spreadsheet cell that is not quoted \
             (`+2 Bricks, +2 Gems`), or a `|` inside a markdown cell. Quote \
             the cell, or escape the bar (`\\|`).",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry, cheap,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,"+1 Quarry, cheap",true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvEmptyCell => (
            "an empty spreadsheet cell",
            "A cell that holds a value in the language (`type`, `cost`, \
             `effects`, …) is empty.",
            "Write the value; `0`, `false` or `[]` where there is none.",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,,[{:effected :you :resource :quarry :amount 1}]
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1}]
"#,
        ),
        Code::CsvTwoValues => (
            "two values in one cell",
            "A spreadsheet cell holds one value, and holds two or more.",
            "Usually effect maps not in one vector (`{…} {…}` for `[{…} {…}]`), \
             or a number written with a space.",
            Input::Csv("arcomage"),
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,{:effected :you :resource :quarry :amount 1} {:effected :you :resource :bricks :amount 0}
"#,
            r#"name,description,discardable,play-again,type,cost,effects
Miners,+1 Quarry,true,false,:bricks,3,[{:effected :you :resource :quarry :amount 1} {:effected :you :resource :bricks :amount 0}]
"#,
        ),
        Code::TableUnknownCategory => (
            "a table naming an unknown category",
            "A markdown table's category cell names a category the rule set \
             does not declare.",
            "Usually a misspelling; the help names the nearest category.",
            Input::Markdown("skills"),
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeall | Gain 50% of your Damage in Health |
"#,
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
        Code::TableRowUnnamed => (
            "a table row naming no status",
            "A row of a status table has an empty (or `-`) status cell.",
            "Write the status's name in the row, or remove the row.",
            Input::Markdown("skills"),
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
|  | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
        Code::TableUnknownStatus => (
            "a table row naming no defined status",
            "A row of a table that only checks statuses (it has no description \
             column, so it cannot define one) names a status no definition \
             defines.",
            "Usually a misspelling; or define the status in an `.edn` file \
             (`{:status :id …}`).",
            Input::Markdown("tactics"),
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWR | +1 |
"#,
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +1 |
"#,
        ),
        Code::TablePolarity => (
            "a table row of no polarity",
            "A described row with no definition becomes a status of its own, \
             and its table says neither buff nor debuff: it is under no \
             heading that says Buffs or Debuffs, and its shape says neither.",
            "Put the table under a heading that says which (\"## Buffs\"), or \
             name a status that has a definition.",
            Input::Markdown("skills"),
            r#"| Name | Trigger | Category | Description |
|---|---|---|---|
| glow1 | - | - | Shines a while |
"#,
            r#"| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
        Code::TableDisagrees => (
            "a table that disagrees with the definition",
            "A row says something of its status that its `.edn` definition \
             does not: another category, buff for debuff, another base (what \
             its output is computed from), or another figure (what it adds to \
             an attribute).",
            "One of the two is out of date: correct the table, or the \
             definition.",
            Input::Markdown("tactics"),
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +2 |
"#,
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +1 |
"#,
        ),
        Code::TableFigure => (
            "a figure that is not a number",
            "A figure cell holds no whole number: figures are `+3`, `-1 per \
             round`, or `—`, `-`, `None` or empty for none.",
            "Write the number first; words may follow it.",
            Input::Markdown("tactics"),
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | one HP |
"#,
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +1 HP |
"#,
        ),
        Code::TableRowTwice => (
            "a status named twice in tables",
            "Two rows of tables of one shape name the same status.",
            "Usually a copied row: rename it, or remove the copy.",
            Input::Markdown("tactics"),
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +1 |
| POWER | +1 |
"#,
            r#"| BUFF | Instant Effect |
|------|----------------|
| POWER | +1 |
| LIFE | +3 |
"#,
        ),
        Code::ScenarioRules => (
            "a scenario for another rule set",
            "A scenario's `:rules` names another rule set than the one it is \
             checked or run with (or names it with a string).",
            "Name the rule set with a keyword, `:rules :arcomage`, or run the \
             scenario with the rule set it names.",
            Input::Scenario,
            r#"{:scenario "Miners" :rules "arcomage"
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
        ),
        Code::ExpectsNothing => (
            "a scenario that checks nothing",
            "A scenario has neither `:expect` nor `:log`: it would pass \
             whatever the cards did.",
            "Say what must come out: `:expect {:you {:wall 6}}` or the log.",
            Input::Scenario,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
        ),
        Code::StepShape => (
            "a scenario step of the wrong shape",
            "A step of `:play`, or an expectation, is not written in a shape \
             scenarios read: a card name, `[:discard \"Name\"]`, `[:act …]`, \
             `[:status …]`, `[:expect {…}]`, `:next-turn`; a queue entry \
             `[:turn :c1]`.",
            "The message shows the shape; cards are named by their name, a \
             string.",
            Input::Scenario,
            r#"{:scenario "Miners" :rules :arcomage
 :play [:miners]
 :expect {:you {:quarry 3}}}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
        ),
        Code::UnknownCard => (
            "a card the deck does not hold",
            "A scenario plays, discards or expects refused a card by a name \
             its rule set's deck does not hold.",
            "Usually a misspelling (names are compared exactly); the help \
             names the nearest card.",
            Input::Scenario,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Minors"]
 :expect {:you {:quarry 3}}}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
        ),
        Code::UnknownAction => (
            "an action the rule set does not declare",
            "A scenario's `[:act ACTOR ACTION …]` names an action that is not \
             in the rule set's `:actions`.",
            "Usually a misspelling; the help names the nearest action.",
            Input::Scenario,
            r#"{:scenario "The hero waits" :rules :tactics
 :play [[:act :hero :wiat]]
 :expect {:hero {:acted 1}}}"#,
            r#"{:scenario "The hero waits" :rules :tactics
 :play [[:act :hero :wait]]
 :expect {:hero {:acted 1}}}"#,
        ),
        Code::ActionOption => (
            "an action step's target or option",
            "An action step leaves out the option an action with `:choose` is \
             used with, gives it before the target, or names an option the \
             choice does not have.",
            "Write `[:act ACTOR ACTION TARGET OPTION]`: the target if the \
             action takes one, then the option if it chooses one.",
            Input::Scenario,
            r#"{:scenario "A punch to the head" :rules :tbwg
 :play [[:act :pain :stand-punch :dio]]
 :expect {:dio {:hp 30}}}"#,
            r#"{:scenario "A punch to the head" :rules :tbwg
 :play [[:act :pain :stand-punch :dio :head]]
 :expect {:dio {:hp 30}}}"#,
        ),
        Code::UnknownEntity => (
            "unknown entity",
            "A scenario (or `eval --set`, `--status`, the owner of a pile in \
             an `eval --state` file) names an entity that is \
             neither a role nor a seat or `:setup` entity of the rule set, nor \
             one that enters play named by kind and number as logs name it \
             (`:tile#33`, numbered after the entities a game starts with).",
            "Usually a misspelling, or a role of another rule set; the help \
             names the nearest. `:#7` leaves out the kind: write `:tile#7`.",
            Input::Scenario,
            r#"{:scenario "Miners" :rules :arcomage
 :given {:me {:quarry 1}}
 :play ["Miners"]
 :expect {:you {:quarry 2}}}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :given {:you {:quarry 1}}
 :play ["Miners"]
 :expect {:you {:quarry 2}}}"#,
        ),
        Code::EmptyFile => (
            "a file with no forms",
            "A file holds nothing but whitespace and comments: no rule set, \
             no definitions, no scenarios.",
            "Usually a file started and not yet written, or one whose forms \
             are all discarded with `#_`. Write its forms, or remove it.",
            Input::Definitions("arcomage"),
            r#"; the builders' cards, still to be written"#,
            r#"; the builders' cards
{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::WhichRuleSet => (
            "no rule set to check against",
            "A file of definitions or scenarios is checked with no rule set: \
             it is not in a folder named after one (`cards/arcomage/`), no \
             `--rules` is given, and (for scenarios) no `:rules`.",
            "Pass `--rules NAME`, move the file into its rule set's folder, or \
             name the rule set in the scenario.",
            Input::Unruled,
            r#"{:scenario "Miners"
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
            r#"{:scenario "Miners" :rules :arcomage
 :play ["Miners"]
 :expect {:you {:quarry 3}}}"#,
        ),
        Code::RuleSetUnavailable => (
            "a rule set that cannot be loaded",
            "A rule set named (by `--rules`, or a scenario's `:rules`) is \
             neither bundled nor a readable file, or its file has errors.",
            "Usually a misspelt name: the message lists the bundled rule sets \
             and the nearest. A rule-set file's own errors are shown with \
             `grimoire check FILE`.",
            Input::Command,
            r#"eval --rules arcomag "[{:effected :you :resource :wall :amount 2}]""#,
            r#"eval --rules arcomage "[{:effected :you :resource :wall :amount 2}]""#,
        ),
        Code::DeckUnavailable => (
            "a deck that cannot be loaded",
            "The cards a game or scenario deals cannot be loaded: a `--cards` \
             path cannot be read, holds no cards for the rule set, or has \
             errors; or the rule set has no bundled deck, or no card zones.",
            "Name readable card files or folders with `--cards`, or leave it \
             out to deal the rule set's bundled deck.",
            Input::Command,
            r#"play arcomage --seed 1 --cards no-such-folder"#,
            r#"play arcomage --seed 1"#,
        ),
        Code::BadStateFile => (
            "a state file that is not a state",
            "The file given to `eval --state` is not a state in RON: \
             `(seed: 7, entities: {\"you\": {\"wall\": 0}})`.",
            "The message says what the RON reader expected; values are whole \
             numbers, entity and attribute names strings.",
            Input::StateFile,
            r#"(seed: 7, entities: {"you": {"wall": "0"}})"#,
            r#"(seed: 7, entities: {"you": {"wall": 0}})"#,
        ),
        Code::BadEvalArgument => (
            "an `eval` argument of the wrong shape",
            "An `eval --set` is not `ROLE.ATTRIBUTE=INTEGER`, or a `--status` \
             not `ENTITY=STATUS` (with `@MAGNITUDE`, a whole number).",
            "Write it as the message shows: `--set you.wall=0`, \
             `--status you=rot@2`.",
            Input::Command,
            r#"eval --rules arcomage --set you.wall "[{:effected :you :resource :wall :amount 2}]""#,
            r#"eval --rules arcomage --set you.wall=0 "[{:effected :you :resource :wall :amount 2}]""#,
        ),
        Code::RuleSetHasErrors => (
            "a file whose rule set has errors",
            "A definitions file is in the folder of a rule set whose file is \
             among those checked, but that rule set has errors: the file is \
             not checked until the rule set checks clean, as its names (roles, \
             attributes, operations) cannot be trusted.",
            "Fix the rule set's errors, reported in its own file; its cards \
             and effects are then checked against it.",
            Input::Command,
            "check tests/data/rule-set-errors/broken",
            "check tests/data/rule-set-errors/fixed",
        ),
        Code::BadManifest => (
            "a project manifest that is not `{:project \"NAME\"}`",
            "A project is a folder with a manifest, `grimoire.edn`, at its root: \
             one map naming the project, `{:project \"mygame\"}` (and `:doc`, \
             what it is). A file with `:project` is read as a manifest.",
            "`:project` is a string: a lowercase letter, then lowercase \
             letters, digits, `-` or `_`; a manifest holds one map. \
             `grimoire new DIR` writes one.",
            Input::Unruled,
            r#"{:project :mygame}"#,
            r#"{:project "mygame"}"#,
        ),
        Code::RuleSetMisnamed => (
            "a rule-set file named differently from its rule set",
            "In a project's `rules/` folder, a rule set is named by its file: \
             `rules/X.edn` is the rule set `X`, and its `:rules` must be `:X`. \
             Otherwise the name a command is given and the name its cards are \
             found under (`cards/X/`, `effects/X/`) would disagree.",
            "Rename the file after its rule set, or change `:rules` to the \
             file's name. A rule-set file outside a project's `rules/` folder \
             may have any name.",
            Input::Command,
            "check tests/data/misnamed-rule-set/broken",
            "check tests/data/misnamed-rule-set/fixed",
        ),
        Code::BudgetExhausted => (
            "an evaluation that ran out of its budget",
            "Every step of a game (an action and all it sets off, a moment's \
             hooks), every `eval` and every `roll` may do a bounded amount of \
             work: each entity an `:each`, `count` or `sum` visits, each die, \
             each `advantage` and each status acquired costs one unit, and a \
             step may spend 1,000,000; at most 10,000 statuses may be held at \
             once. Past a budget the step stops: `eval` and `roll` report it, \
             a game ends as aborted (`simulate` counts it apart, never as a \
             draw). The report points at the effect that was running, in \
             its file, and names the card, status or rule set that wrote \
             it. Nested `advantage` or `:each` double the work at each \
             level, and a status that acquires itself multiplies.",
            "Flatten what fans out: roll once and keep the result in an \
             attribute, loop over fewer entities, give a self-acquiring \
             status `:stacking :refresh` or a condition that stops it.",
            Input::Command,
            "eval --rules arcomage \"[{:effected :you :resource :wall :amount [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage [advantage 1d6]]]]]]]]]]]]]]]]]]]]}]\"",
            "eval --rules arcomage \"[{:effected :you :resource :wall :amount [advantage 1d6]}]\"",
        ),
        Code::MoreNotShown => (
            "more diagnostics than shown",
            "A file has more diagnostics than `check` shows for one file (200); \
             this says how many more there are.",
            "Fix the first ones: one early mistake (an unclosed string, a \
             file of another format) often causes many of the rest.",
            Input::Definitions("arcomage"),
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}
[1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3
 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3 1.2.3]"#,
            r#"{:effect "Build" :effects [{:effected :you :resource :wall :amount 2}]}"#,
        ),
        Code::TextDisagrees => (
            "a card's text and effects disagree",
            "A number before a resource's name in a card's `:text` (\"+5 Wall\", \
             \"3 Damage to enemy tower\") is a claim no effect makes true: \
             another amount, sign or target. The warning says what the \
             effects do.",
            "One of the two is wrong: correct the text, or the effects.",
            Input::Definitions("arcomage"),
            r#"{:card "Mortar" :type :bricks :cost 2 :text "+5 Wall"
 :effects [{:effected :you :resource :wall :amount -5}]}"#,
            r#"{:card "Mortar" :type :bricks :cost 2 :text "+5 Wall"
 :effects [{:effected :you :resource :wall :amount 5}]}"#,
        ),
        Code::PlayAgainDisagrees => (
            "\"play again\" and `:play-again` disagree",
            "A card's text says \"play again\" and it is not \
             `:play-again true`, or it is and its text does not say so.",
            "Make the text and the data agree.",
            Input::Definitions("arcomage"),
            r#"{:card "Quick Wall" :type :bricks :cost 1 :text "+1 Wall. Play again"
 :effects [{:effected :you :resource :wall :amount 1}]}"#,
            r#"{:card "Quick Wall" :type :bricks :cost 1 :text "+1 Wall. Play again" :play-again true
 :effects [{:effected :you :resource :wall :amount 1}]}"#,
        ),
        Code::CostWithoutType => (
            "a cost with nothing to pay it in",
            "A card has a `:cost` but no `:type` naming the attribute it is \
             paid in, so it costs nothing.",
            "Add `:type`, or remove the cost if the card is free.",
            Input::Definitions("skills"),
            r#"{:card "Jab" :cost 2
 :effects [{:effected :other :resource :health :amount -1}]}"#,
            r#"{:card "Jab"
 :effects [{:effected :other :resource :health :amount -1}]}"#,
        ),
        Code::StatusAcquiresItself => (
            "a status that acquires itself again",
            "A status stacking `:independent` acquires itself again through \
             its own effects (its on-acquire effects, its hooks, its \
             segments, its expiry or removal) or through the statuses they \
             acquire: each run adds an instance whose effects run in turn, \
             so its instances can double every time its timing passes. A \
             game stops at 10 000 statuses held (aborted); this warns before \
             it runs, with the path of the cycle.",
            "Give it `:stacking :refresh` (acquiring it again refreshes the \
             one held) or `[:stack N]`, or put the acquiring under a \
             condition that stops it.",
            Input::Definitions("tactics"),
            r#"{:status :spores :polarity :debuff :stacking :independent
 :hooks {:bleed [{:effected :holder :acquire :spores}]}}"#,
            r#"{:status :spores :polarity :debuff :stacking :refresh
 :hooks {:bleed [{:effected :holder :acquire :spores}]}}"#,
        ),
        Code::TriggerLoops => (
            "a trigger that runs itself again",
            "A card's trigger waits for a sort of event, and one of its own \
             effects, run whatever happens, makes an event of that sort: \
             each run queues another. It has no `:where` to tell its own \
             event apart and no `:once-per-turn`. In a game the engine stops \
             the chain at `:budgets :trigger-runs` (500 unless raised) and \
             logs that it did; this warns before it runs.",
            "Narrow it with `:where` (`[not= :subject :this-card]`: not its \
             own change), give it `:once-per-turn true`, or make the effect \
             conditional.",
            Input::Definitions("tests/data/zones/rules/skirmish.edn"),
            r#"{:card "Frenzy" :kind :minion :type :mana :cost 2 :to :board
 :values {:attack 1 :health 3}
 :triggers [{:on :changed :attribute :attack
             :effects [{:effected :this-card :resource :attack :amount 1}]}]
 :effects []}"#,
            r#"{:card "Frenzy" :kind :minion :type :mana :cost 2 :to :board
 :values {:attack 1 :health 3}
 :triggers [{:on :changed :attribute :attack :where [not= :subject :this-card]
             :effects [{:effected :this-card :resource :attack :amount 1}]}]
 :effects []}"#,
        ),
        Code::RowUndefined => (
            "a table row with nothing behind it",
            "A row of a status table names a status that has no definition, \
             and the row has no description either: the status is undefined.",
            "Describe it in the table, and write what it does as \
             `{:status :id …}` in an `.edn` file.",
            Input::Markdown("skills"),
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| glow1 | - | - |  |
"#,
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
        Code::RowDoesNothing => (
            "a status the table cannot make do anything",
            "A described row with no definition becomes a status of its own, \
             with its polarity and category and no effects: a table row \
             cannot say what a status does.",
            "Write what it does as `{:status :id …}` in an `.edn` file.",
            Input::Markdown("skills"),
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| glow1 | - | - | Shines a while |
"#,
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
        Code::TriggerDisagrees => (
            "a trigger the definition does not act at",
            "A status table's trigger names a timing at which the status's \
             definition runs no hook.",
            "One of the two is out of date: correct the table, or the \
             definition's `:hooks`.",
            Input::Markdown("skills"),
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnTurnEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
            r#"## Buffs

| Name | Trigger | Category | Description |
|---|---|---|---|
| heal1 | etiOnSkillEnd | ecaHeal | Gain 50% of your Damage in Health |
"#,
        ),
    };
    Explanation {
        code,
        title,
        means,
        why,
        input,
        failing,
        fixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_is_explained_with_two_examples() {
        for &code in Code::ALL {
            let e = explain(code);
            assert_eq!(e.code, code);
            assert!(!e.title.is_empty() && !e.title.ends_with('.'), "{code}");
            assert!(e.means.ends_with('.') && e.why.ends_with('.'), "{code}");
            if e.input == Input::None {
                assert!(e.failing.is_empty() && e.fixed.is_empty(), "{code}");
            } else {
                // A Latin-1 example differs from its fix in bytes, not in text.
                if !matches!(e.input, Input::Latin1(_)) {
                    assert_ne!(e.failing, e.fixed, "{code}");
                }
                assert!(!e.fixed.is_empty(), "{code}");
            }
            let text = render(code);
            assert!(text.starts_with(&format!("{code}: {}", e.title)), "{text}");
        }
    }

    #[test]
    fn the_rendering_shows_both_examples_indented() {
        let text = render(Code::UnknownAttribute);
        assert!(text.contains("error"), "{text}");
        assert!(text.contains("\n    {:effect \"Match\""), "{text}");
        assert!(
            text.contains("grimoire check --rules arcomage FILE.edn"),
            "{text}"
        );
        assert!(render(Code::TextDisagrees).contains("(warning)"));
    }
}
