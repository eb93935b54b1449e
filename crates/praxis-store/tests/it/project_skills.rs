//! A project's skill files on disk: create-only and compare-and-set writes,
//! the document's rules, and refusal of every path that could leave the
//! project root or `.agents/skills`, a symbolic link at any component
//! included. These tests touch only files, not a storage engine.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::thread;

use praxis_domain::digest::Digest;
use praxis_store::skills::project::{
    LOCK_FILE, MAX_FILE_BYTES, ProjectError, ProjectRoot, ProjectRoots,
};
use tempfile::TempDir;

const NAME: &str = "junction-migration";
const SKILL: &str = ".agents/skills/junction-migration/SKILL.md";

fn doc(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# Steps\n")
}

fn sha(bytes: impl AsRef<[u8]>) -> String {
    Digest::sha256(bytes.as_ref()).to_hex()
}

/// A project `p` rooted at a fresh directory.
fn project() -> (TempDir, ProjectRoots) {
    let dir = tempfile::tempdir().unwrap();
    let roots = roots_at(dir.path());
    (dir, roots)
}

fn roots_at(path: &Path) -> ProjectRoots {
    ProjectRoots::new([("p".to_owned(), path.to_owned())]).unwrap()
}

fn p(roots: &ProjectRoots) -> &ProjectRoot {
    roots.get("p").unwrap()
}

/// Every file and folder under `dir`, relative, links not followed.
fn tree(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(base).unwrap().display().to_string());
            if std::fs::symlink_metadata(&path).unwrap().is_dir() {
                walk(base, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn no_temp_files(dir: &Path) {
    let temps: Vec<String> = tree(dir)
        .into_iter()
        .filter(|p| Path::new(p).extension().is_some_and(|e| e == "tmp"))
        .collect();
    assert!(temps.is_empty(), "{temps:?}");
}

#[test]
fn create_then_read_list_and_hash() {
    let (dir, roots) = project();
    let root = p(&roots);
    let content = doc(NAME, "Moves a directory behind a junction.");
    let written = root.write_skill(NAME, &content, None).unwrap();
    assert_eq!(written.name, NAME);
    assert_eq!(written.path, SKILL);
    assert_eq!(written.content, content);
    assert_eq!(written.sha256, sha(&content));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(SKILL)).unwrap(),
        content
    );
    assert_eq!(root.read_skill(NAME).unwrap(), written);
    assert_eq!(
        root.current_sha256(NAME).unwrap(),
        Some(written.sha256.clone())
    );
    assert_eq!(root.list_skills().unwrap(), std::slice::from_ref(&written));
    assert_eq!(
        root.read_file(SKILL).unwrap(),
        (content.into_bytes(), written.sha256)
    );
    assert_eq!(root.current_sha256("other").unwrap(), None);
    assert_eq!(root.read_skill("other"), Err(ProjectError::NotFound));
    let json = serde_json::to_value(root.read_skill(NAME).unwrap()).unwrap();
    assert_eq!(json["path"], SKILL);
    no_temp_files(dir.path());
}

#[test]
fn nothing_to_read_in_a_bare_project() {
    let (dir, roots) = project();
    let root = p(&roots);
    assert_eq!(root.list_skills().unwrap(), []);
    assert_eq!(root.read_skill(NAME), Err(ProjectError::NotFound));
    assert_eq!(root.current_sha256(NAME).unwrap(), None);
    assert!(tree(dir.path()).is_empty());
}

#[test]
fn create_only_refuses_an_existing_file() {
    let (dir, roots) = project();
    let root = p(&roots);
    let first = root.write_skill(NAME, &doc(NAME, "First."), None).unwrap();
    let refused = root.write_skill(NAME, &doc(NAME, "Second."), None);
    assert_eq!(
        refused,
        Err(ProjectError::Exists {
            current_sha256: first.sha256.clone()
        })
    );
    assert_eq!(root.read_skill(NAME).unwrap(), first);
    no_temp_files(dir.path());
}

