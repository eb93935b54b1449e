//! Generic credential assignments: a literal value given to a password,
//! secret, token or API key in code, configuration or an environment file,
//! and a password written as prose. Values passed on a command line are
//! [`super::command_line`]'s.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Captures;

use super::gate::{Doors, Gates};
use super::pattern::{
    Found, Spans, candidates, contains_ignoring_case, groups, lazy_regex, lead_lower,
};
use super::sql;
use super::value::{
    distinct_chars, few_vowels, has_digit, is_placeholder, mixed_case, password_symbol,
    random_like, word_like, wordy,
};
pub(super) use config::app_password;
use keys::{HARMLESS_TOKEN_WORDS, bare_key, generated_key};
pub(super) use keys::{KEY_WORDS, KeyClass, key_class};
pub(super) use literal::literal_secret;
use literal::{
    bare_key_value, generated_value, local_tag, namespaced, next_parameter, tag_reads, uuid_value,
};
use prose::{
    ACCOUNT_PAIR, ADMIN_PAIR, ANSWERED_PASSWORD, BARE_PASSWORD, BARE_PASSWORD_ABROAD,
    LOGIN_CONTEXT, PASSWORD_CHANGED_TO, PROSE_PASSWORD, PROSE_SECRET, PROSE_SECRET_ABROAD,
    PROSE_TOKEN_LATER, TOKEN_THEN_VALUE, USE_PAIR, WINDOWS_ACCOUNT_PAIR, WORDS_THEN_PASSWORD,
    diceware, drawn_capitals, generated_password, made_up, prose_password, prose_secret,
    prose_secret_abroad, word_and_number, word_number_symbol_word,
};

lazy_regex!(
    /// A key named for a secret, its operator and its value; a standard
    /// YAML tag before the value (`!!str s3cr3t…`) is skipped, as the value
    /// after it is literal, and so is webpack's `JSON.stringify(` around a
    /// literal that `DefinePlugin` inlines. Unquoted, a value that opens
    /// with a parenthesis runs to the next space when it is long (a
    /// generated key of symbols, `(hcp%89)maeh…`). A key may end in a
    /// version or a number (`_OLD`, `_V2`, `VAULT_UNSEAL_KEY_1`), or
    /// name what its secret opens (`password_for_wifi`). Objective-C's
    /// string literal opens with `@`.
    ASSIGNMENT,
    r#"(?:^|[^A-Za-z0-9_.-])(?:\\?["'`])?(\.?_?(?:[A-Za-z][A-Za-z0-9_.-]*)?(?i:pass(?:word|wd|phrase)?|passwort|kennwort|contrase(?:ñ|n)a|senha|wachtwoord|pwd|secret[_-]?id|secret[_-]?(?:value|string|access|data)|secret|token|key(?:[_-]?base)?|credentials?|auth(?:tok|[_-]?code)?|pat|psk|[_-]?pw|bindpw|sonar[._-]login)(?:_(?i:for)_[A-Za-z0-9]+)?(?:[_-](?i:b64|base64))?(?:[_-](?i:old|new|legacy|fallback|backup|previous|prev|current|primary|secondary|rotated|v[0-9]|[0-9]{1,2}))?)(?:\\?["'`]\]?|\])?([ \t]*)(:=|\?=|\|\|=|=>|=|:)([ \t]*)(?:!![A-Za-z]+[ \t]+|JSON\.stringify\([ \t]*)?([rRuU]?"""[^"\n]+"""|[rRuU]?'''[^'\n]+'''|(?:[rR]?[bB]|@)"[^"\n]*"|(?:[rR]?[bB])'[^'\n]*'|\\"[^"\\\n]*\\"|"(?:[^"\n]|\\\n)*"|'[^'\n]*'|`[^`\n]*`|\([^\s"'`]{31,}|(?:[^\s"'`,;&)}\]]|&[^&\s])+)"#
);
lazy_regex!(
    AUTHORIZATION,
    r#"(?i)\b(?:proxy-)?authorization\\?["']?\]?\s*(?:[:=]\s*|\s+)(?:[fbr]?\\?["'])?(?:bearer|token|basic|digest|apikey|sso-key)\s+([^\s"'\\,;]+)"#
);
lazy_regex!(BEARER, r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)");
lazy_regex!(DOTTED_IDENTIFIER, r"^[A-Za-z_]+(?:\.[A-Za-z_]+)+$");
lazy_regex!(
    KEY_VALUE_ATTRIBUTES,
    r#"(?i)\b(?:key|name)\s*=\s*["']([A-Za-z0-9_.:-]+)["']\s+value\s*=\s*["']([^"'\n]*)["']"#
);
lazy_regex!(
    /// An absolute path to a file: where a secret is kept, not the secret.
    ABSOLUTE_PATH,
    r"^/[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+$"
);
lazy_regex!(
    /// A call that sets a named value: `define('DB_PASSWORD', '…')`,
    /// `setenv("API_TOKEN", "…")`, `config.set("password", "…")`, a
    /// settings table's row (`VALUES ('smtp_password', '…')`).
    SETTER_CALL,
    r#"\b[A-Za-z_][A-Za-z0-9_.]*[ \t]?\(\s*["']([A-Za-z0-9_.-]+)["']\s*,\s*["']([^"'\n]+)["']"#
);
lazy_regex!(
    /// A setter named for what it sets, with one literal:
    /// `ds.setPassword("…")`, `builder.withApiKey("…")`, Django's
    /// `user.set_password("…")`.
    NAMED_SETTER,
    r#"\b(?:set|with)([A-Z][A-Za-z0-9]*|_[a-z][a-z0-9_]*)\(\s*("[^"\n]+"|'[^'\n]+')\s*\)"#
);
lazy_regex!(
    /// A user name and a literal password handed to a credentials
    /// constructor (.NET's `NetworkCredential`, Java's
    /// `PasswordAuthentication`, Apache's `UsernamePasswordCredentials`,
    /// `HTTPBasicAuth`) or to an `auth=` pair (`AUTH = ("svc", "…")` too).
    CREDENTIAL_PAIR,
    r#"\b(?:NetworkCredential|UsernamePasswordCredentials?|PasswordAuthentication|PasswordCredential|HTTPBasicAuth|HttpBasicAuth|BasicAuth|BasicCredentials|(?i:auth)\s*=\s*)\(\s*["'][^"'\n]+["']\s*,\s*(?:new\s+char\[\]\s*)?("[^"\n]+"|'[^'\n]+')"#
);
lazy_regex!(
    /// A connection string or ODBC section that names its user, or a YAML
    /// block with a `user:` beside it: there, `PWD` is the password, not
    /// the working directory.
    USER_ID,
    r"(?i)(?:^|[;\s\x22'])(?:UID|User\s?ID)\s*=|(?m:^[ \t]*(?:user(?:name)?|login)[ \t]*:[ \t]*\S)"
);
lazy_regex!(
    /// A property list's key and its string (`<key>DB_PASSWORD</key>
    /// <string>…</string>`).
    PLIST_PAIR,
    r"<key>([A-Za-z0-9_.-]+)</key>\s*<string>([^<\n]+)</string>"
);
lazy_regex!(CONSTANT_IDENTIFIER, r"^[A-Za-z]+(?:_[A-Za-z]+)+$");
lazy_regex!(
    /// A PowerShell command (`Read-Host`, `Get-Secret`): code, not a value.
    CMDLET,
    r"^[A-Z][a-z]+-[A-Z][A-Za-z]+$"
);

