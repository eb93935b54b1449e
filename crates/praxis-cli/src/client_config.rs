//! The client config file, and the credential files the CLI reads.
//!
//! A client config file pins the server, the credential file and the
//! default scope of remote commands that take it (`praxis memory …`,
//! `praxis proposals …`):
//!
//! ```toml
//! url = "http://127.0.0.1:7878"
//! token_file = "bot-token"     # relative to this file's directory
//! project = "billing-service"
//! agent = "triage-bot"         # optional
//! mission = "m-1"              # optional; absent is the null mission
//! visibility = "shared"        # optional; shared or private
//! ```
//!
//! It is `--client-config FILE` or `PRAXIS_CLIENT_CONFIG`, or else
//! `$XDG_CONFIG_HOME/praxis/client.toml` (`~/.config/praxis/client.toml`)
//! when that exists. Flags and environment variables override each key.
//!
//! Praxis refuses a token file that grants group or others any permission,
//! and a config file that group or others may write: whoever can change
//! the config can send the token to another server.

use std::fs::File;
use std::io::Read as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use praxis_client::Client;
use serde::Deserialize;

use crate::attempts::{Remote, ScopeArgs, TokenSource, VisibilityArg};
use crate::output::usage;

/// The environment variable naming the client config file.
pub const CLIENT_CONFIG_ENV: &str = "PRAXIS_CLIENT_CONFIG";

/// The keys of a client config file; every one is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClientConfig {
    /// Base URL of the Praxis server.
    pub url: Option<String>,
    /// File holding the bearer token; a relative path is relative to the
    /// config file's directory, and `~/` is the home directory.
    pub token_file: Option<PathBuf>,
    /// Default project id.
    pub project: Option<String>,
    /// Default agent id.
    pub agent: Option<String>,
    /// Default mission id (absent: the null mission).
    pub mission: Option<String>,
    /// Default visibility.
    pub visibility: Option<VisibilityArg>,
}

impl ClientConfig {
    /// Loads the config file `explicit` names (which must exist), or else
    /// the default file when it exists, or else an empty config.
    pub fn load(explicit: Option<&Path>) -> anyhow::Result<ClientConfig> {
        match explicit {
            Some(path) => ClientConfig::read(path),
            None => match default_path() {
                Some(path) if path.exists() => ClientConfig::read(&path),
                _ => Ok(ClientConfig::default()),
            },
        }
    }

    /// Reads and parses one config file, refusing it when group or others
    /// may write it. A relative `token_file` is resolved against the
    /// file's directory.
    pub fn read(path: &Path) -> anyhow::Result<ClientConfig> {
        let mut file = File::open(path)
            .with_context(|| format!("reading the client config {}", path.display()))?;
        let mode = file
            .metadata()
            .with_context(|| format!("reading the client config {}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o022 != 0 {
            anyhow::bail!(
                "refusing the client config {p}: group or others may write it (mode {m:04o}), \
                 and whoever can change it can send your token elsewhere; \
                 make it writable by you alone: chmod 600 {p}",
                p = path.display(),
                m = mode & 0o7777,
            );
        }
        let mut text = String::new();
        file.read_to_string(&mut text)
            .with_context(|| format!("reading the client config {}", path.display()))?;
        let mut config: ClientConfig = toml::from_str(&text)
            .with_context(|| format!("parsing the client config {}", path.display()))?;
        if let Some(token_file) = config.token_file.take() {
            let dir = path.parent().unwrap_or(Path::new("."));
            config.token_file = Some(resolve(dir, &token_file, home().as_deref()));
        }
        Ok(config)
    }
}

/// The home directory, from `HOME`.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// `$XDG_CONFIG_HOME/praxis/client.toml`, or `$HOME/.config/praxis/client.toml`
/// when `XDG_CONFIG_HOME` is unset, empty or relative (as the XDG base
/// directory specification says to treat it).
pub fn default_path() -> Option<PathBuf> {
    default_path_from(
        std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from),
        home(),
    )
}

