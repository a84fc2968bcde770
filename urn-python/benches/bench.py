"""urnkit's speed against the packages data teams use today and against Rust itself.

Prints one table of timings and the ratios the issue asks for (best of several rounds, one
process, one machine). Run by ci.sh with --quick as a smoke test (no figures asserted: the
machine is shared); run it alone for the figures:

    python benches/bench.py [--rows 1000000] [--scalar-rows 200000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from typing import Callable, List, Optional, Sequence

import polars as pl
import pyarrow as pa
from pydantic_core import PydanticCustomError
from pydantypes.web.urn import Urn as PydantypesUrn

import urnkit
import urnkit.arrow
import urnkit.polars  # noqa: F401  (registers the `urn` namespace)
from urnkit import UrnError

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from conftest import oracle_path  # noqa: E402


def mixed_urns(n: int, seed: int = 8141) -> List[str]:
    """``n`` URNs as they come in real columns: ISBNs with and without hyphens, UUIDs in
    either case, ISSNs, generic NSSs with %-escapes, some components, about 3% invalid."""
    rng = random.Random(seed)
    hexd = "0123456789abcdef"
    out: List[str] = []
    for i in range(n):
        r = rng.random()
        scheme = rng.choice(["urn", "urn", "urn", "URN"])
        if r < 0.25:
            digits = "".join(rng.choice("0123456789") for _ in range(9))
            check = sum((10 - k) * int(d) for k, d in enumerate(digits)) % 11
            check_char = "X" if (11 - check) % 11 == 10 else str((11 - check) % 11)
            nss = f"{digits[0]}-{digits[1:4]}-{digits[4:9]}-{check_char}" if rng.random() < 0.5 else digits + check_char
            text = f"{scheme}:{rng.choice(['isbn', 'ISBN'])}:{nss}"
        elif r < 0.5:
            u = "".join(rng.choice(hexd) for _ in range(32))
            u = f"{u[:8]}-{u[8:12]}-{u[12:16]}-{u[16:20]}-{u[20:]}"
            text = f"{scheme}:uuid:{u.upper() if rng.random() < 0.3 else u}"
        elif r < 0.6:
            text = f"{scheme}:issn:{rng.randrange(1000, 9999)}-{rng.randrange(100, 999)}X"
        elif r < 0.97:
            nss = f"dept-{rng.randrange(100)}:item/{i}%{rng.choice(['2c', '2C', '3A'])}v{rng.randrange(10)}"
            suffix = rng.choice(["", "", "", "?=lang=en", "#part", "?+r"])
            text = f"{scheme}:{rng.choice(['example', 'Example', 'acme-corp'])}:{nss}{suffix}"
        else:
            text = rng.choice([f"urn:example:bad {i}", f"urn:x:{i}", f"urn:example:{i}?q",
                               f"urn:example:%zz{i}", f"not-a-urn-{i}"])
        out.append(text)
    return out


def best(function: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def safe_key(text: str) -> Optional[str]:
    try:
        return urnkit.key(text)
    except UrnError:
        return None


def pydantypes_valid(text: str) -> bool:
    try:
        PydantypesUrn(text)
        return True
    except PydanticCustomError:
        return False


def rust_key_seconds(strings: Sequence[str], rounds: int) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for s in strings:
            f.write(json.dumps(s) + "\n")
        path = f.name
    try:
        out = subprocess.run([oracle_path(), "bench-key", path, str(rounds)],
                             check=True, capture_output=True, text=True)
        return float(out.stdout.strip())
    finally:
        os.unlink(path)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--scalar-rows", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke run on few rows")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.scalar_rows, args.rounds = 20_000, 5_000, 1

    strings = mixed_urns(args.rows)
    scalar = strings[: args.scalar_rows]
    rounds = args.rounds
    results = {}

    # Scalar, per call.
    results["urnkit.is_valid"] = best(lambda: [urnkit.is_valid(s) for s in scalar], rounds)
    results["urnkit.parse"] = best(lambda: [safe_parse(s) for s in scalar], rounds)
    results["pydantypes.Urn"] = best(lambda: [pydantypes_valid(s) for s in scalar], rounds)

    # Columns over the same strings.
    array = pa.array(strings, type=pa.string())
    df = pl.DataFrame({"id": strings}, schema={"id": pl.String})
    results["rust key"] = rust_key_seconds(strings, rounds)
    results["arrow.key"] = best(lambda: urnkit.arrow.key(array), rounds)
    results["arrow.is_valid"] = best(lambda: urnkit.arrow.is_valid(array), rounds)
    results["loop scalar key"] = best(lambda: [safe_key(s) for s in strings], max(1, rounds // 2))
    results["loop pydantypes"] = best(lambda: [pydantypes_valid(s) for s in strings], max(1, rounds // 2))
    results["polars urn.key"] = best(
        lambda: df.select(pl.col("id").urn.key()), rounds  # type: ignore[attr-defined]
    )
    results["polars map_elements"] = best(
        lambda: df.select(pl.col("id").map_elements(safe_key, return_dtype=pl.String)),
        max(1, rounds // 2),
    )
    # The streaming engine runs an elementwise plugin on every core; map_elements keeps the GIL.
    lazy = df.lazy()
    results["polars urn.key streaming"] = best(
        lambda: lazy.select(pl.col("id").urn.key()).collect(engine="streaming"),  # type: ignore[attr-defined]
        rounds,
    )
    results["polars map_elements streaming"] = best(
        lambda: lazy.select(
            pl.col("id").map_elements(safe_key, return_dtype=pl.String)
        ).collect(engine="streaming"),
        max(1, rounds // 2),
    )

    # Per call on the valid URNs alone, ns (where the time of `parse` and of a `Urn` goes).
    valid = [s for s in scalar if urnkit.is_valid(s)]
    kept = [urnkit.parse(s) for s in valid]
    detail = {
        "parse (valid URNs)": best(lambda: [urnkit.parse(s) for s in valid], rounds),
        "is_valid (valid URNs)": best(lambda: [urnkit.is_valid(s) for s in valid], rounds),
        "key(text)": best(lambda: [urnkit.key(s) for s in valid], rounds),
        "parse(text).key": best(lambda: [urnkit.parse(s).key for s in valid], rounds),
        "u.key, made before": best(lambda: [u.key for u in kept], rounds),
        "u.nid": best(lambda: [u.nid for u in kept], rounds),
        "str(u)": best(lambda: [str(u) for u in kept], rounds),
        "set(parse(text))": best(lambda: set(urnkit.parse(s) for s in valid), rounds),
    }

    # Memory: what the Python heap gains while a kernel runs (no per-row objects).
    tracemalloc.start()
    urnkit.arrow.key(array)
    df.select(pl.col("id").urn.key())  # type: ignore[attr-defined]
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    per_call = args.scalar_rows
    print(f"rows {args.rows:,} (scalar {per_call:,}), best of {rounds}")
    for name, seconds in results.items():
        n = per_call if name in ("urnkit.is_valid", "urnkit.parse", "pydantypes.Urn") else args.rows
        print(f"  {name:30} {seconds * 1e3:10.1f} ms   {n / seconds / 1e6:8.2f} M/s")
    r = results
    ratios = [
        ("is_valid vs pydantypes.Urn (per call)", r["pydantypes.Urn"] / r["urnkit.is_valid"], ">= 5"),
        ("parse vs pydantypes.Urn (per call)", r["pydantypes.Urn"] / r["urnkit.parse"], ">= 5"),
        ("arrow.key / Rust key (time)", r["arrow.key"] / r["rust key"], "<= 1.25"),
        ("arrow.key vs loop of scalar key", r["loop scalar key"] / r["arrow.key"], ">= 3"),
        ("arrow.is_valid vs loop of pydantypes", r["loop pydantypes"] / r["arrow.is_valid"], ">= 20"),
        ("polars urn.key / arrow.key (time)", r["polars urn.key"] / r["arrow.key"], "<= 1.5"),
        ("polars urn.key vs map_elements", r["polars map_elements"] / r["polars urn.key"], ">= 5"),
        ("  the same, streaming engine", r["polars map_elements streaming"] / r["polars urn.key streaming"], ">= 5"),
        ("  bound: map_elements / Rust key (time)", r["polars map_elements"] / r["rust key"], "-"),
    ]
    for name, value, target in ratios:
        print(f"  {name:40} {value:8.2f}   (target {target})")
    print(f"  Python heap peak during arrow.key + polars urn.key: {peak / 1024:.1f} KiB")
    print(f"per call over the {len(valid):,} valid URNs among them")
    for name, seconds in detail.items():
        print(f"  {name:30} {seconds / len(valid) * 1e9:10.1f} ns")


def safe_parse(text: str) -> Optional[urnkit.Urn]:
    try:
        return urnkit.parse(text)
    except UrnError:
        return None


if __name__ == "__main__":
    main()
