//! Configuration: flags, then environment, then an optional TOML file, then defaults.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use praxis_store::Engine;
use serde::Deserialize;

/// Default data directory of the embedded store.
pub const DEFAULT_DATA_DIR: &str = "./praxis-data";
/// Default listen address.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7878";

/// Where the store is.
#[derive(Args, Clone, Debug)]
pub struct StoreArgs {
    /// Data directory of the embedded SQLite store [default: ./praxis-data].
    #[arg(long, env = "PRAXIS_DATA_DIR")]
    pub data_dir: Option<String>,
    /// A postgres://user@host:port/db URL; overrides --data-dir for the store.
    #[arg(long, env = "PRAXIS_STORE")]
    pub store: Option<String>,
}

impl StoreArgs {
    fn location_in(&self, file: &FileConfig) -> (String, String) {
        let data_dir = self
            .data_dir
            .clone()
            .or_else(|| file.data_dir.clone())
            .unwrap_or_else(|| DEFAULT_DATA_DIR.into());
        let store = self
            .store
            .clone()
            .or_else(|| file.store.clone())
            .unwrap_or_else(|| data_dir.clone());
        (data_dir, store)
    }

    /// The store these arguments name: a `postgres://` URL or a data directory.
    pub fn location(&self) -> String {
        self.location_in(&FileConfig::default()).1
    }

    /// Opens the store these arguments name, which must exist: an offline
    /// command never creates a store (nor leaves a `praxis.db` behind).
    pub async fn open_existing(&self) -> anyhow::Result<Arc<dyn Engine>> {
        let store = self.location();
        praxis_store::open_existing(&store)
            .await
            .with_context(|| format!("opening store {}", redact(&store)))
    }

    /// Opens the store these arguments name.
    pub async fn open(&self) -> anyhow::Result<Arc<dyn Engine>> {
        let store = self.location();
        praxis_store::open(&store)
            .await
            .with_context(|| format!("opening store {}", redact(&store)))
    }
}

/// A tenant of a store opened directly, and the subject writes are made as
/// (the server must not be running on a SQLite store).
#[derive(Args)]
pub struct OfflineStore {
    #[command(flatten)]
    store: StoreArgs,
    /// Tenant id (offline).
    #[arg(long, default_value = "default")]
    pub tenant: String,
    /// Subject the writes are made as; names the namespace of a private scope (offline).
    #[arg(long, default_value = "admin")]
    pub as_subject: String,
}

impl OfflineStore {
    /// Opens the store, checks the tenant exists, and returns the engine,
    /// the namespace of `scope` for the subject, and the actor to write as.
    pub async fn open(
        &self,
        scope: &praxis_domain::auth::Scope,
    ) -> anyhow::Result<(
        Arc<dyn Engine>,
        praxis_domain::auth::Namespace,
        praxis_domain::ledger::Actor,
    )> {
        scope.validate("/scope")?;
        let engine = self.store.open_existing().await?;
        if !engine.ledger().tenants().await?.contains(&self.tenant) {
            anyhow::bail!("tenant {:?} does not exist in this store", self.tenant);
        }
        let actor = praxis_domain::ledger::Actor {
            credential_id: "offline".into(),
            subject: self.as_subject.clone(),
        };
        Ok((engine, scope.namespace(&self.as_subject), actor))
    }
}

