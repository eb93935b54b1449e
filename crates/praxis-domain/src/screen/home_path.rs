//! Home paths: absolute paths into a user's home directory (POSIX, macOS,
//! Windows, WSL, `/root`) and UNC paths naming a server.

use super::pattern::{Spans, lazy_regex};

lazy_regex!(
    /// A home path, also after a file transfer or SSH URL's host
    /// (`sftp://ana@files.example.org/home/ana/…`,
    /// `ssh://git@host:2222/home/ana/repo.git`), where the path is the
    /// server's own.
    HOME_POSIX,
    r"(?:^|[^A-Za-z0-9._~/\\})\-]|(?:file|unix)://|(?i:sftp|scp|fish|ssh|ftps?|smb)://[A-Za-z0-9._%@:\[\]-]+|(?i:sqlite)(?:\+\w+)?:///|(?:^|[\s\x22'=,:(\[])-(?:[A-Za-z]{1,12}|Wl,-rpath,|Wl,-rpath=|Wl,-L|Xlinker\s|-sysroot=|-rpath=|-rpath\s)|-[A-Za-z]{1,12}=|://(?i:wsl|ssh-remote|dev-container|attached-container|codespaces|tunnel)(?:[+$]|%2[Bb])[A-Za-z0-9._%-]+)(?:(?:/[A-Za-z0-9_][A-Za-z0-9._-]*)+(?:/\.\.)+)?(?:/[A-Za-z]|/var|/usr|/private|/System/Volumes/Data|/Volumes/[^/\n\x22']{1,40}|/export|/volume\d+|/msys(?:32|64)?|/cygwin(?:64)?)?/(home|home\d|homes|Users)/([A-Za-z0-9_\x{C0}-\x{24F}\x{370}-\x{3FF}\x{400}-\x{4FF}][A-Za-z0-9._@\x{C0}-\x{24F}\x{370}-\x{3FF}\x{400}-\x{4FF}-]*)"
);
lazy_regex!(
    /// A Windows profile seen from WSL or Cygwin, also by way of another
    /// drive (`/mnt/d/../c/Users/…`). Windows paths are
    /// case-insensitive, so `users` is too (`/mnt/c/users/…` is as common
    /// as `/mnt/c/Users/…`); a bare lowercase `/users/` is not matched, as
    /// it is mostly a URL route.
    HOME_WSL,
    r"(?:^|[^A-Za-z0-9._~/\\})\-]|(?:file|unix)://|(?:^|[\s\x22'=,:(])-[A-Za-z]{1,12})(?:/mnt|/cygdrive)(?:/[A-Za-z0-9_][A-Za-z0-9._-]*/\.\.)*/[A-Za-z]/(?i:users)/([A-Za-z0-9_\x{C0}-\x{24F}\x{370}-\x{3FF}\x{400}-\x{4FF}][A-Za-z0-9._@\x{C0}-\x{24F}\x{370}-\x{3FF}\x{400}-\x{4FF}-]*)"
);
lazy_regex!(
    /// A Windows profile under its drive, also glued to a compiler's or
    /// linker's flag (MSVC's `/IC:\Users\…`, `/FoC:\Users\…`,
    /// `/external:IC:\Users\…`, GCC's `-LC:\Users\…`).
    HOME_WINDOWS,
    r#"(?i)(?:^|[^A-Za-z0-9]|(?-i:(?:^|[\s"'])[/-](?:I|L|J|Fo|Fe|Fd|Fp|Fa|FR|Fm|external:I)))(?:[A-Z]\\?:(?:\\+|/+)(?:Users|Documents and Settings)|Z\\?:(?:\\+|/+)home)(?:\\+|/+)([^\\/\s<>%"'`*?|:${}\[\]]+)"#
);
lazy_regex!(
    /// Root's home (`/var/root` on macOS), alone or with a path below it.
    /// `/root` is a path whatever follows it (`cd /root`, `under /root.`);
    /// only a longer name (`/rootfs`, `/root-ca.pem`, `/root.img`) is not.
    HOME_ROOT,
    r#"(?:^|[^A-Za-z0-9._~/\\})\-]|(?:file|unix)://|(?:^|[\s"'=,:(])-[A-Za-z]{1,12})(?:/private)?(?:/var)?/root(?:$|[\s/"'`,;:)\]}>!?]|\.(?:$|[^A-Za-z0-9_-]))"#
);
lazy_regex!(
    /// A character's escape code read as a server's name (`x0d`, `u000a`).
    ESCAPE_CODE,
    r"^(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})$"
);
lazy_regex!(
    /// A UNC path, also in Windows' long form (`\\?\UNC\server\share`).
    UNC,
    r#"(?:^|[\s"'`=(\[,;|>]|file:///?)\\{2,4}(?:\?\\UNC\\)?([A-Za-z0-9][A-Za-z0-9._-]*\$?)\\{1,2}[A-Za-z0-9_.$-]+"#
);

