//! The attempt ledger: what a verifier concluded about an action on a subject,
//! how that conclusion may influence planning, and when a planner should stop
//! repeating an action.
//!
//! Verifier outcomes ([`Status`]) and experience dispositions ([`Disposition`])
//! are separate: only verified negatives count towards suppression, and a
//! timeout, a block or an executor failure is never evidence about an action.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::DomainError;
use crate::time::Timestamp;

/// Event kind of one recorded attempt.
pub const OBSERVED: &str = "attempt.observed";
/// Event kind of a namespace's new suppression policy.
pub const POLICY_SET: &str = "attempt.policy_set";
/// The stream holding a namespace's policy changes.
pub const POLICY_STREAM: &str = "attempt-policy";
/// Highest confidence, in parts per million.
pub const MAX_CONFIDENCE: u32 = 1_000_000;
/// Longest identifier inside an outcome, in bytes.
pub const MAX_OUTCOME_ID: usize = 256;
/// Longest rationale, in bytes.
pub const MAX_RATIONALE: usize = 4096;
/// Most evidence ids one outcome may cite.
pub const MAX_EVIDENCE: usize = 64;
/// Default number of consecutive verified negatives that suppresses an action.
pub const DEFAULT_LIMIT: u32 = 10;

/// The stream of one subject's attempts. Its sequence counts the subject's
/// observations, which re-exploration by observation count relies on.
pub fn stream_of(subject: &str) -> String {
    format!("subject/{subject}")
}

/// Where in verification an outcome was produced.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Observation without touching the target.
    Passive,
    /// An action was executed against the target.
    Active,
}

/// What a verifier concluded.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The action succeeded.
    Success,
    /// The target refused or rate-limited the action.
    Blocked,
    /// No conclusion.
    Unknown,
    /// A human must look at it.
    NeedsReview,
    /// The verifier rejected the hypothesis.
    FalsePositive,
    /// An audited negative control disproved the hypothesis.
    ConfirmedNegative,
}

/// How an outcome may influence later planning.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    /// The verifier reported success; resets the streak.
    ConfirmedPositive,
    /// A verifier rejected the hypothesis; counts towards suppression.
    VerificationRejected,
    /// An audited negative control disproved the hypothesis; counts.
    ConfirmedNegative,
    /// The action does not apply to this subject.
    NotApplicable,
    /// The target denied or rate-limited the attempt.
    BlockedByTarget,
    /// Host authorization or safety policy refused execution.
    BlockedByPolicy,
    /// The network failed before a conclusion.
    TransportFailure,
    /// The selected executor failed.
    ExecutorFailure,
    /// Evidence did not support a deterministic conclusion.
    VerificationInconclusive,
}

impl Stage {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Passive => "passive",
            Stage::Active => "active",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Stage> {
        [Stage::Passive, Stage::Active]
            .into_iter()
            .find(|x| x.as_str() == s)
    }
}

/// Every status, in declaration order.
pub const STATUSES: [Status; 6] = [
    Status::Success,
    Status::Blocked,
    Status::Unknown,
    Status::NeedsReview,
    Status::FalsePositive,
    Status::ConfirmedNegative,
];

impl Status {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Blocked => "blocked",
            Status::Unknown => "unknown",
            Status::NeedsReview => "needs_review",
            Status::FalsePositive => "false_positive",
            Status::ConfirmedNegative => "confirmed_negative",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Status> {
        STATUSES.into_iter().find(|x| x.as_str() == s)
    }
}

/// Every disposition, in declaration order (counts are reported in it).
pub const DISPOSITIONS: [Disposition; 9] = [
    Disposition::ConfirmedPositive,
    Disposition::VerificationRejected,
    Disposition::ConfirmedNegative,
    Disposition::NotApplicable,
    Disposition::BlockedByTarget,
    Disposition::BlockedByPolicy,
    Disposition::TransportFailure,
    Disposition::ExecutorFailure,
    Disposition::VerificationInconclusive,
];

/// What a disposition does to a suppression streak.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// Adds one verified negative.
    Increment,
    /// Ends the streak.
    Reset,
    /// Neither adds nor erases.
    Neutral,
}

