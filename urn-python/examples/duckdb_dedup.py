"""Deduplicate a DuckDB table by canonical key, with urnkit's Arrow functions registered as
DuckDB Python UDFs (``type=ARROW``: DuckDB hands each vector over as Arrow, no Python call
per row)."""

from __future__ import annotations

from typing import List, Tuple

import duckdb
import pyarrow as pa
from duckdb.func import ARROW
from duckdb.sqltypes import BOOLEAN, VARCHAR

import urnkit.arrow


def connect() -> duckdb.DuckDBPyConnection:
    """An in-memory database with ``urn_key(text)`` and ``urn_is_valid(text)``."""
    con = duckdb.connect()
    con.create_function("urn_key", urnkit.arrow.key, [VARCHAR], VARCHAR, type=ARROW)
    con.create_function("urn_is_valid", urnkit.arrow.is_valid, [VARCHAR], BOOLEAN, type=ARROW)
    return con


def deduplicated(con: duckdb.DuckDBPyConnection, table: pa.Table) -> List[Tuple[str, str]]:
    """The first row of each key, as ``(key, id)``, in the table's order."""
    con.register("books", table)
    rows = con.execute(
        """
        SELECT urn_key(id) AS key, arg_min(id, n) AS id
        FROM (SELECT id, row_number() OVER () AS n FROM books)
        WHERE urn_is_valid(id)
        GROUP BY key
        ORDER BY min(n)
        """
    ).fetchall()
    return [(str(k), str(i)) for k, i in rows]


def main() -> None:
    table = pa.table({"id": ["URN:ISBN:0-395-36341-1", "urn:isbn:0395363411",
                             "urn:example:a%2c", "URN:EXAMPLE:a%2C#p1", "not a urn"]})
    for key, first in deduplicated(connect(), table):
        print(f"{key}\t{first}")


if __name__ == "__main__":
    main()