fn default_path_from(xdg: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    let base = xdg
        .filter(|x| x.is_absolute())
        .or_else(|| home.map(|h| h.join(".config")))?;
    Some(base.join("praxis").join("client.toml"))
}

/// `path` as the config file in `dir` means it: `~/…` under `home`, a
/// relative path under `dir`, an absolute one as it is.
fn resolve(dir: &Path, path: &Path, home: Option<&Path>) -> PathBuf {
    if let (Ok(rest), Some(home)) = (path.strip_prefix("~"), home) {
        return home.join(rest);
    }
    if path.is_absolute() {
        path.to_owned()
    } else {
        dir.join(path)
    }
}

/// Where the server is and who calls it, with the client config file
/// supplying what the flags and environment leave out.
#[derive(Args)]
pub struct ConfiguredRemote {
    #[command(flatten)]
    remote: Remote,
    /// Client config file (TOML keys url, token_file, project, agent,
    /// mission, visibility); flags and environment variables override it
    /// [default: $XDG_CONFIG_HOME/praxis/client.toml or
    /// ~/.config/praxis/client.toml, when it exists].
    #[arg(long, env = CLIENT_CONFIG_ENV, value_name = "FILE")]
    client_config: Option<PathBuf>,
}

impl ConfiguredRemote {
    /// Loads the client config, and returns a client for the server and
    /// the exact scope `flags` name over the config's defaults.
    pub(crate) fn open(&self, flags: &ScopeFlags) -> anyhow::Result<(Client, praxis_api::Scope)> {
        let config = ClientConfig::load(self.client_config.as_deref())?;
        let scope = flags.resolve(&config)?;
        Ok((self.remote.client_with(&config)?, scope.wire()))
    }

    /// Loads the client config, and returns a client for the server, for
    /// calls that name no scope.
    pub(crate) fn client(&self) -> anyhow::Result<Client> {
        let config = ClientConfig::load(self.client_config.as_deref())?;
        self.remote.client_with(&config)
    }

    /// Loads the client config, and returns the server's URL and the token,
    /// for callers that speak HTTP themselves.
    pub(crate) fn endpoint(&self) -> anyhow::Result<(String, String)> {
        let config = ClientConfig::load(self.client_config.as_deref())?;
        let (url, source) = self.remote.resolve(&config)?;
        let token = match source {
            TokenSource::Given(token) => token,
            TokenSource::File(path) => read_token_file(&path)?,
        };
        Ok((url, token))
    }
}

/// The exact scope to act in, each id defaulting to the client config's.
#[derive(Args, Debug, Default)]
pub struct ScopeFlags {
    /// Project id [default: the client config's project].
    #[arg(long)]
    project: Option<String>,
    /// Mission id [default: the client config's mission, else the null
    /// mission; null is not a wildcard].
    #[arg(long, conflicts_with = "no_mission")]
    mission: Option<String>,
    /// Act in the null mission whatever the client config's mission.
    #[arg(long)]
    no_mission: bool,
    /// Agent id [default: the client config's agent].
    #[arg(long)]
    agent: Option<String>,
    /// Visibility [default: the client config's, else shared].
    #[arg(long, value_enum)]
    visibility: Option<VisibilityArg>,
}

impl ScopeFlags {
    /// The scope: each flag over the config's key; project and agent must
    /// come from one or the other.
    pub(crate) fn resolve(&self, config: &ClientConfig) -> anyhow::Result<ScopeArgs> {
        let project = self
            .project
            .clone()
            .or_else(|| config.project.clone())
            .ok_or_else(|| {
                usage("give the project with --project or `project` in the client config")
            })?;
        let agent = self
            .agent
            .clone()
            .or_else(|| config.agent.clone())
            .ok_or_else(|| usage("give the agent with --agent or `agent` in the client config"))?;
        let mission = if self.no_mission {
            None
        } else {
            self.mission.clone().or_else(|| config.mission.clone())
        };
        let visibility = self
            .visibility
            .or(config.visibility)
            .unwrap_or(VisibilityArg::Shared);
        Ok(ScopeArgs::new(project, mission, agent, visibility))
    }
}

