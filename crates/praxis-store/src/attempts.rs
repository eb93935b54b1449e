//! The attempt ledger's storage: observations as events, and the projections
//! that answer identity checks, assessments, history and counts.
//!
//! Every observation is an event in the stream of its subject, so that the
//! stream's sequence counts the subject's observations. Beside it, in the
//! same transaction, the writer keeps:
//! - `attempt_cases`: one row per identity (subject, action, case, stage);
//! - `attempt_streaks`: the streak summary per (subject, action) and per
//!   (subject, action, revision), both always, so that a policy may switch
//!   between them without a rebuild;
//! - `attempt_counts`: records per disposition in the namespace;
//! - `attempt_policies`: the namespace's policy.
//!
//! Assessment reads only these summaries, never the history.

use std::collections::{BTreeMap, HashMap};

use std::sync::Arc;

use praxis_domain::attempts::{
    self, Assessment, CaseEntry, DISPOSITIONS, Disposition, LegacyStore, Observation, Outcome,
    Policy, Refusal, Stage, Status, Streak, StreakChange,
};
use praxis_domain::auth::{Namespace, Scope};
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Actor;
use praxis_domain::ledger::{Event, NewEvent};
use praxis_domain::time::Timestamp;

use crate::apply::{Ctx, LedgerTx};
use crate::command::{Applied, Command, PreparedObservation, Write, WriteOutcome};
use crate::engine::Engine;
use crate::error::StoreError;

/// Streak grain of the per-(subject, action) summary.
pub(crate) const GRAIN_ACTION: i64 = 0;
/// Streak grain of the per-(subject, action, revision) summary.
pub(crate) const GRAIN_REVISION: i64 = 1;

/// One stored attempt, as read back from the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRecord {
    /// Ledger position: monotonic within the namespace.
    pub position: u64,
    /// The outcome and its disposition.
    pub observation: Observation,
    /// Digest of the sealed ledger event.
    pub digest: Digest,
    /// When the server recorded it.
    pub recorded_at: Timestamp,
}

impl AttemptRecord {
    /// Decodes an attempt event, which the caller has verified.
    pub(crate) fn from_event(event: &Event) -> Result<AttemptRecord, StoreError> {
        if event.kind != attempts::OBSERVED {
            return Err(StoreError::inconsistent(format!(
                "event at position {} is not an attempt",
                event.position
            )));
        }
        let observation: Observation =
            serde_json::from_value(event.payload.clone()).map_err(|e| {
                StoreError::inconsistent(format!(
                    "attempt at position {} does not decode: {e}",
                    event.position
                ))
            })?;
        Ok(AttemptRecord {
            position: event.position,
            observation,
            digest: event.digest,
            recorded_at: event.recorded_at,
        })
    }
}

/// Whether an observation was new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    /// A new record was appended.
    Inserted,
    /// The identical record already existed; nothing was written.
    Unchanged,
}

/// The result of one observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptWrite {
    /// Inserted or unchanged.
    pub write: WriteKind,
    /// The record as stored (the original one when unchanged).
    pub record: AttemptRecord,
}

/// A problem with one record of an import (or the only record of an observation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptProblem {
    /// Index of the record in the request.
    pub index: usize,
    /// Stable code: `identity_conflict`.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
}

/// An action a planner asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRef {
    /// The action.
    pub action_id: String,
    /// The revision the planner would run, for revision-keyed policies.
    pub action_revision: Option<String>,
}

/// Which history to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryOf {
    /// Every record of a subject, in sequence order.
    Subject(String),
    /// Every record of a (subject, action), in sequence order.
    Pair(String, String),
    /// Every record of the namespace, in sequence order (export).
    Namespace,
}

/// One page of history: records and the cursor after the last of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryPage {
    /// The records, in sequence order.
    pub records: Vec<AttemptRecord>,
    /// Pass back as `after` for the next page; `None` when this page is the last.
    pub next: Option<u64>,
}

