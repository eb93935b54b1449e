//! Backup and restore of the embedded store.
//!
//! A backup is one SQLite file: the store's pages as one read transaction
//! saw them, copied with SQLite's online backup API while the server keeps
//! writing (WAL readers never block the writer), switched to a rollback
//! journal so the file stands alone, plus one table, [`MANIFEST_TABLE`], that
//! says what the file is ([`FORMAT`]), the schema version and when it was
//! taken, and, only when the operator asks for it, the seal key.
//!
//! [`crate::backup_sqlite`] and [`crate::restore_sqlite`] run them. Both
//! directions work on a temporary file beside their target and check it
//! (`PRAGMA integrity_check` and [`crate::Engine::verify`]'s walk) before a
//! rename puts it in place, so an interrupted or failed run never leaves a
//! partial backup or a half-restored store under the real name. PostgreSQL
//! stores are backed up with `pg_dump` (see docs/operations.md), and
//! checked, like a running SQLite store, with [`crate::verify_snapshot`].

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use crate::error::StoreError;
use crate::verify::VerifyReport;

/// What the manifest of every Praxis backup file says it is.
pub const FORMAT: &str = "praxis-backup/1";

/// The table a backup file carries besides the store's own; restore drops it.
pub const MANIFEST_TABLE: &str = "praxis_backup";

/// A copy of the seal key to carry in a backup: the key as its file holds it
/// (64 hex characters) and its fingerprint, which must be the one the store
/// recorded when it was first served.
#[derive(Clone)]
pub struct SealKeyCopy {
    /// The key, 64 hex characters.
    pub hex: String,
    /// The key's fingerprint (`SealKey::fingerprint` in the server).
    pub fingerprint: String,
}

impl std::fmt::Debug for SealKeyCopy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SealKeyCopy")
            .field("hex", &"<secret>")
            .field("fingerprint", &self.fingerprint)
            .finish()
    }
}

/// How far a copy has come, in database pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Pages copied.
    pub done: u64,
    /// Pages in all.
    pub total: u64,
    /// Bytes per page.
    pub page_size: u64,
}

/// How to take a backup.
pub struct BackupOptions<'a> {
    /// The seal key to carry, or `None` (the default) to leave it out.
    pub seal_key: Option<SealKeyCopy>,
    /// Replace an existing file at the target instead of refusing.
    pub replace: bool,
    /// Called after every step of the copy.
    pub progress: &'a dyn Fn(Progress),
}

/// What a finished backup holds.
#[derive(Debug)]
pub struct BackupSummary {
    /// Size of the backup file.
    pub bytes: u64,
    /// The store's schema version.
    pub schema_version: i64,
    /// Whether the seal key is in the file.
    pub seal_key: bool,
    /// Verification of the copy (always clean: a copy that is not is refused).
    pub report: VerifyReport,
}

/// How to restore a backup.
pub struct RestoreOptions<'a> {
    /// Where a seal key carried by the backup is written (mode 0600).
    pub seal_key_file: &'a Path,
    /// The fingerprint of a key given as hex, or `None` if it is no key;
    /// the server's derivation, so the store need not know it.
    pub fingerprint: &'a dyn Fn(&str) -> Option<String>,
    /// Called after every step of the copy.
    pub progress: &'a dyn Fn(Progress),
}

/// What restore did with the seal key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SealKeyRestore {
    /// The backup carried it, and it was written to the seal key file.
    Written,
    /// The backup carried it, and the seal key file already held that key.
    AlreadyInPlace,
    /// The backup did not carry it; the restored store was first served
    /// with the key of this fingerprint (if it was ever served).
    NotInBackup {
        /// The fingerprint the store recorded.
        fingerprint: Option<String>,
    },
}

/// What a finished restore put in place.
#[derive(Debug)]
pub struct RestoreSummary {
    /// Size of the restored database file.
    pub bytes: u64,
    /// The schema version the backup was taken at (the restored store is
    /// migrated to this build's).
    pub schema_version: i64,
    /// What happened to the seal key.
    pub seal_key: SealKeyRestore,
    /// Verification of the restored store (always clean: one that is not is refused).
    pub report: VerifyReport,
}

