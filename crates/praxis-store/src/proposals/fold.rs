//! Proposals rebuilt from their events, for verification.

use std::collections::BTreeMap;

use praxis_domain::ledger::Event;
use praxis_domain::proposals::{PROPOSAL_CREATED, Proposal};

use super::{PROPOSAL_SETTINGS, ProposalRead};
use crate::error::StoreError;

/// Every proposal and setting as the events leave them.
#[derive(Default)]
pub(crate) struct ProposalFold {
    /// (namespace, id) → the proposal and its last event's position.
    proposals: BTreeMap<(String, String), (Proposal, u64)>,
    settings: BTreeMap<String, bool>,
}

impl ProposalFold {
    /// Folds one event; returns a problem when a proposal event is
    /// malformed or not allowed in the proposal's state.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let ns = event.namespace.0.clone();
        if event.kind == PROPOSAL_SETTINGS {
            return match event.payload["self_approval"].as_bool() {
                Some(b) => {
                    self.settings.insert(ns, b);
                    None
                }
                None => Some("undecodable proposal settings".into()),
            };
        }
        let id = event.stream.strip_prefix("proposal/")?;
        let key = (ns, id.to_owned());
        if event.kind == PROPOSAL_CREATED {
            return match Proposal::created(event) {
                Ok(p) if p.id == id => {
                    self.proposals.insert(key, (p, event.position));
                    None
                }
                Ok(_) => Some(format!("proposal {id} created under another id")),
                Err(e) => Some(format!("proposal {id}: {e}")),
            };
        }
        match self.proposals.get_mut(&key) {
            Some((p, at)) => match p.apply(event) {
                Ok(()) => {
                    *at = event.position;
                    None
                }
                Err(e) => Some(format!("proposal {id}: {e}")),
            },
            None => Some(format!("proposal {id}: {} before its creation", event.kind)),
        }
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: ProposalRead>(
        mut self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for (ns, state, proposal, position) in read.all_proposals(tenant).await? {
            let key = (ns, proposal.id.clone());
            match self.proposals.remove(&key) {
                Some((expected, at))
                    if expected == proposal
                        && at == position
                        && state == proposal.state.as_str() => {}
                _ => problems.push(format!("proposal {} differs from its events", key.1)),
            }
        }
        for (_, id) in self.proposals.keys() {
            problems.push(format!("proposal {id} is missing from the projection"));
        }
        let stored: BTreeMap<String, bool> = read
            .all_proposal_settings(tenant)
            .await?
            .into_iter()
            .collect();
        if stored != self.settings {
            problems.push("proposal settings differ from their events".into());
        }
        Ok(problems)
    }
}
