//! Proposals: candidates stored as data, reviewed against their live
//! sources and destination, approved, and promoted into memory or a
//! project skill.
//!
//! Every change appends one event to the proposal's stream
//! `proposal/<id>` and is applied to the proposal with the domain's
//! [`Proposal::apply`], the function verification folds with. A memory
//! promotion is one transaction: the approval, the re-hash of every
//! Praxis-object source, the memory write, the receipt and the note. A
//! skill promotion is journaled: the approval and the attempt marker
//! commit before the server writes the file, and the receipt and the note
//! after it (see docs/design.md).

pub(crate) mod fold;
pub(crate) mod sources;
pub(crate) mod sql;

use std::collections::BTreeSet;

use async_trait::async_trait;
use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::NewEvent;
use praxis_domain::memory::{MemoryDefinition, MemoryRevision, Priority};
use praxis_domain::proposals::{
    Candidate, Destination, PROMOTION_FAILED, PROMOTION_RECEIPT, PROMOTION_STARTED,
    PROPOSAL_APPROVED, PROPOSAL_CREATED, PROPOSAL_PROMOTED, PROPOSAL_WITHDRAWN, Promoted, Proposal,
    ProposalState, Receipt, SourceRef, SourceStatus, destination_hash, version_hash,
};
use serde_json::{Value, json};

use crate::attempts::AttemptTx;
use crate::error::{Missing, StoreError};
use crate::learning::LearningTx;
use crate::ledger::{Ctx, LedgerTx};
use crate::memory::{self, MemoryLimits, MemoryTx, MemoryWrite};
use crate::records::RecordTx;
use sources::Lookup;

/// Event kind: a scope's proposal settings changed.
pub const PROPOSAL_SETTINGS: &str = "proposal.settings";
/// The stream of a scope's proposal settings.
pub const SETTINGS_STREAM: &str = "proposal-settings";

/// The stream of one proposal.
pub fn stream(id: &str) -> String {
    format!("proposal/{id}")
}

/// The skill file as the server read it just before approving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFileState {
    /// Its SHA-256 now (None: it does not exist).
    pub current_sha256: Option<String>,
    /// Its SHA-256 once the rendered candidate is written.
    pub new_sha256: String,
}

/// An approval.
#[derive(Clone, Debug)]
pub struct Approve {
    /// The scope's namespace.
    pub namespace: Namespace,
    /// The proposal.
    pub id: String,
    /// The version hash the approver reviewed.
    pub version_hash: String,
    /// The destination hash the approver reviewed.
    pub destination_hash: String,
    /// For a skill destination, the file as it stands.
    pub skill: Option<SkillFileState>,
    /// Memory limits, for a memory destination.
    pub limits: MemoryLimits,
}

/// How a skill promotion ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The file now holds the marker's new content.
    Applied,
    /// The file was not written.
    NotApplied {
        /// Why.
        reason: String,
    },
}

/// What a proposal command asks for.
#[derive(Clone, Debug)]
pub enum ProposalCommand {
    /// Store a candidate as an open proposal.
    Propose {
        /// The scope's namespace.
        namespace: Namespace,
        /// The new proposal's id.
        id: String,
        /// The candidate.
        candidate: Box<Candidate>,
        /// Most open proposals the scope may hold.
        max_open: u64,
    },
    /// Read a proposal with its Praxis sources and memory destination as
    /// they stand, in one snapshot; appends nothing.
    Inspect {
        /// The scope's namespace.
        namespace: Namespace,
        /// The proposal.
        id: String,
    },
    /// Hash one Praxis object as a source; appends nothing.
    Describe {
        /// The scope's namespace.
        namespace: Namespace,
        /// The source (its `sha256` is ignored).
        source: SourceRef,
    },
    /// Approve: promote into memory, or write a skill promotion's marker.
    Approve(Box<Approve>),
    /// Record how a skill promotion ended.
    Finish {
        /// The scope's namespace.
        namespace: Namespace,
        /// The proposal.
        id: String,
        /// The outcome.
        outcome: Finish,
    },
    /// Complete a promotion whose receipt is saved and whose note is not.
    Note {
        /// The scope's namespace.
        namespace: Namespace,
        /// The proposal.
        id: String,
    },
    /// Withdraw an open proposal.
    Withdraw {
        /// The scope's namespace.
        namespace: Namespace,
        /// The proposal.
        id: String,
        /// Why.
        reason: String,
    },
    /// Set whether a proposer may approve their own proposals in the scope.
    Settings {
        /// The scope's namespace.
        namespace: Namespace,
        /// The setting.
        self_approval: bool,
    },
}

