"""``urnkit.arrow`` against Rust's answers, over every string layout, chunked and not."""

from __future__ import annotations

import tracemalloc
from typing import Any, Dict, List, Optional

import pyarrow as pa
import pytest

import urnkit.arrow
from urnkit import _urnkit

from conftest import Answer, Oracle, expected, with_nulls

LAYOUTS = [pa.string(), pa.large_string(), pa.string_view()]


# Every operation of one value per row, from urnkit's table (find and repair have tests of
# their own).
OPS = {
    name: getattr(urnkit.arrow, name)
    for name, *_ in _urnkit.OPERATIONS
    if name not in ("find", "repair")
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("op", sorted(OPS))
def test_array_matches_rust(
    op: str, layout: pa.DataType, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    values = with_nulls(inputs)
    out = OPS[op](pa.array(values, type=layout))
    assert isinstance(out, pa.Array) and len(out) == len(values)
    if op not in ("is_valid", "problem"):
        assert out.type == layout
    elif op == "is_valid":
        assert out.type == pa.bool_()
    else:
        assert out.type == pa.struct([("kind", pa.string()), ("offset", pa.int64())])
    assert out.to_pylist() == expected(op, values, answers)


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
@pytest.mark.parametrize("op", sorted(OPS))
def test_chunked_keeps_its_chunks(
    op: str, layout: pa.DataType, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    values = with_nulls(inputs[:3000])
    cuts = [0, 1, 1, 500, 2999, len(values)]  # an empty chunk and a one-row chunk too
    chunks = [pa.array(values[a:b], type=layout) for a, b in zip(cuts, cuts[1:])]
    chunked = pa.chunked_array(chunks)
    out = OPS[op](chunked)
    assert isinstance(out, pa.ChunkedArray)
    assert [len(c) for c in out.chunks] == [len(c) for c in chunks]
    assert out.to_pylist() == expected(op, values, answers)


def test_empty_inputs() -> None:
    assert urnkit.arrow.key(pa.array([], type=pa.string())).to_pylist() == []
    empty = pa.chunked_array([], type=pa.large_string())
    out = urnkit.arrow.key(empty)
    assert isinstance(out, pa.ChunkedArray)
    assert out.num_chunks == 0 and out.type == pa.large_string()


def test_sliced_input(oracle: Oracle) -> None:
    array = pa.array(["nope", "URN:A1:x", None, "urn:isbn:0-395-36341-1", "x"])
    want = [oracle.answer("URN:A1:x")["key"], None, oracle.answer("urn:isbn:0-395-36341-1")["key"]]
    assert urnkit.arrow.key(array.slice(1, 3)).to_pylist() == want


def test_dictionaries_keep_their_keys() -> None:
    # The kernel urn-datafusion runs too: each distinct value computed once, the keys kept.
    values = pa.array(["URN:ISBN:0-395-36341-1", "urn:example:a b", None, "URN:ISBN:0-395-36341-1"])
    encoded = values.dictionary_encode()
    keys = urnkit.arrow.key(encoded)
    assert pa.types.is_dictionary(keys.type)
    assert keys.to_pylist() == ["urn:isbn:0395363411", None, None, "urn:isbn:0395363411"]
    assert urnkit.arrow.is_valid(encoded).to_pylist() == [True, False, None, True]
    assert urnkit.arrow.problem(encoded).to_pylist()[1] == {"kind": "invalid_char", "offset": 13}


def test_other_types_are_refused() -> None:
    with pytest.raises(TypeError, match="string, large_string or string_view"):
        urnkit.arrow.key(pa.array([1, 2]))
    with pytest.raises(TypeError, match="string, large_string or string_view"):
        urnkit.arrow.is_valid(pa.chunked_array([pa.array([b"urn:a1:x"])]))
    with pytest.raises(TypeError, match="pyarrow Array or ChunkedArray"):
        urnkit.arrow.key(["urn:a1:x"])  # type: ignore[call-overload]


def test_no_python_object_per_row() -> None:
    # 200,000 rows: a Python object per row would allocate megabytes on the Python heap.
    array = pa.array([f"URN:EXAMPLE:row-{i}%2c" for i in range(200_000)])
    urnkit.arrow.key(array)  # warm up imports and caches
    tracemalloc.start()
    for function in OPS.values():
        function(array)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 200_000, peak


def test_the_result_is_one_buffer_per_part(oracle: Oracle) -> None:
    texts = [f"URN:EXAMPLE:row-{i}%2c" for i in range(10_000)]
    array = pa.array(texts + [None])
    out = urnkit.arrow.key(array)
    validity, offsets, data = out.buffers()
    assert validity is not None and offsets is not None and data is not None
    assert out.to_pylist() == [a["key"] for a in oracle.answers(texts)] + [None]
    # The values buffer was sized once from the input (no growth by doubling).
    input_data = array.buffers()[2]
    assert input_data is not None
    assert data.size <= input_data.size * 17 // 16 + 64
