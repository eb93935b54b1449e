//! Unsafe commands: downloads piped to a shell, encoded PowerShell, disk
//! wipes, fork bombs, and recursive deletes or permission changes of a
//! root, a system directory or a home. Only command fields are screened
//! for these.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::gate::{Doors, Gates};
use super::pattern::{Spans, find_ignoring_case, lazy_regex, matches};

lazy_regex!(
    PIPE_TO_SHELL,
    r#"(?i)(?:\b(?:curl|wget2?|fetch|aria2c|iwr|invoke-webrequest|irm|invoke-restmethod|lynx|w3m|elinks|lwp-request|lwp-download|xh|xhs|curlie)\b|\bftp\s+(?:-\S+\s+)*-o\s*-(?:\s|$)|(?:^|[\s;&|(])https?\s|\bgsutil\s+cat\b|\bgh\s+api\b|\baws\s+s3\s+cp\s+\S+\s+-(?:\s|$)|(?-i:\bGET)\s+["']?https?://|\b(?:nc|ncat|netcat)\s+(?:-\S+\s+)*[\w.-]+\s+\d{1,5})(?:[^\n;&]|&[^&])*?\|\s*(?:(?:sudo|doas)\s+(?:-\S+\s+)*-[A-Za-z]*[si][A-Za-z]*\s*(?:$|[;&|)])|(?:(?:sudo|doas)(?:\s+-\S+(?:\s+[^\s-]\S*)?)*\s+)?(?:env(?:\s+\S+=\S*)*\s+)?(?:(?:/usr/bin/|/bin/)env(?:\s+-\S+)*(?:\s+\S+=\S*)*\s+)?(?:[A-Za-z_]\w*=(?:"[^"\n]*"|'[^'\n]*'|\S*)\s+)*(?:busybox\s+)?(?:/usr/bin/|/bin/|/usr/local/bin/)?(?:(?:ba|z|k|da|fi|c|tc|a)?sh\b|["']?\$\{?SHELL\b|\$\(\s*(?:command\s+-v|which)\s+(?:ba|z|k|da)?sh\s*\)|(?:python[0-9.]*|perl|ruby|node|php)\s*(?:$|--?(?:\s|$|[`'"])|[;&|)`])|pwsh\b|powershell\b|iex\b|invoke-expression\b|source\b|\.\s*$))"#
);
lazy_regex!(
    SHELL_OF_DOWNLOAD,
    r#"(?i)(?:\b(?:ba|z|k|da)?sh|\bsource|\bpython[0-9.]*|\bperl|\bruby|\bnode|(?:^|[\s;&|])\.)\s+<\(\s*(?:curl|wget)\b|\b(?:(?:ba|z|k|da)?sh\s+-c|eval|(?:python[0-9.]*|perl|ruby|node|php)\s+-[ce])\s+["']?\$\(\s*(?:curl|wget)\b|(?:^|[\s;&|(])(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|ruby|node|php)(?:\s+-\S*)*\s*<<<\s*["']?\$\(\s*(?:curl|wget)\b"#
);
lazy_regex!(
    POWERSHELL_ENCODED,
    r#"(?i)\b(?:powershell|pwsh)(?:\.exe)?\b[^\n|;]*?[\s'"][-/](?:ec|e(?:n(?:c(?:o(?:d(?:e(?:d(?:c(?:o(?:m(?:m(?:a(?:n(?:d)?)?)?)?)?)?)?)?)?)?)?)?)?)(?:\s+["']?|["']\s*,\s*["'])[A-Za-z0-9+/]{8,}"#
);
lazy_regex!(
    DOWNLOAD_EXPRESSION,
    r"(?i)\b(?:iex|invoke-expression)\b[^\n]*?\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|downloadstring|downloadfile|net\.webclient|start-bitstransfer)\b|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|net\.webclient)\b[^\n]*?\|\s*(?:iex|invoke-expression)\b|\[scriptblock\]::create\(\s*\(?\s*(?:iwr|irm|invoke-webrequest|invoke-restmethod|\(?\s*new-object)|\b(?:iex|invoke-expression)\s*\(?\s*\(?\s*\[(?:system\.)?text\.encoding\]::\w+\.getstring\(\s*\[(?:system\.)?convert\]::frombase64string\("
);
/// Other ways to destroy a system or run what was fetched, behind the
/// disk wipes' door (the gate pass has one door per pattern, 128 in all):
/// a cmd fork bomb, Perl's, `find` deleting from the root or a system
/// directory (or running `rm -r`, or `rm -f` over every name, over the
/// root or a home), Ansible's
/// `file` module told to remove one (`path=/etc state=absent`), `rm -rf *`
/// right after `cd /` or `cd ~` (or a system directory by its relative
/// name right after `cd /`), a GPT wipe, Python or Node
/// running a downloaded script in-process, BITS downloading then starting
/// a file, the root, a home or a system directory moved to `/dev/null`.
const OTHER_DESTRUCTIVE: &str = r#"(?i)%0\s*\|\s*%0|\bmv\s+(?:-\S+\s+)*["']?(?:~\w*|\$\{?HOME\}?|/(?:(?:etc|usr|var|bin|boot|lib\w*|home|root|opt|sbin)(?:/(?:lib\w*|bin|sbin|share|local))?)?)["']?/?(?:\.?\*)?["']?\s+/dev/null\b|\bmv\s+(?:-\S+\s+)*-t\s+/dev/null\s+["']?(?:~\w*|\$\{?HOME\}?|/(?:(?:etc|usr|var|bin|boot|lib\w*|home|root|opt|sbin)(?:/(?:lib\w*|bin|sbin|share|local))?)?)["']?/?(?:\s|$)|\bfork\s+while\s+(?:fork|1)\b|\bwhile\s+True:\s*os\.fork\(\)|\bos\.fork\(\)\s+for\s+\w+\s+in\s+(?:iter\(|itertools\.count\()|\bfind\s+(?:-[HLP]\s+)?/(?:home|root)?/?\s[^|;&\n]*?-delete\b|\bfind\s+(?:-[HLP]\s+)?/(?:etc|usr(?:/(?:lib\w*|bin|sbin|share|local))?|var(?:/(?:lib|log|www|mail|spool|backups))?|bin|boot|lib\w*|opt|sbin)/?(?:\s+(?:-type\s+[a-z]|-xdev|-mount|-depth|-(?:max|min)depth\s+\d+|-print|-ignore_readdir_race))*\s+(?:-delete\b|-exec\s+(?:sudo\s+)?rm\b)|\bfind\s+(?:-[HLP]\s+)?(?:~|\$HOME|/home|/root|/)/?(?:\s+(?:-type\s+[a-z]|-xdev|-mount|-depth|-(?:max|min)depth\s+\d+|-i?name\s+(?:'\*'|\x22\*\x22|\\\*)))*\s+(?:-delete\b|-exec\s+(?:sudo\s+)?rm\s+-[a-zA-Z]*[rRf])|\bcd\s+(?:/|~/?|\$HOME/?|\x22\$HOME\x22/?)\s*(?:&&|;)\s*(?:sudo\s+)?rm\s+-[a-z]*r[a-z]*\s+\*|\bcd\s+/\s*(?:&&|;)\s*(?:sudo\s+)?rm\s+-[a-z]*r[a-z]*\s+(?:etc|usr|var|bin|boot|lib\w*|home|root|opt|sbin)/?(?:\s*$|\s*[;&|\n])|\bpath=(?:/|/(?:etc|usr|var|bin|boot|lib|home|root|opt|sbin))/?\s+state=absent\b|\bstate=absent\s+path=(?:/|/(?:etc|usr|var|bin|boot|lib|home|root|opt|sbin))/?(?:[\s"']|$)|\bsgdisk\s+(?:-Z|--zap-all)\b|\b(?:exec|eval)\(\s*(?:[\w.]+\.)?urlopen\(|require\(\s*['"]https?['"]\s*\)\.get\([^\n]*\beval\(|\bbitsadmin\s+/transfer\b[^\n]*?(?:&&?|;)\s*(?:start|call|cmd)\b|%0\s*\^\|\s*%0|\bmshta(?:\.exe)?\s+["']?(?:https?|ftp)://|\bmsiexec(?:\.exe)?\s+(?:[/-]\w+\s+)*[/-](?:i|package)\s+["']?https?://|(?:\b|\\n)clean(?:\s+all)?\b[^\n]*\|\s*diskpart\b|\brmtree\(\s*['"](?:/|/(?:usr(?:/(?:lib\w*|bin|sbin|share|local))?|etc|var(?:/lib)?|bin|lib\w*|home|boot|opt|root|sbin)/?|~|C:\\\\?)['"]|\brmSync\(\s*['"](?:/|/(?:usr(?:/(?:lib\w*|bin|sbin|share|local))?|etc|var|bin|lib|home|boot|opt|root|sbin)/?|~)['"][^)\n]*recursive\s*:\s*true|\b(?:rmSync|rm|rmdirSync)\(\s*(?:require\(\s*['"](?:node:)?os['"]\s*\)|os)\.homedir\(\)[^)\n]*recursive\s*:\s*true|\brmtree\(\s*(?:os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|(?:pathlib\.)?Path\.home\(\)|os\.environ\[\s*['"]HOME['"]\s*\])\s*[,)]|\brsync\b[^\n;|&]*\s--delete\b[^\n;|&]*\s(?:/|/(?:usr|etc|var|bin|lib|lib64|boot|home|opt|root|sbin|usr/(?:bin|lib|sbin|share))/?|~/?|\$HOME/?)(?:\s*$|\s*[;&|\n])|\btee\s+(?:-a\s+)?/dev/(?:sd[a-z]|nvme\d+n\d+|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d+|disk\d+|md\d+|md/)|\bnvme\s+(?:format|sanitize)\b[^\n;|&]*\s/dev/nvme|\becho\s+clean(?:\s+all)?\b[^\n]*\bdiskpart(?:\.exe)?\s+/s\b|\bdiskpart(?:\.exe)?\s+/s\s+\S+[^\n]*?\bselect\s+disk\s+\d+\s*(?:[/;,&]|\bthen\b|\band\b)\s*clean\b|\bbase64\s+(?:-[a-zA-Z]*[dD][a-zA-Z]*|--decode)\b[^\n|]*\|\s*(?:sudo\s+)?(?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|ruby|node|php)\b|\beval\(\s*(?:['"][^'"\n]*['"]\s*\.\s*)?file_get_contents\(\s*['"]https?://|\bcryptsetup\s+(?:-\S+\s+)*luksFormat\b[^\n;|&]*\s/dev/|\bparted\b[^\n;|&]*\s/dev/\S+\s+(?:-\S+\s+)*mklabel\b|\bsfdisk\s+(?:--delete|--wipe\s+always)\b[^\n;|&]*\s/dev/|\bzpool\s+(?:destroy|labelclear)\b|\bzfs\s+destroy\s+(?:-\S+\s+)*-[a-zA-Z]*[rR]|\bmdadm\s+(?:--zero-superblock|--misc\s+--zero-superblock)\b|\b(?:lv|vg|pv)remove\s+(?:-\S+\s+)*-(?:f|ff|y)\b|\bhdparm\b[^\n;|&]*--security-erase|\bbadblocks\s+(?:-\S+\s+)*-[a-zA-Z]*w[a-zA-Z]*\b[^\n;|&]*\s/dev/|\bgpart\s+destroy\s+-F\b|\bdiskutil\s+partitionDisk\b|\b(?:Remove-Partition|Initialize-Disk)\b|\bwhile\s*\(\s*(?:1|true)\s*\)\s*\{?\s*fork\(\)|\bloop\s*\{\s*fork\s*\}|\b(?:exec|eval)\(\s*(?:await\s+)?\(?\s*(?:await\s+)?(?:requests\.get|httpx\.get|urllib\.request\.urlopen|fetch|URI\.open|Net::HTTP\.get|open)\(\s*(?:URI\(\s*)?['"]https?://|\beval(?:\(\s*|\s+)(?:LWP::Simple::)?get\(\s*['"]https?://|\bnew\s+Function\(\s*await\s+\(?\s*await\s+fetch\("#;
lazy_regex!(
    DISK_WIPE,
    &format!(
        "{}|{OTHER_DESTRUCTIVE}",
        r#"(?i)\b(?:mkfs(?:\.[a-z0-9]+)?|mke2fs|mkswap|shred|blkdiscard)\b[^\n;|&]*\s\\?["']?/dev/|\bwipefs\b[^\n;|&]*\s(?:-a|--all|-[a-z]*a[a-z]*)\b[^\n;|&]*\s\\?["']?/dev/|\bdiskutil\s+(?:eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase)\b|\bregsvr32\b[^\n]*?/i:https?://|\bdd\b[^\n;|&]*\bof=\\?["']?/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|mapper/|dm-|md)|>\s*["']?/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|md\d|md/)|\bformat(?:\.com)?\s+[a-z]:(?:\s|$)|\b(?:format-volume|clear-disk)\b"#
    )
);
lazy_regex!(
    /// A function that pipes itself into itself in the background, then is
    /// called: `:(){ :|:& };:`, or the same under any name.
    FORK_BOMB,
    r"([\w:.-]+)\s*\(\s*\)\s*\{\s*([\w:.-]+)\s*\|\s*([\w:.-]+)\s*&\s*;?\s*\}\s*;?\s*([\w:.-]+)"
);
lazy_regex!(
    /// A delete command (`rm`, cmd's and PowerShell's, Node's `rimraf`) and
    /// its arguments. An argument ends at a shell
    /// separator or a closing parenthesis (`(rm -rf x)`), except inside a
    /// `$(…)` substitution, so that `/Users/$(whoami)/Library` stays one
    /// word.
    DELETE,
    r#"(?i)(?:^|[\s;&|({`'"])(?:sudo\s+(?:-\S+\s+)*)?(?:/usr/bin/|/bin/|\\)?(rmdir|rm|rd|del|erase|ri|remove-item|rimraf)\b(?:\.exe)?((?:[ \t]+(?:\$\([^()\s]*\)|[^\s;&|)])+)*)"#
);
lazy_regex!(
    /// A program's own recursive delete with a literal path: Go's
    /// `os.RemoveAll`, Rust's `remove_dir_all`, Ruby's `FileUtils.rm_rf`,
    /// Java's `FileUtils.deleteDirectory`, Node's `rimraf`, .NET's
    /// `Directory.Delete(path, true)`.
    CODE_DELETE,
    r#"\b(?:os\.RemoveAll|remove_dir_all|FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|deleteDirectory)|rimraf(?:\.sync)?|Directory\.Delete)\(\s*(?:new\s+File\(\s*)?@?["']([^"'\n]+)["']\s*(?:\)\s*)?(,\s*true\s*)?\)"#
);
lazy_regex!(
    /// The host's root mounted into a container (`-v /:/host`), with the
    /// mount point; or a command run in a node's debugging pod (`kubectl
    /// debug node/…`, `oc debug node/…`, `kubectl exec … node-debug…`),
    /// which mounts the node's root at `/host`.
    HOST_ROOT_MOUNT,
    r"(?:-v|--volume)[ =]/:(/[\w.-]+)(?::[a-z,]+)?(?:\s|$)|\b(?:kubectl|oc)\s+(?:debug\s+(?:-\S+\s+)*node/|exec\s+(?:-\S+\s+(?:[\w.-]+\s+)?)*\S*node-?debug)[^\n]*?\s(/host)/"
);
lazy_regex!(
    /// A listing piped to a delete: PowerShell's `gci … | Remove-Item`, or
    /// `ls / | xargs sudo rm -rf`.
    DELETE_PIPELINE,
    r"(?i)\b(?:get-childitem|gci|ls|dir)\s+(?:-path\s+|-literalpath\s+)?(\S+)[^|\n]*\|\s*(?:xargs\s+(?:-\S+\s+)*)?(?:sudo\s+(?:-\S+\s+)*)?(?:remove-item|ri|rm|del)\b([^|\n]*)"
);
lazy_regex!(
    /// A permission or ownership change and its arguments, split into words
    /// like [`DELETE`]'s.
    PERMISSIONS,
    r"(?i)(?:^|[\s;&|(])(?:sudo\s+(?:-\S+\s+)*)?(chmod|chown|chgrp)((?:[ \t]+(?:\$\([^()\s]*\)|[^\s;&|)])+)*)"
);

