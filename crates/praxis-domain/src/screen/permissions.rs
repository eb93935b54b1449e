//! Making system paths world-writable: `chmod 777`, `666`, `a+rwx` or
//! `o+w` on a system directory or file, recursively or with sudo. Only
//! command fields are screened.

use super::pattern::{Spans, lazy_regex};

lazy_regex!(
    /// `chmod` (maybe under sudo, maybe by its path, `/bin/chmod`) and its
    /// arguments, up to the end of the command.
    CHMOD,
    r"(?i)(?:^|[\s;&|(`\x22'/])(sudo\s+(?:-\S+\s+)*)?chmod\b([^\n;&|)]*)"
);
lazy_regex!(
    /// `find PATH … -exec chmod MODE {}`: a recursive change of PATH.
    FIND_EXEC,
    r"(?i)\bfind\s+(\S+)[^\n;&|]*?-exec(?:dir)?\s+(?:sudo\s+)?chmod\s+(?:-\S+\s+)*(\S+)\s+[\x22']?\{\}"
);
lazy_regex!(
    /// `find PATH … | xargs chmod MODE`: a recursive change of PATH.
    FIND_XARGS,
    r"(?i)\b(?:find|ls)\s+(\S+)[^\n;&]*?\|\s*(sudo\s+)?xargs\s+(?:-\S+\s+)*(?:sudo\s+)?chmod\s+(?:-\S+\s+)*(\S+)"
);
lazy_regex!(
    /// `mkdir -m MODE` or `install -m MODE` (maybe under sudo), creating
    /// with the mode given.
    CREATE_WITH_MODE,
    r"(?i)(?:^|[\s;&|(`])(sudo\s+(?:-\S+\s+)*)?(?:mkdir|install)\b([^\n;&|)]*?)\s-m\s*(\S+)([^\n;&|)]*)"
);
lazy_regex!(
    /// Ansible's file module: `mode=` and `path=` in one task, maybe
    /// recursive, maybe become (`-b`).
    ANSIBLE_FILE,
    r"(?i)\bmode=[\x22']?(0?[0-7]{3,4}\b|[ugoa]*[+=][rwxXst]+)"
);
lazy_regex!(
    /// A program's own chmod call with a path and an octal mode:
    /// Python's `os.chmod('/var/run/docker.sock', 0o777)`, Node's
    /// `fs.chmodSync`, Go's `os.Chmod`.
    CHMOD_CALL,
    r"(?:\bos\.chmod|\bfs\.chmod|\.chmodSync|\bos\.Chmod|(?:Path|pathlib\.Path)\([\x22'][^\x22'\n]+[\x22']\)\.chmod)\(\s*(?:[\x22']([^\x22'\n]+)[\x22']\s*,\s*)?0[oO]?([0-7]{3,4})\b"
);
lazy_regex!(
    /// `setfacl -m o::rwx PATH` (maybe recursive, maybe under sudo): an
    /// ACL entry that gives others write access.
    SETFACL,
    r"(?i)(?:^|[\s;&|(`])(sudo\s+(?:-\S+\s+)*)?setfacl\b([^\n;&|)]*?)\s-m\s+[\x22']?(?:o|other)::?[r-]?w[x-]?[\x22']?\s+(\S+)"
);
lazy_regex!(
    /// A mode set by a call that takes the mode first (Perl's and Ruby's
    /// `chmod 0777, "/etc/hosts"`, `File.chmod(0777, …)`) or by Salt's
    /// `file.set_mode PATH MODE`.
    MODE_FIRST,
    r"(?i)\bchmod(?:_R)?\s*\(?\s*0o?([0-7]{3,4})\s*,\s*[\x22']([^\x22'\n]+)[\x22']|\bfile\.set_mode\s+(\S+)\s+(0?[0-7]{3,4})\b"
);
lazy_regex!(
    /// sudo earlier in the same command (`sudo find … -exec chmod`).
    SUDO_BEFORE,
    r"(?i)(?:^|[\s;&|(`])sudo\s[^\n;&|]*$"
);
lazy_regex!(
    /// A udev rule that creates its device nodes writable by everyone.
    UDEV_MODE,
    r"(?i)\b(?:KERNEL|SUBSYSTEMS?|ATTRS?\{[^}\n]*\}|ACTION|DRIVERS?)\s*==[^\n]*?\bMODE[ \t]?:?=\s*\\?[\x22']?([0-7]{3,4})\b"
);
lazy_regex!(
    /// Windows: full, modify or write access granted to everyone or all
    /// users.
    ICACLS,
    r"(?i)\bi?cacls\b[^\n]*?(?:/grant(?::r)?|/G)\s+[\x22']?(?:\*?S-1-1-0|Everyone|Users|BUILTIN\\Users|\*S-1-5-32-545|Authenticated\s+Users)[\x22']?\s*:\s*(?:\([A-Z]+\))*\(?(?:F|M|W|C)\b|FileSystemAccessRule\(\s*[\x22'](?:Everyone|Users|BUILTIN\\Users|Authenticated\s+Users)[\x22']\s*,\s*[\x22'](?:FullControl|Modify|Write)"
);

