//! `praxis credentials …` over HTTP on each store, run as real processes:
//! issue (token printed once, or written to a private file), list, show,
//! rotate, revoke; a rotated-away or revoked token refused with 401 and
//! exit 1 at once; usage errors exit 2.

use std::os::unix::fs::PermissionsExt as _;

use praxis_testkit::{BACKENDS, Backend};
use serde_json::json;

use crate::desk::{Desk, scoped};
use crate::support::describe;

fn lifecycle(backend: Backend) {
    let d = Desk::start(backend);
    let grant = json!({
        "project_id": "p", "mission_id": null, "agent_id": "a", "visibility": "shared"
    })
    .to_string();

    // Issued with the token printed once (text), then as JSON with a file.
    let text = d.ok(
        "admin",
        &[
            "credentials",
            "issue",
            "--subject",
            "carol",
            "--capability",
            "experience_read",
            "--grant",
            &grant,
            "--expires-at",
            "2099-01-01T00:00:00Z",
        ],
    );
    let printed = text
        .lines()
        .find(|l| l.starts_with("prx_"))
        .unwrap_or_else(|| panic!("no token printed:\n{text}"));
    assert!(text.contains("token (shown once"), "{text}");
    let dave_id = d.issue("dave", &["experience_read"]);
    std::fs::write(d.work.join("carol"), format!("{printed}\n")).unwrap();
    std::fs::set_permissions(d.work.join("carol"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let search = scoped(&["records", "search"], &[]);
    d.ok("carol", &search);
    d.ok("dave", &search);

    // Listed and shown; the secret never.
    let page = d.json("admin", &["credentials", "list"]);
    let subjects: Vec<&str> = page["credentials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects.len(), 3, "{page}");
    assert!(
        subjects.contains(&"carol") && subjects.contains(&"dave"),
        "{page}"
    );
    assert!(!page.to_string().contains("prx_"), "{page}");
    let shown = d.json("admin", &["credentials", "show", &dave_id]);
    assert_eq!(shown["credential"]["subject"], "dave", "{shown}");
    assert_eq!(shown["credential"]["status"], "active", "{shown}");
    let text = d.ok("admin", &["credentials", "show", &dave_id]);
    assert!(
        text.starts_with(&format!("{dave_id}\tdave\tactive\texperience_read")),
        "{text}"
    );

    // Rotation: a new private token file; the old token fails at once.
    std::fs::copy(d.work.join("dave"), d.work.join("dave-old")).unwrap();
    let rotated = d.json(
        "admin",
        &["credentials", "rotate", &dave_id, "--token-out", "dave"],
    );
    assert_eq!(rotated["credential"]["id"], dave_id.as_str(), "{rotated}");
    assert!(rotated.get("token").is_none(), "{rotated}");
    let mode = std::fs::metadata(d.work.join("dave"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    d.ok("dave", &search);
    d.refused("dave-old", &search, 401, "invalid_credential");

    // Revocation: 401 and exit 1 for its holder at once.
    let revoked = d.json("admin", &["credentials", "revoke", &dave_id]);
    assert_eq!(revoked["credential"]["status"], "revoked", "{revoked}");
    assert!(revoked["credential"]["revoked_at"].is_string(), "{revoked}");
    let stderr = d.refused("dave", &search, 401, "credential_revoked");
    assert!(
        !stderr.contains("prx_"),
        "the token is never echoed: {stderr}"
    );
    d.refused(
        "dave",
        &["credentials", "capabilities"],
        401,
        "credential_revoked",
    );

    // Capabilities: every one, and which the caller holds.
    let caps = d.json("carol", &["credentials", "capabilities"]);
    let held: Vec<&str> = caps["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["held"] == true)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(held, ["experience_read"], "{caps}");

    // Without credential_admin: 403. An unknown id: 404.
    d.refused("carol", &["credentials", "list"], 403, "missing_capability");
    d.refused(
        "admin",
        &["credentials", "show", "nobody"],
        404,
        "not_found",
    );

    // Usage errors exit 2: no capability, no expiry choice, a bad grant,
    // no token at all.
    for args in [
        vec!["credentials", "issue", "--subject", "e", "--no-expiry"],
        vec![
            "credentials",
            "issue",
            "--subject",
            "e",
            "--capability",
            "memory_read",
        ],
        vec![
            "credentials",
            "issue",
            "--subject",
            "e",
            "--capability",
            "memory_read",
            "--no-expiry",
            "--grant",
            "{",
        ],
    ] {
        let out = d.run("admin", &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", describe(&out));
    }
    let out = d
        .cmd("admin", &["credentials", "list"])
        .env_remove("PRAXIS_TOKEN_FILE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    // A refused token file (others may read it) fails: exit 1.
    std::fs::set_permissions(d.work.join("carol"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = d.run("carol", &search);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
}

#[test]
fn the_credential_lifecycle_from_the_cli_on_sqlite() {
    lifecycle(BACKENDS[0]);
}

#[test]
fn the_credential_lifecycle_from_the_cli_on_postgres() {
    lifecycle(BACKENDS[1]);
}
