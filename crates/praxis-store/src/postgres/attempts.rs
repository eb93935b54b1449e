//! The attempt ledger on PostgreSQL.

use std::collections::BTreeMap;

use async_trait::async_trait;
use futures_util::future::join;
use praxis_domain::attempts::{Assessment, CaseEntry, Disposition, Policy, Streak, StreakKey};
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use tokio_postgres::Row;

use super::ledger::{PgRead, event_row};
use super::pipeline::{Param, PgTx, refs};
use super::{PostgresEngine, col};
use crate::attempts::fold::{CaseKeyRow, StreakKeyRow};
use crate::attempts::read::{self, AttemptRead, assessed_key};
use crate::attempts::rows::{self, CaseRow, StreakColumns};
use crate::attempts::sql;
use crate::attempts::write::{AttemptTx, ObserveReads, StreakRow};
use crate::attempts::{ActionRef, AttemptReads, HistoryOf, HistoryPage};
use crate::error::StoreError;
use crate::ledger::rows::{self as ledger_rows, to_i64, to_u64};

/// Tables of the attempt ledger (schema version 2).
pub(super) const SCHEMA_V2: &str = "CREATE TABLE attempt_cases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        position BIGINT NOT NULL,
        revision TEXT,
        status TEXT NOT NULL,
        disposition TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        subject_obs BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, case_id, stage)
    );
    CREATE TABLE attempt_streaks (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        grain BIGINT NOT NULL,
        revision TEXT NOT NULL,
        consecutive BIGINT NOT NULL,
        completed BIGINT NOT NULL,
        last_disposition TEXT,
        last_at BIGINT,
        last_obs BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, grain, revision)
    );
    CREATE TABLE attempt_counts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        disposition TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, disposition)
    );
    CREATE TABLE attempt_policies (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );";

/// The `attempt_cases` value columns starting at column `at`.
fn case_row(r: &Row, at: usize) -> Result<CaseRow, StoreError> {
    Ok(CaseRow {
        case_id: col(r, at)?,
        stage: col(r, at + 1)?,
        position: col(r, at + 2)?,
        revision: col(r, at + 3)?,
        status: col(r, at + 4)?,
        disposition: col(r, at + 5)?,
        recorded_at: col(r, at + 6)?,
        subject_obs: col(r, at + 7)?,
    })
}

/// The `attempt_streaks` value columns starting at column `at`.
fn streak_row(r: &Row, at: usize) -> Result<StreakColumns, StoreError> {
    Ok(StreakColumns {
        consecutive: col(r, at)?,
        completed: col(r, at + 1)?,
        last_disposition: col(r, at + 2)?,
        last_at: col(r, at + 3)?,
        last_obs: col(r, at + 4)?,
    })
}

fn streak_params(tenant: &str, key: &StreakRow<'_>) -> Vec<Param> {
    vec![
        Box::new(tenant.to_owned()),
        Box::new(key.namespace.0.clone()),
        Box::new(key.subject.to_owned()),
        Box::new(key.action.to_owned()),
        Box::new(key.grain),
        Box::new(key.revision.to_owned()),
    ]
}

impl AttemptTx for PgTx<'_, '_> {
    async fn case_entries(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        case: Option<&str>,
    ) -> Result<Vec<CaseEntry>, StoreError> {
        let ns = namespace.as_str();
        let tx = self.tx;
        let rows = if let Some(c) = case {
            let stmt = tx.prepare_cached(sql::ATTEMPT_CASE).await?;
            self.answer(tx.query(&stmt, &[&tenant, &ns, &subject, &action, &c]))
                .await?
        } else {
            let stmt = tx.prepare_cached(sql::ATTEMPT_CASES_OF_PAIR).await?;
            self.answer(tx.query(&stmt, &[&tenant, &ns, &subject, &action]))
                .await?
        };
        rows.iter().map(|r| case_row(r, 0)?.into_entry()).collect()
    }

