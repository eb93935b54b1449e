//! Vendor credentials: tokens and keys in a vendor's recognizable format,
//! told apart from documentation placeholders by their generated body.

use std::sync::LazyLock;

use super::gate::{Doors, Gates};
use super::pattern::{
    Found, Spans, contains_any_ignoring_case, contains_ignoring_case, groups, lazy_regex, matches,
    tokens,
};
use super::value::{
    counts_up, distinct_chars, few_vowels, has_digit, has_letter, is_placeholder,
    longest_alnum_run, mixed_case, random_like, word_like, wordy,
};

lazy_regex!(GITHUB, r"\b(?:gh[pousr]_|github_pat_)([A-Za-z0-9_]{20,})");
lazy_regex!(OPENAI, r"\bsk-([A-Za-z0-9_-]{20,})");
lazy_regex!(
    /// A project, service or admin key glued to a short option (`gh
    /// secret set … -bsk-proj-…`): the key from its `sk-` on.
    OPENAI_GLUED,
    r"\B-[A-Za-z](sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,})"
);
lazy_regex!(ANTHROPIC, r"\bsk-ant-([A-Za-z0-9_-]{20,})");
lazy_regex!(
    /// A token by its opening (a rotating refresh token's `xoxe-1-…` may
    /// hold `_`); a browser's `d` cookie (`xoxd-`) is percent-encoded
    /// base64.
    SLACK_TOKEN,
    r"\bx(?:ox[abposrec]|app)-([A-Za-z0-9_-]{10,})|\bxoxd-([A-Za-z0-9%+/=-]{10,})"
);
lazy_regex!(
    /// A webhook's URL, or a legacy integration's
    /// (`<team>.slack.com/services/hooks/incoming-webhook?token=…`).
    SLACK_HOOK,
    r"hooks\.slack(?:-gov)?\.com/(?:services|workflows|triggers)/T[A-Z0-9]+/[A-Za-z0-9]+/([A-Za-z0-9]+)|\.slack\.com/services/hooks/[\w-]+\?token=([A-Za-z0-9]{20,})"
);
lazy_regex!(
    /// A webhook's workspace, channel and secret without Slack's host, as
    /// notifiers take them (`slack://T…/B…/…`, `hook:T…-B…-…@webhook`).
    SLACK_HOOK_PATH,
    r"\bT[A-Z0-9]{8,12}[/-]B[A-Z0-9]{8,12}[/-]([A-Za-z0-9]{24})\b"
);
lazy_regex!(
    /// A Google key packed in a URL parameter after its field number
    /// (`&4sAIza…` in a Maps request), or an access token after an escaped
    /// line break (`"Bearer\nya29.…"`), where no word boundary opens it.
    GOOGLE_PACKED,
    r"[0-9]sAIza([0-9A-Za-z_-]{35})|\\nya29\.(?:c\.)?([0-9A-Za-z_-]{30,})"
);
lazy_regex!(
    /// An API key, an OAuth client secret, an access token, a refresh
    /// token (`1//0…`, as `gsutil`'s `gs_oauth2_refresh_token` holds it)
    /// or a client secret by its variable's name.
    GOOGLE,
    r"\b(?:AIza([0-9A-Za-z_-]{35})|GOCSPX-([A-Za-z0-9_-]{24,})|ya29\.(?:c\.)?([0-9A-Za-z_-]{30,})|1//0([0-9A-Za-z_-]{40,})|GOOGLE\w*CLIENT_SECRET\s*[=:]\s*[\x22']?([A-Za-z0-9_-]{24})\b)"
);
lazy_regex!(
    STRIPE,
    r"\b(?:(?:sk|rk)_(?:live|test)_([0-9A-Za-z]{16,})|whsec_([A-Za-z0-9+/]{24,}))"
);
lazy_regex!(
    /// An npm token, also glued to a flag (`gh secret set … -bnpm_…`).
    NPM_TOKEN,
    r"(?:\b|-b)npm_([A-Za-z0-9]{36})\b"
);
lazy_regex!(
    /// A classic npm token (a UUID) named a token (or a variable named for
    /// npm's: `FONTAWESOME_NPM_AUTH_TOKEN=…`, setup-node's
    /// `NODE_AUTH_TOKEN`), in a text about npm.
    NPM_LEGACY,
    r"(?i)(?:\b|npm(?:_[a-z]+)*_|\bnode_auth_)(?:token|_authToken)\b[^\n]{0,24}?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"
);
lazy_regex!(
    /// An `.npmrc` credential (`_authToken`, `_auth`, `_password`), also
    /// one written by `printf '…:_authToken=%s' VALUE`, npm's variable for
    /// it (a Kubernetes `env` entry's `name:` and `value:` lines too), and
    /// Yarn's `npmAuthToken` or `npmAuthIdent`.
    NPM_RC,
    r#"(?i)(?:^|[\s:/`"'(#-])_(?:auth(?:Token)?|password)\\?["']?(?:\s*[=:]\s*|\s+)\\?["']?([^\s"'\\,}`]+)|\bprintf\s+["'][^"'\n]*_(?:authToken|auth|password)=%s[^"'\n]*["']\s+["']?([^\s"'$]+)|\bNPM_CONFIG__AUTH(?:TOKEN)?["']?[ \t]*[=:][ \t]*["']?([^\s"']+)|\bname:[ \t]*["']?NPM_CONFIG__AUTH(?:TOKEN)?["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?([^\s"']+)|\bnpmAuth(?:Token|Ident)\\?["']?(?:\s*[=:]\s*|\s+)\\?["']?([^\s"'\\,}`]+)"#
);
lazy_regex!(
    /// A signed token (its header opening `{"`, `{ "`, or `{` and a line
    /// break when the signer pretty-prints, maybe padded as AWS's load
    /// balancers pad), an encrypted one with a direct key (five segments,
    /// the second empty), or an unsigned one (`"alg":"none"`, the
    /// signature empty), which a server that accepts it honours as any;
    /// also glued to a `Bearer` that lost its space.
    JWT,
    r"(?:\b|(?-i:Bearer))(?:eyJ|eyAi|ewog|ew0K)[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{10,}={0,2}\.[A-Za-z0-9_-]{16,}|\beyJ[A-Za-z0-9_-]{10,}\.\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|\beyJhbGciOiJub25l[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{10,}\.|\beyJ0eXAiOiJKV1QiLCJhbGciOiJub25l[A-Za-z0-9_-]*\.eyJ[A-Za-z0-9_-]{10,}\."
);
lazy_regex!(
    /// A token whose segments run on across line breaks: what a terminal
    /// or an editor leaves when it wraps a long token.
    JWT_WRAPPED,
    r#"\beyJ(?:[A-Za-z0-9_.-]|[ \t]*[\\`]?[ \t]*\r?\n[ \t>#<]*|\\[nr]|["'][ \t]*(?:\r?\n[ \t]*)?\+[ \t]*`?(?:\r?\n[ \t]*)?["']|["'][ \t]*\\\r?\n[ \t]*["']){40,}"#
);
lazy_regex!(
    /// A token shown as its three segments, each on a labelled line of its
    /// own (a debugger's or a decoder's view): the signature makes it one
    /// a server honours.
    JWT_LABELLED,
    r"(?i)\bheader[ \t]*[:=][ \t]*[\x22']?eyJ[A-Za-z0-9_-]{10,}[\x22']?,?[ \t]*\r?\n[ \t]*(?:[\x22']?payload|[\x22']?claims|[\x22']?body)[\x22']?[ \t]*[:=][ \t]*[\x22']?eyJ[A-Za-z0-9_-]{10,}[\x22']?,?[ \t]*\r?\n[ \t]*[\x22']?signature[\x22']?[ \t]*[:=][ \t]*[\x22']?[A-Za-z0-9_-]{16,}"
);

