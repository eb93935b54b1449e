//! The registry: policies and evaluation contexts, registered once per id
//! for the whole tenant as events of the `admin` namespace (one stream per
//! id), projected into `learning_registry`.

use std::collections::BTreeMap;

use praxis_domain::DomainError;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    CONTEXT_REGISTERED, Context, ContextRegistered, POLICY_REGISTERED, Policy, PolicyRegistered,
    Registration, context_stream, policy_stream, register,
};
use praxis_domain::ledger::{Event, NewEvent};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::rows::RegistryRow;
use super::{Entry, LearningRead, LearningTx, Registered};
use crate::error::StoreError;
use crate::ledger::{Ctx, LedgerTx, payload};

/// What the registry holds, as the two payload types share it: the rest
/// of this module is written once for both.
pub(crate) trait Registrable: Serialize + DeserializeOwned + Sized {
    /// The row kind, also the refusal's `what` (`policy`, `context`).
    const KIND: &'static str;
    /// The event kind of a registration.
    const EVENT: &'static str;
    /// The id it is registered under.
    fn id(&self) -> &str;
    /// Checks every field; `Err` is a refusal.
    fn validate(&self) -> Result<(), DomainError>;
    /// Its plain SHA-256 digest.
    fn digest(&self) -> Digest;
    /// The stream of its registration.
    fn stream(&self) -> String;
    /// The registration event's payload.
    fn event_payload(&self, digest: Digest) -> Result<serde_json::Value, StoreError>;
    /// The payload and digest a registration event carries.
    fn from_event(payload: &serde_json::Value) -> Result<(Self, Digest), serde_json::Error>;
}

impl Registrable for Policy {
    const KIND: &'static str = "policy";
    const EVENT: &'static str = POLICY_REGISTERED;
    fn id(&self) -> &str {
        &self.id
    }
    fn validate(&self) -> Result<(), DomainError> {
        Policy::validate(self, "/policy")
    }
    fn digest(&self) -> Digest {
        Policy::digest(self)
    }
    fn stream(&self) -> String {
        policy_stream(&self.id)
    }
    fn event_payload(&self, digest: Digest) -> Result<serde_json::Value, StoreError> {
        payload(&PolicyRegistered {
            policy: self.clone(),
            digest,
        })
    }
    fn from_event(payload: &serde_json::Value) -> Result<(Self, Digest), serde_json::Error> {
        PolicyRegistered::deserialize(payload).map(|r| (r.policy, r.digest))
    }
}

impl Registrable for Context {
    const KIND: &'static str = "context";
    const EVENT: &'static str = CONTEXT_REGISTERED;
    fn id(&self) -> &str {
        &self.id
    }
    fn validate(&self) -> Result<(), DomainError> {
        Context::validate(self, "/context")
    }
    fn digest(&self) -> Digest {
        Context::digest(self)
    }
    fn stream(&self) -> String {
        context_stream(&self.id)
    }
    fn event_payload(&self, digest: Digest) -> Result<serde_json::Value, StoreError> {
        payload(&ContextRegistered {
            context: self.clone(),
            digest,
        })
    }
    fn from_event(payload: &serde_json::Value) -> Result<(Self, Digest), serde_json::Error> {
        ContextRegistered::deserialize(payload).map(|r| (r.context, r.digest))
    }
}

/// Registers a payload unless its id is taken. The lookup runs inside the
/// write's transaction, after the tenant is locked, so concurrent
/// registrations of one id are decided one after the other.
pub(crate) async fn register_one<R: Registrable, T: LedgerTx + LearningTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    item: R,
) -> Result<Registered<R>, StoreError> {
    item.validate()?;
    let digest = item.digest();
    // The stored row is verified before its digest decides anything.
    let stored = tx
        .registry_row(ctx.tenant, R::KIND, item.id())
        .await?
        .map(RegistryRow::into_entry::<R>)
        .transpose()?;
    let decision = register(
        R::KIND,
        item.id(),
        stored.as_ref().map(|e| &e.digest),
        &digest,
    )?;
    if let (Registration::Existing, Some(entry)) = (decision, stored) {
        return Ok(Registered { entry, new: false });
    }
    let new = NewEvent::new(
        Namespace::admin(),
        item.stream(),
        R::EVENT,
        item.event_payload(digest)?,
    );
    let event = ctx.append(tx, new).await?;
    let entry = Entry {
        registered_by: event.actor.subject.clone(),
        recorded_at: event.recorded_at,
        position: event.position,
        payload: item,
        digest,
    };
    tx.insert_registry_row(ctx.tenant, &RegistryRow::of(&entry)?)
        .await?;
    Ok(Registered { entry, new: true })
}

/// The registry projection rebuilt from events, for verification.
#[derive(Default)]
pub(crate) struct RegistryFold {
    rows: BTreeMap<(String, String), RegistryRow>,
}

impl RegistryFold {
    /// Folds one event; returns a problem when a registration is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        match event.kind.as_str() {
            POLICY_REGISTERED => self.fold_one::<Policy>(event),
            CONTEXT_REGISTERED => self.fold_one::<Context>(event),
            _ => None,
        }
    }

    fn fold_one<R: Registrable>(&mut self, event: &Event) -> Option<String> {
        let (item, digest) = match R::from_event(&event.payload) {
            Ok(decoded) => decoded,
            Err(e) => {
                return Some(format!(
                    "undecodable learning {} registration: {e}",
                    R::KIND
                ));
            }
        };
        let what = format!("learning {} {:?}", R::KIND, item.id());
        if digest != item.digest() {
            return Some(format!(
                "{what}: the registration's digest is not its payload's"
            ));
        }
        if event.namespace != Namespace::admin() || event.stream != item.stream() {
            return Some(format!("{what}: registered outside its stream"));
        }
        let key = (R::KIND.to_owned(), item.id().to_owned());
        if self.rows.contains_key(&key) {
            return Some(format!("{what}: registered twice"));
        }
        let entry = Entry {
            payload: item,
            digest,
            registered_by: event.actor.subject.clone(),
            recorded_at: event.recorded_at,
            position: event.position,
        };
        match RegistryRow::of(&entry) {
            Ok(row) => {
                self.rows.insert(key, row);
                None
            }
            Err(e) => Some(format!("{what}: {e}")),
        }
    }

    /// The digest a context is registered with, if it is.
    pub fn context_digest(&self, id: &str) -> Option<Digest> {
        self.rows
            .get(&(Context::KIND.to_owned(), id.to_owned()))
            .and_then(|row| row.digest.parse().ok())
    }

    /// The payload registered under `id`, if it is.
    pub fn payload<R: Registrable>(&self, id: &str) -> Option<R> {
        self.rows
            .get(&(R::KIND.to_owned(), id.to_owned()))
            .and_then(|row| serde_json::from_str(&row.payload).ok())
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: LearningRead>(
        mut self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for row in read.all_registry_rows(tenant).await? {
            let key = (row.kind.clone(), row.id.clone());
            match self.rows.remove(&key) {
                Some(expected) if expected == row => {}
                _ => problems.push(format!(
                    "learning {} {:?} differs from its events",
                    key.0, key.1
                )),
            }
        }
        for (kind, id) in self.rows.keys() {
            problems.push(format!(
                "learning {kind} {id:?} is missing from the projection"
            ));
        }
        Ok(problems)
    }
}
