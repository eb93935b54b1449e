//! Credentials handed to a library call in code: reqwest's
//! `.bearer_auth("…")`, .NET's `AuthenticationHeaderValue("Bearer",
//! "…")`, a Go `[]byte("…")` secret, an Android build's
//! `buildConfigField`, MQTTnet's
//! `WithCredentials(user, password)`, Perl DBI's `connect(dsn, user,
//! password)`, a JDBC URL's user and password (`Jdbi.create(url, user,
//! password)`), a Go MySQL DSN (`user:password@tcp(host)/db`), curl's
//! `CURLOPT_USERPWD`, a browser
//! test typing a password into its field (`cy.get('#password').type('…')`,
//! `page.fill('input[name="password"]', '…')`), a password hashed from a
//! literal (`bcrypt('…')`, `Hash::make('…')`), a literal that stands in
//! when the environment lacks the value (`process.env.X || '…'`).

use regex::Regex;

use super::super::pattern::{Spans, groups, lazy_regex};
use super::super::value::{distinct_chars, has_digit, is_placeholder};
use super::{KeyClass, generated_password, key_class, literal_secret};

lazy_regex!(
    /// A call that takes a token or a password as its only or last
    /// literal argument after a user or a scheme (.NET's
    /// `AuthenticationHeaderValue("Bearer", "…")`), curl's `CURLOPT_USERPWD` option
    /// set to `user:password` (PHP, pycurl), and any call that opens a
    /// JDBC URL with a user and a password (`DriverManager.getConnection`,
    /// `Jdbi.create`, `new Sql2o`).
    pub(super) CALL_CREDENTIAL,
    r#"\.bearer_auth\(\s*"([^"\n]{16,})"\s*\)|\bAuthenticationHeaderValue\(\s*"(?:Bearer|Token|Bot)"\s*,\s*"([^"\n]{16,})"\s*\)|\bWithCredentials\(\s*"[^"\n]+"\s*,\s*"([^"\n]+)"\s*\)|\bDBI->connect\(\s*(?:'[^'\n]*'|"[^"\n]*")\s*,\s*(?:'[^'\n]*'|"[^"\n]*")\s*,\s*(?:'([^'\n]+)'|"([^"\n]+)")|"[\w.-]+:([^@"\s/]{6,})@(?:tcp|unix)\(|(?:\b|_|PROXY)USERPWD\s*(?:,|=>)\s*(?:"[^":\n]*:([^"\n]+)"|'[^':\n]*:([^'\n]+)')|\(\s*["']jdbc:[^"'\n]*["']\s*,\s*["'][^"'\n]*["']\s*,\s*(?:"([^"\n]+)"|'([^'\n]+)')\s*[,)]"#
);
lazy_regex!(
    /// A Go secret converted to bytes where it is declared
    /// (`var jwtSecret = []byte("…")`, `key := []byte("…")`), or an
    /// Android build's constant (`buildConfigField "String", "API_KEY",
    /// "\"…\""`), a Node secret made a buffer (`const SECRET =
    /// Buffer.from("…", "hex")`): a name and its literal, the first two
    /// groups that take part.
    pub(super) BYTES_SECRET,
    r#"\b([A-Za-z_][A-Za-z0-9_]*)\s*:?=\s*\[\]byte\(\s*("[^"\n]+")\s*\)|\bbuildConfigField\s*\(?\s*["']String["']\s*,\s*["']([A-Za-z_]\w*)["']\s*,\s*"\\"([^"\\\n]+)\\"|\b([A-Za-z_$][\w$]*)\s*[:=]\s*Buffer\.from\(\s*("[^"\n]+"|'[^'\n]+')"#
);

