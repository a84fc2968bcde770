"""pydantic v2 support for ``Urn`` and the typed classes (called by their
``__get_pydantic_core_schema__`` / ``__get_pydantic_json_schema__``, defined in Rust).

A field validates from ``str`` (or an instance), serializes to the verbatim text in JSON (the
instance in Python mode, as pydantic does for ``UUID``), and has the JSON Schema urn-schema
generates (``schemas/*.schema.json`` without ``$schema``). An error is a
``PydanticCustomError`` of type ``urn_syntax`` (not a URN) or ``urn_namespace`` (a typed field
given another namespace or an NSS that breaks the namespace's rules); its context holds the
Rust ``kind``, the byte ``offset`` and the ``message``; pydantic adds the field's location.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Dict, Type

from pydantic_core import PydanticCustomError
from pydantic_core import core_schema as cs

from ._errors import UrnError
from ._urnkit import INVALID_NSS, WRONG_NAMESPACE, Urn, json_schema as _json_schema

_NAMESPACE_KINDS = (WRONG_NAMESPACE, INVALID_NSS)


def _validator(cls: Type[Urn]) -> Callable[[Any], Urn]:
    def validate(value: Any) -> Urn:
        if isinstance(value, cls):
            return value
        if isinstance(value, Urn):  # another class: checked as the field's class
            value = str(value)
        if not isinstance(value, str):
            raise PydanticCustomError(
                "urn_type", "a URN must be given as a string, not {type}",
                {"type": type(value).__name__},
            )
        try:
            return cls(value)
        except UrnError as e:
            error_type = "urn_namespace" if e.kind in _NAMESPACE_KINDS else "urn_syntax"
            raise PydanticCustomError(
                error_type, "{message}", {"kind": e.kind, "offset": e.offset, "message": str(e)}
            ) from None

    return validate


def core_schema(cls: Type[Urn], source: Any, handler: Any) -> cs.CoreSchema:
    """The pydantic-core schema of a field of type ``cls``."""
    return cs.no_info_plain_validator_function(
        _validator(cls),
        serialization=cs.plain_serializer_function_ser_schema(
            str, when_used="json-unless-none"
        ),
    )


_SCHEMAS: Dict[Any, Dict[str, Any]] = {}


def json_schema(cls: Type[Urn], schema: Any, handler: Any) -> Dict[str, Any]:
    """The JSON Schema urn-schema generates for ``cls`` (without ``$schema``)."""
    nid = cls.NID
    cached = _SCHEMAS.get(nid)
    if cached is None:
        cached = json.loads(_json_schema(nid))
        cached.pop("$schema", None)
        _SCHEMAS[nid] = cached
    return dict(cached)
