"""The URN functions for Apache Spark (PySpark 4.1 or later; ``pip install 'urnkit[spark]'``).

Column functions for every operation of urnkit's table (the names of ``urnkit.arrow``), the
same functions as Spark SQL functions (:func:`register`: the names every other engine's SQL
uses, ``urn_key``, ``urn_key_v1``, ``urn_check``, …) and :func:`dedup`::

    import urnkit.spark as urn_spark

    df.withColumn("key", urn_spark.key("id"))
    urn_spark.register(spark)  # SELECT urn_key(id), try_urn_nid(id) FROM records
    urn_spark.dedup(df, "id")  # one row per URN

Each is an Arrow UDF (``pyspark.sql.functions.arrow_udf``): Spark hands the Python worker a
batch as a pyarrow array and urnkit's Rust kernel computes the whole batch (no Python object
per row); the result types are the kernel's. A null stays null. A value that is not a URN
gives a null ``key``, ``nid`` and ``nss`` (``problem`` says why) and never fails the job;
with ``strict=True`` those functions fail the task instead, with a ``ValueError`` naming the
value, the rule it breaks and the byte. The executors' Python needs urnkit installed (as every
Python UDF needs its modules).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, List, Optional, Sequence, Union

import pyarrow as pa
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.pandas.functions import arrow_udf
from pyspark.sql.pandas.types import from_arrow_type
from pyspark.sql.types import ArrayType, DataType, StructField, StructType

from . import _urnkit

ColumnOrName = Union[Column, str]

_NAMES = frozenset(name for name, *_ in _urnkit.OPERATIONS)


def _batch(operation: str, strict: bool) -> Callable[[pa.Array[Any]], pa.Array[Any]]:
    """What an executor runs on each batch: ``operation`` over the whole array."""

    def run(values: pa.Array[Any]) -> pa.Array[Any]:
        return _urnkit.arrow_array(operation, values, None, strict)  # type: ignore[no-any-return]

    run.__name__ = run.__qualname__ = operation
    # What arrow_udf reads to choose an Array-to-Array UDF (the annotations above are strings).
    run.__annotations__ = {"values": pa.Array, "return": pa.Array}
    return run


@functools.lru_cache(maxsize=None)
def udf(operation: str, strict: bool = False) -> Any:
    """The Arrow UDF computing ``operation`` (a name of ``_urnkit.OPERATIONS``: ``key``,
    ``key_v1``, ``find``…), failing on a value that is not a URN when ``strict``; its Spark
    return type is the kernel's Arrow type for a string column."""
    if operation not in _NAMES:
        raise ValueError(f"no operation {operation!r}; there are {sorted(_NAMES)}")
    empty = _urnkit.arrow_array(operation, pa.array([], type=pa.string()))
    # PySpark's stubs still ask for functionType, which its run time warns against (the type
    # hints choose the kind of UDF since 4.1).
    return arrow_udf(  # type: ignore[call-overload]
        _batch(operation, strict), _nullable(from_arrow_type(empty.type))
    )


def _nullable(t: DataType) -> DataType:
    """``t`` with every field and element nullable: a null row of a struct holds nulls in
    fields the kernel declares non-null, which Spark's Arrow export (``toArrow``) refuses."""
    if isinstance(t, StructType):
        return StructType([StructField(f.name, _nullable(f.dataType), True) for f in t.fields])
    if isinstance(t, ArrayType):
        return ArrayType(_nullable(t.elementType), True)
    return t


def _call(operation: str, col: ColumnOrName, strict: bool = False) -> Column:
    return udf(operation, strict)(col)  # type: ignore[no-any-return]


def register(spark: SparkSession) -> List[str]:
    """Makes every operation a Spark SQL function of ``spark`` and returns their names: the
    SQL name of each operation (``urn_key``, ``urn_valid``, ``urn_find``…), which fails on a
    value that is not a URN where the operation needs one, and for those the ``try_`` form
    (``try_urn_key``), which gives null, as in the other engines' SQL."""
    names: List[str] = []
    for name, _doc, sql_name, try_sql_name in _urnkit.OPERATIONS:
        spark.udf.register(sql_name, udf(name, strict=try_sql_name is not None))
        names.append(sql_name)
        if try_sql_name is not None:
            spark.udf.register(try_sql_name, udf(name))
            names.append(try_sql_name)
    return names


def dedup(
    df: DataFrame,
    column: str,
    *,
    order_by: Optional[Sequence[ColumnOrName]] = None,
    key: str = "key",
    key_column: Optional[str] = None,
) -> DataFrame:
    """One row per URN: of the rows whose ``column`` has the same canonical key (the
    operation ``key``: ``"key"``, the current rules, or ``"key_v1"``…), the first by
    ``order_by`` (default: the value as written, smallest first; rows that tie are kept in no
    set order, so give ``order_by`` when other columns differ). Rows whose value is null or
    not a URN have no key and are all kept (drop them with ``is_valid``). ``key_column``
    names a column to keep the key in; without it the result has ``df``'s columns."""
    if key not in _NAMES or not key.startswith("key"):
        raise ValueError(f"no key operation {key!r}")
    keyed, rank = "__urnkit_key", "__urnkit_rank"
    taken = {keyed, rank} & set(df.columns)
    if taken:
        raise ValueError(f"dedup needs the column names {sorted(taken)}, which df has")
    order = list(order_by) if order_by is not None else [F.col(column)]
    window = Window.partitionBy(keyed).orderBy(*order)
    ranked = df.withColumn(keyed, _call(key, column)).withColumn(
        rank, F.row_number().over(window)
    )
    kept = ranked.where(F.col(keyed).isNull() | (F.col(rank) == 1)).drop(rank)
    return kept.withColumnRenamed(keyed, key_column) if key_column else kept.drop(keyed)


# BEGIN GENERATED (functions: tests/test_generated.py)
__all__ = ["check", "dedup", "find", "is_valid", "key", "key_v1", "key_v2", "nid", "nss", "problem", "register", "repair", "rfc8141_key", "udf"]


def key(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The canonical key (the current rules, V2), null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("key", col, strict)


def key_v1(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The key under the V1 rules (a table keyed by them holds it), null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("key_v1", col, strict)


def key_v2(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The key under the V2 rules (a table keyed by them holds it), null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("key_v2", col, strict)


def rfc8141_key(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The RFC 8141 section 3 key alone (no namespace rules), null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("rfc8141_key", col, strict)


def nid(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The NID as written, null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("nid", col, strict)


def nss(col: ColumnOrName, *, strict: bool = False) -> Column:
    """The NSS as written (percent-encoding kept), null for an invalid URN; with ``strict=True``, such a value fails the task."""
    return _call("nss", col, strict)


def is_valid(col: ColumnOrName) -> Column:
    """Whether the value is a URN (RFC 8141)."""
    return _call("is_valid", col)


def check(col: ColumnOrName) -> Column:
    """Why the value is not a URN: the parser's message, null for a valid URN."""
    return _call("check", col)


def problem(col: ColumnOrName) -> Column:
    """Why the value is not a URN: struct{kind: str, offset: i64} (the rule's name and its byte), null for a valid URN."""
    return _call("problem", col)


def find(col: ColumnOrName) -> Column:
    """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
    return _call("find", col)


def repair(col: ColumnOrName) -> Column:
    """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
    return _call("repair", col)
# END GENERATED
