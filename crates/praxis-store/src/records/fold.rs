//! The record and setting projections rebuilt from the log, for verification.

use std::collections::BTreeMap;

use praxis_domain::ledger::Event;
use praxis_domain::records::lifecycle;

use praxis_domain::records::KeptRecord;

use super::{RecordRead, revision_of};
use crate::error::StoreError;

/// Record and setting projections rebuilt from events.
#[derive(Default)]
pub(crate) struct RecordFold {
    records: BTreeMap<(String, String), KeptRecord>,
    settings: BTreeMap<String, bool>,
}

impl RecordFold {
    /// Folds one event; returns a problem when a records event is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let ns = event.namespace.0.clone();
        match event.kind.as_str() {
            lifecycle::REVISED => match revision_of(event) {
                Ok(r) => match KeptRecord::from_revision(&r, event.position) {
                    Ok(row) => {
                        self.records.insert((ns, r.experience_id), row);
                        None
                    }
                    Err(e) => Some(e),
                },
                Err(e) => Some(e.to_string()),
            },
            lifecycle::SETTINGS_SET => match event.payload["automated_approval"].as_bool() {
                Some(on) => {
                    self.settings.insert(ns, on);
                    None
                }
                None => Some("undecodable record settings".into()),
            },
            _ => None,
        }
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: RecordRead>(
        mut self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for (ns, columns) in read.all_records(tenant).await? {
            let id = columns.experience_id.clone();
            let row = match columns.into_row() {
                Ok(row) => row,
                Err(e) => {
                    // The expected row is accounted for: its problem is this one.
                    self.records.remove(&(ns.clone(), id));
                    problems.push(format!("record in {ns:?}: {e}"));
                    continue;
                }
            };
            match self
                .records
                .remove(&(ns.clone(), row.experience_id.clone()))
            {
                Some(expected) if expected == row => {}
                Some(_) => problems.push(format!(
                    "record {} in {ns:?} differs from its revisions",
                    row.experience_id
                )),
                None => problems.push(format!(
                    "record {} in {ns:?} has no revisions",
                    row.experience_id
                )),
            }
        }
        for (ns, id) in self.records.keys() {
            problems.push(format!(
                "record {id} in {ns:?} is missing from the projection"
            ));
        }
        for (ns, on) in read.all_record_settings(tenant).await? {
            if self.settings.remove(&ns) != Some(on) {
                problems.push(format!(
                    "record settings of {ns:?} differ from their events"
                ));
            }
        }
        for ns in self.settings.keys() {
            problems.push(format!(
                "record settings of {ns:?} are missing from the projection"
            ));
        }
        Ok(problems)
    }
}
