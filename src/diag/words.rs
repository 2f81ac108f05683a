//! Wording shared by every message: plurals and lists of names, so each
//! is written one way everywhere.

/// The plural ending for `n` of something: "1 error", "2 errors"; `n`
/// any unsigned count (`usize`, `u64`, `u8`).
pub(crate) fn plural<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

/// Joins names for a list of what exists: "`a`, `b` and `c`".
pub fn list_and(items: impl IntoIterator<Item = String>) -> String {
    join(items, "and")
}

/// Joins names for a message: "`a`, `b` or `c`".
pub fn list(items: impl IntoIterator<Item = String>) -> String {
    join(items, "or")
}

/// "`a`, `b` {last} `c`".
fn join(items: impl IntoIterator<Item = String>, last: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} {last} {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_plurals_read_as_english() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(list_and(names(&[])), "");
        assert_eq!(list_and(names(&["a"])), "a");
        assert_eq!(list_and(names(&["a", "b"])), "a and b");
        assert_eq!(list_and(names(&["a", "b", "c"])), "a, b and c");
        assert_eq!(list(names(&["a", "b", "c"])), "a, b or c");
        assert_eq!((plural(0usize), plural(1u8), plural(2u64)), ("s", "", "s"));
    }
}
