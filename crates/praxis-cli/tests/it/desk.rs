//! A `praxis serve` on a fresh store of either backend, and `praxis`
//! commands run against it as one of several subjects, each with a token
//! file issued through `praxis credentials issue`.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;
use std::process::{Command, Output};

use praxis_testkit::{Backend, StoreLocation};
use serde_json::{Value, json};

use crate::support::{Server, describe, praxis};

/// The project of every scope here.
pub const PROJECT: &str = "p";
/// The agent of every scope here.
pub const AGENT: &str = "a";
/// The scope flags.
pub const SCOPE: [&str; 4] = ["--project", PROJECT, "--agent", AGENT];

/// A server and a work directory holding token files.
pub struct Desk {
    _location: StoreLocation,
    _tmp: tempfile::TempDir,
    /// Where commands run and token files live.
    pub work: PathBuf,
    xdg: PathBuf,
    /// The server.
    pub server: Server,
}

impl Desk {
    /// Serves a fresh store of `backend`; the bootstrap admin token (with
    /// credential_admin) is the token file `admin`.
    pub fn start(backend: Backend) -> Desk {
        let location = StoreLocation::new(backend);
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        let xdg = tmp.path().join("xdg");
        let data = tmp.path().join("data");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&xdg).unwrap();
        let mut args: Vec<String> = match backend {
            Backend::Sqlite => vec!["--data-dir".into(), location.store.clone()],
            Backend::Postgres => vec![
                "--store".into(),
                location.store.clone(),
                "--data-dir".into(),
                data.display().to_string(),
            ],
        };
        let data_dir = PathBuf::from(&args[args.len() - 1]);
        args.extend(["--tenant".into(), "default".into()]);
        let server = Server::start(&args.iter().map(String::as_str).collect::<Vec<_>>());
        std::fs::copy(data_dir.join("admin-token"), work.join("admin")).unwrap();
        std::fs::set_permissions(work.join("admin"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
        Desk {
            _location: location,
            _tmp: tmp,
            work,
            xdg,
            server,
        }
    }

    /// `praxis ARGS` as the holder of token file `who`, against the server,
    /// with nothing from the caller's environment.
    pub fn cmd(&self, who: &str, args: &[&str]) -> Command {
        let mut cmd = praxis();
        for var in ["PRAXIS_URL", "PRAXIS_TOKEN", "PRAXIS_CLIENT_CONFIG"] {
            cmd.env_remove(var);
        }
        cmd.env("XDG_CONFIG_HOME", &self.xdg)
            .env("PRAXIS_URL", &self.server.base)
            .env("PRAXIS_TOKEN_FILE", who)
            .current_dir(&self.work)
            .args(args);
        cmd
    }

    /// Runs `praxis ARGS` as `who`.
    pub fn run(&self, who: &str, args: &[&str]) -> Output {
        self.cmd(who, args).output().expect("run praxis")
    }

    /// Runs `praxis ARGS` as `who`; it must exit 0. Returns stdout.
    pub fn ok(&self, who: &str, args: &[&str]) -> String {
        let out = self.run(who, args);
        assert!(out.status.success(), "praxis {args:?}: {}", describe(&out));
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs `praxis --json ARGS` as `who`; it must exit 0 and print one
    /// JSON document.
    pub fn json(&self, who: &str, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let stdout = self.ok(who, &all);
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
    }

    /// Runs `praxis ARGS` as `who` twice, with and without `--json`: each
    /// must exit 1, say `praxis: STATUS CODE: …` first on stderr, and with
    /// `--json` print the problem document on stdout. Returns the text run's
    /// stderr.
    pub fn refused(&self, who: &str, args: &[&str], status: u16, code: &str) -> String {
        let out = self.run(who, args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        assert!(
            stderr.starts_with(&format!("praxis: {status} {code}: ")),
            "{args:?} not refused with {status} {code}: {}",
            describe(&out)
        );
        assert!(out.stdout.is_empty(), "{}", describe(&out));
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        let out = self.run(who, &all);
        assert_eq!(out.status.code(), Some(1), "{all:?}: {}", describe(&out));
        let problem: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("stdout is not the problem ({e}): {}", describe(&out)));
        assert_eq!(
            (&problem["status"], &problem["code"]),
            (&json!(status), &json!(code)),
            "{problem}"
        );
        stderr
    }

    /// Issues a credential for `subject` with `capabilities` in the scope,
    /// as the admin, into the token file `subject` (mode 0600); its id.
    pub fn issue(&self, subject: &str, capabilities: &[&str]) -> String {
        let grant = json!({
            "project_id": PROJECT, "mission_id": null, "agent_id": AGENT, "visibility": "shared"
        })
        .to_string();
        let mut args = vec![
            "credentials",
            "issue",
            "--subject",
            subject,
            "--grant",
            &grant,
            "--no-expiry",
            "--token-out",
            subject,
        ];
        for c in capabilities {
            args.extend(["--capability", c]);
        }
        let issued = self.json("admin", &args);
        let mode = std::fs::metadata(self.work.join(subject))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the token file is private");
        assert!(
            issued.get("token").is_none(),
            "a token written to a file is not printed: {issued}"
        );
        issued["credential"]["id"].as_str().unwrap().to_owned()
    }

    /// Writes `value` as a JSON file in the work directory.
    pub fn write(&self, name: &str, value: &Value) {
        std::fs::write(
            self.work.join(name),
            serde_json::to_vec_pretty(value).unwrap(),
        )
        .unwrap();
    }
}

/// `[sub…, SCOPE…, rest…]`.
pub fn scoped<'a>(sub: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = sub.to_vec();
    args.extend_from_slice(&SCOPE);
    args.extend_from_slice(rest);
    args
}
