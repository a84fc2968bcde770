"""``UrnError``: the one exception of urnkit."""

from __future__ import annotations

from typing import Tuple


class UrnError(ValueError):
    """Text that is not a URN (or not one of the namespace a typed class requires).

    ``kind`` names the rule broken, in snake_case, as the Rust crate (``ErrorKind::name``) and
    ``urn inspect`` name it (``"invalid_char"``, ``"bare_question_mark"``, …), plus
    ``"wrong_namespace"`` and ``"invalid_nss"`` for the typed classes and
    ``Urn.validate_namespace``. ``offset`` is the byte offset into the UTF-8 input where it
    went wrong; ``str(error)`` is the Rust message.
    """

    kind: str
    offset: int

    def __init__(self, message: str, kind: str, offset: int) -> None:
        super().__init__(message)
        self.kind = kind
        self.offset = offset

    def __reduce__(self) -> Tuple[type, Tuple[str, str, int]]:
        return (type(self), (str(self), self.kind, self.offset))
