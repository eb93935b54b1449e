//! Whole-store verification: digests, chains, positions and projections.
//!
//! Verification reads every tenant's log in position order, re-checks every
//! seal and every stream's chain, folds the events into fresh projections
//! with the same functions the writer uses, and compares them with the stored
//! rows. It reports every problem it finds rather than stopping at the first.

use std::collections::{BTreeMap, HashMap};

use praxis_domain::credentials::{Credential, CredentialEvent};
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;

use praxis_domain::attempts::Disposition;

use crate::apply::StoredReceipt;
use crate::attempts::{AttemptFold, CaseKeyRow, StreakKeyRow};
use crate::error::StoreError;
use crate::records::{RecordFold, RecordRow, SkillRow};

/// Events read per page while verifying.
const PAGE: usize = 2_000;

/// Read access that verification needs from an engine.
pub(crate) trait LedgerRead {
    /// Every tenant with its head position.
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError>;
    /// Up to `limit` events of a tenant after `after`, in position order, unverified.
    async fn raw_events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// Every stored credential row of a tenant.
    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError>;
    /// Every stored receipt of a tenant.
    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError>;
    /// Every attempt identity row of a tenant.
    async fn all_attempt_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError>;
    /// Every attempt streak row of a tenant.
    async fn all_attempt_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError>;
    /// Every attempt count row of a tenant: (namespace, disposition, count).
    async fn all_attempt_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError>;
    /// Every attempt policy of a tenant: (namespace, canonical policy).
    async fn all_attempt_policies(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String)>, StoreError>;
    /// Every record row of a tenant, with its namespace.
    async fn all_records(&mut self, tenant: &str) -> Result<Vec<(String, RecordRow)>, StoreError>;
    /// Every skill release row of a tenant, with its namespace.
    async fn all_skills(&mut self, tenant: &str) -> Result<Vec<(String, SkillRow)>, StoreError>;
    /// Every record setting of a tenant: (namespace, automated approval).
    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError>;
}

/// What verification found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Tenants checked.
    pub tenants: u64,
    /// Events checked.
    pub events: u64,
    /// Distinct streams seen.
    pub streams: u64,
    /// Credential rows compared.
    pub credentials: u64,
    /// Receipts checked.
    pub receipts: u64,
    /// Every problem, one line each.
    pub problems: Vec<String>,
}

impl VerifyReport {
    /// Whether the store is clean.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Verifies a whole store.
pub(crate) async fn verify_store<R: LedgerRead>(read: &mut R) -> Result<VerifyReport, StoreError> {
    let mut report = VerifyReport::default();
    for (tenant, head) in read.tenants().await? {
        report.tenants += 1;
        verify_tenant(read, &tenant, head, &mut report).await?;
    }
    Ok(report)
}

async fn verify_tenant<R: LedgerRead>(
    read: &mut R,
    tenant: &str,
    head: u64,
    report: &mut VerifyReport,
) -> Result<(), StoreError> {
    let mut chains: HashMap<(String, String), (u64, Digest)> = HashMap::new();
    let mut creds: BTreeMap<String, Credential> = BTreeMap::new();
    let mut attempts = AttemptFold::default();
    let mut records = RecordFold::default();
    let mut last = 0u64;
    loop {
        let page = read.raw_events(tenant, last, PAGE).await?;
        if page.is_empty() {
            break;
        }
        for event in page {
            let at = format!("tenant {tenant:?} position {}", event.position);
            if event.position != last + 1 {
                report
                    .problems
                    .push(format!("{at}: expected position {}", last + 1));
            }
            last = event.position;
            report.events += 1;
            if let Err(e) = event.verify() {
                report
                    .problems
                    .push(format!("{at}: digest mismatch ({e:?})"));
            }
            let key = (event.namespace.0.clone(), event.stream.clone());
            let prev = chains.get(&key);
            let expected_seq = prev.map_or(1, |(s, _)| s + 1);
            if event.stream_seq != expected_seq {
                report.problems.push(format!(
                    "{at}: stream {:?} sequence {} where {expected_seq} was expected",
                    event.stream, event.stream_seq
                ));
            }
            if event.prev_digest != prev.map(|(_, d)| *d) {
                report
                    .problems
                    .push(format!("{at}: broken chain in stream {:?}", event.stream));
            }
            chains.insert(key, (event.stream_seq, event.digest));
            if let Some(problem) = attempts.fold(&event) {
                report.problems.push(format!("{at}: {problem}"));
            }
            if let Some(problem) = records.fold(&event) {
                report.problems.push(format!("{at}: {problem}"));
            }
            if let Some(decoded) = CredentialEvent::decode(&event.kind, &event.payload) {
                match decoded {
                    Ok(decoded) => {
                        let id = credential_id(&decoded).to_owned();
                        match Credential::fold(creds.remove(&id), &event, &decoded) {
                            Ok(c) => {
                                creds.insert(id, c);
                            }
                            Err(e) => report.problems.push(format!("{at}: {e}")),
                        }
                    }
                    Err(e) => report
                        .problems
                        .push(format!("{at}: undecodable payload: {e}")),
                }
            }
        }
    }
    if last != head {
        report.problems.push(format!(
            "tenant {tenant:?}: head is {head} but the log ends at {last}"
        ));
    }
    report.streams += chains.len() as u64;
    let stored = read.all_credentials(tenant).await?;
    report.credentials += stored.len() as u64;
    for row in stored {
        match creds.remove(&row.id) {
            Some(expected) if expected == row => {}
            Some(_) => report.problems.push(format!(
                "tenant {tenant:?}: credential {} differs from its events",
                row.id
            )),
            None => report.problems.push(format!(
                "tenant {tenant:?}: credential {} has no events",
                row.id
            )),
        }
    }
    for id in creds.keys() {
        report.problems.push(format!(
            "tenant {tenant:?}: credential {id} is missing from the projection"
        ));
    }
    let problems = attempts.compare(
        read.all_attempt_cases(tenant).await?,
        read.all_attempt_streaks(tenant).await?,
        read.all_attempt_counts(tenant).await?,
        read.all_attempt_policies(tenant).await?,
    );
    report.problems.extend(
        problems
            .into_iter()
            .map(|p| format!("tenant {tenant:?}: {p}")),
    );
    let problems = records.compare(
        read.all_records(tenant).await?,
        read.all_skills(tenant).await?,
        read.all_record_settings(tenant).await?,
    );
    report.problems.extend(
        problems
            .into_iter()
            .map(|p| format!("tenant {tenant:?}: {p}")),
    );
    for receipt in read.all_receipts(tenant).await? {
        report.receipts += 1;
        let key = receipt.key.clone();
        match receipt.verified() {
            Ok(r) if r.position > head => report.problems.push(format!(
                "tenant {tenant:?}: receipt {key:?} points past the head"
            )),
            Ok(_) => {}
            Err(e) => report.problems.push(format!("tenant {tenant:?}: {e}")),
        }
    }
    Ok(())
}

fn credential_id(e: &CredentialEvent) -> &str {
    match e {
        CredentialEvent::Issued(i) => &i.credential_id,
        CredentialEvent::Rotated(r) => &r.credential_id,
        CredentialEvent::Revoked(r) => &r.credential_id,
    }
}