/// Transactional primitives the attempt projections need from an engine.
pub(crate) trait AttemptTx {
    /// The event at a position, re-verified.
    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError>;
    /// Stored records of one case (`Some`) or of the whole (subject, action).
    async fn case_entries(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        case: Option<&str>,
    ) -> Result<Vec<CaseEntry>, StoreError>;
    /// Stores the identity row of a new record.
    async fn insert_case(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        entry: &CaseEntry,
    ) -> Result<(), StoreError>;
    /// What recording one observation reads, fetched together (one round
    /// trip on PostgreSQL): the records of its case, its two streak
    /// summaries and, when `stream` is given, that stream's head.
    async fn observe_reads(
        &mut self,
        tenant: &str,
        case: &str,
        keys: [&StreakRow<'_>; 2],
        stream: Option<&str>,
    ) -> Result<ObserveReads, StoreError>;
    /// Stores a streak summary.
    async fn put_streak(
        &mut self,
        tenant: &str,
        key: &StreakRow<'_>,
        streak: &Streak,
    ) -> Result<(), StoreError>;
    /// Adds `n` records to a namespace's count of a disposition.
    async fn add_count(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        disposition: Disposition,
        n: u64,
    ) -> Result<(), StoreError>;
    /// Stores a namespace's policy (canonical JSON).
    async fn put_policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        policy: &str,
    ) -> Result<(), StoreError>;
}

/// What [`AttemptTx::observe_reads`] found.
pub(crate) struct ObserveReads {
    /// Stored records of the case (at most one per stage).
    pub case: Vec<CaseEntry>,
    /// The per-action and per-revision streaks.
    pub streaks: [Streak; 2],
    /// The stream's head, when asked for.
    pub head: Option<(u64, Digest)>,
}

/// The key of one streak summary row.
pub(crate) struct StreakRow<'a> {
    pub namespace: &'a Namespace,
    pub subject: &'a str,
    pub action: &'a str,
    pub grain: i64,
    pub revision: &'a str,
}

/// Owned key of a streak row: (tenant, namespace, subject, action, grain, revision).
type StreakKey = (String, String, String, String, i64, String);

/// One step to undo if the current write's savepoint rolls back.
enum Undo {
    Streak(StreakKey, Option<Streak>),
    Count((String, String, Disposition)),
}

/// Streak and count changes of one transaction, written once per key when
/// it ends. Hot keys (a busy subject and action, a namespace's counts) are
/// then written once per commit instead of once per observation, which
/// spares SQLite pages and PostgreSQL the row versions of repeated updates.
#[derive(Default)]
pub(crate) struct AttemptOverlay {
    streaks: HashMap<StreakKey, Streak>,
    counts: HashMap<(String, String, Disposition), u64>,
    undo: Vec<Undo>,
}

impl AttemptOverlay {
    fn key(tenant: &str, row: &StreakRow<'_>) -> StreakKey {
        (
            tenant.to_owned(),
            row.namespace.0.clone(),
            row.subject.to_owned(),
            row.action.to_owned(),
            row.grain,
            row.revision.to_owned(),
        )
    }

    /// Starts a write: its changes can be undone until the next call.
    pub fn savepoint(&mut self) {
        self.undo.clear();
    }

    /// Undoes the current write's changes.
    pub fn rollback(&mut self) {
        while let Some(step) = self.undo.pop() {
            match step {
                Undo::Streak(key, Some(old)) => {
                    self.streaks.insert(key, old);
                }
                Undo::Streak(key, None) => {
                    self.streaks.remove(&key);
                }
                Undo::Count(key) => {
                    if let Some(n) = self.counts.get_mut(&key) {
                        *n -= 1;
                        if *n == 0 {
                            self.counts.remove(&key);
                        }
                    }
                }
            }
        }
    }