lazy_regex!(
    /// A browser test that types a literal into a field its selector names
    /// for a password: Cypress's `cy.get(sel).type('…')`, Playwright's
    /// `page.fill(sel, '…')` and `locator(sel).fill('…')`, Selenium's
    /// `find_element(By.ID, "password").send_keys("…")`.
    pub(super) BROWSER_FILL,
    r#"\.(?:get|locator|getByLabel|getByPlaceholder|getByRole|get_by_label|get_by_placeholder|get_by_role|findByLabelText|findByPlaceholderText|find|\$)\(\s*['"][^\n)]*?(?i:password|passwd|passphrase|pwd)[^\n)]*?['"][^\n)]*\)\s*(?:\.(?:clear|click|focus|should|scrollIntoView)\([^()\n]*\)\s*)*\.(?:type|fill|pressSequentially|setValue)\(\s*(?:'([^'\n]+)'|"([^"\n]+)")\s*[,)]|\.(?:fill|type)\(\s*['"][^\n,]*?(?i:password|passwd|passphrase|pwd)[^\n,]*?['"]\s*,\s*(?:'([^'\n]+)'|"([^"\n]+)")\s*[,)]|\b(?:find_element(?:_by_\w+)?|findElement|FindElement)\([^\n]*?(?i:password|passwd|passphrase|pwd)[^\n]*?\)\s*\.(?:send_keys|sendKeys|SendKeys)\(\s*(?:'([^'\n]+)'|"([^"\n]+)")\s*\)"#
);

lazy_regex!(
    /// A key given a variable or a call, with a literal as the fallback
    /// when that is unset (`secret: process.env.SESSION_SECRET || '…'`,
    /// `os.environ.get("X") or "…"`, `getenv('X') ?: '…'`): the key in
    /// group 1, the quoted literal in group 2.
    pub(super) FALLBACK_LITERAL,
    r#"(?:^|[^A-Za-z0-9_.-])["']?([A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*(?::=|=|:)[ \t]*[A-Za-z_$][A-Za-z0-9_.$]*(?:\[[^\]\n]{1,60}\]|\([^)\n]{0,60}\))*[ \t]*(?:\|\||\?\?|\bor\b|\?:)[ \t]*("[^"\n]+"|'[^'\n]+')"#
);

lazy_regex!(
    /// A variable compared with a literal (`if (password == "…")`,
    /// `token.equals("…")`): a check hard-coded with the secret itself;
    /// the variable in group 1, the quoted literal in group 2.
    pub(super) COMPARED_LITERAL,
    r#"(?:^|[\s(!&|])([A-Za-z_][A-Za-z0-9_]*)(?:[ \t]*(?:===?|!==?)[ \t]*|\.equals\(\s*)("[^"\s][^"\n]*"|'[^'\s][^'\n]*')"#
);

/// The operators that give [`COMPARED_LITERAL`]'s literal.
pub(super) const COMPARED_WORDS: &[&str] = &["==", "!=", ".equals("];

/// The operators that give [`FALLBACK_LITERAL`]'s literal.
pub(super) const FALLBACK_WORDS: &[&str] = &["||", "??", " or ", "?:"];

lazy_regex!(
    /// A builder's method named for a password or key alone, given a
    /// literal (sqlx's `PgConnectOptions::new().password("…")`, the
    /// `mysql` crate's `.pass(Some("…"))`), maybe converted after
    /// (`.password("…".to_string())`): the name in group 1, the literal in
    /// group 2. `.token(…)` and `.secret(…)` are left out: design tokens,
    /// lexers and secret stores take names there.
    pub(super) BUILDER_SECRET,
    r#"\.((?i:password|passwd|pass|passphrase|client_?secret|secret_?key|private_?key|api_?key|access_?token|auth_?token|bearer_?token|refresh_?token))\s*\(\s*(?:&|Some\(\s*)?("[^"\n]+"|'[^'\n]+')"#
);

/// What [`BUILDER_SECRET`] needs: a method's name after its dot.
pub(super) const BUILDER_WORDS: &[&str] = &[
    ".pass",
    ".client_secret",
    ".clientsecret",
    ".secret_key",
    ".secretkey",
    ".private_key",
    ".privatekey",
    ".api_key",
    ".apikey",
    ".access_token",
    ".accesstoken",
    ".auth_token",
    ".authtoken",
    ".bearer_token",
    ".bearertoken",
    ".refresh_token",
    ".refreshtoken",
];

