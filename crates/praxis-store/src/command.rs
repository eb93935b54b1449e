//! Write commands: what a caller asks the ledger to do in one atomic step,
//! and what it did.
//!
//! Each concept owns its command and its effect; this module only wraps
//! them, so adding a concept adds one variant to [`Command`] and one to
//! [`Effect`].

use praxis_domain::attempts::Policy;
use praxis_domain::credentials::Credential;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Actor, Event, NewEvent};

use crate::attempts::{AttemptCommand, AttemptWrite};
use crate::auth::{AuthCommand, Authority};
use crate::learning::{LearningCommand, LearningWrite, PreparedReport};
use crate::memory::{MemoryCommand, MemoryWrite};
use crate::proposals::{ProposalCommand, ProposalWrite};
use crate::records::{RecordCommand, RecordWrite};
use crate::skills::{SkillCommand, SkillWrite};

/// An idempotency key with the digest of the request it was first used for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Idempotency {
    /// The key, already scoped by the caller (for example route and hashed client key).
    pub key: String,
    /// Digest of the complete request.
    pub request_digest: Digest,
}

/// What one write asks for, by concept.
#[derive(Clone, Debug)]
pub enum Command {
    /// Tenants and credentials.
    Auth(AuthCommand),
    /// The attempt ledger.
    Attempts(AttemptCommand),
    /// Experience records.
    Records(RecordCommand),
    /// The skill registry.
    Skills(SkillCommand),
    /// The learning registry.
    Learning(LearningCommand),
    /// Agent memory.
    Memory(MemoryCommand),
    /// Proposals and their promotion.
    Proposals(ProposalCommand),
    /// Append events with no projection of their own (benchmarks).
    Append(Vec<NewEvent>),
}

impl Command {
    /// Whether the command creates its tenant (and so must not find it).
    pub fn creates_tenant(&self) -> bool {
        matches!(self, Command::Auth(c) if c.creates_tenant())
    }
}

impl From<AuthCommand> for Command {
    fn from(c: AuthCommand) -> Self {
        Command::Auth(c)
    }
}

impl From<AttemptCommand> for Command {
    fn from(c: AttemptCommand) -> Self {
        Command::Attempts(c)
    }
}

impl From<RecordCommand> for Command {
    fn from(c: RecordCommand) -> Self {
        Command::Records(c)
    }
}

impl From<SkillCommand> for Command {
    fn from(c: SkillCommand) -> Self {
        Command::Skills(c)
    }
}

impl From<MemoryCommand> for Command {
    fn from(c: MemoryCommand) -> Self {
        Command::Memory(c)
    }
}

impl From<ProposalCommand> for Command {
    fn from(c: ProposalCommand) -> Self {
        Command::Proposals(c)
    }
}

impl From<LearningCommand> for Command {
    fn from(c: LearningCommand) -> Self {
        Command::Learning(c)
    }
}

/// Builds the receipt bytes to store with an idempotency key, from what was
/// applied. An error fails the write: its receipt is part of what is atomic.
pub type ReceiptFn =
    std::sync::Arc<dyn Fn(&Applied) -> Result<Vec<u8>, crate::StoreError> + Send + Sync>;

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
    /// A report decided by the engine ahead of its writer.
    pub(crate) prepared: Option<Box<PreparedReport>>,
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
            prepared: None,
        }
    }

    /// This write without what was decided ahead of the writer, if anything
    /// was: to apply again when that decision went stale.
    pub(crate) fn unprepared(&self) -> Option<Write> {
        // Field by field, so the decision itself is not copied.
        self.prepared.as_ref().map(|_| Write {
            tenant_id: self.tenant_id.clone(),
            actor: self.actor.clone(),
            idempotency: self.idempotency.clone(),
            command: self.command.clone(),
            receipt: self.receipt.clone(),
            authority: self.authority.clone(),
            prepared: None,
        })
    }

    /// Requires `authority` to still hold when the write is applied.
    #[must_use]
    pub fn authorized(mut self, authority: Authority) -> Write {
        self.authority = Some(authority);
        self
    }

    /// Adds an idempotency key and a receipt builder.
    #[must_use]
    pub fn idempotent(mut self, idempotency: Idempotency, receipt: ReceiptFn) -> Write {
        self.idempotency = Some(idempotency);
        self.receipt = Some(receipt);
        self
    }
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct Applied {
    /// Events appended, in order (empty for a no-op).
    pub events: Vec<Event>,
    /// What the command did to its concept's state.
    pub effect: Effect,
}

