"""Base classes of the generated models."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class PraxisModel(BaseModel):
    """Common behaviour of every model.

    A body is serialised with only the fields that were set (so an optional
    field left out stays out, and one set to ``None`` is sent as ``null``),
    plus the fields the document requires that have a fixed or null default
    (``contract_version``, a variant's ``kind``, a required nullable field),
    which are always sent.
    """

    model_config = ConfigDict(populate_by_name=True)

    # Field names that are always serialised even when left at their default.
    _praxis_always: ClassVar[frozenset[str]] = frozenset()

    def model_post_init(self, context: Any, /) -> None:
        if self._praxis_always:
            self.__pydantic_fields_set__.update(self._praxis_always)

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON object this model is sent as."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class RequestModel(PraxisModel):
    """A model only ever sent to the server: unknown fields are refused early."""

    model_config = ConfigDict(populate_by_name=True, extra="forbid")


class ResponseModel(PraxisModel):
    """A model the server sends: fields this client does not know are kept.

    A newer server may add fields; they stay reachable as attributes and in
    ``model_extra`` instead of breaking an older client.
    """

    model_config = ConfigDict(populate_by_name=True, extra="allow")
