//! `praxis`: run the server, administer tenants and credentials offline,
//! verify a store, and benchmark the ledger.

mod attempts;
mod attempts_import;
mod backup;
mod bench;
mod client_config;
mod config;
mod credentials;
mod experiences;
mod learning;
mod mcp;
mod memory;
mod migrate;
#[cfg(test)]
mod operations;
mod output;
mod procedures;
mod proposals;
mod records;
mod records_check;
mod records_http;
mod screen;
mod server;
mod sim;
mod skills;

use std::collections::BTreeSet;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use praxis_domain::auth::Scope;
use praxis_domain::credentials::IssueRequest;
use praxis_domain::ledger::Actor;
use praxis_domain::time::Timestamp;
use praxis_server::admin;
use praxis_server::seal::SealKey;
use praxis_store::{AuthCommand, Command, Write};

use crate::config::StoreArgs;

// The writer thread frees what request tasks allocate; glibc's per-thread
// arenas make that cross-thread traffic the ledger's largest CPU cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Praxis: the durable, auditable memory of what AI agents did, and the
/// authority over what they may learn from it.
#[derive(Parser)]
#[command(name = "praxis", version, about, long_about = None)]
struct Cli {
    /// Print the machine-readable answer (the API's JSON) instead of text
    /// for a person; a refusal prints its problem document on stdout.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the HTTP API. On an empty store, creates a tenant and an admin
    /// credential, prints its token once and writes it to DATA_DIR/admin-token (mode 0600).
    Serve(config::ServeArgs),
    /// Offline administration of tenants and credentials (the server must not be running on a SQLite store).
    Admin {
        #[command(subcommand)]
        command: AdminCmd,
    },
    /// Walk the whole log: digests, every stream's chain, positions, and projections
    /// rebuilt and compared, on one read snapshot (a server may be running).
    /// Exits 1 on any problem.
    Verify {
        #[command(flatten)]
        store: StoreArgs,
    },
    /// The attempt ledger: observe, assess, policy, history, counts, import, export.
    Attempts {
        #[command(subcommand)]
        command: attempts::AttemptsCmd,
    },
    /// Experience records (protocol v0.1): submit, review, search, read, history, withdraw
    /// and intake over HTTP, with the schema, settings and skill registry; and validate,
    /// import and export a repository layout offline.
    Records {
        #[command(subcommand)]
        command: records::RecordsCmd,
    },
    /// Screen text before it is written (a record field or a memory item), offline: every
    /// finding as FILE:LINE:COL: rule: remedy, never the text found; exit 1 on any finding,
    /// 0 on none, 2 on an unreadable input. Reads stdin when no file (or -) is given.
    Screen(screen::ScreenArgs),
    /// The learning authority: the registry of policies and contexts, strategies, proposals,
    /// evaluations, procedures, selection, and the qualification simulation.
    Learning {
        #[command(subcommand)]
        command: learning::LearningCmd,
    },
    /// Development experiences: record, report, read, history, lineage, export, withdraw, inspect.
    Experiences {
        #[command(subcommand)]
        command: experiences::ExperiencesCmd,
    },
    /// Agent memory: set, get, search, history, delete; the server, token file
    /// and scope may come from a client config file.
    Memory {
        #[command(subcommand)]
        command: memory::MemoryCmd,
    },
    /// Experience proposals: source, propose, review, approve, status, resolve,
    /// list, withdraw, settings, and the project's skills; the server, token
    /// file and scope may come from a client config file.
    Proposals {
        #[command(subcommand)]
        command: proposals::ProposalsCmd,
    },
    /// Credentials over HTTP: issue, list, show, revoke, rotate, and the
    /// capabilities there are (credential_admin, except capabilities).
    Credentials {
        #[command(subcommand)]
        command: credentials::CredentialsCmd,
    },
    /// A running server's liveness, readiness, metrics and OpenAPI document.
    Server {
        #[command(subcommand)]
        command: server::ServerCmd,
    },
    /// Serve MCP on stdin and stdout, calling a running server over HTTP with
    /// one credential: what a desktop agent host starts.
    Mcp(mcp::McpArgs),
    /// Back up a SQLite store into one file while the server serves it;
    /// the seal key only with --include-seal-key.
    Backup(backup::BackupArgs),
    /// Restore a backup into a data directory that holds no store, then check it.
    Restore(backup::RestoreArgs),
    /// Simulations of the learning authority's statistics.
    Sim {
        #[command(subcommand)]
        command: sim::SimCmd,
    },
    /// Copy a whole store into another, empty one (SQLite or PostgreSQL,
    /// either way), resumably; both are verified and compared at the end.
    Migrate(migrate::MigrateArgs),
    /// Benchmarks (measurements, not tests).
    Bench {
        #[command(subcommand)]
        command: bench::BenchCmd,
    },
}

