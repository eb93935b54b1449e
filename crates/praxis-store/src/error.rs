//! The storage error type.

use praxis_domain::DomainError;
use thiserror::Error;

/// Every way a storage operation can fail.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A stored event, receipt or projection does not match its digest or its log.
    #[error("storage inconsistency: {0}")]
    Inconsistent(String),
    /// The same idempotency key was used with a different request.
    #[error("idempotency key reused with a different request")]
    IdempotencyConflict,
    /// The tenant does not exist.
    #[error("tenant not found")]
    TenantNotFound,
    /// The tenant already exists.
    #[error("tenant already exists")]
    TenantExists,
    /// The credential does not exist in this tenant.
    #[error("credential not found")]
    CredentialNotFound,
    /// The credential that authorized a write was revoked, rotated, expired or
    /// lost the capability before the write could be applied.
    #[error("the credential's authority ended before the write was applied")]
    AuthorityEnded,
    /// The credential is revoked and cannot change any more.
    #[error("credential is revoked")]
    CredentialRevoked,
    /// A disposition was stated that may not accompany the outcome's status.
    #[error("disposition {} cannot accompany status {}", .disposition.as_str(), .status.as_str())]
    InvalidDisposition {
        /// The stated disposition.
        disposition: praxis_domain::attempts::Disposition,
        /// The outcome's status.
        status: praxis_domain::attempts::Status,
    },
    /// A legacy store to import is invalid; nothing was written.
    #[error("the store to import has {} problem(s)", .0.len())]
    ImportInvalid(Vec<praxis_domain::attempts::ImportProblem>),
    /// A different attempt is already recorded under the same identity.
    #[error("a different record exists under this attempt identity")]
    IdentityConflict,
    /// Some records of an import conflict with stored ones; nothing was written.
    #[error("{} imported record(s) conflict with stored ones", .0.len())]
    AttemptsRejected(Vec<crate::attempts::AttemptProblem>),
    /// A record (or skill release) breaks rules; every finding is listed
    /// and nothing was written.
    #[error("the record has {} finding(s)", .0.len())]
    RecordInvalid(Vec<praxis_domain::records::Finding>),
    /// The record's lifecycle does not allow the requested change.
    #[error("invalid lifecycle transition: {0}")]
    InvalidTransition(String),
    /// A source or record id is already bound to something else.
    #[error("{0}")]
    SourceConflict(String),
    /// No such record in the namespace.
    #[error("record not found")]
    RecordNotFound,
    /// Applying a batch panicked (a bug); the batch was rolled back and the
    /// writer kept running.
    #[error("a write failed unexpectedly and was rolled back")]
    Panicked,
    /// A submitter tried to review their own record.
    #[error("a submitter cannot review their own record")]
    SelfReview,
    /// The record changed since the revision the caller saw.
    #[error("record is at revision {current}, not {expected}")]
    RevisionConflict {
        /// The revision the caller expected.
        expected: u64,
        /// The current revision.
        current: u64,
    },
    /// A published skill version would change.
    #[error("{0}")]
    SkillConflict(String),
    /// No such skill release in the namespace.
    #[error("skill release not found")]
    SkillNotFound,
    /// A command's input broke a domain rule.
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// The store was written by a newer schema than this build knows.
    #[error("store schema version {found} is newer than this build's {supported}; upgrade praxis")]
    SchemaTooNew {
        /// Version found in the store.
        found: i64,
        /// Newest version this build supports.
        supported: i64,
    },
    /// Opening or configuring the store failed.
    #[error("cannot open store: {0}")]
    Open(String),
    /// The SQLite engine failed.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The PostgreSQL engine failed.
    #[error("postgres: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// The writer is gone (the engine is shutting down).
    #[error("the store's writer has stopped")]
    WriterStopped,
    /// A filesystem operation failed.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

impl StoreError {
    /// Shorthand for an inconsistency.
    pub fn inconsistent(message: impl Into<String>) -> Self {
        StoreError::Inconsistent(message.into())
    }

    /// Whether the database refused a row because its unique key exists.
    pub fn is_unique_violation(&self) -> bool {
        match self {
            StoreError::Postgres(e) => {
                e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            }
            _ => false,
        }
    }

    /// Whether PostgreSQL asked for the transaction to be retried.
    pub fn is_retryable(&self) -> bool {
        match self {
            StoreError::Postgres(e) => e.code().is_some_and(|c| {
                *c == tokio_postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
                    || *c == tokio_postgres::error::SqlState::T_R_DEADLOCK_DETECTED
            }),
            _ => false,
        }
    }
}