/// A body after a vendor prefix: generated-looking, with digits and letters
/// and a long unbroken run (which kebab-case identifiers lack).
fn key_body(body: &str) -> bool {
    random_like(body, 20) && has_digit(body) && has_letter(body) && longest_alnum_run(body) >= 10
}

lazy_regex!(
    /// Vendor formats without a rule of their own; the one group that
    /// takes part is the generated part. A token may follow a string's
    /// escaped line break (`$'…\ndapi…'`).
    OTHER_VENDOR,
    r"(?:\b|\\[nrt])(?:gl(?:pat|dt|rt|ptt|cbt|oas|ft|imt|soat|agent)-([A-Za-z0-9_-]{20,})|pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)([A-Za-z0-9_-]{40,})|hf_([A-Za-z0-9]{30,40})\b|do[por]_v1_([a-f0-9]{64})|shp(?:at|ca|pa|ss|tka)_([a-fA-F0-9]{32})|SG\.([A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{40,46})|hv[sbr]\.([A-Za-z0-9_-]{24,})|cio([A-Za-z0-9]{32})\b|dose([a-f0-9]{32})\b|sk-or-v1-([a-f0-9]{64})\b|pk_\d{6,10}_([A-Z0-9]{32})\b|SSWS\s+(00[A-Za-z0-9_-]{40})\b|lin_oauth_([a-f0-9]{64})\b|v1\.0-[0-9a-f]{24}-([0-9a-f]{146})\b|sntr[ysu]{1,2}_([A-Za-z0-9+/=_-]{30,})|dapi([a-f0-9]{32})|lin_api_([A-Za-z0-9]{40})|PMAK-([a-f0-9]{24}-[a-f0-9]{34})|dp\.pt\.(?:[a-z0-9_-]{2,20}\.)?([A-Za-z0-9]{40,})|glsa_([A-Za-z0-9]{32}_[a-f0-9]{8})|glc_([A-Za-z0-9+/=_-]{32,})|AT[AC]TT3([A-Za-z0-9_=-]{60,})|key-([0-9a-z]{32})\b|pul-([a-f0-9]{40})|[A-Za-z0-9]{14}\.atlasv1\.([A-Za-z0-9_=-]{60,})|sbp_([a-f0-9]{40})|secret_([A-Za-z0-9]{40,46})\b|AGE-SECRET-KEY-1([0-9A-Z]{50,64})|figd_([A-Za-z0-9_-]{40,})|nfp_([A-Za-z0-9]{36,})|ntn_([A-Za-z0-9]{40,})|dp\.(?:st|sa|ct|scim|audit)\.(?:[a-z0-9_-]+\.)?([A-Za-z0-9]{40,})|sb_secret_([A-Za-z0-9_-]{24,})|eyJrIjo(?:i|gI)([A-Za-z0-9+/]{30,}={0,2})|ico-([A-Za-z0-9]{32})\b|API-([A-Z0-9]{26,32})\b|(DO00[A-Z0-9]{16})\b|CLOJARS_([a-z0-9]{60})\b)"
);

/// Literal parts of [`OTHER_VENDOR`]'s prefixes, one of which each of its
/// tokens holds.
const OTHER_VENDOR_WORDS: &[&str] = &[
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "glcbt-",
    "gloas-",
    "glft-",
    "glimt-",
    "glsoat-",
    "glagent-",
    "pypi-age",
    "hf_",
    "_v1_",
    "shpat_",
    "shpca_",
    "shppa_",
    "shpss_",
    "shptka_",
    "sg.",
    "hvs.",
    "hvb.",
    "hvr.",
    "cio",
    "dose",
    "sk-or-v1-",
    "pk_",
    "ssws",
    "lin_oauth_",
    "v1.0-",
    "sntr",
    "dapi",
    "lin_api_",
    "pmak-",
    "dp.",
    "glsa_",
    "glc_",
    "atatt3",
    "atctt3",
    "key-",
    "pul-",
    ".atlasv1.",
    "sbp_",
    "secret_",
    "age-secret-key-1",
    "figd_",
    "nfp_",
    "ntn_",
    "eyjrijo",
    "ico-",
    "api-",
    "do00",
    "clojars_",
];