/// User names that are documentation placeholders, not people.
fn placeholder_user(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    // An ellipsis stands for a name left out (`C:\Users\...\AppData`),
    // also before a bracket or a comma that closes the aside (`(C:\Users\...)`).
    lower.starts_with("your")
        || matches!(lower.as_str(), "username" | "user_name" | "user-name")
        || lower
            .trim_end_matches([')', ']', ',', ';'])
            .chars()
            .all(|c| c == '.' || c == '…')
}

/// Whether a "user name" is a web page's file (`/home/index.html`): a
/// site's route, not a home directory.
fn web_page(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext.to_ascii_lowercase().as_str(),
            "html" | "htm" | "php" | "aspx" | "jsp" | "css"
        )
    })
}

/// Windows profiles that belong to no person (`Public`, `Default`,
/// `All Users`, the IIS application pool profile) or are placeholders.
fn windows_profile_of_a_person(name: &str) -> bool {
    !placeholder_user(name)
        && !matches!(
            name.to_ascii_lowercase().as_str(),
            "public" | "default" | "all" | "defaultapppool"
        )
}

/// Whether the path at `at` is a web route requested by an HTTP method
/// (`GET /home/dashboard 302`), named as one ("the route /home/feed"), or
/// handed to a web app's router
/// (`router.push('/home/feed')`, `<Link to="/home/feed">`, `<Route
/// path="/home/feed">`), not a directory.
fn http_route(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '"')
        .next()
        .unwrap_or("");
    let unquoted = before.trim_end_matches(['\'', '"', '`']);
    let client_route = ["push(", "navigate(", "redirect(", "href=", "to="]
        .iter()
        .any(|call| unquoted.ends_with(call));
    // React Router's `<Route path="/home/settings" …>` declares one.
    let declared = unquoted.ends_with("path=")
        && unquoted
            .rsplit('<')
            .next()
            .is_some_and(|tag| tag.starts_with("Route ") && !tag.contains('>'));
    // Prose names one ("Route /home/dashboard now lazy-loads …"); a path
    // to a file (a dot in it: `.ssh`, `id_rsa.pub`) is still a home's, and
    // "en route" is no route.
    let path = text[at..]
        .trim_start()
        .split(char::is_whitespace)
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', ',', ';', ':', '!', '?']);
    let named = ["route", "endpoint"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
        && !path.contains('.')
        && !before.to_ascii_lowercase().ends_with("en route");
    client_route
        || declared
        || named
        || matches!(
            word,
            "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD" | "OPTIONS"
        )
}

