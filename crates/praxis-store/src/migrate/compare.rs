//! The final comparison of a migration: the same tenants at the same heads,
//! the same events at the same positions with the same digests, the same
//! receipts and key fingerprints. The first difference is named.

use super::Source;
use crate::error::StoreError;

/// Events compared per page.
const PAGE: usize = 2_000;

/// Compares two stores read through their snapshots.
pub(super) async fn compare(a: &mut dyn Source, b: &mut dyn Source) -> Result<(), StoreError> {
    let (ta, tb) = (a.tenants().await?, b.tenants().await?);
    if let Some(first) = ta.iter().zip(&tb).find(|(x, y)| x != y) {
        return differ(&format!(
            "tenant {:?} (head {}) on the source, {:?} (head {}) on the target",
            first.0.id, first.0.head, first.1.id, first.1.head
        ));
    }
    if ta.len() != tb.len() {
        return differ(&format!(
            "{} tenants on the source, {} on the target",
            ta.len(),
            tb.len()
        ));
    }
    if a.store_keys().await? != b.store_keys().await? {
        return differ("the store key fingerprints");
    }
    for tenant in &ta {
        let mut after = 0;
        loop {
            let (ea, eb) = (
                a.events(&tenant.id, after, PAGE).await?,
                b.events(&tenant.id, after, PAGE).await?,
            );
            for (x, y) in ea.iter().zip(&eb) {
                if x != y {
                    return differ(&format!(
                        "tenant {:?} position {}: digest {} on the source, position {} digest {} on the target",
                        tenant.id, x.position, x.digest, y.position, y.digest
                    ));
                }
            }
            if ea.len() != eb.len() {
                return differ(&format!(
                    "tenant {:?}: the logs end apart after position {after}",
                    tenant.id
                ));
            }
            match ea.last() {
                Some(last) => after = last.position,
                None => break,
            }
        }
        let (mut ra, mut rb) = (a.receipts(&tenant.id).await?, b.receipts(&tenant.id).await?);
        ra.sort_by(|x, y| x.key.cmp(&y.key));
        rb.sort_by(|x, y| x.key.cmp(&y.key));
        for (x, y) in ra.iter().zip(&rb) {
            let same = x.key == y.key
                && x.request_digest == y.request_digest
                && x.bytes == y.bytes
                && x.receipt_digest == y.receipt_digest
                && x.position == y.position;
            if !same {
                return differ(&format!(
                    "tenant {:?}: receipt {:?} on the source, {:?} on the target",
                    tenant.id, x.key, y.key
                ));
            }
        }
        if ra.len() != rb.len() {
            return differ(&format!(
                "tenant {:?}: {} receipts on the source, {} on the target",
                tenant.id,
                ra.len(),
                rb.len()
            ));
        }
    }
    Ok(())
}

fn differ(what: &str) -> Result<(), StoreError> {
    Err(StoreError::Migration(format!(
        "the copy differs from the source: {what}"
    )))
}
