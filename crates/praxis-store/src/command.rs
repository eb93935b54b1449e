//! Write commands: what a caller asks the ledger to do in one atomic step.

use praxis_domain::attempts::{Observation, Policy};
use praxis_domain::auth::{Capability, Namespace};
use praxis_domain::credentials::{Credential, IssueRequest};
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Actor, Event, NewEvent};

/// An idempotency key with the digest of the request it was first used for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Idempotency {
    /// The key, already scoped by the caller (for example route and hashed client key).
    pub key: String,
    /// Digest of the complete request.
    pub request_digest: Digest,
}

/// What one command asks for.
#[derive(Clone, Debug)]
pub enum Command {
    /// Create a tenant and its first event.
    CreateTenant,
    /// Create a tenant together with its first (administrator) credential, in
    /// one atomic write, so that no crash can leave a tenant nobody can administer.
    Bootstrap {
        /// The administrator's credential id.
        credential_id: String,
        /// Validated request.
        request: IssueRequest,
        /// SHA-256 of the secret.
        secret_sha256: Digest,
    },
    /// Issue a credential with a given id and secret hash.
    IssueCredential {
        /// New credential id.
        credential_id: String,
        /// Validated request.
        request: IssueRequest,
        /// SHA-256 of the secret.
        secret_sha256: Digest,
    },
    /// Replace a credential's secret.
    RotateCredential {
        /// Credential id.
        credential_id: String,
        /// SHA-256 of the new secret.
        secret_sha256: Digest,
    },
    /// Revoke a credential; revoking twice is a no-op that appends nothing.
    RevokeCredential {
        /// Credential id.
        credential_id: String,
    },
    /// Record one attempt (or find it already recorded). Build it with [`Command::observe`].
    Observe {
        /// The validated outcome and disposition, with its event prepared
        /// (boxed: it is much larger than the other commands).
        observation: Box<PreparedObservation>,
    },
    /// Record many attempts, all or nothing. Build it with [`Command::import_attempts`].
    ImportAttempts {
        /// Validated observations in their original order, events prepared.
        observations: Vec<PreparedObservation>,
    },
    /// Replace a namespace's suppression policy.
    SetAttemptPolicy {
        /// The namespace the caller acts in.
        namespace: Namespace,
        /// The validated policy.
        policy: Policy,
    },
    /// Screen and keep an experience record submission, or keep its rejection.
    SubmitRecord(Box<crate::records::Submission>),
    /// Review a candidate record.
    ReviewRecord(Box<crate::records::Review>),
    /// Withdraw a reviewed record.
    WithdrawRecord {
        /// The namespace.
        namespace: Namespace,
        /// The record.
        experience_id: String,
        /// Why.
        reason: String,
        /// The revision the caller saw, if it wants compare-and-set.
        expected_revision: Option<u64>,
    },
    /// Load a published repository as it is, all or nothing: its skill
    /// releases (with their withdrawals) first, then its records.
    ImportRecords {
        /// The namespace.
        namespace: Namespace,
        /// The records.
        documents: Vec<serde_json::Value>,
        /// The skill registry's releases.
        skills: Vec<praxis_domain::skills::RegistryEntry>,
    },
    /// Publish an immutable skill release.
    PublishSkill {
        /// The namespace.
        namespace: Namespace,
        /// The release.
        release: praxis_domain::skills::SkillRelease,
    },
    /// Withdraw a skill release.
    WithdrawSkill {
        /// The namespace.
        namespace: Namespace,
        /// Skill name.
        name: String,
        /// Version.
        version: String,
        /// Why.
        reason: String,
    },
    /// Turn automated-policy approval of passing submissions on or off.
    SetAutomatedApproval {
        /// The namespace.
        namespace: Namespace,
        /// On or off.
        on: bool,
    },
    /// Append events with no projection of their own (benchmarks, future domains).
    Append {
        /// The events, in order.
        events: Vec<NewEvent>,
    },
}

impl Command {
    /// Records one observation in `namespace`.
    pub fn observe(namespace: &Namespace, observation: Observation) -> Command {
        Command::Observe {
            observation: Box::new(PreparedObservation::new(namespace, observation)),
        }
    }