impl Disposition {
    /// The conservative mapping used when a host states no disposition.
    pub fn infer(status: Status) -> Disposition {
        match status {
            Status::Success => Disposition::ConfirmedPositive,
            Status::Blocked => Disposition::BlockedByTarget,
            Status::Unknown | Status::NeedsReview => Disposition::VerificationInconclusive,
            Status::FalsePositive => Disposition::VerificationRejected,
            Status::ConfirmedNegative => Disposition::ConfirmedNegative,
        }
    }

    /// Whether this disposition may accompany an outcome of `status`.
    ///
    /// Operational causes attach only to inconclusive outcomes, so that they
    /// can never trigger rejection or target-block semantics by accident.
    pub fn fits(self, status: Status) -> bool {
        match self {
            Disposition::NotApplicable
            | Disposition::BlockedByPolicy
            | Disposition::TransportFailure
            | Disposition::ExecutorFailure
            | Disposition::VerificationInconclusive => {
                matches!(status, Status::Unknown | Status::NeedsReview)
            }
            Disposition::ConfirmedPositive => status == Status::Success,
            Disposition::BlockedByTarget => status == Status::Blocked,
            Disposition::VerificationRejected => status == Status::FalsePositive,
            Disposition::ConfirmedNegative => status == Status::ConfirmedNegative,
        }
    }

    /// What the disposition does to a streak.
    pub fn effect(self) -> Effect {
        match self {
            Disposition::VerificationRejected | Disposition::ConfirmedNegative => Effect::Increment,
            Disposition::ConfirmedPositive => Effect::Reset,
            _ => Effect::Neutral,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::ConfirmedPositive => "confirmed_positive",
            Disposition::VerificationRejected => "verification_rejected",
            Disposition::ConfirmedNegative => "confirmed_negative",
            Disposition::NotApplicable => "not_applicable",
            Disposition::BlockedByTarget => "blocked_by_target",
            Disposition::BlockedByPolicy => "blocked_by_policy",
            Disposition::TransportFailure => "transport_failure",
            Disposition::ExecutorFailure => "executor_failure",
            Disposition::VerificationInconclusive => "verification_inconclusive",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Disposition> {
        DISPOSITIONS.into_iter().find(|d| d.as_str() == s)
    }
}

/// What a verifier concluded about one attempt, in the legacy stores' shape
/// plus Praxis's optional `action_revision` and `observed_at`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The attempt, chosen by the client; unique per subject and action.
    pub case_id: String,
    /// What the action was tried on.
    pub subject: String,
    /// The action.
    pub action_id: String,
    /// The hypothesis the action tested.
    pub hypothesis_id: String,
    /// The verifier rule that concluded, or null for an unknown outcome.
    pub verifier_rule_id: Option<String>,
    /// Passive or active.
    pub stage: Stage,
    /// The verifier's conclusion.
    pub status: Status,
    /// Confidence in parts per million.
    pub confidence: u32,
    /// Why the verifier concluded so.
    pub rationale: String,
    /// Evidence the conclusion rests on.
    pub evidence_ids: Vec<String>,
    /// The version of the payload, rule or executor that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_revision: Option<String>,
    /// When the attempt was observed, by the client's clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_at: Option<Timestamp>,
}

fn check_outcome_id(path: &str, value: &str) -> Result<(), DomainError> {
    if value.is_empty() || value.len() > MAX_OUTCOME_ID {
        return Err(DomainError::invalid(path, "must be 1 to 256 bytes"));
    }
    if value.chars().any(char::is_control) {
        return Err(DomainError::invalid(
            path,
            "must not contain control characters",
        ));
    }
    Ok(())
}

impl Outcome {
    /// Whether the status is a conclusion that must rest on evidence.
    pub fn is_conclusive(&self) -> bool {
        matches!(
            self.status,
            Status::Success | Status::FalsePositive | Status::ConfirmedNegative
        )
    }

    /// Whether this outcome is a completed attempt: every conclusion or
    /// block, and an inconclusive one only once an action actually ran.
    pub fn is_completed(&self) -> bool {
        completed(self.stage, self.status)
    }

