//! The screening rules and their stable codes.

/// A screening rule, with a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// An absolute path into a user's home directory (POSIX, macOS, Windows,
    /// WSL, `/root`), also inside a compiler or linker flag, or a UNC path
    /// naming a server.
    HomePath,
    /// A GitHub token (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
    CredentialGithub,
    /// An OpenAI API key (`sk-`, `sk-proj-`, `sk-svcacct-`, `sk-admin-`).
    CredentialOpenai,
    /// An Anthropic API key (`sk-ant-`).
    CredentialAnthropic,
    /// A Slack token (`xoxb-`, `xoxp-`, …, `xapp-`) or incoming webhook URL.
    CredentialSlack,
    /// An AWS access key id (`AKIA`, `ASIA`, …), secret access key or
    /// session token.
    CredentialAws,
    /// A Google API key (`AIza`), OAuth client secret (`GOCSPX-`) or OAuth
    /// access token (`ya29.`, a service account's `ya29.c.`).
    CredentialGoogle,
    /// A Stripe secret or restricted key (`sk_live_`, `sk_test_`, `rk_…`) or
    /// webhook signing secret (`whsec_`). Publishable keys (`pk_`) are
    /// public by design and are not reported.
    CredentialStripe,
    /// An npm access token (`npm_`) or an `.npmrc` `_authToken`/`_auth` value.
    CredentialNpm,
    /// A JSON Web Token (three base64url segments, the first starting
    /// `eyJ`), also one split across a line wrap.
    CredentialJwt,
    /// A private key block (PEM, OpenSSH, PGP) or a PuTTY private key file.
    CredentialPrivateKey,
    /// A token in another vendor's recognizable format (GitLab, PyPI,
    /// Hugging Face, DigitalOcean, Shopify, SendGrid, Vault, Sentry,
    /// Databricks, Linear, Postman, Doppler, Grafana, Atlassian, Mailgun,
    /// Pulumi, Terraform Cloud, Supabase, Notion, age, Figma, Netlify).
    CredentialOther,
    /// A Twilio auth token or API key secret (32 hex characters in a text
    /// about Twilio).
    CredentialTwilio,
    /// A Telegram bot token (`<bot id>:<secret>`).
    CredentialTelegram,
    /// A Discord bot token or webhook URL.
    CredentialDiscord,
    /// An Azure Functions key (`code=`, `x-functions-key`), storage or
    /// shared access key, or SAS signature.
    CredentialAzure,
    /// A literal value assigned to a password, secret, token or API key
    /// (`password=…`, `"client_secret": "…"`, `Authorization: Bearer …`,
    /// `<password>…</password>`), or a password written as prose.
    CredentialAssignment,
    /// A password or token passed on a command line (`--password …`,
    /// `docker login -p …`, `curl -u user:pass`, `mysql -p…`).
    CredentialCommandLine,
    /// A URL carrying a credential: userinfo with a password, a secret query
    /// or fragment parameter, or a webhook/bot URL whose path is the secret.
    SecretUrl,
    /// A raw session identifier: a labelled session id or cookie, a `sess_`
    /// file name, or an agent session id (resume commands, transcript and
    /// rollout paths, labelled ULIDs and hex ids).
    SessionId,
    /// Text that tries to instruct the agent reading the record.
    PromptOverride,
    /// A destructive or unreviewed-download command in a command field.
    UnsafeCommand,
    /// Disabling TLS certificate verification, in a command field.
    TlsVerificationDisabled,
    /// A force push or a commit or push that skips its hooks, in a command
    /// field.
    GitSafeguardBypass,
    /// Making a system path world-writable, in a command field.
    WorldWritable,
}

