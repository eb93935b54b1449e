//! Whether a value assigned to a secret's key is a literal secret, rather
//! than a reference (a local YAML tag's operand among them), a placeholder,
//! a path, a type or code; and the shapes of generated values that keys
//! named only `key` or `…_key` hold.

use super::super::pattern::lazy_regex;
use super::super::value::{
    distinct_chars, drawn_words, few_vowels, has_digit, is_placeholder, longest_alnum_run,
    mixed_case, random_like, twilio_sid, vault_token, word_like, wordy,
};
use super::config::app_password;
use super::{ABSOLUTE_PATH, CMDLET, CONSTANT_IDENTIFIER, DOTTED_IDENTIFIER, KeyClass, key_class};

lazy_regex!(
    NEXT_PARAMETER,
    r"&(?:token_type|expires_in|state|scope|refresh_token|id_token|session_state)="
);
lazy_regex!(ENV_NAME, r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$");
lazy_regex!(
    /// A path of a Vault KV version 2 engine: a mount, then `data/` or
    /// `metadata/`, then the secret's path, maybe a field after `:`.
    KV2_PATH,
    r"^[a-z0-9_-]+/(?:data|metadata)/[A-Za-z0-9_./-]+(?::[A-Za-z0-9_.-]+)?$"
);
lazy_regex!(
    /// A GitHub Action's reference: owner, repository (maybe a path in
    /// it), in lower case, and a version tag, a branch or a commit.
    ACTION_REFERENCE,
    r"^[a-z0-9][a-z0-9_.-]*/[a-z0-9_.-]+(?:/[a-z0-9_./-]+)?@(?:v[0-9][0-9.]*|main|master|[0-9a-f]{40})$"
);
lazy_regex!(
    /// A signing scheme's name (`AWS4-HMAC-SHA256`, `HmacSHA256`, `RS256`):
    /// what a `Credential`'s or a `signature`'s header line names first.
    ALGORITHM,
    r"(?i)^(?:aws4-|goog4-)?hmac-?sha(?:1|224|256|384|512)$|^(?:HS|RS|ES|PS)(?:256|384|512)$"
);

/// Type names and annotations that follow a key in schemas and code.
fn is_type_name(v: &str) -> bool {
    // GraphQL marks a required type with `!`.
    let lower = v.trim_end_matches('!').to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "int"
            | "bool"
            | "boolean"
            | "number"
            | "bytes"
            | "secretstr"
            | "text"
            | "any"
            | "object"
            | "string"
            | "float"
            | "id"
    ) || lower.starts_with("optional[")
        || lower.starts_with("secret[")
}

/// Whether a dotted value has a segment of ten letters or more in mixed
/// case, few vowels and no words (`PGesAtaGMWVgiM.Op`): generated, not a
/// member's name (`settings.DatabasePassword`).
fn random_segment(v: &str) -> bool {
    v.split('.')
        .any(|s| s.len() >= 10 && mixed_case(s) && few_vowels(s) && !wordy(s))
}

