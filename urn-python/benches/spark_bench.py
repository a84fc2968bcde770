"""urnkit.spark at scale, on a standalone cluster on this machine (a master, a worker and its
executor, started and stopped here): each function over a column of URNs, and the
deduplication of them, against the floors and the ways users key URNs in Spark today.

    python benches/spark_bench.py [--rows 10000000] [--rounds 5]
    python benches/spark_bench.py --memory [--rows 10000000] [--memory-rows 1000000]

The data: ``--rows`` URNs drawn from bench.py's mix (about a quarter as many distinct URNs,
each row one of four equivalent spellings: as drawn, ``URN:`` prefix, upper-case NID, %-escapes
in the other case), written once to Parquet under ``~/.cache/urnkit-spark-bench``. Every
measured job reads that file and writes its result to Spark's ``noop`` sink (the work runs, no
output is kept). A warm-up round, then ``--rounds`` rounds, each running the jobs in an order
rotated by one; the median of each is printed with rows/s and its ratio to the identity Arrow
UDF (the cost of Spark's JVM-to-Python exchange: the floor for any function in Python).
``find`` returns about three times the bytes of its input (a list of structs: span, text,
key, link), so it is also compared with an Arrow UDF that returns output of that shape built
by pyarrow without URN logic. ``--memory`` samples the executor's peak resident memory (its
JVM, and its Python workers apart) during the key job and during ``lower(u)``, at
``--memory-rows`` rows and at ``--rows``, each on a cluster of its own. ``--quick`` is a smoke
run (ci.sh).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.pandas.functions import arrow_udf
from pyspark.sql.types import StringType

import urnkit
import urnkit.arrow
import urnkit.spark as urn_spark

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from bench import mixed_urns  # noqa: E402
from conftest import Oracle, oracle_path, vector_inputs  # noqa: E402
from spark_cluster import Cluster  # noqa: E402

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "urnkit-spark-bench"

# The key a user writes today: the URN pattern of a typical answer, NID lower-cased.
URN_REGEX = re.compile(r"^urn:([a-z0-9][a-z0-9-]{0,31}):([a-z0-9()+,\-.:=@;$_!*'%/?#]+)$", re.I)


def regex_key(text: Optional[str]) -> Optional[str]:
    match = URN_REGEX.match(text) if text is not None else None
    return None if match is None else f"urn:{match.group(1).lower()}:{match.group(2)}"


def respell(text: str, how: int) -> str:
    """One of four spellings of ``text`` that a URN's canonical key does not tell apart."""
    if how == 1 and text[:4].lower() == "urn:":
        return "URN:" + text[4:]
    if how == 2 and text.count(":") >= 2:
        scheme, nid, rest = text.split(":", 2)
        return f"{scheme}:{nid.upper()}:{rest}"
    if how == 3:
        return re.sub(r"%[0-9a-fA-F]{2}", lambda m: m.group(0).swapcase(), text)
    return text


