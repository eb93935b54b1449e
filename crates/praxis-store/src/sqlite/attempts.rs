//! The attempt ledger on SQLite.

use std::collections::BTreeMap;

use async_trait::async_trait;
use praxis_domain::attempts::{Assessment, CaseEntry, Disposition, Policy, Streak};
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx, event_row};
use crate::attempts::fold::{CaseKeyRow, StreakKeyRow};
use crate::attempts::read::{self, AttemptRead};
use crate::attempts::rows::{self, CaseRow, StreakColumns};
use crate::attempts::sql;
use crate::attempts::write::{AttemptTx, ObserveReads, StreakRow};
use crate::attempts::{ActionRef, AttemptReads, HistoryOf, HistoryPage};
use crate::error::StoreError;
use crate::ledger::LedgerTx;
use crate::ledger::rows::{EventRow, to_i64, to_u64};

/// Tables of the attempt ledger (schema version 2).
pub(super) const SCHEMA_V2: &str = "CREATE TABLE attempt_cases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        position INTEGER NOT NULL,
        revision TEXT,
        status TEXT NOT NULL,
        disposition TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        subject_obs INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, case_id, stage)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_streaks (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        grain INTEGER NOT NULL,
        revision TEXT NOT NULL,
        consecutive INTEGER NOT NULL,
        completed INTEGER NOT NULL,
        last_disposition TEXT,
        last_at INTEGER,
        last_obs INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, grain, revision)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_counts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        disposition TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, disposition)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_policies (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;";

/// The `attempt_cases` value columns starting at column `at`.
fn case_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<CaseRow> {
    Ok(CaseRow {
        case_id: r.get(at)?,
        stage: r.get(at + 1)?,
        position: r.get(at + 2)?,
        revision: r.get(at + 3)?,
        status: r.get(at + 4)?,
        disposition: r.get(at + 5)?,
        recorded_at: r.get(at + 6)?,
        subject_obs: r.get(at + 7)?,
    })
}

fn case_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<CaseRow> {
    case_at(r, 0)
}

/// The `attempt_streaks` value columns starting at column `at`.
fn streak_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<StreakColumns> {
    Ok(StreakColumns {
        consecutive: r.get(at)?,
        completed: r.get(at + 1)?,
        last_disposition: r.get(at + 2)?,
        last_at: r.get(at + 3)?,
        last_obs: r.get(at + 4)?,
    })
}

fn query_streak(
    conn: &Connection,
    tenant: &str,
    key: &StreakRow<'_>,
) -> Result<Streak, StoreError> {
    conn.prepare_cached(sql::ATTEMPT_STREAK)?
        .query_row(
            params![
                tenant,
                key.namespace.as_str(),
                key.subject,
                key.action,
                key.grain,
                key.revision
            ],
            |r| streak_at(r, 0),
        )
        .optional()?
        .map_or(Ok(Streak::default()), StreakColumns::into_streak)
}

impl AttemptTx for SqliteTx<'_> {
    async fn case_entries(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        case: Option<&str>,
    ) -> Result<Vec<CaseEntry>, StoreError> {
        let ns = namespace.as_str();
        let rows = match case {
            Some(c) => self
                .conn
                .prepare_cached(sql::ATTEMPT_CASE)?
                .query_map(params![tenant, ns, subject, action, c], case_entry)?
                .collect::<Result<Vec<_>, _>>()?,
            None => self
                .conn
                .prepare_cached(sql::ATTEMPT_CASES_OF_PAIR)?
                .query_map(params![tenant, ns, subject, action], case_entry)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter().map(CaseRow::into_entry).collect()
    }

    async fn insert_case(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        e: &CaseEntry,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_ATTEMPT_CASE)?
            .execute(params![
                tenant,
                namespace.as_str(),
                subject,
                action,
                e.case_id,
                e.stage.as_str(),
                to_i64(e.position),
                e.revision,
                e.status.as_str(),
                e.disposition.as_str(),
                e.recorded_at.micros(),
                to_i64(e.subject_observations),
            ])?;
        Ok(())
    }

    async fn observe_reads(
        &mut self,
        tenant: &str,
        case: &str,
        [a, r]: [&StreakRow<'_>; 2],
        stream: Option<&str>,
    ) -> Result<ObserveReads, StoreError> {
        let entries = self
            .case_entries(tenant, a.namespace, a.subject, a.action, Some(case))
            .await?;
        let head = match stream {
            Some(s) => self.stream_head(tenant, a.namespace, s).await?,
            None => None,
        };
        Ok(ObserveReads {
            case: entries,
            streaks: [
                query_streak(self.conn, tenant, a)?,
                query_streak(self.conn, tenant, r)?,
            ],
            head,
        })
    }

    async fn put_streak(
        &mut self,
        tenant: &str,
        key: &StreakRow<'_>,
        s: &Streak,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_ATTEMPT_STREAK)?
            .execute(params![
                tenant,
                key.namespace.as_str(),
                key.subject,
                key.action,
                key.grain,
                key.revision,
                to_i64(s.consecutive),
                to_i64(s.completed),
                s.last_disposition.map(Disposition::as_str),
                s.last_at.map(Timestamp::micros),
                to_i64(s.last_observations),
            ])?;
        Ok(())
    }

    async fn add_count(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        disposition: Disposition,
        n: u64,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::ADD_ATTEMPT_COUNT)?
            .execute(params![
                tenant,
                namespace.as_str(),
                disposition.as_str(),
                to_i64(n)
            ])?;
        Ok(())
    }

    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        SqliteRead(self.conn).policy(tenant, namespace).await
    }

    async fn put_policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        policy: &str,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_ATTEMPT_POLICY)?
            .execute(params![tenant, namespace.as_str(), policy])?;
        Ok(())
    }
}

