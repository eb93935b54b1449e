//! Example requests of the learning registry and development experiences:
//! a policy and a context are registered, an attempt is recorded and
//! reported on, read, exported, and its observation withdrawn.

use std::collections::BTreeMap;

use super::scope;
use crate::{
    CONTRACT_VERSION, ContentReference, EvaluationContext, ExperienceHistoryRequest,
    ExperienceOutcome, ExportExperiencesRequest, InspectWithdrawalRequest, LearningAlgorithm,
    LearningPolicy, MonitoringRule, NewExperience, NewExperienceEvent, ObservationKey,
    PinnedObservation, PolicyMonitoring, PolicyParameters, ReadEventRequest, ReadExperienceRequest,
    RecordExperienceRequest, RegisterContextRequest, RegisterPolicyRequest, ReportEventRequest,
    WithdrawObservationRequest,
};

/// The example policy's id.
pub const POLICY: &str = "policy-v1";
/// The example context's id.
pub const CONTEXT: &str = "context-v1";
/// The example attempt's id.
pub const ATTEMPT: &str = "dev-1";
/// The example event's id.
pub const EVENT: &str = "e1";
/// The subject that records and reports the example attempt.
pub const REPORTER: &str = "triage-bot";
/// The digest of the example event once accepted. Event digests cover only
/// what the examples send (never times or positions), so it is fixed; the
/// live-server example test fails if it goes stale.
pub const EVENT_DIGEST: &str = "ea62754a21d24da5e58ca1ce141aa2e1e7045b28de0b10c5300099df2ff6aea0";

/// `POST /api/v1/learning/policies`: the anytime policy.
pub fn register_policy() -> RegisterPolicyRequest {
    RegisterPolicyRequest {
        contract_version: CONTRACT_VERSION,
        policy: LearningPolicy {
            id: POLICY.into(),
            algorithm: LearningAlgorithm::AnytimeV1,
            parameters: PolicyParameters {
                evaluator_subject: "grader".into(),
                confidence_delta: 0.01,
                min_improvement: 0.05,
                min_candidate_utility: 0.6,
                max_cost_units: 10_000,
                max_latency_ms: 60_000,
                qualification_trials: None,
                max_trials: 2_000,
                monitoring: PolicyMonitoring {
                    rule: MonitoringRule::AnytimeDriftV1,
                    false_alarm_delta: 0.01,
                },
                evaluation_contract: "paired held-out tasks, utility in [0,1]".into(),
            },
        },
    }
}

/// `POST /api/v1/learning/contexts`.
pub fn register_context() -> RegisterContextRequest {
    RegisterContextRequest {
        contract_version: CONTRACT_VERSION,
        context: EvaluationContext {
            id: CONTEXT.into(),
            task: "triage failing CI jobs".into(),
            baseline_revision: "baseline-2026-11".into(),
            model_provider: "local".into(),
            model_revision: "model-7b-r3".into(),
            tools: BTreeMap::from([
                ("search".into(), "search-2.1".into()),
                ("shell".into(), "shell-1.4".into()),
            ]),
            environment_revision: "ci-image-42".into(),
            evaluation_contract: "paired held-out tasks, utility in [0,1]".into(),
            dataset_revision: "tickets-2026-10".into(),
            harness_revision: "harness-9".into(),
            permissions_revision: "perms-3".into(),
        },
    }
}

/// `POST /api/v1/experiences`: a root attempt reported by [`REPORTER`].
pub fn record() -> RecordExperienceRequest {
    RecordExperienceRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        experience: NewExperience {
            id: ATTEMPT.into(),
            context_id: CONTEXT.into(),
            reporter_subject: REPORTER.into(),
            accounting_unit: "tokens".into(),
            input: ContentReference {
                reference: "trace://dev/1".into(),
                sha256: "5f2b".repeat(16),
            },
            parent: None,
        },
    }
}

/// `POST /api/v1/experiences/events`: the attempt failed after 1,200 tokens.
pub fn report() -> ReportEventRequest {
    ReportEventRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        attempt_id: ATTEMPT.into(),
        event: NewExperienceEvent {
            event_id: EVENT.into(),
            expected_revision: 1,
            outcome: ExperienceOutcome::Failed,
            evidence: Some(ContentReference {
                reference: "trace://dev/1/out".into(),
                sha256: "9c1d".repeat(16),
            }),
            cost_units: Some(1_200),
            latency_ms: None,
        },
    }
}

/// `POST /api/v1/experiences/read` and `/lineage`.
pub fn read() -> ReadExperienceRequest {
    ReadExperienceRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        attempt_id: ATTEMPT.into(),
    }
}

/// `POST /api/v1/experiences/events/read`.
pub fn read_event() -> ReadEventRequest {
    ReadEventRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        attempt_id: ATTEMPT.into(),
        event_id: EVENT.into(),
    }
}

/// `POST /api/v1/experiences/history`: the first page.
pub fn history() -> ExperienceHistoryRequest {
    ExperienceHistoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        attempt_id: ATTEMPT.into(),
        after: None,
        limit: Some(50),
    }
}

fn observation() -> ObservationKey {
    ObservationKey {
        attempt_id: ATTEMPT.into(),
        event_id: EVENT.into(),
    }
}

/// `POST /api/v1/experiences/export`.
pub fn export() -> ExportExperiencesRequest {
    ExportExperiencesRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        events: vec![observation()],
    }
}

/// `POST /api/v1/experiences/withdrawals/inspect`.
pub fn inspect() -> InspectWithdrawalRequest {
    InspectWithdrawalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        observation: observation(),
    }
}

/// `POST /api/v1/experiences/withdrawals`.
pub fn withdraw() -> WithdrawObservationRequest {
    WithdrawObservationRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        idempotency_key: "w-1".into(),
        observation: PinnedObservation {
            attempt_id: ATTEMPT.into(),
            event_id: EVENT.into(),
            event_digest: EVENT_DIGEST.into(),
        },
        reason: "The trace was captured against the wrong dataset revision.".into(),
    }
}
