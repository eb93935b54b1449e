//! Experience records (protocol v0.1): bounded, redacted case records of one
//! troubleshooting episode, and the checks a record must pass before it is
//! kept.
//!
//! A record is checked in layers, and every layer reports all of its
//! findings rather than stopping at the first:
//!
//! - [`schema`]: the structural contract, our own JSON Schema for v0.1;
//! - [`gate`]: the policy gate, the cross-field rules a schema cannot state;
//! - [`screen`]: the redaction and screening engine (secrets, home paths,
//!   prompt overrides, unsafe commands);
//! - [`lifecycle`]: intake, review and lifecycle transitions, and the
//!   revision events that record them;
//! - [`repository`]: rules over a whole set of records and the skill
//!   registry (unique ids, resolvable relations, exact skill releases);
//! - [`reference`]: what one submission refers to in its namespace, which
//!   intake resolves against what is kept.
//!
//! Around them: [`state`] (lifecycle, review status, platform and
//! verification level as types), [`kept`] (a kept record's current state),
//! [`search`] (what a search's text asks for), [`view`]
//! (reading a document's trust fields), [`source`] (source identity and
//! who may revise what it holds) and [`notes`] (reasons and notes people
//! add to a change).
//!
//! Records are data only: nothing here interprets a record's text as an
//! instruction.

pub(crate) mod check;
pub mod gate;
pub mod kept;
pub mod lifecycle;
pub mod notes;
pub(crate) mod placement;
pub(crate) mod protocol;
pub mod reference;
pub mod repository;
pub mod schema;
pub mod search;
pub mod source;
pub mod state;
pub mod view;

pub use crate::finding::Finding;
/// The screening engine, at its old path: records were its first users.
pub use crate::screen;
pub use check::{check, check_bytes};
pub use kept::KeptRecord;
pub use placement::{Directory, Placement};
pub use protocol::{MAX_RECORD_BYTES, SCHEMA_VERSION};