lazy_regex!(
    /// More vendors' tokens by their fixed openings: AI platforms
    /// (Replicate, Groq, Perplexity, xAI, LangSmith, Pinecone, Hugging Face
    /// organizations), CI and hosting (Buildkite, Docker Hub, Tailscale,
    /// Fly.io, Render, Neon, Heroku, Scalingo, Prefect, Harness, JFrog,
    /// Bitbucket, SonarQube), package registries (RubyGems, Clojars), SaaS
    /// APIs (Airtable, Square, PlanetScale, Shippo, EasyPost, Contentful,
    /// Dynatrace, New Relic, Mailchimp, Brevo, Mapbox secret tokens, 1Password
    /// service accounts, Plaid, Dropbox, Meta and Square access tokens,
    /// Flutterwave, X bearer tokens, Intercom, Frame.io, Typeform, ReadMe,
    /// Duffel), GitLab runner registration, NuGet, Adafruit IO, CircleCI,
    /// Sourcegraph and Alibaba Cloud keys).
    MORE_VENDORS,
    r"\b(?:GR1348941([A-Za-z0-9_-]{20})|oy2([a-z0-9]{43})|aio_([A-Za-z0-9]{28})|CCIPAT_([A-Za-z0-9]{22}_[a-f0-9]{40})|sgp_((?:[a-f0-9]{16}_)?[a-f0-9]{40})|LTAI([A-Za-z0-9]{12,20})|r8_([A-Za-z0-9]{37})|gsk_([A-Za-z0-9]{52})|pplx-([A-Za-z0-9]{48})|xai-([A-Za-z0-9]{70,90})|lsv2_(?:pt|sk)_([a-f0-9]{32}_[a-f0-9]{10})|pcsk_[A-Za-z0-9]{4,}_([A-Za-z0-9]{40,})|api_org_([A-Za-z0-9]{34})|bkua_([a-f0-9]{40})|dckr_(?:pat|oat)_([A-Za-z0-9_-]{27,})|tskey-(?:auth-|api-|client-|scim-|webhook-)?[A-Za-z0-9]+-([A-Za-z0-9]{20,})|fo1_([A-Za-z0-9_-]{43})|fm[12][ar]?_([A-Za-z0-9+/=_-]{40,})|rnd_([A-Za-z0-9]{32})|napi_([A-Za-z0-9]{64})|HRKU-([A-Za-z0-9_-]{36,})|tk-us-([A-Za-z0-9_-]{48})|pn[ub]_([A-Za-z0-9]{36})|pat\.[A-Za-z0-9_-]{22}\.[0-9a-f]{24}\.([A-Za-z0-9]{20})|AKCp([A-Za-z0-9]{69})|cmVmdGtuOjAxOj([A-Za-z0-9+/=]{40,})|ATBB([A-Za-z0-9_=.-]{32,})|sq[upa]_([a-f0-9]{40})|rubygems_([a-f0-9]{48})|CLOJARS_([a-f0-9]{60})|pat[A-Za-z0-9]{14}\.([a-f0-9]{64})|sq0(?:csp|atp)-([A-Za-z0-9_-]{22,43})|pscale_(?:tkn|pw|oauth)_([A-Za-z0-9_-]{32,64})|shippo_(?:live|test)_([a-f0-9]{40})|EZ[AT]K([A-Za-z0-9]{54})|CFPAT-([A-Za-z0-9_-]{43})|dt0c01\.[A-Z0-9]{24}\.([A-Z0-9]{64})|NRAK-([A-Z0-9]{27})|([0-9a-f]{32})-us[0-9]{1,2}\b|xkeysib-([a-f0-9]{64})-[A-Za-z0-9]{16}|sk\.eyJ1Ijoi[A-Za-z0-9_-]+\.([A-Za-z0-9_-]{20,})|ops_(eyJ[A-Za-z0-9+/=_-]{50,})|access-(?:sandbox|development|production)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|sl\.([A-Za-z0-9_-]{130,})|EAA[A-Za-z0-9]([A-Za-z0-9_-]{60,})|FLWSECK(?:_TEST)?-([a-f0-9]{32})-X|AAAAAAAAAAAAAAAAAAAAA([A-Za-z0-9%]{50,})|dG9rO[ijkm]([A-Za-z0-9+/=_-]{40,})|fio-u-([A-Za-z0-9_=-]{64})|tfp_([A-Za-z0-9_-]{40,})|rdme_([a-z0-9]{70})|duffel_(?:test|live)_([A-Za-z0-9_-]{43}))"
);

lazy_regex!(
    /// Tokens whose only fixed parts are punctuation and digits:
    /// Bitwarden's machine-account access token (`0.<uuid>.<secret>:<key>==`)
    /// and Asana's personal access token (`2/<digits>/<digits>:<hex>`).
    NUMBERED_TOKENS,
    r"\b0\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([A-Za-z0-9]{30}:[A-Za-z0-9+/]{22}==)|\b[12]/[0-9]{10,20}/[0-9]{10,20}:([0-9a-f]{32})\b"
);

/// Literal parts of [`MORE_VENDORS`]' openings, one of which each of its
/// tokens holds.
const MORE_VENDOR_WORDS: &[&str] = &[
    "gr1348941",
    "oy2",
    "aio_",
    "ccipat_",
    "sgp_",
    "ltai",
    "r8_",
    "gsk_",
    "pplx-",
    "xai-",
    "lsv2_",
    "pcsk_",
    "api_org_",
    "bkua_",
    "dckr_",
    "tskey-",
    "fo1_",
    "fm1",
    "fm2",
    "rnd_",
    "napi_",
    "hrku-",
    "tk-us-",
    "pnu_",
    "pnb_",
    "pat",
    "akcp",
    "cmvmdgtuojaxoj",
    "atbb",
    "squ_",
    "sqp_",
    "sqa_",
    "rubygems_",
    "clojars_",
    "sq0",
    "pscale_",
    "shippo_",
    "ezak",
    "eztk",
    "cfpat-",
    "dt0c01.",
    "nrak-",
    "-us",
    "xkeysib-",
    "sk.eyj1ijoi",
    "ops_eyj",
    "access-",
    "sl.",
    "eaa",
    "flwseck",
    "aaaaaaaaaaaaaaaaaaaaa",
    "dg9ro",
    "fio-u-",
    "tfp_",
    "rdme_",
    "duffel_",
];