#[test]
fn compare_and_set_replaces_exactly_the_file_read() {
    let (dir, roots) = project();
    let root = p(&roots);
    let first = root.write_skill(NAME, &doc(NAME, "First."), None).unwrap();
    let second = root
        .write_skill(NAME, &doc(NAME, "Second."), Some(&first.sha256))
        .unwrap();
    assert_eq!(second.sha256, sha(doc(NAME, "Second.")));
    assert_eq!(root.read_skill(NAME).unwrap(), second);

    // The first hash is stale now.
    let stale = root.write_skill(NAME, &doc(NAME, "Third."), Some(&first.sha256));
    assert_eq!(
        stale,
        Err(ProjectError::Changed {
            current_sha256: Some(second.sha256.clone())
        })
    );
    let junk = root.write_skill(NAME, &doc(NAME, "Third."), Some("not-a-hash"));
    assert!(matches!(junk, Err(ProjectError::Changed { .. })));
    assert_eq!(root.read_skill(NAME).unwrap(), second);

    // A digest echoed in uppercase names the same bytes.
    let third = root
        .write_skill(
            NAME,
            &doc(NAME, "Third."),
            Some(&second.sha256.to_uppercase()),
        )
        .unwrap();
    assert_eq!(root.read_skill(NAME).unwrap(), third);
    no_temp_files(dir.path());
}

#[test]
fn a_hash_for_a_missing_file_is_refused_and_creates_nothing() {
    let (dir, roots) = project();
    let root = p(&roots);
    let some = sha("anything");
    let gone = Err(ProjectError::Changed {
        current_sha256: None,
    });
    assert_eq!(root.write_skill(NAME, &doc(NAME, "D."), Some(&some)), gone);
    assert!(tree(dir.path()).is_empty(), "{:?}", tree(dir.path()));
    // With the folders there but no file, likewise.
    std::fs::create_dir_all(dir.path().join(".agents/skills").join(NAME)).unwrap();
    assert_eq!(root.write_skill(NAME, &doc(NAME, "D."), Some(&some)), gone);
    assert!(!dir.path().join(SKILL).exists());
    no_temp_files(dir.path());
}

#[test]
fn every_refusal_leaves_the_file_as_it_was() {
    let (dir, roots) = project();
    let root = p(&roots);
    let kept = root.write_skill(NAME, &doc(NAME, "Kept."), None).unwrap();
    let attempts: [(String, Option<String>); 5] = [
        (doc(NAME, "New."), None),
        (doc(NAME, "New."), Some(sha("other"))),
        (
            format!("---\ndescription: New.\nname: {NAME}\n---\n"),
            Some(kept.sha256.clone()),
        ),
        (doc("other-name", "New."), Some(kept.sha256.clone())),
        ("no frontmatter".to_owned(), Some(kept.sha256.clone())),
    ];
    for (content, expected) in attempts {
        assert!(
            root.write_skill(NAME, &content, expected.as_deref())
                .is_err()
        );
        assert_eq!(root.read_skill(NAME).unwrap(), kept);
        no_temp_files(dir.path());
    }
}

#[test]
fn the_document_is_checked_before_anything_is_written() {
    let (dir, roots) = project();
    let root = p(&roots);
    let rules = |r: Result<_, ProjectError>| match r {
        Err(ProjectError::Invalid(findings)) => findings
            .into_iter()
            .map(|f| (f.pointer, f.rule))
            .collect::<Vec<_>>(),
        other => panic!("{other:?}"),
    };
    let swapped = format!("---\ndescription: D.\nname: {NAME}\n---\n");
    assert_eq!(
        rules(root.write_skill(NAME, &swapped, None)),
        [("/content".to_owned(), "skill.frontmatter_order".to_owned())]
    );
    assert_eq!(
        rules(root.write_skill(NAME, &doc("another-skill", "D."), None)),
        [("/content".to_owned(), "skill.name_mismatch".to_owned())]
    );
    let big = format!("{}{}", doc(NAME, "D."), "x".repeat(64 * 1024));
    assert_eq!(
        rules(root.write_skill(NAME, &big, None)),
        [("/content".to_owned(), "skill.content_length".to_owned())]
    );
    assert!(tree(dir.path()).is_empty());
}

