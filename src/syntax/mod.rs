//! The reader layer: source text to a spanned syntax tree ([`Form`]).
//!
//! Nothing here knows about rule sets or effects; the checker gives forms meaning.

mod form;
mod reader;
mod span;

pub use form::{Arena, Form, Kind};
pub use reader::{MAX_DEPTH, Read, ReadError, read, read_one};
pub use span::{LineIndex, Location, Span};
