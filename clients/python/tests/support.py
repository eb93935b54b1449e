"""Helpers the tests share: the example scope, credentials, example servers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from praxis_server import REPO, PraxisServer

from praxis_client import Client
from praxis_client import models as m

#: The scope every README example acts in.
EXAMPLE_SCOPE: dict[str, Any] = {
    "project_id": "billing-service",
    "mission_id": None,
    "agent_id": "triage-bot",
    "visibility": "shared",
}

#: The example skill file the example project holds.
SKILL = "ci-root-database-cluster"

#: Every capability the scoped examples need (what the Rust example test grants).
WRITER_CAPABILITIES: list[m.CapabilityName] = [
    "policy_admin",
    "experience_write",
    "experience_report",
    "experience_read",
    "experience_evidence_admin",
    "record_submit",
    "record_review",
    "procedure_propose",
    "memory_read",
    "memory_write",
    "proposal_create",
]


def openapi_document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((REPO / "crates/praxis-server/openapi.json").read_text(encoding="utf-8"))
    return doc


def issue_token(
    admin: Client,
    subject: str,
    capabilities: Sequence[m.CapabilityName],
    scopes: Sequence[dict[str, Any]] = (EXAMPLE_SCOPE,),
) -> str:
    """Issues a credential and returns its token."""
    answer = admin.issue(
        m.IssueCredentialRequest(
            subject=subject,
            capabilities=list(capabilities),
            grants=[m.Scope.model_validate(s) for s in scopes],
            expires_at=None,
        )
    )
    return answer.token


def write_token(path: Path, token: str) -> Path:
    path.write_text(token + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def example_server(root: Path) -> PraxisServer:
    """A server (not started) over ``root/data`` whose example project holds the example skill."""
    project = root / "project"
    skill = project / ".agents" / "skills" / SKILL
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        f"---\nname: {SKILL}\ndescription: Recover a CI database cluster.\n---\nSteps.\n", encoding="utf-8"
    )
    return PraxisServer(root / "data", extra_args=["--project", f"billing-service={project}"])