    /// Checks the outcome's own rules; `path` is the outcome's JSON pointer.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_outcome_id(&format!("{path}/case_id"), &self.case_id)?;
        check_outcome_id(&format!("{path}/subject"), &self.subject)?;
        check_outcome_id(&format!("{path}/action_id"), &self.action_id)?;
        check_outcome_id(&format!("{path}/hypothesis_id"), &self.hypothesis_id)?;
        if let Some(rule) = &self.verifier_rule_id {
            check_outcome_id(&format!("{path}/verifier_rule_id"), rule)?;
        }
        if let Some(revision) = &self.action_revision {
            check_outcome_id(&format!("{path}/action_revision"), revision)?;
        }
        if self.confidence > MAX_CONFIDENCE {
            return Err(DomainError::invalid(
                format!("{path}/confidence"),
                "must be 0 to 1000000 parts per million",
            ));
        }
        if self.rationale.len() > MAX_RATIONALE {
            return Err(DomainError::invalid(
                format!("{path}/rationale"),
                "must be at most 4096 bytes",
            ));
        }
        if self.evidence_ids.len() > MAX_EVIDENCE {
            return Err(DomainError::invalid(
                format!("{path}/evidence_ids"),
                "must hold at most 64 ids",
            ));
        }
        for (i, id) in self.evidence_ids.iter().enumerate() {
            check_outcome_id(&format!("{path}/evidence_ids/{i}"), id)?;
            if self.evidence_ids[..i].contains(id) {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids/{i}"),
                    "repeats an earlier evidence id",
                ));
            }
        }
        if self.status == Status::Unknown {
            if self.confidence != 0 {
                return Err(DomainError::invalid(
                    format!("{path}/confidence"),
                    "an unknown outcome has zero confidence",
                ));
            }
            if self.verifier_rule_id.is_some() {
                return Err(DomainError::invalid(
                    format!("{path}/verifier_rule_id"),
                    "an unknown outcome names no rule",
                ));
            }
            if !self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids"),
                    "an unknown outcome cites no evidence",
                ));
            }
        }
        if self.is_conclusive() {
            if self.confidence == 0 {
                return Err(DomainError::invalid(
                    format!("{path}/confidence"),
                    "a conclusive outcome needs non-zero confidence",
                ));
            }
            if self.verifier_rule_id.is_none() {
                return Err(DomainError::invalid(
                    format!("{path}/verifier_rule_id"),
                    "a conclusive outcome names its rule",
                ));
            }
            if self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids"),
                    "a conclusive outcome cites at least one evidence id",
                ));
            }
        }
        if self.status == Status::ConfirmedNegative && self.stage != Stage::Active {
            return Err(DomainError::invalid(
                format!("{path}/stage"),
                "confirmed_negative is only valid at the active stage",
            ));
        }
        Ok(())
    }
}

/// Whether an outcome of this stage and status is a completed attempt.
pub fn completed(stage: Stage, status: Status) -> bool {
    match status {
        Status::Success | Status::Blocked | Status::FalsePositive | Status::ConfirmedNegative => {
            true
        }
        Status::Unknown | Status::NeedsReview => stage == Stage::Active,
    }
}

/// Why an observation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The outcome breaks its own rules.
    Invalid(DomainError),
    /// The disposition may not accompany the outcome's status.
    Disposition {
        /// The stated disposition.
        disposition: Disposition,
        /// The outcome's status.
        status: Status,
    },
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
    /// Validates an outcome and its disposition, inferring the disposition
    /// by the conservative mapping when none is stated.
    pub fn new(
        outcome: Outcome,
        disposition: Option<Disposition>,
        path: &str,
    ) -> Result<Observation, Refusal> {
        outcome.validate(path).map_err(Refusal::Invalid)?;
        let disposition = match disposition {
            None => Disposition::infer(outcome.status),
            Some(d) if d.fits(outcome.status) => d,
            Some(d) => {
                return Err(Refusal::Disposition {
                    disposition: d,
                    status: outcome.status,
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

/// What a streak is counted per.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StreakKey {
    /// Per (subject, action).
    #[default]
    Action,
    /// Per (subject, action, action_revision): a new revision starts afresh.
    ActionRevision,
}

/// When a suppressed action may be tried once more.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reexplore {
    /// Seconds since the last completed attempt.
    #[serde(default)]
    pub after_seconds: Option<u64>,
    /// Later observations of the subject, of any action.
    #[serde(default)]
    pub after_observations: Option<u64>,
}

/// A namespace's suppression policy.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// Consecutive verified negatives that suppress an action.
    pub consecutive_failure_limit: u32,
    /// What streaks are counted per.
    pub streak_key: StreakKey,
    /// Optional re-exploration after a cool-down; off by default.
    pub reexplore: Option<Reexplore>,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            consecutive_failure_limit: DEFAULT_LIMIT,
            streak_key: StreakKey::Action,
            reexplore: None,
        }
    }
}

