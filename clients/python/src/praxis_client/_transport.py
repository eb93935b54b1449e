"""HTTP transport: authentication, bodies, problem documents and retries.

Retry rules
-----------
Every operation has a retry class, taken from the OpenAPI document by the
generator:

``keyed``
    A write that accepts an ``Idempotency-Key``. The transport always sends
    one (the caller's ``idempotency_key`` or a fresh UUID4 per logical
    call) and sends the same key on every retry. The server stores the
    answer with the write and replays it, so a retried write is applied at
    most once.
``safe``
    A ``GET``, or a ``POST`` that only reads or is idempotent by the state it
    acts on (``assess``, ``memory/get``, ``proposals/{id}/approve`` …):
    sent again as it is.
``never``
    Sent once (no operation of the current document is in this class).

A retryable request is retried on 503 and on transport failures (refused,
reset, read or write error, a broken response, a connect, read, write or
pool timeout), with exponential backoff and full jitter, bounded by
:attr:`RetryPolicy.max_attempts` and :attr:`RetryPolicy.max_elapsed`;
``Retry-After`` is honoured. No 4xx and no other 5xx is ever retried.

Retrying a read or write timeout is safe: a keyed write is sent again with
the same ``Idempotency-Key`` (applied at most once, the stored answer
replayed), and the other retryable calls only read or are idempotent by the
state they act on.

When retrying does not help (attempts or time exhausted, or the call is not
retryable), every ``httpx.TransportError`` is raised as a
:class:`~praxis_client.errors.PraxisConnectionError` carrying the
``idempotency_key`` the call used and ``may_have_applied``.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from .errors import PraxisConnectionError, error_for

RetryClass = Literal["keyed", "safe", "never"]

#: Transport failures after which a retryable request is sent again.
RETRYABLE_ERRORS: tuple[type[Exception], ...] = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.ReadError,
    httpx.WriteError,
    httpx.ReadTimeout,
    httpx.WriteTimeout,
    httpx.PoolTimeout,
    httpx.RemoteProtocolError,
)

#: Transport failures that prove the request was not sent: no connection
#: was made, so the server cannot have applied it.
NOT_SENT_ERRORS: tuple[type[Exception], ...] = (httpx.ConnectError, httpx.ConnectTimeout)

USER_AGENT = "praxis-client-python/0.1"


@dataclass(frozen=True)
class RetryPolicy:
    """How retryable requests are retried.

    The n-th retry waits a uniformly random time in
    ``[0, min(max_backoff, initial_backoff * 2**(n-1))]`` (full jitter), or
    exactly what ``Retry-After`` asks when the server sends it. Retrying
    stops after ``max_attempts`` sends in all, or when the next wait would
    end later than ``max_elapsed`` seconds after the first send.

    ``retry_statuses`` are the answers retried (503 by default); they must
    be 5xx statuses (a :class:`ValueError` otherwise), since a 4xx is a
    refusal that sending the same request again cannot change.
    """

    max_attempts: int = 5
    initial_backoff: float = 0.2
    max_backoff: float = 5.0
    max_elapsed: float = 30.0
    retry_statuses: frozenset[int] = field(default_factory=lambda: frozenset({503}))

    def __post_init__(self) -> None:
        # A 4xx is a refusal: sending the same request again cannot help, and
        # other 2xx-4xx codes are not failures at all. Only 5xx may be retried.
        bad = sorted((s for s in self.retry_statuses if not (isinstance(s, int) and 500 <= s <= 599)), key=str)
        if bad:
            raise ValueError(f"retry_statuses may hold only 5xx statuses, not {bad}")
        object.__setattr__(self, "retry_statuses", frozenset(self.retry_statuses))

    def backoff(self, retry: int, rng: random.Random) -> float:
        """The jittered wait before the ``retry``-th retry (1-based)."""
        ceiling = min(self.max_backoff, self.initial_backoff * (2 ** max(0, retry - 1)))
        return rng.uniform(0.0, ceiling)


#: A policy that never retries.
NO_RETRY = RetryPolicy(max_attempts=1)


@dataclass
class Call:
    """One logical call of an operation."""

    operation_id: str
    method: str
    path: str
    path_params: Mapping[str, Any] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    body: BaseModel | Mapping[str, Any] | None = None
    retry: RetryClass = "never"
    idempotency_key: str | None = None
    expect: Literal["json", "text"] = "json"


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def encode_body(body: BaseModel | Mapping[str, Any] | None) -> bytes | None:
    """The JSON bytes of a body: a model as set, a mapping as given."""
    if body is None:
        return None
    if isinstance(body, BaseModel):
        data: Any = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
    else:
        data = dict(body)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` as seconds from now: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


@dataclass
class Prepared:
    """A call turned into one HTTP request, sent the same on every attempt."""

    call: Call
    method: str
    url: str
    params: httpx.QueryParams
    headers: dict[str, str]
    content: bytes | None


class _TransportBase:
    def __init__(
        self,
        token: str | None,
        retry: RetryPolicy,
        rng: random.Random | None,
        headers: Mapping[str, str] | None,
    ) -> None:
        self.retry = retry
        self._token = token
        self._rng = rng or random.Random()
        self._headers = dict(headers or {})

    def prepare(self, call: Call) -> Prepared:
        path = call.path
        for name, value in call.path_params.items():
            path = path.replace("{" + name + "}", quote(str(value), safe=""))
        params = httpx.QueryParams({k: _query_value(v) for k, v in call.query.items() if v is not None})
        headers = {"Accept": "application/json, application/problem+json;q=0.9, */*;q=0.1"}
        headers.update(self._headers)
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        content = encode_body(call.body)
        if content is not None:
            headers["Content-Type"] = "application/json"
        if call.retry == "keyed":
            # One key per logical call, generated here once and reused by
            # every attempt below.
            headers["Idempotency-Key"] = call.idempotency_key or str(uuid.uuid4())
        elif call.idempotency_key is not None:
            headers["Idempotency-Key"] = call.idempotency_key
        return Prepared(call, call.method, path, params, headers, content)

    def wait_before_retry(self, call: Call, attempt: int, started: float, retry_after: float | None) -> float | None:
        """Seconds to wait before sending again, or None to give up."""
        if call.retry == "never" or attempt >= self.retry.max_attempts:
            return None
        if retry_after is not None:
            delay = retry_after
        else:
            delay = self.retry.backoff(attempt, self._rng)
        if time.monotonic() + delay - started > self.retry.max_elapsed:
            return None
        return delay

    def finish(self, prepared: Prepared, response: httpx.Response) -> Any:
        if not response.is_success:
            raise error_for(response, prepared.call.operation_id)
        if prepared.call.expect == "text":
            return response.text
        if not response.content:
            return {}
        return response.json()

    def retryable(self, exc: httpx.TransportError) -> bool:
        """Whether a transport failure may be followed by another send."""
        return isinstance(exc, RETRYABLE_ERRORS)

    def give_up(
        self, prepared: Prepared, attempts: int, exc: httpx.TransportError, may_have_applied: bool
    ) -> PraxisConnectionError:
        key = prepared.headers.get("Idempotency-Key")
        message = (
            f"{prepared.call.operation_id}: {prepared.method} {prepared.url} failed after "
            f"{attempts} attempt(s): {type(exc).__name__}: {exc}"
        )
        if may_have_applied and key is not None:
            message += f" (it may have been applied; send it again with idempotency_key={key!r})"
        elif may_have_applied:
            message += " (it may have reached the server)"
        else:
            message += " (it never reached the server)"
        return PraxisConnectionError(
            message,
            operation_id=prepared.call.operation_id,
            attempts=attempts,
            idempotency_key=key,
            may_have_applied=may_have_applied,
        )


class SyncTransport(_TransportBase):
    """Sends calls with an ``httpx.Client``."""

    def __init__(
        self,
        client: httpx.Client,
        token: str | None,
        *,
        retry: RetryPolicy | None = None,
        rng: random.Random | None = None,
        headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(token, retry or RetryPolicy(), rng, headers)
        self.client = client
        self._sleep = sleep

    def call(self, call: Call) -> Any:
        prepared = self.prepare(call)
        started = time.monotonic()
        attempt = 0
        # False while every attempt failed before a connection was made.
        may_have_applied = False
        while True:
            attempt += 1
            try:
                response = self.client.request(
                    prepared.method,
                    prepared.url,
                    params=prepared.params,
                    headers=prepared.headers,
                    content=prepared.content,
                )
            except httpx.TransportError as exc:
                if not isinstance(exc, NOT_SENT_ERRORS):
                    may_have_applied = True
                delay = self.wait_before_retry(call, attempt, started, None) if self.retryable(exc) else None
                if delay is None:
                    raise self.give_up(prepared, attempt, exc, may_have_applied) from exc
                self._sleep(delay)
                continue
            may_have_applied = True
            if response.status_code in self.retry.retry_statuses:
                retry_after = retry_after_seconds(response.headers.get("retry-after"))
                delay = self.wait_before_retry(call, attempt, started, retry_after)
                if delay is not None:
                    response.close()
                    self._sleep(delay)
                    continue
            return self.finish(prepared, response)


class AsyncTransport(_TransportBase):
    """Sends calls with an ``httpx.AsyncClient``."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        token: str | None,
        *,
        retry: RetryPolicy | None = None,
        rng: random.Random | None = None,
        headers: Mapping[str, str] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(token, retry or RetryPolicy(), rng, headers)
        self.client = client
        self._sleep = sleep

    async def call(self, call: Call) -> Any:
        prepared = self.prepare(call)
        started = time.monotonic()
        attempt = 0
        # False while every attempt failed before a connection was made.
        may_have_applied = False
        while True:
            attempt += 1
            try:
                response = await self.client.request(
                    prepared.method,
                    prepared.url,
                    params=prepared.params,
                    headers=prepared.headers,
                    content=prepared.content,
                )
            except httpx.TransportError as exc:
                if not isinstance(exc, NOT_SENT_ERRORS):
                    may_have_applied = True
                delay = self.wait_before_retry(call, attempt, started, None) if self.retryable(exc) else None
                if delay is None:
                    raise self.give_up(prepared, attempt, exc, may_have_applied) from exc
                await self._sleep(delay)
                continue
            may_have_applied = True
            if response.status_code in self.retry.retry_statuses:
                retry_after = retry_after_seconds(response.headers.get("retry-after"))
                delay = self.wait_before_retry(call, attempt, started, retry_after)
                if delay is not None:
                    await response.aclose()
                    await self._sleep(delay)
                    continue
            return self.finish(prepared, response)
