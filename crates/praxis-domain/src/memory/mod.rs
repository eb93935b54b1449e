//! Agent memory: items a scope keeps under a key, written by compare-and-set
//! on an opaque revision (issue 13; the store and the server build on this).
//!
//! - `key`: the item's key;
//! - `item`: what an item holds, validated and screened like record text;
//! - `revision`: revisions bound to an item's generation, so no revision is
//!   ever reused, even for a deleted and recreated key or an A→B→A edit;
//! - `write`: what a set or a delete does, from the key as it stands;
//! - `history`: a live item and the changes a key's history lists;
//! - `search`: the tokenizer both engines index with, and what a query
//!   matches.

mod history;
mod item;
mod key;
mod revision;
pub mod search;
mod write;

pub use history::{ChangeKind, MemoryChange, MemoryItem};
pub use item::{MAX_BODY_BYTES, MAX_SUMMARY_CHARS, MAX_TAGS, MemoryDefinition, Priority};
pub use key::{MAX_KEY_CHARS, MemoryKey};
pub use revision::{MemoryRevision, REVISION_PREFIX, Stamp};
pub use write::{DeleteOutcome, KeyState, SetOutcome};
