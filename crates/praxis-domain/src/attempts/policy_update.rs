//! A change to a namespace's policy: only the fields it names change.
//!
//! The semantics are those of a JSON Merge Patch (RFC 7396) over the policy
//! in force: a field left out keeps its value, a field sent as `null` goes
//! back to its default, and a field sent with a value takes it. `reexplore`
//! merges the same way, member by member; sent as `null` it turns
//! re-exploration off. The merge runs in the writer's transaction against
//! the policy stored there, so two concurrent changes of different fields
//! both take effect.

use crate::error::DomainError;

use super::policy::{DEFAULT_LIMIT, MAX_COOLDOWN_SECONDS, Policy, Reexplore, StreakKey};

/// What a change does to one field.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Change<T> {
    /// Left out: the field keeps its value.
    #[default]
    Keep,
    /// Sent as `null`: the field goes back to its default.
    Reset,
    /// Sent with a value: the field takes it.
    Set(T),
}

impl<T> Change<T> {
    /// The change a wire field describes: absent, `null`, or a value.
    #[allow(clippy::option_option)] // the wire's three states, as serde reads them
    pub fn from_wire(field: Option<Option<T>>) -> Change<T> {
        match field {
            None => Change::Keep,
            Some(None) => Change::Reset,
            Some(Some(v)) => Change::Set(v),
        }
    }

    /// The field's value after the change.
    fn merge(self, current: T, default: T) -> T {
        match self {
            Change::Keep => current,
            Change::Reset => default,
            Change::Set(v) => v,
        }
    }

    fn value(&self) -> Option<&T> {
        match self {
            Change::Set(v) => Some(v),
            Change::Keep | Change::Reset => None,
        }
    }
}

/// A change to the re-exploration settings, member by member.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ReexploreUpdate {
    /// Seconds since the last completed attempt.
    pub after_seconds: Change<u64>,
    /// Later observations of the subject, of any action.
    pub after_observations: Change<u64>,
}

/// A change to a namespace's policy.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PolicyUpdate {
    /// Consecutive verified negatives that suppress an action.
    pub consecutive_failure_limit: Change<u32>,
    /// What streaks are counted per.
    pub streak_key: Change<StreakKey>,
    /// Re-exploration after a cool-down.
    pub reexplore: Change<ReexploreUpdate>,
}

impl PolicyUpdate {
    /// The change that replaces the policy in force with `policy` whole.
    pub fn replacing(policy: Policy) -> PolicyUpdate {
        PolicyUpdate {
            consecutive_failure_limit: Change::Set(policy.consecutive_failure_limit),
            streak_key: Change::Set(policy.streak_key),
            reexplore: policy.reexplore.map_or(Change::Reset, |r| {
                Change::Set(ReexploreUpdate {
                    after_seconds: r.after_seconds.map_or(Change::Reset, Change::Set),
                    after_observations: r.after_observations.map_or(Change::Reset, Change::Set),
                })
            }),
        }
    }

    /// Checks every value the change sets, before it reaches a writer; `path`
    /// is the pointer of the object holding it. What depends on the policy
    /// in force is checked by [`PolicyUpdate::apply`].
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        if self.consecutive_failure_limit.value() == Some(&0) {
            return Err(DomainError::invalid(
                format!("{path}/consecutive_failure_limit"),
                "must be at least 1",
            ));
        }
        if let Change::Set(r) = &self.reexplore {
            let at = format!("{path}/reexplore");
            match r.after_seconds.value() {
                Some(0) => {
                    return Err(DomainError::invalid(
                        format!("{at}/after_seconds"),
                        "must be at least 1",
                    ));
                }
                Some(s) if *s > MAX_COOLDOWN_SECONDS => {
                    return Err(DomainError::invalid(
                        format!("{at}/after_seconds"),
                        "must be at most 100 years",
                    ));
                }
                _ => {}
            }
            if r.after_observations.value() == Some(&0) {
                return Err(DomainError::invalid(
                    format!("{at}/after_observations"),
                    "must be at least 1",
                ));
            }
        }
        Ok(())
    }

    /// The policy in force after this change to `current`, checked whole.
    pub fn apply(&self, current: &Policy, path: &str) -> Result<Policy, DomainError> {
        self.validate(path)?;
        let reexplore = match self.reexplore {
            Change::Keep => current.reexplore,
            Change::Reset => None,
            Change::Set(update) => {
                let base = current.reexplore.unwrap_or(Reexplore {
                    after_seconds: None,
                    after_observations: None,
                });
                let after_seconds =
                    Change::from_option(update.after_seconds).merge(base.after_seconds, None);
                let after_observations = Change::from_option(update.after_observations)
                    .merge(base.after_observations, None);
                if after_seconds.is_none() && after_observations.is_none() {
                    // An emptied object would switch re-exploration off
                    // silently; `null` says so explicitly.
                    return Err(DomainError::invalid(
                        format!("{path}/reexplore"),
                        "would name neither after_seconds nor after_observations; send null to turn re-exploration off",
                    ));
                }
                Some(Reexplore {
                    after_seconds,
                    after_observations,
                })
            }
        };
        let policy = Policy {
            consecutive_failure_limit: self
                .consecutive_failure_limit
                .merge(current.consecutive_failure_limit, DEFAULT_LIMIT),
            streak_key: self.streak_key.merge(current.streak_key, StreakKey::Action),
            reexplore,
        };
        policy.validate(path)?;
        Ok(policy)
    }
}