lazy_regex!(
    /// An XML element named for a secret: Maven's `<password>`, .NET's
    /// `<ClientSecret>`, FileZilla's `<Pass encoding="base64">`.
    XML_ELEMENT,
    r#"<([A-Za-z][A-Za-z0-9_.:-]{0,40})(?:\s+[\w:.-]+\s*=\s*"[^"\n]*")*>([^<\n]{1,200})</([A-Za-z][A-Za-z0-9_.:-]{0,40})>"#
);
lazy_regex!(
    /// An element whose `name` or `key` attribute names a secret, the
    /// value its text (`<Property name="password">…</Property>`,
    /// `<entry key="api.token">…</entry>`).
    NAMED_ELEMENT,
    r#"<[A-Za-z][\w.:-]{0,40}\s+(?:name|key)\s*=\s*"([A-Za-z0-9_.-]+)"\s*>([^<\n]{1,200})</[A-Za-z][\w.:-]{0,40}>"#
);
lazy_regex!(
    /// A password set in SQL (`CREATE USER … IDENTIFIED BY '…'`,
    /// `ALTER ROLE … PASSWORD '…'`, SQL Server's `ALTER LOGIN … WITH
    /// PASSWORD = N'…'`, MySQL 5's `GRANT … TO … IDENTIFIED BY '…'`).
    SQL_PASSWORD,
    r"(?i)\b(?:CREATE|ALTER)\s+(?:USER|ROLE|LOGIN)\b[^;\n]*?\b(?:IDENTIFIED\s+BY|PASSWORD\s*=?)\s*N?(?:'([^'\n]+)'|\x22([^\x22\n]+)\x22)|\bGRANT\b[^;]*?\bTO\b[^;]*?\bIDENTIFIED\s+(?:WITH\s+\w+\s+)?BY\s*(?:'([^'\n]+)'|\x22([^\x22\n]+)\x22)"
);

lazy_regex!(
    /// A line of PgBouncer's `userlist.txt`, `"user" "password"` (a
    /// comment may follow, grep's `file:line:` may lead): read only in a
    /// text that names the file or its list ("the pgbouncer userlist").
    USERLIST,
    r#"(?m)^[ \t]*(?:[\w./-]+:\d+:)?"[^"\n]+"[ \t]+"([^"\n]+)"[ \t]*(?:#[^\n]*)?\r?$"#
);

lazy_regex!(
    /// A `.pgpass` line, `host:port:database:user:password`, on PostgreSQL's
    /// usual ports or any (`*`), at a line's start or after a label that
    /// names the file ("pgpass line: …").
    PGPASS,
    r"(?m)(?:^[ \t]*|(?i:pgpass)\b[^:\n]{0,24}:[ \t]*)[A-Za-z0-9.*-]+:(?:543[0-9]|6432|\*):[\w.*-]+:[\w.*-]+:([^\s:]{6,})[ \t]*$"
);

lazy_regex!(
    /// A registry value as `reg query` prints it (`DefaultPassword
    /// REG_SZ …`): its name, then its value.
    REG_VALUE,
    r"(?m)^[ \t]*([A-Za-z][\w.-]*)[ \t]+REG_(?:SZ|EXPAND_SZ)[ \t]+(\S+)[ \t]*\r?$"
);

