"""``urnkit.find`` and ``urnkit.repair``, and their Arrow and Polars kernels: the scalar
functions give ``str`` offsets, the columnar ones UTF-8 byte offsets, all from urn-core."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import polars as pl
import pyarrow as pa
import pytest

import urnkit
import urnkit.arrow
import urnkit.polars

TEXTS: List[Optional[str]] = [
    "Cited (URN:ISBN:0-395-36341-1), see https://nbn-resolving.org/urn:nbn:de:x-1.",
    "Saturn:x:y holds none; urn:example:a?b ends at the '?'",
    None,
    "",
    "two: urn:example:a, 'urn:example:b'",
    "url = {https://doi.org/10.1038/nphys1170}, <ping xmlns='urn:xmpp:ping'/>",
    "42,urn:isbn:0-395-36341-1,The Hobbit; *urn:example:f(x)y*",
]

REPAIRS: List[Optional[str]] = [
    " isbn:0\u20133953634111",
    "URN : ISBN : 0-395-36341-1",
    "urn:example:a",
    "urn:example:a?b",
    "\"https://doi.org/10.1000/182\".",
    "URN:LEI:[20-digit LEI code]",
    None,
]


def test_find_gives_str_offsets_keys_and_links() -> None:
    text = "é (URN:ISBN:0-395-36341-1) https://urn.fi/URN:NBN:fi-fe2021."
    hits = urnkit.find(text)
    assert [text[h["start"] : h["end"]] for h in hits] == [h["text"] for h in hits]
    assert [(h["text"], h["key"]) for h in hits] == [
        ("URN:ISBN:0-395-36341-1", "urn:isbn:0395363411"),
        ("URN:NBN:fi-fe2021", "urn:nbn:fi-fe2021"),
    ]
    assert hits[0]["link"] is None
    start, end = hits[1]["link"]
    assert text[start:end] == "https://urn.fi/URN:NBN:fi-fe2021"
    assert urnkit.find("urn:example:a.", longest=True)[0]["text"] == "urn:example:a."
    assert urnkit.find("urn:doi:10.1/ABC", rules="v1")[0]["key"] == "urn:doi:10.1/ABC"
    assert urnkit.find("urn:x:y/z", syntax="rfc2141")[0]["text"] == "urn:x:y"
    with pytest.raises(ValueError):
        urnkit.find("urn:example:a", rules="v9")


def test_repair_lists_every_fix_with_str_offsets() -> None:
    fixed = urnkit.repair("\u3000isbn:0\u2013395363411")
    assert fixed["urn"] == "urn:isbn:0-395363411"
    assert fixed["error"] is None
    assert fixed["fixes"] == [
        {"kind": "leading_whitespace", "start": 0, "end": 1, "before": "\u3000", "after": ""},
        {"kind": "missing_prefix", "start": 1, "end": 1, "before": "", "after": "urn:"},
        {"kind": "dash", "start": 7, "end": 8, "before": "\u2013", "after": "-"},
    ]
    assert urnkit.repair("urn:example:a") == {
        "input": "urn:example:a", "urn": "urn:example:a", "fixes": [], "error": None,
    }
    broken = urnkit.repair("urn:example:a?b")
    assert broken["urn"] is None and broken["fixes"] == []
    assert broken["error"]["kind"] == "bare_question_mark"
    assert broken["error"]["offset"] == 13
    assert broken["error"]["message"].startswith("invalid URN: '?' at byte 13")


def test_what_people_paste() -> None:
    text = "  url = {https://doi.org/10.1038/nphys1170}, <ping xmlns='urn:xmpp:ping'/>"
    hits = urnkit.find(text)
    assert [h["text"] for h in hits] == ["urn:doi:10.1038/nphys1170", "urn:xmpp:ping"]
    assert text[hits[0]["start"] : hits[0]["end"]] == "10.1038/nphys1170"
    assert urnkit.repair("https://doi.org/10.1000/182")["urn"] == "urn:doi:10.1000/182"
    refused = urnkit.repair("URN:LEI:[20-digit LEI code]")
    assert refused["urn"] is None and refused["error"]["kind"] == "invalid_nss"
    assert refused["error"]["message"].startswith("invalid lei URN")


def _found(text: Optional[str]) -> Optional[List[Dict[str, Any]]]:
    """What the kernels hold for ``text`` (ASCII: byte offsets are ``str`` offsets)."""
    if text is None:
        return None
    out = []
    for h in urnkit.find(text):
        link = h["link"]
        out.append({
            "start": h["start"], "end": h["end"], "text": h["text"], "key": h["key"],
            "link_start": link[0] if link else None, "link_end": link[1] if link else None,
        })
    return out


def _repaired(text: Optional[str]) -> Optional[Dict[str, Any]]:
    """What the kernels hold for ``text``: the scalar result less ``input`` and the message."""
    if text is None:
        return None
    r = urnkit.repair(text)
    error = r["error"]
    return {
        "urn": r["urn"],
        "fixes": r["fixes"],
        "error": {"kind": error["kind"], "offset": error["offset"]} if error else None,
    }


@pytest.mark.parametrize("layout", [pa.string(), pa.large_string(), pa.string_view()], ids=str)
def test_arrow_find_and_repair_are_the_scalars(layout: pa.DataType) -> None:
    found = urnkit.arrow.find(pa.array(TEXTS, type=layout))
    assert found.to_pylist() == [_found(t) for t in TEXTS]
    ascii_repairs = [r for r in REPAIRS if r is None or r.isascii()]
    chunks = [pa.array(ascii_repairs[:2], type=layout), pa.array(ascii_repairs[2:], type=layout)]
    repaired = urnkit.arrow.repair(pa.chunked_array(chunks))
    assert repaired.num_chunks == 2
    assert repaired.to_pylist() == [_repaired(t) for t in ascii_repairs]


@pytest.mark.parametrize("mode", ["eager", "lazy", "streaming"])
def test_polars_find_and_repair_are_the_arrow_kernels(mode: str) -> None:
    df = pl.DataFrame({"notes": TEXTS, "raw": REPAIRS})
    query = df.lazy().select(
        pl.col("notes").urn.find().alias("found"),  # type: ignore[attr-defined]
        urnkit.polars.repair("raw").alias("repaired"),
    )
    out = query.collect() if mode != "streaming" else query.collect(engine="streaming")
    if mode == "eager":
        out = df.select(
            pl.col("notes").urn.find().alias("found"),  # type: ignore[attr-defined]
            urnkit.polars.repair("raw").alias("repaired"),
        )
    assert out["found"].to_list() == urnkit.arrow.find(pa.array(TEXTS)).to_pylist()
    assert out["repaired"].to_list() == urnkit.arrow.repair(pa.array(REPAIRS)).to_pylist()