/// A proposal with what a reviewer needs to see of its surroundings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProposalView {
    /// The proposal.
    pub proposal: Proposal,
    /// Each source's status; None for a file source (the server hashes
    /// files).
    pub sources: Vec<Option<SourceStatus>>,
    /// For a memory destination, the item's live revision (None: no item).
    pub memory_current: Option<Option<MemoryRevision>>,
    /// Whether this command changed the proposal (false for a read or a
    /// duplicate approval).
    pub changed: bool,
}

/// What a proposal command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProposalWrite {
    /// The proposal as it stands.
    Proposal(Box<ProposalView>),
    /// A Praxis object's SHA-256 (None: missing or not current).
    Source(Option<String>),
    /// The scope's self-approval setting.
    Settings(bool),
}

/// Proposals' primitives, on an engine's transaction.
pub(crate) trait ProposalTx {
    /// One proposal.
    async fn proposal_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError>;
    /// Inserts or replaces a proposal's row.
    async fn put_proposal(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        proposal: &Proposal,
        position: u64,
    ) -> Result<(), StoreError>;
    /// How many open proposals the scope holds.
    async fn open_proposals(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<u64, StoreError>;
    /// The scope's self-approval setting (false when never set).
    async fn self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError>;
    /// Stores the scope's self-approval setting.
    async fn put_self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        allowed: bool,
    ) -> Result<(), StoreError>;
}

/// The proposal reads verification needs.
pub(crate) trait ProposalRead {
    /// Every proposal row of a tenant: (namespace, state, proposal, position).
    async fn all_proposals(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, Proposal, u64)>, StoreError>;
    /// Every setting of a tenant.
    async fn all_proposal_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError>;
}

/// Reads of proposals, for callers of an engine.
#[async_trait]
pub trait ProposalReads: Send + Sync {
    /// One proposal.
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError>;
    /// A page of proposals by id, in one state or all.
    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
        state: Option<ProposalState>,
        after: &str,
        limit: usize,
    ) -> Result<Vec<Proposal>, StoreError>;
}

/// Everything applying a proposal command touches.
pub(crate) trait ProposalsTx:
    LedgerTx + ProposalTx + MemoryTx + AttemptTx + LearningTx + RecordTx
{
}

impl<T: LedgerTx + ProposalTx + MemoryTx + AttemptTx + LearningTx + RecordTx> ProposalsTx for T {}

/// Applies a proposal command.
pub(crate) async fn apply<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: ProposalCommand,
) -> Result<ProposalWrite, StoreError> {
    match command {
        ProposalCommand::Propose {
            namespace,
            id,
            candidate,
            max_open,
        } => propose(tx, ctx, &namespace, id, *candidate, max_open).await,
        ProposalCommand::Inspect { namespace, id } => {
            let p = load(tx, ctx.tenant, &namespace, &id).await?;
            view(tx, ctx.tenant, &namespace, p, false).await
        }
        ProposalCommand::Describe { namespace, source } => {
            let found = sources::lookup(tx, ctx.tenant, &namespace, &source).await?;
            Ok(ProposalWrite::Source(match found {
                Some(Lookup::Current(sha)) => Some(sha),
                _ => None,
            }))
        }
        ProposalCommand::Approve(a) => approve(tx, ctx, *a).await,
        ProposalCommand::Finish {
            namespace,
            id,
            outcome,
        } => finish(tx, ctx, &namespace, &id, outcome).await,
        ProposalCommand::Note { namespace, id } => {
            let mut p = load(tx, ctx.tenant, &namespace, &id).await?;
            if p.state != ProposalState::ReceiptSaved {
                return Err(not_open(p.state));
            }
            append(
                tx,
                ctx,
                &namespace,
                &mut p,
                PROPOSAL_PROMOTED,
                json!({"id": id}),
            )
            .await?;
            view(tx, ctx.tenant, &namespace, p, true).await
        }
        ProposalCommand::Withdraw {
            namespace,
            id,
            reason,
        } => {
            let mut p = load(tx, ctx.tenant, &namespace, &id).await?;
            if p.state != ProposalState::Open {
                return Err(not_open(p.state));
            }
            let payload = json!({"id": id, "reason": reason});
            append(tx, ctx, &namespace, &mut p, PROPOSAL_WITHDRAWN, payload).await?;
            view(tx, ctx.tenant, &namespace, p, true).await
        }
        ProposalCommand::Settings {
            namespace,
            self_approval,
        } => {
            if tx.self_approval(ctx.tenant, &namespace).await? != self_approval {
                let payload = json!({ "self_approval": self_approval });
                let new = NewEvent::new(
                    namespace.clone(),
                    SETTINGS_STREAM,
                    PROPOSAL_SETTINGS,
                    payload,
                );
                ctx.append(tx, new).await?;
                tx.put_self_approval(ctx.tenant, &namespace, self_approval)
                    .await?;
            }
            Ok(ProposalWrite::Settings(self_approval))
        }
    }
}

