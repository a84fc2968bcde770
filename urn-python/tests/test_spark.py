"""``urnkit.spark`` on a standalone Spark cluster (a master, a worker and the job's executor,
each a process of its own, started and stopped here): every input of the test vectors, of
urn-sql's corpus and of the find and fix sets, through every function and every Spark SQL
name, against urn-core's answers (the oracle)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import PACKAGE, TESTDATA, Answer, Oracle, expected, with_nulls

if os.environ.get("CI") != "true":  # under CI a missing PySpark is a failure
    pytest.importorskip("pyspark")
from spark_cluster import Cluster, java_missing  # noqa: E402
from pyspark.errors import PythonException  # noqa: E402
from pyspark.sql import DataFrame, SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

import urnkit  # noqa: E402
import urnkit.spark as urn_spark  # noqa: E402
from urnkit import _urnkit  # noqa: E402

OPERATIONS = [name for name, *_ in _urnkit.OPERATIONS]


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    missing = java_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true: {missing}")
        pytest.skip(missing)
    cluster = Cluster(cores=2, memory="2g", executor_memory="1g")
    try:
        yield cluster.spark
    finally:
        cluster.stop()


def text_inputs() -> List[str]:
    """The texts of the find sets and the inputs of the fix set."""
    out: List[str] = []
    for name, field in (("find/snippets.jsonl", "text"), ("find/real.jsonl", "text"),
                        ("fix/near_misses.jsonl", "input")):
        with open(TESTDATA / name, encoding="utf-8") as f:
            out.extend(json.loads(line)[field] for line in f if line.strip())
    assert len(out) > 400
    return out


@pytest.fixture(scope="module")
def values(inputs: List[str]) -> List[Optional[str]]:
    seen = dict.fromkeys(inputs + text_inputs())
    return with_nulls(list(seen))


@pytest.fixture(scope="module")
def all_answers(oracle: Oracle, values: List[Optional[str]]) -> Dict[str, Answer]:
    texts = [v for v in values if v is not None]
    return dict(zip(texts, oracle.answers(texts)))


def frame(spark: SparkSession, values: List[Optional[str]]) -> DataFrame:
    """``values`` as a column ``u`` with a row number ``i``, in 8 partitions."""
    table = pa.table({"i": pa.array(range(len(values)), pa.int64()),
                      "u": pa.array(values, pa.string())})
    return spark.createDataFrame(table).repartition(8)


def in_order(df: DataFrame) -> Dict[str, List[Any]]:
    table = df.orderBy("i").toArrow()
    return {name: table.column(name).to_pylist() for name in table.column_names if name != "i"}


def test_the_executor_is_a_process_of_its_own(spark: SparkSession) -> None:
    def parents(_: int) -> str:
        # The Python worker's parent chain up to the executor's JVM.
        names, pid = [], os.getppid()
        while pid > 1:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                names.append(f.read().replace(b"\0", b" ").decode(errors="replace"))
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        return "\n".join(names)

    ancestors = F.udf(parents, "string", useArrow=False)

    chain = spark.range(1).select(ancestors("id")).collect()[0][0]
    assert "org.apache.spark.executor.CoarseGrainedExecutorBackend" in chain
    assert str(os.getpid()) not in chain.split()
    assert str(spark.sparkContext.master).startswith("spark://127.0.0.1:")


def test_every_function_is_urn_core(
    spark: SparkSession, values: List[Optional[str]], all_answers: Dict[str, Answer]
) -> None:
    df = frame(spark, values)
    columns = [getattr(urn_spark, name)("u").alias(name) for name in OPERATIONS]
    got = in_order(df.select("i", *columns))
    for name in OPERATIONS:
        want = expected(name, values, all_answers)
        mismatches = [(v, g, w) for v, g, w in zip(values, got[name], want) if g != w]
        assert not mismatches, (name, len(mismatches), mismatches[:3])


def test_every_sql_name_is_its_operation(
    spark: SparkSession, values: List[Optional[str]], all_answers: Dict[str, Answer]
) -> None:
    names = urn_spark.register(spark)
    want_names = []
    for _name, _doc, sql_name, try_sql_name in _urnkit.OPERATIONS:
        want_names += [sql_name] + ([try_sql_name] if try_sql_name else [])
    assert names == want_names and len(names) > len(_urnkit.OPERATIONS)
    valid = [v for v in values if v is None or all_answers[v]["valid"]]
    frame(spark, valid).createOrReplaceTempView("urns")
    frame(spark, values).createOrReplaceTempView("texts")
    for name, _doc, sql_name, try_sql_name in _urnkit.OPERATIONS:
        # The failing form over valid URNs, the try_ form over everything.
        got = in_order(spark.sql(f"SELECT i, {sql_name}(u) AS r FROM urns"))["r"]
        assert got == expected(name, valid, all_answers), sql_name
        if try_sql_name:
            got = in_order(spark.sql(f"SELECT i, {try_sql_name}(u) AS r FROM texts"))["r"]
            assert got == expected(name, values, all_answers), try_sql_name


def test_invalid_values_never_fail_the_job(spark: SparkSession) -> None:
    df = frame(spark, ["urn:example:a b", "URN:ISBN:0-395-36341-1", None, "nope"])
    got = in_order(df.select("i", urn_spark.key("u").alias("k"),
                             urn_spark.problem("u").alias("p")))
    assert got["k"] == [None, "urn:isbn:0395363411", None, None]
    assert got["p"] == [{"kind": "invalid_char", "offset": 13}, None, None,
                        {"kind": "scheme", "offset": 0}]


@pytest.mark.parametrize("how", ["column", "sql"])
def test_strict_names_the_value_and_byte(spark: SparkSession, how: str) -> None:
    df = frame(spark, ["urn:example:ok", "urn:example:a b"])
    urn_spark.register(spark)
    df.createOrReplaceTempView("strict_urns")
    with pytest.raises(PythonException) as failed:
        if how == "column":
            df.select(urn_spark.nid("u", strict=True)).collect()
        else:
            spark.sql("SELECT urn_key(u) FROM strict_urns").collect()
    message = str(failed.value)
    assert "ValueError: 'urn:example:a b': invalid URN: ' ' at byte 13" in message, message


def test_dedup_keeps_one_row_per_key(spark: SparkSession, oracle: Oracle) -> None:
    rows = [
        ("URN:ISBN:0-395-36341-1", 1), ("urn:isbn:0395363411", 2), ("urn:ISBN:0-395-36341-1", 3),
        ("urn:example:a%2c", 4), ("URN:EXAMPLE:a%2C", 5), ("urn:example:A%2c", 6),
        ("not a urn", 7), ("not a urn", 8), (None, 9), (None, 10),
    ]
    df = spark.createDataFrame(rows, "u string, n long")
    out = urn_spark.dedup(df, "u").orderBy("n").collect()
    assert [tuple(r) for r in out] == [
        ("URN:ISBN:0-395-36341-1", 1), ("URN:EXAMPLE:a%2C", 5), ("urn:example:A%2c", 6),
        ("not a urn", 7), ("not a urn", 8), (None, 9), (None, 10),
    ]
    last = urn_spark.dedup(df, "u", order_by=[F.col("n").desc()], key_column="k")
    kept = {r["k"]: r["n"] for r in last.collect() if r["k"] is not None}
    texts = [u for u, _ in rows if u is not None]
    keys = {a["key"] for a in oracle.answers(texts) if a["valid"]}
    assert set(kept) == keys
    assert kept == {"urn:isbn:0395363411": 3, "urn:example:a%2C": 5, "urn:example:A%2C": 6}
    assert last.columns == ["u", "n", "k"]
    with pytest.raises(ValueError, match="no key operation 'nid'"):
        urn_spark.dedup(df, "u", key="nid")


def test_dedup_by_each_key_version(
    spark: SparkSession, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    valid = [t for t in inputs if answers[t]["valid"]]
    df = spark.createDataFrame([(t,) for t in valid], "u string")
    counts = {}
    for version in answers[valid[0]]["keys"]:  # the oracle's KeyRules::VERSIONS
        want = len({answers[t]["keys"][version] for t in valid})
        counts[version] = urn_spark.dedup(df, "u", key=f"key_{version}").count()
        assert counts[version] == want, version
    assert len(set(counts.values())) > 1  # the corpus tells the versions apart
    assert urn_spark.dedup(df, "u").count() == len({answers[t]["key"] for t in valid})


def test_the_scalar_package_needs_no_spark() -> None:
    assert "pyspark" not in urnkit.__dict__


def test_the_parquet_example(spark: SparkSession, oracle: Oracle, tmp_path: Path) -> None:
    sys.path.insert(0, str(PACKAGE / "examples"))
    import spark_dedup

    ids = ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411", "urn:example:a%2c",
           "URN:EXAMPLE:a%2C#p1", "urn:example:a b", None, "urn:x:y"]
    pq.write_table(pa.table({"id": ids, "title": [f"t{i}" for i in range(len(ids))]}),
                   tmp_path / "records.parquet")
    spark_dedup.run(spark, str(tmp_path / "records.parquet"), str(tmp_path / "out"))
    kept = pq.read_table(tmp_path / "out" / "deduplicated").to_pylist()
    first: Dict[str, str] = {}
    for text in sorted(t for t in ids if t is not None):
        answer = oracle.answer(text)
        if answer["valid"]:
            first.setdefault(answer["key"], text)
    assert sorted((r["key"], r["id"]) for r in kept) == sorted(first.items())
    bad = pq.read_table(tmp_path / "out" / "bad_rows").to_pylist()
    assert sorted((r["id"], r["kind"], r["offset"]) for r in bad) == [
        ("urn:example:a b", "invalid_char", 13), ("urn:x:y", "nid_length", 4)]
