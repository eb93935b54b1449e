//! Experience records' storage: revisions and rejections as events, and the
//! projections that answer reads, searches and repository rules.
//!
//! Each record's history is one stream, `record/<source>`, holding every
//! kept revision ([`lifecycle::REVISED`], the whole document) and every
//! rejected submission ([`lifecycle::REJECTED`], findings and a digest,
//! never the text). Beside it, in the same transaction, the writer keeps:
//! - `records`: the current revision of each record, its trust fields as
//!   columns for filtering, and its text for full-text search (FTS5 on
//!   SQLite, a `tsvector` on PostgreSQL);
//! - `skill_releases`: the namespace's immutable skill registry;
//! - `record_settings`: whether the namespace approves by automated policy.

pub mod dry_run;
pub(crate) mod fold;
pub(crate) mod rows;
pub(crate) mod sql;
pub(crate) mod write;

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use praxis_domain::records::lifecycle::{self, Decision, ReviewMode, Revision};
use praxis_domain::records::state::{Lifecycle, Platform, VerificationLevel};
use praxis_domain::records::{Finding, KeptRecord};
use praxis_domain::skills::Registry;
use serde_json::Value;

use crate::error::StoreError;
use crate::ledger::{Ctx, LedgerTx};
use crate::skills::SkillTx;
use rows::RecordColumns;

/// The stream of a namespace's record settings.
pub const SETTINGS_STREAM: &str = "record-settings";

/// How a record is looked up.
#[derive(Clone, Copy, Debug)]
pub enum RecordKey<'a> {
    /// By `experience_id`.
    Id(&'a str),
    /// By source identity text.
    Source(&'a str),
}

/// Filters of a record search; every one set must hold.
#[derive(Clone, Debug, Default)]
pub struct RecordFilter {
    /// `lifecycle.status`.
    pub lifecycle: Option<Lifecycle>,
    /// `context.platform`.
    pub platform: Option<Platform>,
    /// `verification.level`.
    pub verification_level: Option<VerificationLevel>,
    /// Words that must all occur in the record's text (see
    /// [`praxis_domain::records::search`]); when set, the most relevant
    /// records come first.
    pub text: Option<String>,
    /// Whether withdrawn records are found too (they are not by default).
    pub include_withdrawn: bool,
}

/// Where the next page of a search starts: after this record, in the
/// search's order (by relevance, then id; by id alone without text).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchAfter {
    /// The last record's relevance, when the search ranks.
    pub score: Option<f64>,
    /// The last record's id.
    pub experience_id: String,
}

/// One record a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchHit {
    /// The record.
    pub record: KeptRecord,
    /// Its relevance (higher is better; comparable within one engine and
    /// one query only), when the search ranks.
    pub score: Option<f64>,
}

impl SearchHit {
    /// Where a page ending with this hit leaves off.
    pub fn position(&self) -> SearchAfter {
        SearchAfter {
            score: self.score,
            experience_id: self.record.experience_id.clone(),
        }
    }
}

/// What a record write did.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordWrite {
    /// New revisions were kept: this record's, then any it superseded.
    Revised(Vec<KeptRecord>),
    /// The submission failed screening and was kept as a rejection.
    Rejected(Vec<Finding>),
    /// The same document was submitted again: nothing changed (boxed: a
    /// row is much larger than the other variants).
    Unchanged(Box<KeptRecord>),
}

/// A submission, as the server hands it to the store.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The namespace the record lives in.
    pub namespace: Namespace,
    /// Where the record comes from; edits from the same source (and the
    /// same author) reconcile the same record.
    pub source: lifecycle::Source,
    /// The authenticated subject, bound as `provenance.author_ref`.
    pub author: String,
    /// The record as submitted.
    pub document: Value,
}

/// A review, as the server hands it to the store.
#[derive(Clone, Debug)]
pub struct Review {
    /// The namespace.
    pub namespace: Namespace,
    /// The record.
    pub experience_id: String,
    /// Approve or request changes.
    pub decision: Decision,
    /// Human or automated policy.
    pub mode: ReviewMode,
    /// The reviewing subject (human mode).
    pub reviewer: String,
    /// Notes (required to request changes).
    pub notes: Option<String>,
    /// The revision the reviewer saw; a newer one refuses the review.
    pub expected_revision: Option<u64>,
}