fn not_open(state: ProposalState) -> StoreError {
    Refusal::ProposalNotOpen {
        state: state.as_str(),
    }
    .into()
}

async fn load<T: ProposalsTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    id: &str,
) -> Result<Proposal, StoreError> {
    tx.proposal_row(tenant, namespace, id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Proposal))
}

/// Appends one event of the proposal's stream, applies it to the
/// proposal and stores the row.
async fn append<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    proposal: &mut Proposal,
    kind: &str,
    payload: Value,
) -> Result<u64, StoreError> {
    let new = NewEvent::new(namespace.clone(), stream(&proposal.id), kind, payload);
    let event = ctx.append(tx, new).await?;
    proposal.apply(event).map_err(StoreError::inconsistent)?;
    let position = event.position;
    tx.put_proposal(ctx.tenant, namespace, proposal, position)
        .await?;
    Ok(position)
}

async fn propose<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    id: String,
    candidate: Candidate,
    max_open: u64,
) -> Result<ProposalWrite, StoreError> {
    let findings = candidate.findings();
    if !findings.is_empty() {
        return Err(Refusal::ProposalInvalid(findings).into());
    }
    if tx.proposal_row(ctx.tenant, namespace, &id).await?.is_some() {
        return Err(StoreError::inconsistent(
            "a new proposal id was already taken",
        ));
    }
    if tx.open_proposals(ctx.tenant, namespace).await? >= max_open {
        return Err(Refusal::ProposalsFull { max: max_open }.into());
    }
    let version = version_hash(&id, &candidate);
    let payload = json!({"id": id, "candidate": candidate, "version_hash": version});
    let new = NewEvent::new(namespace.clone(), stream(&id), PROPOSAL_CREATED, payload);
    let event = ctx.append(tx, new).await?;
    let proposal = Proposal::created(event).map_err(StoreError::inconsistent)?;
    let position = event.position;
    tx.put_proposal(ctx.tenant, namespace, &proposal, position)
        .await?;
    view(tx, ctx.tenant, namespace, proposal, true).await
}

/// The proposal with its Praxis sources' statuses and memory
/// destination's live revision, read in the caller's transaction.
async fn view<T: ProposalsTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    proposal: Proposal,
    changed: bool,
) -> Result<ProposalWrite, StoreError> {
    let mut statuses = Vec::with_capacity(proposal.candidate.sources.len());
    for source in &proposal.candidate.sources {
        statuses.push(
            sources::lookup(tx, tenant, namespace, source)
                .await?
                .map(|found| status(source, &found)),
        );
    }
    let memory_current = match &proposal.candidate.destination {
        Destination::Memory { memory_key, .. } => Some(
            tx.memory_row(tenant, namespace, memory_key)
                .await?
                .and_then(|r| r.item())
                .map(|i| i.revision),
        ),
        Destination::Skill { .. } => None,
    };
    Ok(ProposalWrite::Proposal(Box::new(ProposalView {
        proposal,
        sources: statuses,
        memory_current,
        changed,
    })))
}

