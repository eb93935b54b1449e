//! Experience records on SQLite, with their text in FTS5.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx, event_row};
use crate::error::StoreError;
use crate::ledger::rows::{EventRow, to_i64};
use crate::records::rows::{RecordColumns, document_text};
use crate::records::sql;
use crate::records::{
    RecordFilter, RecordKey, RecordRead, RecordReads, RecordTx, SearchAfter, SearchHit,
};
use praxis_domain::records::KeptRecord;
use praxis_domain::records::lifecycle::ReviewMode;
use praxis_domain::records::search::query_words;
use praxis_domain::records::state::{Lifecycle, Platform, VerificationLevel};

/// Tables of experience records and their settings (schema version 3).
pub(super) const SCHEMA_V3: &str = "CREATE TABLE records (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        source TEXT NOT NULL,
        revision INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        lifecycle TEXT NOT NULL,
        review_status TEXT NOT NULL,
        review_mode TEXT,
        verification_level TEXT NOT NULL,
        platform TEXT NOT NULL,
        title TEXT NOT NULL,
        document TEXT NOT NULL,
        position INTEGER NOT NULL,
        withdrawal_reason TEXT,
        superseded_by TEXT
    ) STRICT;
    CREATE UNIQUE INDEX records_by_id ON records (tenant_id, namespace, experience_id);
    CREATE UNIQUE INDEX records_by_source ON records (tenant_id, namespace, source);
    CREATE VIRTUAL TABLE records_fts USING fts5(body);
    CREATE TABLE record_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        automated_approval INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;";

/// Schema version 13: the record text index stems (`porter`) over
/// `unicode61` words, so `rate-limit` finds "rate limiting"; every kept
/// record is indexed again from its document's strings (those the writer
/// indexes, in document order: the order does not change a match or a
/// bm25 score).
pub(super) const SCHEMA_V13: &str = "DROP TABLE records_fts;
    CREATE VIRTUAL TABLE records_fts USING fts5(body, tokenize = 'porter unicode61');
    INSERT INTO records_fts (rowid, body)
        SELECT records.rowid, group_concat(t.value, char(10))
        FROM records, json_tree(records.document) AS t
        WHERE t.type = 'text'
        GROUP BY records.rowid;";

fn record_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RecordColumns> {
    Ok(RecordColumns {
        experience_id: r.get(at)?,
        source: r.get(at + 1)?,
        revision: r.get(at + 2)?,
        sha256: r.get(at + 3)?,
        lifecycle: r.get(at + 4)?,
        review_status: r.get(at + 5)?,
        review_mode: r.get(at + 6)?,
        verification_level: r.get(at + 7)?,
        platform: r.get(at + 8)?,
        title: r.get(at + 9)?,
        document: r.get(at + 10)?,
        position: r.get(at + 11)?,
        withdrawal_reason: r.get(at + 12)?,
        superseded_by: r.get(at + 13)?,
    })
}

fn query_record(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
    key: RecordKey<'_>,
) -> Result<Option<KeptRecord>, StoreError> {
    let (sql, value) = match key {
        RecordKey::Id(id) => (sql::RECORD_BY_ID, id),
        RecordKey::Source(source) => (sql::RECORD_BY_SOURCE, source),
    };
    conn.prepare_cached(sql)?
        .query_row(params![tenant, namespace.as_str(), value], |r| {
            record_at(r, 0)
        })
        .optional()?
        .map(RecordColumns::into_row)
        .transpose()
}

fn query_automated_approval(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
) -> Result<bool, StoreError> {
    let on: Option<i64> = conn
        .prepare_cached(sql::RECORD_SETTINGS)?
        .query_row(params![tenant, namespace.as_str()], |r| r.get(0))
        .optional()?;
    Ok(on == Some(1))
}

/// An FTS5 query requiring every word of `text`, each quoted so that it is
/// a string for the tokenizer (stemmed like the index), never an operator.
/// `None` when it has no words.
fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = query_words(text)
        .into_iter()
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

