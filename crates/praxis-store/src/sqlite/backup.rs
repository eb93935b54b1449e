//! The SQLite side of [`crate::backup`]: the online backup API over one
//! read snapshot, and restore into an empty data directory.

use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OptionalExtension as _};

use super::snapshot::{check_copy, open_read_only, schema_version};
use super::{DB_FILE, lock_data_dir, migrations};
use crate::SCHEMA_VERSION;
use crate::backup::{
    BackupOptions, BackupSummary, FORMAT, MANIFEST_TABLE, Progress, RestoreOptions, RestoreSummary,
    SealKeyRestore, Staged, already_exists, sync_dir, write_secret_new,
};
use crate::error::StoreError;
use crate::ledger::SEAL_KEY;
use crate::ledger::sql::STORE_KEY;
use crate::verify::check_schema;

/// Pages copied per step (4 MiB of 4 KiB pages): small enough for a lively
/// progress bar, large enough that steps cost nothing.
const PAGES_PER_STEP: i32 = 1024;

/// Manifest names.
const NAME_FORMAT: &str = "format";
const NAME_SCHEMA: &str = "schema_version";
const NAME_TAKEN_AT: &str = "taken_at";
const NAME_SEAL_KEY: &str = "seal_key";

/// Store files whose presence means a data directory already holds a store.
const STORE_FILES: [&str; 4] = ["", "-wal", "-shm", "-journal"];

pub(crate) fn backup(
    data_dir: &Path,
    out: &Path,
    options: &BackupOptions<'_>,
) -> Result<BackupSummary, StoreError> {
    let db = data_dir.join(DB_FILE);
    if !options.replace && out.symlink_metadata().is_ok() {
        return Err(already_exists(out));
    }
    let source = open_read_only(&db)?;
    // The read transaction is the snapshot: every step of the copy reads
    // through it, so the server's commits meanwhile neither show up in the
    // copy nor restart it.
    source.execute_batch("BEGIN")?;
    let schema = schema_version(&source, &db)?;
    check_schema(schema)?;
    if let Some(key) = &options.seal_key {
        let recorded: Option<String> = source
            .query_row(STORE_KEY, [SEAL_KEY], |r| r.get(0))
            .optional()?;
        if recorded.as_ref().is_some_and(|r| *r != key.fingerprint) {
            return Err(StoreError::OperationRefused(
                "the seal key given is not the one this store was first served with".into(),
            ));
        }
    }
    let (staged, file) = Staged::create(out, "partial")?;
    drop(file);
    let mut copy = Connection::open(staged.path())?;
    copy_pages(&source, &mut copy, options.progress)?;
    source.execute_batch("COMMIT")?;
    drop(source);
    // The source's header says WAL; a backup stands alone as one file.
    let mode: String =
        copy.pragma_update_and_check(None, "journal_mode", "DELETE", |r| r.get(0))?;
    if mode != "delete" {
        return Err(StoreError::Open(format!(
            "the copy kept journal_mode={mode}"
        )));
    }
    write_manifest(
        &copy,
        schema,
        options.seal_key.as_ref().map(|k| k.hex.as_str()),
    )?;
    let report = check_copy(&copy)?;
    drop(copy);
    let bytes = std::fs::metadata(staged.path())?.len();
    staged.place(out, options.replace)?;
    Ok(BackupSummary {
        bytes,
        schema_version: schema,
        seal_key: options.seal_key.is_some(),
        report,
    })
}

/// Copies every page of `from` into `to`, step by step.
fn copy_pages(
    from: &Connection,
    to: &mut Connection,
    progress: &dyn Fn(Progress),
) -> rusqlite::Result<()> {
    let page_size: i64 = from.pragma_query_value(None, "page_size", |r| r.get(0))?;
    let copy = Backup::new(from, to)?;
    loop {
        let step = copy.step(PAGES_PER_STEP)?;
        let p = copy.progress();
        progress(Progress {
            done: u64::try_from(p.pagecount - p.remaining).unwrap_or(0),
            total: u64::try_from(p.pagecount).unwrap_or(0),
            page_size: u64::try_from(page_size).unwrap_or(0),
        });
        match step {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            // Only the destination is locked, and it is ours; wait anyway.
            _ => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

fn write_manifest(
    copy: &Connection,
    schema: i64,
    seal_key: Option<&str>,
) -> Result<(), StoreError> {
    let taken_at = crate::ledger::rows::now().to_string();
    copy.execute_batch(&format!(
        "BEGIN; CREATE TABLE {MANIFEST_TABLE} (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT"
    ))?;
    let insert = format!("INSERT INTO {MANIFEST_TABLE} (name, value) VALUES (?1, ?2)");
    copy.execute(&insert, [NAME_FORMAT, FORMAT])?;
    copy.execute(&insert, [NAME_SCHEMA, &schema.to_string()])?;
    copy.execute(&insert, [NAME_TAKEN_AT, &taken_at])?;
    if let Some(hex) = seal_key {
        copy.execute(&insert, [NAME_SEAL_KEY, hex])?;
    }
    copy.execute_batch("COMMIT")?;
    Ok(())
}

/// What a backup file's manifest holds.
struct Manifest {
    schema: i64,
    seal_key: Option<String>,
}

/// Reads and checks the manifest of the backup `conn` reads.
fn read_manifest(conn: &Connection, from: &Path) -> Result<Manifest, StoreError> {
    let not_ours =
        || StoreError::OperationRefused(format!("{} is not a Praxis backup", from.display()));
    let has_table: bool = conn
        .query_row(
            "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'table' AND name = ?1",
            [MANIFEST_TABLE],
            |r| r.get(0),
        )
        .map_err(damaged(from))?;
    if !has_table {
        return Err(not_ours());
    }
    let value = |name: &str| -> Result<Option<String>, StoreError> {
        conn.query_row(
            &format!("SELECT value FROM {MANIFEST_TABLE} WHERE name = ?1"),
            [name],
            |r| r.get(0),
        )
        .optional()
        .map_err(damaged(from))
    };
    if value(NAME_FORMAT)?.as_deref() != Some(FORMAT) {
        return Err(not_ours());
    }
    let schema = value(NAME_SCHEMA)?
        .and_then(|s| s.parse::<i64>().ok())
        .ok_or_else(not_ours)?;
    Ok(Manifest {
        schema,
        seal_key: value(NAME_SEAL_KEY)?,
    })
}

/// A file SQLite finds damaged is refused as such, not reported as a fault
/// of the store.
fn damaged(from: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |e| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
            StoreError::OperationRefused(format!("{} is damaged: {e}", from.display()))
        }
        _ => e.into(),
    }
}

pub(crate) fn restore(
    from: &Path,
    data_dir: &Path,
    options: &RestoreOptions<'_>,
) -> Result<RestoreSummary, StoreError> {
    // The backup first: a file that is no backup changes nothing anywhere.
    let source = open_read_only(from).map_err(|e| match e {
        StoreError::OperationRefused(_) => {
            StoreError::OperationRefused(format!("no backup file at {}", from.display()))
        }
        e => e,
    })?;
    source.execute_batch("BEGIN")?;
    let version = schema_version(&source, from)?;
    let manifest = read_manifest(&source, from)?;
    if manifest.schema != version || version > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found: version.max(manifest.schema),
            supported: SCHEMA_VERSION,
        });
    }
    let created = !data_dir.exists();
    if created {
        super::create_data_dir(data_dir)?;
    }
    let restored = restore_into(from, &source, version, manifest, data_dir, options);
    if restored.is_err() && created {
        // A refused or failed restore leaves no trace of itself, not even
        // the directory it made.
        let _ = std::fs::remove_file(data_dir.join("LOCK"));
        let _ = std::fs::remove_dir(data_dir);
    }
    restored
}