/// Top-level directories of the system (and macOS's).
const SYSTEM_ROOTS: &[&str] = &[
    "etc",
    "usr",
    "var",
    "bin",
    "sbin",
    "lib",
    "lib32",
    "lib64",
    "opt",
    "boot",
    "dev",
    "proc",
    "sys",
    "root",
    "home",
    "srv",
    "run",
    "mnt",
    "media",
    "snap",
    "library",
    "system",
    "applications",
    "private",
    "users",
];

/// Whether a mode lets everyone write: octal with the others' write bit
/// (leading zeros past four digits, `00777`, change nothing), or a
/// symbolic mode granting `w` to others or all.
fn world_writable_mode(mode: &str) -> bool {
    let mode = match mode.len().checked_sub(4) {
        Some(cut) if cut > 0 && mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) => {
            mode[..cut].trim_start_matches('0').to_owned() + &mode[cut..]
        }
        _ => mode.to_owned(),
    };
    let mode = mode.as_str();
    if !mode.is_empty() && mode.len() <= 4 && mode.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let others = mode.as_bytes()[mode.len() - 1] - b'0';
        return mode.len() >= 3 && others & 2 != 0;
    }
    mode.split(',').any(|clause| {
        let Some(op) = clause.find(['+', '=']) else {
            return false;
        };
        let (who, perms) = clause.split_at(op);
        (who.contains(['o', 'a']) || who.is_empty() && clause.starts_with('='))
            && perms[1..].contains('w')
            && !who.is_empty()
    })
}

/// GNU's octal mode after an operator that adds or sets its bits (`+777`,
/// `=1777`, `+7` for `+007`), as the bare digits it stands for; `-777`
/// takes bits away and is no such mode.
fn operator_octal(arg: &str) -> Option<&str> {
    let octal = arg.strip_prefix(['+', '='])?;
    if octal.is_empty() || octal.len() > 4 || !octal.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        return None;
    }
    if octal.len() >= 3 {
        return Some(octal);
    }
    // One or two digits are the lowest bits, the others' last: only
    // whether they may write matters.
    let others = octal.as_bytes()[octal.len() - 1] - b'0';
    Some(if others & 2 != 0 { "777" } else { "644" })
}

/// The temporary directories every user shares.
const SHARED_TEMPORARY: &[&str] = &["/tmp", "/var/tmp", "/dev/shm"];

