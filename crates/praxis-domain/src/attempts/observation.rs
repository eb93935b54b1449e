//! One recorded attempt: a validated outcome and the disposition it counts
//! with, and the ledger stream it is written to.

use serde::{Deserialize, Serialize};

use super::limits::Limits;
use super::outcome::{Disposition, Outcome, Stage};
use crate::refusal::Refusal;

/// Event kind of one recorded attempt.
pub const OBSERVED: &str = "attempt.observed";

/// The stream of one subject's attempts. Its sequence counts the subject's
/// observations, which re-exploration by observation count relies on.
pub fn stream_of(subject: &str) -> String {
    format!("subject/{subject}")
}

/// One recorded attempt: the event payload of [`OBSERVED`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    /// What the verifier concluded.
    pub outcome: Outcome,
    /// How it may influence planning.
    pub disposition: Disposition,
}

impl Observation {
    /// Validates a live write's outcome (within [`Limits::LIVE`]) and its
    /// disposition, inferring the disposition by the conservative mapping
    /// when none is stated.
    pub fn new(
        outcome: Outcome,
        disposition: Option<Disposition>,
        path: &str,
    ) -> Result<Observation, Refusal> {
        Observation::within(outcome, disposition, path, &Limits::LIVE)
    }

    /// As [`Observation::new`], checking the outcome within `limits`
    /// ([`Limits::IMPORT`] for a legacy store's records).
    pub fn within(
        outcome: Outcome,
        disposition: Option<Disposition>,
        path: &str,
        limits: &Limits,
    ) -> Result<Observation, Refusal> {
        outcome
            .validate_within(path, limits)
            .map_err(Refusal::Invalid)?;
        let disposition = match disposition {
            None => Disposition::infer(outcome.status),
            Some(d) if d.fits(outcome.status) => d,
            Some(d) => {
                return Err(Refusal::InvalidDisposition {
                    disposition: d.as_str(),
                    status: outcome.status.as_str(),
                });
            }
        };
        Ok(Observation {
            outcome,
            disposition,
        })
    }

    /// The identity under which an observation is recorded at most once,
    /// within its namespace.
    pub fn identity(&self) -> (&str, &str, &str, Stage) {
        let o = &self.outcome;
        (&o.subject, &o.action_id, &o.case_id, o.stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempts::fixtures::outcome;
    use crate::attempts::outcome::Status;

    #[test]
    fn observation_refuses_mismatched_pairs() {
        let o = outcome(Stage::Active, Status::Success);
        assert_eq!(
            Observation::new(o.clone(), Some(Disposition::TransportFailure), "/o"),
            Err(Refusal::InvalidDisposition {
                disposition: "transport_failure",
                status: "success"
            })
        );
        let inferred = Observation::new(o, None, "/o").unwrap();
        assert_eq!(inferred.disposition, Disposition::ConfirmedPositive);
    }
}
