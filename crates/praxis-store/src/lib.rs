//! Praxis storage: the durable, append-only ledger and its projections.
//!
//! [`Engine`] is the one interface the server and CLI use. Two engines
//! implement it: [`sqlite`] (embedded, the default) and [`postgres`]. Both
//! run the same command logic ([`apply`]) over a small transactional trait,
//! and both are checked by the same contract tests and by [`verify`].

mod apply;
pub mod attempts;
pub mod command;
pub mod engine;
pub mod error;
mod heads;
pub mod metrics;
pub mod postgres;
pub mod records;
mod rows;
pub mod sql;
pub mod sqlite;
pub mod verify;

pub use command::{
    Applied, Authority, Command, Idempotency, PreparedObservation, ReceiptFn, Write, WriteOutcome,
};
pub use engine::{Engine, open};
pub use error::StoreError;
pub use verify::VerifyReport;

/// The schema version this build writes. A store with a newer version is refused.
pub const SCHEMA_VERSION: i64 = 3;