#[test]
fn skill_names_cannot_leave_their_folder() {
    let (dir, roots) = project();
    let root = p(&roots);
    for name in [
        "", ".", "..", "a/../b", "../b", "/etc", "a//b", "a/b", "a\0b", "A", "a.b",
    ] {
        let invalid = |r: Result<_, ProjectError>| {
            assert!(
                matches!(r, Err(ProjectError::InvalidPath { .. })),
                "{name:?}: {r:?}"
            );
        };
        invalid(root.write_skill(name, &doc(name, "D."), None).map(|_| ()));
        invalid(
            root.write_skill(name, &doc(name, "D."), Some(&sha("x")))
                .map(|_| ()),
        );
        invalid(root.read_skill(name).map(|_| ()));
        invalid(root.current_sha256(name).map(|_| ()));
    }
    assert!(tree(dir.path()).is_empty());
}

#[test]
fn read_file_takes_plain_relative_paths_only() {
    let (dir, roots) = project();
    let root = p(&roots);
    std::fs::create_dir_all(dir.path().join("src/a")).unwrap();
    std::fs::write(dir.path().join("src/a/lib.rs"), b"fn main() {}").unwrap();
    assert_eq!(
        root.read_file("src/a/lib.rs").unwrap(),
        (b"fn main() {}".to_vec(), sha(b"fn main() {}"))
    );
    for path in [
        "",
        "..",
        "../x",
        "src/../src/a/lib.rs",
        "src/a/../a/lib.rs",
        "./src/a/lib.rs",
        "src/./a/lib.rs",
        "/etc/passwd",
        "src//a/lib.rs",
        "src/a/lib.rs/",
        "src\0",
    ] {
        assert!(
            matches!(root.read_file(path), Err(ProjectError::InvalidPath { .. })),
            "{path:?}"
        );
    }
    assert_eq!(
        root.read_file("src/a/missing.rs"),
        Err(ProjectError::NotFound)
    );
    assert_eq!(
        root.read_file("nowhere/lib.rs"),
        Err(ProjectError::NotFound)
    );
    assert!(matches!(
        root.read_file("src/a"),
        Err(ProjectError::InvalidPath { .. })
    ));
    assert!(matches!(
        root.read_file("src/a/lib.rs/x"),
        Err(ProjectError::InvalidPath { .. })
    ));
}

#[test]
fn read_file_is_bounded_and_regular_files_only() {
    let (dir, roots) = project();
    let root = p(&roots);
    let limit = usize::try_from(MAX_FILE_BYTES).unwrap();
    std::fs::write(dir.path().join("max"), vec![b'x'; limit]).unwrap();
    std::fs::write(dir.path().join("over"), vec![b'x'; limit + 1]).unwrap();
    assert_eq!(root.read_file("max").unwrap().0.len(), limit);
    assert_eq!(root.read_file("over"), Err(ProjectError::TooLarge));
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        dir.path().join("fifo"),
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .unwrap();
    assert!(matches!(
        root.read_file("fifo"),
        Err(ProjectError::InvalidPath { .. })
    ));
}

/// A project with an outside directory holding a `SKILL.md`, a `secret`
/// and an empty `dir`, and what that outside tree holds.
fn with_outside() -> (TempDir, ProjectRoots, TempDir, Vec<String>) {
    let (dir, roots) = project();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("SKILL.md"), doc(NAME, "Outside.")).unwrap();
    std::fs::write(outside.path().join("secret"), "secret").unwrap();
    std::fs::create_dir(outside.path().join("dir")).unwrap();
    let before = tree(outside.path());
    (dir, roots, outside, before)
}

fn assert_untouched(outside: &Path, before: &[String]) {
    assert_eq!(tree(outside), before);
    assert_eq!(
        std::fs::read_to_string(outside.join("SKILL.md")).unwrap(),
        doc(NAME, "Outside.")
    );
    assert_eq!(
        std::fs::read_to_string(outside.join("secret")).unwrap(),
        "secret"
    );
}

