"""A pydantic model with URN fields: validation, the verbatim text in JSON, errors with the
field, the rule and the byte offset, and the JSON Schema urn-schema generates."""

from __future__ import annotations

from typing import List, Optional

from pydantic import BaseModel, ValidationError

from urnkit import IsbnUrn, Urn


class Book(BaseModel):
    id: Urn
    isbn: Optional[IsbnUrn] = None  # only urn:isbn:, with a valid check digit
    see_also: List[Urn] = []


def main() -> None:
    book = Book.model_validate_json(
        '{"id": "urn:example:book:1", "isbn": "URN:ISBN:0-395-36341-1", "see_also": []}'
    )
    assert book.isbn is not None
    print(book.isbn.key)  # urn:isbn:0395363411
    print(book.id == Urn("URN:EXAMPLE:book:1"))  # True: == compares keys
    print(book.model_dump_json())  # the text as given
    try:
        Book.model_validate({"id": "urn:example:a b", "isbn": "urn:isbn:0-395-36341-2"})
    except ValidationError as e:
        for error in e.errors():
            ctx = error.get("ctx", {})
            print(f"{error['loc']}: {error['type']} {ctx['kind']} at byte {ctx['offset']}: {error['msg']}")


if __name__ == "__main__":
    main()
