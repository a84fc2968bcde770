"""A Parquet file of catalogue records deduplicated by canonical key with Spark, the rows that
hold no URN reported with the rule they break and its byte, and both written to Parquet.

    python examples/spark_dedup.py records.parquet out/ [spark://host:7077]

The column ``id`` is keyed by urnkit's Rust kernel inside Spark's Python workers (Arrow UDFs,
no Python object per row); the master defaults to ``local[2]``.
"""

from __future__ import annotations

import sys

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

import urnkit.spark as urn_spark


def deduplicate(records: DataFrame) -> DataFrame:
    """One row per URN (the first spelling by ``id``), with its ``key``; no invalid rows."""
    valid = records.where(urn_spark.is_valid("id"))
    return urn_spark.dedup(valid, "id", key_column="key")


def bad_rows(records: DataFrame) -> DataFrame:
    """The rows whose ``id`` is not a URN, with ``kind`` and ``offset`` (bytes)."""
    return (
        records.withColumn("problem", urn_spark.problem("id"))
        .where(F.col("problem").isNotNull())
        .select("*", "problem.kind", "problem.offset")
        .drop("problem")
    )


def run(spark: SparkSession, source: str, target: str) -> None:
    records = spark.read.parquet(source)
    deduplicate(records).write.mode("overwrite").parquet(f"{target}/deduplicated")
    bad_rows(records).write.mode("overwrite").parquet(f"{target}/bad_rows")


def main() -> None:
    source, target = sys.argv[1], sys.argv[2]
    master = sys.argv[3] if len(sys.argv) > 3 else "local[2]"
    spark = SparkSession.builder.master(master).appName("urnkit-dedup").getOrCreate()
    try:
        run(spark, source, target)
        spark.read.parquet(f"{target}/deduplicated").orderBy("key").show(truncate=False)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