    fn streak(&self, tenant: &str, row: &StreakRow<'_>) -> Option<Streak> {
        self.streaks.get(&Self::key(tenant, row)).copied()
    }

    fn put_streak(&mut self, tenant: &str, row: &StreakRow<'_>, streak: Streak) {
        let key = Self::key(tenant, row);
        let old = self.streaks.insert(key.clone(), streak);
        self.undo.push(Undo::Streak(key, old));
    }

    fn bump(&mut self, tenant: &str, namespace: &Namespace, disposition: Disposition) {
        let key = (tenant.to_owned(), namespace.0.clone(), disposition);
        *self.counts.entry(key.clone()).or_default() += 1;
        self.undo.push(Undo::Count(key));
    }

    /// Writes every change; called once, before the transaction commits.
    pub async fn flush<T: AttemptTx>(&mut self, tx: &mut T) -> Result<(), StoreError> {
        self.undo.clear();
        for ((tenant, ns, subject, action, grain, revision), streak) in self.streaks.drain() {
            let namespace = Namespace(ns);
            let row = StreakRow {
                namespace: &namespace,
                subject: &subject,
                action: &action,
                grain,
                revision: &revision,
            };
            tx.put_streak(&tenant, &row, &streak).await?;
        }
        for ((tenant, ns, disposition), n) in self.counts.drain() {
            tx.add_count(&tenant, &Namespace(ns), disposition, n)
                .await?;
        }
        Ok(())
    }
}

/// Records one observation, or answers that it is already recorded.
pub(crate) async fn observe<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    prepared: PreparedObservation,
) -> Result<AttemptWrite, StoreError> {
    let PreparedObservation {
        observation,
        event: new,
    } = prepared;
    let namespace = &new.namespace.clone();
    let tenant = ctx.tenant;
    let (subject, action, case, stage) = observation.identity();
    let revision = observation.outcome.action_revision.as_deref().unwrap_or("");
    let key = |grain, revision| StreakRow {
        namespace,
        subject,
        action,
        grain,
        revision,
    };
    let cached = ctx.cached_head(namespace, &new.stream);
    let ObserveReads {
        case: existing,
        streaks,
        head,
    } = tx
        .observe_reads(
            tenant,
            case,
            [&key(GRAIN_ACTION, ""), &key(GRAIN_REVISION, revision)],
            cached.is_none().then_some(new.stream.as_str()),
        )
        .await?;
    if let Some(same) = existing.iter().find(|e| e.stage == stage) {
        let event = tx.event_at(tenant, same.position).await?;
        let record = AttemptRecord::from_event(&event)?;
        return if record.observation == observation {
            Ok(AttemptWrite {
                write: WriteKind::Unchanged,
                record,
            })
        } else {
            Err(StoreError::IdentityConflict)
        };
    }
    let (subject, action, revision) = (subject.to_owned(), action.to_owned(), revision.to_owned());
    let event = ctx.append_after(tx, new, cached.or(head)).await?.clone();
    let entry = CaseEntry {
        case_id: observation.outcome.case_id.clone(),
        stage,
        position: event.position,
        revision: observation.outcome.action_revision.clone(),
        status: observation.outcome.status,
        disposition: observation.disposition,
        recorded_at: event.recorded_at,
        subject_observations: event.stream_seq,
    };
    tx.insert_case(tenant, namespace, &subject, &action, &entry)
        .await?;
    ctx.overlay.bump(tenant, namespace, entry.disposition);
    let revision = revision.as_str();
    let key = |grain, revision| StreakRow {
        namespace,
        subject: &subject,
        action: &action,
        grain,
        revision,
    };
    match attempts::streak_change(&existing, &entry) {
        StreakChange::None => {}
        StreakChange::Push => {
            let rows = [key(GRAIN_ACTION, ""), key(GRAIN_REVISION, revision)];
            for (row, stored) in rows.iter().zip(streaks) {
                // A streak this transaction already changed is newer than the stored one.
                let mut streak = ctx.overlay.streak(tenant, row).unwrap_or(stored);
                streak.push(&entry);
                ctx.overlay.put_streak(tenant, row, streak);
            }
        }
        StreakChange::Rebuild => {
            let all = tx
                .case_entries(tenant, namespace, &subject, &action, None)
                .await?;
            ctx.overlay
                .put_streak(tenant, &key(GRAIN_ACTION, ""), Streak::rebuild(&all));
            // The superseded passive record may sit under another revision.
            let mut revisions: Vec<&str> = existing
                .iter()
                .map(|e| e.revision.as_deref().unwrap_or(""))
                .collect();
            revisions.push(revision);
            revisions.sort_unstable();
            revisions.dedup();
            for r in revisions {
                let streak =
                    Streak::rebuild_where(&all, |e| e.revision.as_deref().unwrap_or("") == r);
                ctx.overlay
                    .put_streak(tenant, &key(GRAIN_REVISION, r), streak);
            }
        }
    }
    Ok(AttemptWrite {
        write: WriteKind::Inserted,
        record: AttemptRecord {
            position: event.position,
            observation,
            digest: event.digest,
            recorded_at: event.recorded_at,
        },
    })
}

