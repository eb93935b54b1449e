//! Suppression streaks: the consecutive verified negatives of one
//! (subject, action), kept at write time and rebuilt when an active record
//! supersedes a passive one.

use std::collections::BTreeMap;

use super::outcome::{Disposition, Effect, Stage, Status, completed};
use crate::time::Timestamp;

/// One record as the streak logic sees it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CaseEntry {
    /// The attempt.
    pub case_id: String,
    /// Its stage.
    pub stage: Stage,
    /// Ledger position: later records have higher positions.
    pub position: u64,
    /// The action revision, if stated.
    pub revision: Option<String>,
    /// Verifier status.
    pub status: Status,
    /// Disposition.
    pub disposition: Disposition,
    /// When the server recorded it.
    pub recorded_at: Timestamp,
    /// How many observations of the subject the ledger held once it was recorded.
    pub subject_observations: u64,
}

impl CaseEntry {
    /// Whether the entry is a completed attempt.
    pub fn is_completed(&self) -> bool {
        completed(self.stage, self.status)
    }
}

/// The per-key summary an assessment is answered from, kept at write time.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Streak {
    /// Consecutive verified negatives since the last confirmed positive.
    pub consecutive: u64,
    /// Completed attempts counted.
    pub completed: u64,
    /// Disposition of the newest completed attempt.
    pub last_disposition: Option<Disposition>,
    /// When the newest completed attempt was recorded.
    pub last_at: Option<Timestamp>,
    /// Subject observations when the newest completed attempt was recorded.
    pub last_observations: u64,
}

impl Streak {
    /// Adds a completed attempt newer than every one counted so far.
    pub fn push(&mut self, entry: &CaseEntry) {
        debug_assert!(entry.is_completed());
        self.completed += 1;
        match entry.disposition.effect() {
            Effect::Increment => self.consecutive += 1,
            Effect::Reset => self.consecutive = 0,
            Effect::Neutral => {}
        }
        self.last_disposition = Some(entry.disposition);
        self.last_at = Some(entry.recorded_at);
        self.last_observations = entry.subject_observations;
    }

    /// Rebuilds a streak from every record of its (subject, action), applying supersession.
    pub fn rebuild<'a>(entries: impl IntoIterator<Item = &'a CaseEntry>) -> Streak {
        Streak::rebuild_where(entries, |_| true)
    }

    /// Rebuilds the streak of the effective records that `keep` selects.
    ///
    /// Supersession is decided over every record of the (subject, action)
    /// before selecting, so that an active record of one revision still
    /// supersedes a passive record of the same case under another revision.
    pub fn rebuild_where<'a>(
        entries: impl IntoIterator<Item = &'a CaseEntry>,
        keep: impl Fn(&CaseEntry) -> bool,
    ) -> Streak {
        let mut streak = Streak::default();
        for entry in effective(entries) {
            if entry.is_completed() && keep(entry) {
                streak.push(entry);
            }
        }
        streak
    }
}

/// The record each case counts with, in position order: an active record
/// supersedes a passive one of the same case.
pub fn effective<'a>(entries: impl IntoIterator<Item = &'a CaseEntry>) -> Vec<&'a CaseEntry> {
    let mut by_case: BTreeMap<&str, &CaseEntry> = BTreeMap::new();
    for entry in entries {
        match by_case.get(entry.case_id.as_str()) {
            Some(kept) if kept.stage == Stage::Active => {}
            _ => {
                by_case.insert(&entry.case_id, entry);
            }
        }
    }
    let mut kept: Vec<&CaseEntry> = by_case.into_values().collect();
    kept.sort_by_key(|e| e.position);
    kept
}

/// How a new record changes the streaks of its (subject, action).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StreakChange {
    /// Nothing changes: the record is not a completed attempt, or it is a
    /// passive record of a case that already has an active one.
    None,
    /// The record is the newest completed attempt of its keys.
    Push,
    /// The record supersedes a passive record of its case: the streaks it
    /// touches are rebuilt from their records.
    Rebuild,
}

