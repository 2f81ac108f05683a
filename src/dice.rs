//! Dice: `1d20`, `3d6+2`, `d20`, `2d20kh1` (roll two, keep the higher),
//! `4d6kl3-1`. A die roll is a value of the language like a number; its faces
//! come from the state's seeded generator, and the evaluator logs them.
//!
//! In a file, a token that starts with digits and a `d` (`3d6+2`) or with a
//! `d` and a digit (`d20`) is read as dice, so a misspelt one (`3d`, `0d6`,
//! `1d0`) gets a diagnostic about dice, not about numbers.

use std::fmt;

/// The most dice one roll may throw.
pub const MAX_DICE: u16 = 100;
/// The most faces a die may have.
pub const MAX_SIDES: u16 = 10_000;
/// The largest modifier a roll may add or take away.
pub const MAX_MODIFIER: i64 = 1_000_000;

/// Which dice of a roll count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Keep {
    /// Every die.
    All,
    /// The N highest (`kh N`).
    High(u16),
    /// The N lowest (`kl N`).
    Low(u16),
}

/// Which dice of a roll counted, as a log tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum KeepKind {
    /// Every die.
    All,
    /// The highest.
    High,
    /// The lowest.
    Low,
}

impl Keep {
    /// Which dice it keeps, without how many.
    pub fn kind(self) -> KeepKind {
        match self {
            Keep::All => KeepKind::All,
            Keep::High(_) => KeepKind::High,
            Keep::Low(_) => KeepKind::Low,
        }
    }
}

/// A checked dice expression: `count` dice of `sides` faces, the ones `keep`
/// says summed, plus `modifier`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice are thrown (1 to [`MAX_DICE`]).
    pub count: u16,
    /// Faces of each die, numbered from 1 (1 to [`MAX_SIDES`]).
    pub sides: u16,
    /// Which dice count.
    pub keep: Keep,
    /// Added to the sum of the dice kept.
    pub modifier: i64,
}

impl Dice {
    /// The lowest and highest total the roll can give.
    pub fn range(&self) -> (i64, i64) {
        let kept = i64::from(match self.keep {
            Keep::All => self.count,
            Keep::High(n) | Keep::Low(n) => n,
        });
        (
            kept + self.modifier,
            kept * i64::from(self.sides) + self.modifier,
        )
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.keep {
            Keep::All => {}
            Keep::High(n) => write!(f, "kh{n}")?,
            Keep::Low(n) => write!(f, "kl{n}")?,
        }
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

/// Which way a dice token is wrong: the two kinds a diagnostic code tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceFault {
    /// Not in the shape `[COUNT]dSIDES[khN|klN][+M|-M]`: `3d`, `3d6x`.
    Shape,
    /// In shape, but a number is out of range: `0d6`, `1d0`, `2d6kh2`, `1d6+9999999`.
    Range,
}

/// What is wrong with a dice token: a message, where in the token (a byte
/// range of it), and how to write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceError {
    /// Which way it is wrong.
    pub fault: DiceFault,
    /// What is wrong.
    pub message: String,
    /// The bytes of the token it is about.
    pub at: std::ops::Range<usize>,
    /// How to write it instead.
    pub help: String,
}

/// Whether `token` is meant as dice: digits then `d` (`3d6`, `3d`), or `d`
/// then a digit or a sign (`d20`, `d-4`).
pub fn looks_like(token: &str) -> bool {
    let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let digits = rest.len() < token.len();
    match rest.strip_prefix(['d', 'D']) {
        Some(after) if digits => after.is_empty() || !after.starts_with(char::is_alphabetic),
        Some(after) => after.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+'),
        None => false,
    }
}

/// Reads a dice token: `[COUNT]dSIDES[khN|klN][+M|-M]`.
pub fn parse(token: &str) -> Result<Dice, DiceError> {
    let (count, count_len) = parse_count(token)?;
    let (sides, at) = parse_sides(token, count_len)?;
    let (keep, at) = parse_keep(token, at, count, sides)?.unwrap_or((Keep::All, at));
    let modifier = parse_modifier(token, at, count, sides)?;
    Ok(Dice {
        count,
        sides,
        keep,
        modifier,
    })
}