lazy_regex!(
    /// Still more vendors' tokens, apart from [`MORE_VENDORS`] because
    /// some of their openings are common words (`atta`, `token-`, `cs_`):
    /// LaunchDarkly, Honeycomb, Deno Deploy, Axiom, Braintree, Tencent
    /// and Yandex Cloud, Trello, Rancher, WooCommerce, Backblaze B2,
    /// PostHog personal keys, HubSpot private apps, Salesforce access
    /// tokens.
    FURTHER_VENDORS,
    r"\b(?:(?:sdk|mob)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b|hc[ax]i[kc]_([a-z0-9]{32,})|dd[po]_([A-Za-z0-9]{36})\b|xa[ap]t-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b|access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$([a-f0-9]{32})|AKID([A-Za-z0-9]{32})\b|AQVN([A-Za-z0-9_-]{30,})|ATTA([A-Za-z0-9]{60,})|token-[a-z0-9]{5}:([a-z0-9]{50,})|c[ks]_([a-f0-9]{40})\b|K00[0-9]([A-Za-z0-9]{27})\b|phx_([A-Za-z0-9]{40,})|pat-(?:na|eu|ap)[0-9]-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b|00D[A-Za-z0-9]{12,15}!([A-Za-z0-9._]{60,}))"
);

/// Literal parts of [`FURTHER_VENDORS`]' openings.
const FURTHER_VENDOR_WORDS: &[&str] = &[
    "sdk-",
    "mob-",
    "hcaik_",
    "hcxik_",
    "hcaic_",
    "hcxic_",
    "ddp_",
    "ddo_",
    "xaat-",
    "xapt-",
    "access_token$",
    "akid",
    "aqvn",
    "atta",
    "token-",
    "ck_",
    "cs_",
    "k00",
    "phx_",
    "pat-",
    "00d",
];

/// The vendor-token patterns of [`Rule::CredentialOther`], each behind its
/// words.
pub(super) static OTHER_GATES: LazyLock<Gates> = LazyLock::new(|| {
    Gates::new(vec![
        (&*OTHER_VENDOR, OTHER_VENDOR_WORDS),
        (&*MORE_VENDORS, MORE_VENDOR_WORDS),
        (&*FURTHER_VENDORS, FURTHER_VENDOR_WORDS),
        (&*MAILGUN_KEY, MAILGUN_WORDS),
        (&*NUMBERED_TOKENS, &["==", "1/", "2/"]),
    ])
});

lazy_regex!(
    /// Mailgun's private key (32 hex digits and two groups of eight), taken
    /// in a text about Mailgun.
    MAILGUN_KEY,
    r"\b([0-9a-f]{32})-[0-9a-f]{8}-[0-9a-f]{8}\b"
);

/// Words of a text about Mailgun: its name, the `mg.` sending domain its
/// setup guide has one create, the `api:` user of its basic auth.
const MAILGUN_WORDS: &[&str] = &["mailgun", "mg.", "api:"];

pub(super) fn other_vendor(text: &str, doors: Doors) -> Spans {
    let open = OTHER_GATES.open(doors);
    let accept = |b: &str| random_like(b, 20) && (has_digit(b) || mixed_case(b));
    let mut out = tokens(open.get(&OTHER_VENDOR), text, accept);
    out.extend(tokens(open.get(&MORE_VENDORS), text, accept));
    out.extend(tokens(open.get(&FURTHER_VENDORS), text, accept));
    out.extend(tokens(open.get(&NUMBERED_TOKENS), text, accept));
    if contains_any_ignoring_case(text, MAILGUN_WORDS) {
        out.extend(groups(open.get(&MAILGUN_KEY), text, |b| {
            random_like(b, 20) && has_digit(b)
        }));
    }
    out.retain(|span| !grafana_placeholder(text, span));
    out
}

/// Whether the token at `span` is a Grafana API key whose key (`k`, once
/// the base64 JSON is decoded) is a placeholder (`EXAMPLE_KEY`, `<YOUR_KEY>`):
/// a documentation value.
fn grafana_placeholder(text: &str, span: &std::ops::Range<usize>) -> bool {
    use base64::Engine as _;
    // The span is the whole token, perhaps after an escaped line break.
    let token = &text[span.clone()];
    let Some(at) = token.find("eyJrIjo") else {
        return false;
    };
    let encoded = token[at..].trim_end_matches('=');
    base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(encoded)
        .ok()
        .and_then(|json| serde_json::from_slice::<serde_json::Value>(&json).ok())
        .and_then(|key| key.get("k")?.as_str().map(str::to_owned))
        .is_some_and(|k| {
            is_placeholder(&k) || !random_like(&k, 16) || !(has_digit(&k) || mixed_case(&k))
        })
}

pub(super) fn github(text: &str) -> Spans {
    // A generated body may draw no digit: then it mixes cases with few
    // vowels and no words (`ghp_YourPersonalAccessTokenHere` is words).
    tokens(Some(&GITHUB), text, |b| {
        random_like(b, 20)
            && (has_digit(b) || (b.len() >= 30 && mixed_case(b) && few_vowels(b) && !wordy(b)))
    })
}

pub(super) fn openai<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| {
        tokens(Some(&OPENAI), text, |b| {
            // A Kubernetes pod's name (`sk-embedder-7c9d5b8f6d-q2lzx`) is
            // lower case and hyphenated; keys mix cases.
            let pod = b
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
                && b.bytes().filter(|&c| c == b'-').count() >= 2;
            !b.starts_with("ant-") && !pod && (key_body(b) || marked_key(b))
        })
    });
    // Glued to an option, only a key with its marker: a branch or a label
    // may be named `sk-proj-…` too.
    found.stage(|| groups(Some(&OPENAI_GLUED), text, |k| marked_key(&k[3..])));
    found
}

/// Whether a key's body carries `T3BlbkFJ` (the base64 of "OpenAI"), as a
/// project key's random body does; a chance run such as `xxx` beside it
/// still makes one.
fn marked_key(b: &str) -> bool {
    b.len() >= 60 && b.contains("T3BlbkFJ") && distinct_chars(b) >= 20
}

pub(super) fn anthropic(text: &str) -> Spans {
    tokens(Some(&ANTHROPIC), text, key_body)
}

