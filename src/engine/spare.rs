//! Lists kept for reuse: the inner lists of a game's entries (a timed
//! entry's roles, a prepared action's payments) that a search's world gives
//! up when it is copied over or an entry is done, for the next entries it
//! makes, so that an iteration of a tree search allocates nothing.

/// An entry of a game's list that holds a list of its own.
pub(super) trait WithList: Clone {
    /// What its list holds.
    type Item: Clone;

    /// Its list.
    fn list(&mut self) -> &mut Vec<Self::Item>;

    /// A copy of it whose list is `list` (empty, kept from another) filled
    /// with its own.
    fn with_list(&self, list: Vec<Self::Item>) -> Self;
}

/// Emptied lists, kept: a buffer, not state (a copy starts with none).
#[derive(Debug)]
pub(super) struct Spare<T>(Vec<Vec<T>>);

impl<T> Default for Spare<T> {
    fn default() -> Spare<T> {
        Spare(Vec::new())
    }
}

impl<T> Clone for Spare<T> {
    fn clone(&self) -> Spare<T> {
        Spare::default()
    }
}

impl<T> Spare<T> {
    /// An empty list: one kept, if any.
    pub(super) fn take(&mut self) -> Vec<T> {
        let mut list = self.0.pop().unwrap_or_default();
        list.clear();
        list
    }

    /// Keeps `list` for a later [`Spare::take`].
    pub(super) fn keep(&mut self, list: Vec<T>) {
        self.0.push(list);
    }

    /// Copies `from` into `into`, each entry into the one already there; the
    /// lists of the entries past `from`'s end are kept, and the entries
    /// added take kept ones, so a copy made over and over allocates nothing.
    pub(super) fn copy<E: WithList<Item = T>>(&mut self, into: &mut Vec<E>, from: &[E]) {
        let shared = into.len().min(from.len());
        for mut gone in into.drain(shared..) {
            self.keep(std::mem::take(gone.list()));
        }
        into.clone_from_slice(&from[..shared]);
        for entry in &from[shared..] {
            into.push(entry.with_list(self.take()));
        }
    }
}
