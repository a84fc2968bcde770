"""The scalar API against Rust's answers on every input, and its Python behaviour."""

from __future__ import annotations

import copy
import pickle
from typing import Callable, Dict, List, Optional, Type

import pytest

import urnkit
from urnkit import Urn, UrnError

from conftest import Answer, Oracle, equivalence_pairs

TYPED: List[Type[Urn]] = [
    urnkit.UuidUrn, urnkit.IsbnUrn, urnkit.IssnUrn, urnkit.IetfUrn, urnkit.OidUrn,
    urnkit.NbnUrn, urnkit.LexUrn, urnkit.MpegUrn, urnkit.OgcUrn, urnkit.ExampleUrn,
    urnkit.DoiUrn, urnkit.LeiUrn,
]


def error_of(e: UrnError) -> Dict[str, object]:
    return {"kind": e.kind, "offset": e.offset, "message": str(e)}


def test_the_corpus_is_large(inputs: List[str]) -> None:
    # The vectors (over 800 strings) and the corpus (about 45,000 plus 3,000 proptest ones).
    assert len(inputs) > 20_000


def test_parse_matches_rust(inputs: List[str], answers: Dict[str, Answer]) -> None:
    mismatches = []
    for text in inputs:
        want = answers[text]
        try:
            u = urnkit.parse(text)
        except UrnError as e:
            got: Dict[str, object] = {"valid": False, "error": error_of(e)}
            expected: Dict[str, object] = {"valid": False, "error": want["error"]}
        else:
            got = {
                "valid": True, "nid": u.nid, "nss": u.nss, "r_component": u.r_component,
                "q_component": u.q_component, "f_component": u.f_component, "key": u.key,
                "rfc8141_key": u.rfc8141_key, "namespace": u.namespace, "str": str(u),
            }
            expected = {k: want.get(k) for k in got if k != "str"}
            expected["str"] = text
        if got != expected:
            mismatches.append((text, got, expected))
    assert mismatches == []


def test_scalar_functions_match_rust(inputs: List[str], answers: Dict[str, Answer]) -> None:
    for text in inputs:
        want = answers[text]
        assert urnkit.is_valid(text) is want["valid"], text
        if want["valid"]:
            assert urnkit.key(text) == want["key"], text
            assert Urn(text).key == want["key"], text
        else:
            with pytest.raises(UrnError) as raised:
                urnkit.key(text)
            assert error_of(raised.value) == want["error"], text


def test_rfc2141_syntax_matches_rust(inputs: List[str], answers: Dict[str, Answer]) -> None:
    for text in inputs:
        want = answers[text]["rfc2141"]
        assert urnkit.is_valid(text, syntax="rfc2141") is want["valid"], text
        try:
            u = urnkit.parse(text, syntax="rfc2141")
        except UrnError as e:
            assert not want["valid"] and error_of(e) == want["error"], text
        else:
            assert want["valid"] and u.key == want["key"], text
            assert urnkit.key(text, syntax="rfc2141") == want["key"], text
            assert Urn(text, syntax="rfc2141") == u


def test_namespace_validation_matches_rust(inputs: List[str], answers: Dict[str, Answer]) -> None:
    for text in inputs:
        want = answers[text]
        if not want["valid"]:
            continue
        u = Urn(text)
        problem = u.namespace_problem()
        assert (None if problem is None else error_of(problem)) == want["namespace_problem"], text
        if problem is None:
            u.validate_namespace()
        else:
            with pytest.raises(UrnError) as raised:
                u.validate_namespace()
            assert error_of(raised.value) == want["namespace_problem"]


def test_one_typed_class_per_known_namespace(oracle: Oracle, answers: Dict[str, Answer]) -> None:
    known = sorted(oracle.namespaces())
    exported = [v for v in vars(urnkit).values() if isinstance(v, type) and issubclass(v, Urn)]
    assert sorted(c.NID for c in exported if c.NID) == known
    assert sorted(nid for _, nid in urnkit._urnkit.TYPED_CLASSES) == known
    assert sorted(c.NID for c in TYPED if c.NID) == known
    assert sorted(next(iter(answers.values()))["typed"]) == known
    for cls in TYPED:
        assert cls.__name__ in urnkit.__all__ and cls.__module__ == "urnkit"


