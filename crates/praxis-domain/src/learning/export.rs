//! Exports: one frozen observation (an accepted event) from each of up to
//! 64 attempts, sorted, summarized and digested, so a later reader (a
//! strategy, an auditor) can cite exactly what was summed.
//!
//! **Totals.** Each total is a sum of at most [`MAX_EXPORT_EVENTS`] values
//! below 2^64, computed in `u128`: 64 × (2^64 − 1) < 2^70, far below 2^128,
//! so no sum can overflow. Totals are decimal strings because they may
//! exceed what a JSON number holds exactly. `reported_total` is null as soon
//! as one report is unknown (an unknown is never counted as zero);
//! `observed_lower_bound` always sums the greatest known values, an attempt
//! with none counting 0, which is a true lower bound since consumption is
//! never negative.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::experience::{Attempt, ExperienceOutcome};
use super::state::ReportedEvent;
use crate::digest::{Digest, EXPERIENCE_EXPORT_KIND};
use crate::error::DomainError;
use crate::refusal::Refusal;

/// The export's method version, part of its digest.
pub const EXPORT_METHOD: &str = "praxis.experience-export.v1";
/// Most observations one export holds.
pub const MAX_EXPORT_EVENTS: usize = 64;

/// One exported observation: what the export read from an accepted event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedEvent {
    /// The attempt.
    pub attempt_id: String,
    /// The event.
    pub event_id: String,
    /// The event's digest, which pins every value below.
    pub event_digest: Digest,
    /// The experience revision the event produced.
    pub revision: u64,
    /// The attempt's context digest.
    pub context_digest: Digest,
    /// What the attempt's cost units count.
    pub accounting_unit: String,
    /// The outcome reported.
    pub outcome: ExperienceOutcome,
    /// Cost units reported; null when unknown.
    pub cost_units: Option<u64>,
    /// Latency reported; null when unknown.
    pub latency_ms: Option<u64>,
    /// Greatest cost units known as of the event.
    pub observed_cost_units: Option<u64>,
    /// Greatest latency known as of the event.
    pub observed_latency_ms: Option<u64>,
}

/// The totals of one consumption field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Totals {
    /// Observations whose report knew the value.
    pub known_reports: u64,
    /// Observations whose report did not.
    pub unknown_reports: u64,
    /// Sum of the reported values, in decimal; null when any is unknown.
    pub reported_total: Option<String>,
    /// Sum of the greatest known values, in decimal.
    pub observed_lower_bound: String,
}

/// What an export's observations add up to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Observations (one per attempt).
    pub attempts: u64,
    /// Observations that succeeded.
    pub succeeded: u64,
    /// Observations that failed.
    pub failed: u64,
    /// Observations that were cancelled.
    pub cancelled: u64,
    /// Observations whose outcome is unknown.
    pub unknown: u64,
    /// Cost units.
    pub cost_units: Totals,
    /// Latency.
    pub latency_ms: Totals,
}

/// An export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Export {
    /// [`EXPORT_METHOD`].
    pub method_version: String,
    /// The observations, sorted by attempt id.
    pub events: Vec<ExportedEvent>,
    /// Their summary.
    pub summary: Summary,
    /// Digest of the three members above, under `praxis.experience-export.v1`.
    pub export_digest: Digest,
}

fn totals(pairs: impl Iterator<Item = (Option<u64>, Option<u64>)>) -> Totals {
    let (mut known, mut unknown, mut reported, mut observed) = (0u64, 0u64, 0u128, 0u128);
    for (report, bound) in pairs {
        match report {
            Some(v) => {
                known += 1;
                reported += u128::from(v);
            }
            None => unknown += 1,
        }
        observed += u128::from(bound.unwrap_or(0));
    }
    Totals {
        known_reports: known,
        unknown_reports: unknown,
        reported_total: (unknown == 0).then(|| reported.to_string()),
        observed_lower_bound: observed.to_string(),
    }
}

