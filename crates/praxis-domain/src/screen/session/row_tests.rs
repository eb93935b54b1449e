//! Tests of session ids in a table's column, an SQL row, a cookie header,
//! a clause that names them, a log line and a YAML list, beside
//! [`super::tests`].

use crate::screen::fires;
use crate::screen::rule::Rule;

/// Held-out 58: a cookie named for a session in a cookie header, Django's
/// session row inserted without its columns, a sessions table's row, and
/// Tomcat manager's table aligned with spaces.
#[test]
fn cookie_headers_rows_and_aligned_tables() {
    for hit in [
        "Set-Cookie: AUTH_SESSION_ID_LEGACY=6895e5a2-5a02-41e8-8f9b-ba46daa66a46.kc-1; Path=/realms/master/",
        "INSERT INTO django_session VALUES('gmf9tsuasu4wei4bdln6sqmd1objlqgf','eyJh:1sXk2z:cdSR2U','2024-07-01 10:00:00');",
        "user_sessions row: id=01H01C1GBMG6M6X5FBEH302YQQ user_id=88 created_at=2024-05-01",
        "Tomcat Manager > Sessions for /erp\nSession ID                         Last accessed\nFE72835F756C3F3D0171B443D4974755   10:32:04",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Set-Cookie: SESSION_TIMEOUT_MINUTES=30; Path=/",
        "INSERT INTO django_session VALUES('placeholder_session_key_here','x','2024-07-01');",
        "INSERT INTO talk_sessions VALUES('intro-to-rust-2024-keynote', 'Main hall');",
        "user_sessions row: id=42 user_id=88",
        "Session ID                         Last accessed\n(none)                             -",
        "Session ID   Owner\nsee the audit log for the id   ops",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A UUID after a colon that ends a clause naming a session id.
#[test]
fn uuids_after_a_session_clause() {
    assert!(fires(
        "Support asked for the session id, I sent them: 18402bda-f0d8-45fb-8a8f-0c104edee232",
        Rule::SessionId
    ));
    assert!(!fires(
        "Support asked for the session id, I sent them: the one from the report",
        Rule::SessionId
    ));
}

/// A review's findings: cookies named for a session whose values are a
/// time, a date or words; another id after a sessions row.
#[test]
fn cookie_values_and_row_ids_that_are_no_sessions() {
    assert!(fires(
        "curl -H 'Cookie: AUTH_SESSION_ID_LEGACY=2335e5a2-31e4-4d87-8c63-416dcaf24958.kc-2' https://sso.example.com/",
        Rule::SessionId
    ));
    assert!(fires(
        "INSERT INTO user_sessions VALUES ('e2c92aa1-76c7-4606-b28c-7ddc2150ae43', 17, '2024-05-01');",
        Rule::SessionId
    ));
    assert!(fires(
        "INSERT INTO sessions VALUES (\"k3x9m2p7q8r4s6t1v5w0y2z8a3b7c1d4\", 'e30', '2024-05-15');",
        Rule::SessionId
    ));
    for clean in [
        "Cookie: session_started_at=2024-05-01T12:00:00Z",
        "Set-Cookie: sessionExpires=Wed%2C%2001%20May%202024%2014%3A00%3A00%20GMT; Path=/",
        "Cookie: session_flag=feature_dark_mode_v2",
        "Updated sessions row; request id=0b6c9f1e-3a7d-4c2e-9f1a-2b3c4d5e6f70",
        "The sessions entry was deleted (trace id=4bf92f3577b34da6a3ce929d0e0e4736)",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
    for hit in [
        "USER      Session ID                          STARTED\nalice     jHovX0ViRvSKiYsTZltpJ9bGZzKmFFVr    2024-05-01",
        "Name     JSESSIONID                          Created\nalice    365BB3EC74A95D17E636798EB0F4C99A    10:00",
        "| Session ID | User |\n|---|---|\n| 0umahY9g0fpqQgf6gi2C | root |",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// A second review: the clause before the colon may name the session's
/// token or call it a SID, and must name no other id; dated labels in a
/// Session column and cookie tables.
#[test]
fn session_clauses_and_session_columns() {
    for hit in [
        "My session token, as requested: f8521640-61b7-401e-bc13-cfafb45786dc",
        "The SID of the stuck session, I grabbed it: b42ad8e6ce55dd3704439c852ee0c565",
        "| Cookie | Value |\n|---|---|\n| PHPSESSID | enfsuwg8afl6ujpnx1hvap7e5r |",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "The session id is not the same as the correlation id: e83109c3-01b5-422b-9282-efb89129485b is the correlation id",
        "the session id was rotated, new build id: f1e375c1-2d76-432c-9851-7bb600dd6f30",
        "ID   NAME         SESSION              STATE\n1    build-agent  sess-2024-05-01-a    active",
        "| Ticket | Title | Session |\n|---|---|---|\n| OPS-1422 | Login loop | chrome-2024-05-01 |",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A third review: a Name/Value table of cookies, a UUID in a session
/// column, and a timestamp that is none.
#[test]
fn cookie_tables_and_uuid_columns() {
    for hit in [
        "| Name | Value | Domain |\n|---|---|---|\n| PHPSESSID | k2v9q8m3n7b6x5c4z1l0p9o8i7 | .example.com |",
        "| user | session_id |\n|---|---|\n| alice | 3f2a1b9c-8d7e-4f5a-9b3c-2d1e0f9a8b7c |",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "| user | session_id |\n|---|---|\n| alice | 20240501T093012Z |",
        Rule::SessionId
    ));
}

/// Held-out 59: CodeIgniter's session file, OpenSearch Dashboards'
/// session cookie.
#[test]
fn framework_session_files_and_cookies() {
    for hit in [
        "CodeIgniter created /writable/session/ci_sessionccd9146ac91e3235a1a2399c57b49265a13447f1 for every health-check hit.",
        "OpenSearch Dashboards security_authentication=DdCBx9zl2yKazCtES1jX5XOtT7pZRxV1pdyd7P8sUFeyTB5KUTazr9BfqPLt cookie",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "security_authentication=false in opensearch_dashboards.yml disables the login page",
        Rule::SessionId
    ));
}

/// Held-out 54 and 60: a UUID or 32 hex digits in the sentence that names
/// a session, unless a sentence ends between them or the words between
/// name another thing the value could identify or sum up.
#[test]
fn ids_in_the_sentence_that_names_a_session() {
    for hit in [
        "Steps: 1. note the session id shown in the footer (a4cac71cf7b99af186c2d3c1175a1e93) 2. open a ticket",
        "iex> :ets.lookup(:sessions, \"1a6776a3f1465ede49f44665a191adc0\")",
        "the chat session id in .aider.chat.history.md header was dc924ff0-9635-48cf-afb6-a09e405ee053",
        "conn.execute(\"SELECT * FROM user_sessions WHERE sid = %s\", (\"605f0f02988a07e3775223604e6955de\",))",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "The session ended. Request 3f0c2a7e9b1d4c6e8f0a2b4c6d8e0f1a failed later.",
        "session logs uploaded; md5 of the archive: 9e107d9d372bb6826bd81d3542a419d6",
        "after the session we reverted commit 4f2b9c1d7e8a6b5c3d2e1f0a9b8c7d6e",
        "session for user 7c9e6679-7425-40de-944b-e07fc1f90ae7 expired",
        "session id format is 0123456789abcdef0123456789abcdef",
        "the session row points at 00000000-0000-0000-0000-000000000000",
        // A review's probes: plurals, sums and other things named, links.
        "session notes: MLflow runs 5d8cf3dd72b82e073f2f0c80c78a6ca3 and 9e107d9d372bb6826bd81d3542a419d6",
        "session upload sha256:5d8cf3dd72b82e073f2f0c80c78a6ca3",
        "Pairing session: customer 7c9e6679-7425-40de-944b-e07fc1f90ae7 reported the bug",
        "session notes at https://www.notion.so/Retro-5d8cf3dd72b82e073f2f0c80c78a6ca3",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 60: Telethon's and Pyrogram's string session logs the account
/// in.
#[test]
fn string_sessions() {
    assert!(fires(
        "session_string=PEezjy3jz0NXatBJAkX0FL4OQELfJ0CULJGsNX0zSP5p-CUkc6rBSAaR8lHpMqnN",
        Rule::SessionId
    ));
    assert!(!fires(
        "SESSION_STRING = os.environ[\"SESSION_STRING\"]",
        Rule::SessionId
    ));
}

/// A review's probes: a labelled id that the sentence calls a checksum,
/// or that is filler; random UUIDs with a few neighbours one apart are
/// still ids.
#[test]
fn labelled_sums_and_filler() {
    for clean in [
        "session 5d8cf3dd72b82e073f2f0c80c78a6ca3 (md5)",
        "session 5d8cf3dd72b82e073f2f0c80c78a6ca3 is the md5 of the upload",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
    for hit in [
        "gemini --resume 7a7727c4-9ccd-457a-ab15-2bcd1899808d",
        "claude -r 2010dbde-e019-45a4-89d7-5ce2ba296a23 -p 'continue the migration'",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// A word that merely opens like a checksum's name (`shared`) names none.
#[test]
fn words_that_open_like_a_sum() {
    assert!(fires(
        "the session shared with the vendor was 5d8cf3dd72b82e073f2f0c80c78a6ca3",
        Rule::SessionId
    ));
    assert!(!fires(
        "session upload 5d8cf3dd72b82e073f2f0c80c78a6ca3 (sha1)",
        Rule::SessionId
    ));
}

/// Held-out 66: a ULID among a log line's fields after `[sessions]`, a
/// session's name logged with `=` inside its quotes and its value as the
/// next argument.
#[test]
fn log_fields_and_logged_arguments() {
    for hit in [
        "[sessions] active=1 id=01K19GVV995WCJVSMXSE5S7FAN last_seen=2025-02-02T09:11Z",
        "console.log('req.sessionID =', 'CbQOOGhacpQZ4ty37Q3g7F3FJfrLjAui')  // debug, remove",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "[sessions] active=1 id=<ulid> last_seen=2025-02-02T09:11Z",
        "console.log('req.sessionID =', req.sessionID)",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 67: Spark's `SessionHandle [<uuid>]`, a ULID under a YAML
/// `sessions:` list's `id:`, Wt's `session <id>:` before its message.
#[test]
fn handles_listed_ids_and_logged_sessions() {
    for hit in [
        "Spark thrift log: Opened session SessionHandle [a1d34f4c-9cf2-414f-8283-51e4bac1f3d6] for user etl",
        "sessions:\n  - id: 01JM2VVPJ5MF9BZ9ZSQQZP6SX6\n    user: svc-importer",
        "Wt session ULxhn9z5YUVugVgCZGEh: Error: handler not found, restarting session",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Closed session handle for user etl",
        "tasks:\n  - id: 01JM2VVPJ5MF9BZ9ZSQQZP6SX6",
        "Parallel session A1: keynote at 09:00",
        "session Configuration2Manager: loaded",
        "sessions:\n  - id: 42\n    user: svc-importer",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Review of session 53: a JSON list of sessions, of ids or of objects
/// whose first field is the id, and a logged session id with a dash.
#[test]
fn json_session_lists_and_dashed_logged_ids() {
    for hit in [
        "{\"sessions\": [{\"id\": \"7d3f0c2a-58b1-4e6d-9a0f-3c8e2b7a4d19\", \"user\": \"mk\"}]}",
        "{\n  \"sessions\": [\n    {\"id\": \"01HZQ4V8K2M6T9X3C7B5N1P0RW\", \"mfa\": false}\n  ]\n}",
        "{\"activeSessions\": [\"9F2C4A7E0B13D58C6A24F917E3B0C85D\"]}",
        "[info] c.s.RedisSessionStore - session Pq7Rw2-Xm9Lt4Kd8Vn3s: refreshed",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "{\"tasks\": [{\"id\": \"7d3f0c2a-58b1-4e6d-9a0f-3c8e2b7a4d19\"}]}",
        "{\"sessions\": [{\"id\": 42, \"user\": \"mk\"}]}",
        "{\"activeSessions\": []}",
        "[info] session keep-alive-timeout: 30s",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 68: a cache command on a key named for sessions, the 1Password
/// CLI's `OP_SESSION_<account>`, express-session's debug line.
#[test]
fn cache_keys_cli_sessions_and_store_debug_lines() {
    for hit in [
        "memcached: get shop_sess_4f9a0c2e7b1d58a36e0f9c4b2a7d1e85 -> END (miss)",
        "export OP_SESSION_team=\"Zr8Kq2-Wm5Xt9Lv3Np7Hd1Fs6Gb0Yc4Jw8Ta2Qe\"",
        "  express-session saving Kd8Qm2Wz7Lt4Xr9Vb3Nc6Hs1Fp5Jy0A +3ms",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "memcached: get shop_cart_4f9a0c2e7b1d58a36e0f9c4b2a7d1e85 -> END (miss)",
        "export OP_SESSION_team=\"$(op signin team --raw)\"",
        "  express-session no SID sent, generating session +0ms",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Second review of session 53: a Teleport recording played or joined by
/// its id, a mosh session's key, a session's id named in Vietnamese.
#[test]
fn teleport_mosh_and_vietnamese_sessions() {
    for hit in [
        "tsh play 5b0e8f2c-7d41-4a96-b3e2-1c9f0a6d7e48",
        "tsh join --cluster=prod 5b0e8f2c-7d41-4a96-b3e2-1c9f0a6d7e48",
        "MOSH CONNECT 60001 Lq8Rz2Wx7Vn4Kt9Mp3Hd1A",
        "mã phiên của tôi là 5b0e8f2c-7d41-4a96-b3e2-1c9f0a6d7e48, nhờ anh kiểm tra.",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "tsh play --help",
        "MOSH CONNECT failed: no route to host",
        "mã phiên bản là 2.4.1",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 69: a later session word relabels the value ("sessionToken
/// for the kiosk user (session id) = …"), a session's own object names
/// its id first (Jupyter), an aside after a dash says no more of it, and
/// a Django session key stands alone in a log that prints the cookie.
#[test]
fn relabelled_own_object_and_django_session_ids() {
    for hit in [
        "sessionToken for the kiosk user (session id) = f68f057b31dfe8026c9fa61fed53bebe \u{2014} pasted by the vendor into the ticket.",
        "Jupyter kernel session: {\"id\": \"efadc349-8376-428f-b894-93940a49bd70\", \"path\": \"notebooks/forecast.ipynb\", \"type\": \"notebook\"}",
        "log_format withsess '$remote_addr $request $cookie_sessionid';\nsample: 10.3.2.2 GET /dashboard/ HTTP/1.1 qgdvf8v1qelxp6i5gbhbe420dckhqyjw",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "session for user 5b0e8f2c-7d41-4a96-b3e2-1c9f0a6d7e48 expired",
        "session: {\"user\": {\"id\": \"efadc349-8376-428f-b894-93940a49bd70\"}}",
        "the sessionid cookie is set; build thisisaverylongwordwithoutdigits",
        "sessionid rotated; commit 3f9a2c4e5b6d7f8091a2b3c4d5e6f7a8 deployed",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 70: an agent's session named by the id that resumes it.
#[test]
fn resume_ids() {
    assert!(fires(
        "the resume id it printed was 7997135e-eb8f-4890-9618-8640228af360, run `claude --resume` with that",
        Rule::SessionId
    ));
    for clean in [
        "the resume id is printed when the agent stops",
        "resume id: 00000000-0000-0000-0000-000000000000",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 71: a cookie's row copied from the browser's developer tools,
/// and Ruby's `session[:id] => "…"`.
#[test]
fn devtools_cookie_rows_and_ruby_session_ids() {
    for hit in [
        "devtools > Application > Cookies:\n  session    5a4a796f64522bbf9556627890fab17e2a49a417351f9f79d9ab03e79d7a7b8d    app.example-notes.com    /    Session",
        "ruby: session[:id] => \"b93e1407f69bf85aaeadfc088593e6f4\"",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "devtools > Application > Cookies:\n  theme    dark    app.example-notes.com    /    Session",
        "ruby: session[:id] => nil",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A review of session 54 (probes written blind): MongoDB's logical
/// session id.
#[test]
fn mongodb_logical_session_ids() {
    assert!(fires(
        "Transaction aborted: WriteConflict. Logical session lsid: { id: UUID(\"cfdad759-05f9-4e73-aaa5-3830cc446f7f\") }, txnNumber: 14",
        Rule::SessionId
    ));
    assert!(!fires(
        "lsid: { id: UUID(\"00000000-0000-0000-0000-000000000000\") }",
        Rule::SessionId
    ));
}

/// Held-out 72: a DynamoDB item's typed session key, and Flask-Session's
/// stored files listed by name; other typed keys and other listings are
/// none.
#[test]
fn typed_session_keys_and_stored_session_files() {
    for hit in [
        "aws dynamodb get-item --table-name web-sessions --key '{\"SessionId\": {\"S\": \"2b3b80112a90d032697860261ef19787f293c001\"}}'",
        "$ ls flask_session/\n1807d61e2670f22b27ea2989702f310c\na6627d9454c0a96f55ae925bf90c5d32",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "aws dynamodb get-item --table-name orders --key '{\"OrderId\": {\"S\": \"2b3b80112a90d032697860261ef19787f293c001\"}}'",
        "$ ls build/\n1807d61e2670f22b27ea2989702f310c\na6627d9454c0a96f55ae925bf90c5d32",
        "$ ls flask_session/\n(empty)",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 73: Roundcube's `_sid` in a webmail link.
#[test]
fn roundcube_session_ids_in_links() {
    assert!(fires(
        "https://webmail.example.no/?_task=mail&_mbox=INBOX&_sid=7vayn0wqnfey4c4zlyoummapg5iachbx",
        Rule::SessionId
    ));
    assert!(!fires(
        "https://webmail.example.no/?_task=mail&_mbox=INBOX&_sid=",
        Rule::SessionId
    ));
}

/// Held-out 75 (and 73's SQL row): a `sessions` row picked by its id in
/// SQL or described, Laravel's regenerated ids and remember-me cookie, a
/// server's own session cookie named a few words before its value.
#[test]
fn rows_regenerated_ids_and_named_cookies() {
    for hit in [
        "UPDATE sessions SET last_activity = 1730880000 WHERE id = 'CV4Lt9Jxoe1OFmdAtotAHxR58YKzOyly46Rl68Wg';",
        "DELETE FROM django_session WHERE session_key = 'k3v9q8m3n7b6x5c4z1l0p9o8i7u6y5t4';",
        "sessions table row: id=03BX6C0HSQE8G8YT7VDFMTW5TX user_id=213 created_at=2025-03-01 09:12:00",
        "[2025-03-09 22:41:03] local.INFO: Session regenerated {\"old\":\"8RoM23747ycDN6YXFDEVkzauBXq1eWIVkHFe08Ky\",\"new\":\"qlOP9hSsS7wNNfrAg23uL5BiUwSRLBcAfEVJLpZl\"}",
        "Set-Cookie: remember_web_59ba36addc2b2f9401580f014c7f58ea4e30989d=JFWlUPkUuAgtfBnG3qe2gb5r9jeonvQ4OJHdd8_qxbfSi2lL3-8-YezTvTs9uefc; path=/; httponly",
        "Sesión expirada. Valor de la cookie PHPSESSID antes del fallo: cccv6sczpjko3amzy02u1s2303",
        "The JSESSIONID seen just before the failover: 9E56A9A6BE9DB9AEF752D1B17A9F2464",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "UPDATE sessions SET last_activity = 1730880000 WHERE user_id = 42;",
        "DELETE FROM sessions WHERE id = 'session-id-goes-here-please';",
        "sessions table row: id=42 user_id=213",
        "Session regenerated {\"old\":\"[redacted]\",\"new\":\"[redacted]\"}",
        "Set-Cookie: remember_me=1; path=/",
        "The PHPSESSID cookie, as the docs describe it: a random id",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 76: Django session keys in `sqlite3`'s rows under a query of
/// `django_session`, Bilibili's `SESSDATA` cookie, Tomcat manager's
/// listing of a session's id.
#[test]
fn query_rows_sessdata_and_manager_listings() {
    for hit in [
        "sqlite> select session_key, expire_date from django_session limit 2;\n5qrtqsszvpewwybzclsihn3v5r8wlly0|2025-05-21 09:14:02\npzy0py756g4cm3xsy81srqmtd18ccbt9|2025-05-21 08:51:40",
        "SESSDATA=ea23d217%2C1755000000%2C57de0%2A31; bili_jct=8809f7846d692666a8781475f3b67b9a",
        "Tomcat manager > Sessions: ID 9E56A9A6BE9DB9AEF752D1B17A9F2464 | last accessed 10:41",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "sqlite> select count(*) from django_session;\n1422",
        "SESSDATA=; bili_jct=",
        "Tomcat manager > Sessions: ID column sorted by last access",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 77: an AWS Systems Manager session's id after the word, a
/// Laravel session read by its id through the handler; an instance's id
/// after `--target` is no session.
#[test]
fn ssm_sessions_and_handler_reads() {
    for hit in [
        "ssm-user session ops-a4decfa90adbd4ced timed out after 20 min idle",
        "aws ssm terminate-session --session-id deploy-bot-0b1c2d3e4f5a6b7c8",
        "php artisan tinker --execute \"dump(session()->getHandler()->read('GMIL4qu53ungp2uaGnXJ5RfnZCLfJ5rTrXPsJZhn'));\"",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "aws ssm start-session --target i-0f1e2d3c4b5a69788",
        "aws ssm start-session --target mi-0123456789abcdef0",
        "php artisan tinker --execute \"dump(session()->getHandler()->read(\\$id));\"",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 81: an id printed by the code that reads it, in a comment
/// after the call; a cookie's name and value quoted as code in prose.
/// What such a comment says in words is no id.
#[test]
fn printed_ids_and_quoted_cookie_pairs() {
    for hit in [
        "console.log('sessionID', req.sessionID) // prints xSe4XKDILQJNCLK1aX15igvTnb8yb0y-",
        "print(request.session_id)  # printed: k3Jd9aQmZx7PqL2vRt8sWn4Yb6Uc1EoH",
        "Chrome DevTools > Application > Cookies shows `PHPSESSID` = de8fq2a4tk0ob9lelns7i3eagr for both tabs, so the shopping carts are merged.",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "console.log('sessionID', req.sessionID) // prints the id of the current visitor",
        "console.log(req.sessionID) // prints undefined_until_the_store_is_ready",
        "Cookies shows `PHPSESSID` = <the value> for both tabs",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 82: a bare "id" before the value names the session's own id
/// (`$_SESSION dump for id …`, `CREATE_SESSION ok id=…`), PHP's 26
/// characters of base 32 among the shapes; a request's id stays.
#[test]
fn bare_ids_after_a_session_word() {
    for hit in [
        "$_SESSION dump for id i0lg00nrzbionwcrly5mr6ws4q: array(3) { [\"uid\"]=> int(7) ... }",
        "CREATE_SESSION ok id=1XWVQCCT6NFZ9QEPGRRHZ2172J ttl=900",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "CREATE_SESSION failed for request id=1XWVQCCT6NFZ9QEPGRRHZ2172J",
        "$_SESSION dump for id 42: array(3)",
        "session handling for id abcdefghijklmnopqrstuvwxyz",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 83: cookies named for a session in a header or a cookie
/// string (`TWIKISID`, `unifises`, a shop's `PrestaShop-<hash>`), any
/// cookie a sentence calls a session cookie before it; a Twilio SID, a
/// cookie after words that say it is no session cookie, a plain word.
#[test]
fn cookies_named_for_sessions_in_headers_and_strings() {
    for hit in [
        "Cookie: TWIKISID=1f69488e5bfa90208252f015b41cfdc2",
        "Unifi controller: unifises=53weLixh0xhRiLcysKdaOoY7sJVD6Vss; csrf_token=FzOsDNqlovDKGoR5v6eegUOQXBfmnU98",
        "Cookie: PrestaShop-c51b8711c03531b106896856e641247d=def50200bfe9daedeaa9192b2ce02501fcf31ad9a1fe4517",
        "Session cookie from the Vaultwarden admin page: VW_ADMIN=XIj_yixCn03Y-3jvjDmsAHZODaYRmPjkS5XREtdafbf",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "the body had SmsStatus=delivered; MessageSid=SM4bd9816fdc18674bbbccb18a9ae89011.",
        "Google Analytics cookie _ga=GA1.2.1029384756.1712345678 is not a session cookie.",
        "Cookie: responses=all_good_nothing_to_see_here; theme=dark",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 84: PrestaShop's cookie, named by a hash, needs no header;
/// another name with a hash, a checksum beside a file name and a short
/// value are none.
#[test]
fn a_cookie_named_by_a_hash_stands_alone() {
    assert!(fires(
        "after checkout: PrestaShop-0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f=Xk29PqLz7RmW4tNv8YsB3cHd6JfG1uKe5oQa0iTr",
        Rule::SessionId
    ));
    for clean in [
        "node-modules-0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f=Xk29PqLz7RmW4tNv8YsB3cHd6JfG1uKe5oQa0iTr",
        "Build-0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f=Xk29PqLz7RmW4tNv8YsB3cHd6JfG1uKe5oQa0iTr",
        "PrestaShop-0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f=deleted",
        "md5(app-0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f)=0f4c2a9e8b7d6c5b4a3f2e1d0c9b8a7f",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 85: Keycloak's legacy session cookie alone, a browser
/// driver's saved cookie named `sid`; a theme cookie and a deleted one.
#[test]
fn keycloak_legacy_cookies_and_saved_cookie_lists() {
    for hit in [
        "KEYCLOAK_SESSION_LEGACY=3f1c9a7e-8b2d-4e6f-9a1c-2b3d4e5f6a7b.kc-node-2",
        "{\"cookies\": [{\"name\": \"connect.sid\", \"value\": \"s%3AqW8eR2tY6uI0oP4aS7dF1gH5jK9lZ3x\", \"domain\": \"app.test\"}]}",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "[{\"name\": \"theme\", \"value\": \"qW8eR2tY6uI0oP4aS7dF1gH5jK9lZ3x\"}]",
        "[{\"name\": \"sid\", \"value\": \"deleted-because-the-user-logged-out\"}]",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 86: session ids where particular tools put them; and the
/// same places holding no id.
#[test]
fn session_ids_where_tools_put_them() {
    for hit in [
        "jupyter console --existing kernel-9b3e2f1a-4c5d-4e6f-8a7b-1c2d3e4f5a6b.json",
        "MOSH_KEY=Qx7vLm2RtY9pWc4ZsN8kJb mosh-client 10.0.0.7 60002",
        "less /var/log/session-recorder/01HZX3K9QW4V7B2N8M5T6R1Y0D.cast",
        "Resuming conversation 2c7e9f4a-1b3d-4e5f-a6b7-c8d9e0f1a2b3 from yesterday.",
        "~/.gemini/tmp/3f9a0c1d2e4b5a6978c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6/chats/session-2025-06-01T09-30-12ab34cd56.json",
        "support wanted the session id: cs_test_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2",
        "log.debug(\"session_id=%s\", \"k3J9xQ2mV7pL4wR8tY6nB1cZ\")",
        "GET /cart?ssid=Vb7Kq2Lm9XzR4tW8pN3sJ6yH1cF5dG0a&cart=2",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "jupyter kernelspec list; kernel-python3.json is the spec",
        "a stale kernel-9b3e2f1a-4c5d-4e6f-8a7b-1c2d3e4f5a6b.json was left in the runtime dir",
        "MOSH_KEY= mosh-client 10.0.0.7 60002",
        "ls /var/log/session-recorder/latest.cast",
        "Resuming conversation with the vendor next week.",
        "log.debug(\"session_id=%s\", session.id)",
        "wpa_supplicant: ssid=HomeNetwork5G",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 87: a session id a REPL answered, a session cookie's value
/// given in prose, a checkout session named in prose; and the same
/// places holding none.
#[test]
fn session_ids_answered_or_named_in_prose() {
    for hit in [
        "php artisan tinker >>> Session::getId()\n=> \"k0Na263Efo5554dkojAxvJJ5JsTDWXToUcLK3aar\"",
        "> session()->getId()\n= \"k0Na263Efo5554dkojAxvJJ5JsTDWXToUcLK3aar\"",
        "Flask debug: session cookie = lwMQCW1pHGOxvZs4jx3B6dyUqko4aPRxJiZiCivn.ZRV2lh.5tzP_1ztymzNrjW5CoxqwSXXHKo",
        "Stripe checkout session cs_live_p3MfpQKtxA2YCqNMfxQdI19MGYiKp9HeXwTcLXg4xIVr2O0sxNDfxD62Ow stuck in 'open'",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "php artisan tinker >>> Session::getId()\n=> null",
        "Flask debug: session cookie = <redacted>",
        "the session cookie is HttpOnly and SameSite=Lax",
        "Stripe checkout session cs_live_... stuck in 'open'",
        "Checkout session cs_test_a1y5oPVGQKz7UJZSNjw1pfNCcoRW9BplqZqlnfoLhq39qjIgow expired before the customer paid.",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 88: an id said to be a session, and the first row of a table
/// of sessions; and the same shapes naming other things.
#[test]
fn ids_said_to_be_sessions_and_tables_of_them() {
    for hit in [
        "01JDMPJ2HTNZX9Z8W6NH2YRBCQ is the session that hung; its last heartbeat was 11:04:52.",
        "Active sessions:\n  ID                                 USER      STARTED\n  99ade0126c8f9cc8e41592905f878187   mfernandes 2025-02-21 08:10",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "01JDMPJ2HTNZX9Z8W6NH2YRBCQ is the request that hung.",
        "4bf92f3577b34da6a3ce929d0e0e4736 is the session's trace id in Jaeger.",
        "In this example, 7c9e6679-7425-40de-944b-e07fc1f90ae7 is a session identifier.",
        "d41d8cd98f00b204e9800998ecf8427e is the session fixture's checksum",
        "Active sessions:\n  ID   USER      STARTED\n  3    mfernandes 2025-02-21 08:10",
        "Active jobs:\n  ID                                 USER\n  99ade0126c8f9cc8e41592905f878187   mfernandes",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 89: a server's session cookie "set to" a value, or its "old
/// value" after a rotation; the same words with no value.
#[test]
fn server_cookies_set_to_a_value() {
    for hit in [
        "tomcat-users login loop: JSESSIONID cookie set to 5689DEB8686E879FA638BF2A7BF12919 on /manager",
        "cookie \"laravel_session\" rotated; old value OW3Dre5EuCyKyZUWLZmlRsf4kHir6Kl50Jd2qxN7 still accepted for 120 minutes",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "JSESSIONID cookie set to HttpOnly and Secure on /manager",
        "laravel_session cookie old value was cleared on logout",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 92: an agent's resume command given as an argument list.
#[test]
fn resume_commands_as_argument_lists() {
    for hit in [
        "subprocess.run([\"codex\", \"resume\", \"1e5650cd-57d9-4b9c-9bf0-9eda78bae503\"], check=True)",
        "exec.Command(\"claude\", \"--resume\", \"4f0c2e1a-9b7d-4c3e-8a21-6d5f0b9e7c12\")",
        "[\"codex\", \"exec\", \"resume\", \"--json\", \"0c9a2b7e-1f3d-4e5a-9b6c-7d8e9f0a1b2c\"]",
        "spawn(\"claude\", [\"--print\", \"--resume\", \"4f0c2e1a-9b7d-4c3e-8a21-6d5f0b9e7c12\"])",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "subprocess.run([\"codex\", \"resume\", \"--last\"], check=True)",
        "subprocess.run([\"codex\", \"resume\", session_id], check=True)",
        "[\"claude\", \"--resume\", \"00000000-0000-0000-0000-000000000000\"]",
        "[\"codex\", \"resume\", \"123e4567-e89b-12d3-a456-426614174000\"]",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 93: a session in an identity provider's API route.
#[test]
fn sessions_in_api_routes() {
    assert!(fires(
        "okta: GET /api/v1/sessions/tiEYT1nJgP2vSf6w0JJLGCxag -> 404 Not Found (session already closed)",
        Rule::SessionId
    ));
    for clean in [
        "GET /api/v1/sessions/me -> 200",
        "DELETE /api/v1/sessions/{sessionId}",
        "GET /api/v2/sessions/currentUserSessionReport2",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 96: an express-session store's entry keyed by its id, a cookie
/// named in quotes after "session cookie", and a session getter's printed
/// result; a cookie's attribute after "session cookie" is none.
#[test]
fn session_stores_named_cookies_and_getters() {
    for hit in [
        "express-session store dump: {\"_O6Vqh7f4rcGJJBlvNUt6-oejbvFP74e\": {\"cookie\":{\"originalMaxAge\":86400000},\"userId\":61}}",
        "login OK -> session cookie `sid` = 038f2c2a2c1f5b1488c33ee707e51a03848bebee4a553ce1",
        "HttpSession.getId() → E7BF4C3E545182AFC117E9B0C881359D",
        "request.getSession().getId() returned 8F1A2B3C4D5E6F708192A3B4C5D6E7F8",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "session cookie `sid` = <redacted>",
        "the session cookie `connect.sid` is httpOnly and secure",
        "session.getId() is called before the response is committed",
        "lua_session id is stored in the cookie named session",
        "Set the session cookie name = myapp_session_cookie_name_v2 in config.",
        "{\"E7BF4C3E545182AFC117E9B0C881359D\": {\"cookie\": \"chocolate chip\"}}",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 98: a Proxmox ticket (its signature after `::`), in a cookie
/// or alone, plain or URL-encoded; its CSRF token and a ticket whose
/// signature is redacted are none.
#[test]
fn proxmox_tickets() {
    for hit in [
        "curl -b \"PVEAuthCookie=PVE:automation@pve:67D0A1B2::dohIGobdF3ESDNqRKGuRGvJxEN3fjfhEK/kMi33ZVkeG9D8K4dH8MQ150L3hm3Bh/A/UfzE1UaOZPcy0vt4gWOQ9mIuu60Il+8Dgzk1uKhDXOgjDfC4ExGFcFFGxixTShLqSq+vEdn6J51yY\" https://pve01.lab.gw:8006/api2/json/nodes",
        "\"ticket\": \"PBS:root@pam:65F2A1C0::Qm9vc3Rlcl9zaWduYXR1cmVfMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=\"",
        "Cookie: PVEAuthCookie=PVE%3Aroot%40pam%3A67D0A1B2%3A%3AdohIGobdF3ESDNqRKGuRGvJxEN3fjfhEK%2FkMi33ZVkeG9D8K4dH8MQ150L3hm3Bh",
        "vncticket: PVEVNC:67D0A1B2::dohIGobdF3ESDNqRKGuRGvJxEN3fjfhEK/kMi33ZVkeG9D8K4dH8MQ150L3hm3Bh",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "CSRFPreventionToken: 67D0A1B2:Yx9Lm2Zt7RwXv4Pn8Qs3Hd6Fs1Gj5Ky0Up",
        "PVEAuthCookie=PVE:root@pam:67D0A1B2::<redacted>",
        "PVE:root@pam is the default administrator on a fresh install",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 99: a Django session key printed after `session_key` on its
/// line; a hex digest there, prose about the key and another id on the
/// line before the word are none.
#[test]
fn django_keys_beside_session_key() {
    assert!(fires(
        "print(request.session.session_key)  # joexxeixcctr2xmxrrleoes99n75qjqg",
        Rule::SessionId
    ));
    for clean in [
        "print(request.session.session_key)  # 9f86d081884c7d659a2feaa0c55ad015",
        "session_key expires after 14 days; see docs",
        "INFO request_id=k2m9x7p4q8w1z5n3r6t0y2u4i8o1p3s5 session_key=<redacted>",
        "session_key missing; job k2m9x7p4q8w1z5n3r6t0y2u4i8o1p3s5 failed",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 100: a session cookie named in quotes, then its value after
/// "value"; words after it are no value.
#[test]
fn a_quoted_cookie_name_then_its_value() {
    let hit = "Flask: session cookie 'session' value MYd6L54DTtCfhq4u2rLn6Zbr.Y_CkYk.h0EMksSYc_cxDq88WfGw2XHhjw7 decodes to {'user_id': 7}";
    assert!(fires(hit, Rule::SessionId), "{hit}");
    for hit in [
        "the session cookie 'session' value is MYd6L54DTtCfhq4u2rLn6Zbr.Y_CkYk.h0EMksSYc_cxDq88WfGw2XHhjw7",
        "a session cookie `sid` with value MYd6L54DTtCfhq4u2rLn6Zbr.Y_CkYk.h0EMksSYc_cx",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "the session cookie 'session' value expired after an hour",
        "set the session cookie 'session' value to HttpOnly in config",
        "the session cookie 'session' value base64url-encoded, signed with SECRET_KEY",
        "the session cookie 'session' value HMAC-SHA256-signed and timestamped",
        "the session cookie 'session' value 2024-01-15T10:30:00Z",
        "the session cookie 'session' value Base64-encoded-JSON-blob",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 105: session-file-store's folder listed, its file named for
/// the session's id.
#[test]
fn a_listed_session_store_file() {
    let hit =
        "ls sessions/ showed oLZkTejuPkcGJhvM3o0Pt-n2ARV8bzE7.json with the stale passport user";
    assert!(fires(hit, Rule::SessionId), "{hit}");
    for clean in [
        "ls sessions/ showed login_flow_fixture_v2_backup.json and nothing else",
        "ls sessions/ showed README.json only",
        "sessions/ holds one file per session",
        "ls sessions/ showed OAuth2CallbackWithPKCEFlowV3.json",
        "ls sessions/ showed 2024-03-15T10-22-33Z-checkpoint.json",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}
