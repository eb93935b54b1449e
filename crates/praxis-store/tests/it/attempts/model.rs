//! The property: assessments equal a literal model on both engines.

use super::*;

const SUBJECTS: [&str; 2] = ["s0", "s1"];
const ACTIONS: [&str; 2] = ["a0", "a1"];
const REVISIONS: [Option<&str>; 3] = [None, Some("v0"), Some("v1")];

#[derive(Clone, Debug)]
enum Op {
    Observe {
        subject: usize,
        action: usize,
        case: u8,
        revision: usize,
        active: bool,
        status: Status,
        /// Index into the dispositions fitting the status, or `None` to infer.
        disposition: Option<usize>,
        rationale: u8,
    },
    SetPolicy {
        limit: u32,
        by_revision: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (
            0..SUBJECTS.len(),
            0..ACTIONS.len(),
            0u8..3,
            0..REVISIONS.len(),
            any::<bool>(),
            proptest::sample::select(STATUSES.to_vec()),
            proptest::option::of(0usize..5),
            0u8..2,
        )
            .prop_map(
                |(subject, action, case, revision, active, status, disposition, rationale)| {
                    Op::Observe {
                        subject,
                        action,
                        case,
                        revision,
                        active,
                        status,
                        disposition,
                        rationale,
                    }
                }
            ),
        1 => (1u32..=4, any::<bool>())
            .prop_map(|(limit, by_revision)| Op::SetPolicy { limit, by_revision }),
    ]
}

/// One accepted record of the model.
struct Kept {
    order: u64,
    position: u64,
    observation: Observation,
}

/// The model's answer: recommendation, consecutive negatives, completed attempts, last disposition.
fn model_assess(
    kept: &[Kept],
    policy: &Policy,
    subject: &str,
    action: &str,
    revision: Option<&str>,
) -> (Recommendation, u64, u64, Option<Disposition>) {
    // Per case, one record: an active one supersedes a passive one.
    let mut by_case: BTreeMap<&str, &Kept> = BTreeMap::new();
    for k in kept {
        let o = &k.observation.outcome;
        if o.subject != subject || o.action_id != action {
            continue;
        }
        let replace = match by_case.get(o.case_id.as_str()) {
            None => true,
            Some(held) => {
                held.observation.outcome.stage == Stage::Passive && o.stage == Stage::Active
            }
        };
        if replace {
            by_case.insert(&o.case_id, k);
        }
    }
    let mut completed: Vec<&Kept> = by_case
        .into_values()
        .filter(|k| {
            let o = &k.observation.outcome;
            match o.status {
                Status::Success
                | Status::Blocked
                | Status::FalsePositive
                | Status::ConfirmedNegative => true,
                Status::Unknown | Status::NeedsReview => o.stage == Stage::Active,
            }
        })
        .filter(|k| match policy.streak_key {
            StreakKey::Action => true,
            StreakKey::ActionRevision => {
                k.observation
                    .outcome
                    .action_revision
                    .as_deref()
                    .unwrap_or("")
                    == revision.unwrap_or("")
            }
        })
        .collect();
    completed.sort_by_key(|k| std::cmp::Reverse(k.order));
    let mut streak = 0u64;
    for k in &completed {
        match k.observation.disposition {
            Disposition::VerificationRejected | Disposition::ConfirmedNegative => streak += 1,
            Disposition::ConfirmedPositive => break,
            _ => {}
        }
    }
    let last = completed.first().map(|k| k.observation.disposition);
    let recommendation = if completed.is_empty() {
        Recommendation::Explore
    } else if streak >= u64::from(policy.consecutive_failure_limit) {
        Recommendation::Suppress
    } else {
        Recommendation::Continue
    };
    (recommendation, streak, completed.len() as u64, last)
}

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

