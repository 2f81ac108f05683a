//! Typed ids: the index of each sort of thing a rule set declares or a game
//! numbers, and [`IdVec`], a vector looked up by one. The bottom module: every
//! layer names it, it names nothing of the crate, so the AST, the rule set and
//! the engine all say `KindId` where they mean a kind.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut, Index, IndexMut};

/// Declares an id: a `#[repr(transparent)]` newtype over an unsigned integer,
/// printed and serialised as that integer, so outputs do not change.
macro_rules! id {
    ($(#[$doc:meta])* $name:ident($raw:ty)) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        #[repr(transparent)]
        pub struct $name($raw);

        impl $name {
            /// The first id of this sort: the first seat, the first turn kind.
            pub const FIRST: Self = Self(0);

            /// The largest id of this sort.
            pub const MAX: Self = Self(<$raw>::MAX);

            /// The id of the item at this index. Indices come from the
            /// rule set's own lists, which the checker keeps within range.
            #[inline]
            #[must_use]
            pub const fn new(index: usize) -> Self {
                Self(index as $raw)
            }

            /// The index this id stands for.
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// Every id below `count`, in order.
            #[inline]
            pub fn below(count: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator {
                (0..count).map(Self::new)
            }
        }

        impl TryFrom<usize> for $name {
            type Error = std::num::TryFromIntError;
            fn try_from(index: usize) -> Result<Self, Self::Error> {
                <$raw>::try_from(index).map(Self)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }

        impl Id for $name {
            #[inline]
            fn new(index: usize) -> Self {
                Self::new(index)
            }
            #[inline]
            fn index(self) -> usize {
                self.index()
            }
        }
    };
}

/// What [`IdVec`] needs of an id: the index it stands for, and back.
pub trait Id: Copy {
    /// The id of the item at this index.
    fn new(index: usize) -> Self;
    /// The index this id stands for.
    fn index(self) -> usize;
}

id! {
    /// Index of an attribute in the rule set (`:wall`).
    AttrId(u16)
}

id! {
    /// Index of a kind of entity in the rule set's `:kinds`; seats are of the first.
    KindId(u16)
}

id! {
    /// Index of a status definition in the rule set (`:weakness`).
    StatusId(u16)
}

id! {
    /// An entity's number in a state: a seat's player, a unit, a tile; never reused in a game.
    EntityId(u32)
}

id! {
    /// Index of an operation in the rule set (`:damage`).
    OpId(u16)
}

id! {
    /// Index of a role in the rule set (`:you`): a name bound to an entity when effects run.
    RoleId(u8)
}

id! {
    /// Index of a flag statuses set (`:no-move-attack`), in the rule set's list of flags.
    FlagId(u16)
}

id! {
    /// Index of a category in the rule set's `:categories`.
    CategoryId(u16)
}

id! {
    /// Index of a base in the rule set's `:bases`: what a status's output is computed from.
    BaseId(u16)
}

id! {
    /// Index of a timing in the rule set's `:timings` (`:turn-start`).
    TimingId(u16)
}

id! {
    /// Index of a turn kind in the rule set's `:turn-kinds`; at most 64, so a
    /// set of them is one bit mask.
    TurnKindId(u8)
}

id! {
    /// Index of an action in the rule set's `:actions` (`:move`).
    ActionId(u16)
}

id! {
    /// Index of a set of options in the rule set's `:choices`.
    ChoiceSetId(u16)
}

id! {
    /// Index of one option in the rule set's flat list of every set's options.
    OptionId(u16)
}

id! {
    /// Index of a card in the game's card list.
    CardId(u16)
}

id! {
    /// Index of a zone in the rule set's `:zones` (`:hand`), the engine's own
    /// `:playing` and `:removed` last.
    ZoneId(u16)
}

/// A vector whose items are looked up by an id of one sort: an attribute id
/// indexes attributes, and the compiler refuses it for kinds. Reads as a slice
/// for length and iteration.
///
/// ```
/// use grimoire::ids::{IdVec, KindId};
/// let mut kinds: IdVec<KindId, &str> = IdVec::new();
/// let player = kinds.push("player");
/// assert_eq!(kinds[player], "player");
/// ```
///
/// ```compile_fail
/// use grimoire::ids::{AttrId, IdVec, KindId};
/// let kinds: IdVec<KindId, &str> = vec!["player"].into();
/// let _ = kinds[AttrId::FIRST]; // an attribute id does not index kinds
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct IdVec<I, T> {
    items: Vec<T>,
    id: PhantomData<fn(I) -> I>,
}

impl<I: Id, T> IdVec<I, T> {
    /// An empty vector.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            items: Vec::new(),
            id: PhantomData,
        }
    }

    /// Adds an item and returns its id.
    pub fn push(&mut self, item: T) -> I {
        let id = I::new(self.items.len());
        self.items.push(item);
        id
    }

    /// The item with this id, if there is one.
    #[inline]
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    /// Every id, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.items.len()).map(I::new)
    }

    /// Every item with its id, in order.
    pub fn iter_ids(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.items.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }

    /// The items, as a slice indexed by position.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }

    /// The items, as a plain vector.
    #[must_use]
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

impl<I: Id, T> Default for IdVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I, T> From<Vec<T>> for IdVec<I, T> {
    fn from(items: Vec<T>) -> Self {
        Self {
            items,
            id: PhantomData,
        }
    }
}

impl<I, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        Vec::from_iter(iter).into()
    }
}

impl<I, T> Extend<T> for IdVec<I, T> {
    fn extend<It: IntoIterator<Item = T>>(&mut self, iter: It) {
        self.items.extend(iter);
    }
}

impl<I, T: fmt::Debug> fmt::Debug for IdVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.items.fmt(f)
    }
}

impl<I, T> Deref for IdVec<I, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<I, T> DerefMut for IdVec<I, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<I: Id, T> Index<I> for IdVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, id: I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Id, T> IndexMut<I> for IdVec<I, T> {
    #[inline]
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.index()]
    }
}

impl<'a, I, T> IntoIterator for &'a IdVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
