//! Recording observations: identity checks, streak summaries and counts,
//! all in the writer's transaction.

use std::collections::HashMap;

use praxis_domain::Refusal;
use praxis_domain::attempts::{
    self, CaseEntry, Disposition, Policy, PolicyUpdate, Streak, StreakChange,
};
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::NewEvent;
use praxis_domain::refusal::AttemptProblem;

use super::{
    AttemptRecord, AttemptWrite, GRAIN_ACTION, GRAIN_REVISION, PreparedObservation, WriteKind,
};
use crate::error::StoreError;
use crate::ledger::{Ctx, LedgerTx};

/// Transactional primitives the attempt projections need from an engine.
pub(crate) trait AttemptTx {
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
    /// A namespace's stored policy, as this transaction sees it.
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError>;
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
    overlay: &mut AttemptOverlay,
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
            Err(Refusal::IdentityConflict.into())
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
    overlay.bump(tenant, namespace, entry.disposition);
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
                let mut streak = overlay.streak(tenant, row).unwrap_or(stored);
                streak.push(&entry);
                overlay.put_streak(tenant, row, streak);
            }
        }
        StreakChange::Rebuild => {
            let all = tx
                .case_entries(tenant, namespace, &subject, &action, None)
                .await?;
            overlay.put_streak(tenant, &key(GRAIN_ACTION, ""), Streak::rebuild(&all));
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
                overlay.put_streak(tenant, &key(GRAIN_REVISION, r), streak);
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
            recorded_by: event.actor.subject.clone(),
        },
    })
}

/// Records many observations, all or nothing: every conflicting record is
/// reported, and if there is any, nothing is written.
pub(crate) async fn import<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    overlay: &mut AttemptOverlay,
    observations: Vec<PreparedObservation>,
) -> Result<Vec<AttemptWrite>, StoreError> {
    let mut written = Vec::with_capacity(observations.len());
    let mut problems = Vec::new();
    for (index, observation) in observations.into_iter().enumerate() {
        match observe(tx, ctx, overlay, observation).await {
            Ok(w) => written.push(w),
            Err(StoreError::Refused(Refusal::IdentityConflict)) => problems.push(AttemptProblem {
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
        Err(Refusal::AttemptsRejected(problems).into())
    }
}

/// Changes a namespace's policy: merges `update` into the policy in force
/// and appends the whole result, so the log says what was in force.
pub(crate) async fn set_policy<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    update: &PolicyUpdate,
) -> Result<Policy, StoreError> {
    let current = tx.policy(ctx.tenant, namespace).await?.unwrap_or_default();
    let policy = update.apply(&current, "")?;
    let payload = crate::ledger::payload(&policy)?;
    let new = NewEvent::new(
        namespace.clone(),
        attempts::POLICY_STREAM,
        attempts::POLICY_SET,
        payload,
    );
    let event = ctx.append(tx, new).await?;
    let canonical = event.canonical.clone();
    tx.put_policy(ctx.tenant, namespace, &canonical).await?;
    Ok(policy)
}
