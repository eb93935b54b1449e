//! Unit tests of vendor tokens in unusual places: glued to an option,
//! positional in a call.

use crate::screen::fires;
use crate::screen::rule::Rule;

/// Held-out 84: a project key glued to `gh secret set`'s `-b`; a word
/// after a short option and a hyphenated name are no keys.
#[test]
fn an_openai_key_glued_to_a_short_option() {
    assert!(fires(
        "gh secret set OPENAI_KEY -bsk-proj-Xq7Lm2Rt9Vb4Nc8Kp3Wd6Hs1Jf5Gz0Ty2Ue4Io6Pa8Sd1Fg3Hj5Kl7Zx9Cv2Bn4Mq6T3BlbkFJWe8Rt1Yu3Io5Pa7Sd9Fg2Hj4Kl6Zx8Cv0Bn3Mq5We7Rt9Yu1",
        Rule::CredentialOpenai
    ));
    for clean in [
        "git commit -m 'x' -bsk-proj-rename-the-staging-branch-for-the-release",
        "kubectl logs -lsk-proj-embedder-7c9d5b8f6d-q2lzx",
        "make -task-runner-for-the-nightly-build-and-the-weekly-report",
        "git checkout -bsk-proj-PLAT4521-RotateServiceAccountKeys",
    ] {
        assert!(!fires(clean, Rule::CredentialOpenai), "{clean}");
    }
}

