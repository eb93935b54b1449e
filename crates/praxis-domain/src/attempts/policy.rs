//! A namespace's suppression policy: how many verified negatives suppress
//! an action, what streaks are counted per, and when a suppressed action
//! may be explored once more.

use serde::{Deserialize, Serialize};

use crate::error::DomainError;

/// Event kind of a namespace's new suppression policy.
pub const POLICY_SET: &str = "attempt.policy_set";
/// The stream holding a namespace's policy changes.
pub const POLICY_STREAM: &str = "attempt-policy";
/// Default number of consecutive verified negatives that suppresses an action.
pub const DEFAULT_LIMIT: u32 = 10;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
