"""Errors the client raises.

Every answer outside 2xx is an RFC 9457 problem document
(``application/problem+json``) carrying ``type``, ``title``, ``status``,
``detail`` and a stable ``code``, often the ``field`` to blame and sometimes
more (``current_revision``, ``errors``, …). It is raised as a
:class:`PraxisError`, or the subclass for its status.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import httpx


class PraxisClientError(Exception):
    """Base of every error this package raises."""


class PraxisConnectionError(PraxisClientError):
    """No answer came back: the transport failed, and retrying did not help.

    Raised for every ``httpx.TransportError`` (refused, reset, a connect,
    read, write or pool timeout, a broken response…) once the retries are
    exhausted, or at once for a call that is not retried. The underlying
    ``httpx`` error is the ``__cause__``.

    ``attempts``
        How many times the request was sent (or tried to be).
    ``idempotency_key``
        The ``Idempotency-Key`` the call sent on every attempt (the caller's
        or the one the client generated), or ``None`` for a call that sends
        none (reads and the other unkeyed calls).
    ``may_have_applied``
        ``False`` only when every attempt failed to connect (a connect error
        or connect timeout), so the server never saw the request; otherwise
        ``True``: the server may have applied the write and lost the answer.
        To find out, send the same call again with
        ``idempotency_key=error.idempotency_key``: the server applies it at
        most once and replays the stored answer if it already did.
    """

    def __init__(
        self,
        message: str,
        *,
        operation_id: str,
        attempts: int,
        idempotency_key: str | None = None,
        may_have_applied: bool = True,
    ) -> None:
        super().__init__(message)
        self.operation_id = operation_id
        self.attempts = attempts
        self.idempotency_key = idempotency_key
        self.may_have_applied = may_have_applied


class PraxisError(PraxisClientError):
    """The server answered with a problem document (any status outside 2xx)."""

    def __init__(
        self,
        *,
        status: int,
        problem: Mapping[str, Any],
        headers: Mapping[str, str] | None = None,
        operation_id: str | None = None,
    ) -> None:
        self.status: int = status
        self.problem: dict[str, Any] = dict(problem)
        self.headers: dict[str, str] = dict(headers or {})
        self.operation_id = operation_id
        code = self.problem.get("code")
        self.code: str = code if isinstance(code, str) else f"http_{status}"
        self.title: str | None = _text(self.problem.get("title"))
        self.detail: str | None = _text(self.problem.get("detail"))
        self.field: str | None = _text(self.problem.get("field"))
        self.type: str | None = _text(self.problem.get("type"))
        super().__init__(self._message())

    @property
    def current_revision(self) -> Any:
        """The current revision a compare-and-set conflict names, if any."""
        return self.problem.get("current_revision")

    @property
    def replayed(self) -> bool:
        """Whether this answer is a stored one replayed for an Idempotency-Key."""
        return self.headers.get("idempotent-replayed", "").lower() == "true"

    def _message(self) -> str:
        text = f"{self.status} {self.code}"
        if self.detail:
            text += f": {self.detail}"
        elif self.title:
            text += f": {self.title}"
        if self.field:
            text += f" (field {self.field})"
        if self.operation_id:
            text = f"{self.operation_id}: {text}"
        return text


class ClientError(PraxisError):
    """A 4xx answer: the request was refused; sending it again will not help."""


class BadRequest(ClientError):
    """400: a malformed request, cursor or Idempotency-Key."""


class Unauthorized(ClientError):
    """401: a missing, malformed, revoked or expired credential."""


class Forbidden(ClientError):
    """403: the credential lacks the capability or the scope grant."""


class NotFound(ClientError):
    """404: nothing under that name in this tenant (or this subject's private scope)."""


class Conflict(ClientError):
    """409: a conflicting state (identity, revision, Idempotency-Key reused…)."""


class PayloadTooLarge(ClientError):
    """413: the body is over the limit."""


class UnprocessableEntity(ClientError):
    """422: a field breaks a rule; ``field`` names it."""


class ServerError(PraxisError):
    """A 5xx answer."""


class ServiceUnavailable(ServerError):
    """503: the store is unavailable for now (retried by the client first)."""


class InsufficientStorage(ServerError):
    """507: a bounded collection is full."""


_BY_STATUS: dict[int, type[PraxisError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: UnprocessableEntity,
    503: ServiceUnavailable,
    507: InsufficientStorage,
}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def error_for(response: httpx.Response, operation_id: str | None = None) -> PraxisError:
    """The exception for a non-2xx ``response`` (its body already read)."""
    status = response.status_code
    problem: dict[str, Any] | None = None
    try:
        decoded = json.loads(response.content) if response.content else None
    except ValueError:
        decoded = None
    if isinstance(decoded, dict):
        problem = decoded
    if problem is None:
        # Hyper answers some malformed heads with a bare status and no body.
        problem = {
            "status": status,
            "title": response.reason_phrase or f"HTTP {status}",
            "detail": response.text[:500] if response.content else None,
        }
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ClientError if 400 <= status < 500 else ServerError if status >= 500 else PraxisError
    return cls(status=status, problem=problem, headers=dict(response.headers), operation_id=operation_id)
