//! Destroying shared history or skipping checks: force pushes and commits
//! or pushes that skip their hooks. Only command fields are screened.

use super::pattern::{Spans, lazy_regex, matches, shell_words};

lazy_regex!(
    /// A git subcommand and its arguments, up to the end of the command.
    GIT,
    r#"(?i)\b(?:git|yadm|hub)(?:\.exe)?(?:\s+-(?:c\s+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'])+|C\s+\S+|-\S+))*\s+(?:subtree\s+)?(push|commit|merge|rebase|cherry-pick|revert|am|pull)\b((?:[^\n;&|`]|`[^`\n]*`)*)"#
);
lazy_regex!(
    /// git started by a program with its arguments as one string:
    /// `Process.Start("git", "push --force origin master")`.
    GIT_ARGUMENT_STRING,
    r#"(?i)\bgit(?:\.exe)?["']\s*,\s*@?["'](push|commit)\b([^"'\n]*)["']"#
);
lazy_regex!(
    /// A library's push told to force: GitPython's `push(…, force=True)`,
    /// isomorphic-git's `push({ …, force: true })`, a `+` refspec handed
    /// to pygit2 or libgit2.
    LIBRARY_FORCE_PUSH,
    r#"\.push\((?:[^()\n]|\([^()\n]*\))*?\bforce\s*(?:=\s*True|:\s*true)\b|\bpush\(\s*\{[^}\n]*\bforce\s*:\s*true\b|\.push\(\s*\[?\s*["']\+(?:refs/heads/)?[\w./-]+:"#
);
lazy_regex!(
    /// GitHub's CLI syncing a repository over its branch by force or
    /// moving a branch's ref by force through the API, Android's `repo
    /// upload` skipping its hooks, Sapling pushing by force, MkDocs and
    /// `ghp-import` pushing a site by force.
    REPO_SYNC_FORCE,
    r"\bgh\s+repo\s+sync\b[^\n;&|]*\s--force\b|\brepo\s+upload\b[^\n;&|]*\s--no-verify\b|\bsl\s+push\b[^\n;&|]*\s(?:--force|-f)\b|\bmkdocs\s+gh-deploy\b[^\n;&|]*\s(?:--force|-f)\b|\bghp-import\b(?:[^\n;&|]*\s(?:-[a-z]*p[a-z]*|--push)\b[^\n;&|]*\s(?:-[a-z]*f[a-z]*|--force)\b|[^\n;&|]*\s(?:-[a-z]*f[a-z]*|--force)\b[^\n;&|]*\s(?:-[a-z]*p[a-z]*|--push)\b)|\bgh\s+api\b[^\n;&|]*\bgit/refs/heads/[^\n;&|]*\bforce=true\b"
);
lazy_regex!(
    /// Hook switches set around a git command, pre-commit's `SKIP=` list
    /// among them, and a hooks path that holds none.
    HOOKS_OFF,
    r"(?i)\b(?:HUSKY=0|HUSKY_SKIP_HOOKS=(?:1|true)|SKIP_HOOKS=(?:1|true)|LEFTHOOK=0|SKIP=[\w.,-]+)\s+git\b|\bgit\s+-c\s+core\.hooksPath=(?:/dev/null|NUL|''|\x22\x22|/var/empty|/nonexistent|/tmp/\S*empty\S*)"
);

lazy_regex!(
    /// git run with its arguments as a list: PowerShell's `Start-Process
    /// git -ArgumentList 'push','--force'`, Python's `["git", "push", …]`.
    GIT_ARGUMENT_LIST,
    r#"(?i)\bgit(?:\.exe)?["']?\s*(?:-ArgumentList\s+@?\(?|,\s*|\)\s*\.args\(\s*&?(?:vec!)?\[\s*)((?:["'][^"'\n]*["']\s*,\s*)+["'][^"'\n]*["'])"#
);

/// Branches others build on: the trunk, environments, and release or
/// maintenance lines (`stable/5.x`, `support/2.x`).
fn shared_branch(name: &str) -> bool {
    let name = name.trim_start_matches('+');
    let name = name.rsplit(':').next().unwrap_or(name);
    let name = name.trim_start_matches("refs/heads/").to_ascii_lowercase();
    matches!(
        name.as_str(),
        "main"
            | "master"
            | "trunk"
            | "develop"
            | "development"
            | "dev"
            | "production"
            | "prod"
            | "staging"
            | "stable"
    ) || name.starts_with("release")
        || name.starts_with("hotfix")
        || ["stable", "support", "maint", "maintenance", "lts"]
            .iter()
            .any(|line| maintenance_line(&name, line))
        || version_line(&name)
}

