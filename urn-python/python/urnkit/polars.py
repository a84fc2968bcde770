"""The URN functions as a Polars expression plugin.

Importing this module registers the expression namespace ``urn``::

    import polars as pl
    import urnkit.polars  # noqa: F401

    df.with_columns(key=pl.col("id").urn.key())

Every function (``__all__``) runs in Rust over the column's chunks (no Python call per row)
in eager, lazy and streaming queries. The module-level functions of the same names take an
expression or column name and are the spelling a type checker sees (Polars namespaces are
dynamic attributes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

import polars as pl
from polars.plugins import register_plugin_function

from . import _urnkit

_LIBRARY = Path(_urnkit.__file__)

IntoExpr = Union[pl.Expr, str]


def _call(operation: str, expr: IntoExpr) -> pl.Expr:
    """The plugin's one function, ``urn``, computing ``operation`` (a row of urn-arrow's table)."""
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name="urn",
        args=[pl.col(expr) if isinstance(expr, str) else expr],
        kwargs={"op": operation},
        is_elementwise=True,
    )


# BEGIN GENERATED (functions: tests/test_generated.py)
__all__ = ["UrnNamespace", "check", "find", "is_valid", "key", "key_v1", "key_v2", "nid", "nss", "problem", "repair", "rfc8141_key"]


def key(expr: IntoExpr) -> pl.Expr:
    """The canonical key (the current rules, V2), null for an invalid URN."""
    return _call("key", expr)


def key_v1(expr: IntoExpr) -> pl.Expr:
    """The key under the V1 rules (a table keyed by them holds it), null for an invalid URN."""
    return _call("key_v1", expr)


def key_v2(expr: IntoExpr) -> pl.Expr:
    """The key under the V2 rules (a table keyed by them holds it), null for an invalid URN."""
    return _call("key_v2", expr)


def rfc8141_key(expr: IntoExpr) -> pl.Expr:
    """The RFC 8141 section 3 key alone (no namespace rules), null for an invalid URN."""
    return _call("rfc8141_key", expr)


def nid(expr: IntoExpr) -> pl.Expr:
    """The NID as written, null for an invalid URN."""
    return _call("nid", expr)


def nss(expr: IntoExpr) -> pl.Expr:
    """The NSS as written (percent-encoding kept), null for an invalid URN."""
    return _call("nss", expr)


def is_valid(expr: IntoExpr) -> pl.Expr:
    """Whether the value is a URN (RFC 8141)."""
    return _call("is_valid", expr)


def check(expr: IntoExpr) -> pl.Expr:
    """Why the value is not a URN: the parser's message, null for a valid URN."""
    return _call("check", expr)


def problem(expr: IntoExpr) -> pl.Expr:
    """Why the value is not a URN: struct{kind: str, offset: i64} (the rule's name and its byte), null for a valid URN."""
    return _call("problem", expr)


def find(expr: IntoExpr) -> pl.Expr:
    """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
    return _call("find", expr)


def repair(expr: IntoExpr) -> pl.Expr:
    """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
    return _call("repair", expr)


@pl.api.register_expr_namespace("urn")
class UrnNamespace:
    """``pl.col(...).urn``: the URN functions on a string expression."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def key(self) -> pl.Expr:
        """The canonical key (the current rules, V2), null for an invalid URN."""
        return key(self._expr)

    def key_v1(self) -> pl.Expr:
        """The key under the V1 rules (a table keyed by them holds it), null for an invalid URN."""
        return key_v1(self._expr)

    def key_v2(self) -> pl.Expr:
        """The key under the V2 rules (a table keyed by them holds it), null for an invalid URN."""
        return key_v2(self._expr)

    def rfc8141_key(self) -> pl.Expr:
        """The RFC 8141 section 3 key alone (no namespace rules), null for an invalid URN."""
        return rfc8141_key(self._expr)

    def nid(self) -> pl.Expr:
        """The NID as written, null for an invalid URN."""
        return nid(self._expr)

    def nss(self) -> pl.Expr:
        """The NSS as written (percent-encoding kept), null for an invalid URN."""
        return nss(self._expr)

    def is_valid(self) -> pl.Expr:
        """Whether the value is a URN (RFC 8141)."""
        return is_valid(self._expr)

    def check(self) -> pl.Expr:
        """Why the value is not a URN: the parser's message, null for a valid URN."""
        return check(self._expr)

    def problem(self) -> pl.Expr:
        """Why the value is not a URN: struct{kind: str, offset: i64} (the rule's name and its byte), null for a valid URN."""
        return problem(self._expr)

    def find(self) -> pl.Expr:
        """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
        return find(self._expr)

    def repair(self) -> pl.Expr:
        """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
        return repair(self._expr)
# END GENERATED