/// What a record command asks for.
#[derive(Clone, Debug)]
pub enum RecordCommand {
    /// Screen and keep an experience record submission, or keep its rejection.
    Submit(Box<Submission>),
    /// Review a candidate record.
    Review(Box<Review>),
    /// Withdraw a reviewed record.
    Withdraw {
        /// The namespace.
        namespace: Namespace,
        /// The record.
        experience_id: String,
        /// Why.
        reason: String,
        /// The revision the caller saw, if it wants compare-and-set.
        expected_revision: Option<u64>,
    },
    /// Discard a candidate at its author's request: it becomes withdrawn.
    Discard {
        /// The namespace.
        namespace: Namespace,
        /// The record.
        experience_id: String,
        /// The discarding subject; only the record's author may discard it.
        author: String,
        /// Why.
        reason: String,
        /// The revision the caller saw, if it wants compare-and-set.
        expected_revision: Option<u64>,
    },
    /// Load a published repository as it is, all or nothing: its skill
    /// releases (with their withdrawals) first, then its records.
    Import {
        /// The namespace.
        namespace: Namespace,
        /// The records.
        documents: Vec<Value>,
        /// The skill registry's releases.
        skills: Vec<praxis_domain::skills::RegistryEntry>,
    },
    /// Turn automated-policy approval of passing submissions on or off.
    SetAutomatedApproval {
        /// The namespace.
        namespace: Namespace,
        /// On or off.
        on: bool,
    },
}

/// Applies a record command; returns one result per record.
pub(crate) async fn apply<T: LedgerTx + RecordTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: RecordCommand,
) -> Result<Vec<RecordWrite>, StoreError> {
    Ok(match command {
        RecordCommand::Submit(submission) => vec![write::submit(tx, ctx, *submission).await?],
        RecordCommand::Review(review) => vec![write::review(tx, ctx, *review).await?],
        RecordCommand::Withdraw {
            namespace,
            experience_id,
            reason,
            expected_revision,
        } => vec![
            write::withdraw(
                tx,
                ctx,
                &namespace,
                &experience_id,
                reason,
                expected_revision,
            )
            .await?,
        ],
        RecordCommand::Discard {
            namespace,
            experience_id,
            author,
            reason,
            expected_revision,
        } => vec![
            write::discard(
                tx,
                ctx,
                &namespace,
                &experience_id,
                &author,
                reason,
                expected_revision,
            )
            .await?,
        ],
        RecordCommand::Import {
            namespace,
            documents,
            skills,
        } => write::import(tx, ctx, &namespace, documents, skills).await?,
        RecordCommand::SetAutomatedApproval { namespace, on } => {
            write::set_automated_approval(tx, ctx, &namespace, on).await?;
            Vec::new()
        }
    })
}

/// The transactional primitives an engine offers to the records logic.
pub(crate) trait RecordTx {
    /// One record's current row.
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<KeptRecord>, StoreError>;
    /// Inserts or replaces a record's row and its search text.
    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &KeptRecord,
        search: &str,
    ) -> Result<(), StoreError>;
    /// Whether the namespace approves passing submissions automatically.
    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError>;
    /// Stores the namespace's setting.
    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError>;
}

/// The record reads verification needs.
pub(crate) trait RecordRead {
    /// Every record row of a tenant, with its namespace, undecoded: a row
    /// that does not decode is a problem to report, not a reason to stop.
    async fn all_records(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, RecordColumns)>, StoreError>;
    /// Every record setting of a tenant: (namespace, automated approval).
    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError>;
}

/// Reads of experience records, for callers of an engine.
#[async_trait]
pub trait RecordReads: Send + Sync {
    /// A kept record's current revision.
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<KeptRecord>, StoreError>;
    /// The record a source holds (by its identity text, [`lifecycle::Source::key`]).
    async fn by_source(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
    ) -> Result<Option<KeptRecord>, StoreError>;
    /// Kept records matching every filter set, after `after`: by relevance
    /// then id when the filter has text, by id otherwise. Text without a
    /// letter or digit finds nothing.
    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &SearchAfter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError>;
    /// The revisions and rejected submissions of one source (its stream
    /// `record/<source>`) in order, after stream sequence `after`, each
    /// re-verified; empty when the source never submitted.
    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// A kept record's history (that of its source); `None` when there is
    /// no such record.
    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Option<Vec<Event>>, StoreError> {
        let Some(row) = self.get(tenant, namespace, experience_id).await? else {
            return Ok(None);
        };
        self.source_history(tenant, namespace, &row.source, after, limit)
            .await
            .map(Some)
    }
    /// Whether the namespace approves passing submissions automatically.
    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError>;
}

/// Flags of a kept record: relations to withdrawn skill releases.
pub fn flags(row: &KeptRecord, registry: &Registry) -> Vec<Finding> {
    praxis_domain::records::repository::skill_findings(&row.document, registry).1
}

/// Decodes a revision event.
pub fn revision_of(event: &Event) -> Result<Revision, StoreError> {
    serde_json::from_value(event.payload.clone()).map_err(|e| {
        StoreError::inconsistent(format!(
            "record revision at position {} does not decode: {e}",
            event.position
        ))
    })
}
