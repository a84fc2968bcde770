"""Check a pandas column of Arrow-backed strings and report the bad rows with their byte
offsets; key the good ones (``urnkit.arrow`` over the column's own Arrow data)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

import urnkit.arrow


def checked(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """``df`` with ``key`` (null for an invalid URN), ``kind`` and ``offset`` (why a value is
    not a URN, null when it is) beside ``column``."""
    values = pa.chunked_array(pa.array(df[column].array))  # the column's Arrow data, no copy
    problems = urnkit.arrow.problem(values)

    def column_of(values: "pa.ChunkedArray[Any]") -> "pd.Series[Any]":
        return pd.Series(pd.arrays.ArrowExtensionArray(values), index=df.index)

    return df.assign(
        key=column_of(urnkit.arrow.key(values)),
        kind=column_of(pc.struct_field(problems, "kind")),
        offset=column_of(pc.struct_field(problems, "offset")),
    )


def main() -> None:
    df = pd.DataFrame(
        {"id": pd.Series(["URN:ISBN:0-395-36341-1", "urn:example:a b", None, "urn:x:y",
                          "urn:isbn:0395363411"], dtype=pd.ArrowDtype(pa.string()))}
    )
    out = checked(df, "id")
    bad = out[out["kind"].notna()]
    for row, item in bad.iterrows():
        print(f"row {row}: {item['id']!r}: {item['kind']} at byte {item['offset']}")
    print(out.drop_duplicates("key")[["id", "key"]].dropna().to_string())


if __name__ == "__main__":
    main()
