"""A keyed write whose answer is lost after it committed is applied exactly once.

Deterministically, against a live server: a transport wrapped around the
real ``httpx`` transport forwards the first attempt of each keyed write to
the server and lets it complete (the write commits, its answer is stored
under the Idempotency-Key), then throws the answer away and raises
``httpx.ReadError``, as a connection cut after the server answered would.
The client retries with the same key; the server replays the stored answer
(``Idempotent-Replayed: true``, byte for byte) instead of applying the
write again, and the list endpoints show the write once.

The writes are ones the server does not deduplicate by content: each
``issue`` makes a new credential (a new id and token) and each
``create_proposal`` a new proposal, so only the key keeps a retry from
applying them twice.

Without retries (``NO_RETRY``) the loss surfaces as a
``PraxisConnectionError`` whose ``idempotency_key`` the caller passes back
to send the call again, and gets the stored answer.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from praxis_server import PraxisServer
from support import issue_token

from praxis_client import NO_RETRY, AsyncClient, Client, PraxisConnectionError, RetryPolicy
from praxis_client import models as m

FAST = RetryPolicy(max_attempts=3, initial_backoff=0.01, max_backoff=0.05, max_elapsed=10.0)


@dataclass
class Exchange:
    """One request the wrapper forwarded, and what the server answered."""

    method: str
    path: str
    key: str | None
    status: int
    replayed: bool
    body: bytes
    lost: bool


class _Recorder:
    def __init__(self) -> None:
        self.exchanges: list[Exchange] = []
        self._keys_seen: set[str] = set()

    def keyed(self, key: str | None) -> list[Exchange]:
        return [e for e in self.exchanges if e.key == key]

    def record(self, request: httpx.Request, response: httpx.Response) -> bool:
        """Records an answered request; True when its answer is to be lost."""
        key = request.headers.get("idempotency-key")
        lose = key is not None and key not in self._keys_seen
        if key is not None:
            self._keys_seen.add(key)
        self.exchanges.append(
            Exchange(
                method=request.method,
                path=request.url.path,
                key=key,
                status=response.status_code,
                replayed=response.headers.get("idempotent-replayed", "").lower() == "true",
                body=response.content,
                lost=lose,
            )
        )
        return lose


class LoseFirstAnswer(httpx.HTTPTransport):
    """Sends every request; loses the answer to the first attempt of each keyed write."""

    def __init__(self) -> None:
        super().__init__()
        self.recorder = _Recorder()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        response.read()  # the server has answered: the write is committed
        response.close()
        if self.recorder.record(request, response):
            raise httpx.ReadError("connection reset after the server answered", request=request)
        return httpx.Response(
            response.status_code, headers=response.headers, content=response.content, request=request
        )


class AsyncLoseFirstAnswer(httpx.AsyncHTTPTransport):
    """The asyncio twin of :class:`LoseFirstAnswer`."""

    def __init__(self) -> None:
        super().__init__()
        self.recorder = _Recorder()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        await response.aread()
        await response.aclose()
        if self.recorder.record(request, response):
            raise httpx.ReadError("connection reset after the server answered", request=request)
        return httpx.Response(
            response.status_code, headers=response.headers, content=response.content, request=request
        )


def scope_of(agent: str) -> dict[str, Any]:
    return {"project_id": "lost-answer", "mission_id": None, "agent_id": agent, "visibility": "shared"}


def proposal_request(scope: dict[str, Any], memory_key: str) -> m.CreateExperienceProposalRequest:
    return m.CreateExperienceProposalRequest.model_validate(
        {
            "scope": scope,
            "candidate": {
                "schema": "praxis.experience-proposal.v1",
                "summary": "Check continuation fields before treating a read as complete.",
                "content": "A bounded read that returns a next cursor is not the whole answer.",
                "conditions": ["A list or search call returns a next cursor."],
                "sources": [],
                "destination": {"kind": "memory", "memory_key": memory_key, "expected_revision": None},
            },
        }
    )


def credentials_of(admin: Client, subject: str) -> list[m.Credential]:
    """Every credential issued to ``subject``, read page by page."""
    found: list[m.Credential] = []
    after: str | None = None
    while True:
        page = admin.list(after=after, limit=500)
        found += [c for c in page.credentials if c.subject == subject]
        if page.next_cursor is None:
            return found
        after = page.next_cursor


def check_replayed(recorder: _Recorder, key: str | None, path: str) -> Exchange:
    """The key's two attempts: the first committed and lost, the second its replay."""
    assert key is not None
    first, second = recorder.keyed(key)
    assert (first.method, first.path, second.path) == ("POST", path, path)
    assert first.lost and first.status == 201 and not first.replayed
    assert not second.lost and second.status == 201 and second.replayed
    assert second.body == first.body  # the stored answer, byte for byte
    return second


