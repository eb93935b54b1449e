//! A project's files, opened one path component at a time relative to a
//! directory handle, each with `O_NOFOLLOW`: a symbolic link anywhere below
//! the root is refused rather than followed, so no path, however it was
//! arranged on disk, leads a read or a write outside the root.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rustix::fs::{self as rfs, AtFlags, FileType, FlockOperation, Mode, OFlags};
use rustix::io::Errno;

use super::ProjectError;

/// Largest file read from a project, in bytes.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Longest relative path accepted, in bytes (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;
/// Longest path component accepted, in bytes (Linux's `NAME_MAX`).
const MAX_COMPONENT_BYTES: usize = 255;

/// Permissions of a directory or file this module creates, before umask.
const DIR_MODE: u32 = 0o755;
const FILE_MODE: u32 = 0o644;

/// An open directory under a project root, with its path relative to the
/// root (empty for the root itself) for error messages.
pub(super) struct Dir {
    fd: OwnedFd,
    path: String,
}

/// The components of a relative path, each checked to be a plain name:
/// not empty, not `.` or `..`, without `/` or NUL, and the whole relative.
pub(super) fn components(rel: &str) -> Result<Vec<&str>, ProjectError> {
    let invalid = |reason: &str| ProjectError::InvalidPath {
        path: rel.to_owned(),
        reason: reason.to_owned(),
    };
    if rel.is_empty() {
        return Err(invalid("the path is empty"));
    }
    if rel.starts_with('/') {
        return Err(invalid(
            "the path is absolute; it must be relative to the project root",
        ));
    }
    if rel.len() > MAX_PATH_BYTES {
        return Err(invalid("the path is longer than 4096 bytes"));
    }
    if rel.contains('\0') {
        return Err(invalid("the path contains a NUL byte"));
    }
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts {
        match *part {
            "" => return Err(invalid("the path has an empty component")),
            "." | ".." => return Err(invalid("the path has a `.` or `..` component")),
            p if p.len() > MAX_COMPONENT_BYTES => {
                return Err(invalid("a path component is longer than 255 bytes"));
            }
            _ => {}
        }
    }
    Ok(parts)
}