/// A file being written under a temporary name beside its target; removed
/// when dropped unless it was put in place.
pub(crate) struct Staged {
    path: PathBuf,
    placed: bool,
}

impl Staged {
    /// Creates an empty file (mode 0600) named after `target`, replacing a
    /// leftover of an earlier run of this process id.
    pub(crate) fn create(target: &Path, purpose: &str) -> Result<(Staged, File), StoreError> {
        let name = target
            .file_name()
            .ok_or_else(|| {
                StoreError::OperationRefused(format!("{} names no file", target.display()))
            })?
            .to_string_lossy();
        let path = parent(target).join(format!(".{name}.{purpose}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        // Created fresh, so the mode applies whatever the umask left.
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)?;
        Ok((
            Staged {
                path,
                placed: false,
            },
            file,
        ))
    }

    /// The temporary path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Syncs the file and moves it to `target`: over an existing file when
    /// `replace`, else only if `target` does not exist (a hard link is
    /// create-only), then syncs the directory.
    pub(crate) fn place(mut self, target: &Path, replace: bool) -> Result<(), StoreError> {
        File::open(&self.path)?.sync_all()?;
        if replace {
            std::fs::rename(&self.path, target)?;
        } else {
            std::fs::hard_link(&self.path, target).map_err(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    already_exists(target)
                } else {
                    e.into()
                }
            })?;
            std::fs::remove_file(&self.path)?;
        }
        self.placed = true;
        sync_dir(parent(target))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.placed {
            let _ = std::fs::remove_file(&self.path);
            // SQLite's journal files of a staged database, if any.
            for suffix in ["-journal", "-wal", "-shm"] {
                let mut file = self.path.clone().into_os_string();
                file.push(suffix);
                let _ = std::fs::remove_file(file);
            }
        }
    }
}

/// The refusal for a target that is already there.
pub(crate) fn already_exists(target: &Path) -> StoreError {
    StoreError::OperationRefused(format!(
        "{} already exists; choose another file, or replace it (praxis backup --force)",
        target.display()
    ))
}

/// The directory a file is in (`.` for a bare name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Makes a rename or link in `dir` durable.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir)?.sync_all()?;
    Ok(())
}

/// Writes a secret (one line) to a staged file beside `target` and puts it
/// there only if `target` does not exist yet.
pub(crate) fn write_secret_new(target: &Path, secret: &str) -> Result<(), StoreError> {
    std::fs::create_dir_all(parent(target))?;
    let (staged, mut file) = Staged::create(target, "restore")?;
    writeln!(file, "{secret}")?;
    drop(file);
    staged.place(target, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_staged_file_is_private_and_never_replaces_unless_told() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out");
        let (staged, mut file) = Staged::create(&target, "t").unwrap();
        file.write_all(b"one").unwrap();
        let mode = std::fs::metadata(staged.path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        staged.place(&target, false).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"one");

        let (staged, mut file) = Staged::create(&target, "t").unwrap();
        file.write_all(b"two").unwrap();
        let temp = staged.path().to_owned();
        let refused = staged.place(&target, false).unwrap_err();
        assert!(
            matches!(refused, StoreError::OperationRefused(_)),
            "{refused}"
        );
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        assert!(
            !temp.exists(),
            "a refused placement leaves no temporary file"
        );

        let (staged, mut file) = Staged::create(&target, "t").unwrap();
        file.write_all(b"three").unwrap();
        staged.place(&target, true).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"three");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_dropped_staged_file_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let (staged, _file) = Staged::create(&dir.path().join("out"), "t").unwrap();
        let temp = staged.path().to_owned();
        assert!(temp.exists());
        drop(staged);
        assert!(!temp.exists());
    }

    #[test]
    fn the_seal_key_never_shows_in_debug_output() {
        let key = SealKeyCopy {
            hex: "ab".repeat(32),
            fingerprint: "f".into(),
        };
        assert!(!format!("{key:?}").contains("abab"));
    }
}
