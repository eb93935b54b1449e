"""Drives a Python client generated from the served OpenAPI document.

Usage: drive_client.py BASE_URL ADMIN_TOKEN PACKAGE_DIR

PACKAGE_DIR holds the `praxis_client` package that `openapi-python-client`
generated, unedited. With the admin token this issues a credential, then
with that credential observes an attempt, observes it again, assesses and
reads the history, asserting on every answer. Any failed assertion or
unexpected answer exits non-zero with a traceback.
"""

import sys

BASE_URL, ADMIN_TOKEN, PACKAGE_DIR = sys.argv[1:4]
sys.path.insert(0, PACKAGE_DIR)

# Imported after the path is set: the package exists only once generated.
from praxis_client import AuthenticatedClient  # noqa: E402
from praxis_client.api.attempts import assess, attempt_history, observe  # noqa: E402
from praxis_client.api.credentials import capabilities, issue  # noqa: E402
from praxis_client.models import (  # noqa: E402
    AssessRequest,
    AssessResponse,
    CandidateRevision,
    CapabilityName,
    Disposition,
    HistoryResponse,
    IssueCredentialRequest,
    ObserveRequest,
    ObserveResponse,
    Outcome,
    OutcomeStatus,
    Problem,
    Recommendation,
    Scope,
    Stage,
    TokenResponse,
    Visibility,
    WriteKind,
)

SCOPE = {
    "project_id": "client-project",
    "mission_id": "client-mission",
    "agent_id": "client-agent",
    "visibility": Visibility.SHARED,
}
SUBJECT = "host-17"
ACTION = "probe-login"


def expect(response, status, kind):
    """The parsed answer, after checking its status and model type."""
    assert response.status_code == status, (
        f"expected {status}, got {response.status_code}: {response.content!r}"
    )
    assert isinstance(response.parsed, kind), (
        f"expected a {kind.__name__}, got {response.parsed!r}"
    )
    return response.parsed


def main():
    admin = AuthenticatedClient(base_url=BASE_URL, token=ADMIN_TOKEN)

    # The admin credential holds credential_admin but may not observe.
    listed = capabilities.sync(client=admin)
    names = {c.name: c.held for c in listed.capabilities}
    assert names.get("credential_admin") is True, names
    assert names.get("experience_write") is False, names

    issued = expect(
        issue.sync_detailed(
            client=admin,
            body=IssueCredentialRequest(
                contract_version=1,
                subject="generated-client",
                capabilities=[CapabilityName.EXPERIENCE_READ, CapabilityName.EXPERIENCE_WRITE],
                grants=[Scope(**SCOPE)],
                expires_at=None,
            ),
        ),
        201,
        TokenResponse,
    )
    assert issued.token.startswith(f"prx_{issued.credential.id}_"), issued.token
    assert issued.credential.capabilities == [
        CapabilityName.EXPERIENCE_READ,
        CapabilityName.EXPERIENCE_WRITE,
    ]
    assert [g.to_dict() for g in issued.credential.grants] == [Scope(**SCOPE).to_dict()]
    agent = AuthenticatedClient(base_url=BASE_URL, token=issued.token)

    outcome = Outcome(
        case_id="case-1",
        subject=SUBJECT,
        action_id=ACTION,
        hypothesis_id="weak-password",
        verifier_rule_id="rule-7",
        stage=Stage.ACTIVE,
        status=OutcomeStatus.FALSE_POSITIVE,
        confidence=900_000,
        rationale="the login page refused every candidate",
        evidence_ids=["ev-1", "ev-2"],
    )
    request = ObserveRequest(contract_version=1, scope=Scope(**SCOPE), outcome=outcome)
    first = expect(observe.sync_detailed(client=agent, body=request), 201, ObserveResponse)
    assert first.write == WriteKind.INSERTED, first.write
    assert first.record.disposition == Disposition.VERIFICATION_REJECTED, first.record.disposition
    assert first.record.outcome.to_dict() == outcome.to_dict(), first.record.outcome
    again = expect(observe.sync_detailed(client=agent, body=request), 200, ObserveResponse)
    assert again.write == WriteKind.UNCHANGED, again.write
    assert again.record.sequence == first.record.sequence

    # A refusal is parsed as the documented problem document.
    denied = expect(observe.sync_detailed(client=admin, body=request), 403, Problem)
    assert denied.code == "missing_capability", denied.code

    assessed = expect(
        assess.sync_detailed(
            client=agent,
            body=AssessRequest(
                contract_version=1,
                scope=Scope(**SCOPE),
                subject=SUBJECT,
                actions=[ACTION, CandidateRevision(action_id="probe-other", action_revision=None)],
            ),
        ),
        200,
        AssessResponse,
    )
    tried, fresh = assessed.assessments
    assert (tried.action_id, fresh.action_id) == (ACTION, "probe-other")
    assert tried.recommendation == Recommendation.CONTINUE, tried.recommendation
    assert (tried.consecutive_failures, tried.completed_attempts) == (1, 1), tried
    assert tried.last_disposition == Disposition.VERIFICATION_REJECTED, tried.last_disposition
    assert fresh.recommendation == Recommendation.EXPLORE, fresh.recommendation
    assert fresh.completed_attempts == 0, fresh

    history = expect(
        attempt_history.sync_detailed(client=agent, subject=SUBJECT, **SCOPE),
        200,
        HistoryResponse,
    )
    assert [r.sequence for r in history.records] == [first.record.sequence], history.records
    assert history.records[0].digest == first.record.digest
    assert history.next_cursor is None, history.next_cursor

    print("generated client: issued, observed twice, assessed and read history")


main()
