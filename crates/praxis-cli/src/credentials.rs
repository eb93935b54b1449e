//! `praxis credentials …`: a tenant's credentials over HTTP: issue, list,
//! show, revoke and rotate (credential_admin), and the capabilities there
//! are. `issue` and `rotate` print the new token once, or write it to a
//! file created with mode 0600 (`--token-out`) and print only the
//! credential. The offline equivalents are `praxis admin …`.
//!
//! The server and the token file may come from the client config file (see
//! [`crate::client_config`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{ArgGroup, Args, Subcommand};
use praxis_api::{
    CONTRACT_VERSION, Credential, CredentialResponse, IssueCredentialRequest, Scope, TokenResponse,
};

use crate::client_config::ConfiguredRemote;
use crate::output::{client_error, emit, json, usage};
use crate::records_http::name_of;

/// Where a new token goes.
#[derive(Args)]
pub struct TokenOut {
    /// Write the token to FILE (created with mode 0600, replacing what was
    /// there) instead of printing it.
    #[arg(long, value_name = "FILE")]
    token_out: Option<PathBuf>,
}

/// `praxis credentials` subcommands.
#[derive(Subcommand)]
pub enum CredentialsCmd {
    /// Issue a credential (credential_admin). Prints its token once.
    #[command(group(ArgGroup::new("expiry").required(true).args(["expires_at", "no_expiry"])))]
    Issue {
        #[command(flatten)]
        remote: ConfiguredRemote,
        /// Subject the credential acts for.
        #[arg(long)]
        subject: String,
        /// A capability (repeat for several), for example memory_read; see
        /// `praxis credentials capabilities`.
        #[arg(long = "capability", required = true)]
        capabilities: Vec<String>,
        /// A grant as JSON (repeatable), for example
        /// '{"project_id":"p","mission_id":null,"agent_id":"a","visibility":"shared"}'.
        #[arg(long = "grant", value_name = "JSON")]
        grants: Vec<String>,
        /// RFC 3339 expiry.
        #[arg(long, value_name = "TIME")]
        expires_at: Option<String>,
        /// The credential never expires (a stated choice).
        #[arg(long)]
        no_expiry: bool,
        #[command(flatten)]
        out: TokenOut,
        /// Idempotency-Key of the write: retrying with the same key replays
        /// the first answer, token included (16 to 255 visible ASCII
        /// characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// List the tenant's credentials by id, one page (credential_admin).
    /// Pass the page's next_cursor as --after.
    List {
        #[command(flatten)]
        remote: ConfiguredRemote,
        /// The previous page's next_cursor.
        #[arg(long, value_name = "CURSOR")]
        after: Option<String>,
        /// Credentials per page.
        #[arg(long, value_name = "N", default_value_t = 100)]
        limit: usize,
    },
    /// Print one credential (credential_admin); never its secret.
    Show {
        #[command(flatten)]
        remote: ConfiguredRemote,
        /// The credential's id.
        id: String,
    },
    /// Revoke a credential (credential_admin): its token fails
    /// authentication (401) at once.
    Revoke {
        #[command(flatten)]
        remote: ConfiguredRemote,
        /// The credential's id.
        id: String,
    },
    /// Give a credential a new secret (credential_admin); the old token
    /// stops working. Prints the new token once.
    Rotate {
        #[command(flatten)]
        remote: ConfiguredRemote,
        /// The credential's id.
        id: String,
        #[command(flatten)]
        out: TokenOut,
        /// Idempotency-Key of the write (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// Print every capability, what it allows, and whether your credential
    /// holds it (any credential).
    Capabilities {
        #[command(flatten)]
        remote: ConfiguredRemote,
    },
}

/// A credential for a person: id, subject, status, capabilities, grants.
fn credential_text(c: &Credential) -> String {
    let mut text = format!(
        "{}\t{}\t{}\t{}",
        c.id,
        c.subject,
        name_of(&c.status),
        c.capabilities.join(",")
    );
    for g in &c.grants {
        let _ = write!(text, "\n  grant {}", scope_text(g));
    }
    if let Some(at) = &c.expires_at {
        let _ = write!(text, "\n  expires {at}");
    }
    if let Some(at) = &c.revoked_at {
        let _ = write!(text, "\n  revoked {at}");
    }
    text
}

/// A scope as `project/mission/agent (visibility)`, `-` for the null mission.
fn scope_text(s: &Scope) -> String {
    format!(
        "{}/{}/{} ({})",
        s.project_id,
        s.mission_id.as_deref().unwrap_or("-"),
        s.agent_id,
        name_of(&s.visibility)
    )
}

/// Shows a new token: printed once, or written to `out` with mode 0600 and
/// only the credential printed.
fn new_token(answer: &TokenResponse, out: Option<&Path>, what: &str) -> anyhow::Result<()> {
    let Some(path) = out else {
        return emit(answer, |a| {
            format!(
                "credential {} {what}\n{}\ntoken (shown once; store it now):\n{}",
                a.credential.id,
                credential_text(&a.credential),
                a.token
            )
        });
    };
    crate::write_secret(path, &answer.token)
        .with_context(|| format!("writing the token to {}", path.display()))?;
    let shown = CredentialResponse {
        contract_version: answer.contract_version,
        credential: answer.credential.clone(),
    };
    if !json() {
        eprintln!("token written to {} (mode 0600)", path.display());
    }
    emit(&shown, |a| {
        format!(
            "credential {} {what}\n{}",
            a.credential.id,
            credential_text(&a.credential)
        )
    })
}

/// Runs one subcommand.
pub async fn run(cmd: CredentialsCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        CredentialsCmd::Issue {
            remote,
            subject,
            capabilities,
            grants,
            expires_at,
            no_expiry: _,
            out,
            idempotency_key,
        } => {
            let grants = grants
                .iter()
                .map(|g| {
                    serde_json::from_str::<Scope>(g).map_err(|e| usage(format!("--grant {g}: {e}")))
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            let request = IssueCredentialRequest {
                contract_version: CONTRACT_VERSION,
                subject,
                capabilities,
                grants,
                expires_at,
            };
            let answer = remote
                .client()?
                .issue_credential(&request, idempotency_key.as_deref())
                .await
                .map_err(client_error)?;
            new_token(&answer, out.token_out.as_deref(), "issued")?;
        }
        CredentialsCmd::List {
            remote,
            after,
            limit,
        } => {
            let page = remote
                .client()?
                .list_credentials(after.as_deref(), limit)
                .await
                .map_err(client_error)?;
            emit(&page, |p| {
                let mut lines: Vec<String> = p.credentials.iter().map(credential_text).collect();
                if lines.is_empty() {
                    lines.push("no credentials".to_owned());
                }
                lines.join("\n") + &crate::records_http::more(p.next_cursor.as_deref())
            })?;
        }
        CredentialsCmd::Show { remote, id } => {
            let answer = remote
                .client()?
                .credential(&id)
                .await
                .map_err(client_error)?;
            emit(&answer, |a| credential_text(&a.credential))?;
        }
        CredentialsCmd::Revoke { remote, id } => {
            let answer = remote
                .client()?
                .revoke_credential(&id)
                .await
                .map_err(client_error)?;
            emit(&answer, |a| {
                format!("revoked: {}", credential_text(&a.credential))
            })?;
        }
        CredentialsCmd::Rotate {
            remote,
            id,
            out,
            idempotency_key,
        } => {
            let answer = remote
                .client()?
                .rotate_credential(&id, idempotency_key.as_deref())
                .await
                .map_err(client_error)?;
            new_token(&answer, out.token_out.as_deref(), "rotated")?;
        }
        CredentialsCmd::Capabilities { remote } => {
            let answer = remote
                .client()?
                .capabilities()
                .await
                .map_err(client_error)?;
            emit(&answer, |a| {
                a.capabilities
                    .iter()
                    .map(|c| {
                        format!(
                            "{}\t{}\t{}",
                            c.name,
                            if c.held { "held" } else { "-" },
                            c.description
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use praxis_api::Visibility;

    #[test]
    fn scopes_read_as_one_path() {
        let scope = Scope {
            project_id: "p".into(),
            mission_id: None,
            agent_id: "a".into(),
            visibility: Visibility::Private,
        };
        assert_eq!(scope_text(&scope), "p/-/a (private)");
    }
}
