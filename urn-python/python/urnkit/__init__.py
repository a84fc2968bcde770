"""urnkit: RFC 8141 URNs with the urn workspace's Rust parser and canonical keys.

>>> import urnkit
>>> urnkit.key("URN:ISBN:0-395-36341-1")
'urn:isbn:0395363411'
>>> urnkit.Urn("urn:isbn:0395363411") == urnkit.parse("URN:ISBN:0-395-36341-1")
True

``urnkit.arrow`` (pyarrow), ``urnkit.polars`` (Polars) and ``urnkit.spark`` hold the columnar
functions; the classes are pydantic v2 field types when pydantic is installed.
"""

from __future__ import annotations

from ._errors import UrnError
# BEGIN GENERATED (imports: tests/test_generated.py)
from ._urnkit import (
    DoiUrn,
    ExampleUrn,
    IetfUrn,
    IsbnUrn,
    IssnUrn,
    LeiUrn,
    LexUrn,
    MpegUrn,
    NbnUrn,
    OgcUrn,
    OidUrn,
    Urn,
    UuidUrn,
    __version__,
    find,
    is_valid,
    key,
    parse,
    repair,
)
# END GENERATED

# BEGIN GENERATED (__all__: tests/test_generated.py)
__all__ = [
    "DoiUrn",
    "ExampleUrn",
    "IetfUrn",
    "IsbnUrn",
    "IssnUrn",
    "LeiUrn",
    "LexUrn",
    "MpegUrn",
    "NbnUrn",
    "OgcUrn",
    "OidUrn",
    "Urn",
    "UrnError",
    "UuidUrn",
    "__version__",
    "find",
    "is_valid",
    "key",
    "parse",
    "repair",
]
# END GENERATED