impl RecordTx for SqliteTx<'_> {
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<KeptRecord>, StoreError> {
        query_record(self.conn, tenant, namespace, key)
    }

    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &KeptRecord,
        search: &str,
    ) -> Result<(), StoreError> {
        let rowid: i64 = self
            .conn
            .prepare_cached(sql::SQLITE_UPSERT_RECORD)?
            .query_row(
                params![
                    tenant,
                    namespace.as_str(),
                    row.experience_id,
                    row.source,
                    to_i64(row.revision),
                    row.sha256,
                    row.lifecycle.as_str(),
                    row.review_status.as_str(),
                    row.review_mode.map(ReviewMode::as_str),
                    row.verification_level.as_str(),
                    row.platform.as_str(),
                    row.title,
                    document_text(&row.document),
                    to_i64(row.position),
                    row.withdrawal_reason,
                    row.superseded_by,
                ],
                |r| r.get(0),
            )?;
        self.conn
            .prepare_cached(sql::SQLITE_DELETE_RECORD_TEXT)?
            .execute(params![rowid])?;
        self.conn
            .prepare_cached(sql::SQLITE_INSERT_RECORD_TEXT)?
            .execute(params![rowid, search])?;
        Ok(())
    }

    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        query_automated_approval(self.conn, tenant, namespace)
    }

    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_RECORD_SETTINGS)?
            .execute(params![tenant, namespace.as_str(), i64::from(on)])?;
        Ok(())
    }
}

impl RecordRead for SqliteRead<'_> {
    async fn all_records(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, RecordColumns)>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECORDS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, record_at(r, 1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECORD_SETTINGS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? == 1))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

#[async_trait]
impl RecordReads for SqliteEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<KeptRecord>, StoreError> {
        self.read_now(|c| query_record(c, tenant, namespace, RecordKey::Id(experience_id)))
    }

    async fn by_source(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
    ) -> Result<Option<KeptRecord>, StoreError> {
        self.read_now(|c| query_record(c, tenant, namespace, RecordKey::Source(source)))
    }

    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &SearchAfter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let (tenant, namespace, after) = (tenant.to_owned(), namespace.clone(), after.clone());
        self.read(move |c| {
            let lifecycle = filter.lifecycle.map(Lifecycle::as_str);
            let platform = filter.platform.map(Platform::as_str);
            let level = filter.verification_level.map(VerificationLevel::as_str);
            let rows: Vec<(RecordColumns, Option<f64>)> = match filter.text.as_deref() {
                None => c
                    .prepare_cached(sql::SQLITE_SEARCH_RECORDS)?
                    .query_map(
                        params![
                            tenant,
                            namespace.as_str(),
                            lifecycle,
                            platform,
                            level,
                            filter.include_withdrawn,
                            after.experience_id,
                            limit as i64
                        ],
                        |r| Ok((record_at(r, 0)?, None)),
                    )?
                    .collect::<Result<_, _>>()?,
                Some(text) => {
                    let Some(query) = fts_query(text) else {
                        return Ok(Vec::new());
                    };
                    c.prepare_cached(sql::SQLITE_RANK_RECORDS)?
                        .query_map(
                            params![
                                tenant,
                                namespace.as_str(),
                                lifecycle,
                                platform,
                                level,
                                filter.include_withdrawn,
                                query,
                                after.score,
                                after.experience_id,
                                limit as i64
                            ],
                            |r| Ok((record_at(r, 0)?, Some(r.get(14)?))),
                        )?
                        .collect::<Result<_, _>>()?
                }
            };
            rows.into_iter()
                .map(|(columns, score)| {
                    Ok(SearchHit {
                        record: columns.into_row()?,
                        score,
                    })
                })
                .collect()
        })
        .await
    }

    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        let stream = praxis_domain::records::lifecycle::stream_of(source);
        self.read(move |c| {
            let events = c
                .prepare_cached(crate::ledger::sql::STREAM_EVENTS)?
                .query_map(
                    params![
                        tenant,
                        namespace.as_str(),
                        stream,
                        to_i64(after),
                        limit as i64
                    ],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            events
                .into_iter()
                .map(EventRow::into_verified_event)
                .collect()
        })
        .await
    }

    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        self.read_now(|c| query_automated_approval(c, tenant, namespace))
    }
}
