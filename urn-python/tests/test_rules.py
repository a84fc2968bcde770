"""The key rules: V2 (the current rules) by default everywhere, V1 on request (the scalar API's
``rules=``, RFC 8141 too; Arrow's and Polars' ``key_v1``), the same answers everywhere; an
unknown name is a ``ValueError``."""

from __future__ import annotations

from typing import List, Optional

import polars as pl
import pyarrow as pa
import pytest

import urnkit
import urnkit.arrow
import urnkit.polars

# Inputs whose V1 and V2 keys differ (a DOI in its two URN forms and two cases, an LEI in
# lower case, a lex name with a jurisdiction unit, an mpeg name with `_`), and one that keys
# alike.
TEXTS = [
    "urn:doi:10.1000:ABC%2Fd",
    "urn:DOI:10.1000/abc/D",
    "urn:lei:7ltwfzyicnsx8d621k86",
    "urn:lex:CH;Glarus:Regiere",
    "urn:mpeg:MPEG_7:schema",
    "URN:ISBN:0-395-36341-1",
]
V2 = [
    "urn:doi:10.1000/abc/d",
    "urn:doi:10.1000/abc/d",
    "urn:lei:7LTWFZYICNSX8D621K86",
    "urn:lex:ch;glarus:regiere",
    "urn:mpeg:mpeg_7:schema",
    "urn:isbn:0395363411",
]
V1 = [
    "urn:doi:10.1000:ABC%2Fd",
    "urn:doi:10.1000/abc/D",
    "urn:lei:7ltwfzyicnsx8d621k86",
    "urn:lex:CH;Glarus:Regiere",
    "urn:mpeg:MPEG_7:schema",
    "urn:isbn:0395363411",
]


def test_scalar_keys() -> None:
    for text, v2, v1 in zip(TEXTS, V2, V1):
        assert urnkit.key(text) == v2 == urnkit.key(text, rules="v2")
        assert urnkit.key(text, rules="v1") == v1
        u = urnkit.Urn(text)
        assert u.key == v2 and u.key_with("v2") == v2 and u.key_with("v1") == v1
        assert u.key_with("rfc8141") == u.rfc8141_key
    assert urnkit.Urn(TEXTS[0]) == urnkit.Urn(TEXTS[1])
    with pytest.raises(ValueError, match="expected v1, v2 or rfc8141"):
        urnkit.key(TEXTS[0], rules="v3")


def test_arrow_keys() -> None:
    values: List[Optional[str]] = [*TEXTS, None, "not a urn"]
    array = pa.array(values)
    assert urnkit.arrow.key(array).to_pylist() == [*V2, None, None]
    assert urnkit.arrow.key_v1(array).to_pylist() == [*V1, None, None]
    chunked = pa.chunked_array([values[:3], values[3:]])
    assert urnkit.arrow.key_v1(chunked).to_pylist() == [*V1, None, None]


def test_polars_keys() -> None:
    df = pl.DataFrame({"id": [*TEXTS, None]})
    out = df.select(
        v2=urnkit.polars.key("id"),
        v1=urnkit.polars.key_v1("id"),
        ns=pl.col("id").urn.key_v1(),  # type: ignore[attr-defined]
    )
    assert out["v2"].to_list() == [*V2, None]
    assert out["v1"].to_list() == [*V1, None] == out["ns"].to_list()
