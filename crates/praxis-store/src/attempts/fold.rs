//! The attempt projections rebuilt from the log, for verification.

use std::collections::BTreeMap;

use praxis_domain::attempts::{self, CaseEntry, Disposition, Stage, Streak};
use praxis_domain::ledger::Event;

use super::read::AttemptRead;
use super::{AttemptRecord, GRAIN_ACTION, GRAIN_REVISION};
use crate::error::StoreError;

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
    pub async fn compare<R: AttemptRead>(
        self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let cases = read.all_cases(tenant).await?;
        let streaks = read.all_streaks(tenant).await?;
        let counts = read.all_counts(tenant).await?;
        let policies = read.all_policies(tenant).await?;
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
        Ok(problems)
    }
}