/// Records many observations, all or nothing: every conflicting record is
/// reported, and if there is any, nothing is written.
pub(crate) async fn import<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    observations: Vec<PreparedObservation>,
) -> Result<Vec<AttemptWrite>, StoreError> {
    let mut written = Vec::with_capacity(observations.len());
    let mut problems = Vec::new();
    for (index, observation) in observations.into_iter().enumerate() {
        match observe(tx, ctx, observation).await {
            Ok(w) => written.push(w),
            Err(StoreError::IdentityConflict) => problems.push(AttemptProblem {
                index,
                code: "identity_conflict",
                message: "a different record exists under this identity".into(),
            }),
            Err(e) => return Err(e),
        }
    }
    if problems.is_empty() {
        Ok(written)
    } else {
        // The caller's savepoint rolls back the records already placed.
        Err(StoreError::AttemptsRejected(problems))
    }
}

/// Sets a namespace's policy.
pub(crate) async fn set_policy<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    policy: Policy,
) -> Result<(), StoreError> {
    let payload = serde_json::to_value(policy).expect("policies serialize");
    let new = NewEvent::new(
        namespace.clone(),
        attempts::POLICY_STREAM,
        attempts::POLICY_SET,
        payload,
    );
    let event = ctx.append(tx, new).await?;
    let canonical = event.canonical.clone();
    tx.put_policy(ctx.tenant, namespace, &canonical).await
}

/// Decodes a stored policy column.
pub(crate) fn decode_policy(text: &str) -> Result<Policy, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::inconsistent(format!("stored attempt policy is malformed: {e}")))
}

