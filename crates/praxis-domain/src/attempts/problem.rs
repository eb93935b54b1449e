//! What an attempt import reports about each record it cannot take.
//!
//! Kept apart from the legacy module because a refusal carries these
//! problems while the import itself returns refusals: a module of its own
//! keeps the two from depending on each other.

/// One problem found in a legacy store.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImportProblem {
    /// Index of the record, or `None` for the store as a whole.
    pub index: Option<usize>,
    /// JSON pointer of the offending field, relative to the store.
    pub path: String,
    /// Stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}