def test_a_lost_answer_is_replayed_sync(praxis_server: PraxisServer, admin: Client) -> None:
    scope = scope_of("lost-sync-bot")
    token = issue_token(admin, "lost-sync-bot", ["proposal_create", "memory_read"], [scope])
    wrapper = LoseFirstAnswer()
    with Client(
        praxis_server.url, token_file=praxis_server.admin_token_file, transport=wrapper, retry=FAST
    ) as lossy_admin, Client(praxis_server.url, token, transport=wrapper, retry=FAST) as lossy_bot:
        # issue: a new credential per application.
        issued = lossy_admin.issue(
            m.IssueCredentialRequest(subject="lost-answer-sync", capabilities=["memory_read"], grants=[m.Scope.model_validate(scope)]),
            idempotency_key="lost-answer-sync-issue-0001",
        )
        replay = check_replayed(wrapper.recorder, "lost-answer-sync-issue-0001", "/api/v1/credentials")
        assert m.TokenResponse.model_validate_json(replay.body).token == issued.token
        # create_proposal: a new proposal per application; the client's own key.
        created = lossy_bot.create_proposal(proposal_request(scope, "lost-answer-sync"))
        keys = [e.key for e in wrapper.recorder.exchanges if e.path == "/api/v1/proposals"]
        assert len(keys) == 2 and keys[0] == keys[1]
        check_replayed(wrapper.recorder, keys[0], "/api/v1/proposals")

    with Client(praxis_server.url, token) as bot:
        credentials = credentials_of(admin, "lost-answer-sync")
        assert len(credentials) == 1 and credentials[0].id == issued.credential.id
        proposals = bot.list_proposals(**{k: v for k, v in scope.items() if v is not None}).proposals
        assert [p.id for p in proposals] == [created.proposal.id]


def test_a_lost_answer_is_replayed_async(praxis_server: PraxisServer, admin: Client) -> None:
    scope = scope_of("lost-async-bot")
    token = issue_token(admin, "lost-async-bot", ["proposal_create", "memory_read"], [scope])
    wrapper = AsyncLoseFirstAnswer()

    async def run() -> tuple[m.TokenResponse, m.ExperienceProposalResponse]:
        async with AsyncClient(
            praxis_server.url, token_file=praxis_server.admin_token_file, transport=wrapper, retry=FAST
        ) as lossy_admin, AsyncClient(praxis_server.url, token, transport=wrapper, retry=FAST) as lossy_bot:
            issued = await lossy_admin.issue(
                m.IssueCredentialRequest(subject="lost-answer-async", capabilities=["memory_read"], grants=[m.Scope.model_validate(scope)])
            )
            created = await lossy_bot.create_proposal(
                proposal_request(scope, "lost-answer-async"), idempotency_key="lost-answer-async-proposal-0001"
            )
            return issued, created

    issued, created = asyncio.run(run())
    keys = [e.key for e in wrapper.recorder.exchanges if e.path == "/api/v1/credentials"]
    assert len(keys) == 2 and keys[0] == keys[1]
    replay = check_replayed(wrapper.recorder, keys[0], "/api/v1/credentials")
    assert m.TokenResponse.model_validate_json(replay.body).token == issued.token
    check_replayed(wrapper.recorder, "lost-answer-async-proposal-0001", "/api/v1/proposals")

    with Client(praxis_server.url, token) as bot:
        credentials = credentials_of(admin, "lost-answer-async")
        assert len(credentials) == 1 and credentials[0].id == issued.credential.id
        proposals = bot.list_proposals(**{k: v for k, v in scope.items() if v is not None}).proposals
        assert [p.id for p in proposals] == [created.proposal.id]


def test_the_caller_resends_with_the_errors_key(praxis_server: PraxisServer, admin: Client) -> None:
    """Without retries the loss surfaces; sending again with its key replays the answer."""
    scope = m.Scope.model_validate(scope_of("lost-resend-bot"))
    wrapper = LoseFirstAnswer()
    request = m.IssueCredentialRequest(subject="lost-answer-resend", capabilities=["memory_read"], grants=[scope])
    with Client(praxis_server.url, token_file=praxis_server.admin_token_file, transport=wrapper, retry=NO_RETRY) as lossy:
        with pytest.raises(PraxisConnectionError) as caught:
            lossy.issue(request)
        error = caught.value
        assert error.may_have_applied and error.attempts == 1 and isinstance(error.__cause__, httpx.ReadError)
        assert error.idempotency_key is not None
        assert len(credentials_of(admin, "lost-answer-resend")) == 1  # it was applied
        issued = lossy.issue(request, idempotency_key=error.idempotency_key)
    first, second = wrapper.recorder.keyed(error.idempotency_key)
    assert first.lost and second.replayed and second.body == first.body
    assert [c.id for c in credentials_of(admin, "lost-answer-resend")] == [issued.credential.id]