/// Read access the attempt queries need from an engine.
pub(crate) trait AttemptRead {
    /// The namespace's policy, if one was set.
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError>;
    /// How many observations of the subject the namespace holds.
    async fn subject_observations(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
    ) -> Result<u64, StoreError>;
    /// Streak summaries, one per key, in order (missing ones are empty).
    async fn streaks(
        &mut self,
        tenant: &str,
        keys: &[StreakRow<'_>],
    ) -> Result<Vec<Streak>, StoreError>;
    /// The policy and, for each candidate, the streak it keys to: the
    /// policy first, then exactly the rows it selects. An engine where a
    /// round trip costs more than a few extra rows may read both grains at
    /// once and choose afterwards.
    async fn assessment_reads(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: &[ActionRef],
    ) -> Result<(Policy, Vec<Streak>), StoreError> {
        let policy = self.policy(tenant, namespace).await?.unwrap_or_default();
        let keys: Vec<StreakRow<'_>> = actions
            .iter()
            .map(|a| assessed_key(&policy, namespace, subject, a))
            .collect();
        let streaks = self.streaks(tenant, &keys).await?;
        Ok((policy, streaks))
    }
    /// Up to `limit` attempt events after `after`, re-verified.
    async fn history(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        of: &HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// Records per disposition in the namespace, or of a subject or pair.
    async fn counts(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<Vec<(Disposition, u64)>, StoreError>;
}

/// The streak row an assessment reads for one candidate under `policy`.
pub(crate) fn assessed_key<'a>(
    policy: &Policy,
    namespace: &'a Namespace,
    subject: &'a str,
    action: &'a ActionRef,
) -> StreakRow<'a> {
    match policy.revision_key(action.action_revision.as_deref()) {
        None => StreakRow {
            namespace,
            subject,
            action: &action.action_id,
            grain: GRAIN_ACTION,
            revision: "",
        },
        Some(r) => StreakRow {
            namespace,
            subject,
            action: &action.action_id,
            grain: GRAIN_REVISION,
            revision: r,
        },
    }
}

/// Assesses candidate actions for a subject from the streak summaries.
pub(crate) async fn assess<R: AttemptRead>(
    read: &mut R,
    tenant: &str,
    namespace: &Namespace,
    subject: &str,
    actions: &[ActionRef],
    now: Timestamp,
) -> Result<(Policy, Vec<Assessment>), StoreError> {
    let (policy, streaks) = read
        .assessment_reads(tenant, namespace, subject, actions)
        .await?;
    // Only re-exploration by observation count needs the subject's count.
    let observations = match policy.reexplore {
        Some(r) if r.after_observations.is_some() => {
            read.subject_observations(tenant, namespace, subject)
                .await?
        }
        _ => 0,
    };
    let assessments = streaks
        .iter()
        .map(|s| attempts::assess(s, &policy, now, observations))
        .collect();
    Ok((policy, assessments))
}

/// Reads one page of history.
pub(crate) async fn history<R: AttemptRead>(
    read: &mut R,
    tenant: &str,
    namespace: &Namespace,
    of: &HistoryOf,
    after: u64,
    limit: usize,
) -> Result<HistoryPage, StoreError> {
    // An empty page would end the caller's walk early: ask for at least one.
    let limit = limit.max(1);
    let events = read
        .history(tenant, namespace, of, after, limit + 1)
        .await?;
    let more = events.len() > limit;
    let records = events
        .iter()
        .take(limit)
        .map(AttemptRecord::from_event)
        .collect::<Result<Vec<_>, _>>()?;
    // Subject history pages by stream sequence, the others by position.
    let next = match (more, of, events.get(limit.wrapping_sub(1))) {
        (true, HistoryOf::Subject(_), Some(last)) => Some(last.stream_seq),
        (true, _, Some(last)) => Some(last.position),
        _ => None,
    };
    Ok(HistoryPage { records, next })
}

/// Counts per disposition, every disposition listed (zero when absent).
pub(crate) async fn counts<R: AttemptRead>(
    read: &mut R,
    tenant: &str,
    namespace: &Namespace,
    subject: Option<&str>,
    action: Option<&str>,
) -> Result<BTreeMap<Disposition, u64>, StoreError> {
    let mut all: BTreeMap<Disposition, u64> = DISPOSITIONS.iter().map(|d| (*d, 0)).collect();
    for (d, n) in read.counts(tenant, namespace, subject, action).await? {
        *all.entry(d).or_default() += n;
    }
    Ok(all)
}

/// Decodes stage, status and disposition columns.
pub(crate) fn decode_codes(
    stage: &str,
    status: &str,
    disposition: &str,
) -> Result<(Stage, Status, Disposition), StoreError> {
    let bad =
        |what: &str, v: &str| StoreError::inconsistent(format!("stored {what} {v:?} is unknown"));
    Ok((
        Stage::parse(stage).ok_or_else(|| bad("stage", stage))?,
        Status::parse(status).ok_or_else(|| bad("status", status))?,
        Disposition::parse(disposition).ok_or_else(|| bad("disposition", disposition))?,
    ))
}

impl From<Refusal> for StoreError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Invalid(e) => StoreError::Domain(e),
            Refusal::Disposition {
                disposition,
                status,
            } => StoreError::InvalidDisposition {
                disposition,
                status,
            },
        }
    }
}

