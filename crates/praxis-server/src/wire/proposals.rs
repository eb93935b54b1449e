//! Proposals between the wire and the domain.

use praxis_api::{
    ExperienceProposalState as WireState, PromotedEffect, ProposalApproval, SourceKind as WireKind,
    SourceStatus as WireStatus,
};
use praxis_domain::error::DomainError;
use praxis_domain::memory::{MemoryKey, MemoryRevision};
use praxis_domain::proposals::{
    Approval, Candidate, Destination, Marker, Promoted, Proposal, ProposalState, Receipt,
    SourceKind, SourceRef, SourceStatus,
};

/// A wire source kind as the domain's.
pub(crate) fn kind_from_wire(k: WireKind) -> SourceKind {
    match k {
        WireKind::File => SourceKind::File,
        WireKind::Attempt => SourceKind::Attempt,
        WireKind::ExperienceEvent => SourceKind::ExperienceEvent,
        WireKind::RecordRevision => SourceKind::RecordRevision,
        WireKind::MemoryRevision => SourceKind::MemoryRevision,
    }
}

fn kind_to_wire(k: SourceKind) -> WireKind {
    match k {
        SourceKind::File => WireKind::File,
        SourceKind::Attempt => WireKind::Attempt,
        SourceKind::ExperienceEvent => WireKind::ExperienceEvent,
        SourceKind::RecordRevision => WireKind::RecordRevision,
        SourceKind::MemoryRevision => WireKind::MemoryRevision,
    }
}

/// A source status on the wire.
pub(crate) fn status_to_wire(s: SourceStatus) -> WireStatus {
    match s {
        SourceStatus::Fresh => WireStatus::Fresh,
        SourceStatus::Changed => WireStatus::Changed,
        SourceStatus::Missing => WireStatus::Missing,
    }
}

/// A candidate as the domain holds it; the destination's key and revision
/// are checked here, everything else by [`Candidate::findings`].
pub(crate) fn candidate_from_wire(c: praxis_api::Candidate) -> Result<Candidate, DomainError> {
    let destination = match c.destination {
        praxis_api::Destination::Memory {
            memory_key,
            expected_revision,
        } => Destination::Memory {
            memory_key: MemoryKey::parse("/candidate/destination/memory_key", &memory_key)?,
            expected_revision: expected_revision
                .map(|r| {
                    MemoryRevision::parse(&r).ok_or_else(|| {
                        DomainError::invalid(
                            "/candidate/destination/expected_revision",
                            "must be a revision: mrev_ and 32 hex digits",
                        )
                    })
                })
                .transpose()?,
        },
        praxis_api::Destination::Skill {
            project,
            path,
            expected_sha256,
        } => Destination::Skill {
            project,
            path,
            expected_sha256,
        },
    };
    Ok(Candidate {
        schema: c.schema,
        summary: c.summary,
        content: c.content,
        conditions: c.conditions,
        sources: c
            .sources
            .into_iter()
            .map(|s| SourceRef {
                kind: kind_from_wire(s.kind),
                r#ref: s.reference,
                sha256: s.sha256,
            })
            .collect(),
        destination,
    })
}

/// A source on the wire.
pub(crate) fn source_to_wire(s: &SourceRef) -> praxis_api::Source {
    praxis_api::Source {
        kind: kind_to_wire(s.kind),
        reference: s.r#ref.clone(),
        sha256: s.sha256.clone(),
    }
}

/// A destination on the wire.
pub(crate) fn destination_to_wire(d: &Destination) -> praxis_api::Destination {
    match d {
        Destination::Memory {
            memory_key,
            expected_revision,
        } => praxis_api::Destination::Memory {
            memory_key: memory_key.as_str().to_owned(),
            expected_revision: expected_revision.as_ref().map(|r| r.as_str().to_owned()),
        },
        Destination::Skill {
            project,
            path,
            expected_sha256,
        } => praxis_api::Destination::Skill {
            project: project.clone(),
            path: path.clone(),
            expected_sha256: expected_sha256.clone(),
        },
    }
}

fn candidate_to_wire(c: &Candidate) -> praxis_api::Candidate {
    praxis_api::Candidate {
        schema: c.schema.clone(),
        summary: c.summary.clone(),
        content: c.content.clone(),
        conditions: c.conditions.clone(),
        sources: c.sources.iter().map(source_to_wire).collect(),
        destination: destination_to_wire(&c.destination),
    }
}

fn approval_to_wire(a: &Approval) -> ProposalApproval {
    ProposalApproval {
        position: a.position,
        approver: a.approver.subject.clone(),
        credential_id: a.approver.credential_id.clone(),
        at: a.at.clone(),
        destination_hash: a.destination_hash.clone(),
    }
}

fn marker_to_wire(m: &Marker) -> praxis_api::PromotionMarker {
    praxis_api::PromotionMarker {
        position: m.position,
        project: m.project.clone(),
        path: m.path.clone(),
        expected_sha256: m.expected_sha256.clone(),
        new_sha256: m.new_sha256.clone(),
    }
}

/// A receipt on the wire.
pub(crate) fn receipt_to_wire(r: &Receipt) -> praxis_api::PromotionReceipt {
    praxis_api::PromotionReceipt {
        proposal_id: r.proposal_id.clone(),
        version_hash: r.version_hash.clone(),
        approval: approval_to_wire(&r.approval),
        promoted: match &r.promoted {
            Promoted::Memory {
                memory_key,
                revision,
                position,
            } => PromotedEffect::Memory {
                memory_key: memory_key.as_str().to_owned(),
                revision: revision.as_str().to_owned(),
                position: *position,
            },
            Promoted::Skill {
                project,
                path,
                sha256,
                marker_position,
            } => PromotedEffect::Skill {
                project: project.clone(),
                path: path.clone(),
                sha256: sha256.clone(),
                marker_position: *marker_position,
            },
        },
    }
}

/// A proposal on the wire; `in_flight` tells a promotion this server is
/// carrying now from one whose outcome nobody knows.
pub(crate) fn proposal_to_wire(p: &Proposal, in_flight: bool) -> praxis_api::ExperienceProposal {
    let state = match p.state {
        ProposalState::Open => WireState::Open,
        ProposalState::Promoting if in_flight => WireState::Promoting,
        ProposalState::Promoting => WireState::PromotionOutcomeUnresolvedDoNotRetry,
        ProposalState::ReceiptSaved => WireState::ReceiptSavedPromotionNoteMissing,
        ProposalState::Promoted => WireState::Promoted,
        ProposalState::Withdrawn => WireState::Withdrawn,
    };
    praxis_api::ExperienceProposal {
        id: p.id.clone(),
        state,
        candidate: candidate_to_wire(&p.candidate),
        version_hash: p.version_hash.clone(),
        proposer: p.proposer.subject.clone(),
        created_at: p.created_at.clone(),
        approval: p.approval.as_ref().map(approval_to_wire),
        marker: p.marker.as_ref().map(marker_to_wire),
        receipt: p.receipt.as_ref().map(receipt_to_wire),
        failure: p.failure.clone(),
        withdrawal: p.withdrawal.clone(),
    }
}