impl Dir {
    /// Opens a project root. The root itself is reached however the
    /// operator configured it (it may be a symbolic link); only what lies
    /// below it is held to `O_NOFOLLOW`.
    pub(super) fn root(path: &Path) -> Result<Dir, ProjectError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let fd = rfs::open(path, flags, Mode::empty())
            .map_err(|e| ProjectError::Io(format!("opening the project root: {e}")))?;
        Ok(Dir {
            fd,
            path: String::new(),
        })
    }

    /// The path of `name` inside this directory, relative to the root.
    fn child(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_owned()
        } else {
            format!("{}/{name}", self.path)
        }
    }

    /// Why opening `name` failed. An open with `O_NOFOLLOW` of a symbolic
    /// link fails with `ELOOP`, `ENOTDIR` (with `O_DIRECTORY`) or `EMLINK`
    /// (some BSDs), so those are told apart by a look at the entry itself.
    fn error(&self, name: &str, doing: &str, errno: Errno) -> ProjectError {
        let path = self.child(name);
        match errno {
            Errno::NOENT => ProjectError::NotFound,
            Errno::LOOP | Errno::NOTDIR | Errno::MLINK => {
                match rfs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(st) if FileType::from_raw_mode(st.st_mode).is_symlink() => {
                        ProjectError::Symlink { path }
                    }
                    Ok(_) if errno == Errno::NOTDIR => ProjectError::InvalidPath {
                        path,
                        reason: "not a directory".into(),
                    },
                    _ => ProjectError::Io(format!("{doing} {path}: {errno}")),
                }
            }
            _ => ProjectError::Io(format!("{doing} {path}: {errno}")),
        }
    }

    /// Opens the directory `name` inside this one, never through a link.
    pub(super) fn open_dir(&self, name: &str) -> Result<Dir, ProjectError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rfs::openat(&self.fd, name, flags, Mode::empty())
            .map_err(|e| self.error(name, "opening", e))?;
        Ok(Dir {
            fd,
            path: self.child(name),
        })
    }

    /// Opens the directory `name`, creating it first if it is missing (and
    /// making the new entry durable before anything is put in it).
    pub(super) fn open_or_create_dir(&self, name: &str) -> Result<Dir, ProjectError> {
        match rfs::mkdirat(&self.fd, name, Mode::from_raw_mode(DIR_MODE)) {
            Ok(()) => self.sync()?,
            Err(Errno::EXIST) => {}
            Err(e) => return Err(self.error(name, "creating", e)),
        }
        // Whatever holds the name now, a directory made by someone else or
        // a link put there in between, is opened with O_NOFOLLOW like any.
        self.open_dir(name)
    }

    /// Opens the regular file `name` for reading, never through a link.
    /// `O_NONBLOCK` keeps a FIFO put in its place from hanging the open.
    pub(super) fn open_file(&self, name: &str) -> Result<File, ProjectError> {
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let fd = rfs::openat(&self.fd, name, flags, Mode::empty())
            .map_err(|e| self.error(name, "opening", e))?;
        let st = rfs::fstat(&fd).map_err(|e| self.error(name, "inspecting", e))?;
        if !FileType::from_raw_mode(st.st_mode).is_file() {
            return Err(ProjectError::InvalidPath {
                path: self.child(name),
                reason: "not a regular file".into(),
            });
        }
        Ok(File::from(fd))
    }

    /// Like [`Dir::open_file`], with a missing file as `None`.
    pub(super) fn try_open_file(&self, name: &str) -> Result<Option<File>, ProjectError> {
        match self.open_file(name) {
            Ok(f) => Ok(Some(f)),
            Err(ProjectError::NotFound) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Reads the regular file `name`, refusing one over `MAX_FILE_BYTES`.
    pub(super) fn read_file(&self, name: &str) -> Result<Vec<u8>, ProjectError> {
        let file = self.open_file(name)?;
        self.read_bounded(name, file)
    }

    /// Reads an open file, refusing one over `MAX_FILE_BYTES`; the size is
    /// checked before reading and again by the read itself, since a file
    /// can grow in between.
    pub(super) fn read_bounded(&self, name: &str, file: File) -> Result<Vec<u8>, ProjectError> {
        let st = rfs::fstat(&file).map_err(|e| self.error(name, "inspecting", e))?;
        let size = u64::try_from(st.st_size).unwrap_or(0);
        if size > MAX_FILE_BYTES {
            return Err(ProjectError::TooLarge);
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| ProjectError::Io(format!("reading {}: {e}", self.child(name))))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(ProjectError::TooLarge);
        }
        Ok(bytes)
    }

    /// The permission bits of an open file.
    pub(super) fn mode_of(&self, name: &str, file: &File) -> Result<u32, ProjectError> {
        let st = rfs::fstat(file).map_err(|e| self.error(name, "inspecting", e))?;
        Ok(Mode::from_raw_mode(st.st_mode).bits() & 0o777)
    }

    /// Takes an exclusive `flock` on the file `name` in this directory,
    /// creating it if missing; the lock holds until the file is dropped.
    /// The in-process mutex does not reach other processes; this does.
    pub(super) fn lock(&self, name: &str) -> Result<File, ProjectError> {
        // Non-blocking, so a FIFO planted at the name cannot hang the open.
        let flags =
            OFlags::RDONLY | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
        let fd = rfs::openat(&self.fd, name, flags, Mode::from_raw_mode(FILE_MODE))
            .map_err(|e| self.error(name, "opening the lock", e))?;
        let st = rfs::fstat(&fd).map_err(|e| self.error(name, "inspecting", e))?;
        if !FileType::from_raw_mode(st.st_mode).is_file() {
            return Err(ProjectError::InvalidPath {
                path: self.child(name),
                reason: "the lock file is not a regular file".into(),
            });
        }
        loop {
            match rfs::flock(&fd, FlockOperation::LockExclusive) {
                Ok(()) => return Ok(File::from(fd)),
                Err(Errno::INTR) => {}
                Err(e) => return Err(self.error(name, "locking", e)),
            }
        }
    }

    /// Makes this directory's entries durable.
    pub(super) fn sync(&self) -> Result<(), ProjectError> {
        rfs::fsync(&self.fd).map_err(|e| {
            let path = if self.path.is_empty() {
                "."
            } else {
                &self.path
            };
            ProjectError::Io(format!("syncing {path}: {e}"))
        })
    }

    /// The names in this directory that are UTF-8, without `.` and `..`.
    pub(super) fn names(&self) -> Result<Vec<String>, ProjectError> {
        let io = |e: Errno| {
            let path = if self.path.is_empty() {
                "."
            } else {
                &self.path
            };
            ProjectError::Io(format!("listing {path}: {e}"))
        };
        let mut out = Vec::new();
        for entry in rfs::Dir::read_from(&self.fd).map_err(io)? {
            let entry = entry.map_err(io)?;
            if let Ok(name) = entry.file_name().to_str()
                && name != "."
                && name != ".."
            {
                out.push(name.to_owned());
            }
        }
        Ok(out)
    }

    /// Writes `bytes` to a new temporary file in this directory, with
    /// permissions `mode` if given (else the default narrowed by the umask),
    /// and syncs it. The file's name starts with
    /// `.{stem}.` and ends with `.tmp`; it is removed when the returned
    /// handle is dropped unless it was linked or renamed into place.
    pub(super) fn temp_file(
        &self,
        stem: &str,
        bytes: &[u8],
        mode: Option<u32>,
    ) -> Result<TempFile<'_>, ProjectError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mut attempts = 0;
        let (name, fd) = loop {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!(".{stem}.{}-{n}-{nanos}.tmp", std::process::id());
            // O_EXCL: a name already taken (by anything, a link included)
            // is never opened, only skipped.
            match rfs::openat(
                &self.fd,
                name.as_str(),
                flags,
                Mode::from_raw_mode(FILE_MODE),
            ) {
                Ok(fd) => break (name, fd),
                Err(Errno::EXIST) if attempts < 8 => attempts += 1,
                Err(e) => return Err(self.error(&name, "creating", e)),
            }
        };
        let temp = TempFile {
            dir: self,
            name,
            placed: false,
        };
        let mut file = File::from(fd);
        let written = (|| {
            if let Some(mode) = mode {
                rfs::fchmod(&file, Mode::from_raw_mode(mode))?;
            }
            file.write_all(bytes)?;
            file.sync_all()
        })();
        written
            .map_err(|e| ProjectError::Io(format!("writing {}: {e}", self.child(&temp.name))))?;
        Ok(temp)
    }
}

