//! Whole-store verification: digests, chains, positions and projections.
//!
//! Verification reads every tenant's log once, in position order, re-checks
//! every seal and every stream's chain, lets each concept fold the events
//! into fresh projections with the same functions the writer uses, and then
//! has each concept compare its fold with the stored rows. It reports every
//! problem it finds rather than stopping at the first. [`Folds`] is the one
//! place where concepts are registered for verification.

use std::collections::HashMap;

use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;

use crate::attempts::fold::AttemptFold;
use crate::attempts::read::AttemptRead;
use crate::auth::{CredentialFold, CredentialRead};
use crate::error::StoreError;
use crate::learning::procedures::ProcedureRead;
use crate::learning::{LearningFold, LearningRead};
use crate::ledger::LedgerRead;
use crate::memory::MemoryRead;
use crate::memory::fold::MemoryFold;
use crate::proposals::ProposalRead;
use crate::proposals::fold::ProposalFold;
use crate::records::RecordRead;
use crate::records::fold::RecordFold;
use crate::skills::{SkillFold, SkillRead};

/// Events read per page while verifying.
const PAGE: usize = 2_000;

/// Everything a reader must offer to verify every concept.
pub(crate) trait StoreRead:
    LedgerRead
    + CredentialRead
    + AttemptRead
    + RecordRead
    + SkillRead
    + LearningRead
    + ProcedureRead
    + MemoryRead
    + ProposalRead
{
}

impl<
    R: LedgerRead
        + CredentialRead
        + AttemptRead
        + RecordRead
        + SkillRead
        + LearningRead
        + ProcedureRead
        + MemoryRead
        + ProposalRead,
> StoreRead for R
{
}

/// Refuses a schema a read snapshot cannot verify as it is: a newer one,
/// or an older one not yet migrated (a server migrates it when it starts;
/// a snapshot migrates nothing).
pub(crate) fn check_schema(found: i64) -> Result<(), StoreError> {
    if found > crate::SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: crate::SCHEMA_VERSION,
        });
    }
    if found < crate::SCHEMA_VERSION {
        return Err(StoreError::OperationRefused(format!(
            "store schema version {found} is older than this build's {}; \
             start `praxis serve` on it once to migrate it",
            crate::SCHEMA_VERSION
        )));
    }
    Ok(())
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

/// Every concept's projections, rebuilt from one walk of a tenant's log.
#[derive(Default)]
struct Folds {
    credentials: CredentialFold,
    attempts: AttemptFold,
    records: RecordFold,
    skills: SkillFold,
    learning: LearningFold,
    memory: MemoryFold,
    proposals: ProposalFold,
}

impl Folds {
    fn fold(&mut self, event: &Event) -> Vec<String> {
        [
            self.credentials.fold(event),
            self.attempts.fold(event),
            self.records.fold(event),
            self.skills.fold(event),
            self.learning.fold(event),
            self.memory.fold(event),
            self.proposals.fold(event),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    async fn compare<R: StoreRead>(
        self,
        read: &mut R,
        tenant: &str,
        report: &mut VerifyReport,
    ) -> Result<Vec<String>, StoreError> {
        let (credentials, mut problems) = self.credentials.compare(read, tenant).await?;
        report.credentials += credentials;
        problems.extend(self.attempts.compare(read, tenant).await?);
        problems.extend(self.records.compare(read, tenant).await?);
        problems.extend(self.skills.compare(read, tenant).await?);
        problems.extend(self.learning.compare(read, tenant).await?);
        problems.extend(self.memory.compare(read, tenant).await?);
        problems.extend(self.proposals.compare(read, tenant).await?);
        Ok(problems)
    }
}

/// Verifies a whole store.
pub(crate) async fn verify_store<R: StoreRead>(read: &mut R) -> Result<VerifyReport, StoreError> {
    let mut report = VerifyReport::default();
    for (tenant, head) in read.tenants().await? {
        report.tenants += 1;
        verify_tenant(read, &tenant, head, &mut report).await?;
    }
    Ok(report)
}

async fn verify_tenant<R: StoreRead>(
    read: &mut R,
    tenant: &str,
    head: u64,
    report: &mut VerifyReport,
) -> Result<(), StoreError> {
    let mut chains: HashMap<(String, String), (u64, Digest)> = HashMap::new();
    let mut folds = Folds::default();
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
            for problem in folds.fold(&event) {
                report.problems.push(format!("{at}: {problem}"));
            }
        }
    }
    if last != head {
        report.problems.push(format!(
            "tenant {tenant:?}: head is {head} but the log ends at {last}"
        ));
    }
    report.streams += chains.len() as u64;
    let problems = folds.compare(read, tenant, report).await?;
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
