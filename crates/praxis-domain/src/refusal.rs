//! Refusals: a domain rule turned a well-formed command down.
//!
//! A refusal is the caller's to fix, never a fault of the store. The server
//! maps each variant to exactly one status and stable code, with no
//! catch-all, so a new variant fails to compile until someone maps it.
//!
//! Every concept returns refusals, so this module names no concept's types:
//! a refusal carries text, numbers and findings, which keeps the concepts
//! free of import cycles through it.

use thiserror::Error;

use crate::error::DomainError;
use crate::finding::Finding;

/// Every way a domain rule can refuse a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refusal {
    /// A field breaks a rule of its own (shape, range, length).
    #[error(transparent)]
    Invalid(#[from] DomainError),
    /// A disposition was stated that may not accompany the outcome's status.
    #[error("disposition {disposition} cannot accompany status {status}")]
    InvalidDisposition {
        /// The stated disposition, as the protocol spells it.
        disposition: &'static str,
        /// The outcome's status, as the protocol spells it.
        status: &'static str,
    },
    /// A different attempt is already recorded under the same identity.
    #[error("a different record exists under this attempt identity")]
    IdentityConflict,
    /// Some records of an import conflict with stored ones; nothing was written.
    #[error("{} imported record(s) conflict with stored ones", .0.len())]
    AttemptsRejected(Vec<AttemptProblem>),
    /// A legacy store to import is invalid; nothing was written.
    #[error("the store to import has {} problem(s)", .0.len())]
    ImportInvalid(Vec<ImportProblem>),
    /// A record (or skill release) breaks rules; every finding is listed.
    #[error("the record has {} finding(s)", .0.len())]
    RecordInvalid(Vec<Finding>),
    /// The record's lifecycle does not allow the requested change.
    #[error("invalid lifecycle transition: {0}")]
    InvalidTransition(String),
    /// A source or record id is already bound to something else.
    #[error("{0}")]
    SourceConflict(String),
    /// A submitter tried to review their own record.
    #[error("a submitter cannot review their own record")]
    SelfReview,
    /// Someone other than a candidate's author tried to discard it.
    #[error("only the record's author can discard it")]
    NotRecordAuthor,
    /// A discard of a record that is no longer a candidate.
    #[error("{0}")]
    RecordNotCandidate(String),
    /// The target changed since the revision the caller saw.
    #[error("record is at revision {current}, not {expected}")]
    RevisionConflict {
        /// The revision the caller expected.
        expected: u64,
        /// The current revision.
        current: u64,
    },
    /// The target's content changed since the digest the caller saw.
    #[error("the content's sha256 is {current}, not {expected}")]
    Sha256Conflict {
        /// The SHA-256 the caller expected (lowercase hex, as given).
        expected: String,
        /// The current content's SHA-256.
        current: String,
    },
    /// A published skill version would change.
    #[error("{0}")]
    SkillConflict(String),
    /// The credential is revoked and cannot change any more.
    #[error("credential is revoked")]
    CredentialRevoked,
    /// A learning registry id already names a different payload; registered
    /// policies and contexts never change.
    #[error("{what} {id} is already registered with other content")]
    RegistryConflict {
        /// `policy` or `context`.
        what: &'static str,
        /// The id.
        id: String,
    },
    /// An experience id (an attempt's id, an event's id, a withdrawal's
    /// idempotency key) was reused with other content, or by another
    /// subject; an identical retry is answered, never refused.
    #[error("{what} {id} already exists with other content")]
    ExperienceIdConflict {
        /// `attempt`, `event` or `withdrawal`.
        what: &'static str,
        /// The reused id.
        id: String,
    },
    /// An experience's outcome is terminal and another one was reported; a
    /// correction is a new attempt naming its parent.
    #[error("the outcome is {current}, which is terminal; {reported} cannot replace it")]
    TerminalOutcome {
        /// The current outcome.
        current: &'static str,
        /// The outcome reported.
        reported: &'static str,
    },
    /// Only the attempt's bound reporter may report on it (or, in a private
    /// scope, record it).
    #[error("only the attempt's reporter may report on it")]
    NotReporter,
    /// A known consumption value was reported below the greatest known one;
    /// consumption is cumulative and never decreases.
    #[error("{field} {reported} is below the {observed} already known")]
    ConsumptionDecreased {
        /// `cost_units` or `latency_ms`.
        field: &'static str,
        /// The greatest value known so far.
        observed: u64,
        /// The value reported.
        reported: u64,
    },
    /// The observation is already withdrawn, under another idempotency key.
    #[error("observation {attempt_id}/{event_id} is already withdrawn")]
    ExperienceAlreadyWithdrawn {
        /// The attempt.
        attempt_id: String,
        /// The event.
        event_id: String,
    },
    /// An attempt's parent chain would be longer than the lineage bound.
    #[error("the parent chain would hold more than {max} attempts")]
    LineageTooDeep {
        /// The bound.
        max: usize,
    },
    /// A reason breaks its length rule or screening; every finding is
    /// listed, pointed at `/reason`.
    #[error("the reason has {} finding(s)", .0.len())]
    ReasonInvalid(Vec<Finding>),
    /// Only the policy's evaluator subject may submit evaluations.
    #[error("only the policy's evaluator may submit evaluations")]
    NotEvaluator,
    /// A strategy names an observation that does not exist, is another
    /// than the one its digest pins, does not match the strategy's context
    /// or accounting unit, or is withdrawn.
    #[error("invalid observation {message}")]
    InvalidObservation {
        /// JSON pointer to the observation in the request.
        pointer: String,
        /// Which observation, and what is wrong with it.
        message: String,
    },
    /// A memory item breaks a bound or screening; every finding is listed.
    #[error("the memory item has {} finding(s)", .0.len())]
    MemoryInvalid(Vec<Finding>),
    /// A create-only memory write found the key holding another item.
    #[error("the key holds another item at {current}; name it as expected_revision")]
    MemoryRevisionRequired {
        /// The item's revision.
        current: String,
    },
    /// A memory write or delete named a revision other than the item's.
    #[error("the item changed: its revision is {current}")]
    MemoryChanged {
        /// The item's revision.
        current: String,
    },
    /// A create would pass a memory capacity limit; nothing is evicted.
    #[error("memory is full: the {limit} holds its limit of {max} items")]
    MemoryFull {
        /// `scope` or `tenant`.
        limit: &'static str,
        /// The limit.
        max: u64,
    },
    /// A proposal's candidate breaks a bound, a form or screening.
    #[error("the candidate has {} finding(s)", .0.len())]
    ProposalInvalid(Vec<Finding>),
    /// The scope holds its limit of open proposals.
    #[error("the scope holds its limit of {max} open proposals")]
    ProposalsFull {
        /// The limit.
        max: u64,
    },
    /// A proposal is not in a state that allows the command.
    #[error("the proposal is {state}")]
    ProposalNotOpen {
        /// Its state.
        state: &'static str,
    },
    /// The version hash is not the proposal's.
    #[error("the version hash is not the proposal's; review it again")]
    VersionMismatch,
    /// A source no longer hashes to what the candidate pinned.
    #[error("source {index} is {status}; nothing was applied")]
    SourceChanged {
        /// Its index in the candidate.
        index: usize,
        /// `changed` or `missing`.
        status: &'static str,
    },
    /// The destination is not in the state reviewed or expected.
    #[error("the destination changed ({what}); nothing was applied")]
    DestinationChanged {
        /// What differs.
        what: String,
    },
    /// The approver proposed it, and the scope does not allow self-approval.
    #[error("the proposer cannot approve their own proposal in this scope")]
    SelfApproval,
    /// A skill promotion's outcome is unknown: the marker is durable and
    /// no receipt is. It must be resolved by an operator, never retried.
    #[error(
        "promotion outcome unknown: inspect {path} (expected sha256 {expected}, or {new} if the write landed), then run `praxis proposals resolve` with --applied or --not-applied"
    )]
    PromotionUnresolved {
        /// The project file to inspect.
        path: String,
        /// Its hash before the write (`none` when it did not exist).
        expected: String,
        /// Its hash had the write landed.
        new: String,
    },
    /// Another approval of the proposal is carrying its promotion now.
    #[error("another approval is promoting this proposal now")]
    PromotionInProgress,
    /// A resolution the file contradicts.
    #[error("the file contradicts the resolution: {0}")]
    ResolutionContradicted(String),
}

/// A problem with one record of an attempt import (or the only record of
/// an observation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptProblem {
    /// Index of the record in the request.
    pub index: usize,
    /// Stable code: `identity_conflict`.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

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
