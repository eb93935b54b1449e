//! The engine interface: one way to write, and reads grouped by concept.

use async_trait::async_trait;

use crate::attempts::AttemptReads;
use crate::auth::CredentialReads;
use crate::command::{Write, WriteOutcome};
use crate::error::StoreError;
use crate::learning::LearningReads;
use crate::learning::procedures::ProcedureReads;
use crate::ledger::LedgerReads;
use crate::memory::MemoryReads;
use crate::metrics::StoreMetrics;
use crate::proposals::ProposalReads;
use crate::readiness::{NotReady, ReadyCheck};
use crate::records::RecordReads;
use crate::skills::SkillReads;
use crate::verify::VerifyReport;

/// A durable ledger store.
///
/// Every write is durable before its future resolves. Every read of an event
/// or receipt re-verifies its digest and fails with
/// [`StoreError::Inconsistent`] rather than return altered data.
#[async_trait]
pub trait Engine: Send + Sync + 'static {
    /// Applies one write atomically and durably.
    async fn execute(&self, write: Write) -> Result<WriteOutcome, StoreError>;
    /// Reads of the log itself.
    fn ledger(&self) -> &dyn LedgerReads;
    /// Reads of credentials.
    fn credentials(&self) -> &dyn CredentialReads;
    /// Reads of the attempt ledger.
    fn attempts(&self) -> &dyn AttemptReads;
    /// Reads of experience records.
    fn records(&self) -> &dyn RecordReads;
    /// Reads of the skill registry.
    fn skills(&self) -> &dyn SkillReads;
    /// Reads of the learning registry.
    fn learning(&self) -> &dyn LearningReads;
    /// Reads of procedures, strategies and selection.
    fn procedures(&self) -> &dyn ProcedureReads;
    /// Reads of agent memory.
    fn memory(&self) -> &dyn MemoryReads;
    /// Reads of proposals.
    fn proposals(&self) -> &dyn ProposalReads;
    /// Binds the store to a seal key: records `fingerprint` on first use,
    /// and refuses with [`StoreError::SealKeyMismatch`] a fingerprint other
    /// than the one recorded.
    async fn bind_seal_key(&self, fingerprint: &str) -> Result<(), StoreError>;
    /// Walks the whole store and reports every problem.
    async fn verify(&self) -> Result<VerifyReport, StoreError>;
    /// Checks that the store is reachable and takes a durable write: commits
    /// a scratch row through the writer and, where the engine can see its
    /// disk, checks free space against `check`.
    async fn ready(&self, check: ReadyCheck) -> Result<(), NotReady>;
    /// The engine's counters.
    fn metrics(&self) -> &StoreMetrics;
    /// A short name (`sqlite` or `postgres`).
    fn kind(&self) -> &'static str;
}

/// An engine's writer, reached without anything decided ahead of it:
/// [`Engine::execute`] prepares what it can, then submits.
pub(crate) trait Submit {
    /// Queues `write` for the writer and waits for its outcome.
    async fn submit(&self, write: Write) -> Result<WriteOutcome, StoreError>;
}
