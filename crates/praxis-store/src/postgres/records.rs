//! Experience records on PostgreSQL, with their text in a `tsvector`.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use tokio_postgres::Row;

use super::ledger::PgRead;
use super::ledger::event_row;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;
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
        revision BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        lifecycle TEXT NOT NULL,
        review_status TEXT NOT NULL,
        review_mode TEXT,
        verification_level TEXT NOT NULL,
        platform TEXT NOT NULL,
        title TEXT NOT NULL,
        document TEXT NOT NULL,
        position BIGINT NOT NULL,
        withdrawal_reason TEXT,
        superseded_by TEXT,
        search tsvector NOT NULL,
        PRIMARY KEY (tenant_id, namespace, experience_id)
    );
    CREATE UNIQUE INDEX records_by_source ON records (tenant_id, namespace, source);
    CREATE INDEX records_search ON records USING GIN (search);
    CREATE TABLE record_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        automated_approval BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );";

/// Schema version 13: record text is indexed with the `english`
/// configuration (stemmed, so `rate-limit` finds "rate limiting"), and
/// every kept record is indexed again from its document's strings.
pub(super) const SCHEMA_V13: &str = "UPDATE records SET search = to_tsvector('english', \
    COALESCE((SELECT string_agg(v #>> '{}', E'\\n') \
    FROM jsonb_path_query(document::jsonb, 'strict $.** ? (@.type() == \"string\")') AS v), ''));";

fn record_at(r: &Row, at: usize) -> Result<RecordColumns, StoreError> {
    Ok(RecordColumns {
        experience_id: col(r, at)?,
        source: col(r, at + 1)?,
        revision: col(r, at + 2)?,
        sha256: col(r, at + 3)?,
        lifecycle: col(r, at + 4)?,
        review_status: col(r, at + 5)?,
        review_mode: col(r, at + 6)?,
        verification_level: col(r, at + 7)?,
        platform: col(r, at + 8)?,
        title: col(r, at + 9)?,
        document: col(r, at + 10)?,
        position: col(r, at + 11)?,
        withdrawal_reason: col(r, at + 12)?,
        superseded_by: col(r, at + 13)?,
    })
}

fn record_query(key: RecordKey<'_>) -> (&'static str, String) {
    match key {
        RecordKey::Id(id) => (sql::RECORD_BY_ID, id.to_owned()),
        RecordKey::Source(source) => (sql::RECORD_BY_SOURCE, source.to_owned()),
    }
}

impl RecordTx for PgTx<'_, '_> {
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<KeptRecord>, StoreError> {
        let (query, value) = record_query(key);
        let stmt = self.tx.prepare_cached(query).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &value]))
            .await?;
        row.map(|r| record_at(&r, 0)?.into_row()).transpose()
    }

    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &KeptRecord,
        search: &str,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(row.experience_id.clone()),
            Box::new(row.source.clone()),
            Box::new(to_i64(row.revision)),
            Box::new(row.sha256.clone()),
            Box::new(row.lifecycle.as_str()),
            Box::new(row.review_status.as_str()),
            Box::new(row.review_mode.map(ReviewMode::as_str)),
            Box::new(row.verification_level.as_str()),
            Box::new(row.platform.as_str()),
            Box::new(row.title.clone()),
            Box::new(document_text(&row.document)),
            Box::new(to_i64(row.position)),
            Box::new(row.withdrawal_reason.clone()),
            Box::new(row.superseded_by.clone()),
            Box::new(search.to_owned()),
        ];
        self.defer(sql::PG_UPSERT_RECORD, params).await
    }

    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let stmt = self.tx.prepare_cached(sql::RECORD_SETTINGS).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str()]))
            .await?;
        Ok(match row {
            Some(r) => col::<i64>(&r, 0)? == 1,
            None => false,
        })
    }

    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(i64::from(on)),
        ];
        self.defer(sql::UPSERT_RECORD_SETTINGS, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> RecordRead for PgRead<'_, C> {
    async fn all_records(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, RecordColumns)>, StoreError> {
        let rows = self.0.query(sql::RECORDS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, record_at(r, 1)?)))
            .collect()
    }

    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let rows = self
            .0
            .query(sql::RECORD_SETTINGS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, col::<i64>(r, 1)? == 1)))
            .collect()
    }
}

#[async_trait]
impl RecordReads for PostgresEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<KeptRecord>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                sql::RECORD_BY_ID,
                &[&tenant, &namespace.as_str(), &experience_id],
            )
            .await?;
        row.map(|r| record_at(&r, 0)?.into_row()).transpose()
    }

    async fn by_source(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
    ) -> Result<Option<KeptRecord>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                sql::RECORD_BY_SOURCE,
                &[&tenant, &namespace.as_str(), &source],
            )
            .await?;
        row.map(|r| record_at(&r, 0)?.into_row()).transpose()
    }

    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &SearchAfter,
        limit: usize,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let client = self.client().await?;
        let lifecycle = filter.lifecycle.map(Lifecycle::as_str);
        let platform = filter.platform.map(Platform::as_str);
        let level = filter.verification_level.map(VerificationLevel::as_str);
        let ns = namespace.as_str();
        let limit = limit as i64;
        let Some(text) = filter.text.as_deref() else {
            let rows = client
                .query(
                    sql::PG_SEARCH_RECORDS,
                    &[
                        &tenant,
                        &ns,
                        &lifecycle,
                        &platform,
                        &level,
                        &filter.include_withdrawn,
                        &after.experience_id,
                        &limit,
                    ],
                )
                .await?;
            return rows
                .iter()
                .map(|r| {
                    Ok(SearchHit {
                        record: record_at(r, 0)?.into_row()?,
                        score: None,
                    })
                })
                .collect();
        };
        // The words, not the text: plainto_tsquery then sees no syntax, and
        // both engines search for the same words.
        let words = query_words(text);
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let words = words.join(" ");
        let rows = client
            .query(
                sql::PG_RANK_RECORDS,
                &[
                    &tenant,
                    &ns,
                    &lifecycle,
                    &platform,
                    &level,
                    &filter.include_withdrawn,
                    &words,
                    &after.score,
                    &after.experience_id,
                    &limit,
                ],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SearchHit {
                    record: record_at(r, 0)?.into_row()?,
                    score: Some(col(r, 14)?),
                })
            })
            .collect()
    }

    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let client = self.client().await?;
        let stream = praxis_domain::records::lifecycle::stream_of(source);
        let rows = client
            .query(
                crate::ledger::sql::STREAM_EVENTS,
                &[
                    &tenant,
                    &namespace.as_str(),
                    &stream,
                    &to_i64(after),
                    &(limit as i64),
                ],
            )
            .await?;
        rows.iter()
            .map(|r| event_row(r)?.into_verified_event())
            .collect()
    }

    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(sql::RECORD_SETTINGS, &[&tenant, &namespace.as_str()])
            .await?;
        Ok(match row {
            Some(r) => col::<i64>(&r, 0)? == 1,
            None => false,
        })
    }
}
