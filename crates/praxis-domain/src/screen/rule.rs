//! The screening rules and their stable codes.

/// A screening rule, with a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// An absolute path into a user's home directory (POSIX, macOS, Windows,
    /// WSL, `/root`) or a UNC path naming a server.
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
    /// access token (`ya29.`).
    CredentialGoogle,
    /// A Stripe secret or restricted key (`sk_live_`, `sk_test_`, `rk_…`) or
    /// webhook signing secret (`whsec_`). Publishable keys (`pk_`) are
    /// public by design and are not reported.
    CredentialStripe,
    /// An npm access token (`npm_`) or an `.npmrc` `_authToken`/`_auth` value.
    CredentialNpm,
    /// A JSON Web Token (three base64url segments, the first starting `eyJ`).
    CredentialJwt,
    /// A private key block (PEM, OpenSSH, PGP) or a PuTTY private key file.
    CredentialPrivateKey,
    /// A token in another vendor's recognizable format (GitLab, PyPI,
    /// Hugging Face, DigitalOcean, Shopify, SendGrid, Vault, Sentry,
    /// Databricks, Linear, Postman, Doppler, Grafana, Atlassian, Mailgun,
    /// Pulumi, Terraform Cloud, Supabase, Notion, age, Figma, Netlify).
    CredentialOther,
    /// A literal value assigned to a password, secret, token or API key
    /// (`password=…`, `"client_secret": "…"`, `Authorization: Bearer …`,
    /// `--token …`, `curl -u user:pass`, `mysql -p…`).
    CredentialAssignment,
    /// A URL carrying a credential: userinfo with a password, a secret query
    /// or fragment parameter, or a webhook/bot URL whose path is the secret.
    SecretUrl,
    /// A raw session identifier: a labelled session id or cookie, a `sess_`
    /// file name, or an agent session id (resume commands, transcript paths).
    SessionId,
    /// Text that tries to instruct the agent reading the record.
    PromptOverride,
    /// A destructive or unreviewed-download command in a command field.
    UnsafeCommand,
}

impl Rule {
    /// Every rule, in report order.
    pub const ALL: [Rule; 17] = [
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
        Rule::CredentialAssignment,
        Rule::SecretUrl,
        Rule::SessionId,
        Rule::PromptOverride,
        Rule::UnsafeCommand,
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
            Rule::CredentialAssignment => "screen.credential.assignment",
            Rule::SecretUrl => "screen.secret_url",
            Rule::SessionId => "screen.session_id",
            Rule::PromptOverride => "screen.prompt_override",
            Rule::UnsafeCommand => "screen.unsafe_command",
        }
    }

    /// The rule with this code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.code() == code)
    }

    /// What the rule forbids, in a few words; also the finding's message.
    pub fn description(self) -> &'static str {
        match self {
            Rule::HomePath => {
                "an absolute path into a user's home directory or a UNC share; write ~, $HOME or a placeholder such as <user>"
            }
            Rule::CredentialGithub => "a GitHub token; remove it and revoke it",
            Rule::CredentialOpenai => "an OpenAI API key; remove it and revoke it",
            Rule::CredentialAnthropic => "an Anthropic API key; remove it and revoke it",
            Rule::CredentialSlack => "a Slack token or webhook URL; remove it and revoke it",
            Rule::CredentialAws => {
                "an AWS access key, secret key or session token; remove it and rotate it"
            }
            Rule::CredentialGoogle => "a Google API key or OAuth secret; remove it and rotate it",
            Rule::CredentialStripe => {
                "a Stripe secret, restricted or webhook key; remove it and roll it"
            }
            Rule::CredentialNpm => "an npm access token; remove it and revoke it",
            Rule::CredentialJwt => "a JSON Web Token; remove it",
            Rule::CredentialPrivateKey => "a private key; remove it and replace the key pair",
            Rule::CredentialOther => {
                "an access token in a known vendor format; remove it and revoke it"
            }
            Rule::CredentialAssignment => {
                "a literal password, secret, token or API key value; replace it with a placeholder such as <redacted> or $VAR"
            }
            Rule::SecretUrl => {
                "a URL carrying a credential (userinfo password, secret query parameter or secret path); strip it"
            }
            Rule::SessionId => "a raw session identifier; replace it with a placeholder",
            Rule::PromptOverride => {
                "text phrased as an instruction to the agent reading the record (prompt override); records carry data, not instructions"
            }
            Rule::UnsafeCommand => {
                "a destructive or unreviewed-download command (pipe to a shell, recursive delete of a root or home, encoded PowerShell, disk wipe)"
            }
        }
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