/// The words each pattern needs.
pub(super) static GATES: LazyLock<Gates> = LazyLock::new(|| {
    Gates::with_also(
        vec![
            (&ASSIGNMENT, KEY_WORDS),
            (&AUTHORIZATION, &["authorization"]),
            (&BEARER, &["bearer"]),
            (&KEY_VALUE_ATTRIBUTES, &["value"]),
            (&XML_ELEMENT, KEY_WORDS),
            (&NAMED_ELEMENT, KEY_WORDS),
            (&SETTER_CALL, KEY_WORDS),
            (&SQL_PASSWORD, &["identified", "password"]),
            (&USERLIST, &["userlist"]),
            (&PROSE_PASSWORD.pattern, PROSE_PASSWORD.words),
            (
                &BARE_PASSWORD,
                &["pass", "pwd", "pw", "senha", "kennwort", "wachtwoord"],
            ),
            (&ANSWERED_PASSWORD, &["\\bpw", "\\bpass"]),
            (&PASSWORD_CHANGED_TO, &["\\bpw", "\\bpass", "\\bcommunity"]),
            (&TOKEN_THEN_VALUE, &["\\btoken\\b"]),
            (&TYPED_DECLARATION, KEY_WORDS),
            (
                &WORDS_THEN_PASSWORD,
                &[
                    "\\bpass",
                    "\\bpw",
                    "contrase",
                    "senha",
                    "wachtwoord",
                    "kennwort",
                    "密码",
                    "パスワード",
                ],
            ),
            (&ADMIN_PAIR, &["admin", "root"]),
            (&USE_PAIR, &["use"]),
            (&ACCOUNT_PAIR, &["account", "login", "cred", "user"]),
            (&WINDOWS_ACCOUNT_PAIR, &["\\"]),
            (&PROSE_SECRET, &["\\bkey\\b", "\\btoken\\b", "\\bsecret\\b"]),
            (&PROSE_TOKEN_LATER, &["\\btoken\\b"]),
            (
                &PGPASS,
                &[
                    ":5430:", ":5431:", ":5432:", ":5433:", ":5434:", ":5435:", ":5436:", ":5437:",
                    ":5438:", ":5439:", ":6432:", ":*:",
                ],
            ),
            (&BARE_PASSWORD_ABROAD.pattern, BARE_PASSWORD_ABROAD.words),
            (&PROSE_SECRET_ABROAD.pattern, PROSE_SECRET_ABROAD.words),
            (&NAME_VALUE, &["value"]),
            (&REG_VALUE, &["reg_sz", "reg_expand_sz"]),
            (&config::PASSWORD_LIST, config::LIST_WORDS),
            (&config::RELAY_LOGIN, config::RELAY_WORDS),
            (&config::NETRC, &["password"]),
            (&config::MAIL_ACCOUNT, &["pass"]),
            (&config::STATS_AUTH, &["stats"]),
            (&config::REDIS_CONFIG_GET, &["requirepass", "masterauth"]),
            (&config::DEVICE_SECRET, config::DEVICE_WORDS),
            (&debugger::PRINTED, debugger::DEBUGGER_WORDS),
            (&robot::VARIABLE, robot::VARIABLE_WORDS),
            (
                &DECLARATION,
                &[
                    "#define",
                    "\\bset\\b",
                    "\\bsetw\\b",
                    "pass",
                    "secret",
                    "token",
                    "apikey",
                    "\\bstr",
                    "securestring",
                    "\\bproperty\\b",
                    "\\bvalue\\b",
                    "requirepass",
                    "zeroizing",
                    "header",
                    "env",
                    "setx",
                    "<entry",
                ],
            ),
            (&WRAPPED_VALUE, KEY_WORDS),
            (&CEPH_KEY, &["ceph", "[client."]),
            (&HCL_DEFAULT, &["default"]),
            (&GRADLE_SIGNING, &["storepassword", "keypassword"]),
            (&blocks::TEMPLATE_DEFAULT, &["default:"]),
            (&blocks::CONSUL_TOKENS, &["tokens"]),
            (&blocks::CONSUL_ENCRYPT, &["encrypt"]),
            (&blocks::POSTMAN_APIKEY, &["apikey"]),
            (
                &blocks::OPENVPN_AUTH_FILE,
                &["openvpn", "auth-user-pass", "vsftpd"],
            ),
            (
                &blocks::SECRET_CHILDREN,
                &[
                    "<tokens",
                    "<secrets",
                    "<credentials",
                    "<keys",
                    "<api",
                    "<passwords",
                ],
            ),
            (
                &DIRECTIVE,
                &[
                    "requirepass",
                    "masterauth",
                    "auth_pass",
                    "auth-pass",
                    "sentinel-pass",
                    "bindpw",
                    "bind_pw",
                    "masterpassword",
                    "passwd",
                    "password",
                    "secret",
                    "psk",
                    "rootpw",
                ],
            ),
            (&SECURE_STRING, &["convertto-securestring"]),
            (&NAMED_SETTER, KEY_WORDS),
            (&calls::BUILDER_SECRET, calls::BUILDER_WORDS),
            (&CREDENTIAL_PAIR, &["credential", "auth"]),
            (&calls::HASHED_LITERAL, calls::HASH_WORDS),
            (&PLIST_PAIR, &["<key>"]),
            (&calls::CALL_CREDENTIAL, calls::CALL_WORDS),
            (&calls::BYTES_SECRET, calls::BYTES_WORDS),
            (&calls::BROWSER_FILL, calls::FILL_WORDS),
            (&calls::SYMBOL_SET, KEY_WORDS),
            (&calls::KEYED_TUPLE, KEY_WORDS),
            (&calls::FALLBACK_LITERAL, calls::FALLBACK_WORDS),
            (&calls::COMPARED_LITERAL, calls::COMPARED_WORDS),
        ],
        // Each of these also needs its closing tag or its call's
        // parenthesis, a line break, a keyword or a question mark.
        vec![
            (&XML_ELEMENT, &["</"]),
            (&calls::BUILDER_SECRET, &["("]),
            (&WRAPPED_VALUE, &["\n"]),
            (&PROSE_TOKEN_LATER, &[":"]),
            (&ANSWERED_PASSWORD, &["?"]),
            (
                &PASSWORD_CHANGED_TO,
                &[
                    "\\brotated\\b",
                    "\\bchanged\\b",
                    "\\breset\\b",
                    "\\bset\\b",
                    "\\bupdated\\b",
                    "\\bchose\\b",
                    "\\bpicked\\b",
                    "\\bgave\\b",
                    "\\btyped\\b",
                    "\\bentered\\b",
                ],
            ),
            (
                &TYPED_DECLARATION,
                &[
                    "\\blet\\b",
                    "\\bconst\\b",
                    "\\bstatic\\b",
                    "\\bvar\\b",
                    "\\bval\\b",
                    "\\bprivate\\b",
                    "\\bpublic\\b",
                    "\\bstr\\b",
                    "\\bbytes\\b",
                    "\\bsecretstr\\b",
                    "\\bfinal\\b",
                ],
            ),
            (&SETTER_CALL, &["("]),
            (&NAMED_SETTER, &["("]),
            (&calls::KEYED_TUPLE, &["{"]),
            (&ADMIN_PAIR, &[" /", "\t/", "\n/", "\r/"]),
            (&USE_PAIR, &[" /", "\t/", "\n/", "\r/"]),
            (&ACCOUNT_PAIR, &[" /", "\t/", "\n/", "\r/"]),
            (&WINDOWS_ACCOUNT_PAIR, &[" /", "\t/"]),
        ],
    )
});