/// Held-out 83: an auth token passed to Twilio's client after its
/// account SID, with no name of Twilio; and two hashes compared in a note
/// that names it.
#[test]
fn a_twilio_token_after_the_account_sid_and_hashes_beside_its_name() {
    assert!(fires(
        "It worked once we passed it in: Client(account_sid, '5be0c3a1d9e84f7b2a6c0d1e3f4a5b6c')",
        Rule::CredentialTwilio
    ));
    for clean in [
        "Build hashes: 5be0c3a1d9e84f7b2a6c0d1e3f4a5b6c vs 0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f, the twilio bump changed the lockfile.",
        "accountSid lookups return 404 for ids like 5be0c3a1d9e84f7b2a6c0d1e3f4a5b6c in the hash index",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
}

/// A review of session 58: "hash" counts as a word, not inside a hashtag
/// or HashiCorp; `account_sid` alone names no Twilio.
#[test]
fn hash_is_a_word_and_account_sid_alone_names_nothing() {
    assert!(fires(
        "Twilio sandbox: 5be0c3a1d9e84f7b2a6c0d1e3f4a5b6c  #hashtag-alerts",
        Rule::CredentialTwilio
    ));
    assert!(!fires(
        "Migration 0042 adds account_sid to calls (run 4bf92f3577b34da6a3ce929d0e0e4736).",
        Rule::CredentialTwilio
    ));
}

/// Held-out 85: npm's `_auth` set through its variable in a compose
/// file's YAML; a reference there is none.
#[test]
fn npm_auth_variables_in_yaml() {
    assert!(fires(
        "environment:\n  NPM_CONFIG__AUTH: cmVsZWFzZTpRdzhMbTJ4Wno0",
        Rule::CredentialNpm
    ));
    assert!(!fires(
        "environment:\n  NPM_CONFIG__AUTH: ${NPM_AUTH}",
        Rule::CredentialNpm
    ));
    // Held-out 88: a Kubernetes `env` entry.
    assert!(fires(
        "  env:\n    - name: NPM_CONFIG__AUTH\n      value: \"c3ZjLW5wbTpJY0JiNmJvNGJwdUNmUQ==\"",
        Rule::CredentialNpm
    ));
    assert!(!fires(
        "  env:\n    - name: NPM_CONFIG__AUTH\n      valueFrom:\n        secretKeyRef: {name: npm, key: auth}",
        Rule::CredentialNpm
    ));
}

/// Held-out 87 and 88: a storage key beside Azure Storage's signature
/// error, and a device provisioning enrollment's key; the same keys with
/// no word of Azure are not placed.
#[test]
fn azure_keys_placed_by_an_error_or_an_enrollment() {
    for hit in [
        "Authorization header built by hand failed with \"The MAC signature found in the HTTP request is not the same as any computed signature\". Key used for the HMAC: vb93G54eYNi6s4pIUQbw9m4Lj9xYsa6l39n3ay8DTv7ps4tMRpUZQiIZGXpS9GybjeSrFvJT40U0xVPNvOzTow==",
        "Device provisioning: symmetric key enrollment\n  idScope: 0ne00A5ED40\n  registrationId: gw-hall-b\n  primaryKey: xDgqU6/jheeEb9JGXkbKbSR8O5QLQ/RixVCFlwJlKeQ/YYrGRpZUaTW+sHJo5Q2zgk3ncBgXGth7S1q3TMreTg==",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    assert!(!fires(
        "Device provisioning with AWS IoT fleet provisioning. Firmware image Ed25519 signature: xDgqU6/jheeEb9JGXkbKbSR8O5QLQ/RixVCFlwJlKeQ/YYrGRpZUaTW+sHJo5Q2zgk3ncBgXGth7S1q3TMreTg==",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "Key used for the HMAC: vb93G54eYNi6s4pIUQbw9m4Lj9xYsa6l39n3ay8DTv7ps4tMRpUZQiIZGXpS9GybjeSrFvJT40U0xVPNvOzTow==",
        Rule::CredentialAzure
    ));
}

/// Held-out 89: a Discord webhook's token given apart from its snowflake
/// id; a token with no snowflake beside it is no Discord's.
#[test]
fn discord_webhook_tokens_beside_their_snowflake() {
    for hit in [
        "webhook_id = 1208612575897902286\nwebhook_token = \"IzTYZQGvu06iDkKDitpZUGKtPOj4IyEZIJe_GFkBSKwBjI_Tl2RxuxacsheI--uQbChg\"",
        "client := webhook.NewClient(snowflake.MustParse(\"1384369671798486609\"), \"M01lUCMtEca8_IgRsQgmTaBGjVA_CjtfALXneJnW8nAz31w08K6aYDodPdQ8bThDxE_J\")",
    ] {
        assert!(fires(hit, Rule::CredentialDiscord), "{hit}");
    }
    assert!(!fires(
        "webhook_id = 42\nwebhook_token = \"IzTYZQGvu06iDkKDitpZUGKtPOj4IyEZIJe_GFkBSKwBjI_Tl2RxuxacsheI--uQbChg\"",
        Rule::CredentialDiscord
    ));
}

/// Held-out 90: a Discord bot token whose random body opens with `My_`,
/// passed as a Ruby keyword argument; a named placeholder so opened is no
/// token.
#[test]
fn a_discord_token_whose_body_opens_like_a_placeholder() {
    assert!(fires(
        "bot = Discordrb::Commands::CommandBot.new token: 'ODgwNzMyMTA1MjA2NzE2Mjg2.G6uRDe.My_SqIq6_yV_ltoJ88FwCRHlPo2VbSNR3jdMck', prefix: '!'",
        Rule::CredentialDiscord
    ));
    for clean in [
        "bot = Discordrb::Commands::CommandBot.new token: 'ODgwNzMyMTA1MjA2NzE2Mjg2.G6uRDe.my_discord_bot_token_goes_here'",
        "DISCORD_TOKEN=my_discord_bot_token_for_the_staging_server",
    ] {
        assert!(!fires(clean, Rule::CredentialDiscord), "{clean}");
    }
    // Placeholders built of words still open so.
    for clean in [
        "SECRET_KEY=my_Django_Secret_Key_123",
        "OPENAI_API_KEY=my-OpenAI-API-key-2024",
    ] {
        assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
    }
}

/// Held-out 93: a storage account key quoted right after the account's
/// name.
#[test]
fn a_storage_key_after_its_account_name() {
    assert!(fires(
        "Devs were using the shared key in Postman: Account name stqa01, key gCAimfV7PAfkxLF9Qc3SfA76jgEIn67Mk+V7zgTDv/0YeNznaDaUb8mtNT1YLmS1S5oqFyv5C/dvECgFbviOMw==",
        Rule::CredentialAzure
    ));
    for clean in [
        "Account name stqa01, key rotated on Monday; see Key Vault.",
        "Account name stqa01, key: [REDACTED]",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

/// Held-out 91: a Functions key in a Postman environment's variable
/// named for its `code` parameter.
#[test]
fn a_functions_key_in_a_postman_variable() {
    assert!(fires(
        "{ \"key\": \"code\", \"value\": \"4C4Nws4x4SpOFFbzf1B_FnI4koBb6FG8S3EYox3x9smXUzbJ9DrXZQ==\", \"type\": \"default\", \"enabled\": true }",
        Rule::CredentialAzure
    ));
    assert!(!fires(
        "{ \"key\": \"code\", \"value\": \"{{functionKey}}\", \"type\": \"default\", \"enabled\": true }",
        Rule::CredentialAzure
    ));
}

/// Held-out 94: a Telegram token after `bot` in a client's constructor;
/// Slack's documentation sample is none.
#[test]
fn telegram_tokens_after_bot_and_slack_samples() {
    assert!(fires(
        "  let token = Token \"bot6544064667:AAGVMZs_NnFcY1pr0Fhad039iA9EuEGPWhK\"",
        Rule::CredentialTelegram
    ));
    assert!(!fires(
        "# a bot token looks like xoxb-1234-5678-abcdef in the Slack docs; ours is in the secret store",
        Rule::CredentialSlack
    ));
    assert!(fires(
        "SLACK_BOT_TOKEN=xoxb-123456789012-1234567890123-Kq8vT2mZp4LxW9rN3bHd6YsJ",
        Rule::CredentialSlack
    ));
}

/// Held-out 94: an Azure Cache for Redis key given to a client, a Log
/// Analytics request's shared key, the OMS agent's workspace key.
#[test]
fn redis_keys_and_log_analytics_keys() {
    for hit in [
        "redis = StrictRedis(host=\"redis-sessions-we.redis.cache.windows.net\", port=6380, password=\"W3vwlil/Duh+reaHmx7IXTMVO6gTT7R6GxmduDYFvYc=\", ssl=True)",
        "curl -X POST \"https://ods-weu.ods.opinsights.azure.com/api/logs?api-version=2016-04-01\" -H \"Authorization: SharedKey 0c4f2b1e-6a7d-4e3f-9b8c-2d1a0f9e8c7b:m+zE6HQGXkGUOfZYNFqbgfbfFFMiNzEytaXnZj6arm0=\"",
        "sh onboard_agent.sh -w 6a1e2b3c-4d5f-4a6b-8c7d-9e0f1a2b3c4d -s ZLR0pUTYS98lNBejFHi6WPtG6MxwomA7pARpU9hm4hx03rLbrQEBWEU0l8dN94FyAUfOmvezkyxNMT3r6zhTaA==",
    ] {
        assert!(fires(hit, Rule::CredentialAzure), "{hit}");
    }
    for clean in [
        "redis = StrictRedis(host=\"cache.redis.cache.windows.net\", port=6380, password=os.environ[\"REDIS_KEY\"], ssl=True)",
        "Authorization: SharedKey <workspace-id>:<signature>",
        "sh onboard_agent.sh -w $WORKSPACE_ID -s $WORKSPACE_KEY",
    ] {
        assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
    }
}

/// Held-out 96: the key a Twilio signature's HMAC was computed with is
/// the auth token; a checksum "with key order sorted" is a digest.
#[test]
fn the_key_of_a_twilio_signature() {
    let hit = "Confirmed the signature mismatch is ours: recomputed HMAC-SHA1 over the URL + sorted params with key ae5a382e99dd265c04c0a935c49426ad and got the same X-Twilio-Signature the request carried.";
    assert!(fires(hit, Rule::CredentialTwilio), "{hit}");
    for clean in [
        "Twilio webhook: md5 checksum of the payload with key order sorted: 5d41402abc4b2a76b9719d911017c592",
        "Twilio webhook dedupe: md5 of MessageSid stored with key 9e107d9d372bb6826bd81d3542a419d6",
    ] {
        assert!(!fires(clean, Rule::CredentialTwilio), "{clean}");
    }
}
