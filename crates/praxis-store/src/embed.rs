//! The attempt ledger as a library a planner embeds, over any engine.

use std::collections::BTreeMap;
use std::sync::Arc;

use praxis_domain::Refusal;
use praxis_domain::attempts::{
    Assessment, Disposition, LegacyStore, Observation, Outcome, Policy, PolicyUpdate,
};
use praxis_domain::auth::{Namespace, Scope};
use praxis_domain::ledger::Actor;

use crate::attempts::{ActionRef, AttemptCommand, AttemptWrite, HistoryOf, HistoryPage, export};
use crate::auth::AuthCommand;
use crate::command::{Applied, Command, Write};
use crate::engine::Engine;
use crate::error::StoreError;
use crate::ledger::rows::now;

/// The attempt ledger as a library: one namespace of one tenant, on any
/// engine. A planner embeds it over a SQLite directory with
/// [`AttemptLedger::open`] and needs no server.
#[derive(Clone)]
pub struct AttemptLedger {
    engine: Arc<dyn Engine>,
    tenant: String,
    namespace: Namespace,
    actor: Actor,
}

impl AttemptLedger {
    /// Opens (creating if needed) a store and its tenant, acting in the
    /// namespace of `scope` as `subject`.
    pub async fn open(
        store: &str,
        tenant: &str,
        scope: &Scope,
        subject: &str,
    ) -> Result<AttemptLedger, StoreError> {
        scope.validate("/scope")?;
        let engine = crate::open(store).await?;
        match engine
            .execute(Write::new(
                tenant,
                Actor::system(),
                Command::Auth(AuthCommand::CreateTenant),
            ))
            .await
        {
            Ok(_) | Err(StoreError::TenantExists) => {}
            Err(e) => return Err(e),
        }
        Ok(AttemptLedger::new(
            engine,
            tenant,
            scope.namespace(subject),
            Actor {
                credential_id: "embedded".into(),
                subject: subject.into(),
            },
        ))
    }

    /// A ledger over an engine that is already open.
    pub fn new(
        engine: Arc<dyn Engine>,
        tenant: &str,
        namespace: Namespace,
        actor: Actor,
    ) -> AttemptLedger {
        AttemptLedger {
            engine,
            tenant: tenant.into(),
            namespace,
            actor,
        }
    }

    /// The engine underneath.
    pub fn engine(&self) -> &Arc<dyn Engine> {
        &self.engine
    }

    async fn write(&self, command: Command) -> Result<Applied, StoreError> {
        self.engine
            .execute(Write::new(&self.tenant, self.actor.clone(), command))
            .await?
            .applied()
    }

    /// Records an outcome with the disposition the conservative mapping infers.
    pub async fn observe(&self, outcome: Outcome) -> Result<AttemptWrite, StoreError> {
        self.record(Observation::new(outcome, None, "/outcome")?)
            .await
    }

    /// Records an outcome with a stated disposition, which must fit its status.
    pub async fn observe_with_disposition(
        &self,
        outcome: Outcome,
        disposition: Disposition,
    ) -> Result<AttemptWrite, StoreError> {
        self.record(Observation::new(outcome, Some(disposition), "/outcome")?)
            .await
    }

    async fn record(&self, observation: Observation) -> Result<AttemptWrite, StoreError> {
        self.write(AttemptCommand::observe(&self.namespace, observation).into())
            .await?
            .into_attempts()
            .pop()
            .ok_or_else(|| StoreError::inconsistent("an observation returned no record"))
    }

    /// Replaces the namespace's policy whole.
    pub async fn set_policy(&self, policy: Policy) -> Result<(), StoreError> {
        policy.validate("")?;
        self.update_policy(PolicyUpdate::replacing(policy))
            .await
            .map(|_| ())
    }

    /// Changes only the fields `update` names; returns the policy now in force.
    pub async fn update_policy(&self, update: PolicyUpdate) -> Result<Policy, StoreError> {
        update.validate("")?;
        self.write(
            AttemptCommand::SetPolicy {
                namespace: self.namespace.clone(),
                update,
            }
            .into(),
        )
        .await?
        .policy()
        .copied()
        .ok_or_else(|| StoreError::inconsistent("a policy change returned no policy"))
    }

    /// The namespace's policy.
    pub async fn policy(&self) -> Result<Policy, StoreError> {
        self.engine
            .attempts()
            .policy(&self.tenant, &self.namespace)
            .await
    }

    /// Assesses candidate actions for a subject. Reads only: nothing a
    /// planner decides from it is ever written back as experience.
    pub async fn assess(
        &self,
        subject: &str,
        actions: Vec<ActionRef>,
    ) -> Result<Vec<Assessment>, StoreError> {
        let (_, assessments) = self
            .engine
            .attempts()
            .assess(&self.tenant, &self.namespace, subject, actions, now())
            .await?;
        Ok(assessments)
    }

    /// One page of history.
    pub async fn history(
        &self,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        self.engine
            .attempts()
            .history(&self.tenant, &self.namespace, of, after, limit)
            .await
    }

    /// Records per disposition.
    pub async fn counts(
        &self,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        self.engine
            .attempts()
            .counts(&self.tenant, &self.namespace, subject, action)
            .await
    }

    /// Imports a legacy store, all or nothing.
    pub async fn import(&self, store: LegacyStore) -> Result<Vec<AttemptWrite>, StoreError> {
        let observations = store.validate().map_err(Refusal::ImportInvalid)?;
        Ok(self
            .write(AttemptCommand::import(&self.namespace, observations).into())
            .await?
            .into_attempts())
    }

    /// Exports the namespace in the legacy format.
    pub async fn export(&self) -> Result<LegacyStore, StoreError> {
        export(self.engine.attempts(), &self.tenant, &self.namespace).await
    }
}
