//! The keys of the map under an editor's cursor, for the language server's
//! completion and hover: a card's own keys, and those of the maps a card
//! nests (a trigger, a target, an ability, a reaction, an aura, a
//! condition's case), and a rule set's metrics and their events, found from
//! the keys that lead to the cursor.

use crate::check::keys::Keys;

/// The keys one sort of map takes, each with what it means.
pub struct KeySet {
    /// What the map is: "a card", "a trigger".
    pub what: &'static str,
    /// Each key without its colon, and its doc.
    pub keys: Vec<(&'static str, &'static str)>,
}

fn set<K: Keys>(what: &'static str) -> KeySet {
    KeySet {
        what,
        keys: K::ALL.iter().map(|k| (k.name(), k.doc().trim())).collect(),
    }
}

/// One open bracket on the way to the cursor.
struct Frame {
    open: u8,
    /// The key whose value it is (for a vector's items, the vector's key).
    key: Option<String>,
    /// The key of the map it is in.
    parent: Option<String>,
    /// The forms read in it so far.
    forms: usize,
    /// The last form read, if it was a keyword.
    last: Option<String>,
    /// Its first keyword (a definition's `:card`).
    first: Option<String>,
}

/// The keys of the map the byte `at` of `text` is in, and whether a key
/// (not a value) is due there; `None` outside any map we know.
pub fn context(text: &str, at: usize) -> Option<(KeySet, bool)> {
    let frames = frames(text, at.min(text.len()));
    let f = frames.last()?;
    if f.open != b'{' {
        return None;
    }
    let key = f.key.as_deref();
    // A rule set's metric's event map: `:metrics {:name {:count {…}}}`.
    let in_metric =
        frames.len() >= 2 && frames[frames.len() - 2].parent.as_deref() == Some("metrics");
    let set = match (key, f.parent.as_deref()) {
        (Some("count" | "sum"), _) if in_metric => {
            set::<crate::check::rules::keys::MetricEventKey>("a metric's events")
        }
        (Some(_), Some("metrics")) => set::<crate::check::rules::keys::MetricKey>("a metric"),
        (None, _) if frames.len() == 2 && f.first.as_deref() == Some("card") => {
            set::<crate::check::DefKey>("a card")
        }
        (Some("triggers"), _) => set::<crate::check::triggers::TriggerKey>("a trigger"),
        (Some("reaction"), _) => set::<crate::check::reactions::ReactionKey>("a reaction"),
        (Some("auras"), _) => set::<crate::check::triggers::AuraKey>("an aura"),
        (Some("playable-when" | "forced-when" | "usable-when"), _) => {
            set::<crate::check::targets::CaseKey>("a condition's case")
        }
        (Some(_), Some("abilities")) => set::<crate::check::abilities::AbilityKey>("an ability"),
        (Some(_), Some("targets")) => set::<crate::check::targets::TargetKey>("a target"),
        _ => return None,
    };
    Some((set, f.forms % 2 == 0))
}

/// What hovering over key `:k` at byte `at` shows, where the map it is in
/// takes such a key.
pub fn describe(text: &str, at: usize, k: &str) -> Option<String> {
    let (set, _) = context(text, at)?;
    let (_, doc) = set.keys.iter().find(|(name, _)| *name == k)?;
    Some(format!("key `:{k}` of {}: {doc}", set.what))
}

/// The brackets open at `at`, outermost first, under a frame for the text itself.
fn frames(text: &str, at: usize) -> Vec<Frame> {
    let bytes = text.as_bytes();
    let mut frames = vec![Frame {
        open: 0,
        key: None,
        parent: None,
        forms: 0,
        last: None,
        first: None,
    }];
    let mut i = 0;
    while i < at {
        let b = bytes[i];
        match b {
            b'"' => {
                i += 1;
                while i < at && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                read_form(&mut frames, None);
            }
            b';' => {
                while i < at && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' | b'[' | b'(' => {
                let top = frames.last();
                let key = match top {
                    Some(t) if t.open == b'[' => t.key.clone(),
                    Some(t) => t.last.clone(),
                    None => None,
                };
                let parent = top.and_then(|t| t.key.clone());
                frames.push(Frame {
                    open: b,
                    key,
                    parent,
                    forms: 0,
                    last: None,
                    first: None,
                });
                i += 1;
            }
            b'}' | b']' | b')' => {
                if frames.len() > 1 {
                    frames.pop();
                }
                read_form(&mut frames, None);
                i += 1;
            }
            _ if b.is_ascii_whitespace() || b == b',' => i += 1,
            _ => {
                let start = i;
                while i < at && !b" \t\r\n,{}[]()\";".contains(&bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                read_form(&mut frames, word.strip_prefix(':').map(str::to_string));
            }
        }
    }
    frames
}

/// One more form read in the innermost frame: `keyword` if it was one.
fn read_form(frames: &mut [Frame], keyword: Option<String>) {
    if let Some(top) = frames.last_mut() {
        top.forms += 1;
        if top.first.is_none() {
            top.first.clone_from(&keyword);
        }
        top.last = keyword;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key set and whether a key is due at the `|` of `text`.
    fn at(text: &str) -> Option<(&'static str, Vec<&'static str>, bool)> {
        let i = text.find('|')?;
        let text = text.replace('|', "");
        context(&text, i).map(|(set, key)| (set.what, set.keys.iter().map(|k| k.0).collect(), key))
    }

    #[test]
    fn a_metric_and_its_events_have_their_keys() {
        let (what, keys, key) = at("{:rules :x :metrics {:hp {:doc \"…\" |}}}").unwrap();
        assert_eq!((what, key), ("a metric", true));
        assert_eq!(keys, ["doc", "value", "count", "sum"]);
        let (what, keys, _) = at("{:metrics {:taken {:sum {:on :damaged |}}}}").unwrap();
        assert_eq!(what, "a metric's events");
        assert!(
            keys.contains(&"amount") && keys.contains(&"where"),
            "{keys:?}"
        );
        // A `:count` map elsewhere is not a metric's.
        assert!(
            at("{:card \"X\" :effects [{:discard {:count |}}]}")
                .is_none_or(|(w, ..)| w != "a metric's events")
        );
        let hover = describe("{:metrics {:hp {:value [:you :health]}}}", 18, "value").unwrap();
        assert!(
            hover.starts_with("key `:value` of a metric: ")
                && hover.contains("an integer read at the game's end"),
            "{hover}"
        );
    }
}