/// Whether the value assigned to a key of `class` is a literal secret.
/// `quoted` values are literals for sure; unquoted ones may be code
/// (`os.environ[...]`, `config.token`, `DB_PASSWORD`) or prose after a colon.
pub(in crate::screen) fn literal_secret(
    class: KeyClass,
    raw: &str,
    quoted: bool,
    colon: bool,
) -> bool {
    // A quoted value continued on the next line (`"…\` and a line break)
    // is one value.
    let joined;
    let raw = if raw.contains("\\\n") {
        joined = raw.replace("\\\n", "");
        joined.as_str()
    } else {
        raw
    };
    let v = raw.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    // A sentence's full stop after an unquoted value is the sentence's.
    let v = if quoted {
        v
    } else {
        v.trim_end_matches(['.', ',', ';'])
    };
    // A value that is itself an environment assignment (`credentials:
    // AWS_ACCESS_KEY_ID=…`) is judged as one: by its own key when that
    // names a secret, not at all when it names an id, else as the outer
    // key's value.
    if let Some((key, inner)) = v
        .split_once('=')
        .filter(|(key, _)| !quoted && ENV_NAME.is_match(key))
    {
        if key.ends_with("_ID") || key.ends_with("_USER") || key.ends_with("_NAME") {
            return false;
        }
        return literal_secret(key_class(key).unwrap_or(class), inner, false, false);
    }
    // A YAML anchor (`.deploy_token: &deploy_token`) names a block.
    if !quoted
        && v.strip_prefix('&').is_some_and(|name| {
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        })
    {
        return false;
    }
    // A pattern (`sed 's/^DB_PASSWORD=.*/DB_PASSWORD=/'`) matches any value.
    if !quoted && v.starts_with(".*") {
        return false;
    }
    // In an OAuth redirect's query or fragment, `&expires_in=` and its
    // like start the next parameter.
    let v = match NEXT_PARAMETER.find(v) {
        Some(next) if !quoted => &v[..next.start()],
        _ => v,
    };
    // A file that holds the secret, not the secret.
    // A relative path to a file (`secrets/db.txt`, Kustomize's
    // `password=secrets/ledger-db.txt`).
    let relative_file = !quoted
        && v.contains('/')
        && !v.contains("//")
        && v.rsplit_once('.').is_some_and(|(_, ext)| {
            matches!(
                ext,
                "txt" | "pem" | "key" | "json" | "yaml" | "yml" | "env" | "crt" | "p12"
            )
        });
    let file = relative_file
        || v.starts_with("./")
        || v.starts_with("../")
        || v.starts_with("~/")
        // `@file` hands a file's contents over; after a YAML key's colon, or
        // with a symbol no file's name takes (`=@2=gAHoH9^O2`), a generated
        // password may open with `@` too (`: @5yBPs2Z@03_`), with symbols
        // in place of digits (`@MyuOe=nAG=C%tCwmZ^A`).
        || (v.starts_with('@')
            && (v[1..].starts_with(['/', '.', '~'])
                || !(quoted
                    || (colon || v[1..].contains(['=', '^', '#', '!', '*', '&', '%', '+']))
                        && (super::prose::generated_password(v) || drawn_with_symbols(&v[1..])))))
        // A volume's mode may follow the path (`/run/secrets/pg_pw:ro`).
        || (!quoted
            && ABSOLUTE_PATH.is_match(v.trim_end_matches(":ro").trim_end_matches(":rw")));
    // A key block's armor (`-----BEGIN …`): the private-key rule judges
    // the block.
    if file
        || is_placeholder(v)
        || is_type_name(v)
        || ALGORITHM.is_match(v)
        || twilio_sid(v)
        || v.starts_with("-----BEGIN")
    {
        return false;
    }
    // A secret manager's name and version (gcloud's `--set-secrets
    // KEY=name:latest`, `KEY=maps-key:3`; a hyphenated name and a short
    // number, where `user:73920184` is a login).
    if !quoted
        && v.rsplit_once(':').is_some_and(|(name, version)| {
            let numbered = (1..=3).contains(&version.len())
                && version.bytes().all(|b| b.is_ascii_digit())
                && name.contains('-');
            (version == "latest" || numbered)
                && !name.is_empty()
                && name.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_')
                })
        })
    {
        return false;
    }
    // A reference to the environment or a secret store, in configuration
    // syntax (`os.environ/KEY` in LiteLLM, `env:KEY`, `secrets.KEY`, Azure
    // Container Apps' `keyvaultref:URL`).
    let lower = v.to_ascii_lowercase();
    if [
        "os.environ",
        "process.env",
        "env.",
        "env:",
        "secrets.",
        "secret:",
        "vault:",
        "ssm:",
        "file:",
        "keyvaultref:",
        // Vault's audit log writes each secret as its HMAC.
        "hmac-sha256:",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
    {
        return false;
    }
    // A Vault KV engine's path (`secret/data/twilio:auth_token`), under
    // any mount in version 2's shape (`ci/data/github:token`, as Ansible's
    // `hashi_vault` lookup reads it).
    if !quoted && (v.starts_with("secret/") || v.starts_with("kv/") || KV2_PATH.is_match(v)) {
        return false;
    }
    // A GitHub Action's reference (`actions/create-github-app-token@v1`)
    // names a step, not a token; after a password's key, `user/…@db` is
    // a login (`sa/…@master`).
    if !quoted && class != KeyClass::Password && ACTION_REFERENCE.is_match(v) {
        return false;
    }
    // A keyword opens an expression (`password = await vault.read(…)`).
    if !quoted && matches!(v, "await" | "new" | "yield" | "async" | "lambda" | "typeof") {
        return false;
    }
    // A Vault token (`s.…`) is shaped like a member's name. A call's
    // parentheses are code, unless the value opens with one and is a key
    // drawn from symbols (`(hcp%89)maeh…`, as `is_placeholder` judges).
    if !quoted
        && !vault_token(v)
        && ((v.contains(['(', '[']) && (!v.starts_with('(') || is_placeholder(v)))
            || (DOTTED_IDENTIFIER.is_match(v) && !random_segment(v))
            || CONSTANT_IDENTIFIER.is_match(v)
            || CMDLET.is_match(v))
    {
        return false;
    }
    // A credential's type named in CamelCase (`credential=ManagedIdentityCredential`).
    let type_name = !has_digit(v)
        && v.starts_with(|c: char| c.is_ascii_uppercase())
        && v.bytes().all(|b| b.is_ascii_alphabetic())
        && ["Credential", "Credentials", "Provider"]
            .iter()
            .any(|suffix| v.len() > suffix.len() && v.ends_with(suffix));
    if type_name {
        return false;
    }
    // The name of a secret kept elsewhere (`from_secret = "api_key"`), or a
    // message (`'password' => 'Invalid credentials'`).
    let names_a_secret = v.contains('_')
        && !has_digit(v)
        && (v.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            || v.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
        && key_class(v).is_some();
    let message = v.contains(' ')
        && v.split_whitespace()
            .all(|w| word_like(w.trim_end_matches(['?', '!', '.', ',', ':', ';'])));
    // A name and the absolute path it is loaded from (systemd's
    // `LoadCredential=db_password:/etc/credstore/db_password`).
    let loaded_from = v.split_once(":/").is_some_and(|(name, path)| {
        !name.is_empty()
            && !path.starts_with('/')
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            && path
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/'))
    });
    // An app password's four groups of letters read as words to the
    // message test; they are drawn.
    if matches!(class, KeyClass::Password | KeyClass::Secret) && v.contains(' ') && app_password(v)
    {
        return true;
    }
    if names_a_secret || message || loaded_from {
        return false;
    }
    match class {
        KeyClass::Password => {
            v.chars().count() >= 4 && (quoted || !colon || !word_like(v) || drawn_words(v))
        }
        KeyClass::Secret => {
            // Lower-case words joined without a digit (`xoxb-api_test`)
            // name a value; they are none.
            let name = !has_digit(v)
                && v.bytes()
                    .all(|b| b.is_ascii_lowercase() || matches!(b, b'-' | b'_' | b'.'));
            // A short test key (`sk_test_123`) is a mock's.
            let mock = v.len() < 16 && v.to_ascii_lowercase().contains("test");
            !name
                && !mock
                && v.len() >= 8
                && !v.contains(char::is_whitespace)
                && !word_like(v)
                && (has_digit(v) || v.chars().any(|c| !c.is_alphanumeric()) || mixed_case(v))
        }
        KeyClass::Generated => {
            // Dotted words with a number (`user.42.events.created`) name a
            // route, not a generated value.
            let dotted_words = v.contains('.') && longest_alnum_run(v) < 16;
            random_like(v, 20) && has_digit(v) && !v.contains(char::is_whitespace) && !dotted_words
        }
        KeyClass::Basic => {
            // A plain `user:password` pair (Grafana's provider `auth`).
            let pair = v.split_once(':').is_some_and(|(user, password)| {
                !user.is_empty()
                    && user.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'@')
                    })
                    && password.len() >= 6
                    && !password.contains(char::is_whitespace)
                    && has_digit(password)
                    && !word_like(password)
            });
            pair || v.len() >= 16
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                && random_like(v, 16)
        }
    }
}

