//! Schema migrations of the PostgreSQL engine, one table set per concept.

use crate::SCHEMA_VERSION;
use crate::error::StoreError;

/// Each schema version with the concepts' tables it adds, in order.
const MIGRATIONS: &[(i64, &[&str])] = &[
    (1, &[super::ledger::SCHEMA_V1, super::auth::SCHEMA_V1]),
    (2, &[super::attempts::SCHEMA_V2]),
    (3, &[super::records::SCHEMA_V3, super::skills::SCHEMA_V3]),
    (4, &[super::ledger::SCHEMA_V4]),
    (5, &[super::learning::SCHEMA_V5]),
    (6, &[super::learning::SCHEMA_V6]),
    (7, &[super::learning::SCHEMA_V7]),
    (8, &[super::procedures::SCHEMA_V8]),
    (9, &[super::memory::SCHEMA_V9]),
    (10, &[super::proposals::SCHEMA_V10]),
    (11, &[super::readiness::SCHEMA_V11]),
    (12, &[super::migrate::SCHEMA_V12]),
    (13, &[super::records::SCHEMA_V13]),
];

/// Brings the store to [`SCHEMA_VERSION`]; refuses a store from a newer
/// build. An advisory lock serializes concurrent first opens.
pub(super) async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    migrate_to(client, SCHEMA_VERSION).await
}

/// Brings the store to `to`.
async fn migrate_to(client: &mut deadpool_postgres::Object, to: i64) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    // Serializes concurrent first opens of the same database.
    tx.execute("SELECT pg_advisory_xact_lock(7072617869)", &[])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS praxis_schema (version BIGINT NOT NULL)")
        .await?;
    let found: i64 = super::col(
        &tx.query_one("SELECT COALESCE(MAX(version), 0) FROM praxis_schema", &[])
            .await?,
        0,
    )?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for (version, tables) in MIGRATIONS.iter().filter(|(v, _)| *v > found && *v <= to) {
        for sql in *tables {
            tx.batch_execute(sql).await?;
        }
        tx.execute(
            "INSERT INTO praxis_schema (version) VALUES ($1)",
            &[version],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Version 7 moves every attempt's head out of its row, unchanged.
    #[tokio::test]
    async fn heads_move_to_their_own_table() {
        let url = praxis_testkit::postgres_url();
        let config: tokio_postgres::Config = url.parse().unwrap();
        let manager = deadpool_postgres::Manager::new(config, tokio_postgres::NoTls);
        let pool = deadpool_postgres::Pool::builder(manager).build().unwrap();
        let mut client = pool.get().await.unwrap();
        migrate_to(&mut client, 6).await.unwrap();
        client
            .batch_execute(
                "INSERT INTO experience_attempts VALUES ('t', 'ns', 'a1', '{}', 'd', 1, 3, \
                 '{\"revision\":3}', 'e2', 'c', 's', 1, 1, 'r'); \
                 INSERT INTO experience_attempts VALUES ('t', 'ns', 'a2', '{}', 'd', 1, 1, \
                 '{\"revision\":1}', NULL, 'c', 's', 2, 2, 'r');",
            )
            .await
            .unwrap();
        migrate(&mut client).await.unwrap();
        let heads: Vec<(String, i64, String, Option<String>)> = client
            .query(
                "SELECT id, revision, state, last_event_id FROM experience_heads ORDER BY id",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
            .collect();
        assert_eq!(
            heads,
            [
                (
                    "a1".into(),
                    3,
                    r#"{"revision":3}"#.into(),
                    Some("e2".into())
                ),
                ("a2".into(), 1, r#"{"revision":1}"#.into(), None),
            ]
        );
        let columns: i64 = client
            .query_one(
                "SELECT count(*) FROM information_schema.columns \
                 WHERE table_name = 'experience_attempts' \
                 AND column_name IN ('revision', 'state', 'last_event_id')",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(columns, 0);
    }

    /// Version 13 indexes the records an older store kept with `english`.
    #[tokio::test]
    async fn kept_records_are_indexed_again_with_stemming() {
        let url = praxis_testkit::postgres_url();
        let config: tokio_postgres::Config = url.parse().unwrap();
        let manager = deadpool_postgres::Manager::new(config, tokio_postgres::NoTls);
        let pool = deadpool_postgres::Pool::builder(manager).build().unwrap();
        let mut client = pool.get().await.unwrap();
        migrate_to(&mut client, 10).await.unwrap();
        client
            .batch_execute(
                "INSERT INTO records VALUES ('t', 'ns', 'exp-a', 'key:a', 1, 'd', 'candidate', \
                 'pending', NULL, 'self-observed', 'linux', 'A title', \
                 '{\"symptom\":{\"signals\":[\"rate limiting of cold-starts\"]},\"n\":3}', 1, \
                 NULL, NULL, to_tsvector('simple', 'unstemmed'));",
            )
            .await
            .unwrap();
        migrate(&mut client).await.unwrap();
        let found = |q: &'static str| {
            let client = &client;
            async move {
                client
                    .query_one(
                        "SELECT count(*) FROM records WHERE search @@ plainto_tsquery('english', $1)",
                        &[&q],
                    )
                    .await
                    .unwrap()
                    .get::<_, i64>(0)
            }
        };
        assert_eq!(found("rate limit").await, 1);
        assert_eq!(found("cold start").await, 1);
        assert_eq!(found("unstemmed").await, 0);
    }
}
