//! The skill registry on SQLite.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
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
        size INTEGER NOT NULL,
        summary TEXT NOT NULL,
        provenance TEXT NOT NULL,
        withdrawn_at TEXT,
        withdrawal_reason TEXT,
        position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, name, version)
    ) STRICT, WITHOUT ROWID;";

fn skill_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<SkillColumns> {
    Ok(SkillColumns {
        name: r.get(at)?,
        version: r.get(at + 1)?,
        sha256: r.get(at + 2)?,
        size: r.get(at + 3)?,
        summary: r.get(at + 4)?,
        provenance: r.get(at + 5)?,
        withdrawn_at: r.get(at + 6)?,
        withdrawal_reason: r.get(at + 7)?,
        position: r.get(at + 8)?,
    })
}

fn query_skill(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
    name: &str,
    version: &str,
) -> Result<Option<PublishedSkill>, StoreError> {
    conn.prepare_cached(sql::SKILL_RELEASE)?
        .query_row(params![tenant, namespace.as_str(), name, version], |r| {
            skill_at(r, 0)
        })
        .optional()?
        .map(SkillColumns::into_row)
        .transpose()
}

impl SkillTx for SqliteTx<'_> {
    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<PublishedSkill>, StoreError> {
        query_skill(self.conn, tenant, namespace, name, version)
    }

    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &PublishedSkill,
    ) -> Result<(), StoreError> {
        let r = &row.release;
        let w = row.withdrawal.as_ref();
        self.conn
            .prepare_cached(sql::UPSERT_SKILL_RELEASE)?
            .execute(params![
                tenant,
                namespace.as_str(),
                r.name,
                r.version,
                r.sha256,
                to_i64(r.size),
                r.summary,
                r.provenance.to_string(),
                w.map(|w| w.at.as_str()),
                w.map(|w| w.reason.as_str()),
                to_i64(row.position),
            ])?;
        Ok(())
    }
}

impl SkillRead for SqliteRead<'_> {
    async fn all_skills(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, PublishedSkill)>, StoreError> {
        let mut stmt = self.0.prepare(sql::SKILL_RELEASES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, skill_at(r, 1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, c)| c.into_row().map(|row| (ns, row)))
            .collect()
    }
}

#[async_trait]
impl SkillReads for SqliteEngine {
    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<PublishedSkill>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        self.read(move |c| {
            let rows = c
                .prepare_cached(sql::SKILL_RELEASES)?
                .query_map(params![tenant, namespace.as_str()], |r| skill_at(r, 0))?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(SkillColumns::into_row).collect()
        })
        .await
    }
}