impl AttemptRead for SqliteRead<'_> {
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        let text: Option<String> = self
            .0
            .prepare_cached(sql::ATTEMPT_POLICY)?
            .query_row(params![tenant, namespace.as_str()], |r| r.get(0))
            .optional()?;
        text.as_deref().map(rows::decode_policy).transpose()
    }

    async fn subject_observations(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
    ) -> Result<u64, StoreError> {
        let stream = praxis_domain::attempts::stream_of(subject);
        let seq: Option<i64> = self
            .0
            .prepare_cached(crate::ledger::sql::STREAM_HEAD)?
            .query_row(params![tenant, namespace.as_str(), stream], |r| r.get(0))
            .optional()?;
        seq.map_or(Ok(0), to_u64)
    }

    async fn streaks(
        &mut self,
        tenant: &str,
        keys: &[StreakRow<'_>],
    ) -> Result<Vec<Streak>, StoreError> {
        keys.iter()
            .map(|k| query_streak(self.0, tenant, k))
            .collect()
    }

    async fn history(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        of: &HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let ns = namespace.as_str();
        let (after, limit) = (to_i64(after), limit as i64);
        let rows = match of {
            HistoryOf::Subject(subject) => self
                .0
                .prepare_cached(crate::ledger::sql::STREAM_EVENTS)?
                .query_map(
                    params![
                        tenant,
                        ns,
                        praxis_domain::attempts::stream_of(subject),
                        after,
                        limit
                    ],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?,
            HistoryOf::Pair(subject, action) => self
                .0
                .prepare_cached(sql::PAIR_EVENTS)?
                .query_map(
                    params![tenant, ns, subject, action, after, limit],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?,
            HistoryOf::Namespace => self
                .0
                .prepare_cached(sql::NAMESPACE_ATTEMPT_EVENTS)?
                .query_map(params![tenant, ns, after, limit], event_row)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter()
            .map(EventRow::into_verified_event)
            .collect()
    }

    async fn counts(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<Vec<(Disposition, u64)>, StoreError> {
        let ns = namespace.as_str();
        let map = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?));
        let rows = match (subject, action) {
            (Some(s), Some(a)) => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS_OF_PAIR)?
                .query_map(params![tenant, ns, s, a], map)?
                .collect::<Result<Vec<_>, _>>()?,
            (Some(s), None) => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS_OF_SUBJECT)?
                .query_map(params![tenant, ns, s], map)?
                .collect::<Result<Vec<_>, _>>()?,
            _ => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS)?
                .query_map(params![tenant, ns], map)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter().map(rows::count_row).collect()
    }

    async fn all_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_CASES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    case_at(r, 3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, s, a, row)| Ok((ns, s, a, row.into_entry()?)))
            .collect()
    }

    async fn all_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_STREAKS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    streak_at(r, 5)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, s, a, g, rev, cols)| Ok((ns, s, a, g, rev, cols.into_streak()?)))
            .collect()
    }

    async fn all_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_COUNTS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, d, n)| {
                let (d, n) = rows::count_row((d, n))?;
                Ok((ns, d, n))
            })
            .collect()
    }

    async fn all_policies(&mut self, tenant: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_POLICIES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

#[async_trait]
impl AttemptReads for SqliteEngine {
    async fn policy(&self, tenant: &str, namespace: &Namespace) -> Result<Policy, StoreError> {
        self.read_now(|c| {
            let policy = pollster::block_on(SqliteRead(c).policy(tenant, namespace))?;
            Ok(policy.unwrap_or_default())
        })
    }

    async fn assess(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError> {
        // A point read: one policy row and two streak rows per candidate.
        self.read_now(|c| {
            // One read transaction: the policy and the streaks agree.
            c.prepare_cached("BEGIN")?.execute([])?;
            let result = pollster::block_on(read::assess(
                &mut SqliteRead(c),
                tenant,
                namespace,
                subject,
                &actions,
                now,
            ));
            c.prepare_cached("COMMIT")?.execute([])?;
            result
        })
    }

    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        self.read(move |c| {
            pollster::block_on(read::history(
                &mut SqliteRead(c),
                &tenant,
                &namespace,
                &of,
                after,
                limit,
            ))
        })
        .await
    }

    async fn counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        let (subject, action) = (subject.map(str::to_owned), action.map(str::to_owned));
        self.read(move |c| {
            pollster::block_on(read::counts(
                &mut SqliteRead(c),
                &tenant,
                &namespace,
                subject.as_deref(),
                action.as_deref(),
            ))
        })
        .await
    }
}
