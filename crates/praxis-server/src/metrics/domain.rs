//! Domain counters: what the ledger acknowledged, by kind.
//!
//! Writes are counted after their commit, from what the store says it
//! applied, so a refused or failed write counts nothing; a replayed answer
//! counts only as a replay. Every label value is a domain constant (a
//! disposition, a recommendation, a verdict, a screening rule id, an event
//! kind), never text from a request.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock};

use praxis_domain::attempts::{Assessment, DISPOSITIONS, Recommendation};
use praxis_domain::proposals::{
    PROMOTION_FAILED, PROMOTION_RECEIPT, PROMOTION_STARTED, PROPOSAL_APPROVED, PROPOSAL_CREATED,
    PROPOSAL_PROMOTED, PROPOSAL_WITHDRAWN,
};
use praxis_store::attempts::WriteKind;
use praxis_store::metrics::{escape, family, sample};
use praxis_store::records::RecordWrite;
use praxis_store::{Applied, Command, Effect, RecordCommand};

/// Observation write label values, in [`WriteKind`] order.
const WRITES: [&str; 2] = ["inserted", "unchanged"];

/// Recommendation label values.
const RECOMMENDATIONS: [&str; 3] = ["suppress", "explore", "continue"];

/// Suppression state label values: the limit is reached and the action is
/// suppressed, or it is reached but a cool-down allows one more attempt.
const SUPPRESSIONS: [&str; 2] = ["suppressed", "reexplore"];

/// Submission verdict label values.
const VERDICTS: [&str; 3] = ["passed", "rejected", "unchanged"];

/// Proposal event kinds and their outcome label values.
const PROPOSALS: [(&str, &str); 7] = [
    (PROPOSAL_CREATED, "created"),
    (PROPOSAL_APPROVED, "approved"),
    (PROMOTION_STARTED, "promotion_started"),
    (PROMOTION_RECEIPT, "promotion_receipt"),
    (PROMOTION_FAILED, "promotion_failed"),
    (PROPOSAL_PROMOTED, "promoted"),
    (PROPOSAL_WITHDRAWN, "withdrawn"),
];

/// A rule id longer than this, or with other characters than lowercase
/// letters, digits, `_`, `.` and `-`, is counted as `other`: rule ids are
/// the screening's constants, and this keeps the label bounded even if one
/// ever were not.
const MAX_RULE_CHARS: usize = 64;

/// What a write's counters depend on beyond what it applied: record
/// writes look alike whether they come from a submission or a review.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Counted {
    /// A record submission: its result is a screening verdict.
    Submission,
    /// Anything else.
    Other,
}

impl Counted {
    /// How `command` is counted once applied.
    pub(crate) fn of(command: &Command) -> Counted {
        match command {
            Command::Records(RecordCommand::Submit(_)) => Counted::Submission,
            _ => Counted::Other,
        }
    }
}

fn zeroed<const N: usize>() -> [AtomicU64; N] {
    std::array::from_fn(|_| AtomicU64::new(0))
}

fn add(n: &AtomicU64) {
    n.fetch_add(1, Ordering::Relaxed);
}

/// The domain counters of one server.
pub(crate) struct DomainMetrics {
    /// By disposition (in [`DISPOSITIONS`] order), then write.
    observations: [[AtomicU64; WRITES.len()]; DISPOSITIONS.len()],
    assessments: [AtomicU64; RECOMMENDATIONS.len()],
    suppressions: [AtomicU64; SUPPRESSIONS.len()],
    submissions: [AtomicU64; VERDICTS.len()],
    findings: RwLock<HashMap<Box<str>, AtomicU64>>,
    proposals: [AtomicU64; PROPOSALS.len()],
    replays: AtomicU64,
}

impl Default for DomainMetrics {
    fn default() -> Self {
        DomainMetrics {
            observations: std::array::from_fn(|_| zeroed()),
            assessments: zeroed(),
            suppressions: zeroed(),
            submissions: zeroed(),
            findings: RwLock::default(),
            proposals: zeroed(),
            replays: AtomicU64::new(0),
        }
    }
}

impl DomainMetrics {
    /// Counts a committed write.
    pub(crate) fn acknowledged(&self, counted: Counted, applied: &Applied) {
        match &applied.effect {
            Effect::Attempts(writes) => {
                for w in writes {
                    let d = DISPOSITIONS
                        .iter()
                        .position(|d| *d == w.record.observation.disposition)
                        .unwrap_or_default();
                    let k = match w.write {
                        WriteKind::Inserted => 0,
                        WriteKind::Unchanged => 1,
                    };
                    add(&self.observations[d][k]);
                }
            }
            Effect::Records(writes) if counted == Counted::Submission => {
                for w in writes {
                    match w {
                        RecordWrite::Revised(_) => add(&self.submissions[0]),
                        RecordWrite::Rejected(findings) => {
                            add(&self.submissions[1]);
                            for f in findings {
                                self.finding(&f.rule);
                            }
                        }
                        RecordWrite::Unchanged(_) => add(&self.submissions[2]),
                    }
                }
            }
            _ => {}
        }
        for event in &applied.events {
            if let Some(i) = PROPOSALS.iter().position(|(kind, _)| *kind == event.kind) {
                add(&self.proposals[i]);
            }
        }
    }

