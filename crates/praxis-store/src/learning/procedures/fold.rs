//! The procedure projections rebuilt from the log, for verification.
//!
//! Each registration must be in its procedure's stream, under a registered
//! policy and context, with the next candidate index of its (policy,
//! context); a strategy's observations must be earlier accepted events with
//! the digests it bound, not withdrawn then, and must give its export and
//! its procedure. Each evaluation must come from the policy's evaluator,
//! be what admission and the lifecycle give for its content at that point,
//! and use its case id once. A withdrawal marks the strategies bound to it.

use std::collections::{BTreeMap, BTreeSet};

use praxis_domain::auth::Namespace;
use praxis_domain::learning::{
    Admission, AdmissionOutcome, Context, EvaluationSubmitted, Policy, ProcedureRecord,
    ProposalReceipt, Resolved, Standing, StrategyReceipt, admit, export, procedure_stream,
};
use praxis_domain::ledger::Event;
use serde::de::DeserializeOwned;

use super::ProcedureRead;
use super::rows::{EvaluationRow, HeadRow, ProcedureRow};
use super::write::{evaluation_row_of, head_after, rows_of};
use crate::error::StoreError;
use crate::learning::fold::compare_rows;
use crate::learning::registry::RegistryFold;
use crate::learning::{Experience, Recorded, StoredEvent};

/// (namespace, procedure id).
type Key = (String, String);
/// (namespace, attempt or procedure id, event or case id).
type Triple = (String, String, String);

/// What the experience fold knows, against which a strategy's binding is
/// re-checked.
pub(crate) struct Observed<'a> {
    /// Accepted events so far.
    pub events: &'a BTreeMap<Triple, StoredEvent>,
    /// Recorded attempts so far.
    pub attempts: &'a BTreeMap<Key, Experience>,
    /// Observations withdrawn so far.
    pub withdrawn: &'a BTreeSet<Triple>,
}

/// A procedure as the fold carries it forward.
struct Live {
    policy: Policy,
    baseline_revision: String,
    receipt: ProposalReceipt,
    record: ProcedureRecord,
    head: HeadRow,
}

/// Every procedure projection, rebuilt.
#[derive(Default)]
pub(crate) struct ProcedureFold {
    live: BTreeMap<Key, Live>,
    rows: BTreeMap<Key, ProcedureRow>,
    evaluations: BTreeMap<Triple, EvaluationRow>,
    evidence: BTreeSet<Triple>,
    pairs: BTreeMap<Triple, u64>,
    bound: BTreeMap<Triple, Vec<String>>,
}

fn decode<T: DeserializeOwned>(event: &Event) -> Result<T, String> {
    serde_json::from_value(event.payload.clone())
        .map_err(|e| format!("undecodable {}: {e}", event.kind))
}

impl ProcedureFold {
    /// Folds an ordinary proposal's registration.
    pub fn proposed(&mut self, event: &Event, registry: &RegistryFold) -> Result<(), String> {
        let receipt: ProposalReceipt = decode(event)?;
        self.register(event, registry, receipt, None)
    }

    /// Folds a strategy's creation, re-checking its binding.
    pub fn strategy_created(
        &mut self,
        event: &Event,
        registry: &RegistryFold,
        observed: &Observed<'_>,
    ) -> Result<(), String> {
        let s: StrategyReceipt = decode(event)?;
        let what = format!("strategy {:?}", s.request.id);
        if s.expected_digest() != s.strategy_digest {
            return Err(format!("{what}: its digest is not its content's"));
        }
        let ns = event.namespace.0.clone();
        let resolved: Vec<Resolved<'_>> = s
            .request
            .selection
            .events
            .iter()
            .map(|o| {
                let k = (ns.clone(), o.attempt_id.clone(), o.event_id.clone());
                Resolved {
                    attempt: observed
                        .attempts
                        .get(&(ns.clone(), o.attempt_id.clone()))
                        .map(|e| &e.attempt),
                    event: observed.events.get(&k).map(|e| &e.event),
                    withdrawn: observed.withdrawn.contains(&k),
                }
            })
            .collect();
        let pairs = s
            .request
            .bind(&resolved)
            .map_err(|e| format!("{what}: {e}"))?;
        let exported = export(&pairs).map_err(|e| format!("{what}: {e}"))?;
        if exported.export_digest != s.export_digest
            || exported.summary != s.summary
            || s.request.proposal(&pairs) != s.proposal.proposal
        {
            return Err(format!("{what}: its observations do not give its receipt"));
        }
        self.register(event, registry, s.proposal.clone(), Some(&s))?;
        for o in &s.request.selection.events {
            self.bound
                .entry((ns.clone(), o.attempt_id.clone(), o.event_id.clone()))
                .or_default()
                .push(s.request.id.clone());
        }
        Ok(())
    }

