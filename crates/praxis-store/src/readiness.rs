//! Readiness: whether the store can take a durable write now, and if not, why.
//!
//! Each engine probes with a real durable write: it commits one scratch row
//! (`readiness`, keyed `probe`) the way every write commits. SQLite also
//! checks the data directory's free space against a floor, because a write
//! can still succeed in WAL space already allocated while the next batch,
//! or the checkpoint after it, has nowhere to go.

use crate::error::{BackendKind, StoreError};

/// Free space the data directory must keep unless configured otherwise:
/// room for a burst of writes and the checkpoint that copies them into the
/// database file.
pub const DEFAULT_MIN_FREE_BYTES: u64 = 64 * 1024 * 1024;

/// What a readiness probe checks besides a durable write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadyCheck {
    /// Least free space, in bytes, the SQLite data directory's file system
    /// must have; 0 turns the check off. A PostgreSQL client cannot see the
    /// server's disk, so it relies on the probe write alone.
    pub min_free_bytes: u64,
}

impl Default for ReadyCheck {
    fn default() -> Self {
        ReadyCheck {
            min_free_bytes: DEFAULT_MIN_FREE_BYTES,
        }
    }
}

/// Why the store cannot take a durable write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unready {
    /// The probe write failed for lack of space.
    DiskFull,
    /// Free space is below the configured floor.
    LowDiskSpace,
    /// The file system or database accepts no writes.
    ReadOnly,
    /// The database cannot be reached.
    DatabaseUnreachable,
    /// The store's writer has stopped (the server is shutting down).
    WriterStopped,
    /// The probe did not finish in time.
    ProbeTimeout,
    /// The probe write failed for another reason.
    WriteFailed,
}

impl Unready {
    /// The stable code `/readyz` reports.
    pub fn code(self) -> &'static str {
        match self {
            Unready::DiskFull => "disk_full",
            Unready::LowDiskSpace => "low_disk_space",
            Unready::ReadOnly => "read_only",
            Unready::DatabaseUnreachable => "database_unreachable",
            Unready::WriterStopped => "writer_stopped",
            Unready::ProbeTimeout => "probe_timeout",
            Unready::WriteFailed => "write_failed",
        }
    }
}

/// A failed readiness probe: the reason, and what the store said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotReady {
    /// Which check failed.
    pub reason: Unready,
    /// What the store or file system said, for the operator.
    pub detail: String,
}

impl std::fmt::Display for NotReady {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.reason.code(), self.detail)
    }
}

impl NotReady {
    /// A failed check with its detail.
    pub fn new(reason: Unready, detail: impl Into<String>) -> NotReady {
        NotReady {
            reason,
            detail: detail.into(),
        }
    }
}

impl From<StoreError> for NotReady {
    fn from(e: StoreError) -> Self {
        let reason = match (&e, e.backend_kind()) {
            (_, Some(BackendKind::DiskFull)) => Unready::DiskFull,
            (_, Some(BackendKind::ReadOnly)) => Unready::ReadOnly,
            (_, Some(BackendKind::Unreachable)) => Unready::DatabaseUnreachable,
            (StoreError::WriterStopped, _) => Unready::WriterStopped,
            (StoreError::Io(io), _) if io.kind() == std::io::ErrorKind::StorageFull => {
                Unready::DiskFull
            }
            (StoreError::Io(io), _) if io.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
                Unready::ReadOnly
            }
            _ => Unready::WriteFailed,
        };
        NotReady::new(reason, e.to_string())
    }
}

/// Upserts the scratch row: (`probed_at`, microseconds since the epoch).
pub(crate) const PROBE: &str = "INSERT INTO readiness (name, probed_at) VALUES ('probe', $1) \
     ON CONFLICT (name) DO UPDATE SET probed_at = excluded.probed_at";

/// Checks free space on the file system holding `dir` against `min_free_bytes`.
pub(crate) fn check_free_space(dir: &std::path::Path, min_free_bytes: u64) -> Result<(), NotReady> {
    let stat = rustix::fs::statvfs(dir).map_err(|e| {
        NotReady::new(
            Unready::WriteFailed,
            format!("cannot read free space of {}: {e}", dir.display()),
        )
    })?;
    if stat.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY) {
        return Err(NotReady::new(
            Unready::ReadOnly,
            format!("{} is on a read-only file system", dir.display()),
        ));
    }
    let free = stat.f_bavail.saturating_mul(stat.f_frsize);
    if free < min_free_bytes {
        return Err(NotReady::new(
            Unready::LowDiskSpace,
            format!(
                "{free} bytes free on the file system of {}, below the minimum of {min_free_bytes}",
                dir.display()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::BackendError;

    #[test]
    fn failures_are_classified_through_a_failed_commit() {
        let full = StoreError::Backend(BackendError::new(
            "sqlite",
            BackendKind::DiskFull,
            "database or disk is full".into(),
        ));
        let wrapped = StoreError::NotCommitted(std::sync::Arc::new(full));
        let not_ready = NotReady::from(wrapped);
        assert_eq!(not_ready.reason, Unready::DiskFull);
        assert!(not_ready.detail.contains("not committed"), "{not_ready}");
        let ro = StoreError::Backend(BackendError::new(
            "sqlite",
            BackendKind::ReadOnly,
            "ro".into(),
        ));
        assert_eq!(NotReady::from(ro).reason, Unready::ReadOnly);
        assert_eq!(
            NotReady::from(StoreError::WriterStopped).reason,
            Unready::WriterStopped
        );
    }

    #[test]
    fn free_space_below_the_floor_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_free_space(dir.path(), 0).is_ok());
        let low = check_free_space(dir.path(), u64::MAX).unwrap_err();
        assert_eq!(low.reason, Unready::LowDiskSpace);
    }
}
