//! A project's own skill files, `.agents/skills/<name>/SKILL.md` under a
//! project root, and reading any file of the project for sources.
//!
//! Project roots come from the server's configuration (`--project ID=DIR`),
//! never from a request. Below a root every path component is opened
//! relative to its parent's handle with `O_NOFOLLOW` ([`fs`]), so a
//! symbolic link anywhere is refused, and writes happen only inside
//! `.agents/skills/`. A write is compare-and-set on the SHA-256 of the whole
//! file: no expected hash creates the file and only creates it; a hash
//! replaces exactly the file that has it. Each write goes to a synced
//! temporary file in the skill's folder, which is then linked or renamed
//! into place, and the folder is synced.
//!
//! Writers to one root are serialized by a mutex in this process and by an
//! `flock` on `.agents/skills/.praxis-lock` across processes, so no two can
//! interleave checking the hash and placing the file. A crash can leave a
//! hidden `.SKILL.md.*.tmp` file behind, never a partial `SKILL.md`.
//!
//! These functions block; async callers run them with `spawn_blocking`.

mod fs;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use praxis_domain::digest::Digest;
use praxis_domain::finding::Finding;
use praxis_domain::revision::{Expected, compare_and_set};
use praxis_domain::skills::project::{
    SKILL_FILE, check_skill_document, check_skill_name, skill_path,
};
use serde::Serialize;

pub use fs::MAX_FILE_BYTES;
use fs::{Dir, Placed};

/// The lock file, in `.agents/skills/`, that writers from every process
/// hold while they check a hash and place a file.
pub const LOCK_FILE: &str = ".praxis-lock";
/// Longest project id.
pub const MAX_PROJECT_ID_CHARS: usize = 64;

/// Why a project file operation was refused or failed. No message ever
/// includes a file's content.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProjectError {
    /// No project root with this id is configured.
    #[error("no project {0:?} is configured on this server")]
    UnknownProject(String),
    /// The project configuration is unusable (a bad id, a duplicate id, a
    /// root that is not a directory).
    #[error("project configuration: {0}")]
    Config(String),
    /// A path or skill name that could leave its folder or is malformed.
    #[error("invalid path {path:?}: {reason}")]
    InvalidPath {
        /// The path or name as given, or the component at fault.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A component of the path is a symbolic link, which is never followed.
    #[error("{path} is a symbolic link, and links are never followed")]
    Symlink {
        /// The path up to the link, relative to the project root.
        path: String,
    },
    /// The file, or a folder on its way, does not exist.
    #[error("no such file: the file, or a folder on its path, does not exist")]
    NotFound,
    /// A create-only write found the file already there.
    #[error("the file already exists with sha256 {current_sha256}; name that hash to replace it")]
    Exists {
        /// The SHA-256 of the file as it is.
        current_sha256: String,
    },
    /// A compare-and-set write's expected hash is not the file's.
    #[error("{}", changed_message(current_sha256.as_deref()))]
    Changed {
        /// The SHA-256 of the file as it is, `None` when it does not exist.
        current_sha256: Option<String>,
    },
    /// The skill document breaks the rules of a skill file.
    #[error("the skill document is invalid: {}", findings_message(.0))]
    Invalid(Vec<Finding>),
    /// The file is larger than [`MAX_FILE_BYTES`].
    #[error("the file is larger than the limit of {MAX_FILE_BYTES} bytes (1 MiB)")]
    TooLarge,
    /// A skill file that is not UTF-8 text.
    #[error("{path} is not UTF-8 text")]
    NotText {
        /// The file, relative to the project root.
        path: String,
    },
    /// The file system failed.
    #[error("file system error: {0}")]
    Io(String),
}

fn changed_message(current: Option<&str>) -> String {
    match current {
        Some(sha) => format!("the file has changed: its sha256 is now {sha}"),
        None => "the file does not exist, so no hash can match; send none to create it".into(),
    }
}

fn findings_message(findings: &[Finding]) -> String {
    let each: Vec<String> = findings.iter().map(ToString::to_string).collect();
    each.join("; ")
}

/// A skill file as read or written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SkillFile {
    /// The skill's name, its folder's name.
    pub name: String,
    /// `.agents/skills/<name>/SKILL.md`, relative to the project root.
    pub path: String,
    /// The whole document.
    pub content: String,
    /// Lowercase hex SHA-256 of the content's bytes.
    pub sha256: String,
}