/// Arguments of `praxis serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Address to listen on [default: 127.0.0.1:7878].
    #[arg(long, env = "PRAXIS_LISTEN")]
    pub listen: Option<String>,
    /// Optional TOML file with keys data_dir, store, listen, tenant, log_format,
    /// seal_key_file, memory_max_per_scope, memory_max_per_tenant,
    /// max_open_proposals, mcp_allowed_origins, header_timeout, body_timeout,
    /// idle_timeout, max_connections, shutdown_grace, min_free_space_mib
    /// and projects (a table of ID = "DIR").
    /// Flags and environment variables take precedence over it.
    #[arg(long, env = "PRAXIS_CONFIG")]
    pub config: Option<PathBuf>,
    /// Tenant created on an empty store [default: default].
    #[arg(long, env = "PRAXIS_TENANT")]
    pub tenant: Option<String>,
    /// Log format: text or json [default: text]. Filter with RUST_LOG.
    #[arg(long, env = "PRAXIS_LOG_FORMAT")]
    pub log_format: Option<String>,
    /// File holding the 256-bit seal key (64 hex characters) that protects
    /// receipts carrying tokens; created with mode 0600 if missing. Every
    /// server of one store must use the same key [default: DATA_DIR/seal-key].
    #[arg(long, env = "PRAXIS_SEAL_KEY_FILE")]
    pub seal_key_file: Option<PathBuf>,
    /// Most live memory items in one scope; a create past it is 507
    /// memory_full and nothing is evicted [default: 10000].
    #[arg(long, env = "PRAXIS_MEMORY_MAX_PER_SCOPE")]
    pub memory_max_per_scope: Option<u64>,
    /// Most live memory items in the whole tenant [default: 100000].
    #[arg(long, env = "PRAXIS_MEMORY_MAX_PER_TENANT")]
    pub memory_max_per_tenant: Option<u64>,
    /// A project root skills are promoted into, as [TENANT/]ID=DIR
    /// (repeatable; without TENANT/, the tenant this server bootstraps).
    /// Only this configuration maps projects, never a request, and a
    /// tenant reaches only its own.
    #[arg(long = "project", value_name = "ID=DIR")]
    pub projects: Vec<String>,
    /// Most open proposals one scope may hold [default: 1024].
    #[arg(long, env = "PRAXIS_MAX_OPEN_PROPOSALS")]
    pub max_open_proposals: Option<u64>,
    /// A browser origin (scheme://host[:port]) allowed to call /mcp besides
    /// loopback ones (repeatable); requests without an Origin header pass.
    #[arg(long = "mcp-allow-origin", value_name = "ORIGIN")]
    pub mcp_allowed_origins: Vec<String>,
    /// Seconds a client has to send a whole request head, from connecting
    /// or from the first byte of a later request [default: 10].
    #[arg(long, env = "PRAXIS_HEADER_TIMEOUT", value_name = "SECS")]
    pub header_timeout: Option<f64>,
    /// Seconds a client has to send a whole request body [default: 30].
    #[arg(long, env = "PRAXIS_BODY_TIMEOUT", value_name = "SECS")]
    pub body_timeout: Option<f64>,
    /// Seconds a kept-alive connection may sit idle between requests [default: 60].
    #[arg(long, env = "PRAXIS_IDLE_TIMEOUT", value_name = "SECS")]
    pub idle_timeout: Option<f64>,
    /// Most connections served at once; more are answered 503 and closed [default: 512].
    #[arg(long, env = "PRAXIS_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Seconds shutdown waits for requests in flight before closing them [default: 30].
    #[arg(long, env = "PRAXIS_SHUTDOWN_GRACE", value_name = "SECS")]
    pub shutdown_grace: Option<f64>,
    /// Free space, in MiB, the SQLite data directory must keep for /readyz
    /// to answer 200; 0 turns the check off [default: 64].
    #[arg(long, env = "PRAXIS_MIN_FREE_SPACE_MIB", value_name = "MIB")]
    pub min_free_space_mib: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    data_dir: Option<String>,
    store: Option<String>,
    listen: Option<String>,
    tenant: Option<String>,
    log_format: Option<String>,
    seal_key_file: Option<PathBuf>,
    memory_max_per_scope: Option<u64>,
    memory_max_per_tenant: Option<u64>,
    #[serde(default)]
    projects: std::collections::BTreeMap<String, PathBuf>,
    max_open_proposals: Option<u64>,
    #[serde(default)]
    mcp_allowed_origins: Vec<String>,
    header_timeout: Option<f64>,
    body_timeout: Option<f64>,
    idle_timeout: Option<f64>,
    max_connections: Option<usize>,
    shutdown_grace: Option<f64>,
    min_free_space_mib: Option<u64>,
}

