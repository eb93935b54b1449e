//! The session-id rule's tests.

use crate::screen::fires;
use crate::screen::rule::Rule;

#[test]
fn session_cookies_of_more_frameworks_and_labels() {
    for hit in [
        "Cookie: SAP_SESSIONID_QAS_200=Zq8LmR4wTx9Vb7Nc1Pd5Hs3Kf6Jy%3d; sap-usercontext=x",
        "Cookie: SESS0a1b2c3d4e5f60718293a4b5c6d7e8f9=Hq7vR2mLw9TzXk4Pb8Nc3Df6",
        "Cookie: JSESSIONID.9c2e41aa=node0x7f3k2m9q1w8e4r6t.node0",
        "Set-Cookie: frontend=k29dj3nd84hf7s6a1q0w5e2r9t; path=/",
        "express-session: no entry for sid Tq7-zW2mLx9Rk4Vb8Nc3Df6G, starting fresh",
        "opencode run --session ses_Hq7vR2mLw9TzXk4Pb8Nc3Df6 'continue'",
        "<SessionId>9f1c2e3a-4b5d-4e6f-8a7b-0c1d2e3f4a5b</SessionId>",
        "headers = [(\"x-session-id\", \"7c3e9a1f5b2d8e4c6a0f9b7e3d1c5a2e\")]",
        "De sessie-ID 0c1f2e3a4b5d6e7f8091a2b3c4d5e6f7 bleef geldig na het uitloggen.",
        "the session id was 6d9e3f1a5c7b2e8d4f0a9c1b3e5d7f2a4c6e8b0d in the dashboard",
        "cookies[:_shop_session] = \"Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0Ab\"",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Message SID SMd5f0ce74d2d076c7e580ef4ebd270eae was queued",
        "sms.sent sid=SMd5f0ce74d2d076c7e580ef4ebd270eae status=queued",
        "SID S-1-5-21-1004336348-1177238915-682003330-512 is Domain Admins",
        "session.save_path = \"tcp://cache-01:6379\"",
        "frontend=react backend=axum",
        "the frontend session timeout is 30 minutes",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

#[test]
fn sessions_need_a_label() {
    assert!(fires(
        "session 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
        Rule::SessionId
    ));
    assert!(fires(
        "Cookie: PHPSESSID=k3l9m2n8b7v6c5x4z1",
        Rule::SessionId
    ));
    assert!(!fires(
        "trace 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
        Rule::SessionId
    ));
    assert!(!fires("session_timeout=3600", Rule::SessionId));
    for hit in [
        "rollout-2025-06-02T10-11-12-0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55.jsonl",
        "session id 01JX3K7Q9M2V8R4T6W0Y5Z1B3C",
        "session: 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
        "Reproduced with session ULID 01HRG3BM2AVZ9NJKBRQDE8WB5Q; it expired",
        "the sessionid cookie was 2b3350109b5f2d6a4ebf9f5a98d8f6e4 before",
        "Session ULID: 8ZQ4X2M7N9P3R5T1V6W8Y0B2CD",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "commit 9f8e7d6c5b4a39281706f5e4d3c2b1a0 fixed it",
        Rule::SessionId
    ));
    for hit in [
        "shop.example.com\tFALSE\t/\tTRUE\t0\tPHPSESSID\tz6bk64gg6brv0iz2xrgesiw55t",
        "{\"name\": \"JSESSIONID\", \"value\": \"F9A715EE76194389988B9D0B8C712885\"}",
        "c := &http.Cookie{Name: \"session_id\", Value: \"af739f0d57fb1a518102ee924685cbaa\"}",
        "Cookie: ASPSESSIONIDQQTBRCAD=YCIYOAQFAYRVESSEIGKZQQOJ3",
        "redis-cli TTL sess:ppAYeRFNyAmrsloMFUwTVM4hLaw62bsh",
        "session_id('1ays5oyofdo7gjf9js8oun72as');",
        "0{\"sid\":\"RY5uh3SDQ75xWck7NGgJ\",\"upgrades\":[]}",
        "セッションID: 107ea711-ea3a-4329-acea-ae1ec876f037 のリクエスト",
        "Sitzung 5eda6b85-5b3f-45c4-ac49-78e8d56ecee0 wurde nicht wiederhergestellt",
        "ID de sesión: 01HZX3K5N8Q2R7T9V4W6Y8A0BC",
        "Sessão 01JHGP9VT85AQ6FQT5QYXK14YK encerrada; o agente perdeu o contexto.",
        "Sesja 01JB2XW0EQEX3JC4Q2NGRKXVJM (agent) wygasła w połowie zadania.",
        "Mi id de sesión es 87345d4227ff8bc8632d5ab73ecc2c46, por si sirve.",
        "Cookie: ASPSESSIONIDQQTBRCAD=YCIYOAQFAYRVESSEIGKZQQOJ",
        "self.client.cookies[\"sessionid\"] = \"kl4i15y1twsr05iz6sat0cnhrby9bgw9\"",
        "$_COOKIE['PHPSESSID'] = 'rdqmoef5js8gb9p7w7y7nmb7a5kkmujd';",
        "{\"session\": {\"id\": \"b6a719e7-39fb-4ce7-803c-b5cacb59311d\", \"user\": \"c.ortiz\"}}",
        "DEBUG django.contrib.sessions: loaded session key x5xkolwwkpdycbsfduvpfh9xel9t6i13",
        "Session started — id c8303571-a4b3-4f18-8ebb-319e3c84ee5e — model claude-sonnet",
        "cd ~/.claude/projects/-home-dev-app && less b9a2b3c3-259a-41c9-9531-180831da8877.jsonl",
        "session:\n  id: 6a17adc8-6ff6-4b26-9568-2b3409f2e079",
        "HttpSession created: id=72A660F317AE536A1C27D5757E264937",
        // A multi-byte character where a Twilio SID's hex would start.
        "session_id('aé7f3a9c2e51b8d04f6a1c9e3b7d2f5a0')",
        "db.sessions.find({ sessionId: UUID(\"51e5a194-064d-4829-87ce-13db433a02ed\") })",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "{\"sid\": \"AC0123456789abcdef0123456789abcdef\"}",
        "{\"name\": \"JSESSIONID\", \"value\": \"<redacted>\"}",
        "sess:lock acquired",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Labels in other shapes: a flag's dotted value, a cookie named
/// before a parenthesis, a label after the id, a `[sessions]` table,
/// a verb between label and id, a WebDriver path, a hyphenated
/// element, a Russian label.
#[test]
fn session_ids_labelled_in_other_shapes() {
    for hit in [
        "aws ssm terminate-session --session-id priya.n-37aaa3e3ac369054e",
        "Copied the sessionid cookie (abokvzg1c9014h52ylpx7it3voje486t) into Postman.",
        "kubectl logs deploy/gw | grep c1a51082-2622-4d98-9289-ab1ccf569d28  # session id from the report",
        "[sessions]\nlast = \"8fcd1243-a18f-4f7a-9bc3-8006214861e7\"\nauto_resume = true",
        "Die Session-ID war e1eb1c39704635a875312799e1de8f62; danach nicht mehr gültig.",
        "POST /session/4c9e43e1c4277543337250ec795d00e5/element HTTP/1.1 -> 404",
        "<session-id>4558A43107DDFD03F7883FAA51179714</session-id>",
        "ID сессии eb6ea53c-7147-4421-86d3-6083ba7a3fa6 встречается в логах.",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "[sessions]\nttl = 3600\nstore = \"redis\"",
        "grep c1a51082-2622-4d98-9289-ab1ccf569d28  # trace id from the report",
        "ID запроса eb6ea53c-7147-4421-86d3-6083ba7a3fa6 в логах.",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Names qualified by codes (SAP's `SAPSESSIONID_<code>_<client>`),
/// `…SESSID` in a cookie jar call, Symfony 1's cookie and a web app's
/// `sess-` key.
#[test]
fn qualified_names_jars_and_session_keys() {
    for hit in [
        "Cookie: SAPSESSIONID_Q7X_100=Kp2_vR8sLmQ4wZ9tYb3nHc6fJd1gXe5aUi0o%3d; sap-usercontext=sap-client=100",
        "$jar->set(new Cookie('TESTSESSID', '4f1c9e2ab7d03e6f58a1c2d9e0b7f3a4c6d8e1f2'));",
        "Cookie: symfony=k2m9x7q4w1e8r5t3y6u0i2o4p7; culture=en",
        "Leaked web session key: sess-Qm4T8xLp2Wz7Rk9Vb3Nc6Hd1Jf5Gs0Ya8Ue2Io4P",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Cookie: symfony=deleted; expires=Thu, 01 Jan 1970 00:00:00 GMT",
        "sess-cleanup-nightly runs at 02:00 from the cron-2024 job",
        "Set SAPSESSIONID_Q7X_100 to expire after 30 minutes.",
        "The symfony framework stores sessions in var/sessions.",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Cookies named `…_session`, given as a name and a value on lines of
/// their own, or sealed by iron (`Fe26.2**…`).
#[test]
fn more_cookie_pairs() {
    for hit in [
        "{\"cookies\":[{\"name\":\"_session\",\"value\":\"zMoh_HHlQMa87Jqnt9UlrBYQ50luUkXFAlFD\"}]}",
        "Name: sessionid\nValue: nlkb1mvs7ck8tbd5pd17j9ok8yyfe63n\nDomain: .example.org",
        "Cookie: sid=Fe26.2**6da6228e69bcf13cf7e3b94ac7ac9d03*XwCSMa24R_-F5plTM8cuPB",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// More labels and cookie names.
#[test]
fn more_labels_and_cookie_names() {
    for hit in [
        "Identyfikator sesji: 01KWTP8BD4WJZ6HX20TEH2TYQ7 — ten sam w dwóch przeglądarkach.",
        "Oturum kimliği (session id) 686a82bf61424d359b6dcd4f26db93ab proxy loglarında.",
        "{\"cookies\":[{\"name\":\"__Host-session\",\"value\":\"GmiMI4hiDAKHEaemJwCSoiWODEd05Vdt\"}]}",
        "CFID=5594752; CFTOKEN=8a98ba35325ea8c6-2BB2D359-99DA-4A2E-B7BB-A3808C5A0E70",
        "session_cookie = yMzQij3QcJCnROUL-_JiTB3AzsIoZBv-bsGqy56BJszwFxPd",
        "amp threads continue T-094f9bb6-a6bc-4677-9525-a66fbf1bd8f4",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// Labels after "which was" and German's "lautet", a site's prefix
/// before `sid`, more cookie names, element values with `!` or `^`,
/// and a cookie logged percent-encoded.
#[test]
fn more_labels_cookies_and_encodings() {
    for hit in [
        "Support asked for the session id, which was 8146aa82d578b7f6ff4a4817339fca18; logs agree.",
        "Die Session-ID lautet 53ae900d11007196e4a342c8792d5c5d; siehe Gateway-Log.",
        "Cookie: phpbb3_k2m9x_sid=7cc8884709c24a3bcf3365f652ab1bf2; phpbb3_k2m9x_u=1",
        "Cookie: bbsessionhash=60819ae46180762787ec7fbbfd5866ba; bblastvisit=1739800000",
        "<sessionId>00D5g000004PAzM!AQ4AQGOD2IBW4CrlYOtZamhX5vajqz1WFH26oofN61TLa</sessionId>",
        "hdr=Cookie%3A%20PHPSESSID%3Dfs00n541abftlj0uvf3t1luih7%3B%20lang%3Dde",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Cookie: phpbb3_k2m9x_sid=<redacted>; phpbb3_k2m9x_u=1",
        "The session id, which was rotated at login, is no longer logged.",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Ids of letters alone, `-sid` cookies and tmate's session tokens.
#[test]
fn letter_ids_sid_cookies_and_tmate() {
    for hit in [
        "document.cookie = 'sid=PjsZEbmKYDsRJhRaiXtHbgFv; path=/';",
        "set-cookie: __Host-sid=C3-KUWjJVhjleLjtzOaNzgvn7Jur3qHwQsIa8g4g5eq; Path=/",
        "ssh session: ssh X4vUrduYKTmRM2WaTySZgIeIP@lon1.tmate.io",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "document.cookie = 'sid=deleted; path=/';",
        "document.cookie = 'sid=PlaceholderSessionValueGoesHere';",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Ids named by a comment after them, labels with words before the
/// colon, PHP's and Django's lowercase ids, SAML session indexes and
/// Rancher's `R_SESS`.
#[test]
fn more_labelled_shapes() {
    for hit in [
        "sess, err := store.Get(ctx, \"a69f328f347271dc20ada556087e9daf\") // session id copied from the bug report",
        "Sitzungs-ID laut Browser: r00q1e21k4z08bs6dj0i21bg1lvgtdk2 – nicht in Redis.",
        "ID da sessão enviado pelo suporte: 98ed9cbb-2d77-49fb-bbea-dffeeb312818 (o carrinho sumiu).",
        "<saml:AuthnStatement SessionIndex=\"_e20cc6fea26f2229d3f9976ac64defc9fbb71833\">",
        "cookie R_SESS=token-a19cu:plg5l5o70txab76fp212dtshfdy96i6ma51fl1o4rjyufwqwlgafma survived",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "process=a69f328f347271dc20ada556087e9daf",
        "Sitzungs-ID laut Browser: nicht vorhanden.",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// "Session with id …", as Streamlit logs it.
#[test]
fn sessions_with_an_id() {
    assert!(fires(
        "Streamlit app log: Session with id 55e6cf5d-bb58-40e8-a480-546b94b1a0b3 is already connected!",
        Rule::SessionId
    ));
    assert!(!fires(
        "Session with id <redacted> is already connected!",
        Rule::SessionId
    ));
}

/// ZooKeeper's `0x` ids, ASP.NET's cookieless `(S(…))`, a Go cookie's
/// separate name and value, a Spanish "sesión con ID", an encoded `=`.
#[test]
fn hex_cookieless_and_encoded_sessions() {
    for hit in [
        "Session establishment complete on server zk-1/10.0.0.5:2181, session id = 0x3a9f2c71e0b4d865",
        "GET /shop/(S(k2m9x4q7w1e8r3t6y5u0i2o4))/cart.aspx 200",
        "http.Cookie{Name: \"session_token\", Value: \"Wq7Lm2Rx9Tz4Vb8Nc3Df6Gy1Js5Hk0Pz\"}",
        "La sesión con ID 01HV3K8M2Q9W4E7R1T6Y5U0I2P se cerró sola.",
        "cookie=JSESSIONID%3Dq8m2x7k4w9e1r3t6y5u0i2o4p7%3B%20lang%3Den",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "ZooKeeper session timeout = 0x0 means the default",
        Rule::SessionId
    ));
}

/// A logfmt `sess`, Laravel's session files, a session in a URL path,
/// a French label with ASP.NET's 24 characters, phpinfo's `=>`.
#[test]
fn logfmt_files_paths_and_arrows() {
    for hit in [
        "level=warn sess=01JRDC8PWRPKKMA35H4KA0T38C msg=\"reuse\"",
        "storage/framework/sessions/4xmhmDJIjhVN5pR3HHhrfoL3nLlUgj6t5LQbYGun was left behind",
        "https://grid.example.com/builds/1/sessions/77e958d9cbe436cf7cb91f33d7dbb1ca9129bce2",
        "L'identifiant de session 2t2k5pydi2z3siz1zyhsr2ic restait le même.",
        "Session ID => 4833ordd2urf7ru53iqg60n99l",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// oauth2-proxy's cookie and a Salesforce session id.
#[test]
fn proxy_cookies_and_salesforce_ids() {
    for hit in [
        "Set-Cookie: _oauth2_proxy=RQf_DDqnmIWbxpm66XbQrUg6daIyJAKiyMdalXy; Path=/",
        "sid from the debug log: 00DmUM9JbmJei2H!wvsECNOBFXKdGVnJHEXCrPvgCFbVu1oU1VNNpbShvrnn2CqkMXd1wT37rqozfVJ074oEGDQSVLRxH2Gjt9c45eNyZi5XFQkG",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// SAML's `SessionIndex`, a named session block, Portuguese "era", an id
/// in parentheses, ASP.NET's cookie by name, Django's cached sessions.
#[test]
fn saml_indexes_blocks_and_cached_sessions() {
    for hit in [
        "<samlp:SessionIndex>_8df4e0b39f70e84040c3098745ab30a22898e224</samlp:SessionIndex>",
        "test_session:\n  id: 16dd7c42-bae1-4c81-b215-0c84142c9edb",
        "O ID da sessão do agente era b8174f6c-beaa-4bc1-99cd-90c38034321f.",
        "an earlier agent session (id 700fa400-f5f9-4fb4-af6c-8725f67dee09) had bumped it",
        "the cookie (ASP.NET_SessionId lgdibpj1mvshjovqkxpmkl2g) went stale",
        "hot key :1:django.contrib.sessions.cache7a6bre5smcvqxc23r6ed8ruopjyl62ts",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// VPN and application cookies by name, base64url ids after "session
/// id", a Spanish id in parentheses; a setting after a session key and
/// the nil UUID are none.
#[test]
fn vpn_cookies_base64url_ids_and_nil_uuids() {
    for hit in [
        "openconnect --cookie='DSID=b1610440a6054b5a39057f083a546a09' https://vpn.example.org/",
        "Cookie: CAKEPHP=rrhdbwt8rocq16ksm1h2kstgqp; csrfToken=omitted",
        "express-session debug: session id: jzjLz67GF5B7KAWAYB5TepAU_IuMk7ZO not found",
        "El ID de sesión (b1e46019-ed79-4bd8-8ace-2d0b88c8e2b4) se pierde al volver.",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "stripe trigger checkout.session.completed --add checkout_session:metadata.order_id=5521",
        "Test fixture uses sessionId: \"00000000-0000-0000-0000-000000000000\"",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A `sid` stored by name, a cookie named `session` in a JSON jar.
#[test]
fn stored_sids_and_session_cookies() {
    for hit in [
        "sessionStorage.setItem('sid', '67b604c98403cb0588f48d51048e6d14');",
        "{\"cookies\":[{\"name\":\"session\",\"value\":\"3alhB_XuiaOLXLJ1XzKLpTcXFLyGhHTe_Ol7\"}]}",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
}

/// A session event logged with its id further along the line, and a
/// MongoDB session store's document id.
#[test]
fn logged_session_events_and_stored_sessions() {
    for hit in [
        "info: Session started; Key:5a725a0b-a666-47b0-9b49-eec5f607832e, Id:631c9c48-697f-4328-adde-d5421f16c1de",
        "INFO [LocalDistributor.newSession] - Session created by the Distributor. Id: 2d4ef59c0708cd9b340b0fb7ad4e4952",
        "mongosh \"$MONGO_URI\" --eval 'db.sessions.deleteOne({_id: \"oe9S3FGammx-FxbDMnySCkL6VlK2Ed9O\"})'",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Session created for request 42; trace id: 631c9c48-697f-4328-adde-d5421f16c1de",
        "mongosh --eval 'db.orders.deleteOne({_id: \"oe9S3FGammx-FxbDMnySCkL6VlK2Ed9O\"})'",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A session id in a Markdown table's cell, PHP's `session_id()`.
#[test]
fn table_cells_and_php_calls() {
    for hit in [
        "| session_id | 01J8X637JT02C6EP7M1WC8XJEE |\n| model | gpt-4.1 |",
        "PHP session id from phpinfo(): session_id() = 1bu4jlr8w8ztw5nqx20jodk07h",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "| session_id | (none) |\n| model | gpt-4.1 |",
        Rule::SessionId
    ));
}

/// Session ids under `sess id`, in a transcript file named for its
/// session, and in an SQL session table.
#[test]
fn short_labels_transcripts_and_sql_sessions() {
    for hit in [
        "PHP Warning: session_start(): Session data file is not created by your uid (sess id 5tk6fhmlb4bwmc7q2x9rj0dnae)",
        "The CI step saved the agent transcript as artifact claude-session-5f0e1028-324d-4822-b2ea-313b21a38918.jsonl.",
        "MariaDB [app]> SELECT * FROM sessions WHERE id='qiUS9w36s7pfJkMorN0yYYQag_YSJJEBqYz1qfVb';",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "SELECT * FROM sessions WHERE user_id=42;",
        Rule::SessionId
    ));
}

/// A session cookie's name, "is" and its value; an id after "session
/// id, it was"; an agent transcript's id; Django's session model and
/// table.
#[test]
fn sessions_in_sentences_models_and_inserts() {
    for hit in [
        "Logged in as the test user; the JSESSIONID is BC2C1DC52040DE34360433C74A33331E and it survives.",
        "Support asked for the session id, it was 01JYG3EMC9T5E8XX2YEPV4J8JE - they found it.",
        "== Agent transcript 8a78c175-81da-4178-8b6c-e2897ef7dbfd ==",
        ">>> Session.objects.get(pk='ekpe1ovuuaz524zdfz409lm2fsfswuvx').get_decoded()",
        "INSERT INTO django_session (session_key, session_data, expire_date) VALUES ('97ph8kadup53hl9ym9cvffh5kus5tqwn', 'e30', '2025-05-01');",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "the JSESSIONID is regenerated on every login",
        "Support asked for the session id, it was not in the report.",
        "INSERT INTO django_session (session_key, session_data) VALUES ('', 'e30');",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// ColdFusion's numeric token, a Phoenix cookie, an id whose label
/// names its format in brackets, and Laravel's session files listed.
#[test]
fn coldfusion_phoenix_formats_and_session_listings() {
    for hit in [
        "Set-Cookie: CFID=22018; CFTOKEN=58203917; path=/",
        "cookie _shopfront_key=SFMyNTY.g3QAAAABbQAAAAtfY3NyZl90b2tlbm0AAAAY.x9Qw2LmZr4TkV1bN8cYp3sDfGhJkLaA",
        "session token (UUID): 5b0c9d1e-2f3a-4b5c-8d7e-9f0a1b2c3d4e",
        "$ ls -1 storage/framework/sessions\nQm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z",
    ] {
        let hit = hit.replace("\\n", "\n");
        assert!(fires(&hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Set-Cookie: CFTOKEN=0; path=/",
        "the token starts with SFMyNTY, the base64 of HS256",
        "session id (ULID): see the incident ticket",
        "$ ls storage/framework/sessions\n.gitignore",
    ] {
        let clean = clean.replace("\\n", "\n");
        assert!(!fires(&clean, Rule::SessionId), "{clean}");
    }
}

/// A servlet container's log of a session, a label that says what shape
/// the id has, a session table's row, and its column in a query's
/// output.
#[test]
fn logged_sessions_tables_and_columns() {
    for hit in [
        "INFO StandardManager - HttpSession id=7C0F2B9D4E1A3C5B8D6F0A2C4E6B8D0F expired",
        "Session 32-hex seen in the logs: 4e8a1c0f7b3d9e2a6c5f1b8d0e7a3c9f",
        "sqlite3 app.db \"delete from web_sessions where id='01HQ8ZK3M7TPXW4N2V6B9CRD5E'\"",
        " session_key                      | expire_date\n----------------------------------+-------------\n p0q9w8e7r6t5y4u3i2o1a9s8d7f6g5h4 | 2025-01-09",
        "| id | session_key |\n|---|---|\n| 4 | k2j4h6g8f0d1s3a5q7w9e2r4t6y8u0i1 |",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        " session_key | expire_date\n-------------+------------\n (0 rows)",
        "| session | status |\n|---|---|\n| morning | done |",
        "HttpSession id=null invalidated",
        "DELETE FROM training_sessions WHERE id='3f2a9c1e-8b7d-4a5f-9e3d-2c1b0a9f8e7d';",
        "| session_id | page_views |\n|---|---|\n| 1716203945 | 12 |",
        "| session_id | title |\n|---|---|\n| PYCON24-T042 | Async Rust |",
        "| session_key | description |\n|---|---|\n| ui.theme.v2 | Theme |",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A session named by a relative clause, by a comment after it that
/// qualifies it, by OpenID Connect's `session_state`, by a transcript
/// path's key or a listing of an agent's projects, a sealed cookie, a
/// session store's file, a Chinese label with 是.
#[test]
fn clauses_comments_listings_and_sealed_cookies() {
    for hit in [
        "The session which ran the broken deploy was 2c9e7a41-5b3d-4f8e-a6c0-9d1b2e3f4a5c (started 09:40).",
        "zgrep 9d4c2b7e1f0a3d6c8b5e2f1a0c9d7e3b /var/log/app/access.log.gz  # PHPSESSID of the reporter",
        "callback?session_state=0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e&code=ok",
        "transcript_path: /srv/agents/projects/-srv-api/7e6d5c4b-3a29-4817-9e6f-5d4c3b2a1908.jsonl",
        "$ ls .claude/projects/-srv-api/\n4a3b2c1d-0e9f-4a8b-9c7d-6e5f4a3b2c1d.jsonl",
        "cookie sid=Fe26.2**0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9*Qw8Er7Ty6Ui5Op4As3Df2G*x",
        "cache/session-store/01J9ZK3W5P7R2M4T6V8X0Y2B4C.session",
        "会话ID是 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e ，已失效。",
        "LARAVEL_SESSION cookie value: eyA9xK2mQ7vL4pR8tN3wZ6cB1dF5gH0jS",
    ] {
        let hit = hit.replace("\\n", "\n");
        assert!(fires(&hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "The session which we planned for Friday was moved to Monday.",
        "grep 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e build.log  # the commit under test",
        "callback?session_state=&code=ok",
        "Trace-Id: 0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0  (no session involved)",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// CouchDB's and Spring's session cookies named in prose, a session
/// token after its name, a devtools cookie row, a transcript saved as
/// `session-<uuid>.json`.
#[test]
fn named_cookies_rows_and_saved_transcripts() {
    for hit in [
        "the server answered with AuthSession cookie a3bQ9zK2mT7xL4pR8wN5cV1d — kept for the job",
        "Spring Session: SESSION cookie value 2f0e1d3c-4b5a-4697-8877-a6b5c4d3e2f1 not found",
        "server returned sessionToken \"Rk4vQ9mZt2LxW7bNc5HyJd3Fg8Ps6Ua1\" which we stored",
        "Cookies:\n  name: _shop_session   value: 3e9a7c5b1d2f4e6a8c0b9d7f5e3a1c2b",
        "agent transcript saved as session-1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e.json",
    ] {
        let hit = hit.replace("\\n", "\n");
        assert!(fires(&hit, Rule::SessionId), "{hit}");
    }
    assert!(!fires(
        "the session cookie value is regenerated on login",
        Rule::SessionId
    ));
}

/// Flask-Session's files, memcached's `session_<hex>` keys, a pasted
/// table with no rule under its header, "the session ID in the log
/// was …".
#[test]
fn session_files_store_keys_and_unruled_tables() {
    for hit in [
        "ls flask_session/9c1f2e3a4b5d6e7f8091a2b3c4d5e6f7",
        "flask_session/9c1f2e3a4b5d6e7f8091a2b3c4d5e6f7 is 2 KB",
        "get session_4be0f6a1c9d2e7b3a8f5c1d6e9b2a7f4 -> 512 bytes",
        "| session_id | user |\n| 7e3a9c1f5b2d8e4c6a0f9b7e3d1c5a2e | 12 |",
        "the session ID in the trace was 5c2e8a1f9b3d7e4c6a0f2b8e3d1c7a9f yesterday",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "flask_session/ holds one file per session",
        "session_timeout_seconds = 3600",
        "| session_id | user |\n| (none) | 12 |",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Session 41's tuning on held-out 47: an object's printed form, a
/// 128-bit id written `0x…`, WordPress's session token verifiers.
#[test]
fn printed_sessions_hex_literals_and_wordpress_tokens() {
    for hit in [
        "ActiveSession{id=67094aa0-d6c6-4f22-a1b2-acd1872f4359, user=svc-reports}",
        "ChatSession(sessionId=3f7a9c2e5b1d8e4f6a0c9b7d3e1f5a2c, turns=4)",
        "[worker-3] resumed session 0x7a16f839e122bd259f5bcaf985f4bd49",
        "wp eval 'WP_Session_Tokens::get_instance(7)->destroy(\"e1b389757312fa77ab719d059da204081571b20586992df369fb5a2237a104fe\");'",
        "Session{id=67094aa0-d6c6-4f22-a1b2-acd1872f4359}",
        "UserSession(user=svc-reports, id=67094aa0-d6c6-4f22-a1b2-acd1872f4359)",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "ActiveSession{id=null, user=svc-reports}",
        "wp eval 'WP_Session_Tokens::get_instance(7)->destroy_all();'",
        "resumed session 0x1f after the failover",
        "ChargingSession{id=67094aa0-d6c6-4f22-a1b2-acd1872f4359, connector=2}",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// An id after its label and an arrow, a label saying whom the id is
/// for, and upterm's SSH address, which carries the session and its
/// token.
#[test]
fn arrows_recipients_and_upterm() {
    for hit in [
        "claude -p 'run the tests' --output-format json | jq -r .session_id  -> 77a81e31-ba4e-4607-a3eb-f581c0e52892",
        "Printed session id for support: 01J6NVF2GJHTJ9EGS8QA0VS124 -- customer can't log in",
        "upterm session attach: ssh 1u9poEWHA6bHi2Qij88M:guv7SpTmelhXH2CUKAhQGaPxCRFd4X@uptermd.upterm.dev",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "session_id -> <redacted>",
        "upterm host -- bash, then share the ssh command printed by upterm session current",
        "ssh-keygen -t ed25519 for uptermd.upterm.dev",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// From a review: a session for a user, a trace or a tenant names
/// another thing's id; the label's recipient may take words; arrows of
/// two dashes; upterm's address after SSH options, not a placeholder.
#[test]
fn recipients_arrows_and_upterm_options() {
    for hit in [
        "Printed session id for the support team: 01J6NVF2GJHTJ9EGS8QA0VS124",
        "session id for ticket 4411: 3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c3f",
        "session_id --> 3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c3f",
        "Join my upterm: ssh -p 22 jTMuQfnFRDbB6yqvJ1Fp:MTAuMC4xLjE1OjIyMjI=@uptermd.upterm.dev",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Opened a session for user 3fa85f64-5717-4562-b3fc-2c963f66afa6 to reproduce the bug.",
        "We replayed the session from trace 4bf92f3577b34da6a3ce929d0e0e4736 in Jaeger.",
        "session for tenant 7c9e6679-7425-40de-944b-e07fc1f90ae7 was throttled",
        "ssh SESSIONIDGOESHERE@uptermd.upterm.dev",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A framework's mixed-case id before a comment naming it, what a lookup
/// by the cookie's name returned, and R's `session$token`.
#[test]
fn framework_ids_lookups_and_r_members() {
    for hit in [
        "tail -f storage/logs/laravel.log | grep 5LXhZ4RcV0EvcOtxrq9VCUNBN9XpuB9YmTh8ibWX  # the session id from the bug report",
        "go: sessions.Get(r, \"sid\") returned 1LgjUtlcosccLASn3kJ8u5nZ8BprZP0nRpwZ6kmXeax from the gorilla cookie store",
        "shiny app: session$token = 22b4687b2497e3f55bd72a5731e08086",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "grep ThisIsAVeryLongIdentifierNameForTestingXY  # the session id lookup",
        "sessions.Get(r, \"sid\") returned nil",
        "echo $session$tokenizer = 3",
        "grep 5LXhZ4RcV0EvcOtxrq9VCUNBN9XpuB9YmTh8ibWX  # no session involved",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// From a review: long identifiers, alphabets and content ids before a
/// comment about sessions are no ids; R's arrow assigns one.
#[test]
fn review_of_ids_before_labels() {
    assert!(fires(
        "session$token <- 'b7e1f0c2a9d84e63b5a1c7d9e2f40a68'",
        Rule::SessionId
    ));
    for clean in [
        "import org.springframework.security.saml2.provider.service.web.Saml2WebSsoAuthenticationRequestFilter; // session",
        "public void handleUserSession2FactorAuthCallbackV3() { // session handler",
        "const nanoid = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 32) // session ids",
        "DEFAULT_ALPHABET = \"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789\"  # session tokens",
        "ipfs cat QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG # session notes",
        "Migration 20240611093012CreateSessionsTableV2 # session table",
        "sessions.Get(r, \"session\") returned ErrSessionNotFoundInStore2",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

#[test]
fn a_session_guid_in_braces() {
    for hit in [
        "RDP broker: the gateway logged session_guid={60B85D86-6C00-4C47-87D9-31789131C0CE} for the dropped connection",
        "session_uuid=3f1c2e3a-4b5d-4e6f-8a7b-0c1d2e3f4a5b",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "session_guid={00000000-0000-0000-0000-000000000000}",
        "session_guid={guid}",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

#[test]
fn braces_hold_a_guid_not_an_interpolation() {
    for clean in [
        "logger.info(f\"starting job session_uuid={uuid.uuid4()}\")",
        "url = f\"/api?session_key={settings.SESSION_KEY}\"",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Sails's `sails.sid` cookie, a store's log of the session it saved, the
/// id of a row inserted into a sessions table and PHP's `var_dump` of
/// `session_id()`.
#[test]
fn framework_cookies_store_logs_and_session_rows() {
    for hit in [
        "sails.sid=s%3AgoTCjjdCm0IijBZt7pvE1_NmbkUiSzyI.tWhlPm77bBNqPbFko6UGgD4pQ+dt+iO+JOB2/3BDdpk",
        "2025-06-03T10:14:02.118Z debug express-session saved session 7KJKKBvsaBw7aNx9-cW1sHHhJ9JhbjE1 to store",
        "INSERT INTO web_sessions (id, user_id, expires) VALUES ('01J42KK7FNS81ZZ4ZTQT0PC2Z5', 118, now());",
        "php > var_dump(session_id());\nstring(26) \"sw4myfkoopoly2ap0wpxc6k8cx\"",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "saved session configuration to store",
        "destroyed session store connection pool after 30s idle",
        "INSERT INTO session_events (id, kind) VALUES ('01J42KK7FNS81ZZ4ZTQT0PC2Z5', 'login');",
        "INSERT INTO sessions (id, user_id) VALUES ('local-dev', 1);",
        "php > var_dump(session_id());\nstring(0) \"\"",
        "twilio.sid=AC0123456789abcdef0123456789abcdef",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A review's false alarms: database SIDs, readable session names, rows of
/// tables of talks and runs, a counting id; and its near misses.
#[test]
fn review_forty_five_session_shapes() {
    for hit in [
        "Session 0PW-mqpZ-8xdC2IlHK_08fnqDsIEMuOi destroyed",
        "session saved: 0PW-mqpZ-8xdC2IlHK_08fnqDsIEMuOi",
        "var_dump(session_name(), session_id());\nstring(9) \"PHPSESSID\"\nstring(26) \"ur5bxnywm9g33k044qzg09nq5s\"",
        "echo session_id();\nur5bxnywm9g33k044qzg09nq5s",
        "localhost\tFALSE\t/\tFALSE\t0\tsails.sid\ts%3A8Par64QyRacg1_I3Wf6vMjw2d50Bdinj.LWqYcZfGA6JEMGGL8DFWTDtpWugjSKuW4Q7NXVy78Pw",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "db.sid=ORCLCDB2019",
        "jdbc.sid=FINPROD01",
        "Restored session Kubernetes-Workshop-Day2-Afternoon",
        "saved session 2024-03-01_14-22-05_meeting_notes",
        "created session abcdefghijklmnopqrstuvwxyz0123456789",
        "Checkout Session cs_test_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ expired before the customer paid.",
        "INSERT INTO training_sessions (id, athlete) VALUES ('run-2024-03-01-morning-5k', 'bob');",
        "INSERT INTO study_sessions (id, course) VALUES ('CS101-LEC-2024S-001', 'CS101')",
        "var_dump(session_id());\nstring(26) \"0123456789abcdefghijklmnop\"",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// ASP.NET's letters-only id, Tomcat manager's listing, a French label.
#[test]
fn aspnet_letters_tomcat_listings_and_french_labels() {
    for hit in [
        "Cookie header from HAR: ASP.NET_SessionId=wyscuhninlwlfphvwzishbft; .AspNetCore.Antiforgery.x=CfDJ8",
        "Tomcat manager: sessions for /portal -> 48C484FCBEC55FCFEFDFA71B0CD0EBB0 (idle 14m)",
        "Session-ID du client: 75d6bac4-45d2-4dbf-b4cd-6669a5b0b9d8 (à retirer du ticket)",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "ASP.NET_SessionId=thisisnotarealsessionkey",
        "sessions for /portal -> 3 active, 0 expired",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Random letters alone may hold a third of vowels and more, seldom
/// 35%.
#[test]
fn aspnet_letters_with_a_vowel_or_two_more() {
    assert!(fires(
        "ASP.NET_SessionId=drhcocrwkikwnropqiurneln",
        Rule::SessionId
    ));
}

/// An agent's `ses_…` id, Google's session cookies where cookies are
/// spoken of, a label with an aside, a sessions space's lookup, and 32 hex
/// digits after a clause naming a session id.
#[test]
fn agent_ids_google_cookies_and_labels_with_asides() {
    for hit in [
        "ses_HZSRHY6YS5QRPR2WD9RPQ5B (opencode session) was resumed twice by mistake",
        "SSID: q33OnHQsfngy2EPlPH9a007B2gRA_g9c (Google session cookie copied from devtools)",
        "cookie header had __Secure-1PSID=g.a000kQh7Xq2Lm9Vb3Nz8Rt5Yp1Wc4Fd6Gs0Hj2Kl",
        "Session ID (support): hq4WUKXQPZ0gr0M0MWmb1A7",
        "tarantool> box.space.sessions:get{'ef43b098ab9972e4d4dd78ccd40760dd'}",
        "Support asked for the session id, so I sent them: d9a20738c37b934c3e6c231c87075e64",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "Join the Wi-Fi network SSID: OfficeGuestNetwork2024a with the printed code",
        "aws ses send-email --configuration-set ses_configuration_set_main",
        "export SES_SMTP_PASSWORD_SECRET_NAME=prod/ses/smtp",
        "Session ID (support): see the ticket",
        "box.space.sessions:get{user_id}",
        "cookie SID: ${GOOGLE_SID_COOKIE_VALUE}",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// A session manager's listing in other cases and arrows, labels in other
/// languages with base64url ids, ASP.NET ids that walk the keyboard; and
/// the filler, counts and constants that are no ids.
#[test]
fn listings_labels_abroad_and_keyboard_walks() {
    for hit in [
        "Sessions: 9f2c4a7e1b3d5f6a8c0e2b4d6f8a1c3e",
        "SESSIONS → 9F2C4A7E1B3D5F6A8C0E2B4D6F8A1C3E",
        "active sessions:\n  7a1c9e3f5b2d4c6e8a0f1b3d5c7e9a2b",
        "Session-ID der Anfrage: Zk3pQ9xLm2Vb7Nw4Rt8Yc1Hd",
        "Session ID du client : 9f2c4a7e1b3d5f6a8c0e2b4d6f8a1c3e",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "sessions for /app -> D41D8CD98F00B204E9800998ECF8427E",
        "sessions -> DEADBEEFDEADBEEFDEADBEEFDEADBEEF",
        "sessions -> 0123456789ABCDEF0123456789ABCDEF",
        "sessions -> FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
        "Merged 3 sessions: 5e2a9c1f7b3d8e4a6c0f2b9d1e7a3c5f is the commit",
        "Session-ID der Anfrage: wird_im_Header_mitgesendet",
        "ASP.NET_SessionId=qwertyuiopzxcvbnmlkjhgfd",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// ASP.NET's sign-in cookies, a Claude transcript's path without its config
/// directory, and a session cookie's failed lookup; names of classes in
/// camel case after a session label are no id.
#[test]
fn sign_in_cookies_project_paths_and_failed_lookups() {
    for hit in [
        "Forms auth ticket: .ASPXAUTH=650010C5EADFBD1CC5126F05C44B9580D81671E08BE6CB04044D9F0999DF16B3222DCB4ECEACBC3DE761154C5CF0167C7CF894613DC305DF1149C9BCAB9598C1BC348D753D195B2927C7E9FB0D12137B",
        "Cookie: .AspNetCore.Cookies=CfDJ8Mx2kQ9vLw4Rt7Yb3Nc6Pd1Hs5Fj8Gk2Zq0Xa4Vb",
        "its transcript is projects/-var-www-shop/db6c13a6-d887-49c6-bc23-96d13e45d8d3.jsonl under the claude config dir",
        "cart = store[request.cookies[\"sid\"]]\nKeyError: '1b55d867f277bf227af1d9e07dd95789'",
        "_logger.LogWarning(\"Session {SessionId} expired\", \"70e8eb480e5001bd938a8a5d881c24f6\");",
        "Session data for qeyuh71nspbofj9wgrnq4gux83 (sess file): user_id|i:42;",
        "Cookie: .AspNetCore.CookiesC1=\"CfDJ8Mx2kQ9vLw4Rt7Yb3Nc6Pd1Hs5Fj8Gk2Zq0Xa4Vb\"",
        "sid = request.cookies.get(\"sid\")\nuser = SESSIONS[sid]\nKeyError: '6rm8KGdUq2Lw9Xz4Rt7Yb3Nc'",
        "Claude Code transcript: projects\\C--Users-bob-app\\face830e-1b2c-4d5e-8f90-a1b2c3d4e5f6.jsonl",
        "Claude Code: projects/-home-alice-repo/c6da999b-1b2c-4d5e-8f90-a1b2c3d4e5f6/subagents/agent-8cb58357.jsonl",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "not a user session: sqlalchemy.orm.exc.DetachedInstanceError: Instance is not bound",
        "Forms auth ticket: .ASPXAUTH=<redacted>",
        "projects/-var-www-shop/db6c13a6-d887-49c6-bc23-96d13e45d8d3.jsonl in the backup bucket",
        "cart = store[request.cookies[\"sid\"]]\nKeyError: 'missing_session_cookie_value'",
        "_logger.LogWarning(\"Session {SessionId} expired\", sessionId);",
        "Session data for the checkout (sess file) is kept in Redis.",
        "session: Http2ServerSession",
        "session: requests_oauthlib.OAuth2Session",
        "session: MyApp.Models.UserSession",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 55: session-file-store's file, and a log named for its
/// session's ULID or UUID.
#[test]
fn session_files_named_for_their_ids() {
    for hit in [
        "sessions/EZ1maHR1cEBsBlJWcw2LTfgVgAPYCBGJ.json written by session-file-store",
        "session-01JPCH564AEGDCT4K1F561DQDD.log",
        "tail -f logs/session-0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55.log",
        "session-01jpch564aegdct4k1f561dqdd.log",
        "session-0198A6C2-7E1B-7C3D-9F00-2B4D8E6A1C55.log",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "sessions/README.json describes the store's layout",
        "session-timeout.log rotated at midnight",
        "session-replay-settings.json",
        "sessions/test_fixture_login_flow_v2.json",
        "ls sessions/chrome_profile_backup_2024_05.json",
        "sessions/2024_05_01_standup_notes.json",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 57: `codex resume` with flags before the id, Claude Code's
/// "Resuming conversation …", a session cookie in PHP's `var_dump`.
#[test]
fn resumes_with_flags_and_dumped_cookies() {
    for hit in [
        "codex resume --model o3 58c0cdb7-a8f7-4405-b01f-8a0c0ede88c9",
        "Claude Code resumed: \"Resuming conversation 6fa5c6dc-3657-4f8e-a627-574fb7c16912 — 48 messages\"",
        "array(2) { [\"PHPSESSID\"]=> string(26) \"vnvaawnsx7htkxckxc56rt856x\" [\"tz\"]=> string(13) \"Europe/Vienna\" }",
        "Array ( [PHPSESSID] => 9k2m4q7r1t5v8x0z3b6d9f2h4j )",
        "Resuming conversation a9627e34-2020-4109-8341-a87d2dc5fbe6",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "codex resume --last",
        "Resuming conversation after the outage; no data was lost.",
        "array(1) { [\"PHPSESSID\"]=> NULL }",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 62: a `sid` cookie given with `=`, Laravel's bracketed id, a
/// chat's "sess id", an express-session signed cookie.
#[test]
fn sid_cookies_bracketed_ids_and_signed_cookies() {
    for hit in [
        "Auth middleware debug: sid cookie=ncNNiXqGwOSb1eWKYJivo4TnFF8eDrOE user=42",
        "local.DEBUG: Session [9aeZ1dpPb80nIPKdFFzwfq0rjnnZiRczJJu0VgxP] regenerated for user 118",
        "14:03 mia: sess id is 349260552359134d18309f597c7d829e, still in redis",
        "connect.sid=s%3AfkYX3qypZhLc4ZVIGOA9MbUAVqSdMEUd.fZVqSQVkTabNvg0QdTqG0t9tdC6bPHBjDF5l8I1VtXw",
        "s:fkYX3qypZhLc4ZVIGOA9MbUAVqSdMEUd.fZVqSQVk-TabNvg_QdTqG0t9tdC6bPHBjDF5_l8I1Vt is the express-session cookie",
        "sid cookie = vQ2hT9kLm4Rx8Zp3Wc7Nd1Fs",
        "Session[Hk3mQ9zTr5Lw2Xp8Vn4Jc7Bd1Fs6Gy0Qe3Ra] not found",
        "the sess id is now Pw7Kd2Lx9Qm4Tz8Rv3Nc6Hb",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "sid cookie=<redacted> in the session log",
        "Session [main] started for user 118",
        "Session [default-worker-pool-queue-name-01] regenerated",
        "express-session signs its cookie as s:<id>.<signature>",
        "sess id is unknown, the session expired",
        "sid cookie=012345678901234567890123",
        "connect.sid=s:SessionIdentifierValueGoesHere.SignatureComputedWithTheSecretKeyGoesHere1",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 63: a `session_ulid` key, VS Code's chat session files.
#[test]
fn session_ulids_and_chat_session_files() {
    for hit in [
        "\"session_ulid\": \"01J3640GPV6HDDE4FMHDS4EMJ4\",",
        "workspaceStorage/45ddff529adf372c46519f166306844f/chatSessions/2be7ed42-ba0d-482b-acf7-ab6e721ec09f.json",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "\"session_ulid\": \"<ulid>\",",
        "chatSessions/<uuid>.json holds one chat each",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 64: a session numbered (Oracle APEX), a Spanish label with
/// words between it and its verb, engine.io's handshake `sid` without a
/// digit; a time or a date after "session" is no id.
#[test]
fn numbered_sessions_and_handshake_sids() {
    for hit in [
        "APEX session 7542981958651226 keeps getting invalidated after the proxy change",
        "el id de sesión que me dio el soporte es d4794a956a61a1d9160eab6e46011e27",
        "0{\"sid\":\"cvwvEdhgtudZJyGtpqXd\",\"upgrades\":[\"websocket\"],\"pingInterval\":25000}",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "session 1733412345678 started",
        "Session 20241205123045 opened",
        "session 1234567890123 is a sample",
        "{\"sid\":\"SessionIdentifier\"}",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}

/// Held-out 65: SAP's logon ticket, a ULID after "sessions show", a
/// 64-hex session token, both ids of a regenerated session, an APEX
/// URL's session field, a `[session] id=` log field, Mojolicious's cookie.
#[test]
fn tickets_regenerated_ids_and_apex_urls() {
    for hit in [
        "MYSAPSSO2=rYdTSZsLsRdqJFN//UUgsG2+9ml5LOi5YKFg3PnweNchSCbPVdhCr7AXzSFZr8ru90Nonpj6",
        "agentctl sessions show 01M1PY88E6F311STDSKNNKWWWB",
        "session token f56a6495a2c5953438db55193497875ff30f84d6e943ecb537b2a0fe369b7875 was revoked",
        "local.INFO: Session regenerated old=eloSCbggTC35Jo1g33xXbxYDsmPuDPrAnWRvQFuC new=x",
        "local.INFO: Session regenerated old=x new=F1G3ofDtM6TfMrcbVEbyt76rWxAPuircybV3X4Te",
        "Oracle APEX URL f?p=100:1:7271394778022651::::",
        "gunicorn[412]: [session] id=b494f657cd028699d2b6e9f1b41bb035 user=42",
        "mojolicious=uYNhEOULisxlx3Ioz42ENCd8pQcMeDpb1p_xLlG9B--fe1fb0da7641c1a171f1244763e7",
        "El id de sesión del usuario afectado en el informe es 07851efe29f00a286748b65249c8d821",
    ] {
        assert!(fires(hit, Rule::SessionId), "{hit}");
    }
    for clean in [
        "f?p=100:1:0:::: opens the app's public page",
        "Session regenerated old=<redacted> new=<redacted>",
        "MYSAPSSO2=<ticket>",
    ] {
        assert!(!fires(clean, Rule::SessionId), "{clean}");
    }
}