/// What a command did to its concept's state.
#[derive(Clone, Debug)]
pub enum Effect {
    /// Nothing beyond its events.
    None,
    /// The credential as it stands after the command.
    Credential(Credential),
    /// One result per observation.
    Attempts(Vec<AttemptWrite>),
    /// The attempt policy a policy change left in force.
    Policy(Policy),
    /// One result per record.
    Records(Vec<RecordWrite>),
    /// The release as it stands.
    Skill(SkillWrite),
    /// The registry entry under the id, and whether it is new.
    Learning(LearningWrite),
    /// The memory item or delete.
    Memory(MemoryWrite),
    /// The proposal, source hash or setting.
    Proposals(ProposalWrite),
}

impl Applied {
    /// The credential a credential command left, if any.
    pub fn into_credential(self) -> Option<Credential> {
        match self.effect {
            Effect::Credential(c) => Some(c),
            _ => None,
        }
    }

    /// The credential a credential command left, if any, borrowed.
    pub fn credential(&self) -> Option<&Credential> {
        match &self.effect {
            Effect::Credential(c) => Some(c),
            _ => None,
        }
    }

    /// The results of an attempt command (empty for any other), borrowed.
    pub fn attempts(&self) -> &[AttemptWrite] {
        match &self.effect {
            Effect::Attempts(a) => a,
            _ => &[],
        }
    }

    /// The attempt policy a policy change left in force, if it was one.
    pub fn policy(&self) -> Option<&Policy> {
        match &self.effect {
            Effect::Policy(p) => Some(p),
            _ => None,
        }
    }

    /// The results of a record command (empty for any other), borrowed.
    pub fn records(&self) -> &[RecordWrite] {
        match &self.effect {
            Effect::Records(r) => r,
            _ => &[],
        }
    }

    /// The result of a skill command, if it was one, borrowed.
    pub fn skill(&self) -> Option<&SkillWrite> {
        match &self.effect {
            Effect::Skill(s) => Some(s),
            _ => None,
        }
    }

    /// The result of a learning command, if it was one, borrowed.
    pub fn learning(&self) -> Option<&LearningWrite> {
        match &self.effect {
            Effect::Learning(l) => Some(l),
            _ => None,
        }
    }

    /// The result of a memory command, if it was one, borrowed.
    pub fn memory(&self) -> Option<&MemoryWrite> {
        match &self.effect {
            Effect::Memory(m) => Some(m),
            _ => None,
        }
    }

    /// The result of a proposal command, if it was one, borrowed.
    pub fn proposals(&self) -> Option<&ProposalWrite> {
        match &self.effect {
            Effect::Proposals(p) => Some(p),
            _ => None,
        }
    }

    /// The results of an attempt command (empty for any other).
    pub fn into_attempts(self) -> Vec<AttemptWrite> {
        match self.effect {
            Effect::Attempts(a) => a,
            _ => Vec::new(),
        }
    }

    /// The results of a record command (empty for any other).
    pub fn into_records(self) -> Vec<RecordWrite> {
        match self.effect {
            Effect::Records(r) => r,
            _ => Vec::new(),
        }
    }

    /// The result of a skill command, if it was one.
    pub fn into_skill(self) -> Option<SkillWrite> {
        match self.effect {
            Effect::Skill(s) => Some(s),
            _ => None,
        }
    }
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

impl WriteOutcome {
    /// What a write without an idempotency key applied. Such a write is
    /// never replayed; a replay would be a fault of the store.
    pub fn applied(self) -> Result<Applied, crate::error::StoreError> {
        match self {
            WriteOutcome::Committed { applied, .. } => Ok(*applied),
            WriteOutcome::Replayed { .. } => Err(crate::error::StoreError::inconsistent(
                "a write without idempotency key was replayed",
            )),
        }
    }
}
