//! Vendor credentials: tokens and keys in a vendor's recognizable format,
//! told apart from documentation placeholders by their generated body.

use super::pattern::{any_group, lazy_regex};
use super::value::{
    distinct_chars, has_digit, has_letter, is_placeholder, longest_alnum_run, mixed_case,
    random_like, word_like,
};

lazy_regex!(GITHUB, r"\b(?:gh[pousr]_|github_pat_)([A-Za-z0-9_]{20,})");
lazy_regex!(OPENAI, r"\bsk-([A-Za-z0-9_-]{20,})");
lazy_regex!(ANTHROPIC, r"\bsk-ant-([A-Za-z0-9_-]{20,})");
lazy_regex!(SLACK_TOKEN, r"\bx(?:ox[abposre]|app)-([A-Za-z0-9-]{10,})");
lazy_regex!(
    SLACK_HOOK,
    r"hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]+/[A-Za-z0-9]+/([A-Za-z0-9]+)"
);
lazy_regex!(AWS_KEY_ID, r"\b(?:AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16})\b");
lazy_regex!(
    AWS_SECRET,
    r#"(?i)secret[_-]?access[_-]?key\\?["']?(?:\s*(?::|=>|=)\s*|\s+)\\?["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#
);
lazy_regex!(
    AWS_SESSION,
    r#"(?i)(?:aws[_-]?session[_-]?token|\bsessiontoken)\\?["']?\s*(?::|=>|=)\s*\\?["']?([A-Za-z0-9/+=]{40,})"#
);
lazy_regex!(
    GOOGLE,
    r"\b(?:AIza([0-9A-Za-z_-]{35})|GOCSPX-([A-Za-z0-9_-]{24,})|ya29\.([0-9A-Za-z_-]{30,}))"
);
lazy_regex!(
    STRIPE,
    r"\b(?:(?:sk|rk)_(?:live|test)_([0-9A-Za-z]{16,})|whsec_([A-Za-z0-9+/]{24,}))"
);
lazy_regex!(NPM_TOKEN, r"\bnpm_([A-Za-z0-9]{36})\b");
lazy_regex!(
    NPM_RC,
    r#"(?i)(?:^|[\s:/])_auth(?:Token)?\s*=\s*["']?([^\s"']+)"#
);
lazy_regex!(
    JWT,
    r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}"
);
lazy_regex!(
    PRIVATE_KEY,
    r"-{5}\s*BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?\s*-{5}|PuTTY-User-Key-File-\d+:"
);

/// A body after a vendor prefix: generated-looking, with digits and letters
/// and a long unbroken run (which kebab-case identifiers lack).
fn key_body(body: &str) -> bool {
    random_like(body, 20) && has_digit(body) && has_letter(body) && longest_alnum_run(body) >= 10
}

lazy_regex!(
    /// Vendor formats without a rule of their own; the one group that
    /// takes part is the generated part.
    OTHER_VENDOR,
    r"\b(?:gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|agent)-([A-Za-z0-9_-]{20,})|pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)([A-Za-z0-9_-]{40,})|hf_([A-Za-z]{34})\b|do[por]_v1_([a-f0-9]{64})|shp(?:at|ca|pa|ss)_([a-fA-F0-9]{32})|SG\.([A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})|hv[sb]\.([A-Za-z0-9_-]{24,})|sntr[ysu]_([A-Za-z0-9+/=_]{30,})|dapi([a-f0-9]{32})|lin_api_([A-Za-z0-9]{40})|PMAK-([a-f0-9]{24}-[a-f0-9]{34})|dp\.pt\.([A-Za-z0-9]{40,})|glsa_([A-Za-z0-9]{32}_[a-f0-9]{8})|ATATT3([A-Za-z0-9_=-]{60,})|key-([0-9a-f]{32})\b|pul-([a-f0-9]{40})|[A-Za-z0-9]{14}\.atlasv1\.([A-Za-z0-9_-]{60,})|sbp_([a-f0-9]{40})|secret_([A-Za-z0-9]{43})\b|AGE-SECRET-KEY-1([0-9A-Z]{58})|figd_([A-Za-z0-9_-]{40,})|nfp_([A-Za-z0-9]{36,}))"
);

pub(super) fn other_vendor(text: &str) -> bool {
    any_group(&OTHER_VENDOR, text, |b| {
        random_like(b, 20) && (has_digit(b) || mixed_case(b))
    })
}

pub(super) fn github(text: &str) -> bool {
    any_group(&GITHUB, text, |b| random_like(b, 20) && has_digit(b))
}

pub(super) fn openai(text: &str) -> bool {
    any_group(&OPENAI, text, |b| !b.starts_with("ant-") && key_body(b))
}

pub(super) fn anthropic(text: &str) -> bool {
    any_group(&ANTHROPIC, text, key_body)
}

pub(super) fn slack(text: &str) -> bool {
    any_group(&SLACK_TOKEN, text, |b| random_like(b, 10) && has_digit(b))
        || any_group(&SLACK_HOOK, text, |b| random_like(b, 8))
}

pub(super) fn aws(text: &str) -> bool {
    any_group(&AWS_KEY_ID, text, |b| {
        !b.contains("EXAMPLE") && distinct_chars(b) >= 6
    }) || any_group(&AWS_SECRET, text, |b| {
        random_like(b, 40) && distinct_chars(b) >= 12
    }) || any_group(&AWS_SESSION, text, |b| random_like(b, 40))
}

pub(super) fn google(text: &str) -> bool {
    any_group(&GOOGLE, text, |b| random_like(b, 20) && has_digit(b))
}

pub(super) fn stripe(text: &str) -> bool {
    any_group(&STRIPE, text, |b| random_like(b, 16) && has_digit(b))
}

pub(super) fn npm(text: &str) -> bool {
    any_group(&NPM_TOKEN, text, |b| random_like(b, 36))
        || any_group(&NPM_RC, text, |v| {
            v.len() >= 8 && !is_placeholder(v) && !word_like(v)
        })
}

/// A JSON Web Token.
pub(super) fn jwt(text: &str) -> bool {
    JWT.is_match(text)
}

/// A private key block or PuTTY key file.
pub(super) fn private_key(text: &str) -> bool {
    PRIVATE_KEY.is_match(text)
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn vendor_prefixes_need_a_generated_body() {
        assert!(fires(
            "ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U",
            Rule::CredentialGithub
        ));
        assert!(!fires(
            "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
            Rule::CredentialGithub
        ));
        assert!(!fires("task-sk-3 is done", Rule::CredentialOpenai));
        assert!(fires(
            "sk-ant-api03-Qm8vT2xLr5Wd9Kc1Zp7Hn4Jb6Fs3Ga0Ye8Ut2Io5Pw",
            Rule::CredentialAnthropic
        ));
        assert!(!fires(
            "sk-ant-api03-Qm8vT2xLr5Wd9Kc1Zp7Hn4Jb6Fs3Ga0Ye8Ut2Io5Pw",
            Rule::CredentialOpenai
        ));
        assert!(!fires(
            "pk_live_51Hc8Tq2LmX9vR4zW7bN3kD6",
            Rule::CredentialStripe
        ));
        assert!(!fires("AKIAIOSFODNN7EXAMPLE", Rule::CredentialAws));
    }
}
