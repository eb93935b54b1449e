//! Assessments: the planner's answer for one (subject, action), read from
//! its streak and the namespace's policy.

use serde::{Deserialize, Serialize};

use super::outcome::Disposition;
use super::policy::Policy;
use super::streak::Streak;
use crate::time::Timestamp;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempts::fixtures::entry;
    use crate::attempts::outcome::Stage;
    use crate::attempts::policy::{Reexplore, StreakKey};

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
}