pub(super) fn slack<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| {
        tokens(Some(&SLACK_TOKEN), text, |b| {
            // `_` stands in a refresh token's random body, and in a name
            // (`xoxp-user_token_v2`), which is in one case.
            // A documentation sample counts up and is short
            // (`xoxb-1234-5678-abcdef`); a token's secret part alone runs to 24.
            let sample = b.len() < 32 && counts_up(b);
            random_like(b, 10) && has_digit(b) && (!b.contains('_') || mixed_case(b)) && !sample
        })
    });
    found.stage(|| groups(Some(&SLACK_HOOK), text, |b| random_like(b, 8)));
    // A triple without Slack's host counts in a text about Slack.
    if may_hold_hook_path(text.as_bytes()) && contains_ignoring_case(text, "slack") {
        found.stage(|| {
            groups(Some(&SLACK_HOOK_PATH), text, |b| {
                random_like(b, 20) && mixed_case(b) && (has_digit(b) || b.len() >= 24)
            })
        });
    }
    found
}

/// Whether a webhook triple may be in the text: a capital or a digit, a
/// `/` or `-`, then `B` (a byte scan far cheaper than the pattern's).
fn may_hold_hook_path(bytes: &[u8]) -> bool {
    memchr::memchr2_iter(b'/', b'-', bytes).any(|at| {
        at > 0
            && bytes.get(at + 1) == Some(&b'B')
            && (bytes[at - 1].is_ascii_uppercase() || bytes[at - 1].is_ascii_digit())
    })
}

/// A generated body has a digit, or, 20 characters or longer, mixed case:
/// one in seventy random base62 bodies of 24 has no digit.
fn generated(body: &str) -> bool {
    has_digit(body) || (body.len() >= 20 && mixed_case(body))
}

pub(super) fn google<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let accept = |b: &str| random_like(b, 20) && generated(b);
    let mut found = Found::new(stands);
    found.stage(|| tokens(Some(&GOOGLE), text, accept));
    found.stage(|| tokens(Some(&GOOGLE_PACKED), text, accept));
    found
}

pub(super) fn stripe(text: &str) -> Spans {
    tokens(Some(&STRIPE), text, |b| random_like(b, 16) && generated(b))
}

pub(super) fn npm<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| tokens(Some(&NPM_TOKEN), text, |b| random_like(b, 36)));
    if contains_ignoring_case(text, "npm") {
        found.stage(|| groups(Some(&NPM_LEGACY), text, |v| distinct_chars(v) >= 8));
    }
    // `_auth` named beside its value in prose: a value that decodes to
    // `user:password` is the credential, whatever the words between.
    if text.contains("_auth") {
        found.stage(|| groups(Some(&NPM_AUTH_NAMED), text, decodes_to_login));
    }
    found.stage(|| {
        groups(Some(&NPM_RC), text, |v| {
            // `npm config delete …:_authToken --location=project`: a flag.
            // A sentence's full stop is not the value's ("use a scoped
            // `_authToken` instead.").
            let v = v.trim_end_matches(['.', ',', ';', ':', ')']);
            // A redirection (`… :_authToken >/dev/null`) reads the value.
            v.len() >= 8
                && v.is_ascii()
                && !is_placeholder(v)
                && !word_like(v)
                && !v.starts_with(['-', '>'])
        })
    });
    found
}

lazy_regex!(
    /// Base64 within a few words after `_auth` ("the _auth from the
    /// runner's .npmrc (…)"): judged by [`decodes_to_login`].
    NPM_AUTH_NAMED,
    r"\b_auth\b[^\n]{0,60}?[\s(\x22'`:=]([A-Za-z0-9+/]{16,}={0,2})(?:[^A-Za-z0-9+/=]|$)"
);

/// Whether base64 decodes to a `user:password` pair of printable ASCII.
fn decodes_to_login(encoded: &str) -> bool {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()
        .and_then(|plain| String::from_utf8(plain).ok())
        .is_some_and(|plain| {
            plain.split_once(':').is_some_and(|(user, password)| {
                !user.is_empty()
                    && password.len() >= 4
                    && plain.bytes().all(|b| b.is_ascii_graphic())
            })
        })
}

/// A JSON Web Token, also one a line wrap split: the segments may continue
/// on the next line after a break (and a `\` continuation or indentation).
pub(super) fn jwt(text: &str) -> Spans {
    let mut out = matches(Some(&JWT), text);
    out.extend(matches(Some(&JWT_LABELLED), text));
    let whole: Vec<usize> = out.iter().map(|s| s.start).collect();
    out.extend(
        JWT_WRAPPED
            .find_iter(text)
            // A token whole on its line is the plain match's; the wrapped
            // pattern would run on into the next line.
            .filter(|m| !whole.contains(&m.start()))
            .filter(|m| {
                let joined: String = m.as_str().split_whitespace().collect();
                // A line break written out (`\n` in a JSON log) goes whole.
                let joined = joined.replace("\\n", "").replace("\\r", "");
                let joined = joined.replace(['\\', '`', '"', '\'', '+', '#', '<', '>'], "");
                JWT.is_match(&joined)
            })
            .map(|m| m.range()),
    );
    out
}