def test_typed_classes_match_rust(inputs: List[str], answers: Dict[str, Answer]) -> None:
    for text in inputs:
        typed = answers[text]["typed"]
        for cls in TYPED:
            assert cls.NID is not None
            want: Optional[Dict[str, object]] = typed[cls.NID]
            try:
                u = cls(text)
            except UrnError as e:
                assert error_of(e) == want, (cls.NID, text)
            else:
                assert want is None, (cls.NID, text)
                assert isinstance(u, Urn) and type(u) is cls
                assert str(u) == text and u.key == answers[text]["key"]


def test_equivalence_pairs_match_rust(oracle: Oracle) -> None:
    pairs = equivalence_pairs()
    assert len(pairs) >= 136
    for pair in pairs:
        a, b = oracle.answers([pair["a"], pair["b"]])
        if not (a["valid"] and b["valid"]):
            assert urnkit.is_valid(pair["a"]) is a["valid"]
            assert urnkit.is_valid(pair["b"]) is b["valid"]
            continue
        same = a["key"] == b["key"]
        ua, ub = Urn(pair["a"]), Urn(pair["b"])
        assert (ua == ub) is same, pair
        assert (ua != ub) is not same, pair
        assert (hash(ua) == hash(ub)) or not same, pair
        assert len({ua, ub}) == (1 if same else 2), pair


def test_str_is_verbatim_and_repr_names_the_class() -> None:
    u = Urn("URN:ISBN:0-395-36341-1?=q#f")
    assert str(u) == "URN:ISBN:0-395-36341-1?=q#f"
    assert repr(u) == "Urn('URN:ISBN:0-395-36341-1?=q#f')"
    assert repr(urnkit.IsbnUrn("urn:isbn:0395363411")) == "IsbnUrn('urn:isbn:0395363411')"
    assert (u.r_component, u.q_component, u.f_component) == (None, "q", "f")


def test_the_text_is_kept_not_copied() -> None:
    text = "URN:Example:a%2c"
    assert str(Urn(text)) is text
    assert str(urnkit.parse(text)) is text

    class Text(str):
        def __str__(self) -> str:
            return "changed"

    for u in [Urn(Text("urn:example:b")), urnkit.ExampleUrn(Text("urn:example:b"))]:
        assert type(str(u)) is str and str(u) == "urn:example:b" and u.nss == "b"
    # Its own key: the key is the text itself; otherwise a str of the key.
    own = "urn:example:a"
    assert Urn(own).key is own
    assert Urn(text).key == "urn:example:a%2C"


def test_the_key_does_not_depend_on_which_method_asks_first() -> None:
    # One object per order of first use: `.key`, `hash`, `==`, `<` made the kept key.
    a, b = "URN:ISBN:0-395-36341-1", "urn:isbn:0395363411"
    firsts: List[Callable[[Urn], object]] = [
        lambda u: u.key, hash, lambda u: u == Urn(b), lambda u: u < Urn("urn:isbn:1"),
    ]
    for first in firsts:
        u = Urn(a)
        first(u)
        assert u.key == b and hash(u) == hash(b) == hash(Urn(b))
        assert u == Urn(b) and not u < Urn(b) and u <= Urn(b) and u < Urn("urn:isbn:1")
        assert sorted([Urn("urn:isbn:1"), u]) == [u, Urn("urn:isbn:1")]


def test_text_that_is_not_utf8_raises_unicode_encode_error() -> None:
    # A lone surrogate has no UTF-8 form: what str.encode() raises, on every entry point.
    functions: List[Callable[[str], object]] = [
        urnkit.parse, urnkit.key, urnkit.is_valid, Urn, urnkit.ExampleUrn,
    ]
    for function in functions:
        with pytest.raises(UnicodeEncodeError):
            function("urn:example:\ud800")


