//! Assessment, history and counts, over an engine's reader.

use std::collections::BTreeMap;

use praxis_domain::attempts::{
    self, Assessment, DISPOSITIONS, Disposition, LegacyStore, Policy, Streak,
};
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;

use super::fold::{CaseKeyRow, StreakKeyRow};
use super::write::StreakRow;
use super::{
    ActionRef, AttemptReads, AttemptRecord, GRAIN_ACTION, GRAIN_REVISION, HistoryOf, HistoryPage,
};
use crate::error::StoreError;

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
    /// Every identity row of a tenant, for verification.
    async fn all_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError>;
    /// Every streak row of a tenant, for verification.
    async fn all_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError>;
    /// Every count row of a tenant: (namespace, disposition, count).
    async fn all_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError>;
    /// Every policy of a tenant: (namespace, canonical policy).
    async fn all_policies(&mut self, tenant: &str) -> Result<Vec<(String, String)>, StoreError>;
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

/// Records per page when a whole namespace is exported.
const EXPORT_PAGE: usize = 5_000;

/// Exports a namespace in the legacy format, renumbered densely from 0.
pub async fn export(
    reads: &dyn AttemptReads,
    tenant: &str,
    namespace: &Namespace,
) -> Result<LegacyStore, StoreError> {
    let mut observations = Vec::new();
    let mut after = 0;
    loop {
        let page = reads
            .history(tenant, namespace, HistoryOf::Namespace, after, EXPORT_PAGE)
            .await?;
        observations.extend(page.records.into_iter().map(|r| r.observation));
        match page.next {
            Some(next) => after = next,
            None => return Ok(LegacyStore::export(observations)),
        }
    }
}
