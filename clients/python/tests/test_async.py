"""A representative set of operations through the async client."""

from __future__ import annotations

import asyncio
from typing import Any

from praxis_server import PraxisServer
from support import issue_token

from praxis_client import AsyncClient, Client, NotFound
from praxis_client import models as m

SCOPE: dict[str, Any] = {"project_id": "async-project", "mission_id": None, "agent_id": "async-bot", "visibility": "shared"}


def test_async_operations(praxis_server: PraxisServer, admin: Client) -> None:
    token = issue_token(admin, "async-bot", ["experience_write", "experience_read", "memory_write", "memory_read"], [SCOPE])
    scope = m.Scope.model_validate(SCOPE)

    async def run() -> None:
        async with AsyncClient(praxis_server.url, token) as bot:
            health = await bot.readyz()
            assert isinstance(health, m.Health) and health.status == "ok"
            outcomes = [
                m.Outcome(
                    action_id="probe",
                    case_id=f"a-{i}",
                    confidence=700000,
                    evidence_ids=[f"e-{i}"],
                    hypothesis_id="h",
                    rationale="negative",
                    stage="active",
                    status="confirmed_negative",
                    subject="svc-1",
                    verifier_rule_id="r",
                )
                for i in range(3)
            ]
            written = await asyncio.gather(*(bot.observe(m.ObserveRequest(outcome=o, scope=scope)) for o in outcomes))
            assert all(isinstance(w, m.ObserveResponse) and w.write == "inserted" for w in written)
            assessed = await bot.assess(m.AssessRequest(subject="svc-1", actions=["probe", "other"], scope=scope))
            assert [a.recommendation for a in assessed.assessments] == ["continue", "explore"]
            counts = await bot.counts(**{k: v for k, v in SCOPE.items() if v is not None}, subject="svc-1")
            assert counts.total == 3 and counts.counts.get("confirmed_negative") == 3
            item = await bot.set_memory(m.SetMemoryRequest(key="async-note", summary="async", body="body", scope=scope))
            assert isinstance(item, m.SetMemoryResponse)
            got = await bot.get_memory(m.GetMemoryRequest(key="async-note", scope=scope))
            assert got.memory.revision == item.memory.revision
            try:
                await bot.get_memory(m.GetMemoryRequest(key="missing", scope=scope))
            except NotFound as error:
                assert error.status == 404 and error.code
            else:
                raise AssertionError("a missing key is 404")
            capabilities = await bot.capabilities()
            assert {c.name for c in capabilities.capabilities if c.held} == {
                "experience_write",
                "experience_read",
                "memory_write",
                "memory_read",
            }

    asyncio.run(run())