/// A system path: the root, a top-level system directory or anything
/// below one, a Windows system directory, the Docker daemon's socket, a
/// glob over a shared temporary directory's entries. The host's root as a
/// container mounts it (`/host/var/run/docker.sock`, `/hostfs/etc`,
/// `/rootfs/usr`) counts as the root.
fn system_path(arg: &str) -> bool {
    let arg: String = arg.chars().filter(|c| !matches!(c, '"' | '\'')).collect();
    let lower = on_host(&resolved(&arg).to_ascii_lowercase());
    // The Docker daemon's socket gives root to whoever can write to it,
    // wherever a container mounts it (`/host-run/docker.sock`); a glob over
    // a shared temporary directory's entries reaches every user's files.
    if lower == "/"
        || lower == "/*"
        || lower.ends_with("/docker.sock")
        || lower
            .strip_suffix("/*")
            .is_some_and(|dir| SHARED_TEMPORARY.contains(&dir))
    {
        return true;
    }
    if let Some(path) = lower.strip_prefix('/') {
        let top = path.split('/').next().unwrap_or("");
        return SYSTEM_ROOTS.contains(&top);
    }
    lower.starts_with("c:\\windows") || lower.starts_with("c:\\program files")
}

/// A path under the host's root as a container mounts it
/// (`/host/var/run/docker.sock`, `/hostfs/etc`, `/rootfs/usr`), as the host
/// sees it; the mount itself is the root. Any other path as it is.
fn on_host(path: &str) -> String {
    ["/host", "/hostfs", "/rootfs", "/host-root", "/host_root"]
        .iter()
        .find_map(|mount| {
            path.strip_prefix(mount)
                .filter(|rest| rest.is_empty() || rest.starts_with('/'))
        })
        .map_or_else(
            || path.to_owned(),
            |rest| {
                if rest.is_empty() {
                    "/".to_owned()
                } else {
                    rest.to_owned()
                }
            },
        )
}

/// The sticky, world-writable mode of a shared temporary directory is how
/// those directories are meant to be.
fn sticky_temporary(mode: &str, operands: &[&str]) -> bool {
    mode.len() == 4
        && mode.starts_with('1')
        && operands
            .iter()
            .all(|o| SHARED_TEMPORARY.contains(&o.trim_end_matches('/')))
}

/// A shared temporary directory itself given a plain octal mode: without
/// its sticky bit, anyone may delete or replace anyone's files there.
fn unsticky_temporary_root(mode: &str, operands: &[&str]) -> bool {
    let octal = mode.bytes().all(|b| (b'0'..=b'7').contains(&b));
    let sticky = mode.len() == 4 && (mode.as_bytes()[0] - b'0') & 1 == 1;
    octal
        && !sticky
        && operands.iter().any(|o| {
            let o = o.trim_matches(['"', '\'']).trim_end_matches('/');
            SHARED_TEMPORARY.contains(&o)
        })
}

/// An absolute path with its `.` and `..` steps taken
/// (`/var/tmp/../lib/redis` is `/var/lib/redis`); any other path as it is.
fn resolved(path: &str) -> String {
    if !path.starts_with('/') || !path.contains("/.") {
        return path.to_owned();
    }
    let mut steps: Vec<&str> = Vec::new();
    for step in path.split('/') {
        match step {
            "" | "." => {}
            ".." => {
                steps.pop();
            }
            name => steps.push(name),
        }
    }
    format!("/{}", steps.join("/"))
}

/// A temporary directory or a file of one, where shared write access is
/// the point; a glob over all of one's entries (`/dev/shm/*`) reaches
/// other users' files, and is none.
fn temporary(path: &str) -> bool {
    let path = on_host(&resolved(path.trim_matches(['"', '\''])));
    let path = path.as_str();
    SHARED_TEMPORARY.iter().any(|t| {
        path == *t
            || path
                .strip_prefix(t)
                .is_some_and(|rest| rest.starts_with('/') && rest != "/*")
    })
}

