//! Strategies: externally extracted instructions bound to the exact
//! development observations they were derived from.
//!
//! The request is kept as sent (event order is part of its identity even
//! though the export sorts). The server binds each named observation to the
//! stored event, refuses an invented, mismatched or withdrawn one, exports
//! the set, and registers a candidate procedure whose instructions are the
//! server-owned document below and whose sources are every reference the
//! evidence names, so that none of them can later count as held-out
//! evaluation evidence.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::experience::Attempt;
use super::export::{Export, Summary};
use super::proposal::{Origin, Proposal, ProposalReceipt, check_instructions};
use super::registry::digest_of;
use super::state::ReportedEvent;
use super::text::check_text;
use super::withdrawal::ObservationRef;
use crate::canonical::canonical_bytes;
use crate::digest::Digest;
use crate::error::DomainError;
use crate::refusal::Refusal;

/// The receipt's method version, part of its digest.
pub const STRATEGY_METHOD: &str = "praxis.experience-strategy.v1";
/// The instruction document's format.
pub const INSTRUCTIONS_FORMAT: &str = "praxis.strategy-instructions.v1";
/// Kind string of a strategy receipt's digest.
pub const STRATEGY_KIND: &str = "praxis.experience-strategy.v1";
/// Event kind of a created strategy; its payload is a [`StrategyReceipt`].
pub const STRATEGY_CREATED: &str = "learning.strategy_created";
/// Most preconditions (at least one) and most counterexamples.
pub const MAX_CONDITIONS: usize = 16;
/// Longest precondition or counterexample, in bytes.
pub const MAX_CONDITION_BYTES: usize = 1024;
/// Most observations one strategy binds (at least one).
pub const MAX_STRATEGY_EVENTS: usize = 16;

/// Who extracted the instructions, and from what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extractor {
    /// The extraction's provider.
    pub provider: String,
    /// Its model.
    pub model: String,
    /// The model's revision.
    pub model_revision: String,
    /// The prompt's revision.
    pub prompt_revision: String,
    /// Where the extraction's own evidence lives.
    pub evidence_ref: String,
}

/// The observations the instructions were derived from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// The context digest every observation's attempt must carry.
    pub context_digest: Digest,
    /// The accounting unit every observation's attempt must use.
    pub accounting_unit: String,
    /// The observations: 1 to [`MAX_STRATEGY_EVENTS`], at most one per
    /// attempt, in the caller's order.
    pub events: Vec<ObservationRef>,
}

/// A strategy as the caller sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyRequest {
    /// The strategy's id, which is also its procedure's id.
    pub id: String,
    /// The policy that will judge it.
    pub policy_id: String,
    /// The context it is for.
    pub context_id: String,
    /// The instructions.
    pub instructions: String,
    /// When they apply: 1 to [`MAX_CONDITIONS`].
    pub preconditions: Vec<String>,
    /// Where they do not: 0 to [`MAX_CONDITIONS`].
    pub counterexamples: Vec<String>,
    /// Who extracted them.
    pub extractor: Extractor,
    /// From which observations.
    pub selection: Selection,
}

/// One named observation as the store resolved it.
#[derive(Clone, Copy, Debug)]
pub struct Resolved<'a> {
    /// Its attempt, if the attempt exists.
    pub attempt: Option<&'a Attempt>,
    /// The event under its id, if it exists.
    pub event: Option<&'a ReportedEvent>,
    /// Whether the observation is withdrawn.
    pub withdrawn: bool,
}

/// What creating a strategy answers, for good: the payload of
/// [`STRATEGY_CREATED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrategyReceipt {
    /// [`STRATEGY_METHOD`].
    pub method_version: String,
    /// The request as sent.
    pub request: StrategyRequest,
    /// The export of the bound observations.
    pub export_digest: Digest,
    /// Its summary.
    pub summary: Summary,
    /// The candidate procedure's receipt.
    pub proposal: ProposalReceipt,
    /// Digest of the members above, under `praxis.experience-strategy.v1`.
    pub strategy_digest: Digest,
}