def test_set_and_dict_deduplicate_equivalent_spellings() -> None:
    spellings = ["urn:isbn:0395363411", "URN:ISBN:0-395-36341-1", "urn:isbn:0-395-36341-1#p2",
                 "urn:example:a%2c", "URN:EXAMPLE:a%2C", "urn:example:A%2C"]
    assert len({Urn(s) for s in spellings}) == 3
    first: Dict[Urn, str] = {}
    for s in spellings:
        first.setdefault(Urn(s), s)
    assert list(first.values()) == ["urn:isbn:0395363411", "urn:example:a%2c", "urn:example:A%2C"]


def test_ordering_follows_the_key() -> None:
    texts = ["urn:example:b", "URN:EXAMPLE:a", "urn:example:B", "urn:abc:z"]
    ordered = sorted(Urn(t) for t in texts)
    assert [u.key for u in ordered] == sorted(Urn(t).key for t in texts)
    assert Urn("URN:EXAMPLE:a") <= Urn("urn:example:a") < Urn("urn:example:b")
    assert Urn("urn:example:b") > Urn("urn:example:a") >= Urn("URN:example:a")


def test_comparison_with_other_types() -> None:
    u = Urn("urn:example:a")
    assert u != "urn:example:a"
    assert not (u == "urn:example:a")  # noqa: SIM201
    with pytest.raises(TypeError):
        _ = u < "urn:example:b"  # type: ignore[operator]


def test_urn_error_is_a_value_error_with_kind_offset_and_message() -> None:
    with pytest.raises(ValueError) as raised:
        Urn("urn:example:a?b")
    e = raised.value
    assert isinstance(e, UrnError)
    assert (e.kind, e.offset) == ("bare_question_mark", 13)
    assert str(e) == "invalid URN: '?' at byte 13 must be followed by '+' or '='"
    again = pickle.loads(pickle.dumps(e))
    assert (type(again), str(again), again.kind, again.offset) == (UrnError, str(e), e.kind, 13)


def test_offsets_count_bytes() -> None:
    # A URN is ASCII, so the first non-ASCII character is the error; the offset is a byte
    # index into the UTF-8 text, and the message names the character.
    with pytest.raises(UrnError) as raised:
        Urn("urn:example:é")
    assert raised.value.offset == len("urn:example:".encode())
    assert "'é' at byte 12" in str(raised.value)


def test_typed_class_errors() -> None:
    with pytest.raises(UrnError) as raised:
        urnkit.IsbnUrn("urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6")
    assert (raised.value.kind, raised.value.offset) == ("wrong_namespace", 4)
    assert str(raised.value) == 'expected a URN in namespace "isbn", found "uuid"'
    with pytest.raises(UrnError) as raised:
        urnkit.IsbnUrn("urn:isbn:0-395-36341-2")
    assert (raised.value.kind, raised.value.offset) == ("invalid_nss", 21)
    assert Urn.NID is None and urnkit.IsbnUrn.NID == "isbn"


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="syntax"):
        urnkit.parse("urn:example:a", syntax="rfc9999")
    with pytest.raises(TypeError):
        urnkit.parse(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        urnkit.is_valid(None)  # type: ignore[arg-type]


def test_pickle_and_copy_keep_text_and_syntax() -> None:
    for u in [Urn("URN:ISBN:0-395-36341-1#x"), urnkit.IsbnUrn("urn:isbn:0395363411"),
              Urn("URN:x:abc", syntax="rfc2141")]:
        again = pickle.loads(pickle.dumps(u))
        assert type(again) is type(u) and str(again) == str(u) and again == u
        assert copy.copy(u) is u and copy.deepcopy(u) is u
    with pytest.raises(UrnError):
        Urn("URN:x:abc")


def test_version() -> None:
    assert urnkit.__version__ == "0.1.0"