/// The attempt ledger as a library: one namespace of one tenant, on any
/// engine. A planner embeds it over a SQLite directory with
/// [`AttemptLedger::open`] and needs no server.
#[derive(Clone)]
pub struct AttemptLedger {
    engine: Arc<dyn Engine>,
    tenant: String,
    namespace: Namespace,
    actor: Actor,
}

/// Records per page when a whole namespace is exported.
const EXPORT_PAGE: usize = 5_000;

impl AttemptLedger {
    /// Opens (creating if needed) a store and its tenant, acting in the
    /// namespace of `scope` as `subject`.
    pub async fn open(
        store: &str,
        tenant: &str,
        scope: &Scope,
        subject: &str,
    ) -> Result<AttemptLedger, StoreError> {
        scope.validate("/scope")?;
        let engine = crate::open(store).await?;
        match engine
            .execute(Write::new(tenant, Actor::system(), Command::CreateTenant))
            .await
        {
            Ok(_) | Err(StoreError::TenantExists) => {}
            Err(e) => return Err(e),
        }
        Ok(AttemptLedger::new(
            engine,
            tenant,
            scope.namespace(subject),
            Actor {
                credential_id: "embedded".into(),
                subject: subject.into(),
            },
        ))
    }

    /// A ledger over an engine that is already open.
    pub fn new(
        engine: Arc<dyn Engine>,
        tenant: &str,
        namespace: Namespace,
        actor: Actor,
    ) -> AttemptLedger {
        AttemptLedger {
            engine,
            tenant: tenant.into(),
            namespace,
            actor,
        }
    }

    /// The engine underneath.
    pub fn engine(&self) -> &Arc<dyn Engine> {
        &self.engine
    }

    async fn write(&self, command: Command) -> Result<Applied, StoreError> {
        match self
            .engine
            .execute(Write::new(&self.tenant, self.actor.clone(), command))
            .await?
        {
            WriteOutcome::Committed { applied, .. } => Ok(*applied),
            WriteOutcome::Replayed { .. } => Err(StoreError::inconsistent(
                "a write without idempotency key was replayed",
            )),
        }
    }

    /// Records an outcome with the disposition the conservative mapping infers.
    pub async fn observe(&self, outcome: Outcome) -> Result<AttemptWrite, StoreError> {
        self.record(Observation::new(outcome, None, "/outcome")?)
            .await
    }

    /// Records an outcome with a stated disposition, which must fit its status.
    pub async fn observe_with_disposition(
        &self,
        outcome: Outcome,
        disposition: Disposition,
    ) -> Result<AttemptWrite, StoreError> {
        self.record(Observation::new(outcome, Some(disposition), "/outcome")?)
            .await
    }

    async fn record(&self, observation: Observation) -> Result<AttemptWrite, StoreError> {
        let mut applied = self
            .write(Command::observe(&self.namespace, observation))
            .await?;
        applied
            .attempts
            .pop()
            .ok_or_else(|| StoreError::inconsistent("an observation returned no record"))
    }

    /// Sets the namespace's policy.
    pub async fn set_policy(&self, policy: Policy) -> Result<(), StoreError> {
        policy.validate("")?;
        self.write(Command::SetAttemptPolicy {
            namespace: self.namespace.clone(),
            policy,
        })
        .await
        .map(|_| ())
    }

    /// The namespace's policy.
    pub async fn policy(&self) -> Result<Policy, StoreError> {
        self.engine
            .attempt_policy(&self.tenant, &self.namespace)
            .await
    }

