//! SQL of agent memory, shared by both engines.
//!
//! Placeholders are `$1`, `$2`, … in ascending order of first appearance
//! (see `skills::sql`); a placeholder may appear again after later ones.

/// The `memory_items` columns, in [`super::rows::MemoryColumns`] order.
macro_rules! memory_columns {
    () => {
        "i.key, i.generation, i.write_no, i.revision, i.summary, i.body, i.tags, i.priority, \
         i.bootstrap, i.position"
    };
}

/// One key's row, live or deleted: (tenant, namespace, key).
pub const MEMORY_ROW: &str = concat!(
    "SELECT ",
    memory_columns!(),
    " FROM memory_items i WHERE i.tenant_id = $1 AND i.namespace = $2 AND i.key = $3"
);
/// Inserts or replaces a key's row.
pub const UPSERT_MEMORY: &str = "INSERT INTO memory_items (tenant_id, namespace, key, \
     generation, write_no, revision, summary, body, tags, priority, bootstrap, position) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
     ON CONFLICT (tenant_id, namespace, key) DO UPDATE SET generation = excluded.generation, \
     write_no = excluded.write_no, revision = excluded.revision, summary = excluded.summary, \
     body = excluded.body, tags = excluded.tags, priority = excluded.priority, \
     bootstrap = excluded.bootstrap, position = excluded.position";
/// Appends one change to a key's history.
pub const INSERT_HISTORY: &str = "INSERT INTO memory_history (tenant_id, namespace, key, \
     generation, write_no, kind, revision, definition, at, position) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
/// The `memory_history` columns, in [`super::rows::ChangeColumns`] order.
macro_rules! change_columns {
    () => {
        "generation, write_no, kind, revision, definition, at, position"
    };
}
/// A page of a key's history: (tenant, namespace, key, after position, limit).
pub const HISTORY: &str = concat!(
    "SELECT ",
    change_columns!(),
    " FROM memory_history WHERE tenant_id = $1 AND namespace = $2 AND key = $3 \
     AND position > $4 ORDER BY position LIMIT $5"
);
/// Live items in the scope and in the whole tenant: (tenant, namespace).
pub const USAGE: &str = "SELECT CAST(coalesce((SELECT sum(live_items) FROM memory_usage \
     WHERE tenant_id = $1 AND namespace = $2), 0) AS BIGINT), \
     CAST(coalesce((SELECT sum(live_items) FROM memory_usage WHERE tenant_id = $1), 0) AS BIGINT)";
/// Moves a scope's live item count by a delta: (tenant, namespace, delta).
pub const BUMP_USAGE: &str = "INSERT INTO memory_usage (tenant_id, namespace, live_items) \
     VALUES ($1, $2, $3) ON CONFLICT (tenant_id, namespace) \
     DO UPDATE SET live_items = memory_usage.live_items + excluded.live_items";
/// Indexes one term of an item: (tenant, namespace, term, key).
pub const INSERT_TERM: &str =
    "INSERT INTO memory_terms (tenant_id, namespace, term, key) VALUES ($1, $2, $3, $4)";
/// Drops one term of an item: (tenant, namespace, term, key).
pub const DELETE_TERM: &str = "DELETE FROM memory_terms WHERE tenant_id = $1 AND \
     namespace = $2 AND term = $3 AND key = $4";
/// How many items hold a term, counted up to a cap: (tenant, namespace,
/// term, cap). Enough to pick the rarest word of a query to drive it.
pub const TERM_COUNT: &str = "SELECT count(*) FROM (SELECT 1 FROM memory_terms \
     WHERE tenant_id = $1 AND namespace = $2 AND term = $3 LIMIT $4) AS capped";
/// The cap of [`TERM_COUNT`].
pub const TERM_COUNT_CAP: i64 = 1_000;
/// Live items by key, after a key: (tenant, namespace, after key, limit).
pub const LIVE_ITEMS: &str = concat!(
    "SELECT ",
    memory_columns!(),
    " FROM memory_items i WHERE i.tenant_id = $1 AND i.namespace = $2 AND i.key > $3 \
     AND i.revision IS NOT NULL ORDER BY i.key LIMIT $4"
);
/// Every key row of a tenant, namespace first, for verification.
pub const MEMORY_OF_TENANT: &str = concat!(
    "SELECT i.namespace, ",
    memory_columns!(),
    " FROM memory_items i WHERE i.tenant_id = $1"
);
/// Every history row of a tenant, namespace and key first, for verification.
pub const HISTORY_OF_TENANT: &str = concat!(
    "SELECT namespace, key, ",
    change_columns!(),
    " FROM memory_history WHERE tenant_id = $1 ORDER BY position"
);
/// Every indexed term of a tenant, for verification.
pub const TERMS_OF_TENANT: &str =
    "SELECT namespace, key, term FROM memory_terms WHERE tenant_id = $1";
/// Every usage row of a tenant, for verification.
pub const USAGE_OF_TENANT: &str =
    "SELECT namespace, live_items FROM memory_usage WHERE tenant_id = $1";

/// The search of live items holding every one of `terms` (at least one),
/// by key after a key. Driven by the first term's index entries, which are
/// ordered by key, so a page stops as soon as it is full. Parameters:
/// (tenant, namespace, first term, after key, the other terms…, limit).
pub fn search(terms: usize) -> String {
    use std::fmt::Write as _;
    let mut sql = String::from(concat!(
        "SELECT ",
        memory_columns!(),
        " FROM memory_terms t0 JOIN memory_items i ON i.tenant_id = t0.tenant_id \
         AND i.namespace = t0.namespace AND i.key = t0.key \
         WHERE t0.tenant_id = $1 AND t0.namespace = $2 AND t0.term = $3 AND t0.key > $4 \
         AND i.revision IS NOT NULL"
    ));
    for n in 1..terms {
        let _ = write!(
            sql,
            " AND EXISTS (SELECT 1 FROM memory_terms t{n} WHERE t{n}.tenant_id = $1 \
             AND t{n}.namespace = $2 AND t{n}.key = t0.key AND t{n}.term = ${})",
            n + 4
        );
    }
    let _ = write!(sql, " ORDER BY t0.key LIMIT ${}", terms + 4);
    sql
}

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) fn all() -> Vec<String> {
    let mut all: Vec<String> = [
        MEMORY_ROW,
        UPSERT_MEMORY,
        INSERT_HISTORY,
        HISTORY,
        USAGE,
        BUMP_USAGE,
        INSERT_TERM,
        DELETE_TERM,
        TERM_COUNT,
        LIVE_ITEMS,
        MEMORY_OF_TENANT,
        HISTORY_OF_TENANT,
        TERMS_OF_TENANT,
        USAGE_OF_TENANT,
    ]
    .map(str::to_owned)
    .to_vec();
    all.extend((1..=praxis_domain::memory::search::MAX_QUERY_TERMS).map(search));
    all
}