/// Top-level directories whose recursive removal or re-permissioning
/// breaks the system.
const SYSTEM_DIRS: &[&str] = &[
    "bin",
    "boot",
    "dev",
    "etc",
    "home",
    "lib",
    "lib32",
    "lib64",
    "opt",
    "proc",
    "root",
    "sbin",
    "srv",
    "sys",
    "usr",
    "var",
    "users",
    "system",
    "library",
    "applications",
    "private",
];

/// A filesystem root, a top-level system directory, the directory that
/// holds the homes, or a home directory itself (`~`, `~alice`, `$HOME`,
/// `/home/alice`, `/home/$USER`, `/Users/$(whoami)`, `C:\Users\alice`, a
/// Windows drive or profile seen from WSL), possibly with a trailing
/// separator or wildcard. A directory inside a home
/// (`/home/alice/project/target`, `"$HOME"/.cache`) is not: clearing a build
/// or cache directory there is routine.
fn dangerous_target(arg: &str) -> bool {
    // Quotes only group a shell word, wherever they sit: `"$HOME"/` is
    // `$HOME/`. A quoted `~` is still home: PowerShell resolves `~` in any
    // path string, and in a POSIX shell `rm -rf '~'` is a slip for home far
    // more often than a directory literally named `~`.
    let arg: String = arg
        .chars()
        .filter(|c| !matches!(c, '"' | '\'' | '`'))
        .collect();
    let mut lower = arg.to_ascii_lowercase();
    if lower.trim_end_matches('/') == "/usr/local/*" {
        return true;
    }
    // `${HOME:?}` and `${HOME:-/x}` still name home when it is set.
    if let Some(rest) = lower.strip_prefix("${home:")
        && let Some(close) = rest.find('}')
    {
        lower = format!("$home{}", &rest[close + 1..]);
    }
    if glob_in_system_directory(&lower) {
        return true;
    }
    // macOS's `/var` and `/etc` link to these: judged as those.
    if let Some(rest) = lower.strip_prefix("/private")
        && ["/var", "/etc"].iter().any(|dir| {
            rest.strip_prefix(dir)
                .is_some_and(|r| r.is_empty() || r.starts_with('/'))
        })
    {
        return dangerous_target(rest);
    }
    let base = lower.trim_end_matches(['*', '.']);
    let base = base.trim_end_matches(['/', '\\']);
    if base.is_empty() {
        // "/", "/*", "\", "\*"
        return arg.starts_with(['/', '\\']);
    }
    if base.strip_prefix('~').is_some_and(is_user_name) {
        // `~alice` is alice's home.
        return true;
    }
    if matches!(
        base,
        "~" | "$home"
            | "${home}"
            | "$env:userprofile"
            | "$env:homepath"
            | "${env:userprofile}"
            | "%userprofile%"
            | "%homepath%"
            | "%homedrive%%homepath%"
            | "$env:homedrive$env:homepath"
            | "$env:systemdrive"
            | "%systemdrive%"
            | "$env:systemroot"
            | "%systemroot%"
            | "%systemroot%\\system32"
            | "$env:systemroot\\system32"
            | "%windir%"
            | "%windir%\\system32"
    ) {
        return true;
    }
    if let Some(path) = base.strip_prefix('/') {
        let dirs: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
        return match dirs.as_slice() {
            [dir] => SYSTEM_DIRS.contains(dir),
            // One level below the homes is a home, whatever names it:
            // `alice`, `$USER`, `${USER}`, `$(whoami)`.
            // A home, or the system's own programs and libraries.
            ["home" | "users", _]
            | ["var", "home" | "lib"]
            | ["var", "home", _]
            // The package manager's own database.
            | ["var", "lib", "dpkg" | "rpm" | "apt" | "pacman" | "yum" | "dnf" | "portage"]
            | ["lib" | "lib32" | "lib64", "modules" | "firmware"]
            | ["system", "library", ..] => true,
            // The system's Python (its package manager runs on it) and the
            // C library's multiarch directory.
            ["usr", "lib" | "lib64", name] | ["lib" | "lib64", name]
                if name.starts_with("python3") || name.ends_with("-linux-gnu") =>
            {
                true
            }
            ["usr", sub] => matches!(
                *sub,
                "bin"
                    | "sbin"
                    | "lib"
                    | "lib32"
                    | "lib64"
                    | "libexec"
                    | "share"
                    | "include"
                    | "local"
            ),
            // A Windows drive, its profiles or one profile, from WSL or Cygwin.
            ["mnt" | "cygdrive", drive, rest @ ..] if is_drive_letter(drive) => {
                matches!(rest, [] | ["users"] | ["users", _])
            }
            _ => false,
        };
    }
    let bytes = base.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        // "C:", "C:\", "C:\Users", "C:\Users\alice", "C:\Windows", "C:\Program Files"
        let rest: Vec<&str> = base[2..]
            .split(['/', '\\'])
            .filter(|s| !s.is_empty())
            .collect();
        return match rest.as_slice() {
            // A drive, a profile, the drivers, the registry's hives and the
            // hosts file's folder.
            []
            | ["users", _]
            | ["windows", "system32", "drivers" | "config"]
            | ["windows", "system32", "drivers", "etc"] => true,
            [dir] => matches!(*dir, "users" | "windows" | "program files" | "programdata"),
            ["windows", sub] => matches!(*sub, "system32" | "syswow64" | "winsxs"),
            _ => false,
        };
    }
    false
}

