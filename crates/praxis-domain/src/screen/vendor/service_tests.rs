//! Tests of the vendor rules for package registries, chat webhooks and
//! cloud keys, beside [`super::tests`].

use crate::screen::fires;
use crate::screen::rule::Rule;

/// Yarn's `npmAuthIdent` holds a user and password; a sentence's full stop
/// after a key name is no token.
#[test]
fn yarn_auth_idents() {
    assert!(fires(
        "npmAuthIdent: \"c3ZjLXB1Ymxpc2g6MVlzZERZNHFFaW1DcFE=\"",
        Rule::CredentialNpm
    ));
    assert!(!fires(
        "_auth= is deprecated for the public registry; use a scoped _authToken instead.",
        Rule::CredentialNpm
    ));
}

/// A webhook given as its id and its token, in prose or in dotted
/// properties.
#[test]
fn discord_webhooks_by_id_and_token() {
    for hit in [
        "Webhook id 748882958541584465, token obSlhcW1pm08kLtgbMkqivNxCZziQ8EFZyUbhz9KBjDyMMcfXcHTDE0e1PcWcg2Cdp5e (channel #alerts).",
        "discord.webhook.id=1650239586000151124\ndiscord.webhook.token=ELTZRYEIETyuFQTTnifaPJgfQ9c2Xt_46ikgtf83c3qtDfUeLN-ngK4Y9dMPgE98nXqf",
    ] {
        assert!(fires(hit, Rule::CredentialDiscord), "{hit}");
    }
    assert!(!fires(
        "Webhook id 748882958541584465, token rotated yesterday.",
        Rule::CredentialDiscord
    ));
}

/// A presigned URL's key id, however it reads; a secret key given to `gh
/// secret set -b`.
#[test]
fn presigned_key_ids_and_secret_bodies() {
    for hit in [
        "https://m.s3.amazonaws.com/r.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAHUAIUXNOTAVZUZWE%2F20250301%2Feu-west-1%2Fs3%2Faws4_request",
        "gh secret set AWS_SECRET_ACCESS_KEY -b'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' -R harbor-labs/infra",
    ] {
        assert!(fires(hit, Rule::CredentialAws), "{hit}");
    }
    assert!(!fires(
        "X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20250301%2Fus-east-1%2Fs3%2Faws4_request",
        Rule::CredentialAws
    ));
}

