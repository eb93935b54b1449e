//! Schema migrations of the SQLite engine, one table set per concept.

use rusqlite::Connection;

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

/// Brings the store to [`SCHEMA_VERSION`]; refuses a store from a newer build.
pub(super) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_to(conn, SCHEMA_VERSION)
}

/// Brings the store to `to`.
fn migrate_to(conn: &mut Connection, to: i64) -> Result<(), StoreError> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    for (version, tables) in MIGRATIONS.iter().filter(|(v, _)| *v > found && *v <= to) {
        for sql in *tables {
            tx.execute_batch(sql)?;
        }
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Version 7 moves every attempt's head out of its row, unchanged.
    #[test]
    fn heads_move_to_their_own_table() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Connection::open(dir.path().join("praxis.db")).unwrap();
        migrate_to(&mut conn, 6).unwrap();
        conn.execute_batch(
            "INSERT INTO experience_attempts VALUES ('t', 'ns', 'a1', '{}', 'd', 1, 3, \
             '{\"revision\":3}', 'e2', 'c', 's', 1, 1, 'r'); \
             INSERT INTO experience_attempts VALUES ('t', 'ns', 'a2', '{}', 'd', 1, 1, \
             '{\"revision\":1}', NULL, 'c', 's', 2, 2, 'r'); \
             INSERT INTO experience_events VALUES ('t', 'ns', 'a1', 'e2', 3, '{}', 'd', \
             'c', 's', 3, 3, 'r');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let heads: Vec<(String, i64, String, Option<String>)> = conn
            .prepare("SELECT id, revision, state, last_event_id FROM experience_heads ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
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
        let columns: i64 = conn
            .query_row(
                "SELECT count(*) FROM pragma_table_info('experience_attempts') \
                 WHERE name IN ('revision', 'state', 'last_event_id')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(columns, 0);
        // Events move into a rowid table whose unique index still refuses a
        // second row under one event id.
        let event: (i64, i64) = conn
            .query_row(
                "SELECT revision, position FROM experience_events WHERE attempt_id = 'a1' \
                 AND event_id = 'e2'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(event, (3, 3));
        let again = conn.execute(
            "INSERT INTO experience_events VALUES ('t', 'ns', 'a1', 'e2', 4, '{}', 'd', \
             'c', 's', 4, 4, 'r')",
            [],
        );
        assert!(again.is_err(), "a duplicate event id must be refused");
    }

    /// Version 13 indexes the records an older store kept, stemmed.
    #[test]
    fn kept_records_are_indexed_again_with_stemming() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Connection::open(dir.path().join("praxis.db")).unwrap();
        migrate_to(&mut conn, 10).unwrap();
        conn.execute_batch(
            "INSERT INTO records VALUES ('t', 'ns', 'exp-a', 'key:a', 1, 'd', 'candidate', \
             'pending', NULL, 'self-observed', 'linux', 'A title', \
             '{\"symptom\":{\"signals\":[\"rate limiting of cold-starts\"]},\"n\":3}', 1, NULL, NULL); \
             INSERT INTO records_fts (rowid, body) SELECT rowid, 'unstemmed' FROM records;",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let found = |q: &str| -> i64 {
            conn.query_row(
                "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?1",
                [q],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(found("\"rate\" \"limit\""), 1);
        assert_eq!(found("\"cold\" \"start\""), 1);
        assert_eq!(found("\"unstemmed\""), 0);
    }
}
