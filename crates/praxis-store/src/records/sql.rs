//! SQL of the record projection, its search text and its settings.
//!
//! Statements are shared by both engines. Placeholders are `$1`, `$2`, … in
//! ascending order of first appearance: PostgreSQL binds them by number and
//! SQLite by order of appearance, so the same text binds the same way on both
//! (a unit test of the SQLite engine checks every statement in `ALL`).

/// The `records` columns every record read returns, in [`super::rows::RecordColumns`] order.
macro_rules! record_columns {
    () => {
        "experience_id, source, revision, sha256, lifecycle, review_status, review_mode, \
         verification_level, platform, title, document, position, withdrawal_reason, superseded_by"
    };
}

/// One record by id: (tenant, namespace, experience_id).
pub const RECORD_BY_ID: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 AND experience_id = $3"
);
/// One record by source: (tenant, namespace, source).
pub const RECORD_BY_SOURCE: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 AND source = $3"
);
/// Upsert of a record row. The search text is engine-specific: PostgreSQL
/// keeps a `tsvector` column, SQLite a separate FTS5 table keyed by rowid.
macro_rules! upsert_record {
    ($extra_column:literal, $extra_value:literal, $extra_set:literal, $returning:literal) => {
        concat!(
            "INSERT INTO records (tenant_id, namespace, experience_id, source, revision, sha256, \
             lifecycle, review_status, review_mode, verification_level, platform, title, document, \
             position, withdrawal_reason, superseded_by",
            $extra_column,
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16",
            $extra_value,
            ") ON CONFLICT (tenant_id, namespace, experience_id) DO UPDATE SET \
             source = excluded.source, revision = excluded.revision, sha256 = excluded.sha256, \
             lifecycle = excluded.lifecycle, review_status = excluded.review_status, \
             review_mode = excluded.review_mode, verification_level = excluded.verification_level, \
             platform = excluded.platform, title = excluded.title, document = excluded.document, \
             position = excluded.position, withdrawal_reason = excluded.withdrawal_reason, \
             superseded_by = excluded.superseded_by",
            $extra_set,
            $returning
        )
    };
}
/// Record upsert on SQLite; returns the rowid the FTS5 index is keyed by.
pub const SQLITE_UPSERT_RECORD: &str = upsert_record!("", "", "", " RETURNING rowid");
/// Record upsert on PostgreSQL, with its `tsvector` built from `$17`.
pub const PG_UPSERT_RECORD: &str = upsert_record!(
    ", search",
    ", to_tsvector('simple', $17)",
    ", search = excluded.search",
    ""
);
/// Replaces a record's FTS5 entry: (rowid, body).
pub const SQLITE_DELETE_RECORD_TEXT: &str = "DELETE FROM records_fts WHERE rowid = $1";
/// Inserts a record's FTS5 entry: (rowid, body).
pub const SQLITE_INSERT_RECORD_TEXT: &str = "INSERT INTO records_fts (rowid, body) VALUES ($1, $2)";
/// A page of records matching filters, by id, on SQLite:
/// (tenant, namespace, lifecycle?, platform?, level?, after, fts query?, limit).
pub const SQLITE_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 \
     AND ($3 IS NULL OR lifecycle = $3) AND ($4 IS NULL OR platform = $4) \
     AND ($5 IS NULL OR verification_level = $5) AND experience_id > $6 \
     AND ($7 IS NULL OR rowid IN (SELECT rowid FROM records_fts WHERE records_fts MATCH $7)) \
     ORDER BY experience_id LIMIT $8"
);
/// The same search on PostgreSQL, over the `tsvector`.
pub const PG_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 \
     AND ($3::text IS NULL OR lifecycle = $3) AND ($4::text IS NULL OR platform = $4) \
     AND ($5::text IS NULL OR verification_level = $5) AND experience_id COLLATE \"C\" > $6 \
     AND ($7::text IS NULL OR search @@ plainto_tsquery('simple', $7)) \
     ORDER BY experience_id COLLATE \"C\" LIMIT $8"
);
/// A namespace's automated-approval setting: (tenant, namespace).
pub const RECORD_SETTINGS: &str =
    "SELECT automated_approval FROM record_settings WHERE tenant_id = $1 AND namespace = $2";
/// Stores a namespace's automated-approval setting.
pub const UPSERT_RECORD_SETTINGS: &str = "INSERT INTO record_settings (tenant_id, namespace, \
     automated_approval) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, namespace) DO UPDATE SET \
     automated_approval = excluded.automated_approval";
/// Every record row of a tenant, namespace first, for verification.
pub const RECORDS_OF_TENANT: &str = concat!(
    "SELECT namespace, ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1"
);
/// Every record setting of a tenant, for verification.
pub const RECORD_SETTINGS_OF_TENANT: &str =
    "SELECT namespace, automated_approval FROM record_settings WHERE tenant_id = $1";

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    RECORD_BY_ID,
    RECORD_BY_SOURCE,
    SQLITE_UPSERT_RECORD,
    SQLITE_DELETE_RECORD_TEXT,
    SQLITE_INSERT_RECORD_TEXT,
    SQLITE_SEARCH_RECORDS,
    RECORD_SETTINGS,
    UPSERT_RECORD_SETTINGS,
    RECORDS_OF_TENANT,
    RECORD_SETTINGS_OF_TENANT,
];