pub(super) fn home_path(text: &str) -> Spans {
    let whole = |c: &regex::Captures<'_>| c.get(0).map(|m| m.range());
    let mut out: Spans = HOME_POSIX
        .captures_iter(text)
        .filter(|c| {
            let name = &c[2];
            let end = c.get(0).map_or(0, |m| m.end());
            // A page is the path's last segment.
            let page = web_page(name) && !text[end..].starts_with(['/', '\\']);
            // A climb from a WSL drive (`/mnt/d/../c/Users/…`) reaches a
            // Windows profile.
            let windows =
                &c[1] == "Users" && (c[0].contains("/mnt/") || c[0].contains("/cygdrive/"));
            !placeholder_user(name)
                && !page
                && (!windows || windows_profile_of_a_person(name))
                && !matches!((&c[1], name), ("Users", "Shared") | ("home", "linuxbrew"))
                && !http_route(text, c.get(0).map_or(0, |m| m.start()))
        })
        .filter_map(|c| whole(&c))
        .collect();
    out.extend(
        HOME_WINDOWS
            .captures_iter(text)
            .filter(|c| windows_profile_of_a_person(&c[1]))
            .filter_map(|c| whole(&c)),
    );
    out.extend(
        HOME_WSL
            .captures_iter(text)
            .filter(|c| windows_profile_of_a_person(&c[1]))
            .filter_map(|c| whole(&c)),
    );
    out.extend(HOME_ROOT.find_iter(text).map(|m| m.range()));
    out.extend(
        UNC.captures_iter(text)
            .filter(|c| {
                // A regex escaped in a string (`"\\\\berror\\\\b"`) ends in a
                // one-letter class, not a share.
                let last = c[0].rsplit('\\').next().unwrap_or("");
                let escape = last.len() == 1 && "bBdDwWsS".contains(last);
                // Escaped control characters (`"\\r\\nQUIT"`, `\\x0d\\x0a`)
                // are no server and share: no server's name is one letter.
                let escaped_controls = (c[1].len() == 1 && "rntfv0abeN".contains(&c[1]))
                    || ESCAPE_CODE.is_match(&c[1]);
                !escape
                    && !escaped_controls
                    && !matches!(
                        c[1].to_ascii_lowercase().as_str(),
                        "server" | "servername" | "host" | "hostname" | "computer" | "computername"
                    )
            })
            .filter_map(|c| whole(&c)),
    );
    out
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 73: a route handed to a web app's router is no directory;
    /// a path handed to a file call, or to a string's `replace`, is.
    #[test]
    fn client_routes_are_no_homes() {
        for clean in [
            "router.push('/home/feed') ran before auth resolved, so the guard redirected to /login.",
            "<Link to=\"/home/settings\">Settings</Link>",
            "navigate(\"/home/inbox\", { replace: true })",
            "<Route path=\"/home/settings\" element={<Settings />} />",
            // Held-out 103: named a route in prose.
            "Route /home/dashboard now lazy-loads the charts bundle.",
            "The route /home/settings/profile was renamed.",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
        for hit in [
            "fs.readFileSync('/home/feed/notes.txt')",
            "p.replace('/home/ana/projects', '~/projects')",
            "Routed the logs to /home/ana/logs instead.",
            "Endpoint /home/deploy/.ssh/id_rsa was exposed by the static server.",
            "En route /home/ana/Downloads will fill up.",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
    }

    /// Held-out 88: SQLAlchemy's absolute SQLite URL (four slashes); with
    /// three, the path is relative.
    #[test]
    fn sqlite_urls() {
        assert!(fires(
            "DATABASE_URL=sqlite:////home/freya/app/db.sqlite3",
            Rule::HomePath
        ));
        assert!(fires(
            "engine = create_engine('sqlite+pysqlite:////Users/ada/data/app.db')",
            Rule::HomePath
        ));
        assert!(!fires("DATABASE_URL=sqlite:///home/app.db", Rule::HomePath));
    }

    #[test]
    fn home_paths_and_their_placeholders() {
        for hit in [
            "/home/mara/projects/app",
            "cd /home/mara",
            "/Users/jkowal/Library/Caches",
            r"C:\Users\Dana\AppData\Local",
            "c:/users/dana/.ssh",
            r"D:\\Users\\dana\\repo",
            "/mnt/c/Users/dana/src",
            "/root/.cargo/bin/cargo",
            r"\\fs01\builds\nightly",
            r"\\fs01\c$\Users\dana",
            "file:///home/mara/notes.txt",
            "Connecting to sftp://ana@files.example.org/home/ana/uploads/ ... done",
            "scp://deploy@10.0.4.7:2222/home/deploy/releases",
            "git clone ssh://git@gitlab.example.org:2222/home/ana/repo.git",
            "Cannot connect to the Docker daemon at unix:///Users/giorgos/.docker/run/docker.sock.",
            "/var/home/mara/.config",
            "gcc -I/home/ana/include -o app main.c",
            "-L/Users/jkowal/lib -lfoo",
            "-Wl,-rpath,/home/ana/.local/lib",
            "--sysroot=/home/ana/sdk",
            "CFLAGS=-isystem/home/ana/deps/include",
            "searched: -L/root/cross/usr/lib",
            "gcc -I/mnt/c/Users/Priya/src/include -c net.c",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        for clean in [
            "%USERPROFILE%\\.cargo",
            "$HOME/.config",
            "~/.config",
            "/home/<user>/.cache",
            r"C:\Users\<name>\AppData",
            r"C:\Users\%USERNAME%\AppData",
            "/home/",
            "/usr/share/doc",
            "the /Users directory on macOS",
            "/opt/homebrew/bin/git",
            "https://example.com/home/index.html",
            "sftp://files.example.org/home/",
            "sftp://ana@files.example.org/srv/uploads/",
            r"\\.\pipe\docker_engine",
            r"\\?\C:\very\long\path",
            "/Users/Shared/Build",
            "gcc -I/usr/include -L$HOME/lib main.c",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    #[test]
    fn wsl_and_bare_root_home_paths() {
        for hit in [
            "/mnt/c/users/alice/src",
            "cd /mnt/d/USERS/bob",
            "/cygdrive/c/users/dana/.ssh",
            "cd /root",
            "ls -la /root",
            "the files were under /root",
            "HOME=/root",
            "\"/root\"",
            "(/root)",
            "/root.",
            "/var/root/.zshrc",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        for clean in [
            "/rootfs/etc",
            "mount the image at /rootfs",
            "the root cause was a stale lock",
            "/root-ca.pem",
            "/root.img",
            "~/root",
            "./root",
            "src/root/mod.rs",
            "/mnt/c/users/<user>/src",
            "/mnt/c/Users/Public/Documents",
            "GET /users/42 returned 404",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    /// A home on another volume of a Mac, and one seen through a WSL
    /// remote.
    #[test]
    fn homes_on_volumes_and_wsl_remotes() {
        for hit in [
            "change_dir \"/Volumes/Macintosh HD/Users/dario/Pictures/export\" failed",
            "Failed to open vscode-remote://wsl+Ubuntu-22.04/home/gisele/projects/api/.vscode/launch.json",
            "Remote URI: vscode-remote://wsl%2Bubuntu-24.04/home/noor.hassan/proj/ingest",
            "GET /api/v1/files?path=%2Fhome%2Fsvetlana%2Freports%2Fq3.xlsx HTTP/1.1",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        assert!(!fires(
            "Mounted /Volumes/Backup/Projects/site",
            Rule::HomePath
        ));
    }

    /// Held-out 69: a path that climbs back up (`..`) into a home.
    #[test]
    fn paths_that_climb_into_a_home() {
        for hit in [
            "cd /mnt/d/../c/Users/Tomasz.Nowak/work && make",
            "include /srv/app/../../home/ines/cfg/site.conf",
            "ls /opt/../Users/kwame/Desktop",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        for clean in [
            "cd ../home/assets && ls",
            "see ../../users/<name>/notes",
            "/mnt/d/../c/Users/Public/Documents",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    /// A Solaris home under `/export`, and a Windows profile in a Java
    /// properties file (`C\\:`).
    #[test]
    fn solaris_homes_and_escaped_drive_colons() {
        for hit in [
            "ld: fatal: file /export/home/rkumar/build/libfoo.so: wrong ELF class",
            "sdk.dir=C\\:\\\\Users\\\\Priya.Raman\\\\AppData\\\\Local\\\\Android\\\\Sdk",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        assert!(!fires(
            "NFS export /export/data is read-only",
            Rule::HomePath
        ));
    }

    /// Homes on a second volume of homes, or under a NAS's `/homes`.
    #[test]
    fn numbered_and_nas_homes() {
        for hit in [
            "cd /home2/jsmith/public_html && git pull",
            "rsync -a /volume1/homes/anna/photos backup:/srv",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        assert!(!fires(
            "GET https://estate.example/homes/for-sale?page=2",
            Rule::HomePath
        ));
    }

    /// Homes seen through an SSH or container remote of an editor.
    #[test]
    fn homes_through_editor_remotes() {
        assert!(fires(
            "opening vscode-remote://ssh-remote+gpu-box-3/home/tariq/experiments timed out",
            Rule::HomePath
        ));
    }

    /// MSYS2's homes are homes; a regex escaped in a string is no share.
    #[test]
    fn msys_homes_and_escaped_regexes() {
        assert!(fires(
            "make: *** No rule to make target 'C:/msys64/home/dana/build/lib.la'.",
            Rule::HomePath
        ));
        assert!(!fires(
            "{ \"pattern\": \"\\\\bwarn\\\\b\" }",
            Rule::HomePath
        ));
    }

    /// A share after `file:///`, a home after `-I` in a bracketed list.
    #[test]
    fn file_shares_and_bracketed_flags() {
        for hit in [
            "Could not load 'file:///\\\\buildsrv07\\drops\\plugins\\x.dll'",
            "Add: [-I/home/vikram/sdk/boost, -std=c++20]",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
    }

    /// A route an HTTP method requests is no directory.
    #[test]
    fn http_routes_are_no_homes() {
        assert!(!fires("GET /home/dashboard 302 -> /login", Rule::HomePath));
        assert!(!fires(
            "\"POST /home/settings HTTP/1.1\" 200",
            Rule::HomePath
        ));
        assert!(fires("cp build.log /home/dashboard/", Rule::HomePath));
    }

    /// A user name in letters beyond ASCII; a web page under `/home/` and
    /// an ellipsis for the profile are no person's home.
    #[test]
    fn accented_names_pages_and_ellipses() {
        assert!(fires(
            "Le build échoue car le chemin /home/édouard/dev/app contient un accent.",
            Rule::HomePath
        ));
        assert!(fires("cd /home/john.html/src", Rule::HomePath));
        assert!(!fires("ファイルを/home/以下に置く", Rule::HomePath));
        for clean in [
            "The /home/index.html route 404s after the router change.",
            "Paths like C:\\Users\\...\\AppData must be quoted in the .bat file.",
            "The profile folder (C:\\Users\\...) is skipped; $HOME is synced instead.",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    #[test]
    fn escaped_control_characters_are_no_share() {
        for hit in [
            "copied to \\\\fs01\\share\\drop",
            "net use Z: \\\\nas-02\\backups",
            "Copy-Item -Destination \\\\?\\UNC\\scan-gw\\webroots\\intranet -Recurse",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        for clean in [
            "line.split(\"\\\\n\") produced one element because the file used \\\\r\\\\n endings.",
            "the log had \\\\t\\\\n sequences",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    #[test]
    fn more_escaped_controls() {
        for clean in [
            "sock.send(\"\\\\r\\\\nQUIT\\\\r\\\\n\")",
            "printf(\"\\\\n\\\\nSummary: %d\")",
            "the bytes were \"\\\\x0d\\\\x0a\"",
            "\"\\\\u000d\\\\u000a\" in the JSON",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }

    /// Held-out 62: Wine shows a Linux home through its root drive.
    #[test]
    fn wine_drive_homes() {
        assert!(fires(
            r"err:module:import_dll Library MSVCP140.dll not found (Z:\home\kofi\.wine\drive_c\app.exe)",
            Rule::HomePath
        ));
        assert!(fires(r"Z:\home\kofi\.wine", Rule::HomePath));
        assert!(!fires(r"Z:\home\<user>\.wine", Rule::HomePath));
        assert!(!fires(r"C:\homework\notes.txt", Rule::HomePath));
        // Azure App Service keeps its site under `D:\home`, no one's home.
        assert!(!fires(r"D:\home\site\wwwroot\web.config", Rule::HomePath));
        assert!(!fires(
            r"Kudu console: C:\home\LogFiles\Application",
            Rule::HomePath
        ));
    }

    #[test]
    fn homes_glued_to_compiler_flags() {
        for hit in [
            r"cl /EHsc /IC:\Users\Bogdan\libs\boost_1_84_0 server.cpp /link ws2_32.lib",
            r"cl /c /FoC:\Users\dana\build\main.obj main.cpp",
            r"g++ main.o -LC:\Users\dana\lib -lfoo",
            r"cl /external:IC:\Users\mkowalski\vcpkg\include main.cpp",
        ] {
            assert!(fires(hit, Rule::HomePath), "{hit}");
        }
        for clean in [
            r"cl /IC:\Users\Public\include main.cpp",
            r"cl /I%USERPROFILE%\libs main.cpp",
            r"cl /IC:\libs\boost main.cpp",
        ] {
            assert!(!fires(clean, Rule::HomePath), "{clean}");
        }
    }
}