#[derive(Subcommand)]
enum AdminCmd {
    /// Create a tenant and its first admin credential (credential_admin, policy_admin).
    CreateTenant {
        #[command(flatten)]
        store: StoreArgs,
        /// Tenant id.
        #[arg(long)]
        tenant: String,
        /// Subject of the admin credential.
        #[arg(long, default_value = "admin")]
        subject: String,
    },
    /// Issue a credential. Prints its token once.
    Issue {
        #[command(flatten)]
        store: StoreArgs,
        /// Tenant id.
        #[arg(long)]
        tenant: String,
        /// Subject the credential acts for.
        #[arg(long)]
        subject: String,
        /// A capability (repeat for several), for example memory_read.
        #[arg(long = "capability", required = true)]
        capabilities: Vec<String>,
        /// A grant as JSON, for example
        /// '{"project_id":"p","mission_id":null,"agent_id":"a","visibility":"shared"}' (repeatable).
        #[arg(long = "grant")]
        grants: Vec<String>,
        /// RFC 3339 expiry.
        #[arg(long)]
        expires_at: Option<String>,
    },
    /// Revoke a credential; it fails authentication at once.
    Revoke {
        #[command(flatten)]
        store: StoreArgs,
        /// Tenant id.
        #[arg(long)]
        tenant: String,
        /// Credential id.
        #[arg(long)]
        credential: String,
    },
    /// List a tenant's credentials.
    List {
        #[command(flatten)]
        store: StoreArgs,
        /// Tenant id.
        #[arg(long)]
        tenant: String,
    },
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    output::set_json(cli.json);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    output::finish(runtime.block_on(run(cli)))
}

/// A reader that stops early (`praxis … | head`) closes stdout, and the next
/// `println!` panics on the broken pipe: end quietly instead, as any Unix
/// tool does, rather than print a panic and a stack trace. Every other
/// panic goes to the hook that was there before.
fn quiet_on_broken_pipe() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map_or("", String::as_str);
        // EPIPE is 32 on Linux, whatever the locale's words for it.
        if message.starts_with("failed printing to stdout") && message.ends_with("(os error 32)") {
            std::process::exit(0);
        }
        previous(info);
    }));
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Cmd::Serve(args) => serve(args).await,
        Cmd::Admin { command } => admin_cmd(command).await,
        Cmd::Verify { store } => verify(store).await,
        Cmd::Attempts { command } => attempts::run(command).await.map(|()| ExitCode::SUCCESS),
        Cmd::Records { command } => records::run(command).await,
        Cmd::Screen(args) => screen::run(args).await,
        Cmd::Learning { command } => learning::run(command).await.map(|()| ExitCode::SUCCESS),
        Cmd::Experiences { command } => experiences::run(command).await.map(|()| ExitCode::SUCCESS),
        Cmd::Memory { command } => memory::run(command).await.map(|()| ExitCode::SUCCESS),
        Cmd::Proposals { command } => proposals::run(command).await.map(|()| ExitCode::SUCCESS),
        Cmd::Credentials { command } => credentials::run(command).await,
        Cmd::Server { command } => server::run(command).await,
        Cmd::Mcp(args) => mcp::run(args).await.map(|()| ExitCode::SUCCESS),
        Cmd::Backup(args) => backup::run_backup(&args),
        Cmd::Restore(args) => backup::run_restore(&args),
        Cmd::Sim { command } => sim::run(command).map(|()| ExitCode::SUCCESS),
        Cmd::Bench { command } => bench::run(command).await,
        Cmd::Migrate(args) => migrate::run(args).await,
    }
}