fn check_conditions(path: &str, items: &[String], min: usize) -> Result<(), DomainError> {
    if items.len() < min || items.len() > MAX_CONDITIONS {
        return Err(DomainError::invalid(
            path,
            format!("holds {min} to {MAX_CONDITIONS} items"),
        ));
    }
    for (i, item) in items.iter().enumerate() {
        if item.trim().is_empty() || item.len() > MAX_CONDITION_BYTES {
            return Err(DomainError::invalid(
                format!("{path}/{i}"),
                format!("must be 1 to {MAX_CONDITION_BYTES} bytes and not blank"),
            ));
        }
    }
    Ok(())
}

impl StrategyRequest {
    /// Checks every field; `path` points at the strategy (`/strategy`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/id"), &self.id)?;
        check_text(&format!("{path}/policy_id"), &self.policy_id)?;
        check_text(&format!("{path}/context_id"), &self.context_id)?;
        check_instructions(&format!("{path}/instructions"), &self.instructions)?;
        check_conditions(&format!("{path}/preconditions"), &self.preconditions, 1)?;
        check_conditions(&format!("{path}/counterexamples"), &self.counterexamples, 0)?;
        let x = &self.extractor;
        let at = format!("{path}/extractor");
        check_text(&format!("{at}/provider"), &x.provider)?;
        check_text(&format!("{at}/model"), &x.model)?;
        check_text(&format!("{at}/model_revision"), &x.model_revision)?;
        check_text(&format!("{at}/prompt_revision"), &x.prompt_revision)?;
        check_text(&format!("{at}/evidence_ref"), &x.evidence_ref)?;
        let at = format!("{path}/selection");
        check_text(
            &format!("{at}/accounting_unit"),
            &self.selection.accounting_unit,
        )?;
        let events = &self.selection.events;
        if events.is_empty() || events.len() > MAX_STRATEGY_EVENTS {
            return Err(DomainError::invalid(
                format!("{at}/events"),
                format!("names 1 to {MAX_STRATEGY_EVENTS} observations"),
            ));
        }
        let mut attempts = HashSet::new();
        for (i, e) in events.iter().enumerate() {
            check_text(&format!("{at}/events/{i}/attempt_id"), &e.attempt_id)?;
            check_text(&format!("{at}/events/{i}/event_id"), &e.event_id)?;
            if !attempts.insert(e.attempt_id.as_str()) {
                return Err(DomainError::invalid(
                    format!("{at}/events/{i}/attempt_id"),
                    "names an attempt already selected: at most one observation per attempt",
                ));
            }
        }
        Ok(())
    }

    /// Plain SHA-256 of the request's canonical JSON, which the sources
    /// cite as `praxis:strategy-request:sha256:<hex>`.
    pub fn request_sha256(&self) -> Digest {
        Digest::sha256(&canonical_bytes(
            &serde_json::to_value(self).expect("requests serialize"),
        ))
    }

    /// The instruction document: the canonical JSON of
    /// `{format, instructions, preconditions, counterexamples}`, the bytes
    /// that are evaluated and selected.
    pub fn instruction_document(&self) -> String {
        let doc = serde_json::json!({
            "format": INSTRUCTIONS_FORMAT,
            "instructions": self.instructions,
            "preconditions": self.preconditions,
            "counterexamples": self.counterexamples,
        });
        String::from_utf8(canonical_bytes(&doc)).expect("canonical JSON is UTF-8")
    }

    /// Checks every named observation against what the store resolved (in
    /// request order) and returns the (attempt, event) pairs to export. An
    /// observation that does not exist, names another digest, context or
    /// accounting unit, or is withdrawn is refused as `invalid_observation`,
    /// pointing at it.
    pub fn bind<'a>(
        &self,
        resolved: &[Resolved<'a>],
    ) -> Result<Vec<(&'a Attempt, &'a ReportedEvent)>, Refusal> {
        let mut pairs = Vec::with_capacity(resolved.len());
        for (i, (named, found)) in self.selection.events.iter().zip(resolved).enumerate() {
            let at = format!("/strategy/selection/events/{i}");
            let refuse = |why: &str| Refusal::InvalidObservation {
                pointer: at.clone(),
                message: format!("{}/{}: {why}", named.attempt_id, named.event_id),
            };
            let (Some(attempt), Some(event)) = (found.attempt, found.event) else {
                return Err(refuse("no such observation"));
            };
            if event.event_digest != named.event_digest {
                return Err(refuse("the event's digest is another"));
            }
            if attempt.context_digest != self.selection.context_digest {
                return Err(refuse("its attempt ran in another context"));
            }
            if attempt.accounting_unit != self.selection.accounting_unit {
                return Err(refuse("its attempt counts another accounting unit"));
            }
            if found.withdrawn {
                return Err(refuse("it is withdrawn"));
            }
            pairs.push((attempt, event));
        }
        Ok(pairs)
    }

    /// The candidate procedure: the instruction document and every source
    /// the evidence names (the request's digest, the extractor's evidence,
    /// and each observation's input and evidence references with their
    /// SHA-256), each once, in that order.
    pub fn proposal(&self, pairs: &[(&Attempt, &ReportedEvent)]) -> Proposal {
        let mut sources = vec![
            format!(
                "praxis:strategy-request:sha256:{}",
                self.request_sha256().to_hex()
            ),
            self.extractor.evidence_ref.clone(),
        ];
        for (attempt, event) in pairs {
            sources.push(attempt.input.reference.clone());
            sources.push(format!("sha256:{}", attempt.input.sha256));
            if let Some(evidence) = &event.event.evidence {
                sources.push(evidence.reference.clone());
                sources.push(format!("sha256:{}", evidence.sha256));
            }
        }
        let mut seen = HashSet::new();
        sources.retain(|s| seen.insert(s.clone()));
        Proposal {
            id: self.id.clone(),
            origin: Origin::Strategy,
            policy_id: self.policy_id.clone(),
            context_id: self.context_id.clone(),
            instructions: self.instruction_document(),
            source_refs: sources,
            supersedes: None,
        }
    }
}