    /// Assesses candidate actions for a subject. Reads only: nothing a
    /// planner decides from it is ever written back as experience.
    pub async fn assess(
        &self,
        subject: &str,
        actions: Vec<ActionRef>,
    ) -> Result<Vec<Assessment>, StoreError> {
        let (_, assessments) = self
            .engine
            .assess_attempts(
                &self.tenant,
                &self.namespace,
                subject,
                actions,
                crate::rows::now(),
            )
            .await?;
        Ok(assessments)
    }

    /// One page of history.
    pub async fn history(
        &self,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        self.engine
            .attempt_history(&self.tenant, &self.namespace, of, after, limit)
            .await
    }

    /// Records per disposition.
    pub async fn counts(
        &self,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        self.engine
            .attempt_counts(&self.tenant, &self.namespace, subject, action)
            .await
    }

    /// Imports a legacy store, all or nothing.
    pub async fn import(&self, store: LegacyStore) -> Result<Vec<AttemptWrite>, StoreError> {
        let observations = store.validate().map_err(StoreError::ImportInvalid)?;
        let applied = self
            .write(Command::import_attempts(&self.namespace, observations))
            .await?;
        Ok(applied.attempts)
    }

    /// Exports the namespace in the legacy format.
    pub async fn export(&self) -> Result<LegacyStore, StoreError> {
        export(&*self.engine, &self.tenant, &self.namespace).await
    }
}

/// Exports a namespace in the legacy format, renumbered densely from 0.
pub async fn export(
    engine: &dyn Engine,
    tenant: &str,
    namespace: &Namespace,
) -> Result<LegacyStore, StoreError> {
    let mut observations = Vec::new();
    let mut after = 0;
    loop {
        let page = engine
            .attempt_history(tenant, namespace, HistoryOf::Namespace, after, EXPORT_PAGE)
            .await?;
        observations.extend(page.records.into_iter().map(|r| r.observation));
        match page.next {
            Some(next) => after = next,
            None => return Ok(LegacyStore::export(observations)),
        }
    }
}

/// A stored identity row with its key, as verification reads it.
pub(crate) type CaseKeyRow = (String, String, String, CaseEntry);
/// A stored streak row with its key: (namespace, subject, action, grain, revision, streak).
pub(crate) type StreakKeyRow = (String, String, String, i64, String, Streak);

/// The attempt projections rebuilt from the log, for verification.
#[derive(Default)]
pub(crate) struct AttemptFold {
    /// (namespace, subject, action) → records, in log order.
    pairs: BTreeMap<(String, String, String), Vec<CaseEntry>>,
    counts: BTreeMap<(String, Disposition), u64>,
    policies: BTreeMap<String, String>,
}

