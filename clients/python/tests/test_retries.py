"""Retry rules, against an ``httpx.MockTransport`` (no server)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable

import httpx
import pytest

from praxis_client import (
    AsyncClient,
    BadRequest,
    Client,
    Conflict,
    NO_RETRY,
    PraxisConnectionError,
    RetryPolicy,
    ServerError,
    ServiceUnavailable,
)
from praxis_client import models as m
from praxis_client._transport import retry_after_seconds

FAST = RetryPolicy(max_attempts=4, initial_backoff=0.001, max_backoff=0.01, max_elapsed=5.0)

SCOPE = m.Scope(project_id="p", agent_id="a", visibility="shared")
MEMORY = m.SetMemoryRequest(key="k", summary="s", body="b", expected_revision=None, scope=SCOPE)
ITEM = {
    "contract_version": 1,
    "state_changed": True,
    "memory": {"key": "k", "summary": "s", "body": "b", "tags": [], "priority": "normal", "bootstrap": False, "revision": "mrev_1"},
}


def problem(status: int, code: str) -> httpx.Response:
    body = {"type": "about:blank", "title": code, "status": status, "detail": code, "code": code}
    return httpx.Response(status, json=body, headers={"content-type": "application/problem+json"})


class Script:
    """Answers requests from a list of responses (or exceptions), recording each request."""

    def __init__(self, *steps: httpx.Response | Exception) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    def keys(self) -> list[str | None]:
        return [r.headers.get("idempotency-key") for r in self.requests]


def client(script: Script, retry: RetryPolicy = FAST) -> Client:
    return Client("http://praxis.test", "prx_t", transport=httpx.MockTransport(script), retry=retry, rng=random.Random(7))


def test_503_then_200_is_retried_with_the_same_key() -> None:
    script = Script(problem(503, "unavailable"), problem(503, "unavailable"), httpx.Response(201, json=ITEM))
    answer = client(script).set_memory(MEMORY)
    assert answer.memory.revision == "mrev_1"
    keys = script.keys()
    assert len(keys) == 3 and keys[0] is not None and len(set(keys)) == 1
    assert all(r.headers["authorization"] == "Bearer prx_t" for r in script.requests)
    assert all(r.content == script.requests[0].content for r in script.requests)
    assert json.loads(script.requests[0].content)["expected_revision"] is None


def test_a_callers_key_is_used_and_each_logical_call_gets_a_new_one() -> None:
    script = Script(httpx.Response(201, json=ITEM), httpx.Response(201, json=ITEM), httpx.Response(201, json=ITEM))
    praxis = client(script)
    praxis.set_memory(MEMORY, idempotency_key="my-key-0123456789abcdef")
    praxis.set_memory(MEMORY)
    praxis.set_memory(MEMORY)
    keys = script.keys()
    assert keys[0] == "my-key-0123456789abcdef"
    assert keys[1] and keys[2] and keys[1] != keys[2]


def test_reads_carry_no_key_and_are_retried() -> None:
    script = Script(httpx.ConnectError("refused"), httpx.Response(200, json={"status": "ok", "store": "sqlite"}))
    assert client(script).healthz().status == "ok"
    assert script.keys() == [None, None]


@pytest.mark.parametrize("status,code,error", [(400, "bad", BadRequest), (409, "identity_conflict", Conflict), (429, "slow", None)])
def test_4xx_is_never_retried(status: int, code: str, error: type[Exception] | None) -> None:
    script = Script(problem(status, code), httpx.Response(201, json=ITEM))
    with pytest.raises(error or Exception) as caught:
        client(script).set_memory(MEMORY)
    assert len(script.requests) == 1
    assert getattr(caught.value, "code") == code


def test_other_5xx_is_not_retried() -> None:
    script = Script(problem(500, "storage_inconsistency"), httpx.Response(201, json=ITEM))
    with pytest.raises(ServerError) as caught:
        client(script).set_memory(MEMORY)
    assert caught.value.status == 500 and len(script.requests) == 1


@pytest.mark.parametrize(
    "failure",
    [
        lambda r: httpx.ConnectError("refused", request=r),
        lambda r: httpx.ReadError("reset", request=r),
        lambda r: httpx.RemoteProtocolError("closed", request=r),
    ],
)
def test_connection_errors_are_retried_with_the_same_key(failure: Callable[[httpx.Request], Exception]) -> None:
    request = httpx.Request("POST", "http://praxis.test")
    script = Script(failure(request), failure(request), httpx.Response(200, json=ITEM))
    assert client(script).set_memory(MEMORY).state_changed
    keys = script.keys()
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1


def test_attempts_are_bounded() -> None:
    script = Script(*[problem(503, "unavailable")] * 4)
    with pytest.raises(ServiceUnavailable):
        client(script).set_memory(MEMORY)
    assert len(script.requests) == 4
    script = Script(*[httpx.ConnectError("refused")] * 4)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY)
    assert caught.value.attempts == 4 and isinstance(caught.value.__cause__, httpx.ConnectError)


def test_retry_after_is_honoured_within_the_budget() -> None:
    waits: list[float] = []
    busy = problem(503, "unavailable")
    busy.headers["retry-after"] = "2"
    script = Script(busy, httpx.Response(201, json=ITEM))
    praxis = client(script, RetryPolicy(max_attempts=3, max_elapsed=10.0))
    setattr(praxis._transport, "_sleep", waits.append)
    praxis.set_memory(MEMORY)
    assert waits == [2.0]
    # A Retry-After past the time budget ends the retries at once.
    busy = problem(503, "unavailable")
    busy.headers["retry-after"] = "60"
    script = Script(busy, httpx.Response(201, json=ITEM))
    praxis = client(script, RetryPolicy(max_attempts=3, max_elapsed=10.0))
    with pytest.raises(ServiceUnavailable):
        praxis.set_memory(MEMORY)
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT", now=0.0) is not None
    assert retry_after_seconds("soon") is None


def test_backoff_is_exponential_with_full_jitter() -> None:
    policy = RetryPolicy(initial_backoff=0.5, max_backoff=3.0)
    rng = random.Random(1)
    for retry, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 3.0), (9, 3.0)]:
        waits = [policy.backoff(retry, rng) for _ in range(200)]
        assert 0.0 <= min(waits) and max(waits) <= ceiling and max(waits) > ceiling / 2


def test_async_client_retries_the_same_way() -> None:
    script = Script(httpx.ConnectError("refused"), problem(503, "unavailable"), httpx.Response(201, json=ITEM))

    async def run() -> m.SetMemoryResponse:
        async with AsyncClient(
            "http://praxis.test", "prx_t", transport=httpx.MockTransport(script), retry=FAST
        ) as praxis:
            return await praxis.set_memory(MEMORY)

    assert asyncio.run(run()).memory.key == "k"
    keys = script.keys()
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1


@pytest.mark.parametrize(
    "failure",
    [
        lambda r: httpx.ReadTimeout("slow answer", request=r),
        lambda r: httpx.WriteTimeout("slow send", request=r),
        lambda r: httpx.PoolTimeout("no free connection", request=r),
        lambda r: httpx.ConnectTimeout("slow connect", request=r),
        lambda r: httpx.WriteError("broken pipe", request=r),
    ],
)
def test_timeouts_are_retried_with_the_same_key(failure: Callable[[httpx.Request], Exception]) -> None:
    request = httpx.Request("POST", "http://praxis.test")
    script = Script(failure(request), failure(request), httpx.Response(201, json=ITEM))
    assert client(script).set_memory(MEMORY).state_changed
    keys = script.keys()
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1


def test_exhausted_timeouts_raise_a_connection_error_with_the_key() -> None:
    request = httpx.Request("POST", "http://praxis.test")
    script = Script(*[httpx.ReadTimeout("slow answer", request=request)] * 4)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY, idempotency_key="caller-key-0123456789")
    error = caught.value
    assert isinstance(error.__cause__, httpx.ReadTimeout)
    assert error.attempts == 4 and error.operation_id == "set_memory"
    assert error.idempotency_key == "caller-key-0123456789" and error.may_have_applied
    assert "idempotency_key='caller-key-0123456789'" in str(error)
    # The generated key is reported too: the one every attempt carried.
    script = Script(*[httpx.ReadTimeout("slow answer", request=request)] * 4)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY)
    assert caught.value.idempotency_key is not None
    assert script.keys() == [caught.value.idempotency_key] * 4


def test_may_have_applied_is_false_only_when_no_attempt_connected() -> None:
    request = httpx.Request("POST", "http://praxis.test")
    refused = httpx.ConnectError("refused", request=request)
    slow_connect = httpx.ConnectTimeout("slow connect", request=request)
    script = Script(refused, slow_connect, refused, slow_connect)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY)
    assert not caught.value.may_have_applied and caught.value.idempotency_key is not None
    # One attempt that may have reached the server is enough.
    script = Script(refused, httpx.ReadError("reset", request=request), refused, refused)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY)
    assert caught.value.may_have_applied
    # So is an attempt the server answered (here with a 503).
    script = Script(problem(503, "unavailable"), refused, refused, refused)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).set_memory(MEMORY)
    assert caught.value.may_have_applied


def test_unkeyed_calls_report_no_key() -> None:
    request = httpx.Request("GET", "http://praxis.test")
    script = Script(*[httpx.ReadTimeout("slow answer", request=request)] * 4)
    with pytest.raises(PraxisConnectionError) as caught:
        client(script).healthz()
    assert caught.value.idempotency_key is None and caught.value.may_have_applied
    assert caught.value.attempts == 4 and script.keys() == [None] * 4


def test_any_transport_error_is_wrapped() -> None:
    request = httpx.Request("POST", "http://praxis.test")
    # Not retryable: raised at once, still as a PraxisConnectionError.
    for failure in [
        httpx.ProxyError("proxy refused", request=request),
        httpx.LocalProtocolError("bad header", request=request),
        httpx.UnsupportedProtocol("no such scheme", request=request),
    ]:
        script = Script(failure, httpx.Response(201, json=ITEM))
        with pytest.raises(PraxisConnectionError) as caught:
            client(script).set_memory(MEMORY)
        assert caught.value.__cause__ is failure and caught.value.attempts == 1
        assert len(script.requests) == 1
    # NO_RETRY sends once and wraps a retryable failure too.
    script = Script(httpx.ReadTimeout("slow answer", request=request))
    with pytest.raises(PraxisConnectionError) as caught:
        client(script, NO_RETRY).set_memory(MEMORY)
    assert caught.value.attempts == 1 and caught.value.may_have_applied


def test_async_client_wraps_timeouts_the_same_way() -> None:
    request = httpx.Request("POST", "http://praxis.test")
    script = Script(httpx.ReadTimeout("slow", request=request), httpx.WriteTimeout("slow", request=request), httpx.Response(201, json=ITEM))
    exhausted = Script(*[httpx.PoolTimeout("busy", request=request)] * 4)

    async def run(steps: Script) -> m.SetMemoryResponse:
        async with AsyncClient("http://praxis.test", "prx_t", transport=httpx.MockTransport(steps), retry=FAST) as praxis:
            return await praxis.set_memory(MEMORY, idempotency_key="async-key-0123456789")

    assert asyncio.run(run(script)).memory.key == "k"
    assert script.keys() == ["async-key-0123456789"] * 3
    with pytest.raises(PraxisConnectionError) as caught:
        asyncio.run(run(exhausted))
    assert caught.value.idempotency_key == "async-key-0123456789" and caught.value.may_have_applied
    assert caught.value.attempts == 4 and isinstance(caught.value.__cause__, httpx.PoolTimeout)


@pytest.mark.parametrize("statuses", [{429}, {503, 409}, {200}, {600}])
def test_retry_statuses_must_be_5xx(statuses: set[int]) -> None:
    with pytest.raises(ValueError, match="5xx"):
        RetryPolicy(retry_statuses=frozenset(statuses))


def test_retry_statuses_may_name_other_5xx() -> None:
    policy = RetryPolicy(retry_statuses=frozenset({502, 503, 504}))
    assert policy.retry_statuses == {502, 503, 504}
    script = Script(problem(502, "bad_gateway"), httpx.Response(201, json=ITEM))
    assert client(script, RetryPolicy(max_attempts=3, initial_backoff=0.001, retry_statuses=frozenset({502}))).set_memory(MEMORY)
    assert len(script.requests) == 2