fn status(source: &SourceRef, found: &Lookup) -> SourceStatus {
    match found {
        Lookup::Current(sha) => SourceStatus::of(&source.sha256, Some(sha)),
        Lookup::Stale => SourceStatus::Changed,
        Lookup::Missing => SourceStatus::Missing,
    }
}

/// The JSON of a destination, as its hash covers it.
pub fn destination_value(destination: &Destination) -> Value {
    serde_json::to_value(destination).unwrap_or(Value::Null)
}

async fn approve<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    a: Approve,
) -> Result<ProposalWrite, StoreError> {
    let ns = &a.namespace;
    let mut p = load(tx, ctx.tenant, ns, &a.id).await?;
    match p.state {
        // A duplicate approval answers with the saved receipt.
        ProposalState::Promoted => return view(tx, ctx.tenant, ns, p, false).await,
        // The receipt is saved and the note is not: complete it, and only it.
        ProposalState::ReceiptSaved => {
            append(tx, ctx, ns, &mut p, PROPOSAL_PROMOTED, json!({"id": a.id})).await?;
            return view(tx, ctx.tenant, ns, p, true).await;
        }
        ProposalState::Promoting => {
            let m = p
                .marker
                .as_ref()
                .ok_or_else(|| StoreError::inconsistent("a promoting proposal has no marker"))?;
            return Err(Refusal::PromotionUnresolved {
                path: format!("{}:{}", m.project, m.path),
                expected: m.expected_sha256.clone().unwrap_or_else(|| "none".into()),
                new: m.new_sha256.clone(),
            }
            .into());
        }
        ProposalState::Withdrawn => return Err(not_open(p.state)),
        ProposalState::Open => {}
    }
    if a.version_hash != p.version_hash {
        return Err(Refusal::VersionMismatch.into());
    }
    if ctx.actor.subject == p.proposer.subject && !tx.self_approval(ctx.tenant, ns).await? {
        return Err(Refusal::SelfApproval.into());
    }
    let ProposalWrite::Proposal(checked) = view(tx, ctx.tenant, ns, p.clone(), false).await? else {
        return Err(StoreError::inconsistent("a view is a proposal"));
    };
    for (index, s) in checked.sources.iter().enumerate() {
        match s {
            Some(SourceStatus::Changed) => {
                return Err(Refusal::SourceChanged {
                    index,
                    status: "changed",
                }
                .into());
            }
            Some(SourceStatus::Missing) => {
                return Err(Refusal::SourceChanged {
                    index,
                    status: "missing",
                }
                .into());
            }
            _ => {}
        }
    }
    let destination = p.candidate.destination.clone();
    let dest_json = destination_value(&destination);
    match destination {
        Destination::Memory {
            memory_key,
            expected_revision,
        } => {
            let current = checked.memory_current.clone().flatten();
            check_destination(
                expected_revision.as_ref().map(MemoryRevision::as_str),
                current.as_ref().map(MemoryRevision::as_str),
                &dest_json,
                &a.destination_hash,
            )?;
            let payload = approval_payload(&a);
            append(tx, ctx, ns, &mut p, PROPOSAL_APPROVED, payload).await?;
            let definition = MemoryDefinition {
                summary: p.candidate.summary.clone(),
                body: p.candidate.rendered(),
                tags: BTreeSet::from(["experience".to_owned()]),
                priority: Priority::Normal,
                bootstrap: false,
            };
            let written = memory::set(
                tx,
                ctx,
                ns,
                &memory_key,
                definition,
                current.as_ref(),
                a.limits,
            )
            .await?;
            let MemoryWrite::Set { item, changed } = written else {
                return Err(StoreError::inconsistent("a set answered a delete"));
            };
            // The receipt names the write that holds the item: this one, or,
            // when the item already held exactly this text, the earlier one.
            let position = if changed {
                ctx.head()
            } else {
                tx.memory_row(ctx.tenant, ns, &memory_key)
                    .await?
                    .map_or_else(|| ctx.head(), |row| row.position)
            };
            let promoted = Promoted::Memory {
                memory_key,
                revision: item.revision,
                position,
            };
            save_receipt(tx, ctx, ns, &mut p, promoted).await?;
            append(tx, ctx, ns, &mut p, PROPOSAL_PROMOTED, json!({"id": a.id})).await?;
        }
        Destination::Skill {
            project,
            path,
            expected_sha256,
        } => {
            // The caller read the file for an open proposal; one that reopened
            // after that read is reviewed again, never approved blind.
            let file = a
                .skill
                .as_ref()
                .ok_or_else(|| Refusal::DestinationChanged {
                    what: "the proposal reopened while it was being approved; review it again"
                        .into(),
                })?;
            check_destination(
                expected_sha256.as_deref(),
                file.current_sha256.as_deref(),
                &dest_json,
                &a.destination_hash,
            )?;
            let payload = approval_payload(&a);
            append(tx, ctx, ns, &mut p, PROPOSAL_APPROVED, payload).await?;
            let marker = json!({
                "id": a.id, "project": project, "path": path,
                "expected_sha256": file.current_sha256, "new_sha256": file.new_sha256,
            });
            append(tx, ctx, ns, &mut p, PROMOTION_STARTED, marker).await?;
        }
    }
    // What was checked is what holds: the sources were re-hashed above in
    // this transaction, so the answer does not read them again.
    let memory_current = match &p.receipt {
        Some(Receipt {
            promoted: Promoted::Memory { revision, .. },
            ..
        }) => Some(Some(revision.clone())),
        _ => checked.memory_current.clone(),
    };
    Ok(ProposalWrite::Proposal(Box::new(ProposalView {
        proposal: p,
        sources: checked.sources.clone(),
        memory_current,
        changed: true,
    })))
}