/// Resolved settings of `praxis serve`.
pub struct Settings {
    pub data_dir: String,
    pub store: String,
    pub listen: String,
    pub tenant: String,
    pub log_format: String,
    pub seal_key_file: PathBuf,
    pub memory: praxis_store::memory::MemoryLimits,
    /// Project roots by id: the file's, then the flags' (a flag wins).
    pub projects: Vec<(String, PathBuf)>,
    pub max_open_proposals: u64,
    /// Origins allowed to call /mcp: the file's and the flags'.
    pub mcp_allowed_origins: Vec<String>,
    /// Connection timeouts and limits.
    pub limits: praxis_server::listener::Limits,
    /// How /readyz probes the store.
    pub readiness: praxis_server::readiness::ReadinessSettings,
}

impl Settings {
    /// The store location with any password removed, for messages.
    pub fn store_display(&self) -> String {
        redact(&self.store)
    }
}

/// Removes a password from a database URL.
pub fn redact(store: &str) -> String {
    praxis_store::redact_location(store)
}

impl ServeArgs {
    /// Merges flags and environment over the TOML file over defaults.
    pub fn resolve(self) -> anyhow::Result<Settings> {
        let file = match &self.config {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                toml::from_str(&text).with_context(|| format!("parsing {}", path.display()))?
            }
            None => FileConfig::default(),
        };
        let (data_dir, store) = self.store.location_in(&file);
        let limits = resolve_limits(&self, &file)?;
        let log_format = self
            .log_format
            .or(file.log_format)
            .unwrap_or_else(|| "text".into());
        if log_format != "text" && log_format != "json" {
            anyhow::bail!("log_format must be text or json, not {log_format:?}");
        }
        let defaults = praxis_store::memory::MemoryLimits::default();
        let memory = praxis_store::memory::MemoryLimits {
            per_scope: self
                .memory_max_per_scope
                .or(file.memory_max_per_scope)
                .unwrap_or(defaults.per_scope),
            per_tenant: self
                .memory_max_per_tenant
                .or(file.memory_max_per_tenant)
                .unwrap_or(defaults.per_tenant),
        };
        let mut projects = file.projects.clone();
        for p in &self.projects {
            let (id, dir) = p
                .split_once('=')
                .with_context(|| format!("--project takes ID=DIR, not {p:?}"))?;
            projects.insert(id.to_owned(), PathBuf::from(dir));
        }
        let readiness = praxis_server::readiness::ReadinessSettings {
            check: praxis_store::readiness::ReadyCheck {
                min_free_bytes: self
                    .min_free_space_mib
                    .or(file.min_free_space_mib)
                    .map_or(praxis_store::readiness::DEFAULT_MIN_FREE_BYTES, |mib| {
                        mib.saturating_mul(1024 * 1024)
                    }),
            },
            ..praxis_server::readiness::ReadinessSettings::default()
        };
        let mut mcp_allowed_origins = file.mcp_allowed_origins.clone();
        mcp_allowed_origins.extend(self.mcp_allowed_origins);
        Ok(Settings {
            memory,
            limits,
            readiness,
            mcp_allowed_origins,
            projects: projects.into_iter().collect(),
            max_open_proposals: self
                .max_open_proposals
                .or(file.max_open_proposals)
                .unwrap_or(praxis_server::DEFAULT_MAX_OPEN_PROPOSALS),
            store,
            listen: self
                .listen
                .or(file.listen)
                .unwrap_or_else(|| DEFAULT_LISTEN.into()),
            tenant: self
                .tenant
                .or(file.tenant)
                .unwrap_or_else(|| "default".into()),
            seal_key_file: self
                .seal_key_file
                .or(file.seal_key_file)
                .unwrap_or_else(|| PathBuf::from(&data_dir).join("seal-key")),
            data_dir,
            log_format,
        })
    }
}