/// Exports one accepted event from each attempt, given as (attempt, event)
/// pairs in request order: 1 to [`MAX_EXPORT_EVENTS`] of them, at most one
/// per attempt, every event of its attempt, and every attempt in one
/// accounting unit, since units of different kinds cannot be summed.
/// Pointers name the request's `/events/{index}`.
pub fn export(pairs: &[(&Attempt, &ReportedEvent)]) -> Result<Export, Refusal> {
    if pairs.is_empty() || pairs.len() > MAX_EXPORT_EVENTS {
        return Err(DomainError::invalid(
            "/events",
            format!("names 1 to {MAX_EXPORT_EVENTS} events"),
        )
        .into());
    }
    let unit = &pairs[0].0.accounting_unit;
    let mut by_attempt: BTreeMap<&str, ExportedEvent> = BTreeMap::new();
    for (index, (attempt, event)) in pairs.iter().enumerate() {
        let at = format!("/events/{index}");
        if event.attempt_id != attempt.id || event.attempt_digest != attempt.digest() {
            return Err(DomainError::invalid(at, "the event is not of this attempt").into());
        }
        if attempt.accounting_unit != *unit {
            return Err(DomainError::invalid(
                format!("{at}/attempt_id"),
                "every attempt of an export must share one accounting unit",
            )
            .into());
        }
        let exported = ExportedEvent {
            attempt_id: attempt.id.clone(),
            event_id: event.event.event_id.clone(),
            event_digest: event.event_digest,
            revision: event.revision,
            context_digest: attempt.context_digest,
            accounting_unit: attempt.accounting_unit.clone(),
            outcome: event.event.outcome,
            cost_units: event.event.cost_units,
            latency_ms: event.event.latency_ms,
            observed_cost_units: event.observed_cost_units,
            observed_latency_ms: event.observed_latency_ms,
        };
        if by_attempt.insert(&attempt.id, exported).is_some() {
            return Err(DomainError::invalid(
                format!("{at}/attempt_id"),
                "an export holds at most one event per attempt",
            )
            .into());
        }
    }
    let events: Vec<ExportedEvent> = by_attempt.into_values().collect();
    let count = |o: ExperienceOutcome| events.iter().filter(|e| e.outcome == o).count() as u64;
    let summary = Summary {
        attempts: events.len() as u64,
        succeeded: count(ExperienceOutcome::Succeeded),
        failed: count(ExperienceOutcome::Failed),
        cancelled: count(ExperienceOutcome::Cancelled),
        unknown: count(ExperienceOutcome::Unknown),
        cost_units: totals(events.iter().map(|e| (e.cost_units, e.observed_cost_units))),
        latency_ms: totals(events.iter().map(|e| (e.latency_ms, e.observed_latency_ms))),
    };
    let body = serde_json::json!({
        "method_version": EXPORT_METHOD,
        "events": events,
        "summary": summary,
    });
    Ok(Export {
        method_version: EXPORT_METHOD.to_owned(),
        export_digest: Digest::of_value(EXPERIENCE_EXPORT_KIND, &body),
        events,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::experience::EventReport;
    use crate::learning::experience::tests::{attempt, event};
    use crate::learning::state::{ExperienceState, Reported};
    use proptest::prelude::*;

    /// An attempt and its first event, with the given consumption.
    fn observed(
        id: &str,
        outcome: ExperienceOutcome,
        cost: Option<u64>,
    ) -> (Attempt, ReportedEvent) {
        let a = attempt(id);
        let e = EventReport {
            cost_units: cost,
            ..event("e1", 1, outcome)
        };
        match ExperienceState::recorded(&a).report("agent-7", "agent-7", None, &e) {
            Ok(Reported::Accepted(acc)) => (a, acc.event),
            other => panic!("{other:?}"),
        }
    }

    fn run(items: &[(Attempt, ReportedEvent)]) -> Result<Export, Refusal> {
        let pairs: Vec<(&Attempt, &ReportedEvent)> = items.iter().map(|(a, e)| (a, e)).collect();
        export(&pairs)
    }

    fn path(r: Result<Export, Refusal>) -> String {
        match r {
            Err(Refusal::Invalid(e)) => e.path().unwrap().to_owned(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn exports_are_sorted_summed_and_digested() {
        let items = [
            observed("b", ExperienceOutcome::Failed, Some(7)),
            observed("a", ExperienceOutcome::Succeeded, None),
        ];
        let x = run(&items).unwrap();
        assert_eq!(x.method_version, EXPORT_METHOD);
        let ids: Vec<&str> = x.events.iter().map(|e| e.attempt_id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        assert_eq!(
            (
                x.summary.attempts,
                x.summary.succeeded,
                x.summary.failed,
                x.summary.unknown
            ),
            (2, 1, 1, 0)
        );
        assert_eq!(x.summary.cost_units.reported_total, None);
        assert_eq!(x.summary.cost_units.observed_lower_bound, "7");
        assert_eq!(
            (
                x.summary.cost_units.known_reports,
                x.summary.cost_units.unknown_reports
            ),
            (1, 1)
        );
        // Request order does not change the export.
        let reversed = [items[1].clone(), items[0].clone()];
        assert_eq!(run(&reversed).unwrap(), x);
        let mut other = items.clone();
        other[0] = observed("b", ExperienceOutcome::Failed, Some(8));
        assert_ne!(run(&other).unwrap().export_digest, x.export_digest);
    }

    #[test]
    fn export_requests_are_bounded_and_consistent() {
        assert_eq!(path(run(&[])), "/events");
        let many: Vec<_> = (0..=MAX_EXPORT_EVENTS)
            .map(|i| observed(&format!("a{i}"), ExperienceOutcome::Unknown, None))
            .collect();
        assert_eq!(path(run(&many)), "/events");
        assert!(run(&many[..MAX_EXPORT_EVENTS]).is_ok());
        let one = observed("a", ExperienceOutcome::Failed, None);
        assert_eq!(
            path(run(&[one.clone(), one.clone()])),
            "/events/1/attempt_id"
        );
        let stranger = (attempt("z"), one.1.clone());
        assert_eq!(path(run(&[one.clone(), stranger])), "/events/1");
        let mut dollars = observed("d", ExperienceOutcome::Failed, None);
        dollars.0.accounting_unit = "usd-cents".into();
        dollars.1.attempt_digest = dollars.0.digest();
        assert_eq!(path(run(&[one, dollars])), "/events/1/attempt_id");
    }

    #[test]
    fn totals_cannot_overflow() {
        let t = totals(std::iter::repeat_n(
            (Some(u64::MAX), Some(u64::MAX)),
            MAX_EXPORT_EVENTS,
        ));
        let exact = (u128::from(u64::MAX) * MAX_EXPORT_EVENTS as u128).to_string();
        assert_eq!(t.reported_total.as_deref(), Some(exact.as_str()));
        assert_eq!(t.observed_lower_bound, exact);
    }

    proptest! {
        /// The reported total is the exact sum when every report is known
        /// and null otherwise; the lower bound never exceeds it.
        #[test]
        fn totals_are_exact_or_null(
            values in prop::collection::vec(
                (prop::option::of(any::<u64>()), any::<u64>()), 1..=MAX_EXPORT_EVENTS)
        ) {
            // A bound is at most the value when the value is known (the
            // latest known report is the greatest), anything otherwise.
            let pairs: Vec<(Option<u64>, Option<u64>)> = values
                .iter()
                .map(|&(v, b)| (v, Some(v.map_or(b, |v| b.min(v)))))
                .collect();
            let t = totals(pairs.iter().copied());
            let known: Vec<u64> = pairs.iter().filter_map(|p| p.0).collect();
            prop_assert_eq!(t.known_reports as usize, known.len());
            prop_assert_eq!(t.unknown_reports as usize, pairs.len() - known.len());
            let bound: u128 = t.observed_lower_bound.parse().unwrap();
            if known.len() == pairs.len() {
                let sum: u128 = known.iter().map(|&v| u128::from(v)).sum();
                prop_assert_eq!(t.reported_total, Some(sum.to_string()));
                prop_assert!(bound <= sum);
            } else {
                prop_assert_eq!(t.reported_total, None);
            }
        }
    }
}
