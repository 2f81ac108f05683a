//! Closed sets of map keys: each set an enum, each key one keyword.
//!
//! A map's keys are read into the enum (by `fields`) and every reader
//! matches on it exhaustively, so a key added to a set but not handled fails to
//! compile, and the names that suggestions and docs list come from the same enum.

/// A closed set of map keys.
pub trait Keys: Copy + Eq + std::fmt::Debug + 'static {
    /// Every key, in the order the reader handles them and the docs list them.
    const ALL: &'static [Self];
    /// Keys of this set under former names, each with the help that names the new one.
    const RENAMED: &'static [(&'static str, &'static str)] = &[];
    /// The keyword, without its colon.
    fn name(self) -> &'static str;
    /// What it means: its doc comment, the lines joined.
    fn doc(self) -> &'static str {
        ""
    }
    /// The key called `name`, if it is one of these.
    fn find(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }
}

/// Declares an enum of keys and its [`Keys`] impl: `keys! { pub enum K { A = "a", B = "b" } }`,
/// optionally followed by `renamed { "old" => "help naming the new key" }`.
macro_rules! keys {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[doc = $vdoc:literal])* $var:ident = $kw:literal),+ $(,)?
    } renamed { $($old:literal => $help:literal),+ $(,)? }) => {
        keys! { $(#[$meta])* $vis enum $name { $($(#[doc = $vdoc])* $var = $kw),+ } @renamed [$(($old, $help)),+] }
    };
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[doc = $vdoc:literal])* $var:ident = $kw:literal),+ $(,)?
    }) => {
        keys! { $(#[$meta])* $vis enum $name { $($(#[doc = $vdoc])* $var = $kw),+ } @renamed [] }
    };
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[doc = $vdoc:literal])* $var:ident = $kw:literal),+
    } @renamed [$(($old:literal, $help:literal)),*]) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[doc = $vdoc])* $var),+
        }
        impl $crate::check::keys::Keys for $name {
            const ALL: &'static [Self] = &[$($name::$var),+];
            const RENAMED: &'static [(&'static str, &'static str)] = &[$(($old, $help)),*];
            fn name(self) -> &'static str {
                match self {
                    $($name::$var => $kw),+
                }
            }
            fn doc(self) -> &'static str {
                match self {
                    $($name::$var => concat!($($vdoc),*)),+
                }
            }
        }
    };
}
pub(crate) use keys;
