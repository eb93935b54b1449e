//! A proposal's life.
//!
//! `open` → `promoted` (memory: in one transaction), or `open` →
//! `promoting` (skill: the attempt marker is durable, the file write
//! follows) → `receipt_saved` (the effect's receipt is durable) →
//! `promoted` (the promotion note is durable). A `promoting` proposal that
//! no live approval is carrying is reported as
//! `promotion_outcome_unresolved_do_not_retry` until an operator resolves
//! it; a promotion that was not applied returns it to `open`. `open` →
//! `withdrawn` ends it.

use serde::{Deserialize, Serialize};

/// Where a proposal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProposalState {
    /// Proposed, reviewable, approvable.
    Open,
    /// A skill promotion's marker is durable and its outcome is not.
    Promoting,
    /// A skill promotion's receipt is durable; its note is not yet.
    ReceiptSaved,
    /// Applied, with its receipt and note.
    Promoted,
    /// Withdrawn; it never promotes.
    Withdrawn,
}

impl ProposalState {
    /// The state's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ProposalState::Open => "open",
            ProposalState::Promoting => "promoting",
            ProposalState::ReceiptSaved => "receipt_saved",
            ProposalState::Promoted => "promoted",
            ProposalState::Withdrawn => "withdrawn",
        }
    }

    /// The state of a name.
    pub fn parse(text: &str) -> Option<ProposalState> {
        [
            ProposalState::Open,
            ProposalState::Promoting,
            ProposalState::ReceiptSaved,
            ProposalState::Promoted,
            ProposalState::Withdrawn,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }
}
