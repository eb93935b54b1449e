//! Capabilities: the named permissions a credential holds. None implies
//! another, so a check names exactly the capability it needs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::DomainError;

macro_rules! capabilities {
    ($($variant:ident => $name:literal : $doc:literal,)*) => {
        /// A named permission. No capability implies another.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Capability {
            $(#[doc = $doc] $variant,)*
        }

        impl Capability {
            /// Every capability, in declaration order.
            pub const ALL: &'static [Capability] = &[$(Capability::$variant,)*];

            /// The wire name of this capability.
            pub fn as_str(self) -> &'static str {
                match self { $(Capability::$variant => $name,)* }
            }

            /// What this capability allows, in one line.
            pub fn description(self) -> &'static str {
                match self { $(Capability::$variant => $doc,)* }
            }
        }

        impl FromStr for Capability {
            type Err = DomainError;
            fn from_str(s: &str) -> Result<Self, DomainError> {
                match s {
                    $($name => Ok(Capability::$variant),)*
                    other => Err(DomainError::invalid("", format!("unknown capability {other:?}"))),
                }
            }
        }
    };
}

capabilities! {
    CredentialAdmin => "credential_admin": "Issue, rotate, revoke, list and read credentials of the tenant.",
    PolicyAdmin => "policy_admin": "Set per-namespace policies.",
    ExperienceRead => "experience_read": "Read attempt history and assessments.",
    ExperienceWrite => "experience_write": "Record attempt outcomes.",
    ExperienceReport => "experience_report": "Read aggregate reports over experience.",
    ExperienceEvidenceAdmin => "experience_evidence_admin": "Import and export evidence stores.",
    ProcedurePropose => "procedure_propose": "Register strategy candidates.",
    ProcedureEvaluate => "procedure_evaluate": "Submit paired evaluations.",
    MemoryRead => "memory_read": "Read agent memory and strategy receipts.",
    MemoryWrite => "memory_write": "Write agent memory.",
    RecordSubmit => "record_submit": "Submit experience records.",
    RecordReview => "record_review": "Review experience records.",
    ProposalCreate => "proposal_create": "Create guidance proposals.",
    ProposalApprove => "proposal_approve": "Approve guidance proposals.",
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capability_names_round_trip() {
        for c in Capability::ALL {
            assert_eq!(c.as_str().parse::<Capability>().unwrap(), *c);
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
        assert_eq!(Capability::ALL.len(), 14);
    }
}