/// Decides how a new record changes the streaks, given the records of its
/// case already stored (at most one per stage).
pub fn streak_change(existing: &[CaseEntry], new: &CaseEntry) -> StreakChange {
    let superseded_by_existing =
        new.stage == Stage::Passive && existing.iter().any(|e| e.stage == Stage::Active);
    let supersedes = new.stage == Stage::Active
        && existing
            .iter()
            .any(|e| e.stage == Stage::Passive && e.is_completed());
    if superseded_by_existing {
        StreakChange::None
    } else if supersedes {
        StreakChange::Rebuild
    } else if new.is_completed() {
        StreakChange::Push
    } else {
        StreakChange::None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::attempts::fixtures::entry;
    use crate::attempts::outcome::DISPOSITIONS;

    #[test]
    fn an_active_record_supersedes_a_passive_success() {
        let passive = entry("c2", Stage::Passive, 2, Disposition::ConfirmedPositive);
        let entries = vec![
            entry("c1", Stage::Active, 1, Disposition::VerificationRejected),
            passive.clone(),
        ];
        assert_eq!(Streak::rebuild(&entries).consecutive, 0);
        let active = entry("c2", Stage::Active, 3, Disposition::TransportFailure);
        assert_eq!(
            streak_change(std::slice::from_ref(&passive), &active),
            StreakChange::Rebuild
        );
        let mut all = entries;
        all.push(active);
        let rebuilt = Streak::rebuild(&all);
        assert_eq!(rebuilt.consecutive, 1);
        assert_eq!(rebuilt.completed, 2);
        assert_eq!(
            rebuilt.last_disposition,
            Some(Disposition::TransportFailure)
        );
    }

    /// The contract's walk, written as literally as possible.
    fn model_walk(entries: &[CaseEntry]) -> (u64, u64) {
        let mut by_case: BTreeMap<&str, &CaseEntry> = BTreeMap::new();
        for e in entries {
            let keep = match by_case.get(e.case_id.as_str()) {
                None => true,
                Some(k) => k.stage == Stage::Passive && e.stage == Stage::Active,
            };
            if keep {
                by_case.insert(&e.case_id, e);
            }
        }
        let mut completed: Vec<&CaseEntry> =
            by_case.into_values().filter(|e| e.is_completed()).collect();
        completed.sort_by_key(|e| std::cmp::Reverse(e.position));
        let mut streak = 0;
        for e in &completed {
            match e.disposition {
                Disposition::VerificationRejected | Disposition::ConfirmedNegative => streak += 1,
                Disposition::ConfirmedPositive => break,
                _ => {}
            }
        }
        (streak, completed.len() as u64)
    }

    fn arb_entry() -> impl Strategy<Value = (u8, bool, Disposition, bool)> {
        (
            0u8..4,
            any::<bool>(),
            proptest::sample::select(DISPOSITIONS.to_vec()),
            any::<bool>(),
        )
    }

    proptest! {
        /// Maintaining streaks incrementally, as the store does, gives the
        /// same answer as the contract's walk over the whole history.
        #[test]
        fn incremental_streaks_equal_the_walk(ops in proptest::collection::vec(arb_entry(), 0..40)) {
            let mut stored: Vec<CaseEntry> = Vec::new();
            let mut streak = Streak::default();
            for (i, (case, active, d, inconclusive)) in ops.into_iter().enumerate() {
                let stage = if active { Stage::Active } else { Stage::Passive };
                let mut e = entry(&format!("c{case}"), stage, i as u64 + 1, d);
                if inconclusive && d.fits(Status::NeedsReview) {
                    e.status = Status::NeedsReview;
                }
                if e.status == Status::ConfirmedNegative && stage == Stage::Passive {
                    continue;
                }
                let case_entries: Vec<CaseEntry> =
                    stored.iter().filter(|s| s.case_id == e.case_id).cloned().collect();
                if case_entries.iter().any(|s| s.stage == e.stage) {
                    continue; // the identity is taken: the store refuses or ignores it
                }
                let change = streak_change(&case_entries, &e);
                stored.push(e.clone());
                match change {
                    StreakChange::None => {}
                    StreakChange::Push => streak.push(&e),
                    StreakChange::Rebuild => streak = Streak::rebuild(&stored),
                }
                let (walk, completed) = model_walk(&stored);
                prop_assert_eq!(streak.consecutive, walk);
                prop_assert_eq!(streak.completed, completed);
            }
        }
    }
}
