//! Values nested under a block that names them: a CloudFormation
//! parameter's `Default`, Consul's ACL `tokens` and gossip key, Postman's
//! `apikey`.

use regex::Regex;

use super::super::pattern::{Spans, groups, lazy_regex};
use super::super::value::{has_digit, is_placeholder, random_like};
use super::literal::uuid_value;

lazy_regex!(
    /// A CloudFormation parameter's (or any YAML template's) default under
    /// its name, a few attribute lines down (`DBMasterPassword:` …
    /// `Default: '…'`); an attribute line holds a value, so a block's
    /// opener (`Parameters:`) is never taken for one.
    pub(super) TEMPLATE_DEFAULT,
    r#"(?m)^[ \t]*([A-Za-z][A-Za-z0-9_]*):[ \t]*\r?\n(?:[ \t]+(?:[A-Za-z]+:[ \t]*[^\s]|#)[^\n]*\r?\n){0,10}?[ \t]+Default:[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s#]+)"#
);
lazy_regex!(
    /// Consul's ACL tokens, UUIDs under `acl { tokens { agent = "…" } }`
    /// (HCL or JSON).
    pub(super) CONSUL_TOKENS,
    r#"\btokens\\?["']?\s*[:=]?\s*\{[^{}]*?\b(?:agent|default|master|initial_management|agent_recovery|agent_master|replication|dns|config_file_service_registration)\\?["']?\s*[:=]\s*["']([0-9a-fA-F-]{36})["']"#
);

lazy_regex!(
    /// Consul's gossip encryption key (`"encrypt": "…"` in an agent's JSON,
    /// `encrypt = "…"` in HCL): 32 random bytes in base64.
    pub(super) CONSUL_ENCRYPT,
    r#"\bencrypt\\?["']?\s*[:=]\s*\\?["']([A-Za-z0-9+/]{43}=)\\?["']"#
);

lazy_regex!(
    /// Postman's API key auth, whose entry named `value` holds the key
    /// (`"apikey": [{"key": "value", "value": "…"}, {"key": "key", …}]`).
    pub(super) POSTMAN_APIKEY,
    r#""apikey"\s*:\s*\[[^\]]*?\{\s*"key"\s*:\s*"value"\s*,\s*"value"\s*:\s*"([^"\n]+)""#
);

/// Whether a template parameter's default is a value rather than the name
/// of one kept elsewhere: an SSM parameter type's default names the
/// parameter; a path, an ARN or a KMS key id names a secret or a key.
pub(super) fn holds_a_value(parameter: &str, value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    !parameter.contains("AWS::SSM::")
        && !v.contains('/')
        && !v.starts_with("arn:")
        && !v.starts_with("mrk-")
        && !v.starts_with("alias/")
}

/// The API keys of Postman's `apikey` blocks in `text`, when
/// [`POSTMAN_APIKEY`]'s gate opened.
pub(super) fn postman_keys(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| {
        random_like(v, 16) && has_digit(v) && !is_placeholder(v)
    })
}

/// The Consul ACL tokens in `text`, when [`CONSUL_TOKENS`]'s gate opened.
pub(super) fn consul_tokens(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| uuid_value(v) && !is_placeholder(v))
}

/// The Consul gossip keys in `text`, when [`CONSUL_ENCRYPT`]'s gate
/// opened.
pub(super) fn consul_gossip_keys(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| {
        random_like(v, 44) && has_digit(v) && !is_placeholder(v)
    })
}
