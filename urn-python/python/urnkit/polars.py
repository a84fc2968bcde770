"""The URN functions as a Polars expression plugin.

Importing this module registers the expression namespace ``urn``::

    import polars as pl
    import urnkit.polars  # noqa: F401

    df.with_columns(key=pl.col("id").urn.key())

``key``, ``is_valid``, ``nid``, ``nss`` and ``check`` run in Rust over the column's chunks (no
Python call per row) in eager, lazy and streaming queries. The module-level functions of the
same names take an expression or column name and are the spelling a type checker sees
(Polars namespaces are dynamic attributes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Union

import polars as pl
from polars.plugins import register_plugin_function

from . import _urnkit

_LIBRARY = Path(_urnkit.__file__)

IntoExpr = Union[pl.Expr, str]


def _call(function: str, expr: IntoExpr) -> pl.Expr:
    """The plugin function ``function`` (``_polars_plugin_<function>`` in the library)."""
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name=function,
        args=[pl.col(expr) if isinstance(expr, str) else expr],
        is_elementwise=True,
    )


# BEGIN GENERATED (functions: tests/test_generated.py)
__all__ = ["UrnNamespace", "check", "find", "is_valid", "key", "key_v1", "nid", "nss", "repair"]


def key(expr: IntoExpr) -> pl.Expr:
    """The canonical key (the current rules, V2), null for an invalid URN."""
    return _call("urn_key", expr)


def key_v1(expr: IntoExpr) -> pl.Expr:
    """The key under the V1 rules (a table keyed before V2 holds it), null for an invalid URN."""
    return _call("urn_key_v1", expr)


def is_valid(expr: IntoExpr) -> pl.Expr:
    """Whether the value is a URN (RFC 8141)."""
    return _call("urn_is_valid", expr)


def nid(expr: IntoExpr) -> pl.Expr:
    """The NID as written, null for an invalid URN."""
    return _call("urn_nid", expr)


def nss(expr: IntoExpr) -> pl.Expr:
    """The NSS as written, null for an invalid URN."""
    return _call("urn_nss", expr)


def check(expr: IntoExpr) -> pl.Expr:
    """Why the value is not a URN: struct{kind: str, offset: i64}, null for a valid URN."""
    return _call("urn_check", expr)


def find(expr: IntoExpr) -> pl.Expr:
    """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
    return _call("urn_find", expr)


def repair(expr: IntoExpr) -> pl.Expr:
    """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
    return _call("urn_repair", expr)


@pl.api.register_expr_namespace("urn")
class UrnNamespace:
    """``pl.col(...).urn``: the URN functions on a string expression."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def key(self) -> pl.Expr:
        """The canonical key (the current rules, V2), null for an invalid URN."""
        return key(self._expr)

    def key_v1(self) -> pl.Expr:
        """The key under the V1 rules (a table keyed before V2 holds it), null for an invalid URN."""
        return key_v1(self._expr)

    def is_valid(self) -> pl.Expr:
        """Whether the value is a URN (RFC 8141)."""
        return is_valid(self._expr)

    def nid(self) -> pl.Expr:
        """The NID as written, null for an invalid URN."""
        return nid(self._expr)

    def nss(self) -> pl.Expr:
        """The NSS as written, null for an invalid URN."""
        return nss(self._expr)

    def check(self) -> pl.Expr:
        """Why the value is not a URN: struct{kind: str, offset: i64}, null for a valid URN."""
        return check(self._expr)

    def find(self) -> pl.Expr:
        """The URNs in the text: list[struct{start: i64, end: i64, text: str, key: str, link_start: i64, link_end: i64}], offsets in UTF-8 bytes."""
        return find(self._expr)

    def repair(self) -> pl.Expr:
        """What repair makes of the text: struct{urn: str, fixes: list[struct{kind, start, end, before, after}], error: struct{kind, offset}}."""
        return repair(self._expr)
# END GENERATED
