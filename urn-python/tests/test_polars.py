"""``urnkit.polars`` (the expression plugin) against Rust's answers: eager, lazy, streaming."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Union

import polars as pl
import pytest

import urnkit.polars
from urnkit import _urnkit

from conftest import Answer
from conftest import expected, with_nulls

# Every operation of one value per row, from urnkit's table (find and repair have tests of
# their own): the namespace's method and the module's function of each.
NAMES = [name for name, *_ in _urnkit.OPERATIONS if name not in ("find", "repair")]

NAMESPACE: Dict[str, Callable[[pl.Expr], pl.Expr]] = {
    name: (lambda n: lambda e: getattr(e.urn, n)())(name) for name in NAMES
}

FUNCTIONS: Dict[str, Callable[[Union[pl.Expr, str]], pl.Expr]] = {
    name: getattr(urnkit.polars, name) for name in NAMES
}

DTYPES: Dict[str, Any] = {
    **{name: pl.String for name in NAMES},
    "is_valid": pl.Boolean,
    "problem": pl.Struct({"kind": pl.String, "offset": pl.Int64}),
}


def frame(values: List[Optional[str]]) -> pl.DataFrame:
    return pl.DataFrame({"id": values}, schema={"id": pl.String})


@pytest.mark.parametrize("mode", ["eager", "lazy", "streaming"])
@pytest.mark.parametrize("op", sorted(NAMESPACE))
def test_expression_matches_rust(
    op: str, mode: str, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    values = with_nulls(inputs)
    expr = NAMESPACE[op](pl.col("id")).alias("out")
    df = frame(values)
    if mode == "eager":
        out = df.select(expr)
    elif mode == "lazy":
        out = df.lazy().select(expr).collect()
    else:
        out = df.lazy().select(expr).collect(engine="streaming")
    assert out.schema["out"] == DTYPES[op]
    assert out["out"].to_list() == expected(op, values, answers)


@pytest.mark.parametrize("op", sorted(FUNCTIONS))
def test_functions_take_names_and_keep_chunks(
    op: str, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    values = with_nulls(inputs[:2000])
    parts = [frame(values[:3]), frame(values[3:1000]), frame(values[1000:])]
    df = pl.concat(parts, rechunk=False)
    assert df.n_chunks() == 3
    out = df.select(FUNCTIONS[op]("id"))
    assert out.columns == ["id"]
    assert out["id"].to_list() == expected(op, values, answers)


def test_dedup_and_filter_in_one_query() -> None:
    df = pl.DataFrame({"id": ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "nope", None,
                              "urn:example:a?b", "urn:example:x"]})
    q = (
        df.lazy()
        .filter(pl.col("id").urn.is_valid())  # type: ignore[attr-defined]
        .with_columns(key=pl.col("id").urn.key())  # type: ignore[attr-defined]
        .unique("key", keep="first", maintain_order=True)
    )
    assert q.collect()["id"].to_list() == ["URN:ISBN:0-395-36341-1", "urn:example:x"]
    bad = df.with_columns(problem=urnkit.polars.problem("id")).filter(pl.col("problem").is_not_null())
    assert bad["problem"].to_list() == [
        {"kind": "scheme", "offset": 0},
        {"kind": "bare_question_mark", "offset": 13},
    ]


def test_other_dtypes_are_refused() -> None:
    with pytest.raises(pl.exceptions.PolarsError):
        pl.DataFrame({"n": [1, 2]}).select(urnkit.polars.key("n"))
