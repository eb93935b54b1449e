//! Legacy attempt stores: the format `import` reads and `export` writes,
//! and the checks an import must pass before anything is written.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::observation::Observation;
use super::outcome::{Disposition, Outcome, Stage};
use crate::refusal::ImportProblem;
use crate::refusal::Refusal;

/// A legacy attempt store, the format `import` reads and `export` writes.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyStore {
    /// The number of records, which is also the next sequence to assign.
    pub next_sequence: u64,
    /// Records in sequence order.
    pub records: Vec<LegacyRecord>,
}

/// One record of a [`LegacyStore`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacyRecord {
    /// Zero-based, equal to the record's index.
    pub sequence: u64,
    /// What the verifier concluded.
    pub outcome: Outcome,
    /// Missing in stores written before dispositions existed: inferred.
    #[serde(default)]
    pub disposition: Option<Disposition>,
}

impl LegacyStore {
    /// Writes observations in the legacy format, renumbered densely from 0,
    /// every disposition explicit.
    pub fn export(observations: impl IntoIterator<Item = Observation>) -> LegacyStore {
        let records: Vec<LegacyRecord> = observations
            .into_iter()
            .enumerate()
            .map(|(i, o)| LegacyRecord {
                sequence: i as u64,
                outcome: o.outcome,
                disposition: Some(o.disposition),
            })
            .collect();
        LegacyStore {
            next_sequence: records.len() as u64,
            records,
        }
    }

    /// Infers missing dispositions, then checks every record: contiguous
    /// sequences, outcome rules, valid pairs, no exact duplicate and no
    /// replay of an identity with other content. Reports every problem.
    pub fn validate(self) -> Result<Vec<Observation>, Vec<ImportProblem>> {
        let mut problems = Vec::new();
        if self.next_sequence != self.records.len() as u64 {
            problems.push(ImportProblem {
                index: None,
                path: "/next_sequence".into(),
                code: "sequence_mismatch",
                message: format!(
                    "next_sequence is {} but the store holds {} records",
                    self.next_sequence,
                    self.records.len()
                ),
            });
        }
        // identity → (record index, index in `observations`)
        let mut seen: BTreeMap<(String, String, String, Stage), (usize, usize)> = BTreeMap::new();
        let mut observations: Vec<Observation> = Vec::with_capacity(self.records.len());
        for (i, record) in self.records.into_iter().enumerate() {
            let at = format!("/records/{i}");
            if record.sequence != i as u64 {
                problems.push(ImportProblem {
                    index: Some(i),
                    path: format!("{at}/sequence"),
                    code: "sequence_mismatch",
                    message: format!(
                        "sequence is {} but the record is at index {i}",
                        record.sequence
                    ),
                });
            }
            let observation = match Observation::new(
                record.outcome,
                record.disposition,
                &format!("{at}/outcome"),
            ) {
                Ok(o) => o,
                Err(Refusal::Invalid(e)) => {
                    problems.push(ImportProblem {
                        index: Some(i),
                        path: e.path().unwrap_or(&at).to_owned(),
                        code: "invalid_field",
                        message: e.to_string(),
                    });
                    continue;
                }
                Err(Refusal::InvalidDisposition {
                    disposition,
                    status,
                }) => {
                    problems.push(ImportProblem {
                        index: Some(i),
                        path: format!("{at}/disposition"),
                        code: "invalid_disposition",
                        message: format!(
                            "disposition {disposition} cannot accompany status {status}"
                        ),
                    });
                    continue;
                }
                // `Observation::new` refuses for the two reasons above only;
                // any other refusal is still reported, never dropped.
                Err(other) => {
                    problems.push(ImportProblem {
                        index: Some(i),
                        path: format!("{at}/outcome"),
                        code: "invalid_field",
                        message: other.to_string(),
                    });
                    continue;
                }
            };
            let (subject, action, case, stage) = observation.identity();
            let key = (
                subject.to_owned(),
                action.to_owned(),
                case.to_owned(),
                stage,
            );
            if let Some(&(first, kept)) = seen.get(&key) {
                let (code, what) = if observations[kept] == observation {
                    ("duplicate_record", "repeats")
                } else {
                    ("identity_conflict", "reuses the identity of")
                };
                problems.push(ImportProblem {
                    index: Some(i),
                    path: at,
                    code,
                    message: format!("{what} record {first}"),
                });
                continue;
            }
            seen.insert(key, (i, observations.len()));
            observations.push(observation);
        }
        if problems.is_empty() {
            Ok(observations)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempts::fixtures::outcome;
    use crate::attempts::outcome::Status;

    #[test]
    fn legacy_import_reports_every_problem() {
        let good = outcome(Stage::Active, Status::FalsePositive);
        let mut other_case = good.clone();
        other_case.case_id = "c2".into();
        let mut changed = good.clone();
        changed.rationale = "different".into();
        let mut bad_conf = outcome(Stage::Active, Status::Unknown);
        bad_conf.case_id = "c3".into();
        bad_conf.confidence = 5;
        let rec = |sequence, outcome: &Outcome, disposition| LegacyRecord {
            sequence,
            outcome: outcome.clone(),
            disposition,
        };
        let store = LegacyStore {
            next_sequence: 6,
            records: vec![
                rec(0, &good, None),
                rec(1, &good, Some(Disposition::VerificationRejected)),
                rec(2, &changed, None),
                rec(4, &other_case, None),
                rec(4, &bad_conf, None),
                rec(5, &other_case.clone(), Some(Disposition::TransportFailure)),
            ],
        };
        let problems = store.validate().unwrap_err();
        let found: Vec<(Option<usize>, &str)> =
            problems.iter().map(|p| (p.index, p.code)).collect();
        assert_eq!(
            found,
            vec![
                (Some(1), "duplicate_record"),
                (Some(2), "identity_conflict"),
                (Some(3), "sequence_mismatch"),
                (Some(4), "invalid_field"),
                (Some(5), "invalid_disposition"),
            ]
        );
        assert_eq!(problems[3].path, "/records/4/outcome/confidence");
        let ok = LegacyStore::export(vec![Observation::new(good, None, "").unwrap()]);
        assert_eq!(
            ok.records[0].disposition,
            Some(Disposition::VerificationRejected)
        );
        assert_eq!(ok.clone().validate().map(|o| o.len()), Ok(1));
    }
}
