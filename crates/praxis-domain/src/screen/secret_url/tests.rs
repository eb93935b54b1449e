//! The secret-URL rule's tests.

use crate::screen::fires;
use crate::screen::rule::Rule;

#[test]
fn urls_with_credentials() {
    assert!(fires(
        "s3://bucket/x?X-Amz-Signature=9c1f0e7a2b4d",
        Rule::SecretUrl
    ));
    assert!(fires(
        "postgres://app:W3ak2pw@db.internal/app",
        Rule::SecretUrl
    ));
    assert!(fires(
        "wss://feed.example.net/live#access_token=Zx81Qp0sLm",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "postgres://app:${PGPASSWORD}@db/app",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "https://example.com/list?page=2&sort=asc",
        Rule::SecretUrl
    ));
    assert!(!fires("https://example.com/x?key=value", Rule::SecretUrl));
    assert!(!fires("https://example.com/x?token=", Rule::SecretUrl));
    // A heartbeat push token; a word in its place is a route.
    assert!(fires(
        "curl 'https://status.acme.io/api/push/Vq81TzLm4k?status=up'",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "https://acme.io/api/push/notifications?since=3",
        Rule::SecretUrl
    ));
    // A raw `#` in the password, not yet a fragment.
    assert!(fires(
        "git clone https://deploy:Bluebird#4096ozg@git.acme.test/platform/infra.git",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "see https://docs.acme.test/guide#setup and mail ops@acme.test",
        Rule::SecretUrl
    ));
    // A raw `@` in the password; a secret named like one in a query.
    for hit in [
        "mongodb+srv://analytics:Lz9$7h3yHb@@cluster0.ab12c.mongodb.net/prod",
        "https://portal.example.test/reset?reset_token=6uPTQP9XGWiIT95X2SKDXVWU8",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires(
        "https://api.example.test/items?page_token=CiAKGjBpNDd2Nmp2",
        Rule::SecretUrl
    ));
    // A webhook whose path is the secret, on any host.
    for hook in [
        "https://hooks.acme.test/incoming/Qx7vL2mK9pR4tW8yB3nC6dF1gH5jZ0aS",
        "https://sentry.acme.test/api/hooks/release/builtin/42/9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c1b3d5f7e/",
        "https://hc-ping.com/3dce54f3-3911-48bf-8566-3a3dcd95c6e6",
        "https://open.feishu.cn/open-apis/bot/v2/hook/35d1caf4-0d21-46aa-99f7-3cf68a2cf014",
        "curl -fsS https://cronitor.link/p/14a57139a26ead7bef144adaca6739ef/nightly-backup",
    ] {
        assert!(fires(hook, Rule::SecretUrl), "{hook}");
    }
    for clean in [
        "https://hooks.acme.test/incoming/release-2024-build-artifacts-x86_64",
        "https://api.github.com/repos/acme/app/hooks/123456789/deliveries",
        "https://app.acme.test/integrations/3dce54f3-3911-48bf-8566-3a3dcd95c6e6/settings",
        "https://dev.azure.com/acme/_apis/hooks/subscriptions/3dce54f3-3911-48bf-8566-3a3dcd95c6e6",
        "https://hooks.acme.test/incoming/XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Whitespace that survives NFKC and the invisible-character strip but
/// is more than one byte long (NEL, ogham space, line and paragraph
/// separators) must not split a character when a URL token is cut out.
#[test]
fn multibyte_whitespace_before_a_url_parameter() {
    for space in ['\u{85}', '\u{1680}', '\u{2028}', '\u{2029}', '\u{3000}'] {
        let text = format!("x{space}https://h.io/?token=q7Rm2Xv9Lt4K");
        assert!(fires(&text, Rule::SecretUrl), "{text:?}");
    }
}

/// Deploy hooks whose path or key is the secret, and a signature left
/// on its own line when a presigned URL wraps.
#[test]
fn deploy_hooks_and_wrapped_signatures() {
    for hit in [
        "curl -X POST -d {} https://api.netlify.com/build_hooks/044e48a7c50dbd545a135b84",
        "curl \"https://api.render.com/deploy/srv-p5i207fcjj9epgzbzqfv?key=Y0Z8GNfF5Mz\"",
        "https://files.example.com/x.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&\n  X-Amz-Signature=e206c3389a4ab8eb0fc7e06a4757de304b61016281189d1f4337019919970236",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires(
        "Netlify build hooks live under /build_hooks/ in the API.",
        Rule::SecretUrl
    ));
}

/// A user named for a mail address, an application id parameter, a
/// password parameter beside its user.
#[test]
fn passwords_beside_users_and_application_keys() {
    for hit in [
        "MAILER_DSN=smtp://alerts%40example.com:QfT0kbvEPZuVp1xX@smtp.example.com:587",
        "fetch(`https://api.openweather.example/data/2.5/weather?q=Berlin&appid=65fdebf1b86553e31359dc6755191e4a`)",
        "http://influx.lan:8086/query?u=telegraf&p=hBDJGdjnAXf6T0&db=metrics",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires(
        "https://shop.example/list?p=2&sort=price",
        Rule::SecretUrl
    ));
}

/// More secret parameters and hook hosts, and a properties file's
/// escaped colon.
#[test]
fn more_parameters_and_hooks() {
    for hit in [
        "wget 'https://f003.backblazeb2.com/file/b/x.zst?Authorization=4_0030b31ff0590ac3a28fefd1_01b2c3d4'",
        "MAKE_SCENARIO_HOOK=https://hook.eu2.make.com/hazh3cr0m745e8j72nh17ze8fmz69xtu",
        "channels:\n  - https://conda.anaconda.org/t/6f-WQ9t13KzrMBK43nsyua9Z8ghqIIMrgrv/acme-private",
        "Web UI available at http://127.0.0.1:8000?tkn=6641304c-b3f9-451b-9c5a-c094d53dbe94",
        "distributionUrl=https\\://builder:k4iYUuVoL!p6hIO@artifacts.corp.local/gradle/gradle-8.7-bin.zip",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
}

/// A webhook URL run straight into CJK prose.
#[test]
fn urls_followed_by_cjk_prose() {
    assert!(fires(
        "飞书机器人地址：https://open.feishu.cn/open-apis/bot/v2/hook/94a0369d-7434-4650-9509-464e63e12fa1，签名校验失败。",
        Rule::SecretUrl
    ));
}

/// A query wrapped after its `&`, a token inside an encoded redirect,
/// a private calendar feed, a hook secret of letters alone.
#[test]
fn wrapped_encoded_and_private_feeds() {
    for hit in [
        "GET https://vault.example.dev/api/v2/download?file=q3.csv&\n    token=DfRmEcbuTBag2G2LVm6bNKgA2EbWKigeED0FZP15 (attempt 2)",
        "Location: https://sso.quillbyte.io/logout?redirect_uri=https%3A%2F%2Fpg-12.kestrelworks.net%2Fcb%3Faccess_token%3D17QKfLyJ30hKu5hft5RyLvR2M4trQmFjxP3FkDdi",
        "https://calendar.example.com/ical/team-ops/private-cf4aab26de8ae6e9ddfd0c26f326fa24/basic.ics",
        "ROCKETCHAT_URL=https://chat.example.io/hooks/bIO5EmeQt3BqcYgrw/DmBbQGhUqiAjKzRBaKRDEKkTRSYkhDgobDspVAQHCgfpcWQG",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires(
        "https://calendar.example.com/ical/team-ops/public/basic.ics",
        Rule::SecretUrl
    ));
}

/// Log inputs, dead-man's snitches, license keys, webhook ids after a
/// readable prefix or as a UUID, and a query continued after `\\`.
#[test]
fn inputs_snitches_licenses_and_webhook_ids() {
    for hit in [
        "https://logs-01.loggly.com/inputs/4da7bafe-97db-41a2-8951-4963aecf56d5/tag/http/",
        "0 3 * * * backup.sh && curl -fsS https://nosnch.in/5b0bf49283 > /dev/null",
        "https://download.maxmind.com/app/geoip_download?edition_id=GeoLite2-City&license_key=v10ZuVHToliK8Dvw",
        "https://ha.nordlys.example/api/webhook/garage-2oE39TG49pPm_xXpkfEToluP",
        "https://n8n.int.example.net/webhook/bd59fdc9-42b3-4162-8033-2af2eb5d7e4f",
        "curl -sS \"https://api.partner.example/v1/exports?since=2025-03-01&\\\naccess_token=xAEAsCm5aOMUwJLa_pPvqSQjLKl4bVHRZcU79idw_Y0\"",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://n8n.int.example.net/webhook-test/",
        "https://ha.nordlys.example/api/webhook/garage-door",
        "smtp://%env(MAILER_USER)%:%env(MAILER_PASS)%@smtp.eu.mailgun.org:587",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Cloudflare Pages' deploy hook.
#[test]
fn cloudflare_deploy_hooks() {
    assert!(fires(
        "curl -X POST https://api.cloudflare.com/client/v4/pages/webhooks/deploy_hooks/1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b",
        Rule::SecretUrl
    ));
}

/// Uptime Kuma's push token.
#[test]
fn uptime_kuma_push_tokens() {
    assert!(fires(
        "https://status.example.com/api/push/Qz8wLm2Rx9?status=up&msg=OK",
        Rule::SecretUrl
    ));
}

/// Bitrix24's inbound webhook and a key after a template's `${…}`; a
/// Sentry DSN's public key stands down.
#[test]
fn bitrix_hooks_template_urls_and_sentry_dsns() {
    for hit in [
        "https://corp.bitrix24.de/rest/1/k5ow2mttwk1fw6iy/crm.lead.add.json",
        "fetch(`https://maps.example.net/geo?q=${q}&apiKey=2_Ngb1LoL9SO2Fd9kvR4I5lRrpWX9_vGJ`)",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires(
        "SENTRY_DSN=https://73a66e88d6fb98664fc5a45150270461@o267422.ingest.de.sentry.io/2443559",
        Rule::SecretUrl
    ));
}

/// Oracle's JDBC URL carries the password before the host; Anaconda's
/// repository takes a token in its path.
#[test]
fn oracle_and_anaconda_urls() {
    for hit in [
        "Hibernate could not connect: jdbc:oracle:thin:app_user/yyJCLIbs7T.!xC1@//ora-db1.example.net:1521/ORCLPDB1",
        "conda config --add channels https://repo.anaconda.cloud/t/fHTxX4GcKkqyZB-7Ar7DzUj337SIU9kbYaEWaS5f/main",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "jdbc:oracle:thin:scott/tiger@//localhost:1521/XEPDB1",
        "jdbc:oracle:thin:@//ora-db1.example.net:1521/ORCLPDB1",
        "https://repo.anaconda.cloud/repo/main",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// An SQS broker URL with an empty host, Grafana's render key.
#[test]
fn sqs_brokers_and_render_keys() {
    for hit in [
        "export CELERY_BROKER_URL=sqs://LZQN729VA4X3Y53CWAX5:jpoQ3rcVRE6yiv+uSQK//o75l4TXAkoJe/6gQHtN@",
        "http://grafana:3000/d-solo/abc/xyz?panelId=2&render=1&renderKey=3roX04NXbQOZVvxnGNnniwgnmMQwZAB7",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(!fires("export CELERY_BROKER_URL=sqs://", Rule::SecretUrl));
}

/// A tracker's passkey and an Akamai edge token in a query; the OAuth
/// specification's example token and a French placeholder are no
/// secrets.
#[test]
fn passkeys_edge_tokens_and_documented_examples() {
    for hit in [
        "https://tracker.quillon.org/rss.php?passkey=468d23036b0882677f41e1a5ae616ebb&cat=12",
        "https://cdn.palisade.tv/hls/live/master.m3u8?hdnts=exp=1735689600~acl=/*~hmac=0eeacb5ea285798b223f71e793dbab34fd4c9de9e45ac01de2b0ac66df490c",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "Location: http://example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz",
        "Dans la doc, l'exemple est postgres://utilisateur:motdepasse@hote:5432/base.",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

#[test]
fn intake_keys_and_sql_server_jdbc_properties() {
    for hit in [
        "shipper: https://logs.fernhill.io/v2/ingest?ingest_key=Wm3kQ9vTz1LpX8rB2nYc7dHf",
        "curl -X POST 'https://events.pollard.dev/collect?write_key=u7Rk2MxQ9sLw4TzA1bN8cVe3'",
        "url=jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;user=svc_ledger;password=Vq83kLm2Tz9xWb;encrypt=true",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://logs.fernhill.io/v2/ingest?ingest_key=${INGEST_KEY}",
        "jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;integratedSecurity=true",
        "jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;user=svc_ledger;password=<password>",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Status pings, automation triggers, alert relays: a generated path
/// segment after the name is the secret; a readable one is not.
#[test]
fn pings_triggers_and_relays() {
    for hit in [
        "curl -fsS \"https://status.bayleaf.dev/api/ping/3c1955ba261b3472c8e178623f4dd0f4/success\" -d ok",
        "var hookUrl = \"https://flows.heronpoint.io/api/trigger/a0b88b598be168f463b65680cd3c9c8effb25f9a\";",
        "https://relay.bittern.app/in/21ce27a2df09b799cdac55e8e1d8562a/472b288f41fc8e7360bf1bb6d533fb08",
        "https://alerts.puffin-ops.com/api/v2/alerts/4f3b9lNnMkjSvfoDzabdcfGdGizz7DfFv4uT/notify",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://status.bayleaf.dev/api/ping/nightly-backup/success",
        "https://www.linkedin.com/in/jane-doe-4b2a1",
        "https://flows.heronpoint.io/api/trigger/deploy-preview",
        "https://github.com/facebook/relay/commit/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "https://gitlab.com/acme/notify-service/-/blob/4e1f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f/README.md",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A streaming ingest URL's key is the secret; a stream's name and a
/// help page's counting example are not.
#[test]
fn stream_keys_and_counting_examples() {
    for hit in [
        "Server: rtmp://a.rtmp.youtube.com/live2/q7zm-4k2d-9wbx-1fpa-h8tc",
        "ffmpeg -i in.mp4 -f flv rtmps://ingest.example-live.tv:443/app/live_20938475_Kq8ZxT2bWm5LpR7nVd3YhC",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "rtmp://media.example.com/live/conference-room-2024",
        "rtmp://localhost:1935/live/abcd-1234-efgh-5678",
        "ffplay rtmp://nginx.local:1935/live/FrontDoorCam01HD720p",
        "rtmp://ingest.example.net/app/Channel42PrimaryBackup",
        "Zapier's docs use https://hooks.zapier.com/hooks/catch/123456/abcdef/ as the sample.",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// An Azure Functions key in `code=`; elsewhere `code=` is a grant.
#[test]
fn function_codes_on_azure_hosts() {
    assert!(fires(
        "curl \"https://fn-orders.azurewebsites.net/api/sync?code=Qm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z==\"",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "https://app.example.com/callback?code=Qm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z&state=x",
        Rule::SecretUrl
    ));
}

/// A share link's key, LuCI's session token, a long webhook id with
/// `_` and `-` inside; in a command field, a URL's password is on the
/// command line too.
#[test]
fn share_keys_luci_tokens_and_long_hook_ids() {
    for hit in [
        "report: https://reports.example.dev/share/run-7?share_key=Qm7Tz2Lr9XcV4bN8aK1pW6yE3u",
        "http://10.0.0.1/cgi-bin/luci/;stok=4c1e7a9b2d5f8e0c3b6a9d2f5e8c1b4a/admin/status",
        "POST http://ha.local:8123/api/webhook/Qm7Tz2Lr9XcV4bN8aK1p_W6yE3uH5jG0dFsRtYq2Z-4kLm9 ok",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    assert!(fires(
        "pg_dump --dbname=postgresql://backup:Vq7Lm2Rp9Xw@db.internal:5432/crm -Fc -f crm.dump",
        Rule::CredentialCommandLine
    ));
    assert!(!fires(
        "http://10.0.0.1/cgi-bin/luci/;stok=/admin/status",
        Rule::SecretUrl
    ));
}

/// A node provider's project key in the path, a token as a URL's user
/// with an empty password, a short URL-safe webhook id.
#[test]
fn node_provider_keys_token_users_and_webhook_ids() {
    for hit in [
        "RPC_URL=https://polygon-mainnet.g.alchemy.com/v2/Xq4Lm9Rz2Tw7Kp3Vb8Nc1Hd6Fs0Gj5Ya",
        "const ws = 'wss://mainnet.infura.io/ws/v3/9c1f2e3a4b5d6e7f8091a2b3c4d5e6f7'",
        "deb https://7e3a9c1f5b2d8e4c6a0f9b7e3d1c5a2e4b6d8f0a:@packagecloud.io/acme/tools/debian/ bookworm main",
        "curl -X POST http://ha.local:8123/api/webhook/Kp3-Vb8Nc1_Hd6Fs0Gj5Yq2",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://etherscan.io/tx/0x9c1f2e3a4b5d6e7f8091a2b3c4d5e6f79c1f2e3a4b5d6e7f8091a2b3c4d5e6f7",
        "https://rpc.example.org/v2/status",
        "deb https://deploy:@packagecloud.io/acme/tools/debian/ bookworm main",
        "http://ha.local:8123/api/webhook/doorbell-pressed",
        "POST https://n8n.example.com/webhook/GithubPushEventHandler2024",
        "curl https://node.example.com/api/v1/jobs/4f0e8c2b9a7d6e5f1a3b2c4d5e6f7a8b",
        "Trace: https://rpc-gateway.internal:8443/traces/4f0e8c2b9a7d6e5f1a3b2c4d5e6f7a8b",
        "postgres://postgres_replica_node_01:@10.0.0.5:5432/app",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A query parameter after a template's interpolation, whose own
/// parentheses are part of the URL; a `…_key` parameter with a random
/// value; a node provider's key after `/ws/v3/`.
#[test]
fn interpolations_other_keys_and_node_hosts() {
    for hit in [
        "fetch(`https://api.mapforge.dev/geocode?q=${encodeURIComponent(addr)}&key=VdR2GhCKTE3o6iOthTp8o25mOyM2S2eHUE1OGza`)",
        "ALERT_URL=\"https://api.telemetrix.io/ingest?dsn_key=618ca251fe805932a22e4c12f51fb77ed8b658ab&env=prod\"",
        "ws_endpoint: wss://node.chainspur.io/ws/v3/15fd0ac2fb1d03a248e06c399dd7bd8a",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "fetch(`https://api.mapforge.dev/geocode?q=${encodeURIComponent(addr)}&key=${MAP_KEY}`)",
        "https://docs.example.dev/search?sort_key=created_at&page=2",
        "wss://node.chainspur.io/ws/v3/status",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// From a review: parameters that name a thing (`idempotency_key`,
/// `cache_key`), a node's non-websocket paths, `stok` as a word's end;
/// PagerDuty's `routing_key`.
#[test]
fn named_things_node_paths_and_routing_keys() {
    assert!(fires(
        "https://events.pagerduty.com/v2/enqueue?routing_key=9b1c2e7f3a4d5e6f8a0b1c2d",
        Rule::SecretUrl
    ));
    for clean in [
        "POST https://api.payments.dev/v1/charges?idempotency_key=3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c3f",
        "https://storage.example.dev/download?object_key=2024Q3Report8f2a9c71e4b5d",
        "GET /v1/objects?cache_key=sha1-4e1243bd22c66e76c2ba9eddc1f91394e57f9f83 200",
        "curl https://node-1.buildcache.internal/v1/4e1243bd22c66e76c2ba9eddc1f91394e57f9f83",
        "GET https://node.orders.internal/v2/3fa85f64-5717-4562-b3fc-2c963f66afa6 returned 404",
        "GET /api/items?stok=in_stock&page=2 200",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

#[test]
fn session_ids_intake_paths_and_mail_users() {
    for hit in [
        "Salesforce login URL: https://fenmarsh.my.salesforce.com/secur/frontdoor.jsp?sid=WMBXwMfnQktscfO_!295OCCWRq2jFmTlV9LL9cuds3vad5OOvDOMEvS3A8Do",
        "errors POSTed to https://ingest.logpipe.io/v1/ingest/hWWFb99FBzPrFWU1qcnfOxJBpvZUVVQPJmbU (the path segment is the write key).",
        "open \"https://admin.lindqvist-shop.se/login?autologin_key=dca1820bbe34684607ecea165a06e6b933929fe0\"",
        "EMAIL_URL = 'smtp+tls://notify@lunafield.org:fdPJ~XhRPbv9o3@mail.lunafield.org:587'",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://forum.example.org/viewtopic.php?t=512&sid=42",
        "https://sapgui.example.com/launch?sid=PRD&client=100",
        "https://ingest.logpipe.io/v1/ingest/events",
        "https://shop.example.se/login?autologin_key=1",
        "EMAIL_URL = 'smtp+tls://notify@lunafield.org@mail.lunafield.org:587'",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

#[test]
fn identifiers_named_sid_and_job_paths() {
    for clean in [
        "https://intranet.acme.local/ad/user?sid=S-1-5-21-3623811015-3361044348-30300820-1013",
        "https://analytics.example/collect?v=2&sid=1715678901234",
        "https://portal.example.edu/grades?sid=202300451234",
        "https://api.twilio.com/log?sid=SM91ab181165531f9289648874ef3e7908",
        "GET https://etl.acme.internal/api/v1/ingest/91ab181165531f9289648874ef3e7908/status -> 404 (job not found)",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A self-hosted conda channel's `/t/<token>/` and a password among a
/// Prisma `sqlserver://` URL's properties.
#[test]
fn conda_channel_tokens_and_sqlserver_properties() {
    for hit in [
        "channels:\n  - https://conda.aurelia.bio/t/FsBVjVdxtYQqPQHa4XrlWOdr/main\n  - conda-forge",
        "conda install -c https://pkgs.internal.example/conda/t/ab-3f1c2e3a-4b5d-4e6f-8a7b-0c1d2e3f4a5b/ops numpy",
        "DATABASE_URL=\"sqlserver://sql.aldous.net:1433;database=crm;user=sa;password=pS~CfaAdTaTf3Wg6;encrypt=true\"",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "See https://discourse.example.org/t/conda-solver-hangs-on-env-create/4821/ for the thread.",
        "channels:\n  - https://conda.aurelia.bio/t/<TOKEN>/main",
        "DATABASE_URL=\"sqlserver://sql.aldous.net:1433;database=crm;integratedSecurity=true;encrypt=true\"",
        "DATABASE_URL=\"sqlserver://sql.aldous.net:1433;database=crm;user=sa;password=${DB_PASSWORD}\"",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A review's findings: sample UUIDs after `/t/`, references and Prisma's
/// braces in `sqlserver://` properties, and go-mssqldb's userinfo.
#[test]
fn review_forty_five_conda_and_sqlserver() {
    for hit in [
        "DATABASE_URL=\"sqlserver://localhost:1433;database=shop;user=sa;password={msVeg788rrOtFlDl8P};trustServerCertificate=true\"",
        "sqlserver://sa:ei86Wzuy8o0MaaQh@mssql.dev.local:1433?database=Inventory",
        "mamba install -c https://artifacts.corp.example/t/sOqCPyZawKVPyirGDdyJG4fhre08qi/internal numpy",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "conda install -c https://conda.corp.example/t/ab-123e4567-e89b-12d3-a456-426614174000/acme pkg",
        "conda install -c https://conda.corp.example/t/ab-00000000-0000-0000-0000-000000000000/acme pkg",
        "sqlserver://localhost:1433;database=shop;user=sa;password=env(DB_PASSWORD)",
        "sqlserver://localhost:1433;database=shop;user=sa;password=process.env.DB_PASSWORD",
        "sqlserver://localhost:1433;database=shop;user=sa;password=@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/sql)",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A status page's private link, a password parameter in German, an
/// `hmac=` signature.
#[test]
fn private_pages_foreign_passwords_and_hmacs() {
    for hit in [
        "Use this one for the status page iframe: https://status.merrow.app/private/1cfda6d18c8db1d047f74f43fb45054550204db0/overview",
        "Der Export lief über https://export.weidmann-it.de/csv?benutzer=report&passwort=QLmh4eNNNTX1D5k",
        "image_url: \"https://thumbs.verdigris.ai/render?id=922&exp=1767225600&hmac=0da2bc3a0c3d2ae53f430b617fd866d55f89fcb286d7f71b554e3e7b7d89d127\"",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "See https://github.com/acme/private/blob/main/README.md",
        "https://cdn.example.com/private/assets-bundle-2024-final/logo.png",
        "https://export.weidmann-it.de/csv?benutzer=report&passwort=${EXPORT_PW}",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A review's findings: algorithm names after `hmac=` and placeholders in
/// the parameter's own language.
#[test]
fn hmac_algorithms_and_foreign_placeholders() {
    for clean in [
        "https://api.acme.io/config?hmac=HmacSHA256",
        "https://x.example/a?hmac=hmac-sha2-256-etm@openssh.com",
        "https://intranet.firma.de/login?passwort=DEIN_PASSWORT",
        "https://intranet.firma.de/login?kennwort=geheim",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Links whose credential no secret's name announces: a sign-in link's
/// one-time token, a signed download's token beside its expiry, a share
/// link's key in the fragment, a scheme with underscores, an SMB share's
/// address, a hook's key with `-` and `_` inside.
#[test]
fn sign_in_links_signed_downloads_and_fragment_keys() {
    for hit in [
        "magic link sent: https://login.paleo.health/magic?mt=Ns1gbOf1HPOJUKY4iZU9Cy39tnF74eoGqDM_nv4mSUw&u=7741",
        "https://app.vellum.dev/login/verify?code=tktOBM0Cxq9D4CLUjHmpLhbyxY7URkvVaqbf6Nri&redirect=%2F",
        "open https://portal.kestrel.example/sso/consume?ticket=ST-541034-PuzBVShxunpcVKnK7yPb-cas01",
        "https://downloads.tallis.app/release/t-4.2.dmg?st=wZKs3ei6cWIPT6q6MM5OSfDc21jKbKN8&e=1767225600",
        "shared: https://send.bitwarden.com/#mOi0kTXgbaYq-YoTAwWOJ2/9zkWcwaJkNdeSWVsOR6bGX",
        "repro: https://paste.corp.example/?4df4886b51bc5059#HSvwxRF3kRc1xdekw9HFbQFxpHjd1WoJpG3QLCcybSgt",
        "ibm_db_sa://db2inst1:niI6Lb2*wHzi@db2.vantor.systems:50000/SAMPLE",
        "mount_smbfs '//CORP;dsilva:P9%23cibKzU%2F3@files01.corp.example/finance' /Volumes/finance",
        "webhook https://hooks.example.jp/incoming/564f6efe/P35iPbgaZLFqaH-rCFFLeM_eIbQ9CD5B をコミット",
        "https://calendar.google.com/calendar/ical/ops%40acme.example/private-23eda47eb2c24c56bb66658fa4f943d9/basic.ics",
        "url=https://alerts.ops.example/v1/hooks/ingest?\\\n  token=LKpGy7dZ-3Z1LTwk_MfdLr8EiQzLtePs4J4SP2ZI&team=sre",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        // An OAuth callback's grant, words, a count, an id beside an expiry.
        "https://app.acme.io/oauth/callback?code=Xk29sLq0vB7nWm3RtY8uPz4A&state=xyz",
        "https://app.acme.io/login?next=%2Fdashboard&mt=magic",
        "https://app.acme.io/login/verify?code=123456",
        "https://cdn.acme.io/a.zip?asset_id=Xk29sLq0vB7nWm3RtY8uPz4A&expires=1767225600",
        "https://cdn.acme.io/a.zip?v=3&e=1767225600",
        // Fragments that are routes, anchors and a diff's hash.
        "https://app.acme.io/#/settings/Profile/NotificationsPanel",
        "https://github.com/acme/app/blob/main/src/lib.rs#L10-L20",
        "https://github.com/acme/app/pull/7/files#diff-3b5f0f0e4c8d2a1b9e7f6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b",
        "mount_smbfs //guest:@files01/public /Volumes/public",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// A query continued by concatenation, an SMS gateway's `psw`, a session's
/// key in an API's query.
#[test]
fn concatenated_queries_psw_and_session_keys() {
    for hit in [
        r#"http.Get("https://geo.brennan.dev/lookup?ip=" + ip + "&key=2cObYlYm0875h3mAdq6Prgt62zlMQirs")"#,
        "https://api.smsgate.lv/send?login=monitoring&psw=*S-2Rmy8CpKB&to={ALERT.SENDTO}",
        "https://api.lindqvist.se/v1/orders?customer=1192&session_key=95c5e57ed8fcb1e1b7ea6f9827d32ea37dc59946",
        "GET /cgi-bin/login?psw=OGjYMh3Dom3M&uname=admin HTTP/1.1",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        r#"http.Get("https://geo.brennan.dev/lookup?ip=" + ip + "&lang=en")"#,
        r#"q := "ip=" + ip + "&key=2cObYlYm0875h3mAdq6Prgt62zlMQirs""#,
        "https://api.smsgate.lv/send?login=monitoring&psw=${SMS_PASSWORD}&to=1",
        "https://api.lindqvist.se/v1/orders?session_key=required",
        "https://h.example.com/api?session_key=SESSION_KEY_1",
        "https://h.example.com/api?sessionkey=2024-01-01",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 57: a hook URL's token in lower case and digits, a feed's
/// `sas=` and a SOAP login's `pw=`; a pagination `token=` and the Key Uri
/// Format's example secret are none.
#[test]
fn base36_hook_tokens_sas_and_pw_parameters() {
    for hit in [
        "curl -X POST \"https://hooks.opsbell.io/v1/trigger/6n5d7e8kd3tdwgwe1oszn95k7b4dwmdd2eandq4k\" -d '{}'",
        "webhook: https://notify.birchwire.com/api/hooks/incoming/80ig78emut54fhwr7dodm4uel6msxu8lez67i7e3dsghoq5v",
        "dotnet nuget add source \"https://pkgs.grayling.dev/v3/index.json?sas=rGWsrXJqfBrZ6izaIgvmoapKdjRs0Qg7CXXoOPCVUs7z\" -n grayling",
        "https://login.crmforge.io/services/Soap/u/58.0?un=integration@acme.test&pw=6EyhF5r~Y1eScw",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://hooks.opsbell.io/v1/trigger/deployment-notifications-for-the-payments-team",
        "https://docs.example.dev/hooks/incoming/abcdefghijklmnopqrstuvwxyzabcdefgh",
        "https://login.crmforge.io/services/Soap/u/58.0?un=integration@acme.test&pw=secret",
        "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
        "/v2/items?token=page-3&limit=50",
        "https://github.com/acme/webhook-relay/tree/c22b098e1d2f3a4b5c6d7e8f9a0b1c2d3e4f5061/src",
        "POST https://ci.example.com/trigger/build/0e93ffca1d2f3a4b5c6d7e8f9a0b1c2d3e4f50fb1 201",
        "https://example.com/q?sas=2024-05-01",
        "https://example.com/product?pw=1920x1080&ph=1080",
        "https://example.com/login?pw=%3Cpassword%3E",
        "smtp_url: smtps://alerts%40marrowfield.com@smtp.mailrelay.net:465  # password from SMTP_PASSWORD env",
    ] {
        assert!(crate::screen::scan(clean, false).is_empty(), "{clean}");
    }
}

/// Held-out 58: a payment callback's signing key in its query.
#[test]
fn signing_keys_in_callbacks() {
    assert!(fires(
        "支付回调地址写成了 https://pay-notify.huaxin-mall.cn/callback?sign_key=99bf2e347456be241b7f31cec151c68b ，密钥直接出现在 nginx 日志里。",
        Rule::SecretUrl
    ));
    for clean in [
        "https://pay-notify.example.cn/callback?sign_key=SIGN_KEY_HERE",
        "https://pay-notify.example.cn/callback?sign=md5&sign_type=MD5",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 60: a private calendar feed's key before `.ics`, and a
/// trigger hook's key in base 36 with fewer digits than a fifth.
#[test]
fn calendar_feeds_and_trigger_keys() {
    for hit in [
        "the calendar subscription URL: https://cal.ostrander.app/ical/609993/private-f5f1835f9cd0daa1a6656abe3569184a.ics",
        "POST https://hooks.opsnotify.net/v1/trigger/oskfsuviqexay8i03cbc56pex0zvagjn",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://cal.ostrander.app/ical/609993/public/basic.ics",
        "POST https://hooks.opsnotify.net/v1/trigger/nightlybuildnotificationsforteam",
        "https://hooks.example.com/webhook/projectalphabetagammadelta123456",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 61: a download link's key.
#[test]
fn download_keys() {
    assert!(fires(
        "https://files.volnaplatform.ru/export?download_key=4ee448c7603c54109971bcd735c146e5",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "https://files.volnaplatform.ru/export?download_key=",
        Rule::SecretUrl
    ));
}

/// Held-out 62: an intake's key named for its vendor (`bugtrail_key`) is a
/// sender's key; a key that names a thing, or one public by design, is
/// not.
#[test]
fn keys_named_for_a_vendor() {
    for hit in [
        "https://ingest.bugtrail.dev/api/7/store/?bugtrail_key=30885f475856ff48826ce6d3e58b34f6&bugtrail_version=7",
        "POST https://logs.example.io/v1?acme_key=Zq83kLm2Pw9xR4tY7vB1nC6d",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://cdn.example.com/a.js?cache_key=30885f475856ff48826ce6d3e58b34f6",
        "https://www.google.com/recaptcha/api.js?site_key=6LcQ83kLm2Pw9xR4tY7vB1nC6dQ83kLm",
        "https://api.example.com/v1/charges?idempotency_key=4f9c2a7e1b3d4c5e6f708192a3b4c5d6",
        "https://ingest.bugtrail.dev/api/7/store/?bugtrail_key=<your-key>",
        "https://shop.example.com/p?product_key=ab12cd34ef56ab12cd34ef56",
        "https://api.example.com/v1/events?correlation_key=9f2c4a7e1b3d4c5e6f708192a3b4c5d6",
        "https://api.example.com/v2/events?acme_key=0123456789abcdef0123456789abcdef",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 64: a chat bot API's token as the path segment after `/bot/`;
/// a page about bots is no secret.
#[test]
fn bot_api_paths() {
    assert!(fires(
        "Bot endpoint (the path segment is the secret): https://notify.vellum.chat/api/bot/uJiB3upahuxXW8yGusd1k1rcf5rZr4tsOwqFsCH4/send",
        Rule::SecretUrl
    ));
    for clean in [
        "See https://docs.example.com/bot/getting-started",
        "https://example.com/bot/12345678/status",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 73: a secret parameter curl adds with `--url-query`; a
/// harmless one it adds is none.
#[test]
fn parameters_curl_adds_to_the_url() {
    assert!(fires(
        "curl 'https://git.example.com/rest/api/1.0/projects/OPS/repos?limit=100' --url-query 'private_token=Q7qUB33H51ncR9WBYKaG'",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "curl 'https://git.example.com/rest/api/1.0/projects' --url-query 'limit=100'",
        Rule::SecretUrl
    ));
}

/// Held-out 78: a userinfo built of PowerShell subexpressions reads the
/// credential from the environment; a literal password stays.
#[test]
fn userinfo_of_subexpressions() {
    assert!(!fires(
        "$env:NEXUS_URL = \"https://$($env:NEXUS_USER):$($env:NEXUS_PASS)@nexus.corp.example/repository/npm/\"",
        Rule::SecretUrl
    ));
    assert!(fires(
        "$env:NEXUS_URL = \"https://deploy:Qv7rT2mLx9Zk@nexus.corp.example/repository/npm/\"",
        Rule::SecretUrl
    ));
}

/// Held-out 79: Artifactory's `X-JFrog-Art-Api` and a `bearer` query
/// parameter; a password that repeats its user is a documented default.
#[test]
fn artifactory_and_bearer_parameters_and_default_logins() {
    for hit in [
        "wget 'https://repo.example.io/artifactory/api/npm/npm-local/-/pkg-1.2.0.tgz?X-JFrog-Art-Api=3bH0UqWwCTApC6Bs7cjWLVULwaVk0w0gbDnsBmLQw0Kgcy64FePGFUHbWOqx6rdWE4LHBRqFd'",
        "export KUBE_API=https://k8s.example.net:6443/api?bearer=DxV13aVeUpcZcRX2dhZUCJNSoO0CPsV9EK7-oaM6",
        "amqp://guest:Wq8vTn3LzR5k@mq.example.net:5672/",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "amqp://guest:guest@localhost:5672/ is RabbitMQ's documented default for local dev.",
        "export KUBE_API=https://k8s.example.net:6443/api?bearer=$TOKEN",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 81: a Sentry DSN whose key repeats as its secret, a private
/// calendar feed on any host, a short parameter the text spells out ("a
/// viewer key" for `vk=`); and their neighbours that hold no secret.
#[test]
fn repeated_keys_private_feeds_and_spelled_out_parameters() {
    for hit in [
        "sentry_dsn = \"https://fe29f00acfc46da6047b0a5516b0301a:fe29f00acfc46da6047b0a5516b0301a@o863015.ingest.sentry.io/2313424\"",
        "Upload via the private calendar feed works again: https://cal.brightpath.app/feeds/private-605d6e5fc5646c59e884a987594fc7a3/basic.ics",
        "The shared recording link includes a viewer key: https://rec.glassbeam.io/share/du9KA9t5OQHFeDWGuHtq?vk=ae99b35599f813c49780f268bc0d70dc",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "admin:admin@localhost is the image's default login",
        "https://cal.brightpath.app/feeds/private-calendars/basic.ics",
        "https://www.notion.so/acme/private-605d6e5fc5646c59e884a987594fc7a3/",
        "s3://assets/private-605d6e5fc5646c59e884a987594fc7a3/avatar.png",
        "The shared recording link: https://rec.glassbeam.io/share/du9KA9t5OQHFeDWGuHtq?vk=ae99b35599f813c49780f268bc0d70dc",
        "The link includes a viewer key: https://rec.glassbeam.io/share/du9KA9t5OQHFeDWGuHtq?vk=2",
        "Pass the public key too: https://pay.example.net/checkout?pk=ae99b35599f813c49780f268bc0d70dc",
        "Fetch the next page with the next token: https://api.example.net/items?nt=ae99b35599f813c49780f268bc0d70dc",
        "Rotate the signing key weekly. Unrelated: https://cdn.example.net/a.png?sk=ae99b35599f813c49780f268bc0d70dc",
        "Art: https://cdn.example.net/themes/key-art.jpg?tk=ae99b35599f813c49780f268bc0d70dc",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 84: a drop service's generated `upload_key`; and the same
/// parameter naming the object's path or an id in one case.
#[test]
fn an_upload_key_that_is_generated() {
    assert!(fires(
        "tar cz logs | curl -T - 'https://drop.example.net/in/logs.tgz?upload_key=Qm7Tz2LwX9vKc4RbN8pYd3HsJ6gF'",
        Rule::SecretUrl
    ));
    for clean in [
        "https://media.example.net/api/finish?upload_key=uploads/2024/05/avatar-7f3a.png",
        "https://media.example.net/api/finish?upload_key=5d41402abc4b2a76b9719d911017c592",
        "https://media.example.net/api/finish?upload_key=avatar_upload_20240502",
        "PUT https://media.example.net/api/finish?upload_key=uploads/2024/05/IMG_4032.JPG 204",
        "https://media.example.net/api/finish?upload_key=Invoices/Q2-2024/INV-00482.pdf",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 85: MySQL Shell's URI without a scheme, Cloudflare's signed
/// URL's `verify`; a login without a password, a reference, a flag.
#[test]
fn shell_uris_and_signed_verify_parameters() {
    for hit in [
        "mysqlsh --uri 'ops:Tq8#vLw2Rz@db-7.internal:33060' --sql",
        "https://cdn.example.net/v.mp4?verify=1741090000-Xk2Lm9QpR4sTz7Wv1Yb3Nc5Hd8Jf0Gg",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "mysqlsh root@localhost:3306 --sql",
        "mysqlsh --uri 'admin:$MYSQL_PW@db:3306'",
        "https://api.example.net/check?verify=true",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 86: SonarQube's token as the `login` parameter; a user's
/// name there is none.
#[test]
fn sonarqube_tokens_as_the_login_parameter() {
    assert!(fires(
        "sonar.host.url=https://sonar.example.net?login=sqp_4f9a2c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
        Rule::SecretUrl
    ));
    assert!(!fires(
        "https://app.example.net/auth?login=alice",
        Rule::SecretUrl
    ));
}

/// Held-out 90: an rclone remote written inline, whose `pass` parameter
/// is the password; a reference, a remote without a secret and a slice
/// are none.
#[test]
fn an_rclone_remote_written_inline() {
    for hit in [
        "rclone lsd \":webdav,url='https://cloud.example.org/remote.php/dav/files/ops',user=ops,pass='iPQY6DJub8':\"",
        "rclone copy ./out :sftp,host=backup.example.net,user=etl,pass=Vq7LmZt2Rw9x:/srv/out",
        "remote = :s3,provider=Minio,access_key_id=etl,secret_access_key=Kq9Lm2Zt7RwXv4Pn:bucket",
        "rclone sync /data :sftp,host=h,key_use_agent,user=etl,pass=Vq7LmZt2Rw9x:/srv/in",
        "rclone ls \":storj,access_grant=1cCYAHeMq7Lm2Zt9Rw4Vb8Nc3Hd6Fs1Gj5Ky0Up:bucket\"",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "rclone lsd \":webdav,url='https://cloud.example.org/dav',user=ops,pass=$RCLONE_PASS:\"",
        "rclone copy ./out :s3,provider=AWS,env_auth=true:bucket/out",
        "rclone lsd \":sftp,host=backup.example.net,user=etl,pass='<obscured password>':\"",
        "values = table[:n,key=lambda r: r.score]",
        "UPDATE users SET email=:email,password=crypt(:password, gen_salt('bf')) WHERE id=:id",
        "UPDATE sessions SET user_id=:uid,token=gen_random_uuid() WHERE id=:id",
        "INSERT INTO t VALUES (:id) ON CONFLICT (id) DO UPDATE SET id=:id,key=EXCLUDED.key",
        "rclone lsd \":sftp,host=h,user=etl,pass='RCLONE_PASS':\"",
        "rclone lsd \":sftp,host=h,user=etl,pass='obscured':\"",
        "rclone lsd \":sftp,host=h,user=etl,pass='env:RCLONE_PASS':\"",
        "rclone ls \":s3,access_key_id=XXX,secret_access_key=YYYY:bucket\"",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 98: InfluxDB 1.x's password in `p` beside its user in `u`,
/// the user after it; a `p` without a user is a page or a parameter, and
/// off InfluxDB's API a post's, a page's or a port's number is no
/// password.
#[test]
fn influx_query_passwords() {
    assert!(fires(
        "Grafana datasource test failed: Get \"https://metrics.kelp.io:8086/query?db=telegraf&p=ZxSQ4WpHdG.0e4b2h&q=SHOW+MEASUREMENTS&u=grafana\": x509: certificate signed by unknown authority",
        Rule::SecretUrl
    ));
    assert!(fires(
        "curl -G 'http://influx.example.net:8086/query?u=admin&p=Gk7pZt2Rw9&q=SHOW+DATABASES'",
        Rule::SecretUrl
    ));
    for clean in [
        "https://forum.example.org/search?q=influx&p=3",
        "https://metrics.example.io:8086/query?u=grafana&p=$INFLUX_PASSWORD&db=telegraf",
        "https://metrics.example.io:8086/query?u=grafana&p=password&db=telegraf",
        "https://shop.example.com/list?p=AbC123xYz9&sort=asc",
        "https://community.example.com/viewtopic.php?t=9876&u=42&p=123456#p123456",
        "See https://forums.example.org/viewtopic-t-1234.html?u=5&p=8812345 for the fix.",
        "https://example.com/proxy?u=upstream&p=8080",
        "https://grafana.example.com/render?u=cpu&p=last24h",
        "https://ws.example.com/track?u=5f3a9c&p=HomePage-Hero-v2",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 100: an API key's parameter named in French, Spanish,
/// Portuguese, Italian or German; the same names holding a word or a
/// placeholder are none.
#[test]
fn api_key_parameters_named_abroad() {
    for name in [
        "cle_api",
        "clave_api",
        "chave_api",
        "chiave_api",
        "api_schluessel",
        "cle-api",
        "apischluessel",
    ] {
        let hit = format!(
            "https://api.meteo.example/v1/obs?station=LYS&{name}=7d6f18b53ece290272ecf0926ea26dd5"
        );
        assert!(fires(&hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://api.meteo.example/v1/obs?station=LYS&cle_api=VOTRE_CLE",
        "https://api.meteo.example/v1/obs?cle_api=${CLE_API}",
        "https://api.meteo.example/v1/obs?clave_api=demo",
        "https://api.meteo.example/v1/obs?cle_api=VotreCleApi",
        "https://api.meteo.example/v1/obs?cle_api=VOTRE-CLE-API",
        "https://api.meteo.example/v1/obs?cle_api=MA_CLE_API",
        "https://api.meteo.example/v1/obs?clave_api=AQUI_TU_CLAVE",
        "https://api.meteo.example/v1/obs?cle_api=VOTRE_CLE_API_2",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 103: a conda channel's token in one case, and a git URL whose
/// user is a template's variable; slugs and templated passwords stay
/// clean.
#[test]
fn one_case_channel_tokens_and_templated_users() {
    for hit in [
        "channels:\n  - https://conda.bramble.ai/t/8a0n5dmjvqffmtnmlq7jhvk31d7fjuev/internal\n  - conda-forge",
        "repo: \"https://{{ git_user }}:eyLSkfweAsQMzWie84iO33MR7W4SvguEUKfrMti0@git.maple.local/ops/playbooks.git\"",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "See https://forum.conda.org/t/how-to-install-numpy-on-apple-m1/12345/ for the fix",
        "conda: https://discourse.example.org/t/installationguidefornewusers2024/88/",
        "repo: https://{{ git_user }}:{{ git_token }}@git.example.com/ops/x.git",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}

/// Held-out 104: New Relic's `License-Key` and an OCPP station's
/// `authorizationKey`.
#[test]
fn query_keys_named_license_and_authorization() {
    for hit in [
        "url: https://log-api.newrelic.com/log/v1?License-Key=0ee30db482385f204dc90b6e007bc43aff86NRAL",
        "ws://ocpp.chargepoint-lab.net:9000/ocpp/CP-0042?authorizationKey=4eacc05ac0088e332746afe8530b4a2e91ffbf98",
    ] {
        assert!(fires(hit, Rule::SecretUrl), "{hit}");
    }
    for clean in [
        "https://log-api.newrelic.com/log/v1?License-Key=YOUR_LICENSE_KEY",
        "ws://ocpp.example.net/ocpp/CP-1?authorizationKey=<key>",
    ] {
        assert!(!fires(clean, Rule::SecretUrl), "{clean}");
    }
}