/// Whether a builder's literal can be a secret: a prompt or a field's
/// label (`questionary.password("Root password for db01:")`, "Must be 8+
/// chars") holds a space or ends as a question or a label does.
pub(super) fn builder_value(quoted: &str) -> bool {
    let v = quoted.trim_matches(['"', '\'']);
    !v.contains(char::is_whitespace) && !v.ends_with([':', '?'])
}

lazy_regex!(
    /// An Erlang or Elixir tuple of a key and a string (`{password,
    /// "…"}` in a `sys.config`, `{:api_key, "…"}`, a quoted atom, a
    /// binary's `<<"…">>`): the key (an atom, in small letters) in group
    /// 1, the literal in group 2. C's lookup tables (`{ACCESS_TOKEN,
    /// "AccessToken"}`) name their constants in capitals.
    pub(super) KEYED_TUPLE,
    r#"\{\s*:?'?([a-z][a-z0-9_]*)'?\s*,\s*(?:<<)?"([^"\s]+)"(?:/utf8)?(?:>>)?\s*\}"#
);

/// Whether a [`KEYED_TUPLE`]'s string is a secret's shape: digits in it,
/// no path (`{password, "/etc/ssl/pass.txt"}` names a file).
pub(super) fn tuple_value(value: &str) -> bool {
    has_digit(value) && !value.contains('/')
}

lazy_regex!(
    /// A Ruby DSL's setting by symbol (Capistrano's `set :deploy_password,
    /// "…"`): the key in group 1, the literal in group 2.
    pub(super) SYMBOL_SET,
    r#"\bset\s+:([A-Za-z0-9_]+)\s*,\s*["']([^"'\n]+)["']"#
);

lazy_regex!(
    /// A password handed to a hash function as a literal (`bcrypt('…')`,
    /// Laravel's `Hash::make('…')`, Django's `make_password("…")`): the
    /// plain text is stored nowhere else.
    pub(super) HASHED_LITERAL,
    r#"(?i)\b(?:bcrypt|Hash::make|password_hash|make_password|generate_password_hash|hashpw|crypt)\(\s*(?:b?"([^"\n]{6,})"|b?'([^'\n]{6,})')"#
);

/// Words one of which a text holds when [`HASHED_LITERAL`] matches.
pub(super) const HASH_WORDS: &[&str] = &["crypt", "hash", "make_password"];

/// Words one of which a text holds when [`CALL_CREDENTIAL`] matches.
pub(super) const CALL_WORDS: &[&str] = &[
    "bearer_auth(",
    "authenticationheadervalue(",
    "withcredentials(",
    "dbi->connect(",
    "@tcp(",
    "@unix(",
    "userpwd",
    "jdbc:",
];
/// Words one of which a text holds when [`BYTES_SECRET`] matches.
pub(super) const BYTES_WORDS: &[&str] = &["[]byte(", "buildconfigfield", "buffer.from("];
/// Words one of which a text holds when [`BROWSER_FILL`] matches.
pub(super) const FILL_WORDS: &[&str] = &[
    "type(",
    "fill(",
    "presssequentially(",
    "setvalue(",
    "send_keys(",
    "sendkeys(",
];