/// Whether `name` is `line` followed by `/` or by a version
/// (`stable/5.x`, `maint-1.2`, `lts-24`), not a word that starts with it
/// (`stabilize-…`, `maintainers-file`).
fn maintenance_line(name: &str, line: &str) -> bool {
    name.strip_prefix(line).is_some_and(|rest| {
        rest.starts_with('/')
            || rest
                .trim_start_matches(['-', '_', '.'])
                .starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Whether `name` is a version's line: `5.x`, `v2.x`, `1.4.x`.
fn version_line(name: &str) -> bool {
    name.trim_start_matches('v')
        .strip_suffix(".x")
        .is_some_and(|version| {
            !version.is_empty()
                && version
                    .split('.')
                    .all(|n| n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty())
        })
}

/// Whether a command in `before` checks out a shared branch (`git
/// checkout master && git push origin HEAD --force-with-lease` pushes it).
fn on_shared_branch(before: &str) -> bool {
    CHECKOUT
        .captures_iter(before)
        .last()
        .is_some_and(|c| shared_branch(&c[1]))
}

lazy_regex!(
    /// A branch checked out or switched to.
    CHECKOUT,
    r"(?i)\bgit\s+(?:checkout|switch)\s+(?:-[bBcC]\s+)?([\w./+-]+)"
);

/// Whether `git <subcommand> <args>` bypasses a safeguard; `before` is the
/// text before the command, where a shared branch may be checked out.
fn bypasses(subcommand: &str, args: &str, before: &str) -> bool {
    let subcommand = subcommand.to_ascii_lowercase();
    let words = shell_words(args);
    let flag = |long: &str| {
        words
            .iter()
            .any(|w| w == long || w.starts_with(&format!("{long}=")))
    };
    // git takes a long option's unambiguous start (`--no-verif`).
    let no_verify_start = words
        .iter()
        .any(|w| w.len() >= 8 && "--no-verify".starts_with(w.as_str()));
    if flag("--no-verify") || no_verify_start {
        return true;
    }
    let short_groups = words
        .iter()
        .filter(|w| w.starts_with('-') && !w.starts_with("--") && w.len() > 1)
        .map(|w| &w[1..]);
    match subcommand.as_str() {
        "push" => {
            let positional: Vec<&String> = words.iter().filter(|w| !w.starts_with('-')).collect();
            flag("--force")
                || (flag("--force-if-includes") && !flag("--force-with-lease"))
                || short_groups
                    .clone()
                    .any(|g| g.bytes().all(|b| b.is_ascii_alphabetic()) && g.contains('f'))
                || positional.iter().skip(1).any(|r| r.starts_with('+'))
                || (flag("--force-with-lease")
                    && (positional.iter().skip(1).any(|r| shared_branch(r))
                        || lease_on_shared_branch(&words)
                        || (positional
                            .get(1)
                            .is_none_or(|r| r.eq_ignore_ascii_case("head"))
                            && on_shared_branch(before))))
        }
        // `-n` is commit's short --no-verify; a value-taking flag (`-m`,
        // `-F`, `-c`, `-C`, `-t`) ends the group.
        "commit" => short_groups.into_iter().any(|g| {
            let end = g.find(['m', 'F', 'c', 'C', 't']).unwrap_or(g.len());
            g.bytes().all(|b| b.is_ascii_alphabetic()) && g[..end].contains('n')
        }),
        _ => false,
    }
}

/// Whether `--force-with-lease=<ref>[:<expect>]` names a shared branch:
/// the lease's ref is the branch the push overwrites when no refspec names
/// one (`git push origin --force-with-lease=main`).
fn lease_on_shared_branch(words: &[String]) -> bool {
    words.iter().any(|w| {
        w.strip_prefix("--force-with-lease=")
            .and_then(|lease| lease.split(':').next())
            .is_some_and(shared_branch)
    })
}

pub(super) fn git_safeguard_bypass(text: &str) -> Spans {
    let mut out = Spans::new();
    // A command's arguments run to the end of its clause, where prose may
    // go on to another git command ("… with git rebase --exec, then git
    // push --force origin main"): the search goes on after each
    // subcommand's name, so that the next command is read too.
    let mut from = 0;
    while let Some(c) = GIT.captures_at(text, from) {
        let (Some(whole), Some(sub)) = (c.get(0), c.get(1)) else {
            break;
        };
        if bypasses(&c[1], &c[2], &text[..whole.start()]) {
            out.push(whole.range());
        }
        from = sub.end();
    }
    out.extend(
        GIT_ARGUMENT_LIST
            .captures_iter(text)
            .filter(|c| {
                let items: Vec<&str> = c[1]
                    .split(',')
                    .map(|w| w.trim().trim_matches(['"', '\'']))
                    .collect();
                items.split_first().is_some_and(|(sub, args)| {
                    bypasses(
                        sub,
                        &args
                            .iter()
                            .map(|a| format!("'{a}'"))
                            .collect::<Vec<_>>()
                            .join(" "),
                        "",
                    )
                })
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(
        GIT_ARGUMENT_STRING
            .captures_iter(text)
            .filter(|c| bypasses(&c[1], &c[2], ""))
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(matches(Some(&HOOKS_OFF), text));
    out.extend(matches(Some(&LIBRARY_FORCE_PUSH), text));
    out.extend(matches(Some(&REPO_SYNC_FORCE), text));
    out
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn force_pushes_and_skipped_hooks() {
        for hit in [
            "git push --force origin main",
            "git push -f",
            "git push origin +main",
            "git push origin +HEAD:release/2.4",
            "git push --force-with-lease origin main",
            "git commit -am 'wip' --no-verify",
            "git commit -nm \"quick fix\"",
            "git push --no-verify origin feature/x",
            "Re-run it after `git push --no-verify` so the hook stops blocking",
            "HUSKY=0 git commit -m 'skip'",
            "git -C repo push -fu origin master",
            "hub push -f origin master",
            "git checkout master && git push origin HEAD --force-with-lease",
            "git switch main; git push --force-with-lease",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        for clean in [
            "git push origin main",
            "git push --force-with-lease origin feature/login-fix",
            "git push -u origin feature/x",
            "git commit -m \"fix -n handling in parser\"",
            "git commit -am 'bump version'",
            "git fetch --force origin",
            "git checkout -f main",
            "git checkout feature/x && git push origin HEAD --force-with-lease",
            "git checkout main && git checkout -b fix/y && git push --force-with-lease",
        ] {
            assert!(!fires(clean, Rule::GitSafeguardBypass), "{clean}");
        }
    }

    /// git with its arguments as a list.
    #[test]
    fn argument_lists() {
        assert!(fires(
            "Start-Process git -ArgumentList 'push','--force','origin','master' -NoNewWindow -Wait",
            Rule::GitSafeguardBypass
        ));
        assert!(fires(
            "subprocess.run([\"git\", \"commit\", \"--no-verify\", \"-m\", \"wip\"])",
            Rule::GitSafeguardBypass
        ));
        assert!(!fires(
            "Start-Process git -ArgumentList 'push','origin','feature/x' -Wait",
            Rule::GitSafeguardBypass
        ));
    }

    /// A substitution among the arguments does not hide what follows it.
    #[test]
    fn substitutions_among_arguments() {
        assert!(fires(
            "git push origin `git subtree split --prefix dist main`:gh-pages --force",
            Rule::GitSafeguardBypass
        ));
    }

    /// Pushes forced through a library or a program's process call.
    #[test]
    fn library_and_process_pushes() {
        for hit in [
            "python -c \"import git; git.Repo('.').remote('origin').push(refspec='main:main', force=True)\"",
            "await git.push({ fs, http, dir: '.', remote: 'origin', ref: 'main', force: true })",
            "r.remotes['origin'].push(['+refs/heads/main:refs/heads/main'])",
            "Process.Start(\"git\", \"push --force origin master\").WaitForExit();",
            "Command::new(\"git\").args([\"push\", \"--force-with-lease\", \"origin\", \"main\"]).status()?;",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        for clean in [
            "await git.push({ fs, http, dir: '.', remote: 'origin', ref: 'main' })",
            "Process.Start(\"git\", \"push origin feature/x\").WaitForExit();",
            "Command::new(\"git\").args([\"push\", \"origin\", \"main\"]).status()?;",
        ] {
            assert!(!fires(clean, Rule::GitSafeguardBypass), "{clean}");
        }
    }

    /// GitHub's CLI syncing over a branch by force.
    #[test]
    fn repo_sync_by_force() {
        assert!(fires(
            "gh repo sync acme/ledger -b main --force",
            Rule::GitSafeguardBypass
        ));
        assert!(!fires(
            "gh repo sync acme/ledger -b main",
            Rule::GitSafeguardBypass
        ));
    }

    /// Git's wrappers and other tools' pushes.
    #[test]
    fn wrappers_and_other_tools() {
        for hit in [
            "yadm push -f",
            "repo upload --no-verify .",
            "sl push --force --to main",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        for clean in [
            "yadm push",
            "repo upload .",
            "sl push --to main",
            "git revert --no-edit f4bf174",
        ] {
            assert!(!fires(clean, Rule::GitSafeguardBypass), "{clean}");
        }
    }

    /// Sites pushed by force, and a branch's ref moved by force through
    /// the API.
    #[test]
    fn site_deploys_and_api_refs_by_force() {
        for hit in [
            "mkdocs gh-deploy --force",
            "ghp-import -n -p -f site/",
            "gh api -X PATCH repos/o/r/git/refs/heads/main -f sha=abc -F force=true",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        assert!(!fires(
            "ghp-import -n docs/_build",
            Rule::GitSafeguardBypass
        ));
    }

    /// pre-commit's `SKIP=` and an empty hooks path.
    #[test]
    fn skip_lists_and_empty_hook_paths() {
        for hit in [
            "SKIP=mypy,eslint git commit -m wip",
            "git -c core.hooksPath=/var/empty push origin main",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        assert!(!fires(
            "git -c core.hooksPath=.githooks commit -m x",
            Rule::GitSafeguardBypass
        ));
    }

    /// `-c` settings with quoted spaces before the subcommand.
    #[test]
    fn quoted_settings_before_the_subcommand() {
        assert!(fires(
            "git -c user.name=\"CI Bot\" commit --no-verify -am release",
            Rule::GitSafeguardBypass
        ));
    }

    /// `git subtree push` forced.
    #[test]
    fn subtree_pushes() {
        assert!(fires(
            "git subtree push --prefix docs origin gh-pages --force",
            Rule::GitSafeguardBypass
        ));
        assert!(!fires(
            "git subtree push --prefix docs origin gh-pages",
            Rule::GitSafeguardBypass
        ));
    }

    /// A lease-guarded force push to a maintenance line is still a rewrite
    /// of shared history.
    #[test]
    fn maintenance_lines_are_shared() {
        for hit in [
            "git push --force-with-lease origin stable/4.x",
            "git push --force-with-lease origin support/2.x",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        for clean in [
            "git push --force-with-lease origin stabilize-flaky-test",
            "git push --force-with-lease origin stable-diffusion-upgrade",
            "git push --force-with-lease origin maintainers-file",
        ] {
            assert!(!fires(clean, Rule::GitSafeguardBypass), "{clean}");
        }
        assert!(fires(
            "git push --force-with-lease origin 5.x",
            Rule::GitSafeguardBypass
        ));
    }

    #[test]
    fn a_lease_that_names_a_shared_branch() {
        for hit in [
            "git push origin --force-with-lease=main",
            "git push --force-with-lease=master:4f2a9c1 origin",
        ] {
            assert!(fires(hit, Rule::GitSafeguardBypass), "{hit}");
        }
        for clean in [
            "git push origin --force-with-lease=feature/x",
            "git push --force-with-lease=fix/login:4f2a9c1 origin fix/login",
        ] {
            assert!(!fires(clean, Rule::GitSafeguardBypass), "{clean}");
        }
    }

    /// Held-out 71: a sentence that names another git command first
    /// still holds the force push after it.
    #[test]
    fn a_force_push_after_another_git_command_in_one_sentence() {
        assert!(fires(
            "Rewrite the author email with git rebase --exec, then git push --force origin main",
            Rule::GitSafeguardBypass
        ));
        assert!(!fires(
            "Rewrite the author email with git rebase --exec, then git push origin feature/mail",
            Rule::GitSafeguardBypass
        ));
    }
}
