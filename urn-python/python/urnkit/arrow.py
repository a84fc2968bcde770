"""The URN functions over Arrow string columns (pyarrow).

Each takes a ``pyarrow.Array`` or ``pyarrow.ChunkedArray`` (or any object exporting the Arrow
C Data Interface) of ``string``, ``large_string`` or ``string_view``, reads it without
copying, and returns the same kind of object (a chunked array keeps its chunks). A null stays
null; an invalid URN gives a null ``key``, ``nid`` and ``nss``. The work runs in Rust, without
the GIL and without a Python object per row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union, overload

from . import _urnkit

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["check", "is_valid", "key", "nid", "nss"]


def _run(operation: str, values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    if hasattr(values, "__arrow_c_array__"):
        return _urnkit.arrow_array(operation, values)  # type: ignore[no-any-return]
    if hasattr(values, "__arrow_c_stream__"):
        return _urnkit.arrow_chunked(operation, values)  # type: ignore[no-any-return]
    raise TypeError(
        f"urnkit.arrow.{operation}() takes a pyarrow Array or ChunkedArray, "
        f"not {type(values).__name__}"
    )


@overload
def key(values: "pa.ChunkedArray") -> "pa.ChunkedArray": ...
@overload
def key(values: "pa.Array") -> "pa.Array": ...
def key(values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    """The canonical key of each value (rules V1), null for an invalid URN; same string type."""
    return _run("key", values)


@overload
def is_valid(values: "pa.ChunkedArray") -> "pa.ChunkedArray": ...
@overload
def is_valid(values: "pa.Array") -> "pa.Array": ...
def is_valid(values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    """Whether each value is a URN (RFC 8141), as ``bool``."""
    return _run("is_valid", values)


@overload
def nid(values: "pa.ChunkedArray") -> "pa.ChunkedArray": ...
@overload
def nid(values: "pa.Array") -> "pa.Array": ...
def nid(values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    """The NID of each value as written, null for an invalid URN."""
    return _run("nid", values)


@overload
def nss(values: "pa.ChunkedArray") -> "pa.ChunkedArray": ...
@overload
def nss(values: "pa.Array") -> "pa.Array": ...
def nss(values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    """The NSS of each value as written, null for an invalid URN."""
    return _run("nss", values)


@overload
def check(values: "pa.ChunkedArray") -> "pa.ChunkedArray": ...
@overload
def check(values: "pa.Array") -> "pa.Array": ...
def check(values: Union["pa.Array", "pa.ChunkedArray"]) -> Union["pa.Array", "pa.ChunkedArray"]:
    """Why each value is not a URN: ``struct<kind: string, offset: int64>`` (the Rust error
    kind in snake_case and the byte offset), null for a valid URN and for a null."""
    return _run("check", values)