/// Whether the value of a [`generated_key`] is generated: after an
/// optional `base64:`, one run of 24 base64 or hex characters or more,
/// with letters and digits and a long alphanumeric stretch.
pub(super) fn generated_value(raw: &str) -> bool {
    let v = raw.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    let v = v.strip_prefix("base64:").unwrap_or(v);
    // A publishable key (`pk_test_…`, `pk_live_…`) is public.
    !v.starts_with("pk_")
        && v.len() >= 24
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-'))
        && has_digit(v)
        && v.bytes().any(|b| b.is_ascii_alphabetic())
        && longest_alnum_run(v) >= 16
        && !is_placeholder(v)
        && distinct_chars(v) >= 10
}

/// Whether the value of a [`bare_key`] is a secret: generated and mixing
/// cases, as a digest, an id or a name does not.
pub(super) fn bare_key_value(raw: &str) -> bool {
    let v = raw.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    // A cache key (`Linux-pip-<hash>`), an integrity hash (`sha512-…`) or
    // an IPFS id (`Qm…`) names content, not a secret.
    let named_content = v.split_once('-').is_some_and(|(head, _)| {
        head.len() >= 3
            && (head.bytes().all(|b| b.is_ascii_alphabetic()) || head.starts_with("sha"))
    }) || (v.starts_with("Qm") && v.len() == 46);
    generated_value(raw) && v.len() >= 32 && mixed_case(v) && !wordy(v) && !named_content
}