impl SkillFile {
    fn new(name: &str, content: String) -> SkillFile {
        SkillFile {
            name: name.to_owned(),
            path: skill_path(name),
            sha256: sha256_hex(content.as_bytes()),
            content,
        }
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Digest::sha256(bytes).to_hex()
}

/// The configured project roots, by id.
#[derive(Debug, Default)]
pub struct ProjectRoots {
    roots: BTreeMap<String, ProjectRoot>,
}

/// Whether `id` is 1-64 characters of `[A-Za-z0-9._-]`.
pub fn is_project_id(id: &str) -> bool {
    (1..=MAX_PROJECT_ID_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

impl ProjectRoots {
    /// The roots of `(id, directory)` pairs. Each id is 1-64 characters of
    /// `[A-Za-z0-9._-]` and unique; each directory must exist.
    pub fn new(
        roots: impl IntoIterator<Item = (String, PathBuf)>,
    ) -> Result<ProjectRoots, ProjectError> {
        let mut out = BTreeMap::new();
        for (id, path) in roots {
            if !is_project_id(&id) {
                return Err(ProjectError::Config(format!(
                    "project id {id:?} is not 1-{MAX_PROJECT_ID_CHARS} characters of [A-Za-z0-9._-]"
                )));
            }
            if !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                return Err(ProjectError::Config(format!(
                    "project {id}: {} is not a directory",
                    path.display()
                )));
            }
            let root = ProjectRoot {
                id: id.clone(),
                path,
                writer: Mutex::new(()),
            };
            if out.insert(id.clone(), root).is_some() {
                return Err(ProjectError::Config(format!(
                    "project {id} is configured twice"
                )));
            }
        }
        Ok(ProjectRoots { roots: out })
    }

    /// The root with this id.
    pub fn get(&self, id: &str) -> Result<&ProjectRoot, ProjectError> {
        self.roots
            .get(id)
            .ok_or_else(|| ProjectError::UnknownProject(id.to_owned()))
    }

    /// Every configured id, in order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.roots.keys().map(String::as_str)
    }
}

/// One project root and what may be done under it.
#[derive(Debug)]
pub struct ProjectRoot {
    id: String,
    path: PathBuf,
    /// Serializes this process's writers; the lock file serializes them
    /// with other processes'.
    writer: Mutex<()>,
}

/// A skill name as a path component, or why it is not one.
fn checked_name(name: &str) -> Result<(), ProjectError> {
    match check_skill_name(name).into_iter().next() {
        None => Ok(()),
        Some(f) => Err(ProjectError::InvalidPath {
            path: name.to_owned(),
            reason: f.message,
        }),
    }
}

/// Opens `.agents/skills`, creating what is missing when `create`.
fn skills_dir(root: &Dir, create: bool) -> Result<Dir, ProjectError> {
    if create {
        root.open_or_create_dir(".agents")?
            .open_or_create_dir("skills")
    } else {
        root.open_dir(".agents")?.open_dir("skills")
    }
}

/// A missing file or folder as `None`.
fn found<T>(r: Result<T, ProjectError>) -> Result<Option<T>, ProjectError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(ProjectError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The text of a skill file's bytes.
fn text(name: &str, bytes: Vec<u8>) -> Result<String, ProjectError> {
    String::from_utf8(bytes).map_err(|_| ProjectError::NotText {
        path: skill_path(name),
    })
}

impl ProjectRoot {
    /// The project's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The root directory as configured.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every skill: each folder of `.agents/skills` with a valid skill name
    /// that holds a regular `SKILL.md` of UTF-8 text, by name. Links, other
    /// names and other kinds of entries are skipped, and so, with a logged
    /// warning, are files too large or not text; a link at `.agents` or
    /// `.agents/skills` is refused.
    pub fn list_skills(&self) -> Result<Vec<SkillFile>, ProjectError> {
        let root = Dir::root(&self.path)?;
        let Some(skills) = found(skills_dir(&root, false))? else {
            return Ok(Vec::new());
        };
        let mut names: Vec<String> = skills
            .names()?
            .into_iter()
            .filter(|n| checked_name(n).is_ok())
            .collect();
        names.sort();
        let mut out = Vec::new();
        for name in names {
            let read = skills
                .open_dir(&name)
                .and_then(|dir| dir.read_file(SKILL_FILE))
                .and_then(|bytes| text(&name, bytes));
            match read {
                Ok(content) => out.push(SkillFile::new(&name, content)),
                // No file, a link, or something other than a folder or a
                // regular file: not a skill, and nothing to report.
                Err(
                    ProjectError::NotFound
                    | ProjectError::Symlink { .. }
                    | ProjectError::InvalidPath { .. },
                ) => {}
                Err(e) => tracing::warn!(project = %self.id, skill = %name, error = %e,
                    "skill file skipped"),
            }
        }
        Ok(out)
    }

    /// The skill `name`'s file.
    pub fn read_skill(&self, name: &str) -> Result<SkillFile, ProjectError> {
        checked_name(name)?;
        let root = Dir::root(&self.path)?;
        let dir = skills_dir(&root, false)?.open_dir(name)?;
        let content = text(name, dir.read_file(SKILL_FILE)?)?;
        Ok(SkillFile::new(name, content))
    }

    /// The SHA-256 of the skill `name`'s file, `None` if it does not exist.
    pub fn current_sha256(&self, name: &str) -> Result<Option<String>, ProjectError> {
        checked_name(name)?;
        let root = Dir::root(&self.path)?;
        let Some(skills) = found(skills_dir(&root, false))? else {
            return Ok(None);
        };
        let Some(dir) = found(skills.open_dir(name))? else {
            return Ok(None);
        };
        Ok(found(dir.read_file(SKILL_FILE))?.map(|b| sha256_hex(&b)))
    }

    /// Writes the skill `name`'s file. With no `expected_sha256` the file
    /// is created, and only created: an existing one is refused with
    /// [`ProjectError::Exists`]. With one, the file is replaced only if it
    /// has that hash (compared without regard to case), else
    /// [`ProjectError::Changed`]. The document is checked first
    /// ([`ProjectError::Invalid`]).
    pub fn write_skill(
        &self,
        name: &str,
        content: &str,
        expected_sha256: Option<&str>,
    ) -> Result<SkillFile, ProjectError> {
        checked_name(name)?;
        let findings = check_skill_document(name, content);
        if !findings.is_empty() {
            return Err(ProjectError::Invalid(findings));
        }
        let _writer = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let root = Dir::root(&self.path)?;
        let create = expected_sha256.is_none();
        // A replacement needs a file to replace, so it creates no folder.
        let gone = || ProjectError::Changed {
            current_sha256: None,
        };
        let skills = skills_dir(&root, create).map_err(|e| match e {
            ProjectError::NotFound => gone(),
            e => e,
        })?;
        let _lock = skills.lock(LOCK_FILE)?;
        let dir = if create {
            skills.open_or_create_dir(name)?
        } else {
            found(skills.open_dir(name))?.ok_or_else(gone)?
        };
        let current = dir.try_open_file(SKILL_FILE)?;
        // A replacement keeps the permissions of the file it replaces.
        let mode = match &current {
            Some(file) => Some(dir.mode_of(SKILL_FILE, file)?),
            None => None,
        };
        let current = match current {
            Some(file) => Some(sha256_hex(&dir.read_bounded(SKILL_FILE, file)?)),
            None => None,
        };
        match (expected_sha256, current) {
            (None, Some(current_sha256)) => return Err(ProjectError::Exists { current_sha256 }),
            (None, None) => {}
            (Some(_), None) => return Err(gone()),
            (Some(expected), Some(current)) => {
                let expected = Expected::Sha256(expected.to_owned());
                if compare_and_set(Some(&expected), 0, &current).is_err() {
                    return Err(ProjectError::Changed {
                        current_sha256: Some(current),
                    });
                }
            }
        }
        let mut temp = dir.temp_file(SKILL_FILE, content.as_bytes(), mode)?;
        if create {
            if let Placed::Taken = temp.link_new(SKILL_FILE)? {
                // Someone ignoring the lock created it meanwhile.
                return Err(match found(dir.read_file(SKILL_FILE))? {
                    Some(bytes) => ProjectError::Exists {
                        current_sha256: sha256_hex(&bytes),
                    },
                    None => gone(),
                });
            }
        } else {
            temp.rename_over(SKILL_FILE)?;
        }
        dir.sync()?;
        Ok(SkillFile::new(name, content.to_owned()))
    }

    /// Any regular file under the root by its relative path, at most
    /// [`MAX_FILE_BYTES`], with the lowercase hex SHA-256 of its bytes.
    /// Every component must be a plain name and none a link.
    pub fn read_file(&self, rel_path: &str) -> Result<(Vec<u8>, String), ProjectError> {
        let parts = fs::components(rel_path)?;
        let (leaf, folders) = parts.split_last().expect("a path has a component");
        let mut dir = Dir::root(&self.path)?;
        for folder in folders {
            dir = dir.open_dir(folder)?;
        }
        let bytes = dir.read_file(leaf)?;
        let sha256 = sha256_hex(&bytes);
        Ok((bytes, sha256))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_ids() {
        for ok in ["a", "my-app", "App_2.0", &"x".repeat(64)] {
            assert!(is_project_id(ok), "{ok:?}");
        }
        for bad in ["", "a/b", "a b", "é", &"x".repeat(65)] {
            assert!(!is_project_id(bad), "{bad:?}");
        }
    }

    #[test]
    fn messages_are_clear_and_never_hold_content() {
        let changed = ProjectError::Changed {
            current_sha256: Some("ab".repeat(32)),
        };
        assert!(changed.to_string().contains(&"ab".repeat(32)));
        let gone = ProjectError::Changed {
            current_sha256: None,
        };
        assert!(gone.to_string().contains("does not exist"));
        let doc = "---\ndescription: ghp_secret\nname: a\n---\n";
        let invalid = ProjectError::Invalid(check_skill_document("a", doc));
        let shown = invalid.to_string();
        assert!(shown.contains("skill.frontmatter_order"), "{shown}");
        assert!(!shown.contains("ghp_secret"));
    }
}