/// A [`DiceError`] from its parts.
fn dice_err(
    fault: DiceFault,
    message: String,
    at: std::ops::Range<usize>,
    help: String,
) -> DiceError {
    DiceError {
        fault,
        message,
        at,
        help,
    }
}

/// The token's leading count of dice (1 if it gives none) and how many bytes it takes.
fn parse_count(token: &str) -> Result<(u16, usize), DiceError> {
    let count_len = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let count = match &token[..count_len] {
        "" => 1,
        digits => match digits.parse::<u32>() {
            Ok(0) => {
                return Err(dice_err(
                    DiceFault::Range,
                    format!("`{token}` throws no dice"),
                    0..count_len,
                    format!(
                        "throw at least one: `{}`",
                        with_count(token, count_len, "1")
                    ),
                ));
            }
            Ok(n) if n <= u32::from(MAX_DICE) => n as u16,
            _ => {
                return Err(dice_err(
                    DiceFault::Range,
                    format!("`{token}` throws more than {MAX_DICE} dice"),
                    0..count_len,
                    format!("a roll throws 1 to {MAX_DICE} dice"),
                ));
            }
        },
    };
    Ok((count, count_len))
}

/// The `d` after the count and the number of faces after it: the faces and
/// the byte where the rest of the token starts.
fn parse_sides(token: &str, count_len: usize) -> Result<(u16, usize), DiceError> {
    let after_d = count_len + 1;
    if !token[count_len..].starts_with(['d', 'D']) {
        return Err(dice_err(
            DiceFault::Shape,
            format!("`{token}` is not dice"),
            0..token.len(),
            "write dice as `1d20`, `3d6+2` or `2d20kh1`".into(),
        ));
    }
    let rest = &token[after_d..];
    let shown_count = if count_len == 0 {
        "1"
    } else {
        &token[..count_len]
    };
    let sides_len = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if sides_len == 0 {
        let shown = rest.trim_start_matches(['-', '+']);
        let sides: String = shown.chars().take_while(char::is_ascii_digit).collect();
        let help = if sides.is_empty() {
            format!("say how many faces: `{shown_count}d6`")
        } else {
            format!("a die has a positive number of faces: `{shown_count}d{sides}`")
        };
        let at = if after_d < token.len() {
            after_d..token.len()
        } else {
            0..token.len()
        };
        return Err(dice_err(
            DiceFault::Shape,
            format!("`{token}` does not say how many faces its dice have"),
            at,
            help,
        ));
    }
    let sides = match rest[..sides_len].parse::<u32>() {
        Ok(0) => {
            return Err(dice_err(
                DiceFault::Range,
                format!("`{token}` rolls dice with no faces"),
                after_d..after_d + sides_len,
                format!("a die has at least 1 face: `{shown_count}d6`"),
            ));
        }
        Ok(n) if n <= u32::from(MAX_SIDES) => n as u16,
        _ => {
            return Err(dice_err(
                DiceFault::Range,
                format!("`{token}` rolls dice of more than {MAX_SIDES} faces"),
                after_d..after_d + sides_len,
                format!("a die has 1 to {MAX_SIDES} faces"),
            ));
        }
    };
    Ok((sides, after_d + sides_len))
}

/// A `khN` or `klN` at byte `at`, if there is one: what it keeps and the byte after it.
fn parse_keep(
    token: &str,
    at: usize,
    count: u16,
    sides: u16,
) -> Result<Option<(Keep, usize)>, DiceError> {
    let lower = token[at..].to_ascii_lowercase();
    if !(lower.starts_with("kh") || lower.starts_with("kl")) {
        return Ok(None);
    }
    let n_at = at + 2;
    let tail = &token[n_at..];
    let n_len = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = tail[..n_len].parse::<u16>().unwrap_or(0);
    if n == 0 || n >= count {
        return Err(dice_err(
            DiceFault::Range,
            format!(
                "`{token}` keeps {} of its {count} dice",
                if n_len == 0 {
                    "none".to_string()
                } else {
                    tail[..n_len].to_string()
                }
            ),
            at..n_at + n_len,
            if count == 2 {
                format!("keep 1 of them: `2d{sides}kh1` keeps the higher")
            } else if count > 2 {
                format!(
                    "keep 1 to {} of them: `{count}d{sides}kh1` keeps the highest",
                    count - 1
                )
            } else {
                format!("throw more dice than you keep: `2d{sides}kh1` keeps the higher of two")
            },
        ));
    }
    let keep = if lower.starts_with("kh") {
        Keep::High(n)
    } else {
        Keep::Low(n)
    };
    Ok(Some((keep, n_at + n_len)))
}