def dataset(rows: int) -> str:
    path = CACHE / f"urns-{rows}.parquet"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        base = mixed_urns(max(rows // 4, 1))
        rng = random.Random(4)
        column = [respell(base[rng.randrange(len(base))], rng.randrange(4)) for _ in range(rows)]
        tmp = path.with_suffix(".tmp")
        pq.write_table(pa.table({"u": pa.array(column, pa.string())}), tmp,
                       row_group_size=1 << 20)
        tmp.rename(path)
    return str(path)


def _identity(values: pa.Array[Any]) -> pa.Array[Any]:
    return values


_identity.__annotations__ = {"values": pa.Array, "return": pa.Array}  # for arrow_udf
# The stubs ask for functionType, which the run time warns against (as in urnkit.spark).
identity = arrow_udf(_identity, StringType())  # type: ignore[call-overload]


def _find_shaped(values: pa.Array[Any]) -> pa.Array[Any]:
    """What ``find`` returns for a column of URNs, one hit a row (its span, the value as text
    and as key, no link), built by pyarrow without any URN logic."""
    n = len(values)
    untyped: Any = pc  # (pyarrow-stubs lack these overloads)
    lengths = untyped.cast(untyped.binary_length(values), pa.int64())
    no_link = untyped.cast(pa.nulls(n), pa.int64())
    hits = pa.StructArray.from_arrays(
        [pa.array(np.zeros(n, np.int64)), lengths, values, values, no_link, no_link],
        fields=list(FIND_TYPE.value_type),
    )
    lists: Any = pa.ListArray
    return lists.from_arrays(pa.array(np.arange(n + 1, dtype=np.int32)), hits)  # type: ignore[no-any-return]


_find_shaped.__annotations__ = _identity.__annotations__
FIND_TYPE = urnkit.arrow.find(pa.array([], pa.string())).type
find_shaped = arrow_udf(  # type: ignore[call-overload]
    _find_shaped, urn_spark.udf("find").returnType
)


def _urnkit_key(text: Optional[str]) -> Optional[str]:
    try:
        return None if text is None else urnkit.key(text)
    except ValueError:
        return None


row_key = F.udf(_urnkit_key, StringType(), useArrow=False)
row_regex_key = F.udf(regex_key, StringType(), useArrow=False)


FUNCTIONS: Dict[str, Callable[[Column], Column]] = {
    "identity Arrow UDF": identity,
    "urnkit.spark.key": urn_spark.key,
    "urnkit.spark.is_valid": urn_spark.is_valid,
    "urnkit.spark.find": urn_spark.find,
    "find-shaped output, no URN logic": find_shaped,
    "urnkit.spark.repair": urn_spark.repair,
    "Spark lower(u)": F.lower,
    "udf(useArrow=False) urnkit.key": row_key,
    "udf(useArrow=False) regex key": row_regex_key,
}


def window_dedup(df: DataFrame, keyed: Column) -> DataFrame:
    """urnkit.spark.dedup's plan with another key: the same window, the same filter."""
    window = Window.partitionBy("k").orderBy("u")
    ranked = df.withColumn("k", keyed).withColumn("r", F.row_number().over(window))
    return ranked.where(F.col("k").isNull() | (F.col("r") == 1)).drop("k", "r")


def run_to_noop(frame: DataFrame) -> Callable[[], None]:
    """A job computing ``frame`` in full into Spark's ``noop`` sink."""
    return lambda: frame.write.format("noop").mode("overwrite").save()


def jobs(df: DataFrame) -> Dict[str, Callable[[], None]]:
    out = {name: run_to_noop(df.select(f(F.col("u")))) for name, f in FUNCTIONS.items()}
    out["dedup: urnkit.spark.dedup"] = run_to_noop(urn_spark.dedup(df, "u"))
    out["dedup: identity Arrow UDF"] = run_to_noop(window_dedup(df, identity("u")))
    out["dedup: lower(u)"] = run_to_noop(window_dedup(df, F.lower("u")))
    return out


class PeakMemory:
    """The largest resident memory of the executor's JVM and, apart, of its child processes
    (the Python workers), sampled from /proc every 50 ms while running."""

    def __init__(self) -> None:
        self.jvm = self.python = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    @staticmethod
    def _tree() -> Tuple[int, int]:
        parents: Dict[int, int] = {}
        rss: Dict[int, int] = {}
        executors: List[int] = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read()
            except OSError:
                continue
            pid = int(entry)
            parents[pid] = int(fields[1])
            rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            if b"CoarseGrainedExecutorBackend" in cmdline:
                executors.append(pid)
        jvm = sum(rss[pid] for pid in executors)
        children = 0
        for pid in rss:
            p = parents.get(pid, 1)
            while p > 1 and p not in executors:
                p = parents.get(p, 1)
            if p > 1 and pid not in executors:
                children += rss[pid]
        return jvm, children

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            jvm, python = self._tree()
            self.jvm, self.python = max(self.jvm, jvm), max(self.python, python)


def regex_errors(oracle: Oracle) -> Tuple[int, int, int, int]:
    """The regex key against urn-core over the test vectors: (inputs, invalid accepted,
    valid refused, valid with another key)."""
    inputs = list(dict.fromkeys(vector_inputs() + oracle.corpus(0)))
    accepted = refused = wrong = 0
    for text, answer in zip(inputs, oracle.answers(inputs)):
        got = regex_key(text)
        if answer["valid"] and got is None:
            refused += 1
        elif not answer["valid"] and got is not None:
            accepted += 1
        elif answer["valid"] and got != answer["key"]:
            wrong += 1
    return len(inputs), accepted, refused, wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--memory-rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--memory", action="store_true",
                        help="the executor's peak memory instead of the times")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20,000 rows, 1 round")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.memory_rows, args.rounds = 20_000, 10_000, 1

    oracle = Oracle(oracle_path())
    total, accepted, refused, wrong = regex_errors(oracle)
    oracle.close()
    print(f"regex key on {total:,} test inputs: {accepted:,} invalid accepted, "
          f"{refused:,} valid refused, {wrong:,} valid given another key than urn-core's")

    cores = os.cpu_count() or 2
    if args.memory:
        # Each job on a cluster of its own: a JVM's resident memory never shrinks.
        print("executor peak resident memory (JVM / Python workers), each job on a fresh cluster")
        for n in (args.memory_rows, args.rows):
            path = dataset(n)
            for name, function in (("urnkit.spark.key", urn_spark.key), ("lower(u)", F.lower)):
                fresh = Cluster(cores=cores, memory="6g", executor_memory="4g")
                try:
                    frame = fresh.spark.read.parquet(path).select(function(F.col("u")))
                    with PeakMemory() as memory:
                        run_to_noop(frame)()
                finally:
                    fresh.stop()
                print(f"{name:18} {n:>12,} rows {memory.jvm / 2**20:8,.0f} / "
                      f"{memory.python / 2**20:,.0f} MiB", flush=True)
        return

    cluster = Cluster(cores=cores, memory="6g", executor_memory="4g")
    try:
        spark = cluster.spark
        print(f"cluster: {cluster.url}, 1 worker, {cores} cores; Spark {spark.version}")
        df = spark.read.parquet(dataset(args.rows))
        keys = df.select(urn_spark.key("u")).distinct().count()
        regex_keys = df.select(row_regex_key("u")).distinct().count()
        print(f"{args.rows:,} rows, {df.distinct().count():,} spellings, {keys:,} keys "
              f"(the regex key: {regex_keys:,})", flush=True)
        runs = jobs(df)
        names = list(runs)
        times: Dict[str, List[float]] = {name: [] for name in names}
        for round_ in range(args.rounds + 1):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                runs[name]()
                if round_:  # round 0 is the warm-up
                    times[name].append(time.perf_counter() - start)
        floor = statistics.median(times["identity Arrow UDF"])
        find_floor = statistics.median(times["find-shaped output, no URN logic"])
        dedup_floor = statistics.median(times["dedup: identity Arrow UDF"])
        print(f"\nmedian of {args.rounds} rounds (after a warm-up), {args.rows:,} rows")
        print(f"{'job':36} {'seconds':>8} {'rows/s':>12} {'vs identity':>12}")
        for name in names:
            t = statistics.median(times[name])
            base = dedup_floor if name.startswith("dedup") else floor
            print(f"{name:36} {t:8.2f} {args.rows / t:12,.0f} {t / base:11.2f}x")
        find = statistics.median(times["urnkit.spark.find"])
        print(f"find against the find-shaped output: {find / find_floor:.2f}x")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