impl Change<Option<u64>> {
    /// A change of an optional member, whose default is "absent".
    fn from_option(change: Change<u64>) -> Change<Option<u64>> {
        match change {
            Change::Keep => Change::Keep,
            Change::Reset => Change::Reset,
            Change::Set(v) => Change::Set(Some(v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_reexplore(seconds: Option<u64>, observations: Option<u64>) -> Policy {
        Policy {
            consecutive_failure_limit: 3,
            streak_key: StreakKey::ActionRevision,
            reexplore: Some(Reexplore {
                after_seconds: seconds,
                after_observations: observations,
            }),
        }
    }

    #[test]
    fn a_left_out_field_keeps_its_value() {
        let current = with_reexplore(Some(60), None);
        let update = PolicyUpdate {
            consecutive_failure_limit: Change::Set(7),
            ..PolicyUpdate::default()
        };
        let after = update.apply(&current, "").unwrap();
        assert_eq!(after.consecutive_failure_limit, 7);
        assert_eq!(after.streak_key, StreakKey::ActionRevision);
        assert_eq!(after.reexplore, current.reexplore);
        assert_eq!(
            PolicyUpdate::default().apply(&current, "").unwrap(),
            current
        );
    }

    #[test]
    fn null_resets_to_the_default() {
        let current = with_reexplore(Some(60), Some(4));
        let update = PolicyUpdate {
            consecutive_failure_limit: Change::Reset,
            streak_key: Change::Reset,
            reexplore: Change::Reset,
        };
        assert_eq!(update.apply(&current, "").unwrap(), Policy::default());
    }

    #[test]
    fn reexplore_merges_member_by_member() {
        let current = with_reexplore(Some(60), Some(4));
        let update = PolicyUpdate {
            reexplore: Change::Set(ReexploreUpdate {
                after_seconds: Change::Reset,
                after_observations: Change::Set(9),
            }),
            ..PolicyUpdate::default()
        };
        let after = update.apply(&current, "").unwrap();
        assert_eq!(after.reexplore, with_reexplore(None, Some(9)).reexplore);
        let emptied = PolicyUpdate {
            reexplore: Change::Set(ReexploreUpdate {
                after_seconds: Change::Reset,
                after_observations: Change::Keep,
            }),
            ..PolicyUpdate::default()
        };
        let err = emptied
            .apply(&with_reexplore(Some(60), None), "")
            .unwrap_err();
        assert_eq!(err.path(), Some("/reexplore"));
        let nothing = PolicyUpdate {
            reexplore: Change::Set(ReexploreUpdate::default()),
            ..PolicyUpdate::default()
        };
        assert_eq!(
            nothing.apply(&Policy::default(), "").unwrap_err().path(),
            Some("/reexplore")
        );
    }

    #[test]
    fn replacing_gives_exactly_the_policy() {
        let current = with_reexplore(Some(60), Some(4));
        for policy in [Policy::default(), with_reexplore(None, Some(2))] {
            let update = PolicyUpdate::replacing(policy);
            assert_eq!(update.apply(&current, "").unwrap(), policy);
        }
    }

    #[test]
    fn values_are_checked_with_their_pointer() {
        let zero = PolicyUpdate {
            consecutive_failure_limit: Change::Set(0),
            ..PolicyUpdate::default()
        };
        assert_eq!(
            zero.validate("").unwrap_err().path(),
            Some("/consecutive_failure_limit")
        );
        let long = PolicyUpdate {
            reexplore: Change::Set(ReexploreUpdate {
                after_seconds: Change::Set(MAX_COOLDOWN_SECONDS + 1),
                after_observations: Change::Keep,
            }),
            ..PolicyUpdate::default()
        };
        assert_eq!(
            long.apply(&Policy::default(), "").unwrap_err().path(),
            Some("/reexplore/after_seconds")
        );
    }
}