/// The `+M` or `-M` that ends the token from byte `at` (0 if nothing is left).
fn parse_modifier(token: &str, at: usize, count: u16, sides: u16) -> Result<i64, DiceError> {
    match &token[at..] {
        "" => Ok(0),
        m if (m.starts_with('+') || m.starts_with('-'))
            && m.len() > 1
            && m[1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            match m[1..].parse::<i64>() {
                Ok(n) if n <= MAX_MODIFIER => Ok(if m.starts_with('-') { -n } else { n }),
                _ => Err(dice_err(
                    DiceFault::Range,
                    format!("`{token}` adds more than {MAX_MODIFIER}"),
                    at..token.len(),
                    "add large numbers with `[+ 1d20 N]`".into(),
                )),
            }
        }
        _ => Err(dice_err(
            DiceFault::Shape,
            format!("`{token}` has `{}` after its dice", &token[at..]),
            at..token.len(),
            format!(
                "dice end in a modifier such as `+2`: `{count}d{sides}+2`; write other arithmetic as `[+ {count}d{sides} …]`"
            ),
        )),
    }
}

/// `token` with its count (the first `count_len` bytes) replaced by `count`.
fn with_count(token: &str, count_len: usize, count: &str) -> String {
    format!("{count}{}", &token[count_len..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_dice_read_and_print_back() {
        for (text, shown) in [
            ("1d20", "1d20"),
            ("d20", "1d20"),
            ("3d6+2", "3d6+2"),
            ("2d20kh1", "2d20kh1"),
            ("4d6kl3-1", "4d6kl3-1"),
            ("1D6", "1d6"),
            ("1d1", "1d1"),
        ] {
            assert_eq!(
                parse(text).map(|d| d.to_string()),
                Ok(shown.to_string()),
                "{text}"
            );
        }
        assert_eq!(parse("3d6+2").unwrap().range(), (5, 20));
        assert_eq!(parse("2d20kh1").unwrap().range(), (1, 20));
    }

    #[test]
    fn malformed_dice_say_what_is_wrong_and_how_to_write_them() {
        for (text, message, help) in [
            ("3d", "does not say how many faces", "`3d6`"),
            ("0d6", "throws no dice", "`1d6`"),
            ("d-4", "does not say how many faces", "`1d4`"),
            ("1d0", "rolls dice with no faces", "`1d6`"),
            ("1d20kh1", "keeps 1 of its 1 dice", "`2d20kh1`"),
            ("2d20kh", "keeps none", "kh1"),
            ("3d6+", "has `+` after its dice", "`3d6+2`"),
            ("3d6x2", "has `x2` after its dice", "[+ 3d6"),
            ("101d6", "more than 100 dice", "1 to 100"),
            ("1d20000", "more than 10000 faces", "1 to 10000"),
        ] {
            let e = parse(text).expect_err(text);
            assert!(e.message.contains(message), "{text}: {}", e.message);
            assert!(e.help.contains(help), "{text}: {}", e.help);
            assert!(
                e.at.end <= text.len() && e.at.start < e.at.end,
                "{text}: {:?}",
                e.at
            );
        }
    }

    #[test]
    fn dice_out_of_shape_and_out_of_range_are_told_apart() {
        for text in ["3d", "d-4", "3d6+", "3d6x2"] {
            assert_eq!(
                parse(text).map_err(|e| e.fault),
                Err(DiceFault::Shape),
                "{text}"
            );
        }
        for text in ["0d6", "1d0", "1d20kh1", "101d6", "1d20000", "1d6+9999999"] {
            assert_eq!(
                parse(text).map_err(|e| e.fault),
                Err(DiceFault::Range),
                "{text}"
            );
        }
    }

    #[test]
    fn what_looks_like_dice() {
        for yes in ["1d20", "d20", "3d", "0d6", "d-4", "12d6+3", "3d6x"] {
            assert!(looks_like(yes), "{yes}");
        }
        for no in ["d", "dx", "do", "draw", "12", "12ab", "dispel", "1dance"] {
            assert!(!looks_like(no), "{no}");
        }
    }
}