/// Whether a recursive delete of `arg` breaks the system: a
/// [`dangerous_target`], or a whole package's or service's configuration
/// (`/etc/nginx`, `/etc/apt`, `/etc/systemd`). A file below it, or a copy
/// set aside (`/etc/nginx.bak`), is routine to delete, and taking
/// permissions away from it (`chmod -R a-w /etc/nginx`) hardens it.
fn deleted_target(arg: &str) -> bool {
    if dangerous_target(arg) {
        return true;
    }
    // The system's logs, whole (an image build clears `/var/log/*`, and
    // a fix of their permissions is routine).
    if arg.trim_matches(['"', '\'', '`']).trim_end_matches('/') == "/var/log" {
        return true;
    }
    // Its contents (`/etc/nginx/*`, `/etc/nginx/.`) are all of it.
    let path = arg
        .trim_matches(['"', '\'', '`'])
        .trim_end_matches(['*', '.', '/']);
    path.strip_prefix("/etc/")
        .is_some_and(|name| !name.is_empty() && !name.contains('/') && !set_aside(name))
}

/// Whether a name marks a copy set aside (`nginx.bak`, `nginx_old`,
/// `nginx-backup-20240115`, `sources.list.dpkg-old`, `fstab~`) or one put
/// out of use (`nginx.disabled`): a part after a `.`, `_` or `-` that is
/// such a mark, perhaps numbered (`.bak2`).
fn set_aside(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let marked = |part: &str| {
        SET_ASIDE.iter().any(|mark| {
            part.strip_prefix(mark)
                .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    name.ends_with('~') || lower.split(['.', '_', '-']).skip(1).any(marked)
}

/// The marks of a copy set aside or out of use.
const SET_ASIDE: &[&str] = &[
    "bak", "old", "orig", "backup", "save", "tmp", "previous", "prev", "disabled", "dist",
    "rpmsave", "rpmnew", "rpmorig", "dpkg", "ucf",
];

/// A wildcard inside the system's own programs, libraries or configuration
/// (`/usr/lib/python3*`, `/etc/*`): it takes whatever the system put there.
fn glob_in_system_directory(path: &str) -> bool {
    let Some(rest) = path.strip_prefix('/') else {
        return false;
    };
    let dirs: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
    let Some((last, parents)) = dirs.split_last() else {
        return false;
    };
    last.contains('*')
        && matches!(
            parents,
            [
                "usr",
                "bin" | "sbin" | "lib" | "lib32" | "lib64" | "libexec" | "share" | "include"
            ] | ["etc" | "boot" | "bin" | "sbin" | "lib" | "lib64" | "var"]
                | ["var", "lib"]
        )
}

/// A POSIX user name, as it follows `~` in `~alice` (not `~+` or `~-`,
/// which stand for the working directories).
fn is_user_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

fn is_drive_letter(dir: &str) -> bool {
    dir.len() == 1 && dir.bytes().all(|b| b.is_ascii_alphabetic())
}

fn delete_is_dangerous(command: &str, args: &str) -> bool {
    let command = command.to_ascii_lowercase();
    let cmd_style = matches!(command.as_str(), "rd" | "rmdir" | "del" | "erase");
    // Node's `rimraf` deletes recursively without being told to.
    let mut recursive = command == "rimraf";
    let mut no_preserve_root = false;
    let mut dangerous = false;
    let mut flags_done = false;
    for arg in super::pattern::shell_words(args) {
        let arg = arg.as_str();
        let lower = arg.to_ascii_lowercase();
        if !flags_done && lower == "--" {
            flags_done = true;
            continue;
        }
        if !flags_done && lower.starts_with('-') && lower.len() > 1 {
            // PowerShell parameters may be abbreviated (`-r`, `-rec`,
            // `-fo`); a POSIX short-option group holds `r` (`-rf`, `-Rfv`).
            let recurse_word = "-recurse".starts_with(&lower);
            let force_word = lower.len() >= 3 && "-force".starts_with(&lower);
            let short_group = !lower.starts_with("--")
                && lower[1..].bytes().all(|b| b.is_ascii_alphabetic())
                && lower[1..].contains('r')
                && !"-literalpath".starts_with(&lower);
            no_preserve_root |= lower == "--no-preserve-root";
            recursive |= lower == "--recursive" || recurse_word || (short_group && !force_word);
            continue;
        }
        if cmd_style && lower.len() == 2 && lower.starts_with('/') {
            recursive |= lower == "/s";
            continue;
        }
        dangerous |= deleted_target(arg);
    }
    no_preserve_root || (recursive && dangerous)
}

fn permissions_are_dangerous(args: &str) -> bool {
    let mut recursive = false;
    let mut operands = Vec::new();
    for arg in args.split_whitespace() {
        if arg == "--recursive"
            || (arg.starts_with('-') && !arg.starts_with("--") && arg.contains('R'))
        {
            recursive = true;
        } else if !arg.starts_with('-') {
            operands.push(arg);
        }
    }
    // The first operand is the mode or the owner. A mode that only takes
    // permissions away (`go-w`, `o-rwx`) tightens what it reaches.
    let takes_away = |mode: &str| {
        mode.split(',').all(|clause| {
            // Only group's and others' bits: `a-x` or `-w` on /usr breaks it.
            clause.split_once('-').is_some_and(|(who, perms)| {
                !who.is_empty()
                    && who.chars().all(|c| "go".contains(c))
                    && !perms.is_empty()
                    && perms.chars().all(|c| "rwxXst".contains(c))
            })
        })
    };
    recursive
        && !operands.first().is_some_and(|m| takes_away(m))
        && operands.iter().skip(1).any(|a| dangerous_target(a))
}

lazy_regex!(
    /// A download saved to a file: curl's `-o FILE`/`--output FILE` or
    /// `-O` (the URL's name), wget's `-O FILE` or the URL's name,
    /// PowerShell's `-OutFile`, `DownloadFile(url, file)`, certutil, PHP's
    /// `copy(url, file)` and Python's `urlretrieve(url, file)`.
    DOWNLOAD,
    r"(?i)\b(?:curl(?:\.exe)?|wget|fetch|aria2c|iwr|invoke-webrequest|start-bitstransfer|certutil(?:\.exe)?|downloadfile|bitsadmin(?:\.exe)?|gh\s+release\s+download)\b[^\n;&|]*|\b(?:copy|urlretrieve)\(\s*[\x22']https?://[^\n;&|]*"
);
lazy_regex!(
    /// A file handed to a shell or interpreter, or run directly (a path in
    /// command position: an argument of `less` is only read). A backtick
    /// ends the path: Markdown quotes a command in them.
    EXECUTE,
    r#"(?i)(?:^|[\s;&|(])(?:sudo\s+(?:-\S+\s+)*)?(?:(?:ba|z|k|da|fi|c|tc)?sh|source|\.|python[0-9.]*|perl|ruby|node|php|pwsh|powershell(?:\.exe)?|start-process|cmd(?:\.exe)?\s+/c|msiexec(?:\.exe)?(?:\s+/\w+)*\s+/(?:i|package))(?:\s+-\S+(?:\s+(?:bypass|unrestricted))?)*\s+["']?([^\s"'`;&|)]+)|(?:^|[\n;&|(]\s*|\s(?:sudo|nohup|exec|doas|time|env)\s+(?:-\S+\s+)*)(\.{1,2}[/\\][^\s"'`;&|)]+|/(?:tmp|var/tmp|opt|usr/local/bin|dev/shm)/[^\s"'`;&|)]+|(?:%[A-Za-z_]+%|\$env:[A-Za-z_]+|\$\{?[A-Za-z_]+\}?)[/\\][^\s"'`;&|)]+|[A-Za-z]:[/\\][^\s"'`;&|)]+)|\b(?:subprocess\.(?:run|call|check_call|check_output|Popen)|os\.system|execSync|execFileSync|spawnSync|spawn)\(\s*\[?\s*['"](?:(?:ba|z|k|da)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell)['"]?\s*(?:,\s*|\s+)['"]?([^\s"',)\]]+)|(?:^|[\s;(])&\s+["']?([^\s"'`;&|)]+)|(?:^|[\n;&|]\s*)(?:sudo\s+(?:-\S+\s+)*)?([A-Za-z0-9_][A-Za-z0-9_.-]*)(?:\s|["']|$)"#
);
lazy_regex!(
    /// A checksum or signature check, which makes a download reviewed.
    VERIFIED,
    r"(?i)\b(?:sha(?:1|224|256|384|512)?sum|shasum|b2sum|md5sum|gpg\s+(?:--batch\s+)?--verify|gpgv|cosign\s+verify|minisign\s+-v|signify\s+-v|get-filehash|openssl\s+dgst|slsa-verifier|certutil\s+-hashfile|gh\s+attestation\s+verify)\b"
);
lazy_regex!(
    UNPACK,
    r"^\s*\|\s*(?:sudo\s+)?(?:tar|bsdtar|unzip|busybox\s+tar)\b"
);
lazy_regex!(
    URL_NAME,
    r#"(?i)\b(?:https?|ftp)://[^\s"'<>]*/([^/\s"'<>?#]+)"#
);
lazy_regex!(
    OUTPUT_FLAG,
    r#"(?:\s>\s*|\s-[a-zA-Z]*o\s+|\s-o|\s--output(?:=|\s+)|(?i:\s-outfile\s+|\s-destination\s+)|\s-[a-zA-Z]*O\s*|\s--output-document(?:=|\s+)|,\s*)["']?([^\s"',)]+)"#
);

/// The names a download is saved under: its output operand, else (for the
/// tools that save by default, or curl asked to with `-O`) the last
/// segment of its URL. curl without either writes to standard output,
/// which saves nothing.
fn saved_names(download: &str) -> Vec<String> {
    let tool = download
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut names: Vec<String> = OUTPUT_FLAG
        .captures_iter(download)
        .map(|c| c[1].to_owned())
        .filter(|n| n != "-" && !n.contains("://"))
        .collect();
    let to_stdout =
        download.contains(" -O -") || download.contains("O- ") || download.ends_with("O-");
    let remote_name = if tool.starts_with("curl") {
        download.split_whitespace().any(|w| {
            w == "--remote-name"
                || w == "--remote-name-all"
                || (w.starts_with('-') && !w.starts_with("--") && w.contains('O'))
        })
    } else {
        !to_stdout
    };
    if remote_name {
        names.extend(URL_NAME.captures_iter(download).map(|c| c[1].to_owned()));
    }
    // `gh release download -p NAME` saves the asset under its own name
    // (a glob names no one file; with `-D DIR`, in a directory of its own,
    // which a base name cannot follow).
    let words: Vec<&str> = download.split_whitespace().collect();
    if tool == "gh" && !words.iter().any(|w| *w == "-D" || w.starts_with("--dir")) {
        names.extend(
            words
                .windows(2)
                .filter(|w| w[0] == "-p" || w[0] == "--pattern")
                .map(|w| w[1].trim_matches(['"', '\'']))
                .filter(|n| !n.contains(['*', '?', '[']))
                .map(str::to_owned),
        );
    }
    if tool.starts_with("certutil") || tool.starts_with("bitsadmin") {
        names.extend(download.split_whitespace().last().map(str::to_owned));
    }
    // A one-letter name counts only as a path's (`-O /tmp/p`): alone, it
    // may be a flag's letter.
    names
        .iter()
        .map(|n| (base_name(n), n.contains(['/', '\\'])))
        .filter(|(b, path)| (b.len() > 1 || (*path && !b.is_empty())) && !b.starts_with('-'))
        .map(|(b, _)| b.to_owned())
        .collect()
}

fn base_name(path: &str) -> &str {
    path.trim_matches(['"', '\''])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(path)
}

/// An archive's name without its extension: the directory it usually
/// unpacks into.
fn archive_stem(name: &str) -> Option<&str> {
    [
        ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tar.zst", ".zip", ".tar",
    ]
    .iter()
    .find_map(|ext| name.strip_suffix(ext))
    .filter(|stem| !stem.is_empty())
}

/// Whether running `target` runs what was saved as one of `names`: the
/// file itself, or a file inside the directory an archive unpacked into.
fn runs_download(names: &[String], target: &str) -> bool {
    let target = target.trim_matches(['"', '\'']);
    let base = base_name(target);
    let path: Vec<&str> = target
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    names.iter().any(|n| {
        n == base || archive_stem(n).is_some_and(|stem| path.len() > 1 && path[0].starts_with(stem))
    })
}

/// Whether `dir` is the directory one of the archives saved as `names`
/// unpacks into.
fn unpacks_into(names: &[String], dir: &str) -> bool {
    names
        .iter()
        .any(|n| archive_stem(base_name(n)).is_some_and(|stem| stem_dir(stem, dir)))
}

/// Whether `dir` is the directory an archive named `stem` unpacks into:
/// the stem itself or longer (`pkg-3.2`, `pkg-3.2-linux`), or the stem's
/// name without its version (`runner` for `runner-2.4.1`).
fn stem_dir(stem: &str, dir: &str) -> bool {
    let dir = dir.trim_start_matches("./").trim_end_matches('/');
    !dir.is_empty()
        && (dir.starts_with(stem)
            || stem
                .strip_prefix(dir)
                .is_some_and(|rest| rest.starts_with(['-', '_', '.'])))
}

/// A download saved to a file, then the file run, with no checksum or
/// signature check between.
fn download_then_execute(downloads: &Regex, text: &str) -> Spans {
    let mut out = Vec::new();
    for download in downloads.find_iter(text) {
        let mut names = saved_names(download.as_str());
        // Piped into `tee`, it is saved under the name `tee` writes.
        names.extend(
            TEE_SAVE
                .captures(&text[download.end()..])
                .map(|c| base_name(&c[1]).to_owned()),
        );
        // Piped into tar: the archive unpacks into the directory its name
        // says, when it says one; else (`…/latest | tar -xz`) any program
        // run from under the working directory may be what it unpacked.
        let unpacked = UNPACK.is_match(&text[download.end()..]);
        if unpacked {
            names.extend(
                URL_NAME
                    .captures_iter(download.as_str())
                    .map(|c| c[1].to_owned()),
            );
        }
        if names.is_empty() {
            continue;
        }
        let rest = &text[download.end()..];
        // Saved, then unpacked by a later command (`wget …/x.tar.gz && tar
        // xzf x.tar.gz`): where the shell then enters the directory it
        // unpacked into (`cd x`), a program run from there is what it
        // unpacked.
        let unpacked_at = unpacked_at(&names, rest);
        let mut at = 0;
        while let Some(run) = EXECUTE.captures_at(rest, at) {
            at = run.get(0).map_or(rest.len(), |m| m.start() + 1);
            while !rest.is_char_boundary(at) {
                at += 1;
            }
            let Some(target) = run.iter().skip(1).flatten().next() else {
                continue;
            };
            // A syntax check (`node --check x.js`, `bash -n x.sh`) reads the
            // file without running it.
            if CHECK_ONLY.is_match(&run[0]) {
                continue;
            }
            let between = &rest[..run.get(0).map_or(0, |m| m.start())];
            if VERIFIED.is_match(between) {
                break;
            }
            let run_start = run.get(0).map_or(0, |m| m.start());
            let unpacked_before = unpacked_at.filter(|end| *end <= run_start);
            let entered = unpacked_before.is_some_and(|end| {
                CD.captures_iter(&rest[end..run_start])
                    .any(|c| unpacks_into(&names, &c[1]))
            });
            let path = target.as_str().trim_start_matches(['"', '\'']);
            // Run from the directory it unpacked into, named without its
            // version (`./runner/install.sh` from `runner-2.4.1.tar.gz`).
            let from_unpacked = unpacked_before.is_some()
                && path
                    .strip_prefix("./")
                    .and_then(|p| p.split_once('/'))
                    .is_some_and(|(dir, _)| unpacks_into(&names, dir));
            let relative = ((unpacked || entered) && path.starts_with("./")) || from_unpacked;
            if relative || runs_download(&names, target.as_str()) {
                out.push(download.start()..download.end() + target.end());
                break;
            }
        }
    }
    out
}

lazy_regex!(
    /// An interpreter's flag that only checks a file's syntax: node's
    /// `--check`/`-c`, a shell's `-n`, perl's and ruby's `-c`, PHP's `-l`.
    CHECK_ONLY,
    r"(?i)\bnode(?:\.exe)?\s+(?:-\S+\s+)*(?:--check|-c)\s|\b(?:ba|z|k|da)?sh\s+(?:-\S+\s+)*-n\s|\b(?:perl|ruby)\s+(?:-\S+\s+)*-c\s|\bphp\s+(?:-\S+\s+)*-l\s"
);

lazy_regex!(
    /// An archive unpacked by a command of its own, with its arguments.
    UNPACK_COMMAND,
    r"(?i)(?:^|[\s;&|(])(?:sudo\s+)?(?:tar|bsdtar|unzip|7z\s+x)\b([^\n;&|]*)"
);
lazy_regex!(
    /// The shell entering a directory.
    CD,
    r#"(?:^|[\s;&|(])(?:cd|pushd)\s+["']?([^\s"';&|)]+)"#
);

/// Where the first later command in `rest` that unpacks one of the files
/// a download was saved as ends; a listing (`tar -t`, `unzip -l`) unpacks
/// nothing.
fn unpacked_at(names: &[String], rest: &str) -> Option<usize> {
    UNPACK_COMMAND
        .captures_iter(rest)
        .find(|c| {
            let args: Vec<&str> = c[1].split_whitespace().collect();
            let listing = args.iter().any(|a| {
                *a == "--list"
                    || (a.starts_with('-')
                        && !a.starts_with("--")
                        && (a.contains('t') || *a == "-l"))
            });
            !listing
                && args
                    .iter()
                    .any(|arg| names.iter().any(|n| base_name(arg) == base_name(n)))
        })
        .and_then(|c| c.get(0))
        .map(|m| m.end())
}

/// Commands that fetch a file.
const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "aria2c",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
    "start-bitstransfer",
    "certutil",
    "downloadfile",
    "gsutil",
    "gh api",
    "s3",
    "bitsadmin",
    "lynx",
    "w3m",
    "lwp-",
    "release download",
    "xh",
    "curlie",
    "ftp",
    "elinks",
    "http",
    "copy(",
    "urlretrieve(",
    "nc ",
    "ncat",
    "netcat",
];

/// The words each pattern needs.
pub(super) static GATES: LazyLock<Gates> = LazyLock::new(|| {
    Gates::new(vec![
        (&PIPE_TO_SHELL, DOWNLOADERS),
        (&SHELL_OF_DOWNLOAD, &["curl", "wget"]),
        (&POWERSHELL_ENCODED, &["powershell", "pwsh"]),
        (
            &DOWNLOAD_EXPRESSION,
            &["iex", "invoke-expression", "scriptblock"],
        ),
        (
            &DISK_WIPE,
            &[
                "/dev/",
                "format",
                "clear-disk",
                "%0",
                "fork",
                "-delete",
                "-exec",
                "absent",
                "cd /",
                "cd ~",
                "cd $home",
                "cd \"$home",
                "sgdisk",
                "urlopen",
                "eval",
                "bitsadmin",
                "mshta",
                "msiexec",
                "diskpart",
                "diskutil",
                "regsvr32",
                "rmtree",
                "rmsync",
                "homedir",
                "cryptsetup",
                "parted",
                "sfdisk",
                "zpool",
                "zfs",
                "mdadm",
                "lvremove",
                "vgremove",
                "pvremove",
                "hdparm",
                "badblocks",
                "gpart",
                "partitiondisk",
                "remove-partition",
                "initialize-disk",
                "exec(",
                "function(",
                "rsync",
                "tee",
                "nvme",
                "base64",
            ],
        ),
        (&FORK_BOMB, &["{"]),
        (
            &DELETE,
            &["rm", "rd", "del", "erase", "ri", "remove-item", "rimraf"],
        ),
        (&DELETE_PIPELINE, &["|"]),
        (&PERMISSIONS, &["chmod", "chown", "chgrp"]),
        (
            &CODE_DELETE,
            &[
                "removeall",
                "remove_dir_all",
                "fileutils.",
                "rimraf",
                "directory.delete",
            ],
        ),
        (&DOWNLOAD, DOWNLOADERS),
    ])
});

/// Whether a `shred` command reaches `/dev/` only through pseudo-devices
/// (`--random-source /dev/urandom`, a file under `/dev/shm/`): it shreds
/// the files it names, no disk. The whole command is read, as a device may
/// follow the match (`{/dev/sda,/dev/sdb}`), in any case.
fn shreds_files(text: &str, span: &std::ops::Range<usize>) -> bool {
    const PSEUDO: [&str; 7] = ["urandom", "random", "hwrng", "zero", "null", "full", "shm/"];
    if !text[span.start..]
        .get(..5)
        .is_some_and(|word| word.eq_ignore_ascii_case("shred"))
    {
        return false;
    }
    let command = &text[span.start..];
    let command = &command[..command.find(['\n', ';', '|', '&']).unwrap_or(command.len())];
    let mut devices = find_ignoring_case(command, "/dev/").peekable();
    devices.peek().is_some()
        && devices.all(|at| {
            let name = &command[at + "/dev/".len()..];
            PSEUDO.iter().any(|pseudo| {
                name.get(..pseudo.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(pseudo))
                    && (pseudo.ends_with('/')
                        || !name[pseudo.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
            })
        })
}

pub(super) fn unsafe_command(text: &str, doors: Doors) -> Spans {
    let open = GATES.open(doors);
    let mut out = Spans::new();
    for re in [
        &*PIPE_TO_SHELL,
        &*SHELL_OF_DOWNLOAD,
        &*POWERSHELL_ENCODED,
        &*DOWNLOAD_EXPRESSION,
        &*DISK_WIPE,
    ] {
        out.extend(
            matches(open.get(re), text)
                .into_iter()
                .filter(|span| !shreds_files(text, span)),
        );
    }
    out.extend(
        open.captures(&FORK_BOMB, text)
            .filter(|c| c[1] == c[2] && c[2] == c[3] && c[3] == c[4])
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    // A container that mounts the host's root sees it under the mount
    // point: `-v /:/host … rm -rf /host/etc` deletes the host's `/etc`.
    let host_roots: Vec<&str> = HOST_ROOT_MOUNT
        .captures_iter(text)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()))
        .collect();
    out.extend(
        open.captures(&DELETE, text)
            .filter(|c: &Captures<'_>| {
                delete_is_dangerous(&c[1], &c[2])
                    || host_roots.iter().any(|root| {
                        let seen = c[2]
                            .split_whitespace()
                            .map(|a| match a.strip_prefix(root) {
                                Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                                    if rest.is_empty() { "/" } else { rest }
                                }
                                _ => a,
                            })
                            .collect::<Vec<_>>()
                            .join(" ");
                        delete_is_dangerous(&c[1], &seen)
                    })
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        open.captures(&DELETE_PIPELINE, text)
            .filter(|c| {
                // PowerShell's `-Recurse` (or a prefix of it), rm's `-r`
                // among short flags, or `--recursive`.
                let recursive = |a: &str| {
                    (a.len() >= 2 && "-recurse".starts_with(&a.to_ascii_lowercase()))
                        || a == "--recursive"
                        || (a.len() <= 5
                            && a.strip_prefix('-').is_some_and(|flags| {
                                flags.contains(['r', 'R'])
                                    && flags.chars().all(|f| "rRfvId".contains(f))
                            }))
                };
                deleted_target(&c[1]) && c[2].split_whitespace().any(recursive)
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        open.captures(&CODE_DELETE, text)
            .filter(|c| {
                // .NET deletes a directory's contents only when told to.
                let recursive = !c[0].starts_with("Directory") || c.get(2).is_some();
                recursive && deleted_target(&c[1])
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        open.captures(&PERMISSIONS, text)
            .filter(|c| permissions_are_dangerous(&c[2]))
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    if let Some(download) = open.get(&DOWNLOAD) {
        out.extend(download_then_execute(download, text));
        out.extend(variable_then_execute(text));
    }
    out
}

lazy_regex!(
    /// A download piped into `tee` (`| sudo tee /usr/local/bin/em`): the
    /// file it writes, in group 1.
    TEE_SAVE,
    r#"^\s*\|\s*(?:sudo\s+(?:-\S+\s+)*)?tee\s+(?:-a\s+)?["']?([^\s"'>|;&]+)"#
);

lazy_regex!(
    /// A variable set to what a download printed: `c=$(curl -fsSL URL)`.
    DOWNLOAD_INTO_VARIABLE,
    r#"(?i)(?:^|[\s;&|(])([A-Za-z_]\w*)=["']?\$\(\s*(?:curl|wget)\b[^\n]*?\)"#
);
lazy_regex!(
    /// A variable's value run as code: `bash -c "$c"`, `eval "$c"`,
    /// `python3 -c "$c"`, `echo "$c" | sh`.
    VARIABLE_RUN,
    r#"(?:\b(?:ba|z|k|da)?sh\s+-c|\beval|\b(?:python[0-9.]*|perl|ruby|node|php)\s+-[ce])\s+["']?\$\{?([A-Za-z_]\w*)\}?|\b(?:echo|printf\s+%s)\s+["']?\$\{?([A-Za-z_]\w*)\}?["']?\s*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b"#
);

/// A download kept in a shell variable, then the variable run as code.
fn variable_then_execute(text: &str) -> Spans {
    let mut out = Spans::new();
    for set in DOWNLOAD_INTO_VARIABLE.captures_iter(text) {
        let (Some(whole), Some(name)) = (set.get(0), set.get(1)) else {
            continue;
        };
        let run = VARIABLE_RUN.captures_iter(&text[whole.end()..]).find(|r| {
            r.get(1)
                .or_else(|| r.get(2))
                .is_some_and(|n| n.as_str() == name.as_str())
        });
        if let Some(end) = run.and_then(|r| r.get(0)).map(|m| whole.end() + m.end()) {
            out.push(whole.start()..end);
        }
    }
    out
}

#[cfg(test)]
mod tests;