    fn register(
        &mut self,
        event: &Event,
        registry: &RegistryFold,
        receipt: ProposalReceipt,
        strategy: Option<&StrategyReceipt>,
    ) -> Result<(), String> {
        let p = &receipt.proposal;
        let what = format!("procedure {:?}", p.id);
        if event.namespace == Namespace::admin() || event.stream != procedure_stream(&p.id) {
            return Err(format!("{what}: written outside its stream"));
        }
        if receipt.proposal_digest != p.digest()
            || receipt.actor != event.actor
            || receipt.recorded_at != event.recorded_at
        {
            return Err(format!("{what}: its receipt is not its registration's"));
        }
        let (Some(policy), Some(context)) = (
            registry.payload::<Policy>(&p.policy_id),
            registry.payload::<Context>(&p.context_id),
        ) else {
            return Err(format!("{what}: its policy or context is not registered"));
        };
        let ns = event.namespace.0.clone();
        let key = (ns.clone(), p.id.clone());
        if self.live.contains_key(&key) {
            return Err(format!("{what}: registered twice"));
        }
        let count = self
            .pairs
            .entry((ns.clone(), p.policy_id.clone(), p.context_id.clone()))
            .or_default();
        *count += 1;
        if receipt.candidate_index != *count {
            return Err(format!("{what}: its candidate index is not the next"));
        }
        let (row, head) = rows_of(&ns, &receipt, strategy, &Recorded::of(event), &policy)
            .map_err(|e| format!("{what}: {e}"))?;
        self.rows.insert(key.clone(), row);
        self.live.insert(
            key,
            Live {
                record: ProcedureRecord::new(&policy, receipt.candidate_index),
                policy,
                baseline_revision: context.baseline_revision,
                receipt,
                head,
            },
        );
        Ok(())
    }

    /// Folds a submitted evaluation, re-deciding it.
    pub fn evaluated(&mut self, event: &Event) -> Result<(), String> {
        let s: EvaluationSubmitted = decode(event)?;
        let e = &s.evaluation;
        let what = format!("evaluation {:?} of {:?}", e.case_id, s.procedure_id);
        let ns = event.namespace.0.clone();
        if event.stream != procedure_stream(&s.procedure_id) {
            return Err(format!("{what}: written outside its procedure's stream"));
        }
        let live = self
            .live
            .get_mut(&(ns.clone(), s.procedure_id.clone()))
            .ok_or_else(|| format!("{what}: evaluates no registered procedure"))?;
        if event.actor.subject != live.policy.parameters.evaluator_subject {
            return Err(format!("{what}: not written by the policy's evaluator"));
        }
        let case = (ns.clone(), s.procedure_id.clone(), e.case_id.clone());
        if self.evaluations.contains_key(&case) {
            return Err(format!("{what}: its case id is used twice"));
        }
        let evidence = (ns.clone(), s.procedure_id.clone(), e.evidence_ref.clone());
        let p = &live.receipt.proposal;
        let admission = admit(
            e,
            &Standing {
                policy_id: &p.policy_id,
                context_id: &p.context_id,
                baseline_revision: &live.baseline_revision,
                open_phase: live.record.state.open_phase(),
                evidence_used: self.evidence.contains(&evidence),
                sources: &p.source_refs,
            },
        );
        let decision = if admission.outcome == AdmissionOutcome::Accepted {
            live.record.count(&live.policy, e)
        } else {
            None
        };
        let stated = Admission {
            outcome: s.receipt.outcome,
            reason: s.receipt.reason,
        };
        if admission != stated
            || decision != s.decision
            || s.receipt.procedure != live.record.summary(&s.procedure_id)
        {
            return Err(format!("{what}: not what admitting its content gives"));
        }
        let seq = live.head.evaluations + 1;
        let row = evaluation_row_of(&ns, &s, seq, &Recorded::of(event))
            .map_err(|e| format!("{what}: {e}"))?;
        live.head =
            head_after(live.head.clone(), &live.record, seq).map_err(|e| format!("{what}: {e}"))?;
        self.evaluations.insert(case, row);
        self.evidence.insert(evidence);
        Ok(())
    }

    /// Marks the strategies bound to a withdrawn observation.
    pub fn withdrawn(&mut self, observation: &Triple) {
        for id in self.bound.get(observation).into_iter().flatten() {
            if let Some(live) = self.live.get_mut(&(observation.0.clone(), id.clone())) {
                live.head.withdrawn = 1;
            }
        }
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: ProcedureRead>(
        self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        compare_rows(
            "procedure",
            self.rows,
            read.all_procedure_rows(tenant).await?,
            |r: &ProcedureRow| (r.namespace.clone(), r.id.clone()),
            &mut problems,
        );
        let heads = self
            .live
            .into_iter()
            .map(|(k, live)| (k, live.head))
            .collect();
        compare_rows(
            "procedure head",
            heads,
            read.all_head_rows(tenant).await?,
            |r: &HeadRow| (r.namespace.clone(), r.id.clone()),
            &mut problems,
        );
        compare_rows(
            "procedure evaluation",
            self.evaluations,
            read.all_evaluation_rows(tenant).await?,
            |r: &EvaluationRow| {
                (
                    r.namespace.clone(),
                    r.procedure_id.clone(),
                    r.case_id.clone(),
                )
            },
            &mut problems,
        );
        Ok(problems)
    }
}
