"""Keyed writes survive the server going away mid-run: each is applied exactly once.

A worker thread issues credentials, records observations and creates memory
items one after another while the server is stopped (once gracefully, once
killed) and restarted on the same data dir and port. The client retries
connection failures; keyed writes reuse their Idempotency-Key, so a write
the server applied before it went away is answered from its stored receipt
instead of being applied again. Afterwards the list endpoints show each
write exactly once.

Whether a restart falls between a commit and its answer is left to timing
here; ``test_lost_answer.py`` loses a committed write's answer
deterministically.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx

from praxis_server import PraxisServer
from support import example_server, issue_token

from praxis_client import Client, RetryPolicy
from praxis_client import models as m

SCOPE: dict[str, Any] = {"project_id": "restart-project", "mission_id": None, "agent_id": "restart-bot", "visibility": "shared"}
PATIENT = RetryPolicy(max_attempts=60, initial_backoff=0.02, max_backoff=0.25, max_elapsed=60.0)
ROUNDS = 30


def outcome(i: int) -> m.Outcome:
    return m.Outcome(
        action_id="restart-service",
        case_id=f"case-{i:03}",
        confidence=800000,
        evidence_ids=[f"probe-{i}"],
        hypothesis_id="pool",
        rationale="health check failed",
        stage="active",
        status="confirmed_negative",
        subject="host-9",
        verifier_rule_id="health-200",
    )


class CountingTransport(httpx.HTTPTransport):
    """Counts the requests that failed below HTTP (refused, reset, cut off)."""

    def __init__(self) -> None:
        super().__init__()
        self.failures = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except httpx.TransportError:
            self.failures += 1
            raise


def test_writes_during_restarts_are_applied_exactly_once(tmp_path: Path) -> None:
    server: PraxisServer = example_server(tmp_path)
    server.start()
    try:
        scope = m.Scope.model_validate(SCOPE)
        with Client(server.url, token_file=server.admin_token_file) as admin:
            token = issue_token(admin, "restart-bot", ["experience_write", "experience_read", "memory_write", "memory_read"], [SCOPE])
        done: list[str] = []
        errors: list[BaseException] = []
        progress = threading.Event()
        counting = CountingTransport()
        counting_admin = CountingTransport()

        def work() -> None:
            try:
                with Client(
                    server.url, token_file=server.admin_token_file, retry=PATIENT, transport=counting_admin
                ) as admin, Client(
                    server.url, token, retry=PATIENT, transport=counting
                ) as bot:
                    for i in range(ROUNDS):
                        admin.issue(m.IssueCredentialRequest(subject=f"worker-{i:03}", capabilities=["memory_read"], grants=[scope]))
                        bot.observe(m.ObserveRequest(outcome=outcome(i), scope=scope))
                        bot.set_memory(
                            m.SetMemoryRequest(key=f"note-{i:03}", summary="s", body=f"b{i}", expected_revision=None, scope=scope)
                        )
                        done.append(f"round-{i}")
                        time.sleep(0.02)  # paced, so that both restarts fall mid-run
                        if i == 3:
                            progress.set()
            except BaseException as exc:  # surfaced in the main thread
                errors.append(exc)
                progress.set()

        worker = threading.Thread(target=work)
        worker.start()
        assert progress.wait(30)
        server.stop()  # graceful
        time.sleep(0.3)
        server.start()
        while len(done) < ROUNDS // 2 and worker.is_alive():
            time.sleep(0.01)
        server.stop(kill=True)  # abrupt: a write may be applied with its answer lost
        time.sleep(0.3)
        server.start()
        worker.join(120)
        assert not worker.is_alive()
        assert not errors, errors
        assert len(done) == ROUNDS
        assert counting.failures + counting_admin.failures > 0, "the restarts interrupted no request"

        with Client(server.url, token_file=server.admin_token_file) as admin, Client(server.url, token) as bot:
            subjects = [c.subject for c in admin.list(limit=500).credentials if c.subject.startswith("worker-")]
            assert sorted(subjects) == [f"worker-{i:03}" for i in range(ROUNDS)]
            counts = bot.counts(project_id="restart-project", agent_id="restart-bot", visibility="shared")
            assert counts.total == ROUNDS
            history = bot.attempt_history(project_id="restart-project", agent_id="restart-bot", visibility="shared", subject="host-9", limit=500)
            assert sorted(r.outcome.case_id for r in history.records) == [f"case-{i:03}" for i in range(ROUNDS)]
            for i in range(ROUNDS):
                changes = bot.memory_history(m.MemoryHistoryRequest(key=f"note-{i:03}", scope=scope))
                assert [c.kind for c in changes.changes] == ["set"]
    finally:
        server.stop()
