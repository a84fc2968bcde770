"""Property tests (hypothesis): random strings through every entry point, compared with the
Rust parser (``urnkit-oracle``, urn-core called directly)."""

from __future__ import annotations

from typing import List

import polars as pl
import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import urnkit
import urnkit.arrow
import urnkit.polars
from urnkit import Urn, UrnError

from conftest import Oracle

# Near-URN text: a scheme (often right), a NID, the characters that matter to the grammar.
ALPHABET = st.sampled_from(
    list("aZ09-._~!$&'()*+,;=:@/?#%") + ["%2c", "%2C", "%zz", "?+", "?=", " ", "é", "\x00", "\n"]
)
NEAR = st.builds(
    lambda scheme, nid, rest: scheme + nid + ":" + "".join(rest),
    st.sampled_from(["urn:", "URN:", "uRn:", "urn", "", "urn:urn-1"]),
    st.sampled_from(["example", "isbn", "ISSN", "uuid", "x", "a-b", "-ab", "ab-", "urn", "a" * 33]),
    st.lists(ALPHABET, max_size=30),
)
ANY_TEXT = st.text(max_size=60)
STRINGS = st.one_of(NEAR, ANY_TEXT)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(text=STRINGS)
def test_scalar_agrees_with_rust(oracle: Oracle, text: str) -> None:
    want = oracle.answer(text)
    assert urnkit.is_valid(text) is want["valid"]
    try:
        u = Urn(text)
    except UrnError as e:
        assert want["error"] == {"kind": e.kind, "offset": e.offset, "message": str(e)}
    else:
        assert want["valid"] and str(u) == text
        assert (u.nid, u.nss, u.key) == (want["nid"], want["nss"], want["key"])
        assert (u.r_component, u.q_component, u.f_component) == (
            want["r_component"], want["q_component"], want["f_component"])
    rfc2141 = want["rfc2141"]
    assert urnkit.is_valid(text, syntax="rfc2141") is rfc2141["valid"]


@SETTINGS
@given(texts=st.lists(st.one_of(STRINGS, st.none()), max_size=40))
def test_columns_agree_with_rust(oracle: Oracle, texts: List[object]) -> None:
    values = [t if isinstance(t, str) else None for t in texts]
    answers = oracle.answers([v for v in values if v is not None])
    by_text = dict(zip([v for v in values if v is not None], answers))
    keys = [None if v is None or not by_text[v]["valid"] else by_text[v]["key"] for v in values]
    checks = [
        None if v is None or by_text[v]["valid"]
        else {"kind": by_text[v]["error"]["kind"], "offset": by_text[v]["error"]["offset"]}
        for v in values
    ]
    array = pa.array(values, type=pa.string())
    assert urnkit.arrow.key(array).to_pylist() == keys
    assert urnkit.arrow.problem(array).to_pylist() == checks
    df = pl.DataFrame({"id": values}, schema={"id": pl.String})
    out = df.select(urnkit.polars.key("id").alias("k"), urnkit.polars.problem("id").alias("c"))
    assert out["k"].to_list() == keys
    assert out["c"].to_list() == checks


@SETTINGS
@given(a=NEAR, b=NEAR)
def test_equality_is_the_rust_key(oracle: Oracle, a: str, b: str) -> None:
    wa, wb = oracle.answers([a, b])
    if wa["valid"] and wb["valid"]:
        assert (Urn(a) == Urn(b)) is (wa["key"] == wb["key"])
        assert (Urn(a) < Urn(b)) is (wa["key"] < wb["key"])
