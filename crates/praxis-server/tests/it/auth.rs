//! The authorization matrix: 401 for unusable credentials, 403 for missing
//! capabilities, 404 across tenants — checked again on every request.

use praxis_api::{CONTRACT_VERSION, IssueCredentialRequest};
use praxis_domain::auth::Capability;
use praxis_testkit::BACKENDS;
use reqwest::Method;

use crate::support::{Server, client_as, issue_request, problem, raw};

#[tokio::test]
async fn requests_without_a_usable_token_are_401() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let url = format!("{}/api/v1/credentials", server.base);
    let cases: [(Option<&str>, &str); 4] = [
        (None, "unauthenticated"),
        (Some("not-a-token"), "invalid_credential"),
        (Some("prx_00_zz"), "invalid_credential"),
        (
            Some(
                "prx_0123456789abcdef0123456789abcdef_0000000000000000000000000000000000000000000000000000000000000000",
            ),
            "invalid_credential",
        ),
    ];
    for (token, code) in cases {
        let (status, headers, body) = raw(Method::GET, &url, token, &[], None).await;
        assert_eq!(status, 401, "{token:?}");
        assert_eq!(problem(&body).0, code, "{token:?}");
        assert_eq!(headers["content-type"], "application/problem+json");
    }
    // A real credential id with a wrong secret is refused the same way.
    let (_, id) = server.client_with(&["memory_read"], vec![]).await;
    let forged = format!("prx_{id}_{}", "ab".repeat(32));
    let (status, _, body) = raw(Method::GET, &url, Some(&forged), &[], None).await;
    assert_eq!(
        (status, problem(&body).0.as_str()),
        (401, "invalid_credential")
    );
}

#[tokio::test]
async fn revocation_and_rotation_take_effect_at_once() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let issued = server
            .admin
            .issue_credential(&issue_request("ops", &["credential_admin"], vec![]), None)
            .await
            .unwrap();
        let ops = server.anonymous.with_token(&issued.token);
        ops.credential(&issued.credential.id)
            .await
            .expect("usable before revocation");

        let rotated = server
            .admin
            .rotate_credential(&issued.credential.id, None)
            .await
            .unwrap();
        let err = ops.credential(&issued.credential.id).await.unwrap_err();
        assert_eq!(
            err.code(),
            Some("invalid_credential"),
            "{backend:?}: old secret after rotation"
        );
        let ops = server.anonymous.with_token(&rotated.token);
        assert!(rotated.credential.rotated_at.is_some());
        ops.credential(&issued.credential.id)
            .await
            .expect("new secret works");

        let revoked = server
            .admin
            .revoke_credential(&issued.credential.id)
            .await
            .unwrap();
        assert_eq!(
            revoked.credential.status,
            praxis_api::CredentialStatus::Revoked
        );
        let err = ops.credential(&issued.credential.id).await.unwrap_err();
        assert_eq!(err.code(), Some("credential_revoked"), "{backend:?}");
        // Revoking again is a no-op that still answers with the credential.
        server
            .admin
            .revoke_credential(&issued.credential.id)
            .await
            .unwrap();
        let err = server
            .admin
            .rotate_credential(&issued.credential.id, None)
            .await
            .unwrap_err();
        assert_eq!(err.code(), Some("credential_revoked"));
    }
}

#[tokio::test]
async fn expired_credentials_are_401() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let soon = jiff::Timestamp::now() + jiff::SignedDuration::from_millis(1_500);
    let request = IssueCredentialRequest {
        expires_at: Some(soon.to_string()),
        ..issue_request("temp", &["credential_admin"], vec![])
    };
    let issued = server.admin.issue_credential(&request, None).await.unwrap();
    let temp = server.anonymous.with_token(&issued.token);
    temp.credential(&issued.credential.id)
        .await
        .expect("usable before expiry");
    tokio::time::sleep(std::time::Duration::from_millis(1_800)).await;
    let err = temp.credential(&issued.credential.id).await.unwrap_err();
    assert_eq!(err.code(), Some("credential_expired"));
    let read = server
        .admin
        .credential(&issued.credential.id)
        .await
        .unwrap();
    assert_eq!(
        read.credential.status,
        praxis_api::CredentialStatus::Expired
    );
}