impl StrategyReceipt {
    /// The receipt of `request`, bound to `export` and `proposal`.
    pub fn new(request: StrategyRequest, export: &Export, proposal: ProposalReceipt) -> Self {
        let mut receipt = Self {
            method_version: STRATEGY_METHOD.to_owned(),
            request,
            export_digest: export.export_digest,
            summary: export.summary.clone(),
            proposal,
            strategy_digest: Digest::sha256(b""),
        };
        receipt.strategy_digest = receipt.expected_digest();
        receipt
    }

    /// The digest the receipt's other members give: a reader compares it
    /// with `strategy_digest`.
    pub fn expected_digest(&self) -> Digest {
        let mut value = serde_json::to_value(self).expect("receipts serialize");
        if let Some(map) = value.as_object_mut() {
            map.remove("strategy_digest");
        }
        digest_of(STRATEGY_KIND, &value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::experience::ExperienceOutcome;
    use crate::learning::experience::tests::{attempt, event};
    use crate::learning::state::{ExperienceState, Reported};
    use crate::learning::text::ContentRef;

    fn observed(id: &str) -> (Attempt, ReportedEvent) {
        let a = attempt(id);
        let mut report = event("e1", 1, ExperienceOutcome::Failed);
        report.evidence = Some(ContentRef {
            reference: format!("trace://dev/{id}/out"),
            sha256: "b".repeat(64),
        });
        let Reported::Accepted(acc) = ExperienceState::recorded(&a)
            .report("agent-7", "agent-7", None, &report)
            .unwrap()
        else {
            panic!("a first event is accepted")
        };
        (a, acc.event)
    }

    fn request(pairs: &[(Attempt, ReportedEvent)]) -> StrategyRequest {
        StrategyRequest {
            id: "receipt-recovery-v1".into(),
            policy_id: "policy-v1".into(),
            context_id: "context-v1".into(),
            instructions: "Read the operation receipt before deciding whether to retry.".into(),
            preconditions: vec!["The operation provides a durable receipt lookup.".into()],
            counterexamples: vec![],
            extractor: Extractor {
                provider: "external-provider".into(),
                model: "external-extractor".into(),
                model_revision: "model-v1".into(),
                prompt_revision: "extraction-v1".into(),
                evidence_ref: "trace://development/receipt-recovery".into(),
            },
            selection: Selection {
                context_digest: pairs[0].0.context_digest,
                accounting_unit: "tokens".into(),
                events: pairs
                    .iter()
                    .map(|(a, e)| ObservationRef {
                        attempt_id: a.id.clone(),
                        event_id: e.event.event_id.clone(),
                        event_digest: e.event_digest,
                    })
                    .collect(),
            },
        }
    }

    fn resolved(pairs: &[(Attempt, ReportedEvent)]) -> Vec<Resolved<'_>> {
        pairs
            .iter()
            .map(|(a, e)| Resolved {
                attempt: Some(a),
                event: Some(e),
                withdrawn: false,
            })
            .collect()
    }

    #[test]
    fn every_mismatch_is_an_invalid_observation_naming_it() {
        let pairs = vec![observed("dev-1"), observed("dev-2")];
        let r = request(&pairs);
        assert_eq!(r.validate("/strategy"), Ok(()));
        assert_eq!(r.bind(&resolved(&pairs)).unwrap().len(), 2);
        let pointer = |found: Vec<Resolved<'_>>, req: &StrategyRequest| match req.bind(&found) {
            Err(Refusal::InvalidObservation { pointer, .. }) => pointer,
            other => panic!("{other:?}"),
        };
        let mut missing = resolved(&pairs);
        missing[1].event = None;
        assert_eq!(pointer(missing, &r), "/strategy/selection/events/1");
        let mut withdrawn = resolved(&pairs);
        withdrawn[0].withdrawn = true;
        assert_eq!(pointer(withdrawn, &r), "/strategy/selection/events/0");
        let mut digest = r.clone();
        digest.selection.events[1].event_digest = Digest::sha256(b"invented");
        assert_eq!(
            pointer(resolved(&pairs), &digest),
            "/strategy/selection/events/1"
        );
        let mut unit = r.clone();
        unit.selection.accounting_unit = "usd".into();
        assert_eq!(
            pointer(resolved(&pairs), &unit),
            "/strategy/selection/events/0"
        );
        let mut context = r;
        context.selection.context_digest = Digest::sha256(b"other");
        assert_eq!(
            pointer(resolved(&pairs), &context),
            "/strategy/selection/events/0"
        );
    }