lazy_regex!(
    /// 32 hexadecimal characters standing alone: a Twilio auth token or API
    /// key secret when the text is about Twilio.
    TWILIO_TOKEN,
    r"(?:^|[^A-Za-z0-9_])([0-9A-Za-z]{32})(?:$|[^A-Za-z0-9_])"
);
// What makes a text about Twilio: the vendor's name, its webhook
// validator or an account or API key SID. Three patterns, each with a
// literal the regex engine can skip to; as one alternation they had none
// and cost a full scan of every text.
lazy_regex!(
    /// Twilio by name, or by its client called with the account SID first
    /// (`Client(account_sid, …)`).
    TWILIO_NAME,
    r"(?i)twilio|트윌리오|トゥイリオ|特维利奥|\bClient\(\s*account_?sid\s*,"
);
lazy_regex!(TWILIO_VALIDATOR, r"\bRequestValidator\b");
lazy_regex!(TWILIO_SID, r"(?:AC|SK)[0-9a-f]{32}");
lazy_regex!(
    /// What Twilio is used for, without its name: SMS, subaccounts, an
    /// "auth token" (the name of its secret), a message sent through its
    /// Python client (`messages.create(to=…, from_=…)`; Anthropic's
    /// client has the call but no sender). A
    /// weaker cue, so the value must be hex and called a token beside it.
    TWILIO_HINT,
    r"(?i)\bsms\b|subaccount|\bauth[ _-]?token\b|\.messages\.create\([^)]{0,200}?\bfrom_\s*="
);
lazy_regex!(
    /// A bot id, a colon and the 35-character secret, also after `bot` as
    /// the bot API's path and its clients write it (`/bot7202…`,
    /// `Token "bot7202…"`), glued to a short flag (`gh secret set … -b7202…:AA…`) or to a label's colon
    /// (`token:7202…`, `令牌：7202…:AA…`), but not after a number's colon.
    TELEGRAM,
    r"(?:^|[^A-Za-z0-9_:]|(?:^|[^A-Za-z0-9_])bot|[^0-9:\s]\s?:|\s-b)(\d{5,12}:[A-Za-z0-9_-]{34,36})(?:$|[^A-Za-z0-9_-])"
);
lazy_regex!(
    /// Three dot-separated parts: the bot's id in base64, a timestamp and
    /// an HMAC. An ellipsis after the HMAC's 27 or more characters
    /// truncates nothing that was secret.
    DISCORD_TOKEN,
    r"(?:^|[^A-Za-z0-9_.-])([A-Za-z0-9_-]{23,28})\.([A-Za-z0-9_-]{6,7})\.([A-Za-z0-9_-]{27,40})(?:$|[^A-Za-z0-9_.-]|\.(?:$|\s|\.))"
);
lazy_regex!(
    DISCORD_WEBHOOK,
    r"(?i)discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d+/([A-Za-z0-9_-]{20,})|discord://([A-Za-z0-9_-]{60,70})@\d{17,20}|discord://\d{17,20}/([A-Za-z0-9_-]{60,70})|/api/webhooks/\d{17,20}/([A-Za-z0-9_-]{60,70})"
);
lazy_regex!(
    /// A webhook's token given apart from its id (Ansible's
    /// `community.general.discord`, Apprise, discord.py's `Webhook.partial`,
    /// discord.js's `WebhookClient`, disgo's `webhook.NewClient`), in a
    /// text about Discord or beside the webhook's snowflake id.
    DISCORD_WEBHOOK_TOKEN,
    r#"(?i)webhook[._-]?token["']?\s*[:=]\s*["']?([A-Za-z0-9_-]{60,70})(?:$|[^A-Za-z0-9_-])|WebhookClient\(\s*\{\s*id:\s*["']\d{17,20}["']\s*,\s*token:\s*["']([A-Za-z0-9_-]{60,70})["']|Webhook\.partial\(\s*\d{17,20}\s*,\s*["']([A-Za-z0-9_-]{60,70})["']|WebhookClient\(\s*["']\d{17,20}["']\s*,\s*["']([A-Za-z0-9_-]{60,70})["']|\bsnowflake\.MustParse\(\s*"\d{17,20}"\s*\)\s*,\s*"([A-Za-z0-9_-]{60,70})""#
);
lazy_regex!(
    /// A snowflake, Discord's 17-to-20-digit id, set as a webhook's id
    /// (`webhook_id = 1208…`).
    WEBHOOK_SNOWFLAKE,
    r#"(?i)\bwebhook_id["']?\s*[:=]\s*["']?\d{17,20}\b"#
);
lazy_regex!(
    /// A webhook written out as its id and its token ("webhook id
    /// 7488…, token obSl…"), or as the path's tail without its host
    /// (`7488…/obSl…`, an access log's `POST /api/webhooks/7488…/obSl…`):
    /// a 17-to-20-digit snowflake and a 60-to-70 character token are
    /// Discord's shapes.
    DISCORD_ID_TOKEN,
    r#"(?i)\bid\s*[:=]?\s*\d{17,20}\s*[,;]?\s*(?:and\s+)?(?:the\s+)?token\s*[:=]?\s*["'`]?([A-Za-z0-9_-]{60,70})(?:$|[^A-Za-z0-9_-])|(?:^|[\s"'`(=/])\d{17,20}/([A-Za-z0-9_-]{60,70})(?:$|[^A-Za-z0-9_/-])"#
);
/// A Twilio auth token or API key secret in a text about Twilio.
pub(super) fn twilio(text: &str) -> Spans {
    let word = |at: usize| {
        text.as_bytes()
            .get(at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    };
    let sid = || {
        TWILIO_SID
            .find_iter(text)
            .any(|m| (m.start() == 0 || !word(m.start() - 1)) && !word(m.end()))
    };
    let basic = basic_auth_tokens(text);
    if !has_bare_run_of_32(text) {
        return basic;
    }
    let named = TWILIO_NAME.is_match(text) || TWILIO_VALIDATOR.is_match(text) || sid();
    if !named && !TWILIO_HINT.is_match(text) {
        return Vec::new();
    }
    // An API key secret is 32 letters and digits; an auth token is 32 hex
    // digits. A SID is 34 characters (`AC`/`SK` and 32 hex) and so never
    // matches.
    TWILIO_TOKEN
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|m| {
            let b = m.as_str();
            let hex = b.bytes().all(|c| c.is_ascii_hexdigit());
            // One secret in some 300 draws has no digit; mixed case and
            // no words still tell it from a name.
            (has_digit(b) || (!hex && mixed_case(b) && !wordy(b) && distinct_chars(b) >= 16))
                && has_letter(b)
                && distinct_chars(b) >= if hex { 8 } else { 12 }
                && !(hex && digest_line(text, m.range()) && !labelled_token(text, m.start()))
                && !hyphenated(text, m.start())
                && !labelled_id(text, m.start())
                && !(hex && file_digest(text, m.range()))
                && !(hex && commit_line(text, m.start()))
                && (named
                    || (hex && called_token(text, m.range()) && !digest_line(text, m.range())))
        })
        .map(|m| m.range())
        .chain(basic)
        .collect()
}

lazy_regex!(
    /// HTTP Basic credentials, base64 after the scheme.
    BASIC_AUTH,
    r"\bBasic\s+([A-Za-z0-9+/]{40,}={0,2})"
);

