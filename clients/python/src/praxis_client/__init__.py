"""Python client of the Praxis REST API.

>>> from praxis_client import Client
>>> with Client("http://127.0.0.1:7878", token_file="bot-token") as praxis:
...     praxis.healthz().status
"""

from . import models
from ._transport import NO_RETRY, RETRYABLE_ERRORS, RetryPolicy
from .client import AsyncClient, Client, read_token_file
from .errors import (
    BadRequest,
    ClientError,
    Conflict,
    Forbidden,
    InsufficientStorage,
    NotFound,
    PayloadTooLarge,
    PraxisClientError,
    PraxisConnectionError,
    PraxisError,
    ServerError,
    ServiceUnavailable,
    Unauthorized,
    UnprocessableEntity,
)

__version__ = "0.1.0"

__all__ = [
    "NO_RETRY",
    "RETRYABLE_ERRORS",
    "AsyncClient",
    "BadRequest",
    "Client",
    "ClientError",
    "Conflict",
    "Forbidden",
    "InsufficientStorage",
    "NotFound",
    "PayloadTooLarge",
    "PraxisClientError",
    "PraxisConnectionError",
    "PraxisError",
    "RetryPolicy",
    "ServerError",
    "ServiceUnavailable",
    "Unauthorized",
    "UnprocessableEntity",
    "models",
    "read_token_file",
]
