//! The skill registry on PostgreSQL.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use tokio_postgres::Row;

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;
use crate::skills::rows::SkillColumns;
use crate::skills::sql;
use crate::skills::{SkillRead, SkillReads, SkillTx};
use praxis_domain::skills::PublishedSkill;

/// The skill registry's table (schema version 3).
pub(super) const SCHEMA_V3: &str = "CREATE TABLE skill_releases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size BIGINT NOT NULL,
        summary TEXT NOT NULL,
        provenance TEXT NOT NULL,
        withdrawn_at TEXT,
        withdrawal_reason TEXT,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, name, version)
    );";

fn skill_at(r: &Row, at: usize) -> Result<SkillColumns, StoreError> {
    Ok(SkillColumns {
        name: col(r, at)?,
        version: col(r, at + 1)?,
        sha256: col(r, at + 2)?,
        size: col(r, at + 3)?,
        summary: col(r, at + 4)?,
        provenance: col(r, at + 5)?,
        withdrawn_at: col(r, at + 6)?,
        withdrawal_reason: col(r, at + 7)?,
        position: col(r, at + 8)?,
    })
}

impl SkillTx for PgTx<'_, '_> {
    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<PublishedSkill>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::SKILL_RELEASE).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &name, &version]))
            .await?;
        row.map(|r| skill_at(&r, 0)?.into_row()).transpose()
    }

    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &PublishedSkill,
    ) -> Result<(), StoreError> {
        let r = &row.release;
        let w = row.withdrawal.as_ref();
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(r.name.clone()),
            Box::new(r.version.clone()),
            Box::new(r.sha256.clone()),
            Box::new(to_i64(r.size)),
            Box::new(r.summary.clone()),
            Box::new(r.provenance.to_string()),
            Box::new(w.map(|w| w.at.clone())),
            Box::new(w.map(|w| w.reason.clone())),
            Box::new(to_i64(row.position)),
        ];
        self.defer(sql::UPSERT_SKILL_RELEASE, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> SkillRead for PgRead<'_, C> {
    async fn all_skills(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, PublishedSkill)>, StoreError> {
        let rows = self
            .0
            .query(sql::SKILL_RELEASES_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, skill_at(r, 1)?.into_row()?)))
            .collect()
    }
}

#[async_trait]
impl SkillReads for PostgresEngine {
    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<PublishedSkill>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(sql::SKILL_RELEASES, &[&tenant, &namespace.as_str()])
            .await?;
        rows.iter().map(|r| skill_at(r, 0)?.into_row()).collect()
    }
}
