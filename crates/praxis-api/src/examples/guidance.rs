//! Example requests of experience proposals: the scope's setting, a source
//! object, a candidate promoted into the example memory key, its review,
//! approval, resolution and withdrawal.
//!
//! Approval names the hashes its review showed, and the proposal's id is
//! made by the server, so the live-server example test carries both from
//! one answer to the next; the examples show the shape.

use super::memory::KEY;
use super::{ACTION, SUBJECT, scope};
use crate::{
    ApproveProposalRequest, CONTRACT_VERSION, Candidate, CreateExperienceProposalRequest,
    DescribeSourceRequest, Destination, ProposalSettingsRequest, ResolveProposalRequest,
    ScopedProposalRequest, SourceKind, WithdrawProposalRequest,
};

/// The example proposal's id (a live one is made by the server).
pub const PROPOSAL_ID: &str = "prop_0193a7c2e4b87d51a2f4c6e8b0d2f4a6";

/// `POST /api/v1/proposals/settings`: proposers may not approve their own.
pub fn settings() -> ProposalSettingsRequest {
    ProposalSettingsRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        self_approval: false,
    }
}

/// `POST /api/v1/proposals/sources`: the example attempt-ledger case.
pub fn describe_source() -> DescribeSourceRequest {
    DescribeSourceRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        kind: SourceKind::Attempt,
        reference: format!("{SUBJECT} {ACTION} incident-4711"),
    }
}

/// `POST /api/v1/proposals`: guidance for the example memory key.
pub fn create() -> CreateExperienceProposalRequest {
    CreateExperienceProposalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        candidate: Candidate {
            schema: "praxis.experience-proposal.v1".into(),
            summary: "Check continuation fields before treating a read as complete.".into(),
            content: "A bounded read that returns a next cursor is not the whole answer: \
                      follow the cursor, or say that the answer is partial."
                .into(),
            conditions: vec!["A list or search call returns a next cursor.".into()],
            sources: vec![],
            destination: Destination::Memory {
                memory_key: KEY.into(),
                expected_revision: None,
            },
        },
    }
}

/// `POST /api/v1/proposals/{id}/review`.
pub fn review() -> ScopedProposalRequest {
    ScopedProposalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
    }
}

/// `POST /api/v1/proposals/{id}/approve`, with the hashes a review showed.
pub fn approve() -> ApproveProposalRequest {
    ApproveProposalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        version_hash: "5f1b7f0c2b0f4e6f9b8a1d3c5e7f90123456789abcdef0123456789abcdef01".into(),
        destination_hash: "9a0c2e4f6b8d0a1c3e5f7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f90".into(),
    }
}

/// `POST /api/v1/proposals/{id}/resolve`: after an operator looked at the file.
pub fn resolve() -> ResolveProposalRequest {
    ResolveProposalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        applied: false,
    }
}

/// `POST /api/v1/proposals/{id}/withdraw`.
pub fn withdraw() -> WithdrawProposalRequest {
    WithdrawProposalRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: "Superseded by a narrower proposal.".into(),
    }
}