#[tokio::test]
async fn no_capability_implies_credential_admin() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let (_, target) = server.client_with(&["memory_read"], vec![]).await;
    for cap in Capability::ALL
        .iter()
        .filter(|c| **c != Capability::CredentialAdmin)
    {
        let (client, _) = server.client_with(&[cap.as_str()], vec![]).await;
        let checks = [
            client.credential(&target).await.map(|_| ()),
            client.list_credentials(None, 10).await.map(|_| ()),
            client.revoke_credential(&target).await.map(|_| ()),
            client.rotate_credential(&target, None).await.map(|_| ()),
            client
                .issue_credential(&issue_request("x", &["memory_read"], vec![]), None)
                .await
                .map(|_| ()),
        ];
        for (i, check) in checks.into_iter().enumerate() {
            let err = check.expect_err("must be refused");
            assert_eq!(err.code(), Some("missing_capability"), "{cap} check {i}");
        }
    }
    // Holding every other capability together still grants nothing here.
    let others: Vec<&str> = Capability::ALL
        .iter()
        .filter(|c| **c != Capability::CredentialAdmin)
        .map(|c| c.as_str())
        .collect();
    let (all_but, _) = server.client_with(&others, vec![]).await;
    assert_eq!(
        all_but.credential(&target).await.unwrap_err().code(),
        Some("missing_capability")
    );
    server
        .admin
        .credential(&target)
        .await
        .expect("the admin may");
}

#[tokio::test]
async fn tenants_never_see_each_other() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin2")
            .await
            .unwrap();
        let other = server.anonymous.with_token(token.render());
        let (_, victim) = server.client_with(&["memory_read"], vec![]).await;
        assert_eq!(
            other.credential(&victim).await.unwrap_err().code(),
            Some("not_found")
        );
        assert_eq!(
            other.revoke_credential(&victim).await.unwrap_err().code(),
            Some("not_found")
        );
        assert_eq!(
            other
                .rotate_credential(&victim, None)
                .await
                .unwrap_err()
                .code(),
            Some("not_found")
        );
        let page = other.list_credentials(None, 500).await.unwrap();
        assert!(
            page.credentials.iter().all(|c| c.id != victim),
            "{backend:?}"
        );
        assert_eq!(page.credentials.len(), 1, "only t2's own admin");
        server
            .admin
            .credential(&victim)
            .await
            .expect("still intact in its tenant");
    }
}

#[tokio::test]
async fn authority_comes_from_the_credential_not_the_body() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    // A body naming a tenant or capabilities of the caller is an unknown field, not authority.
    let body = serde_json::json!({
        "contract_version": CONTRACT_VERSION, "subject": "x", "capabilities": ["memory_read"],
        "grants": [], "expires_at": null, "tenant_id": "t2"
    });
    let (status, _, resp) = raw(
        Method::POST,
        &format!("{}/api/v1/credentials", server.base),
        Some(&server.admin_token),
        &[("content-type", "application/json")],
        Some(serde_json::to_vec(&body).unwrap()),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(
        problem(&resp),
        ("unknown_field".into(), Some("/tenant_id".into()))
    );
}

/// Any credential may list the capabilities; each says whether it is held.
#[tokio::test]
async fn capabilities_are_discoverable_by_any_credential() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let admin = server.admin.capabilities().await.unwrap();
    let names: Vec<&str> = admin.capabilities.iter().map(|c| c.name.as_str()).collect();
    let all: Vec<&str> = Capability::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(names, all);
    assert!(admin.capabilities.iter().all(|c| !c.description.is_empty()));
    // The bootstrap administrator holds credential_admin and policy_admin only.
    let held: Vec<&str> = admin
        .capabilities
        .iter()
        .filter(|c| c.held)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(held, ["credential_admin", "policy_admin"]);
    let (reader, _, _) = client_as(&server, "reader", &["memory_read"], vec![]).await;
    let answer = reader.capabilities().await.unwrap();
    let held: Vec<&str> = answer
        .capabilities
        .iter()
        .filter(|c| c.held)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(held, ["memory_read"]);
    let anonymous = server.anonymous.capabilities().await;
    assert!(anonymous.is_err(), "{anonymous:?}");

    // The published enum is exactly the server's capabilities, with the
    // same one-line descriptions.
    for c in &admin.capabilities {
        let name: praxis_api::CapabilityName =
            serde_json::from_value(serde_json::json!(c.name)).unwrap();
        assert_eq!(serde_json::to_value(name).unwrap(), c.name.as_str());
    }
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", server.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let schema = &doc["components"]["schemas"]["CapabilityName"];
    let listed: Vec<&str> = schema["enum"]
        .as_array()
        .or_else(|| schema["oneOf"].as_array())
        .unwrap()
        .iter()
        .map(|v| v.as_str().or_else(|| v["enum"][0].as_str()).unwrap())
        .collect();
    assert_eq!(listed, all);
}