impl Rule {
    /// Every rule, in report order.
    pub const ALL: [Rule; 25] = [
        Rule::HomePath,
        Rule::CredentialGithub,
        Rule::CredentialOpenai,
        Rule::CredentialAnthropic,
        Rule::CredentialSlack,
        Rule::CredentialAws,
        Rule::CredentialGoogle,
        Rule::CredentialStripe,
        Rule::CredentialNpm,
        Rule::CredentialJwt,
        Rule::CredentialPrivateKey,
        Rule::CredentialOther,
        Rule::CredentialTwilio,
        Rule::CredentialTelegram,
        Rule::CredentialDiscord,
        Rule::CredentialAzure,
        Rule::CredentialAssignment,
        Rule::CredentialCommandLine,
        Rule::SecretUrl,
        Rule::SessionId,
        Rule::PromptOverride,
        Rule::UnsafeCommand,
        Rule::TlsVerificationDisabled,
        Rule::GitSafeguardBypass,
        Rule::WorldWritable,
    ];

    /// The stable rule code, as it appears in findings.
    pub fn code(self) -> &'static str {
        match self {
            Rule::HomePath => "screen.home_path",
            Rule::CredentialGithub => "screen.credential.github",
            Rule::CredentialOpenai => "screen.credential.openai",
            Rule::CredentialAnthropic => "screen.credential.anthropic",
            Rule::CredentialSlack => "screen.credential.slack",
            Rule::CredentialAws => "screen.credential.aws",
            Rule::CredentialGoogle => "screen.credential.google",
            Rule::CredentialStripe => "screen.credential.stripe",
            Rule::CredentialNpm => "screen.credential.npm",
            Rule::CredentialJwt => "screen.credential.jwt",
            Rule::CredentialPrivateKey => "screen.credential.private_key",
            Rule::CredentialOther => "screen.credential.other",
            Rule::CredentialTwilio => "screen.credential.twilio",
            Rule::CredentialTelegram => "screen.credential.telegram",
            Rule::CredentialDiscord => "screen.credential.discord",
            Rule::CredentialAzure => "screen.credential.azure",
            Rule::CredentialAssignment => "screen.credential.assignment",
            Rule::CredentialCommandLine => "screen.credential.command_line",
            Rule::SecretUrl => "screen.secret_url",
            Rule::SessionId => "screen.session_id",
            Rule::PromptOverride => "screen.prompt_override",
            Rule::UnsafeCommand => "screen.unsafe_command",
            Rule::TlsVerificationDisabled => "screen.tls_verification_disabled",
            Rule::GitSafeguardBypass => "screen.git_safeguard_bypass",
            Rule::WorldWritable => "screen.world_writable",
        }
    }

    /// The rule with this code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.code() == code)
    }

    /// Whether the rule finds a vendor's token by its shape: one that a
    /// writer may split into string literals joined again at run time.
    pub fn is_vendor_token(self) -> bool {
        matches!(
            self,
            Rule::CredentialGithub
                | Rule::CredentialOpenai
                | Rule::CredentialAnthropic
                | Rule::CredentialSlack
                | Rule::CredentialAws
                | Rule::CredentialGoogle
                | Rule::CredentialStripe
                | Rule::CredentialNpm
                | Rule::CredentialJwt
                | Rule::CredentialOther
                | Rule::CredentialTelegram
                | Rule::CredentialDiscord
                | Rule::CredentialTwilio
                | Rule::CredentialAzure
                | Rule::SecretUrl
        )
    }

    /// Whether the rule screens command fields only: it judges a practice
    /// (what a command does), which prose may describe freely.
    pub fn commands_only(self) -> bool {
        matches!(
            self,
            Rule::UnsafeCommand
                | Rule::TlsVerificationDisabled
                | Rule::GitSafeguardBypass
                | Rule::WorldWritable
        )
    }

    /// What the rule finds, in a few words.
    pub fn description(self) -> &'static str {
        match self {
            Rule::HomePath => "an absolute path into a user's home directory or a UNC share",
            Rule::CredentialGithub => "a GitHub token",
            Rule::CredentialOpenai => "an OpenAI API key",
            Rule::CredentialAnthropic => "an Anthropic API key",
            Rule::CredentialSlack => "a Slack token or webhook URL",
            Rule::CredentialAws => "an AWS access key, secret key or session token",
            Rule::CredentialGoogle => "a Google API key or OAuth secret",
            Rule::CredentialStripe => "a Stripe secret, restricted or webhook key",
            Rule::CredentialNpm => "an npm access token",
            Rule::CredentialJwt => "a JSON Web Token",
            Rule::CredentialPrivateKey => "a private key",
            Rule::CredentialOther => "an access token in a known vendor format",
            Rule::CredentialTwilio => "a Twilio auth token or API key secret",
            Rule::CredentialTelegram => "a Telegram bot token",
            Rule::CredentialDiscord => "a Discord bot token or webhook URL",
            Rule::CredentialAzure => "an Azure Functions key, storage key or SAS signature",
            Rule::CredentialAssignment => "a literal password, secret, token or API key value",
            Rule::CredentialCommandLine => "a password or token passed on a command line",
            Rule::SecretUrl => {
                "a URL carrying a credential (userinfo password, secret query parameter or secret path)"
            }
            Rule::SessionId => "a raw session identifier",
            Rule::PromptOverride => {
                "text phrased as an instruction to the agent reading the record (prompt override)"
            }
            Rule::UnsafeCommand => {
                "a destructive or unreviewed-download command (pipe to a shell, download then execute, recursive delete of a root or home, encoded PowerShell, disk wipe)"
            }
            Rule::TlsVerificationDisabled => "a command that disables TLS certificate verification",
            Rule::GitSafeguardBypass => {
                "a force push or a commit or push that skips its hooks (--no-verify)"
            }
            Rule::WorldWritable => "a command that makes a system path world-writable",
        }
    }

    /// What to do instead: the remedy shown with a finding.
    pub fn remedy(self) -> &'static str {
        match self {
            Rule::HomePath => "write ~, $HOME or a placeholder such as <user>",
            Rule::CredentialGithub
            | Rule::CredentialOpenai
            | Rule::CredentialAnthropic
            | Rule::CredentialSlack
            | Rule::CredentialNpm
            | Rule::CredentialOther
            | Rule::CredentialTelegram
            | Rule::CredentialDiscord => "remove it and revoke it",
            Rule::CredentialAws | Rule::CredentialGoogle | Rule::CredentialTwilio => {
                "remove it and rotate it"
            }
            Rule::CredentialAzure => "remove it and regenerate the key",
            Rule::CredentialStripe => "remove it and roll it",
            Rule::CredentialJwt => "remove it",
            Rule::CredentialPrivateKey => "remove it and replace the key pair",
            Rule::CredentialAssignment => {
                "replace it with a placeholder such as <redacted> or $VAR"
            }
            Rule::CredentialCommandLine => {
                "read it from a variable, a file or standard input (--password-stdin), never a literal"
            }
            Rule::SecretUrl => "strip it",
            Rule::SessionId => "replace it with a placeholder",
            Rule::PromptOverride => "records carry data, not instructions; remove it",
            Rule::UnsafeCommand => {
                "download to a file, verify its checksum or signature, review it, then run it; delete only the directory meant"
            }
            Rule::TlsVerificationDisabled => {
                "trust the right CA instead (a CA bundle, --cacert, REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS)"
            }
            Rule::GitSafeguardBypass => {
                "push without --force to shared branches (or --force-with-lease on your own branch) and let the hooks run"
            }
            Rule::WorldWritable => {
                "grant the narrowest mode to the owner or group that needs it (chown, chmod 750/640, a group)"
            }
        }
    }

    /// The finding message: what the rule found and the remedy.
    pub fn message(self) -> String {
        format!("{}; {}", self.description(), self.remedy())
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_unique() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_code(rule.code()), Some(rule));
            assert!(rule.code().starts_with("screen."));
        }
        let mut codes: Vec<_> = Rule::ALL.iter().map(|r| r.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Rule::ALL.len());
    }
}
