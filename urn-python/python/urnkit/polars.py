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

__all__ = ["UrnNamespace", "check", "is_valid", "key", "nid", "nss"]

_LIBRARY = Path(_urnkit.__file__)

IntoExpr = Union[pl.Expr, str]


def _call(function: str, expr: IntoExpr) -> pl.Expr:
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name=function,
        args=[pl.col(expr) if isinstance(expr, str) else expr],
        is_elementwise=True,
    )


def key(expr: IntoExpr) -> pl.Expr:
    """The canonical key of each value (rules V1), null for an invalid URN."""
    return _call("urn_key", expr)


def is_valid(expr: IntoExpr) -> pl.Expr:
    """Whether each value is a URN (RFC 8141)."""
    return _call("urn_is_valid", expr)


def nid(expr: IntoExpr) -> pl.Expr:
    """The NID of each value as written, null for an invalid URN."""
    return _call("urn_nid", expr)


def nss(expr: IntoExpr) -> pl.Expr:
    """The NSS of each value as written, null for an invalid URN."""
    return _call("urn_nss", expr)


def check(expr: IntoExpr) -> pl.Expr:
    """Why each value is not a URN: ``struct{kind: str, offset: i64}`` (the Rust error kind
    in snake_case and the byte offset), null for a valid URN and for a null."""
    return _call("urn_check", expr)


@pl.api.register_expr_namespace("urn")
class UrnNamespace:
    """``pl.col(...).urn``: the URN functions on a string expression."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def key(self) -> pl.Expr:
        """The canonical key, null for an invalid URN."""
        return key(self._expr)

    def is_valid(self) -> pl.Expr:
        """Whether the value is a URN."""
        return is_valid(self._expr)

    def nid(self) -> pl.Expr:
        """The NID as written, null for an invalid URN."""
        return nid(self._expr)

    def nss(self) -> pl.Expr:
        """The NSS as written, null for an invalid URN."""
        return nss(self._expr)

    def check(self) -> pl.Expr:
        """The error kind and byte offset, null for a valid URN."""
        return check(self._expr)