/// Largest cool-down, so that it fits the microsecond clock exactly.
pub const MAX_COOLDOWN_SECONDS: u64 = 100 * 365 * 24 * 3600;

impl Policy {
    /// Checks the policy; `path` is the pointer of the object holding it.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        if self.consecutive_failure_limit == 0 {
            return Err(DomainError::invalid(
                format!("{path}/consecutive_failure_limit"),
                "must be at least 1",
            ));
        }
        if let Some(r) = &self.reexplore {
            let at = format!("{path}/reexplore");
            match (r.after_seconds, r.after_observations) {
                (None, None) => {
                    return Err(DomainError::invalid(
                        at,
                        "names after_seconds, after_observations or both",
                    ));
                }
                (Some(0), _) => {
                    return Err(DomainError::invalid(
                        format!("{at}/after_seconds"),
                        "must be at least 1",
                    ));
                }
                (Some(s), _) if s > MAX_COOLDOWN_SECONDS => {
                    return Err(DomainError::invalid(
                        format!("{at}/after_seconds"),
                        "must be at most 100 years",
                    ));
                }
                (_, Some(0)) => {
                    return Err(DomainError::invalid(
                        format!("{at}/after_observations"),
                        "must be at least 1",
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The revision a record's streak is keyed under, for this policy.
    pub fn revision_key<'a>(&self, revision: Option<&'a str>) -> Option<&'a str> {
        match self.streak_key {
            StreakKey::Action => None,
            StreakKey::ActionRevision => Some(revision.unwrap_or("")),
        }
    }
}

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

/// A planner's recommendation for one action.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recommendation {
    /// Verified negatives reached the limit: do not try the action again.
    Suppress,
    /// No completed attempt exists (or a cool-down allows one more).
    Explore,
    /// Attempts exist and the limit is not reached.
    Continue,
}

/// The answer for one (subject, action).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Assessment {
    /// The recommendation.
    pub recommendation: Recommendation,
    /// Consecutive verified negatives.
    pub consecutive_failures: u64,
    /// The policy's limit.
    pub limit: u32,
    /// Completed attempts counted.
    pub completed_attempts: u64,
    /// Disposition of the newest completed attempt.
    pub last_disposition: Option<Disposition>,
    /// Why, in a sentence.
    pub rationale: String,
}

/// Assesses one key from its streak.
///
/// `now` and `subject_observations` (the subject's current observation
/// count) matter only to re-exploration.
pub fn assess(
    streak: &Streak,
    policy: &Policy,
    now: Timestamp,
    subject_observations: u64,
) -> Assessment {
    let limit = policy.consecutive_failure_limit;
    let (recommendation, rationale) = if streak.completed == 0 {
        (
            Recommendation::Explore,
            "no completed attempt is recorded".to_string(),
        )
    } else if streak.consecutive >= u64::from(limit) {
        match cooled_down(streak, policy, now, subject_observations) {
            Some(why) => (
                Recommendation::Explore,
                format!(
                    "{} consecutive verified negatives reached the limit of {limit}, but {why}: one exploratory attempt is allowed",
                    streak.consecutive
                ),
            ),
            None => (
                Recommendation::Suppress,
                format!(
                    "{} consecutive verified negatives reached the limit of {limit}",
                    streak.consecutive
                ),
            ),
        }
    } else {
        (
            Recommendation::Continue,
            format!(
                "{} consecutive verified negatives, below the limit of {limit}",
                streak.consecutive
            ),
        )
    };
    Assessment {
        recommendation,
        consecutive_failures: streak.consecutive,
        limit,
        completed_attempts: streak.completed,
        last_disposition: streak.last_disposition,
        rationale,
    }
}