fn is_symlink_at(r: Result<impl std::fmt::Debug, ProjectError>, at: &str) {
    match r {
        Err(ProjectError::Symlink { path }) => assert_eq!(path, at),
        other => panic!("expected a link at {at}, got {other:?}"),
    }
}

#[test]
fn a_link_at_agents_is_refused() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    // .agents -> outside, so .agents/skills/<name> would be outside/skills/<name>.
    symlink(outside.path(), dir.path().join(".agents")).unwrap();
    is_symlink_at(root.write_skill(NAME, &doc(NAME, "D."), None), ".agents");
    is_symlink_at(root.read_skill(NAME), ".agents");
    is_symlink_at(root.current_sha256(NAME), ".agents");
    is_symlink_at(root.list_skills(), ".agents");
    is_symlink_at(root.read_file(".agents/secret"), ".agents");
    assert_untouched(outside.path(), &before);
}

#[test]
fn a_link_at_skills_is_refused() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    std::fs::create_dir(dir.path().join(".agents")).unwrap();
    symlink(outside.path(), dir.path().join(".agents/skills")).unwrap();
    is_symlink_at(
        root.write_skill("dir", &doc("dir", "D."), None),
        ".agents/skills",
    );
    is_symlink_at(
        root.write_skill(NAME, &doc(NAME, "D."), Some(&sha("x"))),
        ".agents/skills",
    );
    is_symlink_at(root.read_skill("dir"), ".agents/skills");
    is_symlink_at(root.list_skills(), ".agents/skills");
    assert_untouched(outside.path(), &before);
}

#[test]
fn a_link_at_the_skill_folder_is_refused() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    std::fs::create_dir_all(dir.path().join(".agents/skills")).unwrap();
    symlink(outside.path(), dir.path().join(".agents/skills").join(NAME)).unwrap();
    let at = format!(".agents/skills/{NAME}");
    is_symlink_at(root.write_skill(NAME, &doc(NAME, "D."), None), &at);
    let outside_sha = sha(doc(NAME, "Outside."));
    is_symlink_at(
        root.write_skill(NAME, &doc(NAME, "D."), Some(&outside_sha)),
        &at,
    );
    is_symlink_at(root.read_skill(NAME), &at);
    is_symlink_at(root.current_sha256(NAME), &at);
    assert_eq!(root.list_skills().unwrap(), []);
    assert_untouched(outside.path(), &before);
    no_temp_files(dir.path());
}

#[test]
fn a_link_at_skill_md_is_refused_for_reads_and_writes() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    let folder = dir.path().join(".agents/skills").join(NAME);
    std::fs::create_dir_all(&folder).unwrap();
    symlink(outside.path().join("SKILL.md"), folder.join("SKILL.md")).unwrap();
    let outside_sha = sha(doc(NAME, "Outside."));
    is_symlink_at(root.write_skill(NAME, &doc(NAME, "D."), None), SKILL);
    is_symlink_at(
        root.write_skill(NAME, &doc(NAME, "D."), Some(&outside_sha)),
        SKILL,
    );
    is_symlink_at(root.read_skill(NAME), SKILL);
    is_symlink_at(root.current_sha256(NAME), SKILL);
    is_symlink_at(root.read_file(SKILL), SKILL);
    assert_eq!(root.list_skills().unwrap(), []);
    assert!(
        std::fs::symlink_metadata(folder.join("SKILL.md"))
            .unwrap()
            .is_symlink()
    );
    assert_untouched(outside.path(), &before);
    no_temp_files(dir.path());
}

#[test]
fn a_dangling_link_at_skill_md_is_never_created_through() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    let folder = dir.path().join(".agents/skills").join(NAME);
    std::fs::create_dir_all(&folder).unwrap();
    let target = outside.path().join("created");
    symlink(&target, folder.join("SKILL.md")).unwrap();
    is_symlink_at(root.write_skill(NAME, &doc(NAME, "D."), None), SKILL);
    assert!(!target.exists());
    assert_untouched(outside.path(), &before);
    no_temp_files(dir.path());
}

