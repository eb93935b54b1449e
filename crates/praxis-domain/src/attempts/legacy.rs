//! Legacy attempt stores: the format `import` reads and `export` writes,
//! and the checks an import must pass before anything is written.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::limits::Limits;
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
    /// sequences, outcome rules within [`Limits::IMPORT`] (which accept
    /// every record the original store writes that Praxis can store), valid
    /// pairs, no exact duplicate and no replay of an identity with other
    /// content. Reports every problem.
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
            let observation = match Observation::within(
                record.outcome,
                record.disposition,
                &format!("{at}/outcome"),
                &Limits::IMPORT,
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
    use crate::attempts::limits::{
        IMPORT_MAX_EVIDENCE, IMPORT_MAX_EVIDENCE_BYTES, IMPORT_MAX_ID, IMPORT_MAX_KEY,
        IMPORT_MAX_RATIONALE,
    };
    use crate::attempts::outcome::{DISPOSITIONS, MAX_CONFIDENCE, STATUSES, Status};
    use proptest::prelude::*;

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

    /// A small deterministic generator, so that a case of 100 KiB of text
    /// costs one seed rather than a strategy per character.
    struct Chars(u64);

    impl Chars {
        fn next(&mut self) -> u64 {
            // splitmix64
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        /// Any character the original accepts in an id: printable ASCII,
        /// whitespace (Unicode too), control characters, U+0000 unless
        /// `key`, and characters of two, three and four bytes.
        fn char(&mut self, key: bool) -> char {
            let pick = |c: u32| char::from_u32(c).unwrap_or('?');
            match self.below(20) {
                0..=8 => pick(0x21 + self.below(94) as u32),
                9 => [' ', '\t', '\n', '\u{a0}', '\u{3000}'][self.below(5) as usize],
                10 | 11 => pick([1, 0x1b, 0x1f, 0x7f, 0x85, 0x9f][self.below(6) as usize]),
                12 if !key => '\0',
                12..=14 => pick(0xa1 + self.below(0x7ff - 0xa1) as u32),
                15 | 16 => pick(0x800 + self.below(0xd000) as u32),
                _ => pick(0x1_0000 + self.below(0x10_0000) as u32),
            }
        }

        /// A text of exactly `len` bytes (at least 1) that is not blank.
        fn text(&mut self, len: usize, key: bool) -> String {
            let mut out = String::with_capacity(len);
            while out.len() < len - 1 {
                let c = self.char(key);
                if out.len() + c.len_utf8() < len {
                    out.push(c);
                } else {
                    out.push('~');
                }
            }
            // One visible character somewhere, at a character boundary.
            let boundaries: Vec<usize> = (0..=out.len())
                .filter(|&i| out.is_char_boundary(i))
                .collect();
            let at = boundaries[self.below(boundaries.len() as u64) as usize];
            out.insert(at, 'v');
            out
        }
    }

    /// The shape of one generated record: its sizes, choices and seed.
    #[derive(Clone, Debug)]
    struct Shape {
        seed: u64,
        /// Shares of the identity key: subject, action, case (and revision).
        key: (u32, u32, u32),
        revision: bool,
        id_len: usize,
        rationale_len: usize,
        /// 0: most ids; 1: longest ids; 2: anything within the limits.
        evidence: u8,
        status: Status,
        active: bool,
        confidence: u32,
        disposition: Option<usize>,
    }

    /// A length that is the limit half of the time.
    fn up_to(limit: usize) -> impl Strategy<Value = usize> {
        prop_oneof![Just(limit), 1..=limit]
    }

    fn shape() -> impl Strategy<Value = Shape> {
        (
            any::<u64>(),
            (1u32..100, 1u32..100, 1u32..100),
            any::<bool>(),
            up_to(IMPORT_MAX_ID),
            up_to(IMPORT_MAX_RATIONALE),
            0u8..3,
            proptest::sample::select(STATUSES.to_vec()),
            any::<bool>(),
            prop_oneof![Just(MAX_CONFIDENCE), 1..=MAX_CONFIDENCE],
            proptest::option::of(0usize..5),
        )
            .prop_map(
                |(
                    seed,
                    key,
                    revision,
                    id_len,
                    rationale_len,
                    evidence,
                    status,
                    active,
                    confidence,
                    disposition,
                )| Shape {
                    seed,
                    key,
                    revision,
                    id_len,
                    rationale_len,
                    evidence,
                    status,
                    active,
                    confidence,
                    disposition,
                },
            )
    }

    /// The record a shape describes, every size at or within the import
    /// limits; `index` makes its identity unique in its store.
    fn record_of(index: usize, shape: &Shape) -> LegacyRecord {
        let mut g = Chars(shape.seed);
        let evidenced = shape.status != Status::Unknown;
        // Split the whole key budget (less the index tag) by the shares.
        let tag = format!("{index}:");
        let budget = (IMPORT_MAX_KEY - tag.len()) as u64;
        let (s, a, c) = shape.key;
        let total = u64::from(s + a + c);
        let subject_len = (budget * u64::from(s) / total).max(1) as usize;
        let action_len = (budget * u64::from(a) / total).max(1) as usize;
        let case_len = budget as usize - subject_len - action_len;
        let evidence_ids: Vec<String> = if evidenced {
            let (count, len) = match shape.evidence {
                0 => (
                    IMPORT_MAX_EVIDENCE,
                    IMPORT_MAX_EVIDENCE_BYTES / IMPORT_MAX_EVIDENCE,
                ),
                1 => (IMPORT_MAX_EVIDENCE_BYTES / IMPORT_MAX_ID, IMPORT_MAX_ID),
                _ => (1 + g.below(64) as usize, 1 + g.below(1024) as usize),
            };
            // A distinct prefix per id keeps them unique whatever follows.
            (0..count)
                .map(|i| {
                    let prefix = format!("{i:04}");
                    let rest = len.saturating_sub(prefix.len()).max(1);
                    format!("{prefix}{}", g.text(rest, false))
                })
                .collect()
        } else {
            vec![]
        };
        let status = shape.status;
        let outcome = Outcome {
            case_id: format!("{tag}{}", g.text(case_len, true)),
            subject: g.text(subject_len, true),
            action_id: g.text(action_len, true),
            hypothesis_id: g.text(shape.id_len, false),
            verifier_rule_id: evidenced.then(|| g.text(shape.id_len, false)),
            stage: if shape.active || status == Status::ConfirmedNegative {
                Stage::Active
            } else {
                Stage::Passive
            },
            status,
            confidence: if evidenced { shape.confidence } else { 0 },
            rationale: g.text(shape.rationale_len, false),
            evidence_ids,
            action_revision: shape.revision.then(|| g.text(case_len + tag.len(), true)),
            observed_at: None,
        };
        let fitting: Vec<Disposition> = DISPOSITIONS
            .into_iter()
            .filter(|d| d.fits(status))
            .collect();
        let disposition = shape.disposition.map(|i| fitting[i % fitting.len()]);
        LegacyRecord {
            sequence: index as u64,
            outcome,
            disposition,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Every store the original can write, up to the import limits,
        /// imports whole and unchanged, from its JSON too.
        #[test]
        fn stores_at_the_import_limits_are_accepted(
            shapes in proptest::collection::vec(shape(), 0..4)
        ) {
            let records: Vec<LegacyRecord> =
                shapes.iter().enumerate().map(|(i, s)| record_of(i, s)).collect();
            let store = LegacyStore { next_sequence: records.len() as u64, records };
            let json = serde_json::to_string(&store).unwrap();
            let parsed: LegacyStore = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&parsed, &store);
            let observations = match parsed.validate() {
                Ok(o) => o,
                Err(problems) => return Err(TestCaseError::fail(format!("{problems:?}"))),
            };
            prop_assert_eq!(observations.len(), store.records.len());
            for (o, r) in observations.iter().zip(&store.records) {
                prop_assert_eq!(&o.outcome, &r.outcome);
                let expected = r.disposition.unwrap_or_else(|| Disposition::infer(r.outcome.status));
                prop_assert_eq!(o.disposition, expected);
            }
        }
    }

    #[test]
    fn generated_records_reach_every_limit() {
        let shape = Shape {
            seed: 7,
            key: (90, 5, 5),
            revision: true,
            id_len: IMPORT_MAX_ID,
            rationale_len: IMPORT_MAX_RATIONALE,
            evidence: 0,
            status: Status::NeedsReview,
            active: false,
            confidence: 1,
            disposition: Some(3),
        };
        let r = record_of(0, &shape);
        let o = &r.outcome;
        assert_eq!(
            o.subject.len() + o.action_id.len() + o.case_id.len(),
            IMPORT_MAX_KEY
        );
        assert_eq!(
            o.subject.len() + o.action_id.len() + o.action_revision.as_ref().unwrap().len(),
            IMPORT_MAX_KEY
        );
        assert_eq!(o.hypothesis_id.len(), IMPORT_MAX_ID);
        assert_eq!(o.rationale.len(), IMPORT_MAX_RATIONALE);
        assert_eq!(o.evidence_ids.len(), IMPORT_MAX_EVIDENCE);
        let bytes: usize = o.evidence_ids.iter().map(String::len).sum();
        assert_eq!(bytes, IMPORT_MAX_EVIDENCE_BYTES);
        let longest = record_of(
            1,
            &Shape {
                evidence: 1,
                ..shape.clone()
            },
        );
        assert!(
            longest
                .outcome
                .evidence_ids
                .iter()
                .all(|e| e.len() == IMPORT_MAX_ID)
        );
        // Control characters and U+0000 (outside the key) are among them.
        let all: String = [o.rationale.as_str(), o.hypothesis_id.as_str()].concat();
        assert!(
            all.contains('\0') && all.contains('\u{1}') && all.chars().any(|c| c.len_utf8() == 4)
        );
        assert!(!o.subject.contains('\0'));
        let store = LegacyStore {
            next_sequence: 2,
            records: vec![r, longest],
        };
        assert_eq!(store.validate().map(|o| o.len()), Ok(2));
    }

    #[test]
    fn one_byte_over_an_import_limit_names_its_field() {
        let over = |edit: fn(&mut Outcome)| {
            let mut o = outcome(Stage::Active, Status::Blocked);
            edit(&mut o);
            let store = LegacyStore {
                next_sequence: 1,
                records: vec![LegacyRecord {
                    sequence: 0,
                    outcome: o,
                    disposition: None,
                }],
            };
            let problems = store.validate().unwrap_err();
            assert_eq!(problems.len(), 1);
            assert_eq!(problems[0].code, "invalid_field");
            problems[0].path.clone()
        };
        assert_eq!(
            over(|o| o.subject = "s".repeat(IMPORT_MAX_KEY)),
            "/records/0/outcome/subject"
        );
        assert_eq!(
            over(|o| o.hypothesis_id = "h".repeat(IMPORT_MAX_ID + 1)),
            "/records/0/outcome/hypothesis_id"
        );
        assert_eq!(
            over(|o| o.rationale = "r".repeat(IMPORT_MAX_RATIONALE + 1)),
            "/records/0/outcome/rationale"
        );
        assert_eq!(
            over(|o| o.evidence_ids = (0..=IMPORT_MAX_EVIDENCE).map(|i| i.to_string()).collect()),
            "/records/0/outcome/evidence_ids"
        );
        assert_eq!(
            over(|o| o.action_id = "a\0".into()),
            "/records/0/outcome/action_id"
        );
        assert_eq!(
            over(|o| o.case_id = " \t ".into()),
            "/records/0/outcome/case_id"
        );
        assert_eq!(
            over(|o| o.verifier_rule_id = None),
            "/records/0/outcome/verifier_rule_id"
        );
        assert_eq!(
            over(|o| o.evidence_ids.clear()),
            "/records/0/outcome/evidence_ids"
        );
    }
}