    /// Counts the assessments one request was answered with.
    pub(crate) fn assessed(&self, assessments: &[Assessment]) {
        for a in assessments {
            let i = match a.recommendation {
                Recommendation::Suppress => 0,
                Recommendation::Explore => 1,
                Recommendation::Continue => 2,
            };
            add(&self.assessments[i]);
            let reached = a.consecutive_failures >= u64::from(a.limit);
            match a.recommendation {
                Recommendation::Suppress => add(&self.suppressions[0]),
                Recommendation::Explore if reached && a.completed_attempts > 0 => {
                    add(&self.suppressions[1]);
                }
                _ => {}
            }
        }
    }

    /// Counts an answer replayed from its receipt.
    pub(crate) fn replayed(&self) {
        add(&self.replays);
    }

    fn finding(&self, rule: &str) {
        let bounded = rule.len() <= MAX_RULE_CHARS
            && !rule.is_empty()
            && rule.bytes().all(|b| {
                b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'.' | b'-')
            });
        let rule = if bounded { rule } else { "other" };
        let seen = self.findings.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = seen.get(rule) {
            add(n);
        } else {
            drop(seen);
            add(self
                .findings
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(rule.into())
                .or_default());
        }
    }

    /// Writes the domain metric families.
    pub(crate) fn render(&self, out: &mut String) {
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        let name = "praxis_observations_total";
        family(
            out,
            name,
            "counter",
            "Acknowledged attempt observations (observe and import), by disposition and whether a record was inserted or an identical one existed.",
        );
        for (d, row) in DISPOSITIONS.iter().zip(&self.observations) {
            for (w, n) in WRITES.iter().zip(row) {
                let labels = format!("disposition=\"{}\",write=\"{w}\"", d.as_str());
                sample(out, name, &labels, load(n));
            }
        }
        let name = "praxis_assessments_total";
        family(
            out,
            name,
            "counter",
            "Candidate actions assessed, by recommendation.",
        );
        for (r, n) in RECOMMENDATIONS.iter().zip(&self.assessments) {
            sample(out, name, &format!("recommendation=\"{r}\""), load(n));
        }
        let name = "praxis_suppressions_total";
        family(
            out,
            name,
            "counter",
            "Assessed candidates whose verified-negative streak reached the policy limit: suppressed, or allowed one exploratory attempt after a cool-down.",
        );
        for (s, n) in SUPPRESSIONS.iter().zip(&self.suppressions) {
            sample(out, name, &format!("state=\"{s}\""), load(n));
        }
        let name = "praxis_record_submissions_total";
        family(
            out,
            name,
            "counter",
            "Acknowledged record submissions, by screening verdict (a rejection is kept in the record's history).",
        );
        for (v, n) in VERDICTS.iter().zip(&self.submissions) {
            sample(out, name, &format!("verdict=\"{v}\""), load(n));
        }
        let name = "praxis_record_findings_total";
        family(
            out,
            name,
            "counter",
            "Screening findings of rejected record submissions, by rule id.",
        );
        let findings = self.findings.read().unwrap_or_else(PoisonError::into_inner);
        let mut rules: Vec<_> = findings.iter().collect();
        rules.sort_by(|a, b| a.0.cmp(b.0));
        for (rule, n) in rules {
            sample(out, name, &format!("rule=\"{}\"", escape(rule)), load(n));
        }
        drop(findings);
        let name = "praxis_proposals_total";
        family(
            out,
            name,
            "counter",
            "Acknowledged proposal steps, by outcome.",
        );
        for ((_, o), n) in PROPOSALS.iter().zip(&self.proposals) {
            sample(out, name, &format!("outcome=\"{o}\""), load(n));
        }
        let name = "praxis_idempotent_replays_total";
        family(
            out,
            name,
            "counter",
            "Keyed writes answered from their stored receipt instead of being applied again.",
        );
        sample(out, name, "", load(&self.replays));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_stay_bounded() {
        let m = DomainMetrics::default();
        for rule in [
            "schema.required",
            "gate.size",
            "Bad Rule",
            "",
            &"x".repeat(65),
        ] {
            m.finding(rule);
        }
        let mut out = String::new();
        m.render(&mut out);
        assert!(out.contains("praxis_record_findings_total{rule=\"schema.required\"} 1\n"));
        assert!(
            out.contains("praxis_record_findings_total{rule=\"other\"} 3\n"),
            "{out}"
        );
    }
}