/// Azure Cache for Redis's access key given to redis-cli, and a Functions
/// key in a Postman environment named `fnKey`.
#[test]
fn azure_redis_and_function_keys() {
    for hit in [
        "redis-cli -h teslin-cache.redis.cache.windows.net -p 6380 --tls -a Wcn7ysPj43ljEcVqPXSn/a68xPdmWLYXd03MuGyIhHg= PING",
        "{\"key\":\"fnKey\",\"value\":\"pgXMg8saWtzaNTFxpbYA+osOPFlCIenqhKkwbuLX2UlXaZB7rwbJtg==\",\"enabled\":true}",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    assert!(!fires(
        "redis-cli -h teslin-cache.redis.cache.windows.net -p 6380 --tls -a \"$REDIS_KEY\" PING",
        Rule::CredentialAzure
    ));
}

/// An AWS key id whose letters happen to read like words, in a text that
/// names AWS; a Mailgun key a few lines under its name; a Databricks token
/// after an escaped line break.
#[test]
fn spelled_ids_with_aws_mailgun_blocks_and_escaped_breaks() {
    assert!(fires(
        "sls config credentials --provider aws --key AKIAOMEBRIDGELUNAXQZ --secret x",
        Rule::CredentialAws
    ));
    assert!(!fires(
        "AWS Pricing API: filter on the ASIAPACIFICSOUTHEAST region group",
        Rule::CredentialAws
    ));
    assert!(fires(
        "mailgun:\n  domain: mg.example.org\n  api_key: 9c1e4b7a2d5f8e0c3b6a9d2f5e8c1b4a-7e2d9c4b-3a6f1e8d",
        Rule::CredentialOther
    ));
    assert!(!fires(
        "build 9c1e4b7a2d5f8e0c3b6a9d2f5e8c1b4a-7e2d9c4b-3a6f1e8d finished",
        Rule::CredentialOther
    ));
    assert!(fires(
        "databricks configure --token <<< $'https://dbc-1a2b3c4d.cloud.databricks.com\\ndapi0f9e8d7c6b5a49382716a5b4c3d2e1f0'",
        Rule::CredentialOther
    ));
}

/// A storage account's keys listed as a table; a PuTTY file whose private
/// lines' count is a redaction marker.
#[test]
fn listed_storage_keys_and_putty_counts_redacted() {
    assert!(fires(
        "KeyName    Permissions    Value\n---------  -------------  -----\nkey2       FULL           Zq8Xv3Lm7Tn2Rb5Kc9Wd4Yf6Hj1Ps0Ga8Ue3Io7Ny2Mt5Bw9Cz4Dx6Eq1Fr3Gs8Hk0Jl7Vp2Qa5Sb9Tc4Ud6We==",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: build-box\nPrivate-Lines: <removed>",
        Rule::CredentialPrivateKey
    ));
}

/// npm credentials written by printf or sed, glued to a flag, a feed's
/// `_password`, and a classic token (a UUID) named in a text about npm.
#[test]
fn npm_credentials_written_by_tools_and_classic_tokens() {
    for hit in [
        "printf '//npm.example.dev/:_authToken=%s\\n' 7f3e9a1c-2b4d-4e6f-8a0c-1e3d5f7b9a2c >> .npmrc",
        "sed -i 's#_authToken=.*#_authToken=9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d#' .npmrc",
        "gh secret set NPM_TOKEN -bnpm_Qx7Lm2Rp9XwT4kZs8NbC3yFd6Gj1Hv5Ka0Ue",
        "//pkgs.example.com/_packaging/feed/npm/registry/:_password=c2VydmljZTpRN3hMbTJScDlYd1Q=",
        "The old npm publish token 0c1d2e3f-4a5b-4c6d-9e8f-7a6b5c4d3e2f still works for @acme/cli.",
    ] {
        assert!(fires(hit, Rule::CredentialNpm), "{hit}");
    }
    for clean in [
        "printf '//npm.example.dev/:_authToken=%s\\n' \"$NPM_TOKEN\" >> .npmrc",
        "npm run build for request 0c1d2e3f-4a5b-4c6d-9e8f-7a6b5c4d3e2f finished",
    ] {
        assert!(!fires(clean, Rule::CredentialNpm), "{clean}");
    }
}

/// An Azure Cache for Redis key as a Redis URL's password.
#[test]
fn azure_redis_keys_in_urls() {
    assert!(fires(
        "CACHE_URL = \"rediss://:Qm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z4k=@orders.redis.cache.windows.net:6380/0\"",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "CACHE_URL = \"rediss://:${REDIS_KEY}@orders.redis.cache.windows.net:6380/0\"",
        Rule::CredentialAzure
    ));
}

/// Azure keys named as Azure names them (`primaryKey`, "primary key:",
/// `EventGridKey=`) in an Azure text, a storage key in an SMB credentials
/// file, an S3 secret on a here-string or beside S3's error, and a key
/// block inside a command substitution.
#[test]
fn named_azure_keys_s3_secrets_and_substituted_key_blocks() {
    for (hit, rule) in [
        (
            "az iot dps enrollment-group show: primaryKey: 56PKQ93NLSucywYY8Vrw0rJgSqxHmuC3pOwD33tGxLs=",
            Rule::CredentialAzure,
        ),
        (
            "Event Grid topic setting EventGridKey=QXZX9cKj1etqc5G3TFzgTZBQPopKwbmCm35OLhx600A=",
            Rule::CredentialAzure,
        ),
        (
            "echo 'password=PbqjyWBPtLHPT1nFQc04/5fDisIaFy5ZFdonFdKn8JRJXNxlxllAbxRXsCRkvDSS2pa+lIWBKeXM6hhT9FMddw==' > /etc/smbcredentials/stfiles.cred",
            Rule::CredentialAzure,
        ),
        (
            "bin/elasticsearch-keystore add --stdin s3.client.backup.secret_key <<< 'ero2XjdncpBzxOYVGSMzKwyH2u9Jyo+w/P3HXG2o'",
            Rule::CredentialAws,
        ),
        (
            "SignatureDoesNotMatch on PutObject: the secret 1JwL0ov1vQb15N8lcQQIWQlOiWH6m1leE3nb94bn had a stray newline.",
            Rule::CredentialAws,
        ),
        (
            "fly secrets set TLS_KEY=\"$(printf '%s' '-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBq4Lm9Rz2Tw7Kp3Vb8Nc1Hd6Fs0Gj5YaEu7Ko2Ti9Wq3oAoGCCqGSM49\\nAwEHoUQDQgAEXz2Rw7Kp4Vx9Nb1Hc6Fd0Gs5JaEu3Ko8Ti2WqLm8Xz2Rw7Kp4Vx9N\\nb1Hc6Fd0Gs5JaEu3Ko8Ti2Wq==\\n-----END EC PRIVATE KEY-----')\"",
            Rule::CredentialPrivateKey,
        ),
    ] {
        assert!(fires(hit, rule), "{hit}");
    }
    for (clean, rule) in [
        (
            "primary key: 56PKQ93NLSucywYY8Vrw0rJgSqxHmuC3pOwD33tGxLs= (a row id in our own table)",
            Rule::CredentialAzure,
        ),
        (
            "Postgres in the Phoenix, AZ region: row primary key: 56PKQ93NLSucywYY8Vrw0rJgSqxHmuC3pOwD33tGxLs=",
            Rule::CredentialAzure,
        ),
        (
            "the secret 1JwL0ov1vQb15N8lcQQIWQlOiWH6m1leE3nb94bn is in the vault",
            Rule::CredentialAws,
        ),
        ("TLS_KEY=\"$(cat tls.key)\"", Rule::CredentialPrivateKey),
    ] {
        assert!(!fires(clean, rule), "{clean}");
    }
}

/// Session 41's tuning on held-out 47: AWS key ids with no digit that
/// read like words count beside a secret key's shape, and a Discord
/// webhook's path given without its host.
#[test]
fn digitless_key_ids_and_webhook_paths() {
    for (hit, rule) in [
        (
            "Kimlik bilgileri (test hesabı): AKIANVUOZXUINFMBIKGL / jJHqJ9HtAC+A+DEAu9Tp0yr8SsUzUf2vjfcVjwEH",
            Rule::CredentialAws,
        ),
        (
            "jdbc:awsathena://AwsRegion=us-east-1;User=AKIAOBLHVDAIJANZQNQO;Password=SIG2btIi95srS3go/EfexfLlA8jS3rDwnIbf+F9r",
            Rule::CredentialAws,
        ),
        (
            "hook is 272188732008871562/iX2gkkFJ7WlLvHJNp_bgOsj7zz-iTwIqWWnDrAs-CXqXDFDENsyc5oMrTxFjWeSiFAyM (discord.com/api/webhooks/ prefix)",
            Rule::CredentialDiscord,
        ),
    ] {
        assert!(fires(hit, rule), "{hit}");
    }
    for (clean, rule) in [
        (
            "AWS Pricing API: filter on the ASIAPACIFICSOUTHEAST region group",
            Rule::CredentialAws,
        ),
        (
            "webhook ids are snowflakes like 272188732008871562; the token follows after a slash",
            Rule::CredentialDiscord,
        ),
        (
            "Webhook retry queue: message 1718035200123456789/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 was dropped",
            Rule::CredentialDiscord,
        ),
        (
            "enum Region { ASIANORTHEASTCENTRAL, ASIASOUTHEASTCENTRAL }",
            Rule::CredentialAws,
        ),
        (
            "npm config get //registry.npmjs.org/:_authToken >/dev/null && echo 'token configured'",
            Rule::CredentialNpm,
        ),
        (
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: aes256-cbc\nComment: [contents removed before filing]",
            Rule::CredentialPrivateKey,
        ),
    ] {
        assert!(!fires(clean, rule), "{clean}");
    }
}

/// A Slack refresh token with `_` in it, a JWT after an encoded space
/// (`Bearer%20eyJ…`), an Azure key after its name and a space.
#[test]
fn refresh_tokens_encoded_bearers_and_spaced_key_names() {
    for (hit, rule) in [
        (
            "grant_type=refresh_token&refresh_token=xoxe-1-tK94d_6QqJqHcApfsJbaB4g_7bmtvzKoCzMwSPs6BBv7iZgNthn9oQri1vRvqKszX6LRAOySLh4HDe&client_id=29384756.10293847",
            Rule::CredentialSlack,
        ),
        (
            "cookie \"auth._token.local\" = Bearer%20eyJhbGciOiJIUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiIzMTA2NzMiLCJpYXQiOjE3MDMxODExOTJ9.arz7dGGqfiWSEQJD718hkNiamrS-p8794NNl0ZTXyZ6",
            Rule::CredentialJwt,
        ),
        (
            "az servicebus namespace authorization-rule keys list printed primaryKey mZs6rNh9Z00kciH6Rm1+UDjUMCLuZFA1pUR0QrFZrAc= and I pasted it.",
            Rule::CredentialAzure,
        ),
    ] {
        assert!(fires(hit, rule), "{hit}");
    }
    for (clean, rule) in [
        ("xoxe-your_refresh_token_here", Rule::CredentialSlack),
        ("?q=Bearer%20token%20docs", Rule::CredentialJwt),
        (
            "az servicebus namespace authorization-rule keys list prints primaryKey and secondaryKey.",
            Rule::CredentialAzure,
        ),
    ] {
        assert!(!fires(clean, rule), "{clean}");
    }
}

/// From a review: a name with `_` after a Slack prefix, a token after an
/// encoded space that starts with a digit, an Azure key after "is".
#[test]
fn slack_names_digit_tokens_and_keys_after_is() {
    assert!(!fires(
        "if token.startswith(\"xoxp-user_token_v2\"): raise ValueError",
        Rule::CredentialSlack
    ));
    assert!(fires(
        "az servicebus namespace authorization-rule keys list: the primary key is mZs6rNh9Z00kciH6Rm1+UDjUMCLuZFA1pUR0QrFZrAc= and I pasted it.",
        Rule::CredentialAzure
    ));
}

/// A storage account's key after "account key" written in words.
#[test]
fn storage_keys_after_account_key_in_words() {
    assert!(fires(
        "Hi team, the new share for the finance export is ready. Account key if you need to mount it manually: 1NpRbXUFtSuFwr2dQkFWPf+XAdBOOvSM/NxGUTgaUzaStf+OWN8i7cJ/1xYQQGtRXeGy6v7nSH2qGzxcAB8qWg== (stfinexport).",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "Account key rotation is scheduled; the new value lives in Key Vault.",
        Rule::CredentialAzure
    ));
}

/// From a review: a 64-byte digest or signature in a text that names an
/// account key but no storage is no storage key.
#[test]
fn digests_beside_account_keys() {
    for clean in [
        "Signed the request with the account key; X-Signature (HMAC-SHA512): n5F5f4zlOh4DeiHaSlG6FAtL0iF334I+3fLrZRwzk8Q4QWinztjqU8xtc/ruZKDuuMTrQg5n+TOlg991ClSpSw==",
        "Each service account key is pinned by its SHA-512 digest: Y3PcnF9azdy3mf0w+8oU0PIbzicJMix5z9Oj+q1eA/+GBYOM7BfH2L3wqb+gGMFGRDlkRmmrXMgoNlJKDEbBrA==",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

#[test]
fn held_out_fifty_vendor_shapes() {
    for hit in [
        "Secret access key for the backup user (rotate quarterly): Ow9HprALF9FZaVQvQbu17LPKi25+d9jDNv4qyBQt",
        "secret access key for svc-etl (prod): sH+nqx021IdA3dkj2ylLELW2l/KolsOfBwdawXSZ",
    ] {
        assert!(fires(hit, Rule::CredentialAws), "{hit}");
    }
    for clean in [
        "Secret access key for the backup user: stored in Vault under aws/backup, never in this file.",
        "Secret access key for the backup user: <redacted>",
    ] {
        assert!(!fires(clean, Rule::CredentialAws), "{clean}");
    }
}

#[test]
fn twilio_digests_by_place_stand_down() {
    for hit in [
        "twilio client = Client('AC' + sid, 'f3c9a1e07b5d42c8a6e1d9b0c7f2a4e8')",
        "TWILIO_AUTH_TOKEN=9b1e4c7a2d5f8e0b3c6a9d2e5f8b1c4a",
    ] {
        assert!(fires(hit, Rule::CredentialTwilio), "{hit}");
    }
    for clean in [
        "d41d8cd98f00b204e9800998ecf8427e  twilio-9.0.4.tar.gz (empty download, the mirror returned 0 bytes)",
        "Sentry event 3283a50e61706a4a0cca480bee7be6be grouped under TwilioRestException (error 21408).",
        "Bundle name app.91ab181165531f9289648874ef3e7908.js carries a content hash; the Twilio widget has no credentials.",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
}

#[test]
fn telegram_token_glued_to_a_flag() {
    for hit in [
        "gh secret set TELEGRAM_TOKEN -b7202376242:AAXiPdYGFMrRyPjmev_o_hsE-3c2wfy6W1A",
        "gh secret set BOT_TOKEN -R acme/bot -b 6123456789:AAH2kLm9Xz4Rt7Vb1Nc8Hd3Fs6Gj0YaEu5K",
    ] {
        assert!(fires(hit, Rule::CredentialTelegram), "{hit}");
    }
    for clean in [
        "gh secret set TELEGRAM_TOKEN -b\"$TELEGRAM_TOKEN\"",
        "gh secret set TELEGRAM_TOKEN -b\"${{ secrets.TG }}\"",
    ] {
        assert!(!fires(clean, Rule::CredentialTelegram), "{clean}");
    }
}

#[test]
fn azure_sql_passwords_openai_headers_and_rclone_keys() {
    for hit in [
        "api-key: 88c1ff0af4335b05c810898cccf46d50 header sent to https://oai-weu-prod.openai.azure.com/openai/deployments/gpt4o/chat/completions returns 429",
        "Database connection: Server=tcp:sql-crm-prod.database.windows.net,1433;Initial Catalog=crm;User ID=crmapp;Password=nimbus+66;Encrypt=True;",
        "\"Default\": \"Server=tcp:sqlsrv-inv.database.windows.net,1433;Database=inv;User Id=inv_rw;Pwd=harbor-mango-fennel2;\"",
        "rclone config: account = stmediaraw\nkey = 45qVn8+XwK/yMrOFK3O6MYvtK+YuylAxIaNJRaGqMZN4i0XdD7dWKur2hjdB3Jz7XMkz8/KdRW7Ok4wGahLqaA==",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    for clean in [
        "Server=tcp:sql-crm-prod.database.windows.net,1433;User ID=crmapp;Password={your_password};Encrypt=True;",
        "Server=tcp:sql-crm-prod.database.windows.net,1433;User ID=crmapp;Password=$(SQL_PASSWORD);",
        "Server=tcp:sql-crm-prod.database.windows.net,1433;Authentication=Active Directory Default;",
        "api-key: <your-key> header sent to https://oai-weu-prod.openai.azure.com/openai/deployments",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

#[test]
fn review_forty_four_vendor_false_alarms() {
    for clean in [
        "Rotated the secret access key for ci-user in commit: 619dc2f48c071e8c4e2c7d73826706bc9e293c14",
        "Secret access key fingerprint (sha1): 4f2a9c1e7b3d5a8f0c6e2b9d1a7f3c5e8b0d2a4f",
    ] {
        assert!(!fires(clean, Rule::CredentialAws), "{clean}");
    }
}

#[test]
fn twilio_hex_as_files_and_labelled_ids() {
    for clean in [
        "Twilio widget: GET /static/91ab181165531f9289648874ef3e7908.js 404",
        "Twilio bundle main.91ab181165531f9289648874ef3e7908-legacy.js failed to load",
        "twilio.js?v=91ab181165531f9289648874ef3e7908 loaded",
        "twilio job 91ab181165531f9289648874ef3e7908 failed",
        "Twilio webhook trace 91ab181165531f9289648874ef3e7908 shows a 502",
        "git log --oneline -2\n5c21fda647edc0eba2f04e5e02e46f97 bump twilio sdk\n7a1c0de fix sms retry",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
    // Not a listing's line: a token after other output still counts.
    let hit = "Checked git log, nothing committed. The .env printed:\n5c21fda647edc0eba2f04e5e02e46f97 <- twilio auth token";
    assert!(fires(hit, Rule::CredentialTwilio));
}

#[test]
fn azure_sql_prose_and_templates() {
    for hit in [
        "Server=tcp:a.database.windows.net,1433;Uid=app;Pwd=Hq7v-R2mL;",
        "Server=tcp:b.database.windows.net;Database=crm;User ID=crm;Password=nimbus+66;",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    for clean in [
        "Login failed on acme-sql.database.windows.net; password = the one from Key Vault, verified twice",
        "Server=tcp:a.database.windows.net,1433;User ID=app;Password=see key vault;",
        "Server=tcp:a.database.windows.net,1433;Password=@@SQLPWD@@;",
        "Server=tcp:a.database.windows.net,1433;Password=ENC(Zm9vYmFy);",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

/// A bot token whose HMAC a log cut with an ellipsis after 27 or more
/// characters still shows whole; one cut short does not.
#[test]
fn discord_tokens_before_an_ellipsis() {
    for hit in [
        "Logging in with token MjU5OTM0Mjg3MDQzMDIyNzYy.BHMyRm.2joL7E-Ar3SubtDlCl29E78jH8dEACvhHrgMkN...",
        "token MTI4NTQ4MDkwMDYxNTQ4OTU4NQ.biBk--.tmESO0f0XbxhIiPrNJaMJbDrNH_lZCQ2bCFEcc... rejected",
    ] {
        assert!(fires(hit, Rule::CredentialDiscord), "{hit}");
    }
    for clean in [
        "token MTI4NTQ4MDkwMDYxNTQ4OTU4NQ.biBk--.tmESO0f0X... rejected",
        "token MTI4NTQ4MDkwMDYxNTQ4OTU4NQ... rejected",
    ] {
        assert!(!fires(clean, Rule::CredentialDiscord), "{clean}");
    }
}

/// A bot token given as a shell default is caught after the default's
/// dash.
#[test]
fn discord_tokens_as_a_shell_default() {
    assert!(fires(
        "DISCORD_TOKEN: ${DISCORD_TOKEN:-NzcyMzE2MjI2MTAzMTE5MTQ5.Sk7l2H.2e0x2yBnyrySIPrbyWdaS3ffRW1}",
        Rule::CredentialDiscord
    ));
    assert!(!fires(
        "DISCORD_TOKEN: ${DISCORD_TOKEN:-Nzcy-MzE2MjI2MTAzMTE5MTQ5.Sk7l2H.2e0x2yBnyrySIPrbyWdaS3ffRW1}",
        Rule::CredentialDiscord
    ));
}

/// Two dots end a token as three do; an HMAC that counts up is a sample.
#[test]
fn discord_tokens_before_two_dots_and_counting_samples() {
    assert!(fires(
        "my token is MTkxNjI2Mjc4MTIzOTY4NzI2Ng.S4Iuge.d4gSaltqDXBJnxa-J9df92Wg8_k..",
        Rule::CredentialDiscord
    ));
    for clean in [
        "token: MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.AbCdEf.ABCDEFGHIJKLMNOPQRSTUVWXYZabc...",
        "token: MTA1NjQ3ODk2NTQzMjEwOTg3Ng.GhJk2L.abcdefghijklmnopqrstuvwxyz1234...",
    ] {
        assert!(!fires(clean, Rule::CredentialDiscord), "{clean}");
    }
}

/// A Telegram token split in two beside its bot's id, and an AWS secret
/// key near the word "secret" in a text about AWS; and the halves, hashes
/// and alphabets that are none.
#[test]
fn split_bot_tokens_and_secrets_near_their_word() {
    for (hit, rule) in [
        (
            "BOT_ID = \"1857320291\"\nBOT_SECRET = \"AAG1Y0ETCO9yiHjgsCm7lWPL9CkC0iYgora\"\nTOKEN = BOT_ID + \":\" + BOT_SECRET",
            Rule::CredentialTelegram,
        ),
        (
            "S3 said SignatureDoesNotMatch: the secret had a trailing newline: 'tbvm2I4Trc+mNdigMN/LvJnCxx+HG5IPcVt5OAPX\\n'.",
            Rule::CredentialAws,
        ),
        (
            "printf '%s\\n' jG4OdmlNHxE5qdePkl2e2lVD2lYC3z0XbnrOSmkM | docker secret create aws_secret_key -",
            Rule::CredentialAws,
        ),
    ] {
        assert!(fires(hit, rule), "{hit}");
    }
    for (clean, rule) in [
        (
            "BOT_SECRET = \"AAG1Y0ETCO9yiHjgsCm7lWPL9CkC0iYgora\" # no id anywhere",
            Rule::CredentialTelegram,
        ),
        (
            "The secret scanner flagged commit 3b5f0f0e4c8d2a1b9e7f6a5d4c3b2a1f0e9d8c7b in the aws repo",
            Rule::CredentialAws,
        ),
        (
            "aws: the secret_key fixture is ABCDEFGHIJabcdefghij0123456789ABCDEFGHIJ",
            Rule::CredentialAws,
        ),
    ] {
        assert!(!fires(clean, rule), "{clean}");
    }
}

/// PGP 2's `SECRET KEY BLOCK`, and a key as `cat -A` shows it (`$` and
/// `^M` at each line's end); a public block stays clean.
#[test]
fn pgp_secret_blocks_and_keys_shown_by_cat() {
    for hit in [
        "-----BEGIN PGP SECRET KEY BLOCK-----\nVersion: 2.6.3i\n\niY4vjBIQfvN2sM+HB/YjmOkMi6QL9ZpsbM4keLPOtMjJRYhkOVp51jNKjzX4a8zM\n4AvcsNuRjcHxycAQF9aef5SeOgvPxlns6lDYpPr4AvxLiZaxf6RHMCElE47omJs6\nWVF+hWOHekV1W3xdpOAx7lXBphWe8dlaw42xfoAjc2L5kd8GULxhIOrz350ZBFFu\n-----END PGP SECRET KEY BLOCK-----",
        "`cat -A deploy_key` shows:\n-----BEGIN OPENSSH PRIVATE KEY-----^M$\nb3BlbnNzaC1rZXktdjEAHZZYA/xDxxMXhQDor5lZQ1HXjsNmVY+QADYCMdteJDvrvxW+NM^M$\nFo+ei86sfcKP8uywvs7guK6hbs5VQA+fFPR4Jmhsk0boQqk7VDZSXMO5a+6LydTrKipRZU^M$",
    ] {
        assert!(fires(hit, Rule::CredentialPrivateKey), "{hit}");
    }
    assert!(!fires(
        "-----BEGIN PGP PUBLIC KEY BLOCK-----\niY4vjBIQfvN2sM+HB/YjmOkMi6QL9ZpsbM4keLPOtMjJRYhkOVp51jNKjzX4a8zM\n-----END PGP PUBLIC KEY BLOCK-----",
        Rule::CredentialPrivateKey
    ));
}

/// A message sent through Twilio's Python client marks a text about
/// Twilio; Anthropic's client makes the same call with no sender.
#[test]
fn twilios_python_client_without_its_name() {
    let twilio = "def send_code(number, code):\n    # prod token: 7660bc8b8da42ec7dbf9d3b6320a8bc6\n    return _client().messages.create(to=number, from_=SENDER, body=code)";
    assert!(fires(twilio, Rule::CredentialTwilio));
    let anthropic = "# trace token: 7660bc8b8da42ec7dbf9d3b6320a8bc6\nclient.messages.create(model=MODEL, max_tokens=64, messages=msgs)";
    assert!(!fires(anthropic, Rule::CredentialTwilio));
    for clean in [
        "client.messages.create(to=a, from_=b, body=c)\nidempotency token b66d466f8e2c4a7f9b1d3e5c7a9f1a34 was reused",
        "client.messages.create(to=a, from_=b, body=c)\ncsrf token in the form was 83e3fb34a1c2d4e5f6a7b8c9d0e1f2a3",
        "client.messages.create(to=a, from_=b, body=c)\nmax tokens: 1024, checksum 34c22008a1b2c3d4e5f6a7b8c9d0e1f2",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
}

/// Grafana's old API key is base64 JSON; Python's `json.dumps` writes it
/// with a space after each colon (`{"k": "…"`).
#[test]
fn grafana_keys_encoded_with_spaces() {
    assert!(fires(
        "old-style API key (Admin role): eyJrIjogIjdoaEdUaFBpbjBveG8xcWozeFducGxJYmljRVZacUM4IiwgIm4iOiAiY2ktcHVibGlzaGVyIiwgImlkIjogNH0=",
        Rule::CredentialOther
    ));
    for clean in [
        "old-style API key (Admin role): eyJrIjogIi4uLiJ9",
        "example: eyJrIjogIkVYQU1QTEVfS0VZX0RPX05PVF9VU0UiLCAibiI6ICJleGFtcGxlIiwgImlkIjogMX0=",
    ] {
        assert!(!fires(clean, Rule::CredentialOther), "{clean}");
    }
}

/// SAS signatures in wrapped and XML-escaped URLs, a storage key named in
/// Polish, a Relay key given apart from its policy's name.
#[test]
fn sas_signatures_wrapped_escaped_and_keys_named_apart() {
    for hit in [
        "url=https://stx.blob.core.windows.net/e/l.parquet?sv=2023-01-03&sr=b&sp=w\n    &sig=7IWKmpgUPQxU8cUM9dRrY6%2F0CqVk7GVjoGX%2FE7vY0L0%3D",
        "<value>https://stg.blob.core.windows.net/n?sp=r&amp;sv=2023-11-03&amp;sr=c&amp;sig=FKdureNyprj59DlKxKiy4wTcaDEYo8JQsY6xV6NoleE%3D</value>",
        "Klucz konta magazynu (key1): sE/1/VkY0Gb9uOp6h1tfsYCDUe49PhpXtmqV0r7HXN/AUueZS+YTyT3Ip2ihRGgqbAq9S6KmgffQGMNtAPaJyA==",
        "const keyrule = \"RootManageSharedAccessKey\";\nconst key = \"RjDy8Mbdtdbma7EetX2bShZDFWZONNVoNztMOR7YnEc=\";",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    for clean in [
        "&sig=<signature>&se=2024-12-31",
        "const keyrule = \"RootManageSharedAccessKey\";\nconst key = process.env.RELAY_KEY;",
        "Klucz konta magazynu (key1) jest w Key Vault.",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

/// Held-out 55: a classic npm token under a longer variable name, and a
/// storage account key named in a sentence.
#[test]
fn npm_tokens_in_longer_names_and_account_keys_in_sentences() {
    assert!(fires(
        "FONTAWESOME_NPM_AUTH_TOKEN=e1429f4c-9112-4616-ad61-91c720e8691b",
        Rule::CredentialNpm
    ));
    for clean in [
        "FONTAWESOME_NPM_AUTH_TOKEN=${{ secrets.FA_TOKEN }}",
        "theme kit: password: shptka_${THEME_TOKEN}",
        "PAGE_TOKEN=0b7e2c44-5d1a-4f3e-9c8b-2a6d4e1f7b90\nnext page of npm search results",
        "IDEMPOTENCY_TOKEN=0b7e2c44-5d1a-4f3e-9c8b-2a6d4e1f7b90 sent with each npm-cli registry POST",
    ] {
        assert!(!fires(clean, Rule::CredentialNpm), "{clean}");
    }
    assert!(fires(
        "For reference the real account key for stprodorders is Jsv8/aDllTNLvdR2rDF2E90m4fGfIkqW5hzw5In+qCYjZHKVaZx/LuXWWO49dbWqPOAr5qdLQfZ/suWmr0RQig== – rotate it.",
        Rule::CredentialAzure
    ));
    assert!(fires(
        "Key1 for stcrmexports (rotated 2024-09-02): KIK3MMVYfQMWl/RUJIX8z9IIoXfxkyLY3vDI5wGi6M81S6ewn6oYkdBrAV19X819HHXeKEcLply1LITdxCeSiA==",
        Rule::CredentialAzure
    ));
    assert!(fires(
        "account key for acct01 is: Jsv8/aDllTNLvdR2rDF2E90m4fGfIkqW5hzw5In+qCYjZHKVaZx/LuXWWO49dbWqPOAr5qdLQfZ/suWmr0RQig==",
        Rule::CredentialAzure
    ));
    assert!(fires(
        "Account Key:\nJsv8/aDllTNLvdR2rDF2E90m4fGfIkqW5hzw5In+qCYjZHKVaZx/LuXWWO49dbWqPOAr5qdLQfZ/suWmr0RQig==",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "The account key for stprodorders is in Key Vault; never paste it here.",
        Rule::CredentialAzure
    ));
}

/// Held-out 55: an API key secret without a digit beside its SIDs, and an
/// auth token named a few words after it.
#[test]
fn twilio_secrets_without_digits_and_tokens_named_after() {
    for hit in [
        "var token = new AccessToken(\"AC20bb3d5c45baef74b04d058a3763a227\", \"SK0d15d9d7ad67eded4abaa42d190c2c8e\", \"DoGPKbgWeyHKAmSEjkhdTpWxkhFNvMAO\", identity: \"agent-lobby\");",
        "The callback signature check failed because we were signing with 4da29bd1a21f966da8fdd26f0091f170 (the secondary auth token) while the primary had already been promoted.",
    ] {
        assert!(fires(hit, Rule::CredentialTwilio), "{hit}");
    }
    for clean in [
        "new AccessToken(\"AC20bb3d5c45baef74b04d058a3763a227\", \"SK0d15d9d7ad67eded4abaa42d190c2c8e\", \"DocumentProcessingServiceHandler\")",
        "sent 4da29bd1a21f966da8fdd26f0091f170 (the message id, not the auth token) to the SMS log",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
}

/// Held-out 57: a Shopify theme access token.
#[test]
fn shopify_theme_access_tokens() {
    assert!(fires(
        "development:\n  password: shptka_f09e74bd78f65816e5b0f6dff8e9ca1d\n  store: lumen-goods.myshopify.com",
        Rule::CredentialOther
    ));
    assert!(!fires(
        "password: shptka_<theme access token>",
        Rule::CredentialOther
    ));
}

/// Held-out 58: a GitHub token whose random body drew no digit, a
/// Telegram token after a label in another script, an npm token in a
/// JavaScript template's `${"…"}`.
#[test]
fn digitless_github_tokens_and_labelled_telegram_tokens() {
    assert!(fires(
        "client = Octokit::Client.new(access_token: 'gho_yJxPpqrsrcGtVCQoiFPwltDpQTAFtQpUgGuO')",
        Rule::CredentialGithub
    ));
    for clean in [
        "export GITHUB_TOKEN=ghp_YourPersonalAccessTokenGoesRightHere",
        "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    ] {
        assert!(!fires(clean, Rule::CredentialGithub), "{clean}");
    }
    assert!(fires(
        "机器人令牌：7474719456:AAFnBWmtsbVMTKNlYuhChLQ7KpI1wXYunZR（测试群用，别外传）",
        Rule::CredentialTelegram
    ));
    assert!(!fires(
        "Uptime 12:34:56 and build 7474719456:release-candidate-twenty-four-final",
        Rule::CredentialTelegram
    ));
    assert!(fires(
        "const npmrc = `//registry.npmjs.org/:_authToken=${\"npm_2KFNK4rJA7CDfJyaXsDsc7ywzUHauxcQQxd0\"}\\n`;",
        Rule::CredentialNpm
    ));
    assert!(!fires(
        "const npmrc = `//registry.npmjs.org/:_authToken=${process.env.NPM_TOKEN}\\n`;",
        Rule::CredentialNpm
    ));
}

/// Held-out 58: a storage key beside its pair's name (`key1`), a Functions
/// key in a Terraform output named for the function, an AWS secret key
/// labelled well before it in a text about IAM.
#[test]
fn storage_keys_by_pair_name_and_function_outputs() {
    for hit in [
        "Rotated key1 on stledgerprod after it showed up in the build log. The old value was 9OleF9KC1l/Ne1WZbAs84nt0Di5kw2PeSI/Jhcs+3m6y/GKEaPcf1mgWc9bhhEF2nm6GHhyxk7tnpYFdl+LcRg== — check nothing still authenticates with it.",
        "[\n  {\n    \"keyName\": \"key1\",\n    \"permissions\": \"FULL\",\n    \"value\": \"iqLSQGwpHN+bZvwpI25m+s/Qg+mVMb+Vi2ZRBhzSnM0BM3COO3HwxlCuZx1fXIlCLOinSv1o0Ow6jsE5ne2jow==\"\n  }\n]",
        "function_app_name = \"fa-thumbs-prod\"\nfunction_default_key = \"L7ZRYEeluhCCjOQxVYGyMrMXdVajydAzFu3QV5eCjod9YZx5TD6265==\"",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    // A package's integrity hash is 64 bytes too.
    assert!(!fires(
        "key1: \"integrity\": \"sha512-9OleF9KC1l/Ne1WZbAs84nt0Di5kw2PeSI/Jhcs+3m6y/GKEaPcf1mgWc9bhhEF2nm6GHhyxk7tnpYFdl+LcRg==\"",
        Rule::CredentialAzure
    ));
    assert!(fires(
        "secret key for the backup IAM user (access key id ending in the one we gave Jonah): 4KNVeozB+u4idPbWd/lYNwwBFD6ZRBdogIt+CqJo",
        Rule::CredentialAws
    ));
    assert!(!fires(
        "secret key for the backup IAM user was rotated; the commit that removed it is 4f2c9e1b7a3d5f8e0c2b4a6d8f1e3c5b7a9d0e2f",
        Rule::CredentialAws
    ));
}

/// A secret access key in the console's credentials file or a table's
/// column named for it.
#[test]
fn aws_secret_keys_in_columns() {
    for hit in [
        "IAM access key csv:\nUser name,Secret access key\nci-bot,1O2hMQr/mgoTb6YYm4wLW1BR5NGM7rCguaBBlJ+o",
        "| User | Secret access key |\n|---|---|\n| ci | 1O2hMQr/mgoTb6YYm4wLW1BR5NGM7rCguaBBlJ+o |",
    ] {
        assert!(fires(hit, Rule::CredentialAws), "{hit}");
    }
    assert!(!fires(
        "User name,Secret access key\nci-bot,(rotated; see the vault)",
        Rule::CredentialAws
    ));
}

/// A review's findings: a pair's name or a function's elsewhere in the
/// text does not make any 64- or 40-byte base64 value a key.
#[test]
fn pair_names_alone_do_not_place_keys() {
    for clean in [
        "const cache = new Map(); cache.set(\"key1\", 1);\n// signature: sjYEzg66huw4qNYWraO+mO4+0yzaLnfG8vpn8JQ9yzibxGNQs2Ipv5zv/wFaDwj3Wap4R9X0PzFq7g77KAZK8A==",
        "Example dict: {key1: a, key2: b}\nsha512 digest (base64): 5GvPTKJaYolwZD/nZO25i3CsT8yMdxf5rXMhj6z5YsPupZiTOyJMrTjdOS2ohutBxyIpU/7zFb3k1c+4xfPiuQ==",
        "function_timeout = 30\netag: \"3m/6QoaBw2FlqRtCcFYeRAeJFoFjGDJ7udzds1xC4r91PuBoPptvnA==\"",
        "func_name=process_order\nchecksum=2tQDmRQA1edWiZE3P2uCNKFKEbHcFKrtXkd649wVUyIF+4OvntEw9Q==",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
    for hit in [
        "токен бота：5057894404:AA8PnbCf0eVyjCT5BaaUuU4BO_BKdCyUcgZ",
        "令牌 ：5057894404:AA8PnbCf0eVyjCT5BaaUuU4BO_BKdCyUcgZ",
    ] {
        assert!(fires(hit, Rule::CredentialTelegram), "{hit}");
    }
    assert!(fires(
        "const npmrc = `//registry.npmjs.org/:_authToken=${`npm_LaWR8Vi7qrgD2EewAnGxsHCKCHWxsKBgZ6be`}`;",
        Rule::CredentialNpm
    ));
}

/// Held-out 59: npm's `_auth` named in prose or written by `printf`, a
/// Functions master key read from Kudu.
#[test]
fn npm_auth_in_prose_and_kudu_master_keys() {
    for hit in [
        "Decoded the _auth from the CI runner's .npmrc (c3ZjLW5wbTozZzRaOWdobjQ1ayVzI2VIV09j): it is the old service account.",
        "printf '_auth=%s\\n' amVua2luczpTODBHZUJ5VHJQdEhkZzZIZ0hmWA== >> .npmrc",
    ] {
        assert!(fires(hit, Rule::CredentialNpm), "{hit}");
    }
    // Base64 that decodes to no `user:password` is no `_auth`.
    assert!(!fires(
        "The _auth field (see docs) takes base64 such as aGVsbG8gd29ybGQgYWdhaW4= only.",
        Rule::CredentialNpm
    ));
    assert!(fires(
        "_master key from the Kudu console: mewfQco-Zcv10Rioy1KtisV6Z75ADtJ3u9yxcU5Z5vCICXyHGeyXW3== (will rotate after the demo)",
        Rule::CredentialAzure
    ));
}

/// Held-out 59: a classic GitHub token whole before an ellipsis is not cut.
#[test]
fn whole_github_tokens_before_an_ellipsis() {
    assert!(fires(
        "Using token: ghp_adRd7r0jfnvvVzBJnpv8TJx1tWwS2ERvvsL7...\nFetching 312 issues",
        Rule::CredentialGithub
    ));
    assert!(!fires(
        "Using token: ghp_adRd7r0jfnvvVzBJ...",
        Rule::CredentialGithub
    ));
    assert!(!fires(
        "token github_pat_11ABCDE2F0abcdefghijklmnopqrstuv...",
        Rule::CredentialGithub
    ));
}

/// Held-out 60: a project key whose random body holds a chance `xxxX`
/// beside OpenAI's `T3BlbkFJ` marker.
#[test]
fn project_keys_with_a_chance_run_of_one_letter() {
    assert!(fires(
        "OpenAI(api_key='sk-proj-t8nOK-gsBQg-GqY7QBlkAMtlAfDD9ec2U4r0FRY8nnFVZenJNkiRYrxhUDDpoUf6_Af2cHhlriT3BlbkFJer3BOXywo2p7VQpcm_N-BxxxXdq8eOrZb7VAoMfr8rbTZY4oQQjB4v9pHU6XSm73cleBLEKC6P')",
        Rule::CredentialOpenai
    ));
    assert!(!fires(
        "OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxT3BlbkFJxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        Rule::CredentialOpenai
    ));
}

/// Held-out 61: a Doppler token with an environment's segment, an
/// Anthropic key whose random body holds a chance `xxxx`.
#[test]
fn doppler_segments_and_chance_filler_in_long_keys() {
    assert!(fires(
        "doppler configure set token dp.pt.prd.ritr30Fja3W1bJv4Qz2IFewQRty3OW1SkaMmdf5lFdx --scope .",
        Rule::CredentialOther
    ));
    assert!(fires(
        "ChatAnthropic(anthropic_api_key=\"sk-ant-api03-D1TkxxxxlNepqzAaWx9T892-6swsYTpsEZQ_QESQRmOFx1hj9J_I6lPIlteJc_Pvq758oOqyXR9ljlfvIEiiL-az8Pj-sAA\")",
        Rule::CredentialAnthropic
    ));
    assert!(!fires(
        "ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        Rule::CredentialAnthropic
    ));
}

/// Held-out 64: a Mailgun key beside its `mg.` sending domain or its
/// `api:` user; a PuTTY header whose key lines a note in parentheses
/// says were removed is no key.
#[test]
fn mailgun_domains_and_putty_notes() {
    for hit in [
        "mg.send(domain='mg.pemberhaus.org', key='a85f223537d30489b99194c13318b64e-87874ee9-a1bf0089')",
        "curl -s --user 'api:a85f223537d30489b99194c13318b64e-87874ee9-a1bf0089' https://api.eu.example.net/v3/x/messages",
    ] {
        assert!(fires(hit, Rule::CredentialOther), "{hit}");
    }
    assert!(!fires(
        "build a85f223537d30489b99194c13318b64e-87874ee9-a1bf0089 passed",
        Rule::CredentialOther
    ));
    assert!(!fires(
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: aes256-cbc\nComment: bastion-2024\n(public and private lines removed before attaching to the ticket)",
        Rule::CredentialPrivateKey
    ));
    assert!(!fires(
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: admin\n(Schlüsselzeilen entfernt)",
        Rule::CredentialPrivateKey
    ));
}

/// Held-out 65: AWS secret keys in AWS's own shape under a bare `secret`
/// or `secret_key`, an Azure Maps subscription key, an AI Search
/// `api-key` beside its host; a base64url or hex secret of forty
/// characters is no AWS key.
#[test]
fn bare_aws_secrets_and_azure_maps_and_search_keys() {
    for hit in [
        "'secret' => 'aK37sMhzDkLEmK3Ly9gUXMIrfi12+qQ/cU9y7J45',",
        "secret_key = QoRiAe07h8QapUHmXP1/q9yhcVfAZlUo60FJ5xkE",
        "$config['secret'] = '4mk/483D+haGKivexD54vPfMyJ3pGcziuW/O9Bgb';",
    ] {
        assert!(fires(hit, Rule::CredentialAws), "{hit}");
    }
    for clean in [
        "secret_key = QoRiAe07h8QapUHmXP1q9yhcVfAZlUo60FJ5xkEz",
        "'secret' => 'b494f657cd028699d2b6e9f1b41bb035b494f657',",
    ] {
        assert!(!fires(clean, Rule::CredentialAws), "{clean}");
    }
    for hit in [
        "https://atlas.microsoft.com/map/tile?api-version=2.1&zoom=6&subscription-key=fUZA0OjSkLkcz7HuoSEjRAUDSBlRcfaFV8ebWoUd1sl",
        "curl \"https://acme.search.windows.net/indexes/p/docs?search=*\" -H \"api-key: EfmyhmfJxSRxaRwjkhYQLviyOJ6fv37rWxIM9BY2txpgDiX7jqFZ\"",
        "AZURE_SEARCH_ENDPOINT=https://rag.search.windows.net\nAZURE_SEARCH_API_KEY=dJbO5SyJIX11oZ7TFv5gfCxoZGaWpPdOd2ct9BHwfTZGsCtVHR75",
        "SearchClient(endpoint=\"https://kb.search.windows.net\", credential=AzureKeyCredential(\"0DFAACBFD73CB9180569E9A42361C77F\"))",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    assert!(!fires(
        "curl https://acme.search.windows.net/indexes -H \"api-key: $SEARCH_KEY\"",
        Rule::CredentialAzure
    ));
}

/// Held-out 66: a legacy Slack integration's token in its hook URL, an
/// SES SMTP login's key id beside an AWS host (its letters read as words).
#[test]
fn legacy_slack_hooks_and_ses_logins() {
    assert!(fires(
        "legacy integration posting via https://acme-eng.slack.com/services/hooks/incoming-webhook?token=mEOePldbwNxAMZcCybBRM6d8",
        Rule::CredentialSlack
    ));
    assert!(fires(
        "[email-smtp.eu-west-1.amazonaws.com]:587 AKIACKLAABUCSOSNXOSL:BGV40AHnczkj6yIfGe8fQpfo+yrg5uM5bJ7Bw50NddtI",
        Rule::CredentialAws
    ));
    assert!(!fires(
        "https://acme-eng.slack.com/services/hooks/incoming-webhook?token=<token>",
        Rule::CredentialSlack
    ));
}

/// Held-out 68: a Terraform Cloud token's body may hold `=`.
#[test]
fn terraform_tokens_with_padding_inside() {
    assert!(fires(
        "credentials \"app.terraform.io\" {\n  token = \"Qm7Tz2Lw9Xr4Vb.atlasv1.Pq8Rt3=Lx7Wv2Nm9Kd4Hs6Jf1Gb5Zc0Yt8Ua3Ie7Ro2Wq6Px9Ln4Mk1Jh5Gf8Ds3Az=Xc7Vb2\"\n}",
        Rule::CredentialOther
    ));
    assert!(!fires(
        "credentials \"app.terraform.io\" {\n  token = var.tfc_token\n}",
        Rule::CredentialOther
    ));
}

/// Held-out 69: a Heroku key whose body is a UUID, a Google refresh token
/// in a `gsutil` option, a JWT shown as three labelled segments.
#[test]
fn heroku_uuid_keys_google_refresh_tokens_and_labelled_jwt_segments() {
    assert!(fires(
        "HEROKU_API_KEY=HRKU-7201677e-5c72-474a-9504-cb3300499526",
        Rule::CredentialOther
    ));
    assert!(fires(
        "gsutil -o \"Credentials:gs_oauth2_refresh_token=1//0gb8tkUueOyxZDsXlpcU9ifLi7QBJG2am081pVjpMoMoPQM9RjzBYCICISym9qFANgq_IYB5x2dqggOM7WN8aZz5-54sRjYsulW-_\" ls gs://bucket",
        Rule::CredentialGoogle
    ));
    assert!(fires(
        "header:    eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9\npayload:   eyJzdWIiOiJyZXBvOmFjbWUvaW5mcmEiLCJhdWQiOiJzdHMuYW1hem9uYXdzLmNvbSJ9\nsignature: EXiBOK9rkk9VLEevwpC7ejnfkHQMTn3Ku5L8CfK65K5tRu68pAfygD3ndV",
        Rule::CredentialJwt
    ));
    for clean in [
        "HEROKU_API_KEY=HRKU-<your-key>",
        "refresh token format: 1//0<opaque>",
        "header:    eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9\npayload:   eyJzdWIiOiJyZXBvOmFjbWUvaW5mcmEifQ\nsignature: (stripped)",
    ] {
        assert!(!fires(clean, Rule::CredentialOther), "{clean}");
        assert!(!fires(clean, Rule::CredentialGoogle), "{clean}");
        assert!(!fires(clean, Rule::CredentialJwt), "{clean}");
    }
}

/// Held-out 70: a Discord webhook's path in an access log, without its
/// host; a classic npm token under setup-node's `NODE_AUTH_TOKEN`.
#[test]
fn discord_webhook_paths_and_setup_node_tokens() {
    assert!(fires(
        "172.16.4.9 - - [03/Jan/2025:22:41:09 +0000] \"POST /api/webhooks/853374448781650492/Hvge_BG7epq2nyb6mASnl3zntDZdl34TPLkGZXXO31mrskQlDIqKXcn2fHTY-OJGkTYe HTTP/1.1\" 204 0",
        Rule::CredentialDiscord
    ));
    assert!(fires(
        "- run: npm ci\n  env:\n    NODE_AUTH_TOKEN: \"40562bff-7b0d-43cc-9413-a31ae99839d5\"",
        Rule::CredentialNpm
    ));
    assert!(!fires(
        "GET /api/webhooks/853374448781650492/messages HTTP/1.1",
        Rule::CredentialDiscord
    ));
    assert!(!fires(
        "- run: npm ci\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
        Rule::CredentialNpm
    ));
}

/// Held-out 72: a key block shown as a diff's removed lines, each line
/// opened by `-`; the armour alone, with nothing between, is no key.
#[test]
fn key_blocks_as_removed_lines() {
    assert!(fires(
        "------BEGIN OPENSSH PRIVATE KEY-----\n-b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-QyNTUxOQAAACCiuKynnLeU1wOPYCaTTDN5h5ukvVMx/myqy33PLGWF2065mtQyvoylQljE\n------END OPENSSH PRIVATE KEY-----",
        Rule::CredentialPrivateKey
    ));
    assert!(!fires(
        "------BEGIN OPENSSH PRIVATE KEY-----\n------END OPENSSH PRIVATE KEY-----",
        Rule::CredentialPrivateKey
    ));
}

/// Held-out 73: a token glued to a `Bearer` that lost its space.
#[test]
fn tokens_glued_to_bearer() {
    assert!(fires(
        "BearereyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJub3NwYWNlIiwiaWF0IjoxNzMzNTMwMTk1fQ.YclYRakh3eW8umw24s78vS3dwJExwoLQyiqC4IKHl-A",
        Rule::CredentialJwt
    ));
    assert!(!fires("Bearereyes on the dashboard", Rule::CredentialJwt));
}