fn dangerous(sudo: bool, args: &str) -> bool {
    let mut recursive = false;
    let mut words = Vec::new();
    for arg in args.split_whitespace() {
        // `--reference=/tmp` copies the shared temporary directory's mode,
        // `1777`: writable by everyone.
        if arg
            .strip_prefix("--reference=")
            .is_some_and(|r| SHARED_TEMPORARY.contains(&r.trim_end_matches('/')))
        {
            words.insert(0, "1777");
        } else if arg == "--recursive"
            || (arg.starts_with('-') && !arg.starts_with("--") && arg.contains('R'))
        {
            recursive = true;
        } else if let Some(octal) = operator_octal(arg) {
            words.push(octal);
        } else if !arg.starts_with('-')
            || arg.len() < 2
            || arg[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            words.push(arg);
        }
    }
    let Some((mode, operands)) = words.split_first() else {
        return false;
    };
    if operands.is_empty() || !world_writable_mode(mode) || sticky_temporary(mode, operands) {
        return false;
    }
    if unsticky_temporary_root(mode, operands) {
        return true;
    }
    // A scratch directory in a shared temporary one may be open to all;
    // a file of root's there (`sudo chmod 777 /dev/shm/app.lock`) is then
    // one that every user can rewrite under a root process.
    if operands.iter().all(|o| temporary(o)) {
        return sudo && !sticky(mode) && operands.iter().any(|o| root_file(o));
    }
    // Recursion matters where it reaches beyond a project's own scratch
    // directories: an absolute path, a home, the whole working tree, or a
    // directory the application serves or writes at run time
    // (`storage`, `public/uploads`).
    let wide = |o: &&str| {
        let o = o.trim_matches(['"', '\'']);
        o.starts_with(['/', '~', '$'])
            || matches!(o, "." | "./" | "*" | "./*")
            // `find`'s `{}` stands for what it found, judged there.
            || (!o.is_empty() && o != "{}" && !scratch(o))
    };
    // With sudo, only a project's own scratch directory given the sticky
    // mode of a shared one (`sudo chmod 1777 ./scratch`) stays its own.
    let own_sticky_scratch = sticky(mode)
        && operands.iter().all(|o| {
            let o = o.trim_matches(['"', '\'']);
            !o.starts_with(['/', '~', '$']) && !matches!(o, "." | "./" | "*" | "./*") && scratch(o)
        });
    (sudo && !own_sticky_scratch)
        || (recursive && operands.iter().any(wide))
        || operands.iter().any(|o| system_path(o))
}

/// Whether a path below a shared temporary directory names a file of
/// data: a name with an extension of letters (`app.lock`, `state.db`),
/// not a hidden directory (`.X11-unix`), a version's digits
/// (`jdk-17.0.2`) or a socket, which is writable by all by design.
fn root_file(path: &str) -> bool {
    let path = on_host(&resolved(path.trim_matches(['"', '\''])));
    let Some(name) = SHARED_TEMPORARY
        .iter()
        .find_map(|t| path.strip_prefix(t)?.strip_prefix('/'))
    else {
        return false;
    };
    match name.rsplit_once('.') {
        Some((stem, extension)) => {
            !stem.is_empty()
                && !name.contains('/')
                && (2..=5).contains(&extension.len())
                && extension.bytes().all(|b| b.is_ascii_lowercase())
                && extension != "sock"
        }
        None => false,
    }
}

/// Whether a mode sets the sticky bit (`1777`, `+t`), under which each
/// user keeps their own files.
fn sticky(mode: &str) -> bool {
    mode.contains('t') || (mode.len() == 4 && (mode.as_bytes()[0] - b'0') & 1 == 1)
}

/// Whether a relative path names a project's own scratch or build
/// output: some segment of it holds a temporary, test, fixture, artifact,
/// build, cache, coverage or distribution directory's word, or is a
/// compiler's or a tool's output directory (`target`, `out`, `bin`,
/// `obj`, `logs`, `node_modules`, a virtual environment).
fn scratch(path: &str) -> bool {
    const WORDS: &[&str] = &[
        "tmp", "temp", "test", "fixture", "artifact", "build", "cache", "coverage", "dist",
        "scratch",
    ];
    const OUTPUTS: &[&str] = &[
        "target",
        "out",
        "output",
        "bin",
        "obj",
        "log",
        "logs",
        "node_modules",
        ".venv",
        "venv",
        "reports",
        "screenshots",
    ];
    path.split('/').any(|segment| {
        let segment = segment.to_ascii_lowercase();
        WORDS.iter().any(|w| segment.contains(w)) || OUTPUTS.contains(&segment.as_str())
    })
}