async fn serve(args: config::ServeArgs) -> anyhow::Result<ExitCode> {
    let settings = args.resolve()?;
    config::init_logging(&settings.log_format);
    // A panic's message may hold request data: log where it happened only.
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!(at, "a thread panicked");
    }));
    let engine = praxis_store::open(&settings.store)
        .await
        .with_context(|| format!("opening store {}", settings.store_display()))?;
    let seal = load_seal_key(&settings.seal_key_file)?;
    engine
        .bind_seal_key(&seal.fingerprint())
        .await
        .with_context(|| {
            format!(
                "the seal key in {} is not the one this store was first served with; \
                 give every server of one store the same key (copy the first server's \
                 seal-key file, or pass it with --seal-key-file)",
                settings.seal_key_file.display()
            )
        })?;
    if engine.ledger().tenants().await?.is_empty() {
        let path = Path::new(&settings.data_dir).join("admin-token");
        // The token is on disk before the tenant exists: a crash in between
        // leaves an empty store, which the next start bootstraps afresh.
        let (credential, token) =
            admin::bootstrap_tenant_with(&*engine, &settings.tenant, "admin", |token| {
                write_secret(&path, &token.render())
            })
            .await?;
        println!(
            "created tenant {:?} and admin credential {}\nadmin token (shown once, also written to {}):\n{}",
            settings.tenant,
            credential.id,
            path.display(),
            token.render()
        );
    }
    // Bound first, so that a client of a restarting server waits in the
    // backlog instead of being refused while the screen gets ready.
    let listener = tokio::net::TcpListener::bind(&settings.listen)
        .await
        .with_context(|| format!("binding {}", settings.listen))?;
    // The screen's patterns compile and its prompt-override model trains
    // on first use: do that before serving, so that no request holds a
    // worker thread while it happens.
    tokio::task::spawn_blocking(|| praxis_domain::screen::scan("", false))
        .await
        .context("preparing the screen")?;
    let addr = listener.local_addr()?;
    tracing::info!(%addr, store = engine.kind(), "praxis listening");
    println!(
        "praxis listening on http://{addr} ({} store)",
        engine.kind()
    );
    // A root named without a tenant belongs to the tenant this server
    // bootstraps; `TENANT/ID` binds it to another.
    let roots = settings.projects.iter().map(|(key, dir)| {
        let (tenant, id) = key
            .split_once('/')
            .unwrap_or((settings.tenant.as_str(), key.as_str()));
        (tenant.to_owned(), id.to_owned(), dir.clone())
    });
    let projects =
        praxis_server::projects::Projects::new(roots).context("configuring the project roots")?;
    let state = praxis_server::AppState::new(engine, seal).with_settings(praxis_server::Settings {
        memory: settings.memory,
        projects: std::sync::Arc::new(projects),
        max_open_proposals: settings.max_open_proposals,
        mcp: praxis_server::mcp::McpSettings::allowing(settings.mcp_allowed_origins)
            .map_err(|e| anyhow::anyhow!("--mcp-allow-origin: {e}"))?,
        readiness: settings.readiness,
    });
    praxis_server::serve_router_with(
        listener,
        praxis_server::router(state),
        settings.limits,
        praxis_server::shutdown_signal(),
    )
    .await?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the seal key, creating it (mode 0600) on first start.
