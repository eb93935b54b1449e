"""The clients: :class:`Client` (blocking) and :class:`AsyncClient` (asyncio)."""

from __future__ import annotations

import os
import random
import stat
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import httpx

from ._operations import _AsyncOperations, _SyncOperations
from ._transport import USER_AGENT, AsyncTransport, RetryPolicy, SyncTransport

DEFAULT_TIMEOUT = 30.0


def read_token_file(path: str | os.PathLike[str]) -> str:
    """The token held in ``path``, refused when group or others may access the file.

    This is the rule the ``praxis`` CLI applies to ``--token-file``: a
    token file whose mode grants group or others anything is refused.
    """
    file = Path(path)
    if os.name == "posix":
        mode = stat.S_IMODE(file.stat().st_mode)
        if mode & 0o077:
            raise PermissionError(
                f"token file {file} may be accessed by group or others (mode {mode:o}); chmod 600 it"
            )
    token = file.read_text(encoding="utf-8").strip()
    if not token:
        raise ValueError(f"token file {file} is empty")
    return token


def _token(token: str | None, token_file: str | os.PathLike[str] | None) -> str | None:
    if token is not None and token_file is not None:
        raise ValueError("pass token or token_file, not both")
    if token_file is not None:
        return read_token_file(token_file)
    return token


def _headers(headers: Mapping[str, str] | None) -> dict[str, str]:
    merged = {"User-Agent": USER_AGENT}
    merged.update(headers or {})
    return merged


class Client(_SyncOperations):
    """A blocking Praxis client.

    ``base_url`` is the server (``http://127.0.0.1:7878``); the credential is
    ``token`` or read from ``token_file``. ``retry`` says how retryable
    requests are retried (see :class:`RetryPolicy`); ``transport`` or
    ``http_client`` replace the HTTP layer (tests, proxies, event hooks).
    Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        token_file: str | os.PathLike[str] | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        http_client: httpx.Client | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._owns_client = http_client is None
        client = http_client or httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport)
        self._transport = SyncTransport(
            client, _token(token, token_file), retry=retry, rng=rng, headers=_headers(headers)
        )

    @property
    def http(self) -> httpx.Client:
        """The underlying ``httpx.Client``."""
        return self._transport.client

    def close(self) -> None:
        if self._owns_client:
            self._transport.client.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class AsyncClient(_AsyncOperations):
    """An asyncio Praxis client; the same operations as :class:`Client`, awaited."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        token_file: str | os.PathLike[str] | None = None,
        timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        http_client: httpx.AsyncClient | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._owns_client = http_client is None
        client = http_client or httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)
        self._transport = AsyncTransport(
            client, _token(token, token_file), retry=retry, rng=rng, headers=_headers(headers)
        )

    @property
    def http(self) -> httpx.AsyncClient:
        """The underlying ``httpx.AsyncClient``."""
        return self._transport.client

    async def aclose(self) -> None:
        if self._owns_client:
            await self._transport.client.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