impl AttemptFold {
    /// Folds one verified event; returns a problem if an attempt event is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        if event.kind == attempts::POLICY_SET {
            self.policies
                .insert(event.namespace.0.clone(), event.canonical.clone());
            return None;
        }
        if event.kind != attempts::OBSERVED {
            return None;
        }
        let record = match AttemptRecord::from_event(event) {
            Ok(r) => r,
            Err(e) => return Some(e.to_string()),
        };
        let o = &record.observation.outcome;
        let entries = self
            .pairs
            .entry((
                event.namespace.0.clone(),
                o.subject.clone(),
                o.action_id.clone(),
            ))
            .or_default();
        if entries
            .iter()
            .any(|e| e.case_id == o.case_id && e.stage == o.stage)
        {
            return Some(format!(
                "attempt identity of case {:?} recorded twice",
                o.case_id
            ));
        }
        entries.push(CaseEntry {
            case_id: o.case_id.clone(),
            stage: o.stage,
            position: event.position,
            revision: o.action_revision.clone(),
            status: o.status,
            disposition: record.observation.disposition,
            recorded_at: event.recorded_at,
            subject_observations: event.stream_seq,
        });
        *self
            .counts
            .entry((event.namespace.0.clone(), record.observation.disposition))
            .or_default() += 1;
        None
    }

    /// Compares the stored projections with the fold; one line per difference.
    pub fn compare(
        self,
        cases: Vec<CaseKeyRow>,
        streaks: Vec<StreakKeyRow>,
        counts: Vec<(String, Disposition, u64)>,
        policies: Vec<(String, String)>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        let mut expected_cases: BTreeMap<(String, String, String, String, Stage), &CaseEntry> =
            BTreeMap::new();
        for ((ns, subject, action), entries) in &self.pairs {
            for e in entries {
                expected_cases.insert(
                    (
                        ns.clone(),
                        subject.clone(),
                        action.clone(),
                        e.case_id.clone(),
                        e.stage,
                    ),
                    e,
                );
            }
        }
        for (ns, subject, action, row) in &cases {
            let key = (
                ns.clone(),
                subject.clone(),
                action.clone(),
                row.case_id.clone(),
                row.stage,
            );
            match expected_cases.remove(&key) {
                Some(e) if e == row => {}
                Some(_) => problems.push(format!(
                    "attempt case {:?} of {subject:?}/{action:?} differs from its event",
                    row.case_id
                )),
                None => problems.push(format!(
                    "attempt case {:?} of {subject:?}/{action:?} has no event",
                    row.case_id
                )),
            }
        }
        for (_, subject, action, case, _) in expected_cases.keys() {
            problems.push(format!(
                "attempt case {case:?} of {subject:?}/{action:?} is missing from the projection"
            ));
        }
        let mut expected_streaks: BTreeMap<(String, String, String, i64, String), Streak> =
            BTreeMap::new();
        for ((ns, subject, action), entries) in &self.pairs {
            let key = |grain, revision: &str| {
                (
                    ns.clone(),
                    subject.clone(),
                    action.clone(),
                    grain,
                    revision.to_owned(),
                )
            };
            let all = Streak::rebuild(entries);
            if all.completed > 0 {
                expected_streaks.insert(key(GRAIN_ACTION, ""), all);
            }
            let mut revisions: Vec<&str> = entries
                .iter()
                .map(|e| e.revision.as_deref().unwrap_or(""))
                .collect();
            revisions.sort_unstable();
            revisions.dedup();
            for r in revisions {
                let s =
                    Streak::rebuild_where(entries, |e| e.revision.as_deref().unwrap_or("") == r);
                if s.completed > 0 {
                    expected_streaks.insert(key(GRAIN_REVISION, r), s);
                }
            }
        }
        for (ns, subject, action, grain, revision, streak) in streaks {
            let expected = expected_streaks
                .remove(&(ns, subject.clone(), action.clone(), grain, revision))
                .unwrap_or_default();
            if expected != streak {
                problems.push(format!(
                    "attempt streak of {subject:?}/{action:?} (grain {grain}) differs from its events"
                ));
            }
        }
        for (_, subject, action, grain, _) in expected_streaks.keys() {
            problems.push(format!(
                "attempt streak of {subject:?}/{action:?} (grain {grain}) is missing from the projection"
            ));
        }
        let mut expected_counts = self.counts;
        for (ns, d, n) in counts {
            if expected_counts.remove(&(ns, d)).unwrap_or(0) != n {
                problems.push(format!(
                    "attempt count of {} differs from the events",
                    d.as_str()
                ));
            }
        }
        for (_, d) in expected_counts.keys() {
            problems.push(format!("attempt count of {} is missing", d.as_str()));
        }
        let mut expected_policies = self.policies;
        for (ns, text) in policies {
            if expected_policies.remove(&ns).as_deref() != Some(text.as_str()) {
                problems.push("attempt policy differs from its last event".to_owned());
            }
        }
        if !expected_policies.is_empty() {
            problems.push("attempt policy missing from the projection".to_owned());
        }
        problems
    }
}
