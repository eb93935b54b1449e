//! The learning authority's ground floor: an immutable registry of learning
//! policies and evaluation contexts, development experiences (attempts and
//! their revisioned events), exports of chosen observations, and
//! irreversible withdrawal.
//!
//! One concept per module:
//!
//! - `text`: the field rules every payload shares;
//! - `registry`: an id names one payload for good;
//! - `policy` and `context`: what is registered;
//! - `experience`: an attempt, the events reported on it and their digests;
//! - `state`: an experience's state, the rules an event must pass, and the
//!   fold a reader re-runs to verify a stored projection;
//! - `export`: the summary of chosen observations;
//! - `withdrawal`: withdrawing an observation;
//! - `stats`: the qualification and drift rules' statistics;
//! - `evaluation`: held-out cases and the rules that admit them;
//! - `procedure`: a procedure's lifecycle and statistics record;
//! - `proposal`: the guidance a procedure carries and its sources;
//! - `strategy`: instructions bound to exact development observations.
//!
//! Digests named `digest` (`context_digest`, `event_digest`,
//! `export_digest`) are domain-separated ([`crate::digest`]); fields named
//! `sha256` are plain SHA-256 of external content, as elsewhere.

pub(crate) mod context;
pub(crate) mod evaluation;
pub(crate) mod experience;
pub(crate) mod export;
pub(crate) mod policy;
pub(crate) mod procedure;
pub(crate) mod proposal;
pub(crate) mod registry;
pub(crate) mod state;
pub mod stats;
pub(crate) mod strategy;
pub(crate) mod text;
pub(crate) mod withdrawal;

pub use context::{CONTEXT_REGISTERED, Context, ContextRegistered, MAX_TOOLS, context_stream};
pub use evaluation::{
    Admission, AdmissionOutcome, AdmissionReason, EVALUATION_SUBMITTED, Evaluation,
    EvaluationReceipt, EvaluationStatus, EvaluationSubmitted, Phase, Standing, admit,
    is_development_evidence,
};
pub use experience::{
    Attempt, AttemptRequest, BoundParent, EVENT_REPORTED, EventReport, ExperienceOutcome,
    MAX_LINEAGE, ParentRef, RECORDED, experience_stream,
};
pub use export::{
    EXPORT_METHOD, Export, ExportedEvent, MAX_EXPORT_EVENTS, Summary, Totals, export,
};
pub use policy::{
    Algorithm, MAX_TRIALS, MIN_TRIALS, Monitoring, MonitoringRule, POLICY_REGISTERED, Parameters,
    Policy, PolicyRegistered, policy_stream,
};
pub use procedure::{
    Decision, DecisionReason, ProcedureRecord, ProcedureState, ProcedureSummary, QualificationRule,
    RuleName,
};
pub use proposal::{
    MAX_INSTRUCTIONS_BYTES, MAX_SOURCE_REFS, Origin, PROCEDURE_PROPOSED, Proposal, ProposalReceipt,
    ProposalRequest, procedure_stream,
};
pub use registry::{Registration, register};
pub use state::{Acceptance, ExperienceState, FoldError, Reported, ReportedEvent, fold};
pub use strategy::{
    Extractor, INSTRUCTIONS_FORMAT, MAX_CONDITION_BYTES, MAX_CONDITIONS, MAX_STRATEGY_EVENTS,
    Resolved, STRATEGY_CREATED, STRATEGY_METHOD, Selection, StrategyReceipt, StrategyRequest,
};
pub use text::{ContentRef, MAX_TEXT_BYTES, check_exact, check_sha256, check_text};
pub use withdrawal::{ObservationRef, WITHDRAWN, Withdrawal, Withdrawing};
