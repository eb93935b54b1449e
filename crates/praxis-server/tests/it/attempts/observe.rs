//! Observing over HTTP: once per identity, bad outcomes refused.

use super::*;

/// Observe answers 201/200 with explicit dispositions and refuses bad outcomes without writing.
#[tokio::test]
async fn observe_records_once_and_refuses_bad_outcomes() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (client, _, token) = client_as(&server, "agent", ALL, vec![scope()]).await;
        let ok = outcome(
            "host-a",
            "probe",
            "c1",
            Stage::Active,
            OutcomeStatus::Success,
        );
        let body = serde_json::to_value(observe_request(&scope(), ok.clone(), None)).unwrap();

        let (status, first) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
        assert_eq!(
            status,
            201,
            "{backend:?}: {}",
            String::from_utf8_lossy(&first)
        );
        let first: praxis_api::ObserveResponse = serde_json::from_slice(&first).unwrap();
        assert_eq!(first.write, praxis_api::WriteKind::Inserted);
        assert_eq!(first.record.outcome, ok);
        assert_eq!(first.record.disposition, Disposition::ConfirmedPositive);
        assert_eq!(first.record.digest.len(), 64, "{}", first.record.digest);
        assert!(
            first
                .record
                .digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{}",
            first.record.digest
        );
        // The disposition is explicit on the wire even though it was inferred.
        let wire: Value = serde_json::to_value(&first).unwrap();
        assert_eq!(wire["record"]["disposition"], "confirmed_positive");
        assert!(wire["record"]["sequence"].is_u64());

        let (status, again) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
        assert_eq!(status, 200, "{backend:?}: identical retry");
        let again: praxis_api::ObserveResponse = serde_json::from_slice(&again).unwrap();
        assert_eq!(again.write, praxis_api::WriteKind::Unchanged);
        assert_eq!(again.record.sequence, first.record.sequence);
        assert_eq!(again.record.digest, first.record.digest);
        assert_eq!(again.record, first.record);

        let events = event_count(&server).await;
        let records = total(&client, &scope()).await;
        assert_eq!(records, 1);

        let mut other_rationale = ok.clone();
        other_rationale.rationale = "another reason".into();
        let mut unknown_field = serde_json::to_value(&body).unwrap();
        unknown_field["outcome"]["bogus"] = json!(1);
        let mut no_version = body.clone();
        no_version
            .as_object_mut()
            .unwrap()
            .remove("contract_version");
        let mut version_two = body.clone();
        version_two["contract_version"] = json!(2);
        let mut unknown_confident = outcome(
            "host-a",
            "probe",
            "c2",
            Stage::Active,
            OutcomeStatus::Unknown,
        );
        unknown_confident.confidence = 5;
        let passive_negative = outcome(
            "host-a",
            "probe",
            "c3",
            Stage::Passive,
            OutcomeStatus::ConfirmedNegative,
        );
        let as_body = |o: Outcome, d: Option<Disposition>| {
            serde_json::to_value(observe_request(&scope(), o, d)).unwrap()
        };
        // Every status but unknown names its rule, cites evidence and is confident.
        let broken = |status: OutcomeStatus, edit: fn(&mut Outcome)| {
            let mut o = outcome("host-a", "probe", "c4", Stage::Active, status);
            edit(&mut o);
            as_body(o, None)
        };
        let cases: Vec<(&str, Value, u16, &str, Option<&str>)> = vec![
            (
                "blocked without evidence",
                broken(OutcomeStatus::Blocked, |o| o.evidence_ids.clear()),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids"),
            ),
            (
                "blocked without a rule",
                broken(OutcomeStatus::Blocked, |o| o.verifier_rule_id = None),
                422,
                "invalid_field",
                Some("/outcome/verifier_rule_id"),
            ),
            (
                "needs_review with zero confidence",
                broken(OutcomeStatus::NeedsReview, |o| o.confidence = 0),
                422,
                "invalid_field",
                Some("/outcome/confidence"),
            ),
            (
                "needs_review without evidence",
                broken(OutcomeStatus::NeedsReview, |o| o.evidence_ids.clear()),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids"),
            ),
            (
                "a blank subject",
                broken(OutcomeStatus::Success, |o| o.subject = "  ".into()),
                422,
                "invalid_field",
                Some("/outcome/subject"),
            ),
            (
                "a blank evidence id",
                broken(OutcomeStatus::Success, |o| {
                    o.evidence_ids = vec!["\u{3000}".into()];
                }),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids/0"),
            ),
            (
                "a blank rationale",
                broken(OutcomeStatus::Unknown, |o| o.rationale = " ".into()),
                422,
                "invalid_field",
                Some("/outcome/rationale"),
            ),
            (
                "a subject over the live limit",
                broken(OutcomeStatus::Success, |o| o.subject = "s".repeat(257)),
                422,
                "invalid_field",
                Some("/outcome/subject"),
            ),
            (
                "same identity, other rationale",
                as_body(other_rationale, None),
                409,
                "identity_conflict",
                Some("/outcome"),
            ),
            (
                "same identity, other disposition",
                as_body(
                    outcome(
                        "host-a",
                        "probe",
                        "c1",
                        Stage::Active,
                        OutcomeStatus::Unknown,
                    ),
                    Some(Disposition::TransportFailure),
                ),
                409,
                "identity_conflict",
                Some("/outcome"),
            ),
            (
                "transport_failure with success",
                as_body(
                    outcome(
                        "host-a",
                        "probe",
                        "c9",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    Some(Disposition::TransportFailure),
                ),
                422,
                "invalid_disposition",
                Some("/disposition"),
            ),
            (
                "unknown with confidence 5",
                as_body(unknown_confident, None),
                422,
                "invalid_field",
                Some("/outcome/confidence"),
            ),
            (
                "passive confirmed_negative",
                as_body(passive_negative, None),
                422,
                "invalid_field",
                Some("/outcome/stage"),
            ),
            (
                "unknown field in the outcome",
                unknown_field,
                400,
                "unknown_field",
                Some("/outcome/bogus"),
            ),
            (
                "missing contract_version",
                no_version,
                400,
                "missing_field",
                Some("/contract_version"),
            ),
            (
                "contract_version 2",
                version_two,
                400,
                "unsupported_contract_version",
                Some("/contract_version"),
            ),
        ];
        for (what, body, want_status, code, field) in cases {
            let (status, resp) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
            assert_eq!(
                status,
                want_status,
                "{backend:?} {what}: {}",
                String::from_utf8_lossy(&resp)
            );
            assert_eq!(
                problem(&resp),
                (code.to_owned(), field.map(str::to_owned)),
                "{backend:?} {what}"
            );
        }
        assert_eq!(
            total(&client, &scope()).await,
            records,
            "{backend:?}: a refusal wrote"
        );
        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: a refusal wrote"
        );
        let history = client
            .attempt_history(&scope(), "host-a", None, None, 100)
            .await
            .unwrap();
        assert_eq!(history.records, vec![first.record.clone()]);
    }
}
