"""A Polars column deduplicated by canonical key, and the bad rows reported with their byte
offsets, lazily, with the `urn` expression namespace (no Python call per row)."""

from __future__ import annotations

import polars as pl

import urnkit.polars  # noqa: F401  (registers pl.col(...).urn)


def deduplicated(df: pl.LazyFrame) -> pl.LazyFrame:
    """The first row of each key (valid URNs only), with its ``key``."""
    return (
        df.filter(pl.col("id").urn.is_valid())  # type: ignore[attr-defined]
        .with_columns(key=pl.col("id").urn.key())  # type: ignore[attr-defined]
        .unique("key", keep="first", maintain_order=True)
    )


def bad_rows(df: pl.LazyFrame) -> pl.LazyFrame:
    """The rows whose ``id`` is not a URN: ``row``, ``id``, ``kind``, ``offset`` (bytes)."""
    return (
        df.with_row_index("row")
        .with_columns(problem=urnkit.polars.problem("id"))
        .filter(pl.col("problem").is_not_null())
        .unnest("problem")
    )


def main() -> None:
    df = pl.LazyFrame({"id": ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411",
                              "urn:example:a%2c", "URN:EXAMPLE:a%2C#p1", "urn:example:a b"]})
    print(deduplicated(df).collect())
    print(bad_rows(df).collect(engine="streaming"))


if __name__ == "__main__":
    main()