#[test]
fn a_link_at_the_lock_file_is_refused() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    std::fs::create_dir_all(dir.path().join(".agents/skills")).unwrap();
    let target = outside.path().join("lock");
    symlink(&target, dir.path().join(".agents/skills").join(LOCK_FILE)).unwrap();
    is_symlink_at(
        root.write_skill(NAME, &doc(NAME, "D."), None),
        &format!(".agents/skills/{LOCK_FILE}"),
    );
    assert!(!target.exists());
    assert!(!dir.path().join(".agents/skills").join(NAME).exists());
    assert_untouched(outside.path(), &before);
}

#[test]
fn read_file_refuses_a_link_at_a_folder_or_the_leaf() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    std::fs::create_dir_all(dir.path().join("docs/inner")).unwrap();
    symlink(outside.path(), dir.path().join("docs/inner/out")).unwrap();
    symlink(outside.path().join("secret"), dir.path().join("docs/leaf")).unwrap();
    symlink(outside.path(), dir.path().join("top")).unwrap();
    is_symlink_at(root.read_file("docs/inner/out/secret"), "docs/inner/out");
    is_symlink_at(root.read_file("docs/leaf"), "docs/leaf");
    is_symlink_at(root.read_file("top/secret"), "top");
    is_symlink_at(root.read_file("top"), "top");
    assert_untouched(outside.path(), &before);
}

#[test]
fn list_skills_skips_links_and_other_names() {
    let (dir, roots, outside, before) = with_outside();
    let root = p(&roots);
    let good = root
        .write_skill("good", &doc("good", "Good."), None)
        .unwrap();
    let skills = dir.path().join(".agents/skills");
    // A folder that is a link, to a folder holding a valid SKILL.md.
    std::fs::create_dir(outside.path().join("dir/linked")).unwrap();
    let linked_doc = doc("linked", "Linked.");
    std::fs::write(outside.path().join("dir/linked/SKILL.md"), &linked_doc).unwrap();
    symlink(outside.path().join("dir/linked"), skills.join("linked")).unwrap();
    // A real folder whose SKILL.md is a link.
    std::fs::create_dir(skills.join("leaf")).unwrap();
    symlink(
        outside.path().join("SKILL.md"),
        skills.join("leaf/SKILL.md"),
    )
    .unwrap();
    // Names that are not skill names, a folder without a file, a loose file.
    std::fs::create_dir(skills.join("Bad Name")).unwrap();
    std::fs::write(skills.join("Bad Name/SKILL.md"), doc("bad", "D.")).unwrap();
    std::fs::create_dir(skills.join("empty")).unwrap();
    std::fs::write(skills.join("loose"), "x").unwrap();
    // A SKILL.md that is a folder, and one that is not UTF-8.
    std::fs::create_dir_all(skills.join("folder/SKILL.md")).unwrap();
    std::fs::create_dir(skills.join("binary")).unwrap();
    std::fs::write(skills.join("binary/SKILL.md"), [0xff, 0xfe]).unwrap();
    assert_eq!(root.list_skills().unwrap(), [good]);
    assert_eq!(
        root.read_skill("binary"),
        Err(ProjectError::NotText {
            path: ".agents/skills/binary/SKILL.md".into()
        })
    );
    let before_linked: Vec<String> = before
        .iter()
        .cloned()
        .chain(["dir/linked".into(), "dir/linked/SKILL.md".into()])
        .collect();
    let mut expected = before_linked;
    expected.sort();
    assert_eq!(tree(outside.path()), expected);
}

#[test]
fn a_root_reached_through_a_link_is_the_operators_choice() {
    let real = tempfile::tempdir().unwrap();
    let links = tempfile::tempdir().unwrap();
    let via = links.path().join("project");
    symlink(real.path(), &via).unwrap();
    let roots = roots_at(&via);
    let written = p(&roots).write_skill(NAME, &doc(NAME, "D."), None).unwrap();
    assert_eq!(
        std::fs::read_to_string(real.path().join(SKILL)).unwrap(),
        written.content
    );
}

