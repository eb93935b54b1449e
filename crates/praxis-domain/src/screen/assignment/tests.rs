//! Tests of the credential assignment rules.

use crate::screen::fires;
use crate::screen::rule::Rule;

#[test]
fn declarations_without_an_operator() {
    for hit in [
        "#define DB_PASSWORD \"Qz8!wLm2Rx4T\"",
        "set -gx API_TOKEN 7f3c9a1e5b2d8f4a6c0e9b7d3f1a5c2e",
        "signingConfigs {\n    release {\n        storePassword \"Vq7!rT2mLx9\"\n    }\n}",
        "const API_TOKEN: &str = \"Hq7vR2mLw9TzXk4Pb8Nc3Df6Gy1Js5\";",
        "<property name=\"db.connection.password\">Pq4-Zr8!Lm2</property>",
        "<AdminPassword>\n  <Value>Tz9!qWm4Lr2</Value>\n</AdminPassword>",
        "{\"key\": \"apiToken\", \"value\": \"Wz4qLm8Rt2Xv6Nb9Pc3D\", \"type\": \"secret\"}",
        "+requirepass Hx7!kPq2Lm9",
        "network={\n    ssid=\"lab\"\n    psk=\"Indigo^4821Orbit\"\n}",
        "La contraseña de la base de datos es Rk7!wQ2zLm9 desde ayer.",
        "운영 계정 비밀번호는 Qz8!wLm2Rx4 입니다.",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "gh secret set DB_PASSWORD --body \"$DB_PASSWORD\"",
        "set -x API_TOKEN $argv[1]",
        "# requirepass foobared",
        "#define PASSWORD_MAX_LEN 64",
        "<property name=\"db.connection.password\">${DB_PASSWORD}</property>",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

#[test]
fn assignments_distinguish_literals_from_references() {
    for hit in [
        "DB_PASSWORD=h4rd2guess",
        "requirepass Zr8!kq2Lw9",
        "SECRET_KEY = '@!)Yq7F&xLusgn3pJs+7rp'",
        "- name: DB_PASSWORD\n  value: \"h4rd2guess\"",
        "$s = ConvertTo-SecureString 'Pl41n!Text' -AsPlainText -Force",
        r#"{"password": "letmein"}"#,
        "client_secret: 9fK2mQ7xLp4Rt8Vz",
        "Authorization: Bearer 8f2Kq9Lm4Xz7Rt1Vb6Nw",
        "<server><id>nexus</id><password>Nx8!vq2Lm</password></server>",
        "the password is Tr0ub4dor&3",
        "log in with password hunter22",
        "smtp:\n  user: alerts@acme.test\n  pass: Tangerine#341wml",
        "AZURE_DEVOPS_PAT=k2m9q4x7v1b8n3c6z5a0s2d4f6g8h1j3k5l7p9",
        "Used the shared account: user 'qa-runner', pass 'Qv7!3Vo8eOM4', from the wiki.",
        "Das Kennwort für den Dienstkonto-Login lautet Fr0st!Birke77.",
        "Le mot de passe du compte de test est Lune#2024quartz.",
        "variable \"admin_password\" {\n  type    = string\n  default = \"cuQL#Zi2Eo#j9x3\"\n}",
        "La password dell'utente root è Ciao!Mondo88z, non condividerla.",
        "Hasło do serwera testowego to Krowa#2024pl.",
        "Пароль от базы staging: Zv3zda!91q",
        "管理画面のパスワードは Sakura#2291x です。",
        "测试环境数据库密码是 Lx8#qW2mZp，用户名是 tester。",
        "Lösenordet till wifi:t på kontoret är Älg-Skog-8831.",
        "I reset the root password on the NAS to Nas#Reset_0419 so we could log in.",
        "redis.conf still had `requirepass Rd7#xQ2mLp9zW4` from the old cluster.",
        "ALTER USER app_owner IDENTIFIED BY \"Ora_9xLm2#Qw\";",
        "REGISTRY_PASSWORD ?= Mk9!file-Lq2x",
        "app.config['SECRET_KEY'] = 'b7f2c91e4a6d08f3e5c1a9b2d7f40e6c'",
        "define( 'AUTH_KEY', 'x9!Lq#2mZ@7vRt$4kWp%8nBc^1hJd&5f' );",
        "cli.set_default_headers({{\"Authorization\", \"Bearer 8f2Kq9Lm4Xz7Rt1Vb6Nw3\"}});",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "requirepass ${REDIS_PASSWORD}",
        "cursor.execute(\"SELECT 1 WHERE password = %(password)s\", row)",
        "STRIPE_SECRET_KEY=op://Engineering/Stripe/secret_key",
        "API_KEY = { from_secret = \"weather_api_key\" }",
        "return back()->withErrors(['password' => 'Invalid credentials']);",
        "password=${DB_PASSWORD}",
        "password: <redacted>",
        "token: ***",
        "api_key = os.environ[\"API_KEY\"]",
        "password: incorrect",
        "next_page_token=CiAKGjBpNDd2Nmp2",
        "max_tokens: 4096",
        "password = settings.DB_PASSWORD",
        "token: ${{ secrets.GITHUB_TOKEN }}",
        "Authorization: Bearer $TOKEN",
        "<password>${env.NEXUS_PASSWORD}</password>",
        "the password is incorrect",
        "docker run --rm -v \"$PWD\":/workspace -w /workspace node:20 npm test",
        "Пароль от базы хранится в Vault.",
        "管理画面のパスワードは Vault に保存しています。",
        "Das Passwort ist falsch, bitte erneut versuchen.",
        "Le mot de passe est stocké dans le coffre de l'équipe.",
        "the password is stored in the vault",
        "password of length 12",
        "tests:\n  pass: 412\n  fail: 3",
        "We pass 'release' to the build script as its channel.",
        "variable \"admin_password\" {\n  type      = string\n  sensitive = true\n}",
        "variable \"db_password\" { default = \"\" }",
        "Pat: restarted worker02 and it came back",
        "Token: ghp_••••••••••••••••••••••••••••••••XY12 (masked by gh)",
        "TELEGRAM_BOT_TOKEN=123456:ABC-your-token",
        "<password>REPLACE_ME</password>",
        "Server=myServer;Database=myDB;User Id=myUser;Password=myPassword;",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Setters and constructors that take a literal, a connection
/// string's `PWD`, keys named `…_key` with a generated value, a value
/// continued on the next line, a Russian label before a colon.
#[test]
fn secrets_set_by_call_or_named_key() {
    for hit in [
        "ds.setPassword(\"e8oE*AoJA32T\");",
        "smtp.Credentials = new NetworkCredential(\"svc_reports\", \"vcNTahK.IK1n8z\");",
        "requests.get(url, auth=(\"ci\", \"Zq8-wR2m!Lx\"))",
        "[WarehouseDSN]\nServer=dwh.example.lan\nUID=etl_user\nPWD=mz8G.@.~+doz2D0Wu#r",
        "Airbrake.configure do |c|\n  c.project_key = '2499bf6d05c91d5e327c85aa19842aec'\nend",
        "APP_KEY=base64:482WHb1js8kGB7L4z7Nfe0A65h4agAgX5bN5kYOdT9g=",
        "export SIGNING_SECRET=\"rEtR1pHuDziGmC4P3yyrS5wK4oHIojdI\\\n4bIYbk1ebz4EsubL8qGYi0Sis5zvYaKb\"",
        "Пароль от учётки deploy на стейдже: GaLdOrfel#3467 — после этого деплой прошёл.",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "ds.setPassword(System.getenv(\"DB_PASSWORD\"));",
        "new NetworkCredential(user, password)",
        "cd \"$PWD\" && make",
        "cache_key = \"node-modules-43692162434b9ed9e48a95793408b69c\"",
        "data-key=\"pk_test_uEr8mC4x5inDRLwSZlvqENjw\"",
        "object_key = \"uploads/2024/03/report-final-v2.pdf\"",
        "partition_key = \"7f3a9c2e7b1d4086a5c2e9f7b3d1a8c6\"",
        "grep -rnE \"AccountKey=|SharedAccessKey=|sig=\" src/",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// psql's `:'name'` interpolates a variable.
#[test]
fn psql_variables_are_references() {
    assert!(!fires(
        "psql -v new_pw=\"$NEW_PW\" -c \"ALTER USER app WITH PASSWORD :'new_pw';\"",
        Rule::CredentialAssignment
    ));
    assert!(fires(
        "password: 'Tr0ub4dor&3x!'",
        Rule::CredentialAssignment
    ));
}

/// Headers set by a proxy, constructor-wrapped literals, Bicep
/// parameters, values a pretty-printer wrapped, Ceph keyrings and keys
/// issued as UUIDs.
#[test]
fn headers_constructors_and_wrapped_values() {
    for hit in [
        "http-request set-header X-Api-Key 09f3aef93e127d9393360f6a90e3f385",
        "let api_secret = String::from(\"z7WYuL80YMiukinJa6ejvrUvJvH5jhdAzkrCfoU8\");",
        "param sqlAdminPassword string = 'Saffron!tamarind1171='",
        "{\n    \"client_secret\":\n        \"ry8wAtQ42Paf4AZpWhqu6S76rwrQNoZ1Fkzzu3zg\"\n}",
        "[client.admin]\n\tkey = AQHZ9FvjnNrwmk486pNpHG4UeXqPf/EG1MOEpg==",
        "env:\n  CYPRESS_RECORD_KEY: 2833c6a8-48f7-426a-87d7-64be056a88d1",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "Idempotency-Key: f01b79f4-8015-4ed3-a363-a5a268e97fb4",
        "let api_secret = String::from(env!(\"API_SECRET\"));",
        "param sqlAdminPassword string",
        "The value is plain JSON, not a token: eyJyZXBsaWNhcyI6MywiaW1hZ2UiOiJyZWdpc3RyeSJ9",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A YAML block scalar holding a secret: its first line is read.
#[test]
fn folded_yaml_values() {
    assert!(fires(
        "api_secret: >-\n  G6YyLYxSo3IHpkxNn9bjRZbK\n  cOGcZJ1sJhoiG3zXm9qLpHEG",
        Rule::CredentialAssignment
    ));
    assert!(!fires(
        "description: >-\n  The secret is kept in Vault\n  under ops/api.",
        Rule::CredentialAssignment
    ));
}

/// Dockerfile's old `ENV KEY value`, Windows' `setx`, Spring Actuator's
/// `{"value": …}`; a name with the path it is loaded from, and an
/// interface string that asks a question, are not secrets.
#[test]
fn env_setx_and_actuator_values() {
    for hit in [
        "ENV SMTP_PASSWORD e4W_XB8vUS!525T8ig2",
        "setx SIGNING_CERT_PASSWORD \"n6mA5slYsK32Rc^3\"",
        "\"spring.rabbitmq.password\": {\"value\": \"sUPa42P.-lQdo\", \"origin\": \"class path\"}",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "LoadCredential=db_password:/etc/credstore/db_password",
        "{\"password\": \"Password\", \"forgot_password\": \"Forgot your password?\"}",
        "ENV SMTP_PASSWORD_FILE /run/secrets/smtp",
        "setx SIGNING_CERT_PASSWORD \"%CERT_PASS%\"",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Passwords in Portuguese and German prose right after their word, and
/// a Spanish one some words after it.
#[test]
fn foreign_prose_passwords() {
    for hit in [
        "Entrei no painel com o usuário admin e a senha Man4452!puffinvdc e apaguei a fila.",
        "La contraseña de la base de datos de staging es Cop3669*falconoa, la usé ayer.",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    assert!(!fires(
        "Entrei no painel e a senha expirou ontem.",
        Rule::CredentialAssignment
    ));
}

/// Base64-named keys, bracketed environment keys, a `user:password`
/// `auth`, prose passwords "now" set or labelled in Polish, and a generated
/// password holding `<` are secrets; hashes, SealedSecret ciphertext,
/// bracketed masks and a slot cut short are not.
#[test]
fn encoded_bracketed_and_paired_values() {
    for hit in [
        "REDIS_PASSWORD_B64=Wm5xOCF3TG0yUng0VDk=",
        "env[API_SECRET] = Lq8#Tz2!wRm5Vx",
        "auth = \"deploy:Rt5mQ9wLx2\"",
        "After the reset the password is now Heron!Velvet2291 for the kiosk account.",
        "hasło konta administratora bazy: Pq7!Lm2x#Rw9",
        "define('LOGGED_IN_KEY', 'x7<Qm2p{9Lr#Tz4!Wv8^Nb3&Kc6*Jd1');",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "\"hashed_secret\": \"9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c1b3d5f7e\",",
        "spec:\n  encryptedData:\n    api-token: AgC7Lq2mWx9Rt4Vb8Nc3Df6Gy1Js5Hk0Pz7Qm2",
        "password = \"Rt5-[MASKED]\"",
        "SENDGRID_API_KEY=SG.<your key>",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// An XML element with attributes still names its secret.
#[test]
fn elements_with_attributes() {
    assert!(fires(
        "<Pass encoding=\"base64\">cVc3TG0yIVJ4OVR6NA==</Pass>",
        Rule::CredentialAssignment
    ));
}

/// Key-and-value lines without `=`, Cisco's clear passwords and `…_PW`
/// keys are secrets; a lower-case name, a keyword, a documented default
/// and a mounted secret's path are not.
#[test]
fn directives_short_keys_and_names() {
    for hit in [
        "[OUTPUT]\n    Name  http\n    HTTP_Passwd Qz8!wLm2#Rx9",
        "username ops privilege 15 password 0 Tr4!vLq9#Wz",
        "API_PW=Lq8#Tz2!wRm5Vx",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "client = WebClient(token=\"xoxp-unit_test\")",
        "const secret = await store.get(\"api/secret\");",
        "docker run -e POSTGRES_PASSWORD=mysecretpassword postgres  # the image's documented example",
        "-v ./db_pw:/run/secrets/db_pw:ro",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Keycloak's typed credential; OAI-PMH's resumption token is no secret.
#[test]
fn typed_credentials_and_resumption_tokens() {
    assert!(fires(
        "\"credentials\": [ { \"type\": \"password\", \"value\": \"Qz8!wLm2#Rx9\" } ]",
        Rule::CredentialAssignment
    ));
    assert!(!fires(
        "?verb=ListRecords&resumptionToken=oai_dc%2F2025-01-01%2F%2F%2F200",
        Rule::SecretUrl
    ));
}

/// BIND's secret, ipsec.secrets' PSK, a kickstart's `rootpw`, a header
/// named for its auth.
#[test]
fn bind_ipsec_kickstart_and_auth_headers() {
    for hit in [
        "key \"xfer\" {\n    algorithm hmac-sha256;\n    secret \"QPhwLVwlwUoZQdwyOxljHa7nZWjgMxRb\";\n};",
        "203.0.113.10 198.51.100.20 : PSK \"gMF_s7@==ZGT*PHAI.\"",
        "lang en_US.UTF-8\nrootpw --plaintext S-JY4Y6T1vB+V+6FXQ\ntimezone UTC",
        "proxy_set_header X-Upstream-Auth \"PIn4FN8ecuYRnU5n6BEXmpYO7waWEeWe\";",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    assert!(!fires(
        "rootpw --iscrypted $6$rounds=4096$abc$def",
        Rule::CredentialAssignment
    ));
}

/// A French "mot de passe" followed by its value, `ENV` after a colon,
/// MongoDB's `pwd` beside `createUser`; a relative secret file, a password
/// manager's name, a mock's short test key and a URL without a password
/// are no values.
#[test]
fn french_prose_env_lines_and_mongo_users() {
    for hit in [
        "Connexion : utilisateur backup, mot de passe Honmify+5637_sasenom.",
        "Flagged in review: ENV SMTP_PASS 6W81EvWxUQ0WZRHz",
        "db.createUser({ user: \"reporting\", pwd: \"U6~~AxHo=*H!^.!zR_\" })",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "secretGenerator:\n- name: db\n  files:\n  - password=secrets/db.txt",
        "パスワードは 1Password の項目を参照してください。",
        "stripe.api_key = 'sk_test_123' against stripe-mock",
        "Die URL enthält kein Passwort mehr: postgresql://lager@db.intern:5432/lager",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A Dutch password "is nu …", a literal after `||` in a fallback.
#[test]
fn dutch_now_and_fallback_literals() {
    for hit in [
        "Het wachtwoord voor de buildserver is nu Tektrizar56.tri.",
        "const secret = process.env.JWT_SECRET || 'cdXlCEsp52fWlCNjuFDniHv0IUynzgV7';",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
}

/// A quoted name that is itself a key, a namespaced Redis key, a key
/// block's armor: no value of a credential.
#[test]
fn keys_namespaces_and_armor_are_no_values() {
    for clean in [
        "The task role can read one secret: \"SecretArn\": \"arn:aws:secretsmanager:eu-west-1:481516234200:secret:prod/db\"",
        "Redis key auth:refresh:8c8ad91d-97d6-4a27-bc31-df324754fba6 now stores only a hash",
        "private_key: |\n  -----BEGIN RSA PRIVATE KEY-----\n  <paste the key here>\n  -----END RSA PRIVATE KEY-----",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
    for hit in ["secret: \"Qx81Zp9vT2mL4kWd\"", "auth:Zp9vT2mL4kWdQx81"] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
}

/// Passwords in prose of more languages and settings, a name/value pair
/// with a field between, SonarQube's login token, a key escaped in JSON.
#[test]
fn more_prose_pairs_and_escaped_keys() {
    for hit in [
        "Hasło do konta serwisowego w Jirze to Ember@Raven571 — po zalogowaniu webhook zaczął działać.",
        "Para entrar usé el usuario admin y la contraseña Cind3r*2756; el firmware se actualizó.",
        "Tried again after setting smtp_pass to p@TGr48BV0IFaWVwZX in the admin panel.",
        "{\"property\":{\"name\":\"spring.datasource.password\",\"source\":\"systemEnvironment\",\"value\":\"vWGTDn^M~HTY63a!Tn1v\"}}",
        "env:\n  SONAR_LOGIN: 5cc498aeb679a9a01f699363bee2e31065703347",
        "{\"user\":\"svc-sync\",\"pass\\u0077ord\":\"DjtcIQWe_1P40IVyCjI8\"}",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "Tried again after setting smtp_pass to the value from Vault.",
        "{\"name\":\"spring.datasource.password\",\"source\":\"systemEnvironment\",\"value\":\"******\"}",
        "env:\n  SONAR_LOGIN: admin",
        "secret_key: !env_var FLASK_SECRET_KEY\ndatabase_url: !env_var DATABASE_URL",
        "Cambia la contraseña cada 90 días.",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A secret kept in Key Vault and referenced by Azure Container Apps.
#[test]
fn key_vault_references_stand_down() {
    let text = "az containerapp secret set -n api -g rg --secrets \"db-pass=keyvaultref:https://kv.vault.azure.net/secrets/db-pass,identityref:system\"";
    assert!(!fires(text, Rule::CredentialAssignment));
    assert!(!fires(text, Rule::CredentialCommandLine));
}

/// Declarations of Visual Basic, PowerShell's environment drive and Java's
/// XML properties; a bare `pwd=`; passwords in prose after "pass is", after
/// a few words and a colon, or written `admin / …`; an `INSERT`'s column.
#[test]
fn declarations_prose_and_inserted_columns() {
    for hit in [
        "Dim strPassword As String = \"WT8ssnjmQ@N\"",
        "Set-Item Env:DEPLOY_TOKEN 'b3axP57RqUNOMlRqVZ0xbmdmVgjAymNgbyM47LMP5NnNErrx'",
        "<entry key=\"db.password\">nOXtu.Wr76fC70</entry>",
        "pwd=wGlya-FRjXFq87",
        "auth=grafana:73920184",
        "Username is svc_ci and the pass is 773DWU+kERzT until IT resets it.",
        "wifi guest password this week: EftrS_bzoyPS85",
        "Default creds on the appliance were admin / GLV^Xi.OWlZ29Tv1 and nobody changed them.",
        "INSERT INTO service_accounts (name, api_token) VALUES ('reporting', '73sht4VC1JkaDf58t8oiGhNZEC6dWSWAG79gLF3v');",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "Dim strPassword As String = Environment.GetEnvironmentVariable(\"DB_PASSWORD\")",
        "Set-Item Env:DEPLOY_TOKEN $token",
        "<entry key=\"db.password\">${DB_PASSWORD}</entry>",
        "pwd=$(pwd)",
        "The second pass is faster than the first.",
        "db:\n  secret_name: prod/orders/db-password\n  region: eu-west-1",
        "Password policy: at least twelve characters.",
        "Password last rotated: 2024-11-03T09:12:44Z",
        "Password hash algorithm: PBKDF2-SHA256",
        "The optimizer pass is x86_64-specific.",
        "Docs live under Admin / Settings-v2 in the sidebar.",
        "PWD= build-v2.sh",
        "chown admin / the whole share",
        "INSERT INTO service_accounts (name, api_token) VALUES ('reporting', NULL);",
        "new BasicAWSCredentials(\"ACCESS_KEY\", \"SECRET_KEY\")",
        "apiKey: \"AIzaSy__________________________________\" was left as a template",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// gcloud's `--set-secrets` names a secret manager's entry and version.
#[test]
fn secret_manager_versions_are_references() {
    assert!(!fires(
        "gcloud run deploy summarizer --set-secrets OPENAI_API_KEY=openai-key:latest --region europe-west1",
        Rule::CredentialAssignment
    ));
    assert!(!fires(
        "gcloud run deploy api --update-secrets DB_PASSWORD=db-password:latest",
        Rule::CredentialAssignment
    ));
}

/// A token or API key named in a sentence, with an aside or a purpose
/// between the name and its value.
#[test]
fn tokens_named_in_sentences() {
    for hit in [
        "Service token (scoped to reads, 30 days): Rk4vQ9mZt2LxW7bNc5HyJd3Fg8Ps6Ua",
        "The staging API key for the billing export is 7HcW2qLz9Xv4Rm8TnB5yKd3Pf6Gs1Ja.",
        "secret of the relay was QbV8nZ2kTx7Lm4Rw9Hc3Yp6Dg5Fs1Je",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "The cache key for the report is 9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c.",
        "The next page token is CiAKGjBpNDd2Nmp2Zml2cXRtcGM0eWtoNDBxY2R1aBgC",
        "Access token (read-only): stored in the vault, not here.",
        "token: ${{ secrets.RELEASE_TOKEN }}",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Values that only look like secrets: Vault's audit HMACs, a YAML tag
/// before an empty string, Application Insights' key, a slot the line
/// closes later.
#[test]
fn audit_hashes_tags_telemetry_keys_and_slots() {
    for clean in [
        "{\"auth\":{\"client_token\":\"hmac-sha256:3b8e1f0c9a7d5e2b4c6f8a0d1e3b5c7f9a2d4e6b8c0f1a3d5e7b9c2f4a6d8e0b\"}}",
        "admin_password: !!str \"\"  # filled in by the operator",
        "APPINSIGHTS=InstrumentationKey=6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a;IngestionEndpoint=https://example.in.applicationinsights.azure.com/",
        "LINODE_TOKEN=lin_<64 hex characters>",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A `.pgpass` line, `pw` and a colon after a few words or alone, a YAML
/// `pwd:` beside a `user:`, a vendor's auth code.
#[test]
fn pgpass_lines_short_password_labels_and_auth_codes() {
    for hit in [
        "warehouse.db.internal:5432:reports:loader:Vq7Lm2Rp9Xw",
        "pw for the partner portal: Tq8#Zx2Lm5Rv",
        "pwd: Hn4!Rt8Wq2Zs",
        "ftp:\n  user: drop_upload\n  pwd: Kd8vLm2Qx7Rt5Nz",
        "const vendorAuthCode = 'f3c9a1e7b5d2c8a4e6f0b9d3c7a1e5f2b8d4c6a0';",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "*:*:*:*:password",
        "pw for the partner portal: see the vault",
        "pwd: /srv/app",
        "db.internal:5432:reports:loader:*",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A review's cases: a YAML tag before a real value, a password holding
/// `<` before a redirect, prose names that are digests, public keys or
/// chain addresses, and named secrets after words that only qualify them.
#[test]
fn tagged_values_angle_passwords_and_prose_digests() {
    for hit in [
        "smtp:\n  password: !!str \"Xk9mQ2vL8pRt4ZwN7bYc\"",
        "DB_PASSWORD=Xk9<mQ2vL8pRt4Zw  # rotated in May -> see the vault",
        "The primary access key is Zq8mW3nR7tY2vK9pL4xB6cJ1hF5dG0sA",
        "The event secret is Zq8mW3nR7tY2vK9pL4xB6cJ1hF5dG0sA",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    assert!(fires(
        "PGPASSWORD=Tq8<vR2#mK9zW4xL pg_dump -h db.internal app > backup.sql",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "Token (sha256): 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "Secret key (fingerprint): 6A9F0C3E7B2D41E85F4C0A9D3B1E7F2C6D8A4B09",
        "The token for the pool is 0x6B175474E89094C44Da98b954EedeAC495271d0F",
        "Token (NFT metadata): QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG",
        "Search-only API key: 6be0576ff61c053d5f9a3225e2a90f76",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A Python bytes literal, a bind password written `bind_pw`.
#[test]
fn bytes_literals_and_bind_passwords() {
    for hit in [
        "app.secret_key = b\"4f1c9e2ab7d03e6f58a1c2d9e0b7f3a4c6d8e1f2\"",
        "bind_pw Tq8#Zx2Lm5Rv",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    assert!(!fires("app.secret_key = b\"\"", Rule::CredentialAssignment));
}

/// "The password's still …", `pwd` after a user, MySQL's `GRANT …
/// IDENTIFIED BY`, PgBouncer's userlist, a Python bytes literal in single
/// quotes, a bare `key=` in a section; hashed entries, a sentence's "key:"
/// and a cache key stand down.
#[test]
fn contractions_grants_userlists_and_bare_keys() {
    for hit in [
        "Log in as admin; the password's still Vq81mRtz0pLx4K from the install.",
        "for the staging tenant: user ops-lead, pwd Zr4+tkQ8*mW2^p",
        "GRANT SELECT ON crm.* TO 'report'@'10.%' IDENTIFIED BY 'u7Q-k2#Lp9vX';",
        "userlist.txt for pgbouncer:\n\"etl\" \"Hq9-w#cZ4tLmR2\"",
        "SECRET_KEY = b'Wm4kR8pZq2Lx7VtN0bJc3HdY'",
        "[geo]\nkey=Pq7Lm2Xz9Rt4Kw8Vb3Nc6Hd1Fs5Gj0YaEu7Ko2Ti9",
        "{\"key\": \"Ty8Mq3Lz7Rw2Kp9Vx4Nb6Hc1Fd5Gs0JaEu\"}",
        "- key: Ty8Mq3Lz7Rw2Kp9Vx4Nb6Hc1Fd5Gs0JaEu",
        "export key=Ty8Mq3Lz7Rw2Kp9Vx4Nb6Hc1Fd5Gs0JaEu",
        "GRANT USAGE ON *.* TO 'app'@'%' IDENTIFIED WITH mysql_native_password BY 'Zr4tkQ8mW2pLx9';",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "the password's strength meter is wrong",
        "the password's SHA-256 digest is stored in /etc/shadow",
        "Updated userlist per ticket. Translations file:\n\"Save\" \"Speichern\"",
        "token = b\"Bearer\"",
        "SECRET_KEY = b'development-only-not-secret'",
        "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"key\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}",
        "key = \"ProdNetworkingStackV2TerraformState\"",
        "key: Linux-pip-3f9aB8cD7eF6gH5iJ4kL3mN2oP1qR0sT9uV8wX",
        "userlist.txt:\n\"app\" \"md5a1b2c3d4e5f60718293a4b5c6d7e8f90\"",
        "GRANT SELECT ON crm.* TO 'report'@'10.%';",
        "Thumbprint of the signing key: Qm8Lx2Vt7Rz4Kw9Pb3Nc6Hd1Fs5Gj0YaEu7Ko2Ti9 (public)",
        "Cache restored from key: node-modules-Linux-e11d7fefe37994425fee97f86eb9f58b",
        "key=e11d7fefe37994425fee97f86eb9f58b263efd45",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Session 41's tuning on held-out 47: a designated initializer, a
/// template parameter's default, Consul's ACL tokens and an environment
/// assignment given as a value; a Vault path, a constant's name in a URL
/// and LocalStack's stand-ins are no secrets.
#[test]
fn initializers_template_defaults_and_consul_tokens() {
    for hit in [
        "static const struct mqtt_cfg cfg = {\n    .host = \"broker.plant.test\",\n    .password = \"Lark2017*q\",\n};",
        "Parameters:\n  DBMasterPassword:\n    Type: String\n    NoEcho: true\n    Default: 'Ke7pWq29zLmx4Rt'",
        "  AdminToken:\n    Type: String\n    Default: Zt8Lq2Wm4Rp7Kx9Vb3",
        "acl {\n  enabled = true\n  tokens {\n    agent = \"5b1e7c2a-9d4f-4e8b-a3c6-7f2d1e9b8a40\"\n  }\n}",
        "{\"acl\": {\"tokens\": {\"initial_management\": \"c3f9a1d2-7e4b-4a6c-9b8d-2e1f0a7c5d93\"}}}",
        "credentials: AWS_SECRET_ACCESS_KEY=Wq7Lm2Xz9Rt4Kw8Vb3Nc6Hd1Fs5Gj0YaEu7Ko2T",
        "credentials: SMTP_LOGIN=mailer:Xk92LmQ7wzRt",
        "JWT_SECRET=Wm4k9Lq&tx=9LqZ2rVb7Np3Hs8",
        "DB_PASSWORD=\"PURPLE_MONKEY_DISHWASHER\"",
        "DB_PASSWORD=\"Secret/Harbor2025!\"",
        "  DBMasterPassword:\n    Type: String\n    # dev only\n    NoEcho: true\n    Default: Tz4mQ8wLp2Rx",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "twilio_auth_token = lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/twilio:auth_token')",
        "Use the OAuth implicit flow callback: https://app.example.com/callback#access_token=ACCESS_TOKEN&token_type=bearer&expires_in=3600",
        "Use LocalStack with dummy credentials: AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test",
        "Parameters:\n  Environment:\n    Type: String\n    Default: production",
        "  DBMasterPassword:\n    Type: String\n    NoEcho: true\n    Default: '{{resolve:secretsmanager:prod/db:SecretString:password}}'",
        "acl {\n  tokens {\n    agent = \"00000000-0000-0000-0000-000000000000\"\n  }\n}",
        "credentials: SSH_USER=deploy",
        "Parameters:\n  JwtSigningKey:\n    Type: AWS::SSM::Parameter::Name\n    Default: prod-jwt-signing-key-v3",
        "  DatabaseSecret:\n    Type: String\n    Default: rds-db-credentials/cluster-7QK2M4ZP/admin",
        ".deploy_token: &deploy_token\n  image: alpine",
        ".token:hover{color:#d14}",
        "sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=/' .env.example",
        "The vault path that names the DB password is kv/data/prod/billing/db#password.",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A spaced `pwd = "…"` in code, Django's `set_password("…")`, a Wi-Fi
/// passphrase after its word, an administrator's pair named as an
/// account's; a label read as a value after "not a real token:".
#[test]
fn spaced_pwd_snake_setters_passphrases_and_accounts() {
    for hit in [
        "pwd = \"Pebble.Quasar595!\"",
        "String pwd = \"Tundra.orbit349#\";",
        "user = User(email=\"ops@ledgerly.io\")\nuser.set_password(\"LZ-5ZxHJ7Za\")",
        "Wi-Fi for the lab bench: SSID Oakridge-Lab, passphrase Juniper-Harbor682!",
        "The shared admin account is admin / JFXyUUu*eDaCO until IT rotates it.",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "pwd = os.getcwd()",
        "pwd = \"/srv/app\"",
        "pwd = \"build-2024.1\"",
        "user.set_password(request.POST[\"password\"])",
        "self.set_title(\"Quarterly Report 2024\")",
        "Set the passphrase with ssh-keygen -p, never in a script.",
        "The admin account is admin / ChangeMe! until first login.",
        "Discord API reference example header, not a real token: Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
        "token: Authorization: Bearer $TOKEN",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// From a review of the tuning above: a directory in a spaced `pwd`, a
/// cipher's or a key file's name after "passphrase", role lists and menu
/// paths after `admin /`, a secret a log line follows with a colon, and
/// "isn't a real token:" before a sample.
#[test]
fn directories_names_role_lists_and_denied_samples() {
    for hit in [
        "pwd := \"Pebble.Quasar595!\"",
        "SSID Oakridge-Lab, pass phrase Juniper-Harbor682!",
        "The shared admin accounts are admin / JFXyUUu*eDaCO and root / Qm#vTrLpZk!",
        "Account for the NAS: admin / Qx*vLpTz",
        "FATAL: login failed, password=Tr0ub4dor&3xQ: authentication failed for user \"etl\"",
        "worker[412]: api_key=Zq8LmR4wTx9Vb7Nc1Pd5Hs3K: quota exceeded",
        "The staging token: Zq8LmR4wTx9Vb7Nc1Pd5Hs3K",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "pwd = \"C:\\\\Projects\\\\Billing2024\"",
        "pwd = \"build-2024.11\"",
        "ssh-keygen -p -f ./deploy_key changes the passphrase id_ed25519 uses.",
        "Account roles, highest first: admin / Power-User / Viewer",
        "Account menu: admin / AppSettings/EnvVars",
        "Service account permissions: admin / ReadWrite-All",
        "Fixture only, not a real token: Zq8LmR4wTx9Vb7Nc1Pd5Hs3K",
        "This isn't a real token: Zq8LmR4wTx9Vb7Nc1Pd5Hs3K (it's the sample from the README)",
        "Fixture only, not a valid token: Zq8LmR4wTx9Vb7Nc1Pd5Hs3K",
        "Sample only, not a real secret: Zq8LmR4wTx9Vb7Nc1Pd5Hs3K",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Gradle's signing passwords set with a space, a chat's answer to a
/// question about a password, and an empty query parameter.
#[test]
fn gradle_signing_chat_answers_and_empty_parameters() {
    for hit in [
        "signingConfigs { release { storePassword \"TNFlhkt@958ty\"; keyPassword \"Nimbus_ledger198\" } }",
        "me: what's the pass for the printer web ui?\nLars: 6J95#K@jcoBgRH — user is admin",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "http://localhost:8080/?token=&next=/lab  (empty token because auth is disabled in the dev container)",
        "storePassword System.getenv(\"KS_PASS\")",
        "storePassword \"changeit\"",
        "me: did you change the password?\nLars: yes, yesterday",
        "Q: where is the password stored?\nA: vault:secret/data/printer",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// From a review: browser fills of fields that only contain "pass"
/// (passport, compass), stock test values, Android's debug keystore, notes
/// in a signing config, and chat questions that ask for no password.
#[test]
fn review_of_fills_signing_configs_and_chat_answers() {
    for hit in [
        "cy.get('#password').click().type('Wq8!mZt3Lp')",
        "page.get_by_label(\"Password\").fill(\"Pl4y!wRight9\")",
        "driver.find_element_by_id('password').send_keys('S3l3n!umPw')",
        "[09:14] anna: what's the pw for the nas admin?\n[09:15] lars: Qn7#xLm2Rt9v",
        "Anna: anyone know the root password on db02?\nLars: it's Db02!root7Kx",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "cy.get('#passport-number').type('X12345678')",
        "cy.get('#mountain-pass').type('Stelvio2758m')",
        "await page.fill('#compass-heading', '270deg')",
        "await page.fill('#password', 'wrong-password')",
        "await page.fill('#password', 'test1234')",
        "debug { storeFile file(\"debug.keystore\"); storePassword \"android\"; keyAlias \"androiddebugkey\"; keyPassword \"android\" }",
        "release { keyPassword \"see 1Password\" }",
        "release { storePassword \"123456\"; keyPassword \"123456\" }",
        "signingConfigs { release { storePassword 'release-keystore' } }",
        "me: which password manager do we use?\nLars: 1Password",
        "Anna: which version fixed the password bug?\nLars: v2.14.3-Rc1",
        "Which pw version are we pinned to?\nLars: v1.45.0-Beta2",
        "Why does pytest pass locally but fail in CI?\nEnv: Python3.12Ubuntu",
        "what does pwd print on the Windows runner?\nOutput: D:\\a\\Repo1\\Repo1",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

#[test]
fn a_reset_password_in_prose_and_curl_userpwd() {
    for hit in [
        "I reset it to QR03Eps+KPRczcX and then the login worked; the old password had a trailing space.",
        "The admin password expired, so I reset it to Vt8qLm2Wx7Rk and logged in.",
        "curl_setopt($ch, CURLOPT_USERPWD, \"api:q382EuCGihT89034Ptl6OaaU\");",
        "c.setopt(pycurl.USERPWD, 'sync:Hq7vR2mLw9TzXk4P')",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "I reset it to defaults and then the login worked; the old password had expired.",
        "curl_setopt($ch, CURLOPT_USERPWD, \"$user:$password\");",
        "curl_setopt($ch, CURLOPT_USERPWD, $credentials);",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

#[test]
fn changed_it_to_names_a_setting() {
    for hit in [
        "curl_setopt($ch, CURLOPT_PROXYUSERPWD, \"proxy:Hq7vR2mLw9TzXk4P\");",
        "curl_setopt_array($ch, array(CURLOPT_USERPWD => \"deploy:Hq7vR2mLw9TzXk4P\"));",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "Django was using the default password hasher; I changed it to Argon2PasswordHasher in settings.py.",
        "samba: password server was wrong, I set it to DC01.corp.local",
        "The password column was too short, so I changed it to NVarChar(256).",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Sentinel's `auth-pass`, "pass" after a user's name, and a token named
/// in a sentence in Portuguese, Spanish or German.
#[test]
fn sentinel_auth_pass_user_pass_pairs_and_tokens_abroad() {
    for hit in [
        "sentinel auth-pass mymaster Meadow5654Violet.21",
        "Temporary creds handed over in the ticket: user qa-runner, pass cobalt-lantern-violet96 (valid until Friday).",
        "O token do bot interno é gYkAl0RuXP07b5gZFHgKN0EM9ljHYVLQgx7j e está no config.ini do servidor.",
        "La clave de la API es Qk7vN2mLp9Zx4Rt8Wb3Yc6Hd1Jf5Gs0A.",
        "Der Token für den Build-Agent lautet: hT6pW2qZ9xV4mK8rN3bY7cL1dF5gJ0sA",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "sentinel auth-pass mymaster ${SENTINEL_PASSWORD}",
        "user qa-runner, pass the flag --dry-run first",
        "O token do bot interno é guardado no cofre, não no config.ini.",
        "La clave de la API es la misma que en staging.",
        "Der Token ist abgelaufen; bitte einen neuen erzeugen.",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// A review's false alarms: "pass" as a verb, a key that is the point of an
/// argument, "era" in English; and its near misses.
#[test]
fn review_forty_five_prose_credentials() {
    for hit in [
        "redis-cli -p 26379 SENTINEL SET mymaster auth-pass rCzU8tVErIzsBz0UFQqqOx-l",
        "RUN echo \"sentinel auth-pass mymaster rCzU8tVErIzsBz0UFQqqOx-l\" >> /etc/sentinel.conf",
        "Router login admin / pass apCYkHDaiZ1h",
        "o token foi oI68LA_InfRB-HLHkQcQBpndE6B8h93s",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "user bob, pass validateInput2() the raw form",
        "user alice, pass QA-Sprint42 checklist",
        "La clave es useMemoizedCallbackWithDeps2, no useCallback.",
        "Der Schlüssel ist computeHashForCacheEntryV2 im CacheManager",
        "The token era ERC20TokenStandardContractV2Deployment began in 2017",
        "Der Token ist eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 (nur der Header)",
        "El token es 0x5ba4b86c5169308e26af7a3a22457dcc5ba4b86c (USDC en Polygon)",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Keys that let anyone raise an incident (PagerDuty's), a registry
/// value's password as `reg query` prints it, and the `user:password`
/// lines of `chpasswd` and Postfix's `sasl_passwd`; and the routes,
/// references, cloud-init's `RANDOM` and versions that are none.
#[test]
fn routing_keys_registry_values_and_password_lists() {
    for hit in [
        "pagerduty_configs:\n  - routing_key: 59a6943e822f7746aa3e0b70b8e3d948",
        "    DefaultUserName    REG_SZ    kiosk\n    DefaultPassword    REG_SZ    AYPCC-5GLLQV3vdHK5",
        "#cloud-config\nchpasswd:\n  list: |\n    ubuntu:Cl0ud!Init_22\n  expire: false",
        "echo \"deploy:Xq8vLm2Rz4\" | sudo chpasswd",
        "/etc/postfix/sasl_passwd:\n[smtp.relay.example]:587 relayuser:Qo2XF3U.9r+UA8N6F1",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "routing_key = \"user.42.events.created\"",
        "routing_key: orders.created",
        "    DefaultPassword    REG_SZ    %KIOSK_PW%",
        "    PasswordExpiryWarning    REG_DWORD    0xe",
        "#cloud-config\nchpasswd:\n  list: |\n    ubuntu:RANDOM\n  expire: false",
        "chpasswd config:\n  image:ubuntu-22.04\n  time:12h30m",
        "/etc/postfix/sasl_passwd:\n[smtp.relay.example]:587 relayuser:${SASL_PW}",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// TOML's multi-line strings, an `Authorization` header set through an
/// index, PgBouncer's userlist, passwords and tokens named in prose with
/// more words between.
#[test]
fn triple_quotes_indexed_headers_userlists_and_longer_prose() {
    for hit in [
        "[smtp]\nuser = grafana\npassword = \"\"\"Nimbus0868@lantern\"\"\"",
        "axios.defaults.headers.common['Authorization'] = 'Token 345d56a9f488d5e705c534e8954b3cfcc0236906';",
        "the failure came from the pgbouncer userlist:\n\"reporting\" \"7BOejuXJlGF27\"",
        "Nach dem Reset lautet das Passwort für den Admin-Account jetzt Lantern5679~, bitte nicht weitergeben.",
        "Datenbankpasswort ist xKvHF2f2TYHbNLU, Benutzer ist reporting.",
        "\"auth\": {\"type\": \"apikey\", \"apikey\": [{\"key\": \"value\", \"value\": \"G4W4FWg5iTQ7Y2LyvwpIjjBgCNITgawmKjCKKCI\"}, {\"key\": \"key\", \"value\": \"X-Api-Key\"}]}",
        "pw for the vendor SFTP drop (they will not rotate it until Q3): M4rm0t!Orchid4979",
        "[conexion]\nusuario = informes\ncontraseña = Nlz=GwdRyd8_Yt22grLVm",
        "Test account for the sandbox: qa-bot@ledgerline.example, password Dravvel2805!",
        "Bearer token we were sending (copied from the browser devtools): oQdsN7DCHEn6w3ln29g12GMtHTByrrO8dFHqVzEvWf8R",
        "The token for the team's internal metrics API is now QE91mdVJx7Lw2Rk9Tz4Pb8Nc3Df6",
        "session.headers['Authorization'] = f'Token 2e5f3097a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6'",
        "password = r\"\"\"7oxebvJOh23DqfshSU\"\"\"",
        "/etc/pgbouncer/userlist.txt:3:\"app\" \"cb2z39SOTiy2MGwT\"",
        "userlist.txt\n\"app\" \"fPCIyywdqMPCeAdQ\"",
        "The token for the internal metrics API is c65760b3a9f2ac8061ead87dafa5889316e34997, until today.",
        "Dmitri wrote: \"use pw 264tPp6NtJwG139 for the kiosk account\"",
        "el password del usuario replicador es s1QGw6rJ1on0605",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "[smtp]\npassword = \"\"\"${SMTP_PASSWORD}\"\"\"",
        "axios.defaults.headers.common['Authorization'] = 'Token ' + token;",
        "pgbouncer userlist:\n\"reporting\" \"md5d41d8cd98f00b204e9800998ecf8427e\"",
        "userlist.txt\n\"app\" \"scram-sha-256$4096:c2FsdHNhbHQ=$aGFzaGhhc2g=:c2VydmVyc2VydmVy\"",
        "userlist.txt\n\"app\" \"PasswordGoesHere\"",
        "Basic auth header format is `Authorization: Basic base64(user:password)`; mind the newline.",
        "INFO auth: login succeeded user=svc_etl method=password source=10.4.0.22",
        "\"auth\": {\"type\": \"apikey\", \"apikey\": [{\"key\": \"value\", \"value\": \"{{API_KEY}}\"}]}",
        "\"reporting\" \"7BOejuXJlGF27\"",
        "use pw reset links instead of mailing passwords",
        "Nach dem Reset lautet das Passwort für den Admin-Account jetzt im Tresor.",
        "Das Datenbankpasswort ist im Tresor hinterlegt.",
        "Das Einmalpasswort ist 6-stellig.",
        "Das Datenbankpasswort ist Base64-kodiert.",
        "Password policy: Min=12chars",
        "pw for the vendor SFTP drop (rotated quarterly): see the vault entry",
        "[conexion]\ncontraseña = ${DB_CLAVE}",
        "password Policy rules apply to every account",
        "token usage for the request (sha256): 9f2c4a7e1b3d5f6a8c0e2b4d6f8a1c3e9f2c4a7e",
        "el password del usuario replicador es obligatorio",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Held-out 55: a Windows account and its password after a slash, a
/// password that "is currently" set, and a signing scheme's name after a
/// `Credentials=` label, which is none.
#[test]
fn windows_account_pairs_current_passwords_and_signing_schemes() {
    for hit in [
        "Windows admin on the build VM: .\\buildadmin / DYR4PdB#4JEU*Btse",
        "service account CORP\\svc-sql / q8Lm#Zt2Wv9x for the nightly restore",
        "The shared mailbox password is currently Quartz#Orbit50; Marta will rotate it Friday.",
        "The API key is currently q8ZmT2vLx9RkW4pN7cY3bH6dF1sJ0aQe",
        "Jenkins API token is still 11a2f9c3e8d47b6a5c0e9f8d7b6a5c4e3d",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "Credentials=AWS4-HMAC-SHA256 Credential=[REDACTED]/20240302/us-east-1/s3/aws4_request",
        "signature_algorithm: HmacSHA256",
        "copy .\\build\\out / dist when done",
        "CORP\\svc-sql / ******** (see the vault)",
        "the password is currently stored in the vault",
        "TWILIO_API_KEY=SK0d15d9d7ad67eded4abaa42d190c2c8e",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Held-out 57: a password reset "of" something to a value, a token named
/// as used for something, Vault AppRole's `secret_id`; a pagination
/// `token=` in a query is none.
#[test]
fn passwords_of_things_used_tokens_and_secret_ids() {
    for hit in [
        "I reset the root password of the MariaDB container to Maple5133#kCN6 so we could get in.",
        "Bearer token used for the smoke test was `BuQH5eOWI8mO8j4GKPqpE7aRf3NLwW8lZXbDY2zQ`",
        "secret_id = \"910be76d-53df-0e6f-8388-dcd37a89191b\"\nrole_id   = \"05d458fc-ce6d-5735-9e20-799019c07022\"",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "The \"token\" query parameter is a pagination cursor, e.g. /v2/items?token=page-3&limit=50.",
        "secret_id = \"prod-db-password\"",
        "aws secretsmanager get-secret-value --secret-id prod/db",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Held-out 56: Ruby's `||=` assigns a default.
#[test]
fn ruby_default_assignments() {
    assert!(fires(
        "ENV['PAYMENT_GATEWAY_SECRET'] ||= 'tdo52BVwGLSJusshnC5AdrgDVMVq40pF'",
        Rule::CredentialAssignment
    ));
    assert!(!fires(
        "ENV['PAYMENT_GATEWAY_SECRET'] ||= ENV.fetch('VAULT_PAYMENT_SECRET')",
        Rule::CredentialAssignment
    ));
}

/// Seen misses: a directive quoted after a colon, SNMP's camel-cased
/// passwords; a member's name is no password, and a date after a
/// password's name in a listing is none.
#[test]
fn quoted_directives_and_camel_cased_passwords() {
    for hit in [
        "redis.conf line 1041: requirepass BB506#llopdWEq",
        "SNMP v3 authPassword Falcon-pylon636! privPassword Saffron2599#Ty3H",
    ] {
        assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
    }
    for clean in [
        "DB_PASSWORD=config.DbPassword",
        "password = settings.Database.AdminPassword",
        "redis.conf line 1041: requirepass foobared",
        "the resetPassword endpoint returns 204",
        "db-password       2023-11-02T13:40:55  automatic           -",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}
