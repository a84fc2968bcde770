"""The URN functions over Arrow string columns (pyarrow).

Each takes a ``pyarrow.Array`` or ``pyarrow.ChunkedArray`` (or any object exporting the Arrow
C Data Interface) of ``string``, ``large_string``, ``string_view`` or their dictionaries, reads
it without copying, and returns the same kind of object (a chunked array keeps its chunks). A
null stays null; an invalid URN gives a null ``key``, ``nid`` and ``nss``. The work runs in
Rust, without the GIL and without a Python object per row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union, overload

from . import _urnkit

if TYPE_CHECKING:
    import pyarrow as pa

    Array = pa.Array[Any]
    ChunkedArray = pa.ChunkedArray[Any]
else:
    # Defined at run time too: DuckDB's create_function (and typing.get_type_hints) evaluate
    # the annotations.
    try:
        from pyarrow import Array, ChunkedArray
    except ImportError:  # without pyarrow: any Arrow C Data Interface object
        Array = ChunkedArray = Any

def _run(operation: str, values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    if hasattr(values, "__arrow_c_array__"):
        return _urnkit.arrow_array(operation, values)  # type: ignore[no-any-return]
    if hasattr(values, "__arrow_c_stream__"):
        return _urnkit.arrow_chunked(operation, values)  # type: ignore[no-any-return]
    raise TypeError(
        f"urnkit.arrow.{operation}() takes a pyarrow Array or ChunkedArray, "
        f"not {type(values).__name__}"
    )


# BEGIN GENERATED (functions: tests/test_generated.py)
__all__ = ["check", "find", "is_valid", "key", "key_v1", "key_v2", "nid", "nss", "problem", "repair", "rfc8141_key"]


@overload
def key(values: ChunkedArray) -> ChunkedArray: ...
@overload
def key(values: Array) -> Array: ...
def key(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The canonical key (the current rules, V2), null for an invalid URN."""
    return _run("key", values)


@overload
def key_v1(values: ChunkedArray) -> ChunkedArray: ...
@overload
def key_v1(values: Array) -> Array: ...
def key_v1(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The key under the V1 rules (a table keyed by them holds it), null for an invalid URN."""
    return _run("key_v1", values)


@overload
def key_v2(values: ChunkedArray) -> ChunkedArray: ...
@overload
def key_v2(values: Array) -> Array: ...
def key_v2(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The key under the V2 rules (a table keyed by them holds it), null for an invalid URN."""
    return _run("key_v2", values)


@overload
def rfc8141_key(values: ChunkedArray) -> ChunkedArray: ...
@overload
def rfc8141_key(values: Array) -> Array: ...
def rfc8141_key(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The RFC 8141 section 3 key alone (no namespace rules), null for an invalid URN."""
    return _run("rfc8141_key", values)


@overload
def nid(values: ChunkedArray) -> ChunkedArray: ...
@overload
def nid(values: Array) -> Array: ...
def nid(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The NID as written, null for an invalid URN."""
    return _run("nid", values)


@overload
def nss(values: ChunkedArray) -> ChunkedArray: ...
@overload
def nss(values: Array) -> Array: ...
def nss(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The NSS as written (percent-encoding kept), null for an invalid URN."""
    return _run("nss", values)


@overload
def is_valid(values: ChunkedArray) -> ChunkedArray: ...
@overload
def is_valid(values: Array) -> Array: ...
def is_valid(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """Whether the value is a URN (RFC 8141)."""
    return _run("is_valid", values)


@overload
def check(values: ChunkedArray) -> ChunkedArray: ...
@overload
def check(values: Array) -> Array: ...
def check(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """Why the value is not a URN: the parser's message, null for a valid URN."""
    return _run("check", values)


@overload
def problem(values: ChunkedArray) -> ChunkedArray: ...
@overload
def problem(values: Array) -> Array: ...
def problem(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """Why the value is not a URN: struct{kind: str, offset: i64} (the rule's name and its byte), null for a valid URN."""
    return _run("problem", values)


@overload
def find(values: ChunkedArray) -> ChunkedArray: ...
@overload
def find(values: Array) -> Array: ...
def find(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
    return _run("find", values)


@overload
def repair(values: ChunkedArray) -> ChunkedArray: ...
@overload
def repair(values: Array) -> Array: ...
def repair(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:
    """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
    return _run("repair", values)
# END GENERATED