/// Whether a value is a random UUID, as some services issue their keys
/// (a record key, a license key): not all zeros or another placeholder.
pub(super) fn uuid_value(raw: &str) -> bool {
    let v = raw.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    let groups: Vec<&str> = v.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
        && distinct_chars(v) >= 10
        && !is_placeholder(v)
}

/// Whether `value` starts with `&` and a parameter's name and `=`.
pub(super) fn next_parameter(value: &str) -> bool {
    value.strip_prefix('&').is_some_and(|rest| {
        rest.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        })
    })
}

/// Whether `value`, written right after a key and a bare `:`, goes on
/// with a lowercase word and another `:`: a namespaced name (the Redis key
/// `auth:refresh:<id>`), not a key's value.
pub(super) fn namespaced(value: &str) -> bool {
    value
        .split_once(':')
        .is_some_and(|(word, _)| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()))
}

/// Whether a value is a local YAML tag's name (`!vault-ref`, `!Ref`,
/// `!1password-ref`).
pub(super) fn local_tag(value: &str) -> bool {
    value.strip_prefix('!').is_some_and(|name| {
        name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    })
}

/// Whether what follows a tag on its line is the tag's operand.
pub(super) fn tag_reads(rest: &str) -> bool {
    let line = rest.split('\n').next().unwrap_or("");
    line.starts_with([' ', '\t']) && !line.trim().is_empty() && !line.trim_start().starts_with('#')
}

