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
    ", to_tsvector('english', $17)",
    ", search = excluded.search",
    ""
);
/// Replaces a record's FTS5 entry: (rowid, body).
pub const SQLITE_DELETE_RECORD_TEXT: &str = "DELETE FROM records_fts WHERE rowid = $1";
/// Inserts a record's FTS5 entry: (rowid, body).
pub const SQLITE_INSERT_RECORD_TEXT: &str = "INSERT INTO records_fts (rowid, body) VALUES ($1, $2)";
/// The filters every search applies after (tenant, namespace): lifecycle,
/// platform, verification level, and whether withdrawn records are kept.
macro_rules! search_filters {
    ($text:literal) => {
        concat!(
            "tenant_id = $1 AND namespace = $2 AND ($3",
            $text,
            " IS NULL OR lifecycle = $3) AND ($4",
            $text,
            " IS NULL OR platform = $4) AND ($5",
            $text,
            " IS NULL OR verification_level = $5) AND ($6 OR lifecycle <> 'withdrawn')"
        )
    };
}
/// A page of records matching filters, by id, on SQLite:
/// (tenant, namespace, lifecycle?, platform?, level?, withdrawn too, after, limit).
pub const SQLITE_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE ",
    search_filters!(""),
    " AND experience_id > $7 ORDER BY experience_id LIMIT $8"
);
/// A page of records matching filters and an FTS5 query, most relevant
/// first (the score is minus bm25, so higher is better on both engines),
/// then by id: (…filters, FTS5 query, after score?, after id, limit).
pub const SQLITE_RANK_RECORDS: &str = concat!(
    "SELECT * FROM (SELECT ",
    record_columns!(),
    ", -bm25(records_fts) AS score FROM records_fts JOIN records      ON records.rowid = records_fts.rowid WHERE ",
    search_filters!(""),
    " AND records_fts MATCH $7)      WHERE ($8 IS NULL OR score < $8 OR (score = $8 AND experience_id > $9))      ORDER BY score DESC, experience_id LIMIT $10"
);
/// The search by id on PostgreSQL.
pub const PG_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE ",
    search_filters!("::text"),
    " AND experience_id COLLATE \"C\" > $7 ORDER BY experience_id COLLATE \"C\" LIMIT $8"
);
/// The ranked search on PostgreSQL: `ts_rank` over the `english`
/// `tsvector`, widened to float8 so the cursor carries it exactly.
pub const PG_RANK_RECORDS: &str = concat!(
    "SELECT * FROM (SELECT ",
    record_columns!(),
    ", ts_rank(search, query)::float8 AS score \
     FROM records, plainto_tsquery('english', $7) AS query WHERE ",
    search_filters!("::text"),
    " AND search @@ query) AS ranked \
     WHERE ($8::float8 IS NULL OR score < $8 OR (score = $8 AND experience_id COLLATE \"C\" > $9)) \
     ORDER BY score DESC, experience_id COLLATE \"C\" LIMIT $10"
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
    SQLITE_RANK_RECORDS,
    RECORD_SETTINGS,
    UPSERT_RECORD_SETTINGS,
    RECORDS_OF_TENANT,
    RECORD_SETTINGS_OF_TENANT,
];