lazy_regex!(
    /// A Gradle signing config's password, set Groovy's way with a space
    /// and no `=` (`storePassword "…"`, `keyPassword '…'`).
    GRADLE_SIGNING,
    r#"\b((?:store|key)Password)[ \t]+("[^"\n]+"|'[^'\n]+')"#
);
lazy_regex!(
    /// A secret declared in code or configuration without `=` or `:`: a C
    /// `#define`, fish's `set -x`, Gradle's `storePassword "…"`, a Rust
    /// `const KEY: &str = "…"`, a `<property name="…password">` element,
    /// an answer file's `<…Password><Value>…`, Postman's `"key": …,
    /// "value": …`, Redis's `requirepass …`, Visual Basic's `Dim … As
    /// String = "…"`, PowerShell's `Set-Item Env:… '…'`, a Java XML
    /// properties `<entry key="…">`.
    DECLARATION,
    r#"#define\s+([A-Za-z_]\w*)\s+("[^"\n]*")|\b(?:set|set-option|setw|set-window-option)\s+(?:-[a-zA-Z]+\s+)*(@?[A-Za-z_][\w-]*)\s+(["']?[^\s"';<>|-][^\s"';]*["']?)|(?m:^\s*([A-Za-z_]\w*(?:[Pp]assword|[Ss]ecret|[Tt]oken|[Aa]pi[Kk]ey))\s+("[^"\n]*"|'[^'\n]*'))|\b(?:const|static)\s+([A-Za-z_]\w*)\s*:\s*&(?:'static\s+)?str\s*=\s*("[^"\n]*")|<property\s+name\s*=\s*["']([^"'\n]+)["']\s*>([^<\n]+)</property>|<(\w*Password)>\s*<Value>([^<\n]+)</Value>|["']key["']\s*:\s*["']([^"'\n]+)["']\s*,\s*["']value["']\s*:\s*("[^"\n]*")|(?m:^[+ \t]*)(requirepass)\s+([^\s`'"]+)|\b(?:let|const|var|val|final|auto)\s+(?:mut\s+)?([A-Za-z_]\w*)\s*(?::\s*[\w<>&:]+\s*)?=\s*(?:String::from|str|String|new\s+String|SecretString::(?:new|from)|Secret::new|SecretStr|Zeroizing::new)\(\s*("[^"\n]*"|'[^'\n]*')|\bparam\s+([A-Za-z_]\w*)\s+(?:string|securestring)\s*=\s*('[^'\n]*')|\b(?:set-header|add-header|proxy_set_header|add_header|RequestHeader\s+(?:set|add|append))\s+["']?([\w-]+)["']?\s+["']?([^\s"';]+)|(?m:(?:^|:)[ \t]*ENV[ \t]+([A-Za-z_]\w*)[ \t]+([^\s=]\S*))|\bsetx\s+([A-Za-z_]\w*)\s+("[^"\n]*"|[^\s"/]\S*)|"([\w.-]+)"\s*:\s*\{\s*"value"\s*:\s*("[^"\n]*")|\b(?:const|let|var)\s+([A-Za-z_]\w*)\s*=\s*[^\n;'"]*?(?:\|\||\?\?)\s*("[^"\n]{12,}"|'[^'\n]{12,}')|\b(?i:dim|const|private|public|friend)\s+(?:(?i:const)\s+)?([A-Za-z_]\w*)\s+(?i:as\s+string)\s*=\s*("[^"\n]*")|\b(?i:set-item)\s+(?:-(?i:path)\s+)?(?i:env):([A-Za-z_]\w*)\s+(?:-(?i:value)\s+)?("[^"\n]*"|'[^'\n]*')|<entry\s+key\s*=\s*["']([^"'\n]+)["']\s*>([^<\n]+)</entry>"#
);
lazy_regex!(
    /// A JSON key named for a secret whose value a pretty-printer wrapped
    /// onto the next line, or a YAML key whose value is a folded or
    /// literal block (its first line).
    WRAPPED_VALUE,
    r#""([A-Za-z_][\w.-]*)"[ \t]*:[ \t]*\r?\n[ \t]*("[^"\n]+")|(?m:^[ \t]*"?([A-Za-z_][\w.-]*)"?[ \t]*:[ \t]*(?:!![A-Za-z]+[ \t]+)?[>|][-+]?[ \t]*\r?\n[ \t]+([^\s#]+))"#
);
lazy_regex!(
    /// A Ceph keyring's key: `AQ` and 38 more base64 characters under a
    /// `[client.…]` section or given to `ceph-authtool`.
    CEPH_KEY,
    r"(?:\[client\.[\w.-]+\]|\bceph-authtool\b|\bceph\b)[^\[]*?\bkey\s*=\s*(AQ[A-Za-z0-9+/]{36}==)"
);
lazy_regex!(
    /// A name and its value as separate fields: a Kubernetes `env` entry
    /// (`- name: DB_PASSWORD` then `value: …`), an ECS or JSON
    /// `{"name": …, "value": …}` pair, Keycloak's `{"type": "password",
    /// "value": …}`.
    NAME_VALUE,
    r#"\b(?:name|type)\\?["']?\s*[:=]\s*\\?["']?([A-Za-z_][A-Za-z0-9_.-]*)\\?["']?\s*,?\s*(?:\\?["'][A-Za-z_]+\\?["']\s*:\s*\\?["'][^"'\n]{0,60}\\?["']\s*,\s*)?-?\s*\\?["']?value\\?["']?\s*[:=]\s*(\\?"[^"\n]*"|'[^'\n]*'|[^\s"',}]+)"#
);
lazy_regex!(
    /// A declaration with its type between the name and the literal
    /// (Rust's `let hmac_secret: &str = "…"`, TypeScript's `const apiKey:
    /// string = "…"`, Kotlin's `val token: String = "…"`, Python's
    /// annotated `api_token: str = "…"`): the name in group 1 (3), the
    /// quoted literal in group 2 (4).
    TYPED_DECLARATION,
    r#"\b(?:let|const|static|var|val|private|public)\s+(?:mut\s+|readonly\s+|const\s+|val\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*&?(?:'static\s+)?[A-Za-z_][A-Za-z0-9_<>\[\]?]{0,30}\s*=\s*("[^"\n]*"|'[^'\n]*')|(?m:^)[ \t]*(?:self\.)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*(?:str|bytes|SecretStr|Final|Final\[str\]|Optional\[str\])[ \t]*=[ \t]*("[^"\n]*"|'[^'\n]*')"#
);

lazy_regex!(
    /// A Terraform variable named for a secret, with a literal default
    /// (`variable "admin_password" { default = "…" }`).
    HCL_DEFAULT,
    r#"\bvariable\s+"([A-Za-z_][A-Za-z0-9_-]*)"\s*\{[^{}]*?\bdefault\s*=\s*("[^"\n]*")"#
);

