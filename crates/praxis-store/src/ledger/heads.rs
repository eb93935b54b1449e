//! A writer-side cache of stream heads, shared by both engines.
//!
//! Appending an event needs its stream's last (sequence, digest). Reading it
//! costs a query per event; the writer remembers heads it has read or written
//! instead. The cache is only trusted while the tenant's head position is the
//! one it last committed: every write to a tenant moves that head under the
//! tenant's lock, so a head that moved means another writer (another process
//! on PostgreSQL) touched the tenant, and its entries are dropped.

use std::collections::HashMap;

use praxis_domain::digest::Digest;

/// Streams cached per tenant before that tenant's entries are dropped wholesale.
const LIMIT_PER_TENANT: usize = 100_000;

#[derive(Default)]
struct TenantHeads {
    /// The tenant head position this cache was last committed at.
    committed_at: u64,
    /// namespace → stream → head; nested so lookups borrow instead of allocating.
    streams: HashMap<String, HashMap<String, (u64, Digest)>>,
    entries: usize,
}

/// Stream heads by tenant. Owned by one writer; never shared between threads.
#[derive(Default)]
pub(crate) struct HeadCache {
    tenants: HashMap<String, TenantHeads>,
    /// Entries added since the current savepoint opened; forgotten if it rolls back.
    touched: Vec<(String, String, String)>,
}

impl HeadCache {
    /// Keeps a tenant's entries only if its head is still where this cache left it.
    pub fn validate(&mut self, tenant: &str, head: u64) {
        if let Some(t) = self.tenants.get_mut(tenant)
            && (t.committed_at != head || t.entries > LIMIT_PER_TENANT)
        {
            t.streams.clear();
            t.entries = 0;
            t.committed_at = head;
        }
    }

    /// The cached head of a stream.
    pub fn get(&self, tenant: &str, namespace: &str, stream: &str) -> Option<(u64, Digest)> {
        self.tenants
            .get(tenant)?
            .streams
            .get(namespace)?
            .get(stream)
            .copied()
    }

    /// Records a stream's head, read or just written.
    pub fn put(&mut self, tenant: &str, namespace: &str, stream: &str, head: (u64, Digest)) {
        self.touched
            .push((tenant.to_owned(), namespace.to_owned(), stream.to_owned()));
        let t = self.tenants.entry(tenant.to_owned()).or_default();
        let streams = t.streams.entry(namespace.to_owned()).or_default();
        if streams.insert(stream.to_owned(), head).is_none() {
            t.entries += 1;
        }
    }

    /// A savepoint opened: what follows may be rolled back.
    pub fn savepoint(&mut self) {
        self.touched.clear();
    }

    /// The savepoint rolled back: forget what it cached.
    pub fn rollback(&mut self) {
        for (tenant, namespace, stream) in self.touched.drain(..) {
            let removed = self
                .tenants
                .get_mut(&tenant)
                .and_then(|t| t.streams.get_mut(&namespace))
                .and_then(|s| s.remove(&stream));
            if removed.is_some()
                && let Some(t) = self.tenants.get_mut(&tenant)
            {
                t.entries -= 1;
            }
        }
    }

    /// The writer's transaction now stands at these tenant heads. Provisional
    /// until it commits: if it fails, the writer calls [`HeadCache::clear`].
    pub fn committed(&mut self, heads: &HashMap<String, u64>) {
        for (tenant, head) in heads {
            self.tenants.entry(tenant.clone()).or_default().committed_at = *head;
        }
        self.touched.clear();
    }

    /// The batch failed: nothing it cached may survive.
    pub fn clear(&mut self) {
        self.tenants.clear();
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_tenant_head_drops_its_entries() {
        let mut c = HeadCache::default();
        let d = Digest::sha256(b"x");
        c.put("t", "n", "s", (1, d));
        c.committed(&[("t".to_owned(), 5)].into());
        c.validate("t", 5);
        assert_eq!(c.get("t", "n", "s"), Some((1, d)));
        c.validate("t", 6);
        assert_eq!(c.get("t", "n", "s"), None);
    }

    #[test]
    fn a_rolled_back_savepoint_forgets_its_entries() {
        let mut c = HeadCache::default();
        let d = Digest::sha256(b"x");
        c.put("t", "n", "kept", (1, d));
        c.savepoint();
        c.put("t", "n", "gone", (1, d));
        c.rollback();
        assert_eq!(c.get("t", "n", "kept"), Some((1, d)));
        assert_eq!(c.get("t", "n", "gone"), None);
    }
}