/// Why a suppressed key may be explored once more, if it may.
fn cooled_down(
    streak: &Streak,
    policy: &Policy,
    now: Timestamp,
    subject_observations: u64,
) -> Option<String> {
    let r = policy.reexplore?;
    if let (Some(secs), Some(at)) = (r.after_seconds, streak.last_at) {
        let waited = now.micros().saturating_sub(at.micros());
        if waited >= i64::try_from(secs.saturating_mul(1_000_000)).unwrap_or(i64::MAX) {
            return Some(format!("{secs} s passed since the last completed attempt"));
        }
    }
    if let Some(n) = r.after_observations
        && subject_observations.saturating_sub(streak.last_observations) >= n
    {
        return Some(format!(
            "the subject was observed {n} more times since the last completed attempt"
        ));
    }
    None
}

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

/// One problem found in a legacy store.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ImportProblem {
    /// Index of the record, or `None` for the store as a whole.
    pub index: Option<usize>,
    /// JSON pointer of the offending field, relative to the store.
    pub path: String,
    /// Stable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
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
                Err(Refusal::Disposition {
                    disposition,
                    status,
                }) => {
                    problems.push(ImportProblem {
                        index: Some(i),
                        path: format!("{at}/disposition"),
                        code: "invalid_disposition",
                        message: format!(
                            "disposition {} cannot accompany status {}",
                            disposition.as_str(),
                            status.as_str()
                        ),
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
    use proptest::prelude::*;

    fn outcome(stage: Stage, status: Status) -> Outcome {
        let conclusive = matches!(
            status,
            Status::Success | Status::FalsePositive | Status::ConfirmedNegative
        );
        Outcome {
            case_id: "c1".into(),
            subject: "host-a".into(),
            action_id: "probe".into(),
            hypothesis_id: "h1".into(),
            verifier_rule_id: conclusive.then(|| "rule".into()),
            stage,
            status,
            confidence: if conclusive { 900_000 } else { 0 },
            rationale: "because".into(),
            evidence_ids: if conclusive {
                vec!["ev".into()]
            } else {
                vec![]
            },
            action_revision: None,
            observed_at: None,
        }
    }

    #[test]
    fn inferred_dispositions_always_fit() {
        for s in STATUSES {
            assert!(Disposition::infer(s).fits(s), "{s:?}");
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn pair_table_matches_the_contract() {
        let operational = [
            Disposition::NotApplicable,
            Disposition::BlockedByPolicy,
            Disposition::TransportFailure,
            Disposition::ExecutorFailure,
            Disposition::VerificationInconclusive,
        ];
        for d in DISPOSITIONS {
            for s in STATUSES {
                let expected = if operational.contains(&d) {
                    matches!(s, Status::Unknown | Status::NeedsReview)
                } else {
                    matches!(
                        (d, s),
                        (Disposition::ConfirmedPositive, Status::Success)
                            | (Disposition::BlockedByTarget, Status::Blocked)
                            | (Disposition::VerificationRejected, Status::FalsePositive)
                            | (Disposition::ConfirmedNegative, Status::ConfirmedNegative)
                    )
                };
                assert_eq!(d.fits(s), expected, "{d:?} with {s:?}");
            }
        }
    }

    #[test]
    fn only_verified_negatives_count_and_only_positive_resets() {
        for d in DISPOSITIONS {
            let expected = match d {
                Disposition::VerificationRejected | Disposition::ConfirmedNegative => {
                    Effect::Increment
                }
                Disposition::ConfirmedPositive => Effect::Reset,
                _ => Effect::Neutral,
            };
            assert_eq!(d.effect(), expected);
            assert_eq!(Disposition::parse(d.as_str()), Some(d));
        }
    }

    #[test]
    fn outcome_rules() {
        let ok = outcome(Stage::Active, Status::FalsePositive);
        assert!(ok.validate("/outcome").is_ok());
        let mut unknown = outcome(Stage::Active, Status::Unknown);
        assert!(unknown.validate("/outcome").is_ok());
        unknown.confidence = 1;
        assert_eq!(
            unknown.validate("/outcome").unwrap_err().path(),
            Some("/outcome/confidence")
        );
        let mut no_rule = outcome(Stage::Active, Status::Success);
        no_rule.verifier_rule_id = None;
        assert_eq!(
            no_rule.validate("/o").unwrap_err().path(),
            Some("/o/verifier_rule_id")
        );
        let mut no_evidence = outcome(Stage::Active, Status::Success);
        no_evidence.evidence_ids.clear();
        assert_eq!(
            no_evidence.validate("/o").unwrap_err().path(),
            Some("/o/evidence_ids")
        );
        let passive_negative = outcome(Stage::Passive, Status::ConfirmedNegative);
        assert_eq!(
            passive_negative.validate("/o").unwrap_err().path(),
            Some("/o/stage")
        );
        let mut too_sure = outcome(Stage::Active, Status::Success);
        too_sure.confidence = MAX_CONFIDENCE + 1;
        assert!(too_sure.validate("/o").is_err());
        let mut twice = outcome(Stage::Active, Status::Success);
        twice.evidence_ids = vec!["a".into(), "a".into()];
        assert_eq!(
            twice.validate("/o").unwrap_err().path(),
            Some("/o/evidence_ids/1")
        );
        let mut empty = outcome(Stage::Active, Status::Success);
        empty.subject = String::new();
        assert_eq!(empty.validate("/o").unwrap_err().path(), Some("/o/subject"));
    }

    #[test]
    fn observation_refuses_mismatched_pairs() {
        let o = outcome(Stage::Active, Status::Success);
        assert_eq!(
            Observation::new(o.clone(), Some(Disposition::TransportFailure), "/o"),
            Err(Refusal::Disposition {
                disposition: Disposition::TransportFailure,
                status: Status::Success
            })
        );
        let inferred = Observation::new(o, None, "/o").unwrap();
        assert_eq!(inferred.disposition, Disposition::ConfirmedPositive);
    }

    #[test]
    fn policy_rules() {
        let mut p = Policy::default();
        assert!(p.validate("").is_ok());
        p.consecutive_failure_limit = 0;
        assert_eq!(
            p.validate("").unwrap_err().path(),
            Some("/consecutive_failure_limit")
        );
        p.consecutive_failure_limit = 1;
        p.reexplore = Some(Reexplore {
            after_seconds: None,
            after_observations: None,
        });
        assert_eq!(p.validate("").unwrap_err().path(), Some("/reexplore"));
        p.reexplore = Some(Reexplore {
            after_seconds: Some(0),
            after_observations: None,
        });
        assert_eq!(
            p.validate("").unwrap_err().path(),
            Some("/reexplore/after_seconds")
        );
    }

    fn entry(case: &str, stage: Stage, position: u64, d: Disposition) -> CaseEntry {
        let status = match d {
            Disposition::ConfirmedPositive => Status::Success,
            Disposition::VerificationRejected => Status::FalsePositive,
            Disposition::ConfirmedNegative => Status::ConfirmedNegative,
            Disposition::BlockedByTarget => Status::Blocked,
            _ => Status::Unknown,
        };
        CaseEntry {
            case_id: case.into(),
            stage,
            position,
            revision: None,
            status,
            disposition: d,
            recorded_at: Timestamp::from_micros(position as i64 * 1_000_000),
            subject_observations: position,
        }
    }

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

    #[test]
    fn suppression_and_reexploration() {
        let policy = Policy {
            consecutive_failure_limit: 2,
            streak_key: StreakKey::Action,
            reexplore: Some(Reexplore {
                after_seconds: Some(60),
                after_observations: Some(5),
            }),
        };
        let entries = [
            entry("a", Stage::Active, 1, Disposition::VerificationRejected),
            entry("b", Stage::Active, 2, Disposition::TransportFailure),
            entry("c", Stage::Active, 3, Disposition::ConfirmedNegative),
        ];
        let streak = Streak::rebuild(&entries);
        let at = |s: i64| Timestamp::from_micros(s * 1_000_000);
        assert_eq!(streak.consecutive, 2);
        assert_eq!(
            assess(&streak, &policy, at(4), 3).recommendation,
            Recommendation::Suppress
        );
        assert_eq!(
            assess(&streak, &policy, at(63), 3).recommendation,
            Recommendation::Explore
        );
        assert_eq!(
            assess(&streak, &policy, at(4), 8).recommendation,
            Recommendation::Explore
        );
        let off = Policy {
            reexplore: None,
            ..policy
        };
        assert_eq!(
            assess(&streak, &off, at(1_000_000), 1_000).recommendation,
            Recommendation::Suppress
        );
        assert_eq!(
            assess(&Streak::default(), &off, at(0), 0).recommendation,
            Recommendation::Explore
        );
    }

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