lazy_regex!(
    /// A password directive of a configuration file, its value after a
    /// space (the line quoted after a colon too, `redis.conf line 9:
    /// requirepass …`): redis.conf `requirepass`/`masterauth` (and Sentinel's
    /// `sentinel auth-pass <master>`, `sentinel sentinel-pass` and
    /// `SENTINEL SET <master> auth-pass` anywhere on a line), keepalived
    /// `auth_pass`, nslcd `bindpw`, any `…_Passwd` key alone with its value
    /// on a line (Fluent Bit's `HTTP_Passwd`), a Cisco `username … password
    /// 0 …` (type 0: the password in clear), BIND's `secret "…";`, an
    /// ipsec.secrets `PSK "…"`, a kickstart's plaintext `rootpw`.
    DIRECTIVE,
    r"(?im)(?:^[ \t]*|`|:[ \t]*)(?:requirepass|masterauth|auth_pass|bind_?pw|masterpassword)[ \t]+([^\s`]+)|\bsentinel[ \t]+(?:set[ \t]+\S+[ \t]+auth-pass|auth-pass[ \t]+\S+|sentinel-pass)[ \t]+([^\s`'\x22]+)|^[ \t]*[A-Za-z][\w.-]*_passw(?:or)?d[ \t]+([^\s`]{6,})[ \t]*$|\busername\s+\S+\s+(?:privilege\s+\d+\s+)?(?:password|secret)\s+0\s+(\S+)|\bsecret\s+\x22([A-Za-z0-9+/]{16,}={0,2})\x22\s*;|:\s*PSK\s+\x22([^\x22\n]+)\x22|^[ \t]*rootpw\s+(?:--plaintext\s+)?([^\s-]\S*)[ \t]*$"
);
lazy_regex!(
    /// PowerShell turning a literal into a secure string: the literal is
    /// the secret.
    SECURE_STRING,
    r#"(?i)\bConvertTo-SecureString\s+(?:-String\s+)?(?:'([^'\n]+)'|"([^"\n]+)")[^\n]*?-AsPlainText"#
);

/// Whether a key opens its line or follows a structure's opener or
/// separator (`{"key": …`, `, key=…`): a setting, not a sentence's word
/// ("the signing key: …", "restored from key: …").
fn keyed_line(text: &str, key: Option<regex::Match<'_>>) -> bool {
    let Some(key) = key else {
        return false;
    };
    let before = &text[..key.start()];
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    // A public key (a JWK's `"kty"`, a "# public" comment above) is
    // published on purpose.
    let above = &before[before[..before.len() - line.len()]
        .trim_end_matches('\n')
        .rfind('\n')
        .map_or(0, |i| i + 1)..];
    if contains_ignoring_case(above, "public") || above.contains("\"kty\"") {
        return false;
    }
    let lead = line
        .trim_end_matches(['"', '\'', '`', '\\', '$', ':'])
        .trim_end();
    let declared = ["export", "let", "const", "var", "local", "set", "-"]
        .iter()
        .any(|word| lead == *word || lead.ends_with(&format!(" {word}")));
    lead.is_empty() || declared || lead.ends_with(['{', ',', '(', '[', ';', '&', '?', '|'])
}

/// The first two groups that take part in a match of a pattern whose
/// alternatives each capture a key and its value.
fn first_pair<'t>(c: &Captures<'t>) -> Option<(regex::Match<'t>, regex::Match<'t>)> {
    let mut groups = c.iter().skip(1).flatten();
    Some((groups.next()?, groups.next()?))
}

/// The values of the `pairs` whose key names a secret and whose value is
/// a literal one: the first two groups that took part, key then value. The
/// pattern's own quotes surround the value, unless `own_quotes`: then the
/// group holds any quotes, and a bare value is judged as YAML's.
fn literal_pairs<'t>(pairs: impl Iterator<Item = Captures<'t>>, own_quotes: bool) -> Spans {
    pairs
        .filter_map(|c| first_pair(&c))
        .filter(|(key, value)| {
            let value = value.as_str();
            let quoted = !own_quotes || value.starts_with(['"', '\'', '\\']);
            key_class(key.as_str())
                .is_some_and(|class| literal_secret(class, value, quoted, own_quotes))
        })
        .map(|(_, value)| value.range())
        .collect()
}