/// Basic credentials that decode to an account SID and a Twilio auth
/// token (`AC…:…`): the header carries the token.
fn basic_auth_tokens(text: &str) -> Spans {
    use base64::Engine as _;
    if !text.contains("Basic ") {
        return Vec::new();
    }
    groups(Some(&BASIC_AUTH), text, |encoded| {
        base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
            .and_then(|plain| String::from_utf8(plain).ok())
            .and_then(|plain| {
                let (user, token) = plain.split_once(':')?;
                Some(
                    user.len() == 34
                        && user.starts_with("AC")
                        && token.len() == 32
                        && token.bytes().all(|b| b.is_ascii_alphanumeric()),
                )
            })
            .unwrap_or(false)
    })
}

/// Tokens of other kinds, whose name beside a value does not make it a
/// Twilio token (`csrf token`, `max tokens`).
const OTHER_TOKENS: &[&str] = &[
    "csrf",
    "xsrf",
    "idempotency",
    "page",
    "cache",
    "next",
    "max",
    "file",
    "request",
    "trace",
    "sync",
    "refresh",
    "cancellation",
];

/// Whether the value at `at` is called a token on its own line: `token`
/// in the words just before it (`validator was built with token …`) or
/// just after it (`… is the token we found`, `… (the secondary auth
/// token)`).
fn called_token(text: &str, at: std::ops::Range<usize>) -> bool {
    let line_start = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at.end..].find('\n').map_or(text.len(), |i| at.end + i);
    let from = text.floor_char_boundary(at.start.saturating_sub(24).max(line_start));
    let to = text.ceil_char_boundary((at.end + 32).min(line_end));
    // A token of another kind is no name of the secret; its qualifier may
    // stand before the window.
    let near = |window: std::ops::Range<usize>| {
        let lower = text[window.clone()].to_ascii_lowercase();
        lower.match_indices("token").any(|(i, _)| {
            let before = text[line_start..window.start + i].to_ascii_lowercase();
            let qualifier = before.split_whitespace().next_back().unwrap_or("");
            !lower[i + 5..].starts_with('s')
                && !OTHER_TOKENS.contains(&qualifier.trim_end_matches(['-', '_']))
        })
    };
    near(from..at.start) || near(at.end..to)
}

/// Whether the line around `at`, or the command line before it, says its
/// hex is a digest (`md5sum`, `hexdigest()`, a checksum or an ETag), not a
/// token.
fn digest_line(text: &str, at: std::ops::Range<usize>) -> bool {
    let line_start = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let start = text[..line_start.saturating_sub(1)]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = text[at.end..].find('\n').map_or(text.len(), |i| at.end + i);
    let line = text[start..end].to_ascii_lowercase();
    ["md5", "sha1", "hexdigest", "checksum", "etag", "digest"]
        .iter()
        .any(|w| line.contains(w))
        // "hashes", not `#hashtag` or HashiCorp.
        || line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| matches!(w, "hash" | "hashes" | "hashed"))
}

/// Whether the hex value at `at` opens a line of `git log --oneline`'s
/// output: the line starts with it, and every line above it up to the
/// `git log` command (after a shell's prompt) opens with a commit's hex
/// name too. A hash opening a
/// line elsewhere in a text that ran `git log` is judged as any value.
fn commit_line(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    // Only a graph's `*` and `|` may stand before the name.
    let lead = text[line_start..at].trim_start_matches(['*', '|', ' ']);
    if !lead.is_empty() || line_start == 0 {
        return false;
    }
    for line in text[..line_start - 1].rsplit('\n') {
        // The command itself, after a shell's prompt.
        let command = line.trim_start_matches(|c: char| c.is_whitespace() || "$>#%".contains(c));
        if command.starts_with("git log") {
            return true;
        }
        let name = line.trim_start_matches(['*', '|', ' ']);
        let hex = name.bytes().take_while(u8::is_ascii_hexdigit).count();
        if !(7..=40).contains(&hex) || !name[hex..].starts_with(' ') {
            return false;
        }
    }
    false
}

/// Whether the value starting at `at` is labelled a token or passed to a
/// client on its own line, so that a digest named nearby (a webhook's
/// HMAC-SHA1 signature) does not make it one; the key an HMAC was
/// computed "with" is the auth token itself.
fn labelled_token(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let from = text.floor_char_boundary(at.saturating_sub(48).max(line_start));
    let before = text[from..at].to_ascii_lowercase();
    let keyed = before.trim_end_matches([' ', ':', '=', '"', '\'']);
    ["token", "secret", "client(", "auth"]
        .iter()
        .any(|w| before.contains(w))
        || ((keyed.ends_with("with key") || keyed.ends_with("using key"))
            && contains_ignoring_case(&text[line_start..], "hmac"))
}

/// Whether the value at `at` is labelled an id (`trace_id=`, `span_id:`,
/// `requestId=`, `trace …`, an error tracker's `event …`): a tracing,
/// request or event id, not a token. (A `sid` is a
/// Twilio resource's name, and no label of this kind.)
fn labelled_id(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches(['=', ':', ' ', '"', '\'']);
    let start = before
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = before[start..].to_ascii_lowercase();
    // `trace id …` labels the value by the word `id` alone; an error
    // tracker's `event …` is an id too.
    (word.len() >= 2 && word.ends_with("id") && !word.ends_with("sid"))
        || matches!(
            word.as_str(),
            "event" | "events" | "trace" | "span" | "job" | "message" | "correlation" | "request"
        )
}

/// Whether hex at `at` is a file's digest by where it stands: between dots
/// of a bundle's name (`app.91ab….js`), or first on a line and followed by
/// a file name, as `md5sum` lists them.
fn file_digest(text: &str, at: std::ops::Range<usize>) -> bool {
    let bytes = text.as_bytes();
    // In a file's name: after `.`, `/` or `-`, before an extension or a
    // suffix (`app.<hex>.js`, `/static/<hex>.js`, `main.<hex>-legacy.js`);
    // or a cache buster (`twilio.js?v=<hex>`).
    let named = matches!(bytes.get(at.end), Some(b'.' | b'-'))
        && bytes.get(at.end + 1).is_some_and(u8::is_ascii_alphabetic)
        && at.start > 0
        && matches!(bytes[at.start - 1], b'.' | b'/' | b'-' | b'_');
    let busted = ["?v=", "&v=", "?ver=", "?hash=", "?h="]
        .iter()
        .any(|p| text[..at.start].ends_with(p));
    let line_start = text[..at.start].rfind('\n').map_or(0, |i| i + 1);
    let listed = line_start == at.start
        && text[at.end..].starts_with("  ")
        && text[at.end..]
            .trim_start_matches([' ', '*'])
            .split_whitespace()
            .next()
            .is_some_and(|file| file.contains('.') || file.contains('/'));
    named || busted || listed
}

