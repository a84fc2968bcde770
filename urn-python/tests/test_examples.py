"""The examples run, and say what their comments say (DuckDB UDFs, pandas, pydantic, Polars)."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path
from typing import Callable, Dict

import pandas as pd
import polars as pl
import pyarrow as pa

from conftest import PACKAGE, Oracle

sys.path.insert(0, str(PACKAGE / "examples"))

import duckdb_dedup  # noqa: E402
import pandas_check  # noqa: E402
import polars_dedup  # noqa: E402
import pydantic_model  # noqa: E402


def output_of(main: Callable[[], None]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main()
    return out.getvalue()


def test_duckdb_deduplicates_by_the_rust_key(oracle: Oracle) -> None:
    ids = ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:example:a%2c",
           "URN:EXAMPLE:a%2C#p1", "not a urn", None, "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
           "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"]
    rows = duckdb_dedup.deduplicated(duckdb_dedup.connect(), pa.table({"id": ids}))
    first: Dict[str, str] = {}
    for text in ids:
        if text is None:
            continue
        answer = oracle.answer(text)
        if answer["valid"]:
            first.setdefault(answer["key"], text)
    assert rows == list(first.items())
    assert "urn:isbn:0395363411\tURN:ISBN:0-395-36341-1" in output_of(duckdb_dedup.main)


def test_pandas_reports_bad_rows_with_offsets(oracle: Oracle) -> None:
    texts = ["URN:ISBN:0-395-36341-1", "urn:example:a b", None, "urn:x:y"]
    df = pd.DataFrame(
        {"id": pd.Series(texts, dtype=pd.ArrowDtype(pa.string()), index=[10, 11, 12, 13])}
    )
    out = pandas_check.checked(df, "id")
    assert list(out.index) == [10, 11, 12, 13]
    for text, (_, row) in zip(texts, out.iterrows()):
        if text is None:
            assert pd.isna(row["key"]) and pd.isna(row["kind"])
            continue
        answer = oracle.answer(text)
        if answer["valid"]:
            assert row["key"] == answer["key"] and pd.isna(row["kind"])
        else:
            assert (row["kind"], row["offset"]) == (answer["error"]["kind"], answer["error"]["offset"])
            assert pd.isna(row["key"])
    printed = output_of(pandas_check.main)
    assert "row 1: 'urn:example:a b': invalid_char at byte 13" in printed
    assert "row 3: 'urn:x:y': nid_length at byte 4" in printed


def test_pydantic_example() -> None:
    printed = output_of(pydantic_model.main).splitlines()
    assert printed[:3] == [
        "urn:isbn:0395363411", "True",
        '{"id":"urn:example:book:1","isbn":"URN:ISBN:0-395-36341-1","see_also":[]}',
    ]
    assert printed[3].startswith("('id',): urn_syntax invalid_char at byte 13: invalid URN:")
    assert printed[4].startswith("('isbn',): urn_namespace invalid_nss at byte 21: invalid isbn URN:")


def test_polars_example(oracle: Oracle) -> None:
    ids = ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "nope", None, "urn:example:a%2c",
           "URN:EXAMPLE:a%2C#p1", "urn:example:a b", "urn:isbn:0-395-36341-1#p9"]
    df = pl.LazyFrame({"id": ids}, schema={"id": pl.String})
    answers = [None if t is None else oracle.answer(t) for t in ids]
    first: Dict[str, str] = {}
    bad = []
    for row, (text, answer) in enumerate(zip(ids, answers)):
        if text is None or answer is None:
            continue
        if answer["valid"]:
            first.setdefault(answer["key"], text)
        else:
            bad.append({"row": row, "id": text, "kind": answer["error"]["kind"],
                        "offset": answer["error"]["offset"]})
    unique = polars_dedup.deduplicated(df).collect()
    assert list(zip(unique["key"], unique["id"])) == list(first.items())
    assert polars_dedup.bad_rows(df).collect().to_dicts() == bad
    assert "invalid_char" in output_of(polars_dedup.main)


def test_examples_are_files() -> None:
    names = sorted(p.name for p in (PACKAGE / "examples").glob("*.py"))
    # spark_dedup.py runs on test_spark.py's cluster.
    assert names == ["duckdb_dedup.py", "pandas_check.py", "polars_dedup.py", "pydantic_model.py",
                     "spark_dedup.py"]
    assert Path(duckdb_dedup.__file__).parent == PACKAGE / "examples"