/// Restores into `data_dir`, which exists, holding its lock throughout.
fn restore_into(
    from: &Path,
    source: &Connection,
    version: i64,
    manifest: Manifest,
    data_dir: &Path,
    options: &RestoreOptions<'_>,
) -> Result<RestoreSummary, StoreError> {
    // Held until the store is in place: no server opens it half restored.
    let _lock = lock_data_dir(data_dir)?;
    for suffix in STORE_FILES {
        let file = data_dir.join(format!("{DB_FILE}{suffix}"));
        if file.symlink_metadata().is_ok() {
            return Err(StoreError::OperationRefused(format!(
                "{} already holds a store ({} exists); restore only into an empty data directory",
                data_dir.display(),
                file.display()
            )));
        }
    }
    let target = data_dir.join(DB_FILE);
    let (staged, file) = Staged::create(&target, "restore")?;
    drop(file);
    let mut copy = Connection::open(staged.path())?;
    copy_pages(source, &mut copy, options.progress).map_err(damaged(from))?;
    source.execute_batch("COMMIT")?;
    copy.pragma_update(None, "journal_mode", "DELETE")?;
    // Zero the manifest's pages as they are freed: it may hold the seal
    // key, and a later backup copies free pages too.
    copy.pragma_update(None, "secure_delete", "ON")?;
    copy.execute_batch(&format!("DROP TABLE {MANIFEST_TABLE}"))?;
    migrations::migrate(&mut copy)?;
    let report = check_copy(&copy)?;
    let recorded: Option<String> = copy
        .query_row(STORE_KEY, [SEAL_KEY], |r| r.get(0))
        .optional()?;
    // The store is kept in WAL mode, as the engine opens it.
    copy.pragma_update(None, "journal_mode", "WAL")?;
    drop(copy);
    let seal_key = match manifest.seal_key {
        Some(hex) => place_seal_key(&hex, recorded.as_deref(), options)?,
        None => SealKeyRestore::NotInBackup {
            fingerprint: recorded,
        },
    };
    let bytes = std::fs::metadata(staged.path())?.len();
    if let Err(e) = staged.place(&target, false) {
        if seal_key == SealKeyRestore::Written {
            // Nothing half restored: the key goes with the store it came with.
            let _ = std::fs::remove_file(options.seal_key_file);
        }
        return Err(e);
    }
    sync_dir(data_dir)?;
    Ok(RestoreSummary {
        bytes,
        schema_version: version,
        seal_key,
        report,
    })
}

/// Writes the backup's seal key to its file, unless that file already
/// holds it; refuses a key the store was not served with, and a file that
/// holds another key.
fn place_seal_key(
    hex: &str,
    recorded: Option<&str>,
    options: &RestoreOptions<'_>,
) -> Result<SealKeyRestore, StoreError> {
    let fingerprint = (options.fingerprint)(hex).ok_or_else(|| {
        StoreError::OperationRefused("the backup's seal key is not 64 hex characters".into())
    })?;
    if recorded.is_some_and(|r| r != fingerprint) {
        return Err(StoreError::OperationRefused(
            "the backup's seal key is not the one its store was served with".into(),
        ));
    }
    let path = options.seal_key_file;
    match std::fs::read_to_string(path) {
        Ok(existing) => {
            if (options.fingerprint)(&existing).as_deref() == Some(fingerprint.as_str()) {
                Ok(SealKeyRestore::AlreadyInPlace)
            } else {
                Err(StoreError::OperationRefused(format!(
                    "{} already holds another seal key; move it away, or restore with \
                     another seal key file",
                    path.display()
                )))
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_secret_new(path, hex)?;
            Ok(SealKeyRestore::Written)
        }
        Err(e) => Err(e.into()),
    }
}