/// Runs one sequence of operations in a fresh namespace, checking every answer against the model.
async fn run_case(
    engine: &Arc<dyn Engine>,
    namespaces: &AtomicU64,
    ops: Vec<Op>,
) -> Result<(), TestCaseError> {
    let ledger = ledger_in(
        engine,
        &format!("prop{}", namespaces.fetch_add(1, Ordering::SeqCst)),
    );
    let mut policy = Policy::default();
    let mut kept: Vec<Kept> = Vec::new();
    let mut last_position = 0;
    for (step, op) in ops.into_iter().enumerate() {
        match op {
            Op::SetPolicy { limit, by_revision } => {
                policy = limit_policy(
                    limit,
                    if by_revision {
                        StreakKey::ActionRevision
                    } else {
                        StreakKey::Action
                    },
                );
                ledger
                    .set_policy(policy)
                    .await
                    .map_err(|e| fail(format!("step {step}: set_policy: {e}")))?;
            }
            Op::Observe {
                subject,
                action,
                case,
                revision,
                active,
                status,
                disposition,
                rationale,
            } => {
                let stage = if active {
                    Stage::Active
                } else {
                    Stage::Passive
                };
                let mut o = outcome(
                    SUBJECTS[subject],
                    ACTIONS[action],
                    &format!("c{case}"),
                    stage,
                    status,
                );
                o.action_revision = REVISIONS[revision].map(str::to_owned);
                o.rationale = format!("r{rationale}");
                let fitting: Vec<Disposition> = DISPOSITIONS
                    .into_iter()
                    .filter(|d| d.fits(status))
                    .collect();
                let stated = disposition.map(|i| fitting[i % fitting.len()]);
                let result = match stated {
                    None => ledger.observe(o.clone()).await,
                    Some(d) => ledger.observe_with_disposition(o.clone(), d).await,
                };
                if status == Status::ConfirmedNegative && stage == Stage::Passive {
                    match result {
                        Err(StoreError::Refused(Refusal::Invalid(e)))
                            if e.path() == Some("/outcome/stage") => {}
                        other => {
                            return Err(fail(format!(
                                "step {step}: passive confirmed_negative gave {other:?}"
                            )));
                        }
                    }
                    continue;
                }
                let observation = Observation {
                    disposition: stated.unwrap_or_else(|| Disposition::infer(status)),
                    outcome: o,
                };
                let held = kept
                    .iter()
                    .find(|k| k.observation.identity() == observation.identity());
                match (held, result) {
                    (Some(k), Ok(w)) if k.observation == observation => {
                        prop_assert_eq!(w.write, WriteKind::Unchanged, "step {}", step);
                        prop_assert_eq!(w.record.position, k.position, "step {}", step);
                        prop_assert_eq!(&w.record.observation, &observation, "step {}", step);
                    }
                    (Some(_), Err(StoreError::Refused(Refusal::IdentityConflict))) => {}
                    (None, Ok(w)) => {
                        prop_assert_eq!(w.write, WriteKind::Inserted, "step {}", step);
                        prop_assert!(w.record.position > last_position, "step {}", step);
                        prop_assert_eq!(&w.record.observation, &observation, "step {}", step);
                        last_position = w.record.position;
                        kept.push(Kept {
                            order: kept.len() as u64,
                            position: w.record.position,
                            observation,
                        });
                    }
                    (held, other) => {
                        return Err(fail(format!(
                            "step {step}: {observation:?} (held: {:?}) gave {other:?}",
                            held.map(|k| &k.observation)
                        )));
                    }
                }
            }
        }
        // Every key agrees with the model after every step.
        for subject in SUBJECTS {
            let asked: Vec<ActionRef> = ACTIONS
                .iter()
                .flat_map(|a| {
                    REVISIONS.iter().map(|r| ActionRef {
                        action_id: (*a).into(),
                        action_revision: r.map(str::to_owned),
                    })
                })
                .collect();
            let answers = ledger
                .assess(subject, asked.clone())
                .await
                .map_err(|e| fail(format!("step {step}: assess: {e}")))?;
            prop_assert_eq!(answers.len(), asked.len());
            for (a, answer) in asked.iter().zip(&answers) {
                let expected = model_assess(
                    &kept,
                    &policy,
                    subject,
                    &a.action_id,
                    a.action_revision.as_deref(),
                );
                let got = (
                    answer.recommendation,
                    answer.consecutive_failures,
                    answer.completed_attempts,
                    answer.last_disposition,
                );
                prop_assert_eq!(
                    got,
                    expected,
                    "step {}: {} {:?} under {:?}",
                    step,
                    subject,
                    a,
                    policy
                );
                prop_assert_eq!(answer.limit, policy.consecutive_failure_limit);
            }
        }
    }
    // Counts agree too.
    let kept_records: Vec<(Disposition, u64)> = kept
        .iter()
        .map(|k| (k.observation.disposition, 1))
        .collect();
    let counts = ledger
        .counts(None, None)
        .await
        .map_err(|e| fail(format!("counts: {e}")))?;
    prop_assert_eq!(counts, count_map(&kept_records));
    Ok(())
}

/// Random observations and policies give the same assessments as a literal walk over the accepted records, on both engines.
#[test]
fn assessments_equal_a_literal_model() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    for backend in BACKENDS {
        let (engine, _loc) = rt.block_on(engine(backend));
        rt.block_on(tenant(&*engine, "t"));
        let namespaces = AtomicU64::new(0);
        let mut runner = TestRunner::new(ProptestConfig {
            cases: 8,
            failure_persistence: None,
            max_shrink_iters: 300,
            ..ProptestConfig::default()
        });
        // Most cases start with a small limit, so that suppression is reached.
        let ops = (
            proptest::option::weighted(0.8, (1u32..=4, any::<bool>())),
            proptest::collection::vec(op(), 1..40),
        )
            .prop_map(|(first, mut ops)| {
                if let Some((limit, by_revision)) = first {
                    ops.insert(0, Op::SetPolicy { limit, by_revision });
                }
                ops
            });
        let result = runner.run(&ops, |ops| rt.block_on(run_case(&engine, &namespaces, ops)));
        if let Err(e) = result {
            panic!("{backend:?}: {e}");
        }
        rt.block_on(async move { drop(engine) });
    }
}
