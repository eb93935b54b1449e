//! Proposals: reviewed guidance promoted into agent memory or a project
//! skill (issue 13; the seed is 004).
//!
//! - `candidate`: what a proposal holds, its bounds, its screening and its
//!   rendered body;
//! - `source`: the evidence a candidate names, and how each kind of source
//!   is hashed;
//! - `hashes`: the version hash a reviewer approves and the destination
//!   hash of the state they saw;
//! - `record`: a proposal as its events leave it, one function for the
//!   writer and verification alike;
//! - `state`: a proposal's life, from open to promoted, withdrawn or an
//!   outcome to resolve.

mod candidate;
mod hashes;
mod record;
mod source;
mod state;

pub use candidate::{
    Candidate, Destination, MAX_CANDIDATE_BYTES, MAX_CONDITION_CHARS, MAX_CONDITIONS,
    MAX_CONTENT_BYTES, MAX_SOURCES, SCHEMA, render,
};
pub use hashes::{destination_hash, version_hash};
pub use record::{
    Approval, Marker, PROMOTION_FAILED, PROMOTION_RECEIPT, PROMOTION_STARTED, PROPOSAL_APPROVED,
    PROPOSAL_CREATED, PROPOSAL_PROMOTED, PROPOSAL_WITHDRAWN, Promoted, Proposal, Receipt,
};
pub use source::{SourceKind, SourceRef, SourceStatus, object_sha256};
pub use state::ProposalState;