    async fn insert_case(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        e: &CaseEntry,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(subject.to_owned()),
            Box::new(action.to_owned()),
            Box::new(e.case_id.clone()),
            Box::new(e.stage.as_str()),
            Box::new(to_i64(e.position)),
            Box::new(e.revision.clone()),
            Box::new(e.status.as_str()),
            Box::new(e.disposition.as_str()),
            Box::new(e.recorded_at.micros()),
            Box::new(to_i64(e.subject_observations)),
        ];
        self.defer(sql::INSERT_ATTEMPT_CASE, params).await
    }

    async fn observe_reads(
        &mut self,
        tenant: &str,
        case: &str,
        [a, r]: [&StreakRow<'_>; 2],
        stream: Option<&str>,
    ) -> Result<ObserveReads, StoreError> {
        let cases = self.tx.prepare_cached(sql::ATTEMPT_CASE).await?;
        let streak = self.tx.prepare_cached(sql::ATTEMPT_STREAK).await?;
        let head = self
            .tx
            .prepare_cached(crate::ledger::sql::STREAM_HEAD)
            .await?;
        let (pa, pr) = (streak_params(tenant, a), streak_params(tenant, r));
        let ns = a.namespace.as_str();
        let tx = self.tx;
        // Pending writes, the case lookup, both streaks and the stream head:
        // one pipeline, one round trip.
        let reads = async {
            let head_read = async {
                match stream {
                    Some(s) => tx.query_opt(&head, &[&tenant, &ns, &s]).await,
                    None => Ok(None),
                }
            };
            let ((c, sa), (sr, h)) = join(
                join(
                    tx.query(&cases, &[&tenant, &ns, &a.subject, &a.action, &case]),
                    tx.query_opt(&streak, &refs(&pa)),
                ),
                join(tx.query_opt(&streak, &refs(&pr)), head_read),
            )
            .await;
            Ok((c?, sa?, sr?, h?))
        };
        let (rows, sa, sr, h) = self.answer(reads).await?;
        let entries = rows
            .iter()
            .map(|r| case_row(r, 0)?.into_entry())
            .collect::<Result<Vec<_>, _>>()?;
        let streak_of = |row: Option<Row>| {
            row.map_or(Ok(Streak::default()), |r| streak_row(&r, 0)?.into_streak())
        };
        let head = h
            .map(|r| {
                Ok::<_, StoreError>((
                    to_u64(col(&r, 0)?)?,
                    ledger_rows::digest(col::<&[u8]>(&r, 1)?)?,
                ))
            })
            .transpose()?;
        Ok(ObserveReads {
            case: entries,
            streaks: [streak_of(sa)?, streak_of(sr)?],
            head,
        })
    }

    async fn put_streak(
        &mut self,
        tenant: &str,
        key: &StreakRow<'_>,
        s: &Streak,
    ) -> Result<(), StoreError> {
        let mut params = streak_params(tenant, key);
        params.push(Box::new(to_i64(s.consecutive)));
        params.push(Box::new(to_i64(s.completed)));
        params.push(Box::new(s.last_disposition.map(Disposition::as_str)));
        params.push(Box::new(s.last_at.map(Timestamp::micros)));
        params.push(Box::new(to_i64(s.last_observations)));
        self.defer(sql::UPSERT_ATTEMPT_STREAK, params).await
    }

    async fn add_count(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        disposition: Disposition,
        n: u64,
    ) -> Result<(), StoreError> {
        self.defer(
            sql::ADD_ATTEMPT_COUNT,
            vec![
                Box::new(tenant.to_owned()),
                Box::new(namespace.0.clone()),
                Box::new(disposition.as_str()),
                Box::new(to_i64(n)),
            ],
        )
        .await
    }

    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        let ns = namespace.as_str();
        let tx = self.tx;
        let stmt = tx.prepare_cached(sql::ATTEMPT_POLICY).await?;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant, &ns])).await?;
        row.map(|r| rows::decode_policy(col(&r, 0)?)).transpose()
    }

    async fn put_policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        policy: &str,
    ) -> Result<(), StoreError> {
        self.defer(
            sql::UPSERT_ATTEMPT_POLICY,
            vec![
                Box::new(tenant.to_owned()),
                Box::new(namespace.0.clone()),
                Box::new(policy.to_owned()),
            ],
        )
        .await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> AttemptRead for PgRead<'_, C> {
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        let stmt = self.0.prepare_cached(sql::ATTEMPT_POLICY).await?;
        let row = self
            .0
            .query_opt(&stmt, &[&tenant, &namespace.as_str()])
            .await?;
        row.map(|r| rows::decode_policy(col(&r, 0)?)).transpose()
    }

    async fn subject_observations(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
    ) -> Result<u64, StoreError> {
        let stmt = self
            .0
            .prepare_cached(crate::ledger::sql::STREAM_HEAD)
            .await?;
        let stream = praxis_domain::attempts::stream_of(subject);
        let row = self
            .0
            .query_opt(&stmt, &[&tenant, &namespace.as_str(), &stream])
            .await?;
        row.map_or(Ok(0), |r| to_u64(col(&r, 0)?))
    }

    async fn streaks(
        &mut self,
        tenant: &str,
        keys: &[StreakRow<'_>],
    ) -> Result<Vec<Streak>, StoreError> {
        // One statement for every candidate: the keys travel as parallel
        // arrays and come back tagged with their index. Eight pipelined
        // point queries cost the server eight executions; this costs one.
        let stmt = self
            .0
            .prepare_cached(sql::PG_ATTEMPT_STREAKS_OF_KEYS)
            .await?;
        let namespaces: Vec<&str> = keys.iter().map(|k| k.namespace.as_str()).collect();
        let subjects: Vec<&str> = keys.iter().map(|k| k.subject).collect();
        let actions: Vec<&str> = keys.iter().map(|k| k.action).collect();
        let grains: Vec<i64> = keys.iter().map(|k| k.grain).collect();
        let revisions: Vec<&str> = keys.iter().map(|k| k.revision).collect();
        let rows = self
            .0
            .query(
                &stmt,
                &[
                    &tenant,
                    &namespaces,
                    &subjects,
                    &actions,
                    &grains,
                    &revisions,
                ],
            )
            .await?;
        let mut streaks = vec![Streak::default(); keys.len()];
        for row in rows {
            let at: i64 = col(&row, 0)?;
            let slot = usize::try_from(at - 1)
                .ok()
                .and_then(|i| streaks.get_mut(i))
                .ok_or_else(|| StoreError::inconsistent(format!("streak key index {at}")))?;
            *slot = streak_row(&row, 1)?.into_streak()?;
        }
        Ok(streaks)
    }

    async fn assessment_reads(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: &[ActionRef],
    ) -> Result<(Policy, Vec<Streak>), StoreError> {
        // One round trip: the policy query and a read of both grains of
        // every candidate are pipelined, and the policy then picks a row.
        // A round trip on loopback costs about as much as the whole read.
        let both = [
            Policy::default(),
            Policy {
                streak_key: StreakKey::ActionRevision,
                ..Policy::default()
            },
        ];
        let keys: Vec<StreakRow<'_>> = both
            .iter()
            .flat_map(|p| {
                actions
                    .iter()
                    .map(move |a| assessed_key(p, namespace, subject, a))
            })
            .collect();
        let mut streaks_read = PgRead(self.0);
        let mut policy_read = PgRead(self.0);
        let (policy, streaks) = join(
            policy_read.policy(tenant, namespace),
            streaks_read.streaks(tenant, &keys),
        )
        .await;
        let policy = policy?.unwrap_or_default();
        let mut streaks = streaks?;
        let chosen = match policy.streak_key {
            StreakKey::Action => streaks.drain(..actions.len()).collect(),
            StreakKey::ActionRevision => streaks.split_off(actions.len()),
        };
        Ok((policy, chosen))
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
            HistoryOf::Subject(subject) => {
                let stream = praxis_domain::attempts::stream_of(subject);
                self.0
                    .query(
                        crate::ledger::sql::STREAM_EVENTS,
                        &[&tenant, &ns, &stream, &after, &limit],
                    )
                    .await?
            }
            HistoryOf::Pair(subject, action) => {
                self.0
                    .query(
                        sql::PAIR_EVENTS,
                        &[&tenant, &ns, subject, action, &after, &limit],
                    )
                    .await?
            }
            HistoryOf::Namespace => {
                self.0
                    .query(
                        sql::NAMESPACE_ATTEMPT_EVENTS,
                        &[&tenant, &ns, &after, &limit],
                    )
                    .await?
            }
        };
        rows.iter()
            .map(|r| event_row(r)?.into_verified_event())
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
        let rows = match (subject, action) {
            (Some(s), Some(a)) => {
                self.0
                    .query(sql::ATTEMPT_COUNTS_OF_PAIR, &[&tenant, &ns, &s, &a])
                    .await?
            }
            (Some(s), None) => {
                self.0
                    .query(sql::ATTEMPT_COUNTS_OF_SUBJECT, &[&tenant, &ns, &s])
                    .await?
            }
            _ => self.0.query(sql::ATTEMPT_COUNTS, &[&tenant, &ns]).await?,
        };
        rows.iter()
            .map(|r| rows::count_row((col(r, 0)?, col(r, 1)?)))
            .collect()
    }

    async fn all_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_CASES_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    col(r, 0)?,
                    col(r, 1)?,
                    col(r, 2)?,
                    case_row(r, 3)?.into_entry()?,
                ))
            })
            .collect()
    }

    async fn all_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_STREAKS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| {
                let streak = streak_row(r, 5)?.into_streak()?;
                Ok((
                    col(r, 0)?,
                    col(r, 1)?,
                    col(r, 2)?,
                    col(r, 3)?,
                    col(r, 4)?,
                    streak,
                ))
            })
            .collect()
    }

    async fn all_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_COUNTS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| {
                let (d, n) = rows::count_row((col(r, 1)?, col(r, 2)?))?;
                Ok((col(r, 0)?, d, n))
            })
            .collect()
    }

    async fn all_policies(&mut self, tenant: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_POLICIES_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(|r| Ok((col(r, 0)?, col(r, 1)?))).collect()
    }
}

#[async_trait]
impl AttemptReads for PostgresEngine {
    async fn policy(&self, tenant: &str, namespace: &Namespace) -> Result<Policy, StoreError> {
        let client = self.client().await?;
        let policy = PgRead(&client).policy(tenant, namespace).await?;
        Ok(policy.unwrap_or_default())
    }

    async fn assess(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError> {
        // Autocommit reads: each streak row is written whole in one
        // transaction, and a policy change racing an assessment may apply
        // to either side of it, as it would a moment later.
        let client = self.client().await?;
        read::assess(
            &mut PgRead(&client),
            tenant,
            namespace,
            subject,
            &actions,
            now,
        )
        .await
    }

    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        let client = self.client().await?;
        read::history(&mut PgRead(&client), tenant, namespace, &of, after, limit).await
    }

    async fn counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        let client = self.client().await?;
        read::counts(&mut PgRead(&client), tenant, namespace, subject, action).await
    }
}