/// Whether `label` names a configuration section as boto's do
/// (`Credentials`, `GSUtil`, `OAuth2`): a capital, then letters and digits.
fn section_label(label: &str) -> bool {
    let label = label.trim_matches(['"', '\'']);
    label.starts_with(|c: char| c.is_ascii_uppercase())
        && label.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Whether `value` is a setting of its own: a name of small-letter words
/// (digits after a letter: `oauth2`) joined by `_` or `.`, `=`, then its
/// value (`gs_service_key_file=sa.json`).
fn nested_setting(value: &str) -> bool {
    value.split_once('=').is_some_and(|(name, rest)| {
        let words: Vec<&str> = name.split(['_', '.']).collect();
        !rest.is_empty()
            && words.len() >= 2
            && words.iter().all(|w| {
                w.starts_with(|c: char| c.is_ascii_lowercase())
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    })
}

/// Whether `key` sits in a YAML block under `encryptedData:` (a Bitnami
/// SealedSecret's): its value is ciphertext only the cluster can open.
fn sealed(text: &str, key: Option<regex::Match<'_>>) -> bool {
    let Some(key) = key else {
        return false;
    };
    let before = &text[..key.start()];
    let Some(at) = before.rfind("encryptedData:") else {
        return false;
    };
    let line_start = before[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let parent = indent(&text[line_start..at]);
    // Every line from the block's to the key's is indented deeper.
    before[at..]
        .split('\n')
        .skip(1)
        .all(|line| line.trim().is_empty() || indent(line) > parent)
}

pub(super) fn assignment<'s>(
    text: &str,
    doors: Doors,
    stands: &'s dyn Fn(&Range<usize>) -> bool,
) -> Found<'s> {
    let open = GATES.open(doors);
    let user_named = std::cell::OnceCell::new();
    let mut found = Found::new(stands);
    found.stage(|| {
        candidates(open.get(&ASSIGNMENT), text, 5, |c| {
            // An empty query parameter (`?token=&next=/lab`): what follows is
            // the next parameter, not a value.
            if next_parameter(&c[5]) {
                return false;
            }
            // A local YAML tag after a key's colon, followed by what it reads
            // (`!vault-ref kv/ci#password`, `!Ref DbPassword`, `!sops-secret
            // prod/db`), stands for a value kept elsewhere; alone
            // (`: !winter-is-coming`) or after `=`, it is a password that opens
            // with `!`.
            if &c[3] == ":"
                && local_tag(&c[5])
                && c.get(5).is_some_and(|v| tag_reads(&text[v.end()..]))
            {
                return false;
            }
            // A label's value that is itself a setting (gsutil's `-o
            // "Credentials:gs_service_key_file=sa.json"`, boto's
            // `Section:option=value`) is judged as that setting, on its own.
            if &c[3] == ":" && section_label(&c[1]) && nested_setting(&c[5]) {
                return false;
            }
            // In a URL's query, `&` ends the value (`?token=page-3&limit=50`).
            let in_query = c
                .get(1)
                .is_some_and(|k| text[..k.start()].ends_with(['?', '&']));
            let class = key_class(&c[1]).or_else(|| {
                c.get(1)
                    .filter(|key| blocks::api_block_key(text, key, &c[5]))
                    .and_then(|_| key_class("api_key"))
            });
            if in_query
                && c[5].split_once('&').is_some_and(|(head, _)| {
                    class.is_none_or(|class| !literal_secret(class, head, false, false))
                })
            {
                return false;
            }
            // A history rewrite's rule (`old==>new`, git filter-repo's and
            // BFG's) replaces its left side: that is the value.
            if let Some((head, _)) = c[5].split_once("==>") {
                return class.is_some_and(|class| literal_secret(class, head, false, false));
            }
            // A Python bytes literal (`b'…'`, `rb"…"`) or an Objective-C
            // string (`@"…"`) is judged by its string.
            let value = c[5].trim_start_matches(['r', 'R', 'b', 'B', '@']);
            let value = if value.starts_with(['"', '\'']) {
                value
            } else {
                &c[5]
            };
            let Some(class) = class else {
                return (generated_key(&c[1]) && (generated_value(value) || uuid_value(value)))
                    || (bare_key(&c[1]) && bare_key_value(value) && keyed_line(text, c.get(1)));
            };
            // `pwd=…` sets a variable named for a password; the working
            // directory is read as `$PWD`, never assigned a generated value.
            // Spaced (`pwd = "…"`, `pwd := "…"`), it is code, where a quoted
            // literal in mixed case counts (a directory's name is no password).
            let unquoted = c[5].trim_matches(|c: char| matches!(c, '"' | '\'' | '`'));
            let quoted = unquoted.len() < c[5].len();
            let spaced = !c[2].is_empty() || (&c[3] != ":" && !c[4].is_empty()) || &c[3] == ":=";
            let pwd = c[1].eq_ignore_ascii_case("pwd");
            // Spaced, a `pwd` holding a path (`C:\\Projects\\…`) is a
            // directory.
            if pwd && spaced && unquoted.contains(['\\', '/']) {
                return false;
            }
            // A symbol no directory's name takes counts as mixed case does.
            if pwd
                && (!spaced || (quoted && (mixed_case(unquoted) || password_symbol(unquoted))))
                && matches!(&c[3], "=" | ":" | ":=")
                && generated_password(unquoted)
            {
                return true;
            }
            // A bare `pw` is also a page width, a print writer or a font
            // (`"1920x1080"`, `"DejaVuSans-Bold"`); unquoted, it holds what a
            // call returns (`$pw = ConvertTo-SecureString …`). Only a quoted
            // literal with a digit and a symbol no such name takes counts.
            if c[1].eq_ignore_ascii_case("pw")
                && !(quoted && has_digit(unquoted) && password_symbol(unquoted))
            {
                return false;
            }
            // An Objective-C format string (`@"%@/secret.plist"`) is built,
            // not a literal.
            if c[5].starts_with('@') && c[5].contains("%@") {
                return false;
            }
            // Next to a user (a connection string's `UID=`, MongoDB's
            // `createUser`), `pwd` is the password. The text is searched once,
            // and only for a `pwd`.
            let with_user = || {
                *user_named.get_or_init(|| USER_ID.is_match(text) || text.contains("createUser("))
            };
            let class = if c[1].eq_ignore_ascii_case("pwd") && with_user() {
                KeyClass::Password
            } else {
                class
            };
            let (before, separator, after) = (&c[2], &c[3], &c[4]);
            // A leading dot is a designated initializer's (`.password = …`);
            // before a colon it is a hidden CI job or a CSS class.
            if c[1].starts_with('.') && separator != "=" {
                return false;
            }
            // "… is plain JSON, not a token: eyJ…": the sentence says what the
            // value is not. An unquoted word that ends in a colon is the
            // next label ("token: Authorization: Bot …").
            let lead = lead_lower(text, c.get(1).map_or(0, |k| k.start()), 16);
            let label = c[5].strip_suffix(':').is_some_and(|word| {
                !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')
            });
            if [
                "not a ",
                "not an ",
                "n't a ",
                "n't an ",
                "no ",
                "not a real ",
                "n't a real ",
                "not a live ",
                "not a valid ",
                "n't a valid ",
            ]
            .iter()
            .any(|n| lead.ends_with(n))
                || label
            {
                return false;
            }
            // In a shell, `KEY= command` assigns the empty string.
            if separator == "=" && before.is_empty() && !after.is_empty() {
                return false;
            }
            // psql interpolates a variable written `:'name'` (`WITH PASSWORD
            // :'new_pw'`): a reference, not a value.
            if separator == ":" && !before.is_empty() && after.is_empty() && value.starts_with('\'')
            {
                return false;
            }
            let quoted = value.starts_with(['"', '\'', '`', '\\']);
            let end = c.get(5).map_or(text.len(), |v| v.end());
            // A slot that the line closes later (`dop_v1_<64 hex chars>`).
            let slot_open = value
                .rsplit_once('<')
                .is_some_and(|(_, inside)| inside.bytes().all(|b| b.is_ascii_alphanumeric()));
            let slot_closed = text[end..].split_once('>').is_some_and(|(rest, _)| {
                rest.len() <= 24 && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ')
            });
            if !quoted && slot_open && slot_closed {
                return false;
            }
            literal_secret(class, value, quoted, separator == ":")
                && !sealed(text, c.get(1))
                && !(quoted && text[end..].trim_start().starts_with(':'))
                && !(separator == ":" && before.is_empty() && after.is_empty() && namespaced(value))
        })
    });
    found.stage(|| {
        groups(open.get(&AUTHORIZATION), text, |v| {
            // `Basic base64(user:password)` shows how the header is made.
            v.len() >= 8
                && !is_placeholder(v)
                && distinct_chars(v) >= 6
                && !word_like(v)
                && !v.contains('(')
        })
    });
    found.stage(|| {
        groups(open.get(&BEARER), text, |v| {
            !is_placeholder(v) && has_digit(v) && distinct_chars(v) >= 8
        })
    });
    found.stage(|| literal_pairs(open.captures(&KEY_VALUE_ATTRIBUTES, text), false));
    found.stage(|| literal_pairs(open.captures(&SETTER_CALL, text), false));
    found.stage(|| literal_pairs(open.captures(&calls::SYMBOL_SET, text), false));
    found.stage(|| {
        literal_pairs(
            open.captures(&calls::KEYED_TUPLE, text)
                .filter(|c| calls::tuple_value(&c[2])),
            false,
        )
    });
    found.stage(|| literal_pairs(open.captures(&NAMED_SETTER, text), true));
    found.stage(|| {
        literal_pairs(
            open.captures(&calls::BUILDER_SECRET, text)
                .filter(|c| calls::builder_value(&c[2])),
            true,
        )
    });
    found.stage(|| literal_pairs(open.captures(&calls::FALLBACK_LITERAL, text), true));
    found.stage(|| literal_pairs(open.captures(&calls::COMPARED_LITERAL, text), true));
    found.stage(|| literal_pairs(open.captures(&PLIST_PAIR, text), false));
    found.stage(|| {
        groups(open.get(&calls::HASHED_LITERAL), text, |v| {
            literal_secret(KeyClass::Password, v, true, false)
        })
    });
    found.stage(|| {
        groups(open.get(&CREDENTIAL_PAIR), text, |v| {
            literal_secret(KeyClass::Password, v, true, false)
        })
    });
    // An element closed by the tag that opened it.
    found.stage(|| {
        literal_pairs(
            open.captures(&XML_ELEMENT, text).filter(|c| c[1] == c[3]),
            false,
        )
    });
    found.stage(|| literal_pairs(open.captures(&NAMED_ELEMENT, text), false));
    found.stage(|| literal_pairs(open.captures(&NAME_VALUE, text), true));
    found.stage(|| {
        open.captures(&DECLARATION, text)
            .filter(|c| {
                // An unquoted word after `set KEY` is prose ("set
                // ADMIN_PASSWORD before first start"), not fish's value.
                let with_flags = c[0]
                    .split_whitespace()
                    .nth(1)
                    .is_some_and(|a| a.starts_with('-'));
                c.get(4).is_none_or(|v| {
                    let v = v.as_str().trim_end_matches([',', '.', ';', ':', '!', '?']);
                    with_flags || v.starts_with(['"', '\'']) || !word_like(v)
                })
            })
            .filter_map(|c| first_pair(&c))
            .filter(|(key, value)| {
                let quoted = value.as_str().starts_with(['"', '\'']);
                key_class(key.as_str())
                    .is_some_and(|class| literal_secret(class, value.as_str(), quoted, false))
            })
            .map(|(_, value)| value.range())
    });
    found.stage(|| literal_pairs(open.captures(&HCL_DEFAULT, text), true));
    // Stock values (`"android"`, a debug keystore's) and notes are no
    // secrets: only a generated value counts.
    found.stage(|| {
        open.captures(&GRADLE_SIGNING, text).filter_map(|c| {
            let value = c.get(2)?;
            let v = value.as_str().trim_matches(['"', '\'']);
            (generated_password(v) && !v.contains(char::is_whitespace) && !is_placeholder(v))
                .then(|| value.range())
        })
    });
    found.stage(|| {
        literal_pairs(
            open.captures(&blocks::TEMPLATE_DEFAULT, text)
                .filter(|c| blocks::holds_a_value(&c[0], &c[2])),
            true,
        )
    });
    found.stage(|| blocks::consul_tokens(open.get(&blocks::CONSUL_TOKENS), text));
    found.stage(|| blocks::consul_gossip_keys(open.get(&blocks::CONSUL_ENCRYPT), text));
    found.stage(|| blocks::secret_children(open.get(&blocks::SECRET_CHILDREN), text));
    found.stage(|| blocks::postman_keys(open.get(&blocks::POSTMAN_APIKEY), text));
    found.stage(|| blocks::openvpn_passwords(open.get(&blocks::OPENVPN_AUTH_FILE), text));
    found.stage(|| {
        open.captures(&WRAPPED_VALUE, text)
            .filter_map(|c| first_pair(&c))
            .filter(|(key, value)| {
                let quoted = value.as_str().starts_with('"');
                key_class(key.as_str())
                    .is_some_and(|class| literal_secret(class, value.as_str(), quoted, true))
            })
            .map(|(_, value)| value.range())
    });
    found.stage(|| groups(open.get(&CEPH_KEY), text, |v| random_like(v, 20)));
    found.stage(|| {
        groups(open.get(&DIRECTIVE), text, |v| {
            literal_secret(KeyClass::Password, v, false, true)
        })
    });
    found.stage(|| {
        groups(open.get(&SECURE_STRING), text, |v| {
            v.len() >= 6 && !is_placeholder(v) && !v.contains("$(")
        })
    });
    found.stage(|| {
        groups(open.get(&SQL_PASSWORD), text, |v| {
            v.len() >= 4 && !is_placeholder(v)
        })
    });
    // A hashed entry (`md5…`, `SCRAM-SHA-256$…`) keeps the password back.
    // The gate's word is the condition itself, so that ungated runs agree.
    found.stage(|| {
        let userlist = open
            .get(&USERLIST)
            .filter(|_| contains_ignoring_case(text, "userlist"));
        groups(userlist, text, |v| {
            let lower = v.to_ascii_lowercase();
            // A password of letters alone counts in mixed case and at length.
            let letters = v.len() >= 12 && mixed_case(v) && random_like(v, 12) && few_vowels(v);
            // A password file's line holds a password: words with a digit and
            // a symbol (`Saffron.thistle2478%`) are a chosen one.
            let chosen = v.len() >= 8
                && has_digit(v)
                && (password_symbol(v) || diceware(v))
                && !is_placeholder(v);
            !lower.starts_with("md5")
                && !lower.starts_with("scram-")
                && (((generated_password(v) || letters) && !wordy(v)) || chosen)
        })
    });
    found.stage(|| groups(open.get(&PROSE_PASSWORD.pattern), text, prose_password));
    // A column of an `INSERT` named for a secret, and its literal.
    found.stage(|| {
        sql::inserted(text)
            .into_iter()
            .filter(|i| {
                key_class(i.column)
                    .is_some_and(|class| literal_secret(class, &text[i.value.clone()], true, false))
            })
            .map(|i| i.value)
    });
    found.stage(|| {
        open.captures(&BARE_PASSWORD, text).filter_map(|c| {
            // A passphrase in prose is also a cipher's or a key file's name
            // (`AES-256-CBC`, `id_ed25519`): in mixed case only.
            let (value, phrase) = match c.get(4) {
                Some(value) => (value, true),
                None => (c.iter().skip(1).flatten().next()?, false),
            };
            let v = value.as_str();
            // "pass" is also a verb: a call or a digest passed along is no
            // password.
            let login =
                c.get(5).is_none() || (LOGIN_CONTEXT.is_match(text) && !v.contains(['(', ':']));
            // A log's next field (`method=password source=10.4.0.22`) is no
            // password.
            let field = v.split_once('=').is_some_and(|(key, rest)| {
                key.len() >= 3
                    && !rest.is_empty()
                    && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
            });
            let password = !field
                && (generated_password(v)
                    || word_number_symbol_word(v)
                    || (!phrase && c.get(1).is_some() && word_and_number(v)));
            let shaped = mixed_case(v) || diceware(v) || word_number_symbol_word(v);
            (password && (!phrase || shaped) && login).then(|| value.range())
        })
    });
    // A name or a version that answers ("1Password", for the manager;
    // `v1.45.0-Beta2`, for Playwright's "pw") has no password's symbol.
    found.stage(|| {
        groups(open.get(&ANSWERED_PASSWORD), text, |v| {
            (generated_password(v) && mixed_case(v) && password_symbol(v))
                || word_number_symbol_word(v)
        })
    });
    found.stage(|| {
        groups(open.get(&PASSWORD_CHANGED_TO), text, |v| {
            generated_password(v) && (mixed_case(v) || word_number_symbol_word(v) || diceware(v))
        })
    });
    found.stage(|| {
        groups(open.get(&TOKEN_THEN_VALUE), text, |v| {
            mixed_case(v) && has_digit(v) && random_like(v, 32) && !wordy(v)
        })
    });
    found.stage(|| literal_pairs(open.captures(&TYPED_DECLARATION, text), true));
    found.stage(|| {
        groups(open.get(&WORDS_THEN_PASSWORD), text, |v| {
            (generated_password(v)
                && (mixed_case(v) || drawn_capitals(v) || diceware(v) || word_and_number(v)))
                || made_up(v)
        })
    });
    found.stage(|| {
        open.captures(&PROSE_SECRET, text)
            .chain(open.captures(&PROSE_TOKEN_LATER, text))
            .filter(|c| prose_secret(c, text))
            .filter_map(|c| c.get(3).map(|m| m.range()))
    });
    found.stage(|| {
        groups(open.get(&PGPASS), text, |v| {
            literal_secret(KeyClass::Password, v, false, false) && !word_like(v)
        })
    });
    found.stage(|| config::config_credentials(&open, text));
    found.stage(|| tables::table_credentials(text));
    found.stage(|| debugger::printed_credentials(&open, text));
    found.stage(|| robot::robot_credentials(&open, text));
    found.stage(|| {
        open.captures(&REG_VALUE, text)
            .filter(|c| key_class(&c[1]).is_some_and(|k| literal_secret(k, &c[2], false, false)))
            .filter_map(|c| c.get(2).map(|m| m.range()))
    });
    // The context is searched only where the pair's gate is open.
    found.stage(|| {
        let admin_pair = open
            .get(&ADMIN_PAIR)
            .filter(|_| LOGIN_CONTEXT.is_match(text));
        groups(admin_pair, text, |v| {
            // Beside an administrator's name, a random mix of cases and
            // symbols (not a path's or a name's `/`, `-`, `_`) is a password
            // without a digit too.
            generated_password(v)
                || (v.len() >= 8
                    && mixed_case(v)
                    && password_symbol(v)
                    && !v.contains('/')
                    && random_like(v, 8)
                    && !wordy(v))
        })
    });
    found.stage(|| {
        groups(open.get(&USE_PAIR), text, |v| {
            generated_password(v) && !v.contains("://")
        })
    });
    // After an account's name, a slash also lists alternatives and
    // names (`build-agent / Linux-x86_64`, `qa.lead / QaLeadTeam01`): a
    // password's symbol tells it apart.
    // A symbol, or a generated mix of cases with few vowels joined by `_`,
    // tells a password from a second name ("user: alice / QaLeadTeam01").
    found.stage(|| {
        groups(open.get(&ACCOUNT_PAIR), text, |v| {
            generated_password(v)
                && !v.contains("://")
                && (password_symbol(v)
                    || (v.contains('_') && mixed_case(v) && random_like(v, 12) && few_vowels(v)))
        })
    });
    found.stage(|| groups(open.get(&WINDOWS_ACCOUNT_PAIR), text, generated_password));
    found.stage(|| {
        groups(
            open.get(&BARE_PASSWORD_ABROAD.pattern),
            text,
            // Where it is kept (a link) or a product named for it
            // ("1Password") is no password.
            |v| {
                generated_password(v)
                    && !v.contains("://")
                    && !contains_ignoring_case(v, "password")
            },
        )
    });
    found.stage(|| {
        groups(
            open.get(&PROSE_SECRET_ABROAD.pattern),
            text,
            prose_secret_abroad,
        )
    });
    found.stage(|| {
        calls::credentials_in_calls(
            open.get(&calls::CALL_CREDENTIAL),
            open.get(&calls::BYTES_SECRET),
            open.get(&calls::BROWSER_FILL),
            text,
        )
    });
    found
}

mod blocks;
mod calls;
mod config;
mod debugger;
mod keys;
mod literal;
mod prose;
mod robot;
mod tables;

/// Whether the assignment rule fires on `text` as prose: the helper of
/// the tests beside each of this rule's modules.
#[cfg(test)]
fn flagged(text: &str) -> bool {
    super::scan(text, false).contains(&super::Rule::CredentialAssignment)
}

#[cfg(test)]
mod tests;