fn load_seal_key(path: &Path) -> anyhow::Result<SealKey> {
    match std::fs::read_to_string(path) {
        Ok(text) => SealKey::from_hex(&text)
            .with_context(|| format!("{} does not hold 64 hex characters", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key = SealKey::generate();
            write_secret(path, &key.to_hex())
                .with_context(|| format!("writing {}", path.display()))?;
            Ok(key)
        }
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Writes a secret file atomically with mode 0600, whatever was there before.
fn write_secret(path: &Path, secret: &str) -> std::io::Result<()> {
    // A bare file name's parent is the empty path: the current directory.
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension("tmp");
    // A fresh file, so the mode applies: an existing file would keep its own.
    let _ = std::fs::remove_file(&tmp);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)?;
    writeln!(f, "{secret}")?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    std::fs::File::open(dir)?.sync_all()
}

async fn admin_cmd(command: AdminCmd) -> anyhow::Result<ExitCode> {
    match command {
        AdminCmd::CreateTenant {
            store,
            tenant,
            subject,
        } => {
            let engine = store.open().await?;
            let (credential, token) = admin::bootstrap_tenant(&*engine, &tenant, &subject).await?;
            let answer = serde_json::json!({
                "tenant": tenant, "credential_id": credential.id, "token": token.render(),
            });
            output::emit(&answer, |_| {
                format!(
                    "tenant {tenant:?} created; admin credential {}\n{}",
                    credential.id,
                    token.render()
                )
            })?;
        }
        AdminCmd::Issue {
            store,
            tenant,
            subject,
            capabilities,
            grants,
            expires_at,
        } => {
            let engine = store.open_existing().await?;
            let grants = grants
                .iter()
                .map(|g| serde_json::from_str::<Scope>(g).with_context(|| format!("grant {g}")))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let expires_at = expires_at
                .as_deref()
                .map(Timestamp::parse_rfc3339)
                .transpose()?;
            let request =
                IssueRequest::new(subject, capabilities, grants, expires_at, admin::now())?;
            let (credential, token) =
                admin::issue(&*engine, &tenant, Actor::system(), request).await?;
            let answer =
                serde_json::json!({ "credential_id": credential.id, "token": token.render() });
            output::emit(&answer, |_| {
                format!("credential {} issued\n{}", credential.id, token.render())
            })?;
        }
        AdminCmd::Revoke {
            store,
            tenant,
            credential,
        } => {
            let engine = store.open_existing().await?;
            let cmd = Command::Auth(AuthCommand::RevokeCredential {
                credential_id: credential.clone(),
            });
            engine
                .execute(Write::new(&tenant, Actor::system(), cmd))
                .await?;
            let answer = serde_json::json!({ "credential_id": credential, "status": "revoked" });
            output::emit(&answer, |_| format!("credential {credential} revoked"))?;
        }
        AdminCmd::List { store, tenant } => {
            let engine = store.open_existing().await?;
            let mut after: Option<String> = None;
            let now = admin::now();
            loop {
                let page = engine
                    .credentials()
                    .list(&tenant, after.as_deref(), 500)
                    .await?;
                for c in &page {
                    let caps: BTreeSet<&str> = c.capabilities.iter().map(|c| c.as_str()).collect();
                    let caps = caps.into_iter().collect::<Vec<_>>();
                    // One JSON document per line with --json, as it pages.
                    let line = if output::json() {
                        serde_json::json!({
                            "id": c.id, "subject": c.subject,
                            "status": format!("{:?}", c.status(now)).to_lowercase(),
                            "capabilities": caps,
                        })
                        .to_string()
                    } else {
                        format!(
                            "{}\t{}\t{:?}\t{}",
                            c.id,
                            c.subject,
                            c.status(now),
                            caps.join(",")
                        )
                    };
                    println!("{line}");
                }
                match page.last() {
                    Some(c) if page.len() == 500 => after = Some(c.id.clone()),
                    _ => break,
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn verify(store: StoreArgs) -> anyhow::Result<ExitCode> {
    let report = praxis_store::verify_snapshot(&store.location())
        .await
        .with_context(|| format!("verifying {}", config::redact(&store.location())))?;
    if output::json() {
        let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
        let answer = serde_json::json!({
            "tenants": report.tenants, "events": report.events, "streams": report.streams,
            "credentials": report.credentials, "receipts": report.receipts,
            "problems": problems,
        });
        output::emit(&answer, |_| String::new())?;
        return Ok(if report.is_clean() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    println!(
        "checked {} tenants, {} events in {} streams, {} credentials, {} receipts",
        report.tenants, report.events, report.streams, report.credentials, report.receipts
    );
    if report.is_clean() {
        println!("ok: no problems found");
        Ok(ExitCode::SUCCESS)
    } else {
        for p in &report.problems {
            println!("problem: {p}");
        }
        println!("{} problems found", report.problems.len());
        Ok(ExitCode::from(1))
    }
}