fn approval_payload(a: &Approve) -> Value {
    json!({
        "id": a.id, "version_hash": a.version_hash, "destination_hash": a.destination_hash,
    })
}

/// Refuses a destination that is not where the candidate expects it, or
/// not where the reviewer saw it.
fn check_destination(
    expected: Option<&str>,
    current: Option<&str>,
    destination: &Value,
    reviewed_hash: &str,
) -> Result<(), StoreError> {
    let show = |v: Option<&str>| v.unwrap_or("absent").to_owned();
    if expected != current {
        return Err(Refusal::DestinationChanged {
            what: format!(
                "the candidate expects {} and the destination is {}",
                show(expected),
                show(current)
            ),
        }
        .into());
    }
    if destination_hash(destination, current) != reviewed_hash {
        return Err(Refusal::DestinationChanged {
            what: "its hash is not the one reviewed".into(),
        }
        .into());
    }
    Ok(())
}

async fn save_receipt<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    ns: &Namespace,
    p: &mut Proposal,
    promoted: Promoted,
) -> Result<(), StoreError> {
    let approval = p
        .approval
        .clone()
        .ok_or_else(|| StoreError::inconsistent("a receipt without an approval"))?;
    let receipt = Receipt {
        proposal_id: p.id.clone(),
        version_hash: p.version_hash.clone(),
        approval,
        promoted,
    };
    let payload = json!({"id": p.id, "receipt": receipt});
    append(tx, ctx, ns, p, PROMOTION_RECEIPT, payload).await?;
    Ok(())
}

async fn finish<T: ProposalsTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    ns: &Namespace,
    id: &str,
    outcome: Finish,
) -> Result<ProposalWrite, StoreError> {
    let mut p = load(tx, ctx.tenant, ns, id).await?;
    if p.state != ProposalState::Promoting {
        return Err(not_open(p.state));
    }
    let m = p
        .marker
        .clone()
        .ok_or_else(|| StoreError::inconsistent("a promoting proposal has no marker"))?;
    match outcome {
        Finish::Applied => {
            let promoted = Promoted::Skill {
                project: m.project,
                path: m.path,
                sha256: m.new_sha256,
                marker_position: m.position,
            };
            save_receipt(tx, ctx, ns, &mut p, promoted).await?;
        }
        Finish::NotApplied { reason } => {
            let payload = json!({"id": id, "reason": reason});
            append(tx, ctx, ns, &mut p, PROMOTION_FAILED, payload).await?;
        }
    }
    view(tx, ctx.tenant, ns, p, true).await
}