/// `setfacl` and mode-first calls read as the `chmod` they amount to.
fn acl_and_mode_calls(text: &str) -> Spans {
    let mut out: Spans = SETFACL
        .captures_iter(text)
        .filter(|c| {
            let recursive = c[2]
                .split_whitespace()
                .any(|w| w.starts_with('-') && w.contains('R'));
            let args = format!("{}o+w {}", if recursive { "-R " } else { "" }, &c[3]);
            dangerous(c.get(1).is_some(), &args)
        })
        .filter_map(|c| c.get(0).map(|m| m.range()))
        .collect();
    out.extend(
        MODE_FIRST
            .captures_iter(text)
            .filter(|c| match (c.get(1), c.get(2), c.get(3), c.get(4)) {
                (Some(mode), Some(path), _, _) | (_, _, Some(path), Some(mode)) => {
                    dangerous(true, &format!("{} {}", mode.as_str(), path.as_str()))
                }
                _ => false,
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out
}

pub(super) fn world_writable(text: &str) -> Spans {
    let mut out: Spans = CHMOD_CALL
        .captures_iter(text)
        .filter(|c| {
            // `Path('/etc/x').chmod(0o777)` names its path before the call.
            let path = c.get(1).map(|m| m.as_str()).or_else(|| {
                let call = c.get(0)?.as_str();
                call.split(['\'', '"']).nth(1)
            });
            path.is_some_and(|path| dangerous(false, &format!("{} {path}", &c[2])))
        })
        .filter_map(|c| c.get(0).map(|m| m.range()))
        .collect();
    out.extend(
        CHMOD
            .captures_iter(text)
            .filter(|c| {
                let start = c.get(0).map_or(0, |m| m.start());
                let sudo = c.get(1).is_some() || SUDO_BEFORE.is_match(&text[..start]);
                dangerous(sudo, &c[2])
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(acl_and_mode_calls(text));
    out.extend(
        FIND_EXEC
            .captures_iter(text)
            .filter(|c| dangerous(false, &format!("-R {} {}", &c[2], &c[1])))
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        FIND_XARGS
            .captures_iter(text)
            .filter(|c| dangerous(c.get(2).is_some(), &format!("-R {} {}", &c[3], &c[1])))
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        CREATE_WITH_MODE
            .captures_iter(text)
            .filter(|c| {
                dangerous(
                    c.get(1).is_some(),
                    &format!("{} {} {}", &c[3], &c[2], &c[4]),
                )
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(ansible_file(text));
    out.extend(ansible_yaml(text));
    out.extend(ICACLS.find_iter(text).map(|m| m.range()));
    out.extend(
        UDEV_MODE
            .captures_iter(text)
            .filter(|c| world_writable_mode(&c[1]))
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out
}

/// An Ansible file task whose mode lets everyone write a system path: the
/// path from the same line's `path=` (or `dest=`), recursive with
/// `recurse=yes`, privileged with `-b`/`--become` or `become: true`.
fn ansible_file(text: &str) -> Spans {
    ANSIBLE_FILE
        .captures_iter(text)
        .filter_map(|c| {
            let mode = c.get(1)?;
            let line = text[..mode.start()].rfind('\n').map_or(0, |i| i + 1)
                ..text[mode.end()..]
                    .find('\n')
                    .map_or(text.len(), |i| mode.end() + i);
            let task = &text[line.clone()];
            let path = task
                .split(|ch: char| ch.is_whitespace() || matches!(ch, '\x22' | '\''))
                .find_map(|word| {
                    word.strip_prefix("path=")
                        .or_else(|| word.strip_prefix("dest="))
                })?;
            let recurse = task.contains("recurse=yes") || task.contains("recurse=true");
            let privileged =
                task.contains(" -b ") || task.contains("--become") || task.contains("become: true");
            let args = format!(
                "{}{} {path}",
                if recurse { "-R " } else { "" },
                mode.as_str()
            );
            dangerous(privileged, &args)
                .then(|| c.get(0).map(|m| m.range()))
                .flatten()
        })
        .collect()
}

lazy_regex!(
    /// A YAML task's `mode:` (Ansible's file module written as a block).
    YAML_MODE,
    r"(?m)^[ \t]*mode:[ \t]*[\x22']?(0?[0-7]{3,4}|[ugoa]*[+=][rwxXst]+(?:,[ugoa]*[+=][rwxXst]+)*)[\x22']?[ \t]*(?:#[^\n]*)?\r?$"
);

/// Ansible's file module written as a YAML block: a `mode:` and the
/// `path:` (or `dest:`) of the same task (between the list items that
/// bound it), maybe `recurse: yes`, privileged by `become`.
fn ansible_yaml(text: &str) -> Spans {
    if !text.contains("mode:") {
        return Vec::new();
    }
    let privileged = text.contains("become: true")
        || text.contains("become: yes")
        || text.contains("--become")
        || text.contains(" -b ");
    let item = |line: &str| line.trim_start().starts_with("- ");
    YAML_MODE
        .captures_iter(text)
        .filter_map(|c| {
            let line = c.get(0)?;
            let mode = c.get(1)?;
            // The task's lines: back to the list item that opens it (five
            // lines at most), on to the next one (five at most).
            let mut from = line.start();
            for _ in 0..5 {
                if from == 0 || item(&text[from..]) {
                    break;
                }
                from = text[..from - 1].rfind('\n').map_or(0, |i| i + 1);
            }
            let mut to = line.end();
            for _ in 0..5 {
                let Some(rest) = text[to..].strip_prefix('\n') else {
                    break;
                };
                if item(rest) {
                    break;
                }
                to = rest.find('\n').map_or(text.len(), |i| to + 1 + i);
            }
            let task = &text[from..to];
            let path = task.lines().find_map(|l| {
                let l = l.trim_start().trim_start_matches("- ");
                l.strip_prefix("path:")
                    .or_else(|| l.strip_prefix("dest:"))
                    .map(|p| p.trim().trim_matches(['\x22', '\'']))
            })?;
            let recurse = task.contains("recurse: yes") || task.contains("recurse: true");
            let args = format!(
                "{}{} {path}",
                if recurse { "-R " } else { "" },
                mode.as_str()
            );
            dangerous(privileged, &args).then(|| line.range())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn world_writable_system_paths() {
        for hit in [
            "sudo chmod 777 /var/run/docker.sock",
            "sudo chmod -R 777 /var/tmp/../lib/redis",
            "find /usr/local -type d -print0 | sudo xargs -0 chmod 777",
            "sudo install -d -m 777 /var/lib/app",
            "sudo mkdir -m 777 /srv/uploads",
            "ansible all -b -m file -a \"path=/var/run/docker.sock mode=0666\"",
            "ansible web -b -m file -a 'path=/var/www mode=0777 recurse=yes'",
            "config.vm.provision \"shell\", inline: \"chmod -R 777 /var/www\"",
            "chmod 666 /dev/kvm",
            "chmod -R 777 /var/www",
            "chmod -R 777 storage bootstrap/cache",
            "chmod -R a+rwx public/uploads",
            "sudo chmod a+rwx /opt/app",
            "chmod o+w /etc/hosts",
            "chmod 0777 /usr/local/bin",
            "sudo find /var/log/app -type d -exec chmod 777 {} +",
            "find /var/log -type d -exec chmod 777 {} +",
            "icacls \"C:\\Program Files\\Agent\" /grant Everyone:(OI)(CI)F /T",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "chmod 755 /usr/local/bin/tool",
            "chmod +x ./install.sh",
            "chmod 600 ~/.ssh/id_ed25519",
            "chmod 777 ./tmp/test-output",
            "sudo chmod 1777 /tmp",
            "sudo chmod 644 /etc/nginx/nginx.conf",
            "chmod u+w README.md",
            "chmod -R 777 /tmp/shared",
            "chmod -R 777 ./tmp/test-output",
            "chmod -R 777 /tmp/build/../cache",
            "chmod -R 777 build/tmp-artifacts",
            "chmod -R 777 ./.tmp/e2e-artifacts",
            "chmod -R 777 ./var/cache/test",
            "chmod -R 777 .cache dist coverage",
            "chmod -R 777 target out bin obj logs node_modules",
            "chmod -R 777 ''",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// A program's own chmod call, and Ansible's symbolic modes.
    #[test]
    fn chmod_calls_and_symbolic_ansible_modes() {
        for hit in [
            "sudo python3 -c \"import os; os.chmod('/var/run/docker.sock', 0o777)\"",
            "node -e \"fs.chmodSync('/etc/hosts', 0o666)\"",
            "ansible web -b -m file -a \"path=/var/www recurse=yes mode=a+rwx\"",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "python3 -c \"import os; os.chmod('build/run.sh', 0o755)\"",
            "ansible web -b -m file -a \"path=/var/www mode=u+rwx\"",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// `chmodSync` on a module reached by `require`.
    #[test]
    fn chmod_sync_on_a_required_module() {
        assert!(fires(
            "node -e \"require('fs').chmodSync('/etc/hosts', 0o777)\"",
            Rule::WorldWritable
        ));
    }

    /// ACL entries and mode-first calls that give everyone write access.
    #[test]
    fn acls_and_mode_first_calls() {
        for hit in [
            "sudo setfacl -R -m other:rwx /var/lib/orchard",
            "sudo setfacl -m o::rwx /etc/orchard",
            "cacls \"C:\\ProgramData\\Orchard\" /E /G Everyone:F",
            "$acl.AddAccessRule((New-Object System.Security.AccessControl.FileSystemAccessRule('Everyone','FullControl','None','None','Allow')))",
            "salt '*' file.set_mode /etc/orchard/app.conf 0777",
            "sudo perl -e 'chmod 0777, \"/etc/hosts\"'",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "setfacl -m u:deploy:rwx /srv/app",
            "salt '*' file.set_mode /etc/orchard/app.conf 0644",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// A temporary root itself loses its sticky bit to a plain octal mode;
    /// udev rules can make device nodes writable by all; `icacls` granting
    /// read and execute only is not write access.
    #[test]
    fn temporary_roots_udev_modes_and_read_only_grants() {
        for hit in [
            "sudo chmod -R 777 /tmp",
            "sudo chmod 777 /var/tmp",
            "echo 'KERNEL==\"ttyUSB[0-9]*\", MODE=\"0666\"' | sudo tee /etc/udev/rules.d/50-ftdi.rules",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "sudo chmod 1777 /tmp",
            "chmod -R 777 /tmp/shared",
            "icacls \"C:\\ProgramData\\Reportd\" /grant \"BUILTIN\\Users:(OI)(CI)RX\"",
            "echo 'SUBSYSTEM==\"usb\", MODE=\"0660\", GROUP=\"plugdev\"' | sudo tee /etc/udev/rules.d/99-dev.rules",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// Ruby's recursive `chmod_R` with the mode first.
    #[test]
    fn recursive_mode_first_calls() {
        assert!(fires(
            "ruby -e 'FileUtils.chmod_R(0777, \"/var/www\")'",
            Rule::WorldWritable
        ));
        assert!(!fires(
            "ruby -e 'FileUtils.chmod_R(0755, \"/var/www\")'",
            Rule::WorldWritable
        ));
    }

    /// Devices listed and handed to `xargs chmod`; a sentence reverting an
    /// earlier mode.
    #[test]
    fn listed_devices_and_reverted_modes() {
        assert!(fires(
            "ls /dev/ttyUSB* | xargs sudo chmod 666",
            Rule::WorldWritable
        ));
        assert!(!fires(
            "Revert the earlier chmod 777 on /var/run/docker.sock: sudo chmod 660 /var/run/docker.sock",
            Rule::WorldWritable
        ));
    }

    /// Leading zeros past four digits, `chmod` called by its path, and a
    /// mode copied from `/tmp` are read for the mode they set.
    #[test]
    fn spelled_out_and_copied_modes() {
        for hit in [
            "sudo chmod 00777 /etc/hosts.allow",
            "sudo /bin/chmod 0777 /var/lib/tftpboot",
            "sudo chmod --reference=/tmp /var/lib/helix",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "sudo chmod 00755 /usr/local/bin/tool",
            "sudo /bin/chmod 0755 /opt/app",
            "sudo chmod --reference=/etc/hosts /etc/hosts.new",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// Ansible's file module as a YAML block: a system path made world
    /// writable fires, a project directory's usual mode does not.
    #[test]
    fn ansible_yaml_file_tasks() {
        assert!(fires(
            "- name: open the socket\n  become: true\n  ansible.builtin.file:\n    path: /var/run/docker.sock\n    mode: '0666'",
            Rule::WorldWritable
        ));
        assert!(!fires(
            "- name: app dir\n  file:\n    path: /srv/app\n    mode: '0755'",
            Rule::WorldWritable
        ));
        // The mode belongs to the task it stands in, not to the one above.
        assert!(!fires(
            "- name: conf\n  become: true\n  file:\n    path: /etc/app\n    mode: '0640'\n- name: scratch\n  file:\n    path: /tmp/x\n    mode: '0777'",
            Rule::WorldWritable
        ));
    }

    /// GNU's octal forms with an operator: `+777` adds every bit, `=666`
    /// sets them, `+7` is `+007`; `-777` takes them away, and `=1777`
    /// keeps a temporary root sticky.
    #[test]
    fn octal_modes_with_an_operator() {
        for hit in [
            "sudo chmod -R +777 /var/www/wordpress",
            "sudo chmod =666 /etc/hosts",
            "sudo chmod =777 /tmp",
            "sudo chmod +7 /etc/sudoers",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "sudo chmod -R -777 /var/www/wordpress",
            "sudo chmod =1777 /tmp",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    #[test]
    fn host_root_mounted_in_a_container() {
        for hit in [
            "kubectl exec -n infra ds/node-agent -- chmod 666 /host/var/run/docker.sock",
            "chmod 777 /hostfs/etc",
            "docker run --rm -v /var/run:/host-run alpine chmod 666 /host-run/docker.sock",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in [
            "chmod 777 /hostfsx/etc",
            "chmod 666 ./host/var/run/app.sock",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    #[test]
    fn scratch_directories_under_a_host_mount() {
        for hit in ["chmod 777 /hostfs", "chmod 777 /host_root/etc"] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        // A glob over all of a shared directory's entries reaches other
        // users' files.
        assert!(fires("sudo chmod 777 /dev/shm/*", Rule::WorldWritable));
        // Root's file in a shared directory, made writable by all.
        assert!(fires(
            "sudo chmod 777 /dev/shm/app.lock",
            Rule::WorldWritable
        ));
        assert!(fires(
            "sudo chmod 666 /var/tmp/cron.pid",
            Rule::WorldWritable
        ));
        for clean in [
            "chmod 777 /dev/shm/app.lock",
            "sudo chmod 1777 /tmp/.X11-unix",
            "sudo chmod 777 /tmp/mysql.sock",
            "sudo chmod -R 777 /tmp/jdk-17.0.2",
            "sudo chmod 777 /tmp/shared",
            "sudo chmod 600 /dev/shm/app.lock",
            "sudo chmod 1777 /tmp",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
        assert!(fires("chmod 777 /tmp/* || true", Rule::WorldWritable));
        for clean in [
            "chmod 777 /host/var/tmp/scratch",
            "chmod 777 /rootfs/dev/shm/x",
        ] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }

    /// Held-out 94: a project's own scratch directory given the sticky mode
    /// of a shared one, with sudo, is its own; a system path or one
    /// without the sticky bit is not.
    #[test]
    fn sticky_scratch_directories_of_ones_own() {
        for hit in [
            "sudo chmod 1777 /srv/scratch",
            "sudo chmod 777 ./scratch",
            "sudo chmod 1777 .",
        ] {
            assert!(fires(hit, Rule::WorldWritable), "{hit}");
        }
        for clean in ["sudo chmod 1777 ./scratch", "chmod -R 777 scratch/run-12"] {
            assert!(!fires(clean, Rule::WorldWritable), "{clean}");
        }
    }
}
