//! The attempt ledger: what a verifier concluded about an action on a subject,
//! how that conclusion may influence planning, and when a planner should stop
//! repeating an action.
//!
//! One concept per module, all re-exported here:
//!
//! - `outcome`: stages, statuses, dispositions and the rules of an outcome;
//! - `limits`: the sizes and characters a live write and an import accept;
//! - `observation`: one recorded attempt and the stream it is written to;
//! - `policy`: a namespace's suppression policy;
//! - `policy_update`: a change to it that names only the fields it changes;
//! - `streak`: the per-key streaks kept at write time;
//! - `assess`: the planner's recommendation read from a streak;
//! - `legacy`: legacy stores, imported and exported.
//!
//! Verifier outcomes ([`Status`]) and experience dispositions ([`Disposition`])
//! are separate: only verified negatives count towards suppression, and a
//! timeout, a block or an executor failure is never evidence about an action.

pub(crate) mod assess;
#[cfg(test)]
mod fixtures;
pub(crate) mod legacy;
pub(crate) mod limits;
pub(crate) mod observation;
pub(crate) mod outcome;
pub(crate) mod policy;
pub(crate) mod policy_update;
pub(crate) mod streak;

pub use crate::refusal::ImportProblem;
pub use assess::{Assessment, Recommendation, assess};
pub use legacy::{LegacyRecord, LegacyStore};
pub use limits::{
    IMPORT_MAX_EVIDENCE, IMPORT_MAX_EVIDENCE_BYTES, IMPORT_MAX_ID, IMPORT_MAX_KEY,
    IMPORT_MAX_RATIONALE, Limits,
};
pub use observation::{OBSERVED, Observation, stream_of};
pub use outcome::{
    DISPOSITIONS, Disposition, Effect, MAX_CONFIDENCE, MAX_EVIDENCE, MAX_OUTCOME_ID, MAX_RATIONALE,
    Outcome, STATUSES, Stage, Status, completed,
};
pub use policy::{
    DEFAULT_LIMIT, MAX_COOLDOWN_SECONDS, POLICY_SET, POLICY_STREAM, Policy, Reexplore, StreakKey,
};
pub use policy_update::{Change, PolicyUpdate, ReexploreUpdate};
pub use streak::{CaseEntry, Streak, StreakChange, effective, streak_change};
