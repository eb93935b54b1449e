//! The storage error type.
//!
//! Refusals (a domain rule turned the command down) are kept apart from
//! faults (the store could not do its job), and a fault of the database
//! itself is opaque: callers never see the SQLite or PostgreSQL crates'
//! types, only whether the fault is worth a retry.

use std::sync::Arc;

use praxis_domain::{DomainError, Refusal};
use thiserror::Error;

/// Every way a storage operation can fail.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A domain rule refused the command; nothing was written.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// What the command names does not exist (in this tenant).
    #[error("{0} not found")]
    NotFound(Missing),
    /// The tenant already exists.
    #[error("tenant already exists")]
    TenantExists,
    /// The same idempotency key was used with a different request.
    #[error("idempotency key reused with a different request")]
    IdempotencyConflict,
    /// The credential that authorized a write was revoked, rotated, expired or
    /// lost the capability before the write could be applied.
    #[error("the credential's authority ended before the write was applied")]
    AuthorityEnded,
    /// A stored event, receipt or projection does not match its digest or
    /// its log, or a stored value cannot be decoded.
    #[error("storage inconsistency: {0}")]
    Inconsistent(String),
    /// The database failed; what it said is kept for the log.
    #[error("{0}")]
    Backend(BackendError),
    /// The store was written by a newer schema than this build knows.
    #[error("store schema version {found} is newer than this build's {supported}; upgrade praxis")]
    SchemaTooNew {
        /// Version found in the store.
        found: i64,
        /// Newest version this build supports.
        supported: i64,
    },
    /// The store was first served with another seal key: receipts sealed
    /// under it could not be opened, and a retry would act twice.
    #[error(
        "this store was first served with another seal key (fingerprint {recorded}); every server of one store must use the same seal key"
    )]
    SealKeyMismatch {
        /// The fingerprint the store recorded.
        recorded: String,
    },
    /// A migration was refused (the target is not empty, or holds another
    /// migration), or its copy failed verification or comparison.
    #[error("migration: {0}")]
    Migration(String),
    /// Opening or configuring the store failed.
    #[error("cannot open store: {0}")]
    Open(String),
    /// The store's writer is gone (the engine is shutting down).
    #[error("the store's writer has stopped")]
    WriterStopped,
    /// Applying a batch panicked (a bug); the batch was rolled back and the
    /// writer kept running.
    #[error("a write failed unexpectedly and was rolled back")]
    Panicked,
    /// An operator's command (backup, restore, verify) refused to act: the
    /// file or directory it names is not what it needs (a file already in
    /// place, a store already there, a file that is no Praxis backup).
    /// Nothing was changed.
    #[error("{0}")]
    OperationRefused(String),
    /// A filesystem operation failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    /// The writer's transaction failed, so no write of its batch was
    /// committed; the cause is shared by every write of the batch.
    #[error("the write was not committed: {0}")]
    NotCommitted(Arc<StoreError>),
}

/// What a command named that does not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The tenant.
    Tenant,
    /// A credential of the tenant.
    Credential,
    /// A record of the namespace.
    Record,
    /// A skill release of the namespace.
    SkillRelease,
    /// The registered context an attempt names.
    Context,
    /// The parent observation an attempt names.
    Parent,
    /// A development attempt of the namespace.
    Experience,
    /// An accepted event of an attempt, named as an observation.
    Observation,
    /// A registered policy or context a procedure names, at a pointer into
    /// the request.
    Registered {
        /// `policy` or `context`.
        what: &'static str,
        /// Where the request names it.
        pointer: &'static str,
    },
    /// A procedure of the namespace.
    Procedure,
    /// A strategy of the namespace.
    Strategy,
    /// A live memory item of the namespace.
    Memory,
    /// A proposal of the namespace.
    Proposal,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Missing::Tenant => "tenant",
            Missing::Credential => "credential",
            Missing::Record => "record",
            Missing::SkillRelease => "skill release",
            Missing::Context => "context",
            Missing::Parent => "parent observation",
            Missing::Experience => "experience",
            Missing::Observation => "observation",
            Missing::Registered { what, .. } => what,
            Missing::Procedure => "procedure",
            Missing::Strategy => "strategy",
            Missing::Memory => "memory item",
            Missing::Proposal => "proposal",
        })
    }
}

/// A database fault, without the database crate's types.
#[derive(Debug, Error)]
#[error("{engine}: {message}")]
pub struct BackendError {
    engine: &'static str,
    message: String,
    kind: BackendKind,
}

/// What the store needs to know of a database fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BackendKind {
    /// A unique key refused the row.
    UniqueViolation,
    /// The database asks for the transaction to be retried
    /// (serialization failure or deadlock).
    Retry,
    /// A write decided ahead of the writer found the rows it was decided
    /// on moved on; it is applied again, undecided, so no caller sees it.
    Stale,
    /// The disk (or the database's quota) has no room for the write.
    DiskFull,
    /// The file system or the database accepts no writes at all.
    ReadOnly,
    /// The database cannot be reached.
    Unreachable,
    /// Anything else.
    Other,
}

impl BackendError {
    /// A fault of `engine` (`sqlite` or `postgres`).
    pub(crate) fn new(engine: &'static str, kind: BackendKind, message: String) -> BackendError {
        BackendError {
            engine,
            message,
            kind,
        }
    }
}

impl From<DomainError> for StoreError {
    fn from(e: DomainError) -> Self {
        StoreError::Refused(Refusal::Invalid(e))
    }
}

impl StoreError {
    /// Shorthand for an inconsistency.
    pub fn inconsistent(message: impl Into<String>) -> Self {
        StoreError::Inconsistent(message.into())
    }

    /// Whether the database refused a row because its unique key exists.
    pub fn is_unique_violation(&self) -> bool {
        matches!(self, StoreError::Backend(b) if b.kind == BackendKind::UniqueViolation)
    }

    /// A stale fault: what a write was decided on has moved on.
    pub(crate) fn stale(engine: &'static str) -> StoreError {
        StoreError::Backend(BackendError::new(
            engine,
            BackendKind::Stale,
            "the rows a prepared write was decided on have moved on".into(),
        ))
    }

    /// What the database said of its fault, looking through a failed commit.
    pub(crate) fn backend_kind(&self) -> Option<BackendKind> {
        match self {
            StoreError::Backend(b) => Some(b.kind),
            StoreError::NotCommitted(cause) => cause.backend_kind(),
            _ => None,
        }
    }

    /// Whether the database asked for the transaction to be retried.
    pub fn is_retryable(&self) -> bool {
        matches!(self, StoreError::Backend(b) if b.kind == BackendKind::Retry)
    }
}
