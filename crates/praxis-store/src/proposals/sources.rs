//! Praxis-object sources hashed inside the transaction that approves, so
//! no source can change between the check and the effect.
//!
//! Each kind's semantic fields (docs/proposals.md lists them) are read
//! from the projections and hashed with [`object_sha256`].

use praxis_domain::auth::Namespace;
use praxis_domain::memory::{MemoryKey, MemoryRevision};
use praxis_domain::proposals::{SourceKind, SourceRef, object_sha256};
use serde_json::{Value, json};

use crate::attempts::AttemptTx;
use crate::error::StoreError;
use crate::learning::LearningTx;
use crate::memory::MemoryTx;
use crate::records::{RecordKey, RecordTx};

/// A Praxis object as it stands now: its hash, or why it has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// It exists and is current; its SHA-256.
    Current(String),
    /// It exists but is no longer the one named (a later revision).
    Stale,
    /// It does not exist in the scope.
    Missing,
}

/// The hash of a Praxis-object source; None for a file source.
pub(crate) async fn lookup<T: AttemptTx + LearningTx + RecordTx + MemoryTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    source: &SourceRef,
) -> Result<Option<Lookup>, StoreError> {
    let missing = Ok(Some(Lookup::Missing));
    let current = |fields: Value| Ok(Some(Lookup::Current(object_sha256(&fields))));
    match source.kind {
        SourceKind::File => Ok(None),
        SourceKind::Attempt => {
            let Some(p) = source.parts(3) else {
                return missing;
            };
            let entries = tx
                .case_entries(tenant, namespace, p[0], p[1], Some(p[2]))
                .await?;
            if entries.is_empty() {
                return missing;
            }
            let records: Vec<Value> = entries
                .iter()
                .map(|e| {
                    json!({
                        "stage": e.stage,
                        "status": e.status,
                        "disposition": e.disposition,
                        "action_revision": e.revision,
                        "recorded_at": e.recorded_at.to_string(),
                    })
                })
                .collect();
            current(json!({
                "kind": "attempt", "subject": p[0], "action_id": p[1], "case_id": p[2],
                "records": records,
            }))
        }
        SourceKind::ExperienceEvent => {
            let Some(p) = source.parts(2) else {
                return missing;
            };
            let Some(row) = tx.event_row(tenant, namespace.as_str(), p[0], p[1]).await? else {
                return missing;
            };
            let event: Value = serde_json::from_str(&row.event)
                .map_err(|e| StoreError::inconsistent(format!("event {}: {e}", p[1])))?;
            let (_, withdrawal) = tx
                .withdrawal_rows(tenant, namespace.as_str(), "", p[0], p[1])
                .await?;
            current(json!({
                "kind": "experience_event", "attempt_id": p[0], "event_id": p[1],
                "event": event, "withdrawn": withdrawal.is_some(),
            }))
        }
        SourceKind::RecordRevision => {
            let Some(p) = source.parts(2) else {
                return missing;
            };
            let Some(kept) = tx
                .record_row(tenant, namespace, RecordKey::Id(p[0]))
                .await?
            else {
                return missing;
            };
            if kept.revision.to_string() != p[1] {
                return Ok(Some(Lookup::Stale));
            }
            current(json!({
                "kind": "record_revision", "experience_id": kept.experience_id,
                "revision": kept.revision, "document_sha256": kept.sha256,
                "lifecycle": kept.lifecycle, "review_status": kept.review_status,
                "withdrawal_reason": kept.withdrawal_reason, "superseded_by": kept.superseded_by,
            }))
        }
        SourceKind::MemoryRevision => {
            let Some(p) = source.parts(2) else {
                return missing;
            };
            let (Ok(key), Some(revision)) =
                (MemoryKey::parse("/ref", p[0]), MemoryRevision::parse(p[1]))
            else {
                return missing;
            };
            let row = tx.memory_row(tenant, namespace, &key).await?;
            let Some(item) = row.and_then(|r| r.item()) else {
                return missing;
            };
            if item.revision != revision {
                return Ok(Some(Lookup::Stale));
            }
            let d = &item.definition;
            current(json!({
                "kind": "memory_revision", "key": key.as_str(), "revision": revision.as_str(),
                "summary": d.summary, "body": d.body, "tags": d.tags, "priority": d.priority,
                "bootstrap": d.bootstrap,
            }))
        }
    }
}
