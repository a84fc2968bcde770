"""pydantic v2 fields: validation against Rust's answers, serialization, JSON Schema equal to
the documents urn-schema generates (``schemas/``), errors with location, rule and offset."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import pydantic
import pytest
from pydantic import BaseModel, TypeAdapter

import urnkit
from urnkit import IsbnUrn, Urn, UuidUrn

from conftest import SCHEMAS, Answer, vector_inputs
from test_scalar import TYPED


class Book(BaseModel):
    id: Urn
    isbn: Optional[IsbnUrn] = None
    see_also: List[Urn] = []


def schema_file(name: str) -> Dict[str, Any]:
    doc = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    doc.pop("$schema")
    assert isinstance(doc, dict)
    return doc


def test_field_validates_from_str_and_keeps_the_text() -> None:
    book = Book.model_validate_json(
        '{"id": "URN:EXAMPLE:book:1", "isbn": "URN:ISBN:0-395-36341-1", "see_also": []}'
    )
    assert isinstance(book.id, Urn) and type(book.isbn) is IsbnUrn
    assert book.id == Urn("urn:example:book:1")
    assert book.isbn is not None and book.isbn.key == urnkit.key("URN:ISBN:0-395-36341-1")
    assert json.loads(book.model_dump_json()) == {
        "id": "URN:EXAMPLE:book:1", "isbn": "URN:ISBN:0-395-36341-1", "see_also": []
    }
    assert book.model_dump()["id"] is book.id  # Python mode keeps the object, as for UUID
    assert Book(id=Urn("urn:example:b"), isbn=None).id == Urn("urn:example:b")


def test_every_input_validates_as_rust_parses(
    inputs: List[str], answers: Dict[str, Answer]
) -> None:
    adapter = TypeAdapter(Urn)
    for text in vector_inputs():
        want = answers[text]
        try:
            got = adapter.validate_python(text)
        except pydantic.ValidationError as e:
            (error,) = e.errors()
            assert error["type"] == "urn_syntax", text
            assert error["ctx"] == want["error"], text
            assert error["msg"] == want["error"]["message"], text
        else:
            assert want["valid"] and str(got) == text and got.key == want["key"], text
            assert str(adapter.validate_json(json.dumps(text))) == text


@pytest.mark.parametrize("cls", TYPED, ids=lambda c: c.__name__)
def test_typed_fields_follow_rust(
    cls: type, inputs: List[str], answers: Dict[str, Answer]
) -> None:
    adapter: TypeAdapter[Any] = TypeAdapter(cls)
    for text in vector_inputs():
        want = answers[text]["typed"][cls.NID]  # type: ignore[attr-defined]
        try:
            got = adapter.validate_python(text)
        except pydantic.ValidationError as e:
            (error,) = e.errors()
            assert want is not None, text
            kind = "urn_namespace" if want["kind"] in ("wrong_namespace", "invalid_nss") else "urn_syntax"
            assert (error["type"], error["ctx"]) == (kind, want), text
        else:
            assert want is None and type(got) is cls, text


def test_errors_carry_location_rule_and_offset() -> None:
    with pytest.raises(pydantic.ValidationError) as raised:
        Book.model_validate(
            {"id": "urn:example:a b", "isbn": "urn:isbn:0-395-36341-2",
             "see_also": ["urn:example:ok", "urn:example:a?b"]}
        )
    errors = {e["loc"]: (e["type"], e["ctx"]["kind"], e["ctx"]["offset"]) for e in raised.value.errors()}
    assert errors == {
        ("id",): ("urn_syntax", "invalid_char", 13),
        ("isbn",): ("urn_namespace", "invalid_nss", 21),
        ("see_also", 1): ("urn_syntax", "bare_question_mark", 13),
    }
    with pytest.raises(pydantic.ValidationError) as raised:
        Book.model_validate({"id": "urn:example:a", "isbn": "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"})
    (error,) = raised.value.errors()
    assert error["loc"] == ("isbn",) and error["ctx"]["kind"] == "wrong_namespace"
    assert error["msg"] == 'expected a URN in namespace "isbn", found "uuid"'
    with pytest.raises(pydantic.ValidationError) as raised:
        Book.model_validate({"id": 42})
    assert raised.value.errors()[0]["type"] == "urn_type"


def test_instances_are_accepted_and_narrowed() -> None:
    adapter = TypeAdapter(IsbnUrn)
    generic = Urn("urn:isbn:0395363411")
    narrowed = adapter.validate_python(generic)
    assert type(narrowed) is IsbnUrn and narrowed == generic
    with pytest.raises(pydantic.ValidationError):
        TypeAdapter(UuidUrn).validate_python(generic)
    typed = IsbnUrn("urn:isbn:0395363411")
    assert TypeAdapter(Urn).validate_python(typed) is typed  # an IsbnUrn is a Urn


def test_json_schema_is_urn_schemas() -> None:
    schema = Book.model_json_schema()
    props = schema["properties"]
    assert props["id"] == schema_file("urn.schema.json")
    assert props["isbn"]["anyOf"][0] == schema_file("urn-isbn.schema.json")
    assert props["see_also"]["items"] == schema_file("urn.schema.json")
    for cls in TYPED:
        assert TypeAdapter(cls).json_schema() == schema_file(f"urn-{cls.NID}.schema.json")
    assert TypeAdapter(Urn).json_schema() == schema_file("urn.schema.json")