    #[test]
    fn limits_name_their_field() {
        let pairs = vec![observed("dev-1")];
        let refused = |f: fn(&mut StrategyRequest)| {
            let mut r = request(&pairs);
            f(&mut r);
            r.validate("/strategy")
                .unwrap_err()
                .path()
                .unwrap()
                .to_owned()
        };
        assert_eq!(
            refused(|r| r.preconditions.clear()),
            "/strategy/preconditions"
        );
        assert_eq!(
            refused(|r| r.counterexamples = vec!["x".repeat(MAX_CONDITION_BYTES + 1)]),
            "/strategy/counterexamples/0"
        );
        assert_eq!(
            refused(|r| r.selection.events.push(r.selection.events[0].clone())),
            "/strategy/selection/events/1/attempt_id"
        );
        assert_eq!(
            refused(|r| r.selection.events.clear()),
            "/strategy/selection/events"
        );
    }

    #[test]
    fn the_proposal_carries_the_document_and_every_source() {
        let pairs = vec![observed("dev-1")];
        let r = request(&pairs);
        let bound = r.bind(&resolved(&pairs)).unwrap();
        let p = r.proposal(&bound);
        assert_eq!(
            p.instructions,
            format!(
                "{{\"counterexamples\":[],\"format\":\"{INSTRUCTIONS_FORMAT}\",\"instructions\":\
                 \"Read the operation receipt before deciding whether to retry.\",\
                 \"preconditions\":[\"The operation provides a durable receipt lookup.\"]}}"
            )
        );
        let a = "a".repeat(64);
        let b = "b".repeat(64);
        assert_eq!(
            p.source_refs,
            vec![
                format!(
                    "praxis:strategy-request:sha256:{}",
                    r.request_sha256().to_hex()
                ),
                "trace://development/receipt-recovery".into(),
                "trace://dev/dev-1".into(),
                format!("sha256:{a}"),
                "trace://dev/dev-1/out".into(),
                format!("sha256:{b}"),
            ]
        );
        // Event order is part of the request's identity.
        let two = vec![observed("dev-1"), observed("dev-2")];
        let mut swapped = request(&two);
        let forward = swapped.request_sha256();
        swapped.selection.events.reverse();
        assert_ne!(forward, swapped.request_sha256());
    }
}