/// Reads a bearer token from `path`, refusing a file whose mode grants any
/// permission to group or others.
pub fn read_token_file(path: &Path) -> anyhow::Result<String> {
    let mut file =
        File::open(path).with_context(|| format!("reading the token file {}", path.display()))?;
    let mode = file
        .metadata()
        .with_context(|| format!("reading the token file {}", path.display()))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        anyhow::bail!(
            "refusing the token file {p}: group or others may access it (mode {m:04o}); \
             a token file must be private to you: chmod 600 {p}",
            p = path.display(),
            m = mode & 0o7777,
        );
    }
    let mut text = String::new();
    file.read_to_string(&mut text)
        .with_context(|| format!("reading the token file {}", path.display()))?;
    let token = text.trim();
    if token.is_empty() {
        anyhow::bail!("the token file {} is empty", path.display());
    }
    Ok(token.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str, mode: u32) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    #[test]
    fn the_default_path_follows_xdg_then_home() {
        let home = Some(PathBuf::from("/home/u"));
        assert_eq!(
            default_path_from(Some("/x".into()), home.clone()),
            Some(PathBuf::from("/x/praxis/client.toml"))
        );
        for xdg in [None, Some(PathBuf::new()), Some("rel".into())] {
            assert_eq!(
                default_path_from(xdg, home.clone()),
                Some(PathBuf::from("/home/u/.config/praxis/client.toml"))
            );
        }
        assert_eq!(default_path_from(None, None), None);
    }

    #[test]
    fn a_config_file_is_parsed_and_its_token_file_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "client.toml",
            "url = \"http://h:1\"\ntoken_file = \"tok\"\nproject = \"p\"\n\
             agent = \"a\"\nmission = \"m\"\nvisibility = \"private\"\n",
            0o644,
        );
        let config = ClientConfig::load(Some(&path)).unwrap();
        assert_eq!(
            config,
            ClientConfig {
                url: Some("http://h:1".into()),
                token_file: Some(dir.path().join("tok")),
                project: Some("p".into()),
                agent: Some("a".into()),
                mission: Some("m".into()),
                visibility: Some(VisibilityArg::Private),
            }
        );
        let abs = write(dir.path(), "abs.toml", "token_file = \"/t/tok\"\n", 0o600);
        assert_eq!(
            ClientConfig::read(&abs).unwrap().token_file,
            Some(PathBuf::from("/t/tok"))
        );
        assert_eq!(
            resolve(dir.path(), Path::new("~/t"), Some(Path::new("/h"))),
            PathBuf::from("/h/t")
        );
    }

    #[test]
    fn unknown_keys_and_a_missing_explicit_file_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(
            dir.path(),
            "c.toml",
            "url = \"x\"\ntoken = \"prx_\"\n",
            0o600,
        );
        let e = format!("{:#}", ClientConfig::read(&path).unwrap_err());
        assert!(e.contains("unknown field `token`"), "{e}");
        let e = format!(
            "{:#}",
            ClientConfig::load(Some(&dir.path().join("none.toml"))).unwrap_err()
        );
        assert!(e.contains("none.toml"), "{e}");
    }

    #[test]
    fn a_config_file_others_may_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o666, 0o620, 0o602] {
            let path = write(dir.path(), "c.toml", "project = \"p\"\n", mode);
            let e = ClientConfig::read(&path).unwrap_err().to_string();
            assert!(e.contains("chmod 600") && e.contains("c.toml"), "{e}");
        }
        for mode in [0o600, 0o644, 0o400] {
            let path = write(dir.path(), "c.toml", "project = \"p\"\n", mode);
            assert!(ClientConfig::read(&path).is_ok(), "{mode:o}");
        }
    }

    #[test]
    fn a_token_file_others_may_access_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o644, 0o640, 0o604, 0o660, 0o601, 0o610] {
            let path = write(dir.path(), "tok", "prx_a_b\n", mode);
            let e = read_token_file(&path).unwrap_err().to_string();
            assert!(
                e.contains(&path.display().to_string()) && e.contains("chmod 600"),
                "{e}"
            );
        }
        for mode in [0o600, 0o400] {
            let path = write(dir.path(), "tok", "prx_a_b\n", mode);
            assert_eq!(read_token_file(&path).unwrap(), "prx_a_b");
        }
        let empty = write(dir.path(), "empty", "\n", 0o600);
        assert!(read_token_file(&empty).is_err());
    }

    #[test]
    fn flags_and_environment_override_the_config_file() {
        use crate::attempts::TokenSource;
        let config = ClientConfig {
            url: Some("http://config:1".into()),
            token_file: Some("/config/tok".into()),
            ..ClientConfig::default()
        };
        let resolve = |remote: Remote, config: &ClientConfig| remote.resolve(config).unwrap();
        assert_eq!(
            resolve(Remote::given(None, None, None), &config),
            (
                "http://config:1".to_owned(),
                TokenSource::File("/config/tok".into())
            )
        );
        assert_eq!(
            resolve(
                Remote::given(Some("http://flag:2"), None, Some("/flag/tok")),
                &config
            ),
            (
                "http://flag:2".to_owned(),
                TokenSource::File("/flag/tok".into())
            )
        );
        assert_eq!(
            resolve(Remote::given(None, Some("prx_t"), None), &config).1,
            TokenSource::Given("prx_t".into())
        );
        let empty = ClientConfig::default();
        assert_eq!(
            resolve(Remote::given(None, Some("prx_t"), None), &empty).0,
            crate::attempts::DEFAULT_URL
        );
        let e = Remote::given(None, None, None).resolve(&empty).unwrap_err();
        assert!(e.to_string().contains("--token-file"), "{e}");
    }

    #[test]
    fn scope_flags_override_the_config_file() {
        use praxis_api::Visibility;
        let config = ClientConfig {
            project: Some("cp".into()),
            agent: Some("ca".into()),
            mission: Some("cm".into()),
            visibility: Some(VisibilityArg::Private),
            ..ClientConfig::default()
        };
        let scope = ScopeFlags::default().resolve(&config).unwrap().wire();
        assert_eq!(
            (scope.project_id.as_str(), scope.agent_id.as_str()),
            ("cp", "ca")
        );
        assert_eq!(scope.mission_id.as_deref(), Some("cm"));
        assert_eq!(scope.visibility, Visibility::Private);

        let flags = ScopeFlags {
            project: Some("fp".into()),
            mission: Some("fm".into()),
            no_mission: false,
            agent: Some("fa".into()),
            visibility: Some(VisibilityArg::Shared),
        };
        let scope = flags.resolve(&config).unwrap().wire();
        assert_eq!(
            (scope.project_id.as_str(), scope.agent_id.as_str()),
            ("fp", "fa")
        );
        assert_eq!(scope.mission_id.as_deref(), Some("fm"));
        assert_eq!(scope.visibility, Visibility::Shared);

        let null = ScopeFlags {
            no_mission: true,
            ..ScopeFlags::default()
        };
        assert_eq!(null.resolve(&config).unwrap().wire().mission_id, None);

        let empty = ClientConfig::default();
        let e = ScopeFlags::default().resolve(&empty).unwrap_err();
        assert!(e.to_string().contains("--project"), "{e}");
        let only_project = ScopeFlags {
            project: Some("p".into()),
            ..ScopeFlags::default()
        };
        let e = only_project.resolve(&empty).unwrap_err();
        assert!(e.to_string().contains("--agent"), "{e}");
        let both = ScopeFlags {
            project: Some("p".into()),
            agent: Some("a".into()),
            ..ScopeFlags::default()
        };
        let scope = both.resolve(&empty).unwrap().wire();
        assert_eq!(scope.mission_id, None);
        assert_eq!(scope.visibility, Visibility::Shared);
    }
}