/// Whether `v` was drawn from letters of both cases and symbols no name
/// takes, with no digit needed: long, unspaced, two such symbols or more,
/// and many distinct characters.
fn drawn_with_symbols(v: &str) -> bool {
    v.len() >= 12
        && mixed_case(v)
        && v.bytes().filter(|b| b"!#%&*+=?@^~".contains(b)).count() >= 2
        && !v.contains([' ', '$', '(', ')', '{', '}', '[', ']', '<', '>', '/'])
        && distinct_chars(v) >= 10
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    /// Held-out 59: what a secret manager hands back (`SecretString`) or a
    /// secret named for what it opens (`secret_access`), when generated.
    /// A local YAML tag after a key's colon reads a value kept elsewhere;
    /// alone or after `=`, a value opening with `!` is a password.
    #[test]
    fn local_yaml_tags_and_passwords_that_open_with_a_bang() {
        for clean in [
            "password: !vault-ref kv/data/ci/nexus#password",
            "secret_key: !k8s-secret app-secrets/SECRET_KEY",
            "password: !1password-ref Engineering/DB",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
        for hit in [
            "DB_PASSWORD=!winter-is-coming",
            "Postgres superuser password = !O3AIBA8VY6mXJ on db-legacy-03",
        ] {
            assert!(flagged(hit), "{hit}");
        }
    }

    /// Held-out 104: a Vault KV version 2 path under any mount, and a
    /// GitHub Action's reference, name where a secret is or what reads it.
    #[test]
    fn kv_paths_and_action_references_are_no_values() {
        for clean in [
            "GH_TOKEN: '{{ lookup(\"community.hashi_vault.hashi_vault\", \"secret=ci/data/github:token\") }}' ",
            "secret=platform/metadata/payments/stripe",
            "instead of a PAT: actions/create-github-app-token@v1 with app-id 42",
            "token: tibdex/github-app-token@v2.1.0",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
        for hit in [
            "secret=ci/dat4/Xk9q7Lw2Tz",
            "token: Xk9q7Lw2Tz/ab@host",
            "password: 'actions/create@v1'",
            "password=sa/Tq7mZ2wLx9Rk4Vb8@master",
        ] {
            assert!(flagged(hit), "{hit}");
        }
    }

    /// Held-out 61: a generated password that opens with `@` after a YAML
    /// key's colon; `@file` hands a file over.
    #[test]
    fn passwords_that_open_with_an_at_sign() {
        assert!(flagged(
            "    environment:\n      MONGO_INITDB_ROOT_PASSWORD: @5yBPs2Z@03_"
        ));
        assert!(!flagged("curl --data password=@pw.txt https://x.example"));
        assert!(!flagged("password: @./secrets/pw"));
    }

    #[test]
    fn secret_manager_values() {
        for hit in [
            "\"SecretString\": \"7duKliIHiZAOWHzkgCgVb1GObP2LSJPaUgi9mdKW\"",
            "  \"secret_access\": \"7duKliIHiZAOWHzkgCgVb1GObP2LSJPaUgi9mdKW\",",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "\"secret_value\": \"none\"",
            "secret_access: granted",
            "\"secret_data\": \"my-app-config\"",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Review of session 53: unquoted, a generated key of symbols that
    /// opens with a parenthesis runs to the next space; a call does not.
    #[test]
    fn unquoted_keys_of_symbols_that_open_with_a_parenthesis() {
        for hit in [
            "SECRET_KEY=(q8r%27)zvn41)kpa3x()mt92wyb+61ldes7&hrq035x",
            "secret_key = (@kd7!pwx19)fn2q^v8*m3lz=(r5tq#c0ys&e61hb",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "SECRET_KEY=(os.environ.get('DJANGO_SECRET_KEY_2024_PRIMARY'))",
            "secret_key = (load_secret_from_vault_or_fail_hard_2024)",
            "SECRET_KEY=(none)",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 68: a credential's type named in CamelCase is no secret.
    #[test]
    fn credential_types_are_no_secrets() {
        for clean in [
            "Event Hubs now uses credential=ManagedIdentityCredential (no SharedAccessKey).",
            "token_provider=DefaultTokenProvider",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
        assert!(flagged("credential=Vq7LmPzX2wRt9Ks4"));
    }

    /// Second review of session 53: SQL Server's `N'…'` literal after
    /// `PASSWORD =`.
    #[test]
    fn sql_server_unicode_literals() {
        assert!(flagged(
            "ALTER LOGIN [svc_report] WITH PASSWORD = N'Kq7!zLm2#Wx9', CHECK_POLICY = ON;"
        ));
        assert!(!flagged(
            "ALTER LOGIN [svc_report] WITH PASSWORD = N'<password>', CHECK_POLICY = ON;"
        ));
    }

    /// Held-out 85: after `=`, a password that opens with `@` and takes
    /// symbols no file's name takes; `@file` and `@./file` read a file.
    #[test]
    fn passwords_with_symbols_that_open_with_an_at_sign() {
        assert!(flagged("jdbc.password=@7=kLmQ2x^Zr4"));
        for clean in ["password=@secrets2.txt", "token=@./ci/token-2024.txt"] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