/// The secrets handed to calls in `text`, by the patterns whose gates
/// opened (`None` for one that stayed shut).
pub(super) fn credentials_in_calls(
    call: Option<&Regex>,
    bytes: Option<&Regex>,
    fill: Option<&Regex>,
    text: &str,
) -> Spans {
    let secret =
        |v: &str| literal_secret(KeyClass::Password, v, true, false) && distinct_chars(v) >= 5;
    let mut out = groups(call, text, secret);
    // A test types stock values too (`'wrong-password'`, `'test1234'`):
    // only a generated one counts.
    out.extend(groups(fill, text, |v| secret(v) && generated_password(v)));
    if let Some(bytes) = bytes {
        out.extend(
            bytes
                .captures_iter(text)
                .filter_map(|c| {
                    let mut groups = c.iter().skip(1).flatten();
                    let (name, value) = (groups.next()?, groups.next()?);
                    let v = value.as_str();
                    key_class(name.as_str())
                        .is_some_and(|class| literal_secret(class, v, true, false))
                        .then_some(value)
                        .filter(|_| !is_placeholder(v))
                })
                .map(|m| m.range()),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::flagged;
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn credentials_handed_to_calls() {
        for hit in [
            "let resp = client\n    .get(\"https://metrics.example.dev/api\")\n    .bearer_auth(\"qW7Lm2Xz9Rt4Kw8Vb3Nc6Hd1Fs5Gj0Ya\")\n    .send()?;",
            "http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue(\"Bearer\", \"541ahEoNwPtr6AtOwx_PI1GTGv3U4H42\");",
            "var jwtSecret = []byte(\"Kq@Lp7-Zx2mWt9+Rv4Ns_8bYc3Hd\")",
            "buildConfigField \"String\", \"API_KEY\", \"\\\"Ak9!Lq2Zm7Xr4Vt8\\\"\"",
            "var opts = new MqttClientOptionsBuilder().WithCredentials(\"sensor-gw\", \"Tz8%qLm2Wx7Rk4\").Build();",
            "my $dbh = DBI->connect('dbi:Pg:dbname=legacy;host=db02', 'legacy', 'Vb3NtXq7TsaZL');",
            "db, err := sql.Open(\"mysql\", \"etl_user:q7Lm2ZtAv+9SU@tcp(mysql-01:3306)/warehouse\")",
            "cy.get('#password').type('Ledger_sorrel935')",
            "cy.get('input[name=\"password\"]').clear().type(\"Vt8#qLm2Wx\")",
            "await page.fill('input[name=\"password\"]', 'NGTorbz$228wm');",
            "await page.locator('#login-pwd').fill('Rk4!zT9qLw2');",
            "driver.find_element(By.ID, \"password\").send_keys(\"Hq7$Lm2pZx9\")",
            "Jdbi.create(\"jdbc:mysql://db:3306/shop\", \"shop\", \"KlNQ#RQsa7dHRXU1U#\");",
            "  set :deploy_password, \"Og83vOI3wFIidJK\"",
            "Connection c = DriverManager.getConnection(\"jdbc:postgresql://pg/app\", \"app\", \"w8Zq!Lm3Tv\");",
            "conn = DriverManager.getConnection('jdbc:sqlite:/srv/x.db', 'u', 'Tq7#mLz2Vw')",
            "def sql = Sql.newInstance(\"jdbc:mysql://db/shop\", \"shop\", \"Rk2$wQ9zLm\", \"com.mysql.cj.jdbc.Driver\")",
            "PgConnectOptions::new().host(\"db\").username(\"svc\").password(\"JwmuwA-W_S%B\")",
            "DataSourceBuilder.create().url(url).username(\"app\").password(\"Tq7#mLz2Vw\").build();",
            "const client = new Client().clientSecret('Xk9Lm2Zt7Rw4Vb8Nc3Hd6');",
            "OptsBuilder::new().user(Some(\"svc\")).pass(Some(\"Tq7#mLz2Vw\"))",
            "tokio_postgres::Config::new().user(\"svc\").password(\"Tq7#mLz2Vw\".to_string());",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            ".bearer_auth(&token)",
            "new AuthenticationHeaderValue(\"Bearer\", token)",
            "new AuthenticationHeaderValue(\"Bearer\", \"<your-access-token-here>\")",
            ".bearer_auth(\"<your token here>\")",
            "var body = []byte(\"hello, world\")",
            "buildConfigField \"String\", \"API_KEY\", \"\\\"${apiKey}\\\"\"",
            "buildConfigField \"String\", \"BASE_URL\", \"\\\"https://api.example.dev\\\"\"",
            "var jwtSecret = []byte(os.Getenv(\"JWT_SECRET\"))",
            "my $dbh = DBI->connect($dsn, $user, $password);",
            "db, err := sql.Open(\"mysql\", \"etl_user:${DB_PASS}@tcp(mysql-01:3306)/warehouse\")",
            ".WithCredentials(\"sensor-gw\", password)",
            "cy.get('#password').type(Cypress.env('PASSWORD'))",
            "cy.get('#password').type('{enter}')",
            "await page.fill('input[name=\"password\"]', process.env.E2E_PASSWORD);",
            "await page.fill('input[name=\"password\"]', '<your password>');",
            "cy.get('#username').type('Ledger_sorrel935')",
            "driver.find_element(By.ID, \"password\").send_keys(password)",
            "Jdbi.create(\"jdbc:mysql://db:3306/shop\", \"shop\", System.getenv(\"DB_PASSWORD\"));",
            "DriverManager.getConnection(\"jdbc:postgresql://pg/app\", \"app\", \"<password>\");",
            "DriverManager.getConnection(\"jdbc:h2:mem:test\", \"sa\", \"\");",
            "set :deploy_password, ENV.fetch(\"DEPLOY_PASSWORD\")",
            "set :keep_releases, \"5\"",
            "PgConnectOptions::new().username(\"svc\").password(&env::var(\"PGPASSWORD\")?)",
            "TextField::new().password(\"Enter your password\")",
            "lexer.token(\"IDENT\").token(\"NUMBER\")",
            "form.password('<password>')",
            "pw = questionary.password(\"What's your secret?\").ask()",
            "pw = questionary.password(\"Root password for db01:\").ask()",
            "field.password(\"Must be 8+ chars\")",
            "windowBorder: system.token(\"colors.gray.200\"),",
            "lexer.token(\"STRING_LITERAL\")",
            "client.secret(\"kv/prod/db\")",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 65: a literal hashed in a command, an `AUTH` tuple handed
    /// to a client; a hash of a variable or a seeder's stock word is no
    /// secret.
    #[test]
    fn hashed_literals_and_auth_tuples() {
        for hit in [
            "User::first()->update(['password'=>bcrypt('8padj8qEtkdn3ry2pTjwwtkScc8e')])",
            "$user->password = Hash::make('Wq7#mLx2Rt9v');",
            "AUTH = (\"svc_ingest\", \"CU2m5gvBdHi+5xr#CPP\")\nr = session.post(url, auth=AUTH)",
            // Held-out 66: a settings table's row, a PgBouncer userlist's
            // chosen password, a role's password in prose with its name in
            // backquotes, a generated value with a dot in it.
            "INSERT INTO settings (key, value) VALUES ('smtp_password', 'Jv9v3zMIt&lSJB');",
            "# pgbouncer userlist.txt\n\"app_rw\" \"Saffron.thistle2478%\"",
            "The password for the `readonly` Postgres role is pVl6nq89U%jn66+YS; it has SELECT only.",
            "ADMIN_PASSWORD=PGesAtaGMWVgiM.Op",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "$user->password = Hash::make($request->password);",
            "'password' => bcrypt('password'),",
            "AUTH = (os.environ[\"USER\"], os.environ[\"PASSWORD\"])",
            "INSERT INTO settings (key, value) VALUES ('smtp_password', '');",
            "# pgbouncer userlist.txt\n\"app_rw\" \"md5a3f1c2e4b5d6978877665544332211aa\"",
            "ADMIN_PASSWORD=settings.DatabasePassword",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 67: webpack's `DefinePlugin` inlines what
    /// `JSON.stringify` wraps: a literal there is the secret, a variable
    /// is read at build time.
    #[test]
    fn literals_that_define_plugin_inlines() {
        assert!(fires(
            "new webpack.DefinePlugin({ 'process.env.API_SECRET': JSON.stringify('fce1aa3436084ef5237ef4c204b4c2ed') })",
            Rule::CredentialAssignment
        ));
        for clean in [
            "new webpack.DefinePlugin({ 'process.env.API_SECRET': JSON.stringify(process.env.API_SECRET) })",
            "new webpack.DefinePlugin({ 'process.env.API_TOKEN': JSON.stringify('') })",
            "new webpack.DefinePlugin({ 'process.env.API_KEY': JSON.stringify('your-api-key') })",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 70: a literal that stands in when the environment lacks
    /// the value is the secret the code runs with when it does.
    #[test]
    fn literal_fallbacks_after_a_reference() {
        for hit in [
            "app.use(session({ secret: process.env.SESSION_SECRET || 'FMhhWJ90Bm1N3GMK0nDrLzOWDxvtYwFyTdlLHROxGfWGSq5', resave: false }));",
            "password = ENV[\"DB_PASS\"] || \"Xk29!mPq77zz\"",
            "api_token = os.environ.get(\"API_TOKEN\") or \"9f8e7d6c5b4a3f2e1d0c9b8a\"",
            "$secret = getenv('APP_SECRET') ?: 'q7Lm2Xv9Rt4Wz8Kp3Hn6';",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "secret: process.env.SESSION_SECRET || 'changeme'",
            "secret: process.env.SESSION_SECRET || ''",
            "port = process.env.PORT || '8080'",
            "token = os.environ.get(\"TOKEN\") or \"<your-token>\"",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 70: Consul's gossip key, 32 random bytes in base64.
    #[test]
    fn consul_gossip_keys() {
        for hit in [
            "{\n  \"datacenter\": \"dc1\",\n  \"encrypt\": \"TzeL1d72/NTafm5wimAvZN0j8K9gLw1VDo6N/p1C0bI=\",\n  \"verify_incoming\": true\n}",
            "encrypt = \"LjOzu2JHtORIz0VO+JxJLBvY5gKCkK8vbphaQjjZJFJ=\"",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "encrypt = \"${gossip_key}\"",
            "\"encrypt\": true",
            "encrypt = \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\"",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 83: a password compared with a literal in code, a
    /// `.pgpass` line after a longer note, a compose list's password that
    /// opens with `%`; a comparison with a word or a variable, a type's
    /// name, and a Windows variable stay.
    #[test]
    fn compared_literals_and_listed_passwords() {
        for hit in [
            "if (password == \"^JbCIUdE5xMp\") { grantAdmin(); }  // found during review",
            "if token.equals(\"Kx7mQ2pLw9Rt4\") {",
            "pgpass line I added: pg-warehouse:5432:dw:etl_loader:L67lG+_D5gar4r",
            "environment:\n  - KEYCLOAK_ADMIN=admin\n  - KEYCLOAK_ADMIN_PASSWORD=%_zG%JW2S4!nbU",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "if (type == \"password\") { showMask(); }",
            "if (password == confirmPassword) {",
            "if (password == \"\") return;",
            "  - KEYCLOAK_ADMIN_PASSWORD=%KC_PASSWORD%",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 98: an Erlang `sys.config` tuple of a key and its string;
    /// an Elixir keyword tuple, a quoted atom and a binary too. Tuples of a
    /// user or a setting's name, a variable, C's lookup tables, a query, a
    /// message and a file's path are none.
    #[test]
    fn keyed_tuples() {
        for hit in [
            "%% sys.config\n{db, [{user, \"erl_app\"}, {password, \"XuI!9KxNr*%_or\"}]}.",
            "config :app, creds: [{:api_key, \"Vq7LmZt2Rw9xKb4N\"}]",
            "{secret_key, <<\"Tz8qLm2Wx7Rk4Pn5\">>}",
            "{'password', \"Xk9vR2mLw7TzKp4Q\"}",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "{db, [{user, \"erl_app\"}, {host, \"db01.internal\"}]}.",
            "{password, \"\"}",
            "{password, \"changeme\"}",
            "{api_key, {env, \"API_KEY\"}}",
            "{token_ttl, \"3600\"}",
            "{ ACCESS_TOKEN, \"AccessToken\" }",
            "{ERR_BAD_PASSWORD, \"InvalidPassword2\"}",
            "{password, \"UPDATE users SET password = $1 WHERE id = $2\"}",
            "{:password, \"Invalid\"}",
            "{password, \"/etc/ssl/private/pass2.txt\"}",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 99: a Node secret made a buffer from a literal; a buffer
    /// from a variable or a placeholder is none.
    #[test]
    fn secrets_made_buffers() {
        assert!(fires(
            "const SECRET = Buffer.from(\"763767a4ef64d52d3310dbbec81057d662f29430b52686e78f62d9cf3528ba67\", \"hex\");",
            Rule::CredentialAssignment
        ));
        for clean in [
            "const SECRET = Buffer.from(process.env.SECRET, \"hex\")",
            "const SECRET = Buffer.from(\"your-secret-here\")",
            "const key = Buffer.from(data, \"base64\")",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }
}