#[test]
fn an_update_keeps_the_files_permissions() {
    let (dir, roots) = project();
    let root = p(&roots);
    let first = root.write_skill(NAME, &doc(NAME, "First."), None).unwrap();
    let file = dir.path().join(SKILL);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    root.write_skill(NAME, &doc(NAME, "Second."), Some(&first.sha256))
        .unwrap();
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn project_roots_are_configured_not_requested() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let roots = ProjectRoots::new([
        ("b".to_owned(), dir.path().to_owned()),
        ("a.1_x-y".to_owned(), dir.path().to_owned()),
    ])
    .unwrap();
    assert_eq!(roots.ids().collect::<Vec<_>>(), ["a.1_x-y", "b"]);
    assert_eq!(roots.get("b").unwrap().path(), dir.path());
    assert_eq!(roots.get("b").unwrap().id(), "b");
    assert_eq!(
        roots.get("c").unwrap_err(),
        ProjectError::UnknownProject("c".into())
    );
    let config = |pairs: Vec<(&str, PathBuf)>| {
        let pairs = pairs.into_iter().map(|(id, p)| (id.to_owned(), p));
        matches!(ProjectRoots::new(pairs), Err(ProjectError::Config(_)))
    };
    assert!(config(vec![("", dir.path().into())]));
    assert!(config(vec![("a/b", dir.path().into())]));
    assert!(config(vec![(&"x".repeat(65), dir.path().into())]));
    assert!(config(vec![("a", dir.path().join("missing"))]));
    assert!(config(vec![("a", file)]));
    assert!(config(vec![
        ("a", dir.path().into()),
        ("a", dir.path().into())
    ]));
}

/// Two writers released at once, in this process (the mutex) or as two
/// separately configured roots over one directory (the lock file).
fn race<T: Send + 'static>(
    roots: [Arc<ProjectRoots>; 2],
    write: impl Fn(&ProjectRoot, usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(2));
    let write = Arc::new(write);
    let handles: Vec<_> = roots
        .into_iter()
        .enumerate()
        .map(|(i, roots)| {
            let (barrier, write) = (barrier.clone(), write.clone());
            thread::spawn(move || {
                barrier.wait();
                write(p(&roots), i)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn racers(dir: &Path, shared: bool) -> [Arc<ProjectRoots>; 2] {
    let one = Arc::new(roots_at(dir));
    let two = if shared {
        one.clone()
    } else {
        Arc::new(roots_at(dir))
    };
    [one, two]
}

#[test]
fn racing_creates_have_one_winner() {
    for round in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let results = race(racers(dir.path(), round % 2 == 0), |root, i| {
            root.write_skill(NAME, &doc(NAME, &format!("Writer {i}.")), None)
        });
        let winners: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(winners.len(), 1, "{results:?}");
        let winner = winners[0].clone();
        let lost: Vec<_> = results.into_iter().filter_map(Result::err).collect();
        assert_eq!(
            lost,
            [ProjectError::Exists {
                current_sha256: winner.sha256.clone()
            }]
        );
        assert_eq!(p(&roots_at(dir.path())).read_skill(NAME).unwrap(), winner);
        no_temp_files(dir.path());
    }
}

#[test]
fn racing_updates_from_one_hash_have_one_winner() {
    for round in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let base = p(&roots_at(dir.path()))
            .write_skill(NAME, &doc(NAME, "Base."), None)
            .unwrap();
        let results = race(racers(dir.path(), round % 2 == 0), move |root, i| {
            root.write_skill(
                NAME,
                &doc(NAME, &format!("Writer {i}.")),
                Some(&base.sha256),
            )
        });
        let winners: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(winners.len(), 1, "{results:?}");
        let winner = winners[0].clone();
        let lost: Vec<_> = results.into_iter().filter_map(Result::err).collect();
        assert_eq!(
            lost,
            [ProjectError::Changed {
                current_sha256: Some(winner.sha256.clone())
            }]
        );
        assert_eq!(p(&roots_at(dir.path())).read_skill(NAME).unwrap(), winner);
        no_temp_files(dir.path());
    }
}