/// Whether the value at `at` continues a hyphenated name
/// (`node-modules-<hash>`): a letter or digit, then `-`, right before it.
fn hyphenated(text: &str, at: usize) -> bool {
    let before = &text.as_bytes()[..at];
    before.len() >= 2 && before.ends_with(b"-") && before[before.len() - 2].is_ascii_alphanumeric()
}

/// Whether `text` holds a word of exactly 32 ASCII letters and digits
/// (a word: a run of letters, digits and `_`): what [`TWILIO_TOKEN`]
/// matches, found by one pass over the bytes instead of a pattern scan of
/// every text.
fn has_bare_run_of_32(text: &str) -> bool {
    let bytes = text.as_bytes();
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    // `start` is always where a word may start. A window of 32 bytes from
    // there that holds a non-word byte rules out every start up to it, so
    // most of prose is skipped rather than read.
    let mut start = 0;
    while start + 32 <= bytes.len() {
        if let Some(at) = bytes[start..start + 32].iter().rposition(|b| !word(b)) {
            start += at + 1;
            continue;
        }
        let end = bytes[start..]
            .iter()
            .position(|b| !word(b))
            .map_or(bytes.len(), |at| start + at);
        if end - start == 32 && !bytes[start..end].contains(&b'_') {
            return true;
        }
        start = end + 1;
    }
    false
}

lazy_regex!(
    /// A Telegram token's secret half quoted alone (`"AA…"`, 35
    /// characters), its bot id kept apart to slip past a scanner
    /// (`TOKEN = BOT_ID + ":" + BOT_SECRET`).
    TELEGRAM_HALF,
    r#"["'](AA[A-Za-z0-9_-]{33})["']"#
);
lazy_regex!(
    /// A bot's numeric id, quoted or not, as Telegram's ids run.
    BOT_ID,
    r"(?i)bot[\w]*\s*[:=]\s*[\x22']?\d{8,10}\b"
);

/// A Telegram bot token, whole or split in two.
pub(super) fn telegram<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let secret = |s: &str| random_like(s, 30) && mixed_case(s) && distinct_chars(s) >= 12;
    let mut found = Found::new(stands);
    found.stage(|| {
        groups(Some(&TELEGRAM), text, |t| {
            secret(t.split_once(':').map_or("", |(_, s)| s))
        })
    });
    // The gate's word is the condition itself, so that ungated runs agree.
    if contains_ignoring_case(text, "bot") && BOT_ID.is_match(text) {
        found.stage(|| groups(Some(&TELEGRAM_HALF), text, secret));
    }
    found
}

/// Whether some dot-separated piece of `text` is six or seven token
/// characters following one that ends in 23 or more: the shape of a
/// token's first two parts, found by splitting at dots (a memchr scan),
/// far cheaper than the token pattern's scan of every text.
fn may_hold_discord_token(text: &str) -> bool {
    let token = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-');
    let mut pieces = text.split('.');
    let Some(mut previous) = pieces.next() else {
        return false;
    };
    pieces.any(|piece| {
        let middle = (6..=7).contains(&piece.len()) && piece.bytes().all(token);
        let first = middle && previous.len() >= 23 && previous.bytes().rev().take(23).all(token);
        previous = piece;
        first
    })
}

/// A Discord bot token (its first part decodes to a numeric id) or webhook
/// URL.
pub(super) fn discord<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    use base64::Engine as _;
    let mut found = Found::new(stands);
    found.stage(|| {
        may_hold_discord_token(text)
            .then(|| DISCORD_TOKEN.captures_iter(text))
            .into_iter()
            .flatten()
            .filter_map(|c| {
                // The id's base64 opens with a digit's letter, never a dash: a
                // dash before it belongs to the text (a shell default's
                // `${DISCORD_TOKEN:-…}`).
                let first = c.get(1)?;
                let id = first.as_str().trim_start_matches('-');
                let decoded = base64::engine::general_purpose::URL_SAFE_NO_PAD
                    .decode(id)
                    .unwrap_or_default();
                ((17..=20).contains(&decoded.len())
                    && decoded.iter().all(u8::is_ascii_digit)
                    && random_like(&c[3], 20)
                    && !counts_up(&c[3]))
                .then(|| first.end() - id.len()..c.get(3).map_or(first.end(), |m| m.end()))
            })
    });
    if contains_ignoring_case(text, "webhook") || contains_ignoring_case(text, "discord") {
        // A webhook token is base64url, so of mixed case: a digest is not.
        found.stage(|| {
            groups(Some(&DISCORD_ID_TOKEN), text, |b| {
                random_like(b, 20) && mixed_case(b)
            })
        });
    }
    // discord.js's `WebhookClient`, discord.py's `Webhook.partial` and
    // disgo's `snowflake.MustParse` name their vendor by themselves, as
    // does a webhook's id given as a snowflake beside its token.
    if contains_ignoring_case(text, "discord")
        || text.contains("WebhookClient(")
        || text.contains("Webhook.partial(")
        || text.contains("snowflake.MustParse(")
        || (contains_ignoring_case(text, "webhook_id") && WEBHOOK_SNOWFLAKE.is_match(text))
    {
        found.stage(|| groups(Some(&DISCORD_WEBHOOK), text, |b| random_like(b, 20)));
        found.stage(|| groups(Some(&DISCORD_WEBHOOK_TOKEN), text, |b| random_like(b, 20)));
    }
    found
}

mod aws;
mod azure;
pub(super) use aws::aws;
pub(super) use azure::azure;
mod private_key;
pub(super) use private_key::private_key;
mod putty;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod service_tests;

#[cfg(test)]
mod placement_tests;