/// A temporary file written and synced in a directory, removed on drop
/// unless placed.
pub(super) struct TempFile<'d> {
    dir: &'d Dir,
    name: String,
    placed: bool,
}

/// How placing a temporary file went.
pub(super) enum Placed {
    /// The file is in place.
    Done,
    /// The target name was already taken; nothing changed.
    Taken,
}

impl TempFile<'_> {
    /// Gives the file the name `target` only if no entry has it, atomically
    /// (a hard link fails on any existing entry, a dangling link included).
    pub(super) fn link_new(mut self, target: &str) -> Result<Placed, ProjectError> {
        let dir = &self.dir.fd;
        match rfs::linkat(dir, self.name.as_str(), dir, target, AtFlags::empty()) {
            // Dropping self removes the temporary name; the link remains.
            Ok(()) => Ok(Placed::Done),
            Err(Errno::EXIST) => Ok(Placed::Taken),
            // A file system without hard links: the caller holds the lock
            // and saw no file, so a rename only races writers that ignore
            // the lock.
            Err(Errno::PERM | Errno::OPNOTSUPP | Errno::NOSYS) => {
                self.rename_over(target)?;
                Ok(Placed::Done)
            }
            Err(e) => Err(self.dir.error(target, "linking", e)),
        }
    }

    /// Renames the file over `target`, replacing whatever entry has that
    /// name (a rename never follows a link at the target).
    pub(super) fn rename_over(&mut self, target: &str) -> Result<(), ProjectError> {
        let dir = &self.dir.fd;
        rfs::renameat(dir, self.name.as_str(), dir, target)
            .map_err(|e| self.dir.error(target, "renaming onto", e))?;
        self.placed = true;
        Ok(())
    }
}

impl Drop for TempFile<'_> {
    fn drop(&mut self) {
        if !self.placed {
            // Best effort: a name left behind is a hidden `.tmp` file.
            let _ = rfs::unlinkat(&self.dir.fd, self.name.as_str(), AtFlags::empty());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_plain_names() {
        assert_eq!(components("a").unwrap(), ["a"]);
        assert_eq!(components("src/lib.rs").unwrap(), ["src", "lib.rs"]);
        assert_eq!(components(".agents/x..y").unwrap(), [".agents", "x..y"]);
        for bad in [
            "",
            "/",
            "/etc/passwd",
            "..",
            ".",
            "a/..",
            "../a",
            "a/../b",
            "a/./b",
            "a//b",
            "a/",
            "a\0b",
        ] {
            assert!(
                matches!(components(bad), Err(ProjectError::InvalidPath { .. })),
                "{bad:?}"
            );
        }
        assert!(components(&"a".repeat(256)).is_err());
        assert!(components(&vec!["a"; 2049].join("/")).is_err());
    }
}