/// The connection limits: flags and environment over the file over defaults.
fn resolve_limits(
    args: &ServeArgs,
    file: &FileConfig,
) -> anyhow::Result<praxis_server::listener::Limits> {
    let defaults = praxis_server::listener::Limits::default();
    let secs =
        |name: &str, flag: Option<f64>, key: Option<f64>, default: Duration| match flag.or(key) {
            None => Ok(default),
            Some(s) if s.is_finite() && s > 0.0 => Ok(Duration::from_secs_f64(s)),
            Some(s) => Err(anyhow::anyhow!(
                "{name} must be a positive number of seconds, not {s}"
            )),
        };
    let max_connections = args
        .max_connections
        .or(file.max_connections)
        .unwrap_or(defaults.max_connections);
    if max_connections == 0 {
        anyhow::bail!("max_connections must be at least 1");
    }
    Ok(praxis_server::listener::Limits {
        header_timeout: secs(
            "header_timeout",
            args.header_timeout,
            file.header_timeout,
            defaults.header_timeout,
        )?,
        body_timeout: secs(
            "body_timeout",
            args.body_timeout,
            file.body_timeout,
            defaults.body_timeout,
        )?,
        idle_timeout: secs(
            "idle_timeout",
            args.idle_timeout,
            file.idle_timeout,
            defaults.idle_timeout,
        )?,
        max_connections,
        shutdown_grace: secs(
            "shutdown_grace",
            args.shutdown_grace,
            file.shutdown_grace,
            defaults.shutdown_grace,
        )?,
    })
}

/// Starts structured logging to stderr.
pub fn init_logging(format: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colour codes only for a person at a terminal, never into a log file.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr);
    if format == "json" {
        builder.json().init();
    } else {
        builder.init();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact("postgres://u:secret@h:5/db"),
            "postgres://u:***@h:5/db"
        );
        assert_eq!(redact("./praxis-data"), "./praxis-data");
    }

    #[test]
    fn flags_override_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.toml");
        std::fs::write(
            &path,
            "listen = \"127.0.0.1:1\"\ndata_dir = \"/x\"\nmemory_max_per_scope = 7\n\
             header_timeout = 9\nidle_timeout = 0.5\nmax_connections = 3\nmin_free_space_mib = 2\n",
        )
        .unwrap();
        let args = ServeArgs {
            store: StoreArgs {
                data_dir: None,
                store: None,
            },
            listen: Some("127.0.0.1:2".into()),
            config: Some(path),
            tenant: None,
            log_format: None,
            seal_key_file: None,
            memory_max_per_scope: None,
            memory_max_per_tenant: Some(9),
            projects: vec!["web=/srv/web".into()],
            max_open_proposals: None,
            mcp_allowed_origins: vec!["https://b.example".into()],
            header_timeout: Some(2.5),
            body_timeout: None,
            idle_timeout: None,
            max_connections: None,
            shutdown_grace: None,
            min_free_space_mib: None,
        };
        let s = args.resolve().unwrap();
        assert_eq!(s.listen, "127.0.0.1:2");
        assert_eq!(s.data_dir, "/x");
        assert_eq!(s.store, "/x");
        assert_eq!(s.tenant, "default");
        assert_eq!(s.seal_key_file, PathBuf::from("/x/seal-key"));
        assert_eq!((s.memory.per_scope, s.memory.per_tenant), (7, 9));
        assert_eq!(s.projects, [("web".to_owned(), PathBuf::from("/srv/web"))]);
        assert_eq!(s.max_open_proposals, 1024);
        assert_eq!(s.mcp_allowed_origins, ["https://b.example"]);
        assert_eq!(s.limits.header_timeout, Duration::from_millis(2500));
        assert_eq!(s.limits.idle_timeout, Duration::from_millis(500));
        assert_eq!(s.limits.body_timeout, Duration::from_secs(30));
        assert_eq!(s.limits.max_connections, 3);
        assert_eq!(s.readiness.check.min_free_bytes, 2 * 1024 * 1024);
    }
}
