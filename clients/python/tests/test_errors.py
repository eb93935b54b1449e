"""Problem documents become typed exceptions carrying code, status, field and the problem."""

from __future__ import annotations

from typing import Any

import pytest
from praxis_server import PraxisServer
from support import issue_token

from praxis_client import (
    Client,
    Conflict,
    Forbidden,
    NotFound,
    PraxisError,
    Unauthorized,
    UnprocessableEntity,
)
from praxis_client import models as m

SCOPE: dict[str, Any] = {
    "project_id": "errors-project",
    "mission_id": None,
    "agent_id": "errors-bot",
    "visibility": "shared",
}


def outcome(case: str, status: m.OutcomeStatus = "confirmed_negative", rationale: str = "still failing") -> m.Outcome:
    return m.Outcome(
        action_id="restart",
        case_id=case,
        confidence=900000,
        evidence_ids=["probe-1"],
        hypothesis_id="h1",
        rationale=rationale,
        stage="active",
        status=status,
        subject="host-1",
        verifier_rule_id="rule-1",
    )


def test_not_found(admin: Client) -> None:
    with pytest.raises(NotFound) as caught:
        admin.read_credential("0" * 32)
    error = caught.value
    assert error.status == 404 and isinstance(error, PraxisError)
    assert error.code and error.problem["status"] == 404
    assert error.operation_id == "read_credential"


def test_forbidden_without_capability(praxis_server: PraxisServer, admin: Client) -> None:
    token = issue_token(admin, "errors-reader", ["experience_read"], [SCOPE])
    with Client(praxis_server.url, token) as reader:
        with pytest.raises(Forbidden) as caught:
            reader.observe(m.ObserveRequest(outcome=outcome("c-403"), scope=m.Scope.model_validate(SCOPE)))
    assert caught.value.status == 403
    assert caught.value.problem["code"] == caught.value.code


def test_unauthorized_after_revocation(praxis_server: PraxisServer, admin: Client) -> None:
    issued = admin.issue(
        m.IssueCredentialRequest(subject="errors-revoked", capabilities=["experience_read"], grants=[])
    )
    with Client(praxis_server.url, issued.token) as holder:
        assert holder.capabilities().capabilities
        admin.revoke(issued.credential.id, m.EmptyRequest())
        with pytest.raises(Unauthorized) as caught:
            holder.capabilities()
    assert caught.value.status == 401 and caught.value.code


def test_conflict_and_unprocessable(praxis_server: PraxisServer, admin: Client) -> None:
    token = issue_token(admin, "errors-bot", ["experience_write", "experience_read", "memory_write"], [SCOPE])
    scope = m.Scope.model_validate(SCOPE)
    with Client(praxis_server.url, token) as bot:
        first = bot.observe(m.ObserveRequest(outcome=outcome("c-409"), scope=scope))
        assert first.write == "inserted"
        again = bot.observe(m.ObserveRequest(outcome=outcome("c-409"), scope=scope))
        assert again.write == "unchanged"
        with pytest.raises(Conflict) as conflict:
            bot.observe(m.ObserveRequest(outcome=outcome("c-409", rationale="another story"), scope=scope))
        assert (conflict.value.status, conflict.value.code) == (409, "identity_conflict")

        # A compare-and-set conflict names the current revision.
        bot.set_memory(m.SetMemoryRequest(key="k", summary="s", body="b", expected_revision=None, scope=scope))
        with pytest.raises(Conflict) as cas:
            bot.set_memory(m.SetMemoryRequest(key="k", summary="s2", body="b2", expected_revision=None, scope=scope))
        assert cas.value.current_revision is not None

        bad = outcome("c-422")
        bad.evidence_ids = []
        with pytest.raises(UnprocessableEntity) as invalid:
            bot.observe(m.ObserveRequest(outcome=bad, scope=scope))
    error = invalid.value
    assert (error.status, error.code, error.field) == (422, "invalid_field", "/outcome/evidence_ids")
    assert error.problem["field"] == "/outcome/evidence_ids"
    assert "invalid_field" in str(error)


def test_raw_mapping_bodies_are_sent_as_given(praxis_server: PraxisServer, admin: Client) -> None:
    # A mapping is not validated by the client: the server refuses the unknown field.
    with pytest.raises(PraxisError) as caught:
        admin.issue({"contract_version": 1, "subject": "x", "capabilities": ["experience_read"], "grants": [], "expires_at": None, "surprise": 1})
    assert caught.value.status in (400, 422)
    assert caught.value.field == "/surprise"