    /// Records observations in `namespace`, all or nothing.
    pub fn import_attempts(namespace: &Namespace, observations: Vec<Observation>) -> Command {
        Command::ImportAttempts {
            observations: observations
                .into_iter()
                .map(|o| PreparedObservation::new(namespace, o))
                .collect(),
        }
    }
}

/// An observation with its ledger event prepared by the caller: the
/// canonical form and payload digest are computed on the caller's thread,
/// not on the single writer's.
#[derive(Clone, Debug)]
pub struct PreparedObservation {
    pub(crate) observation: Observation,
    pub(crate) event: NewEvent,
}

impl PreparedObservation {
    /// Prepares the event of `observation` in `namespace`.
    pub fn new(namespace: &Namespace, observation: Observation) -> PreparedObservation {
        let payload = serde_json::to_value(&observation).expect("observations serialize");
        let event = NewEvent::new(
            namespace.clone(),
            praxis_domain::attempts::stream_of(&observation.outcome.subject),
            praxis_domain::attempts::OBSERVED,
            payload,
        );
        PreparedObservation { observation, event }
    }
}

/// Builds the receipt bytes to store with an idempotency key, from what was applied.
pub type ReceiptFn = std::sync::Arc<dyn Fn(&Applied) -> Vec<u8> + Send + Sync>;

/// One write: a command, who asks, and how to answer retries.
#[derive(Clone)]
pub struct Write {
    /// Tenant the write touches (every write touches exactly one).
    pub tenant_id: String,
    /// Who asks.
    pub actor: Actor,
    /// Idempotency key, if the caller wants retries answered from a receipt.
    pub idempotency: Option<Idempotency>,
    /// The command.
    pub command: Command,
    /// Receipt builder; required when `idempotency` is set.
    pub receipt: Option<ReceiptFn>,
    /// The credential that authorized the write, re-checked inside its transaction.
    pub authority: Option<Authority>,
}

/// The credential a write was authorized by when its request arrived.
///
/// The writer checks it again under the tenant's lock, so that a write queued
/// behind its own credential's revocation or rotation is refused rather than
/// committed after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authority {
    /// The credential's id.
    pub credential_id: String,
    /// SHA-256 of the secret the request presented.
    pub secret_sha256: Digest,
    /// The capability the write needs.
    pub capability: Capability,
}

impl Write {
    /// A write without idempotency.
    pub fn new(tenant_id: impl Into<String>, actor: Actor, command: Command) -> Write {
        Write {
            tenant_id: tenant_id.into(),
            actor,
            idempotency: None,
            command,
            receipt: None,
            authority: None,
        }
    }

    /// Requires `authority` to still hold when the write is applied.
    pub fn authorized(mut self, authority: Authority) -> Write {
        self.authority = Some(authority);
        self
    }

    /// Adds an idempotency key and a receipt builder.
    pub fn idempotent(mut self, idempotency: Idempotency, receipt: ReceiptFn) -> Write {
        self.idempotency = Some(idempotency);
        self.receipt = Some(receipt);
        self
    }
}

/// What a command did.
#[derive(Clone, Debug, Default)]
pub struct Applied {
    /// Events appended, in order (empty for a no-op).
    pub events: Vec<Event>,
    /// The credential as it stands after the command, for credential commands.
    pub credential: Option<Credential>,
    /// One result per observation, for attempt commands.
    pub attempts: Vec<crate::attempts::AttemptWrite>,
    /// One result per record, for record commands.
    pub records: Vec<crate::records::RecordWrite>,
    /// The release as it stands, for skill commands.
    pub skill: Option<crate::records::SkillWrite>,
}

/// The answer to a write.
#[derive(Clone, Debug)]
pub enum WriteOutcome {
    /// The write was applied and is durable.
    Committed {
        /// What was applied (boxed: it is much larger than a replay).
        applied: Box<Applied>,
        /// The stored receipt, when the write was idempotent.
        receipt: Option<Vec<u8>>,
    },
    /// An identical earlier write was found; this is its stored receipt.
    Replayed {
        /// Receipt bytes exactly as first stored.
        receipt: Vec<u8>,
    },
}
