"""The parts of urnkit's Python files that list what the Rust side declares, rendered from it:
the typed classes (urn-core's table of namespaces, ``_urnkit.TYPED_CLASSES``) in
``urnkit/__init__.py`` and ``_urnkit.pyi``, and the columnar operations
(``_urnkit.OPERATIONS``) in ``urnkit/arrow.py``, ``urnkit/polars.py`` and ``urnkit/spark.py``. Each file holds them
between ``BEGIN GENERATED`` and ``END GENERATED`` lines; ``bash .ci/bless`` (``URNKIT_BLESS=1 pytest tests/test_generated.py``
with the wheel built from the source tree installed) rewrites them after a change on the Rust
side."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

import urnkit
import urnkit.arrow
import urnkit.polars
from urnkit import _urnkit

SOURCE = Path(__file__).resolve().parent.parent / "python" / "urnkit"

BEGIN = "# BEGIN GENERATED ({what}: tests/test_generated.py)\n"
END = "# END GENERATED\n"


def _classes() -> List[str]:
    return [name for name, _nid in _urnkit.TYPED_CLASSES]


def _operations() -> List[Tuple[str, str]]:
    return [(name, doc) for name, doc, *_ in _urnkit.OPERATIONS]


def _sentence(doc: str) -> str:
    return doc[0].upper() + doc[1:] + "."


def init_imports() -> str:
    names = sorted(["Urn", "__version__", "find", "is_valid", "key", "parse", "repair", *_classes()])
    lines = "".join(f"    {name},\n" for name in names)
    return f"from ._urnkit import (\n{lines})\n"


def init_all() -> str:
    names = sorted(
        ["Urn", "UrnError", "__version__", "find", "is_valid", "key", "parse", "repair", *_classes()]
    )
    lines = "".join(f'    "{name}",\n' for name in names)
    return f"__all__ = [\n{lines}]\n"


def stub_classes() -> str:
    return "".join(
        f'class {name}(Urn):\n    NID: ClassVar[str]\n    def __new__(cls, text: str) -> "{name}": ...\n\n'
        for name in _classes()
    )


def arrow_functions() -> str:
    out = [f'__all__ = {sorted(name for name, _ in _operations())!r}\n'.replace("'", '"')]
    for name, doc in _operations():
        out.append(
            f"\n\n@overload\ndef {name}(values: ChunkedArray) -> ChunkedArray: ...\n"
            f"@overload\ndef {name}(values: Array) -> Array: ...\n"
            f"def {name}(values: Union[Array, ChunkedArray]) -> Union[Array, ChunkedArray]:\n"
            f'    """{_sentence(doc)}"""\n'
            f'    return _run("{name}", values)\n'
        )
    return "".join(out)


def polars_functions() -> str:
    names = sorted(["UrnNamespace", *(name for name, _ in _operations())])
    out = [f"__all__ = {names!r}\n".replace("'", '"')]
    for name, doc in _operations():
        out.append(
            f"\n\ndef {name}(expr: IntoExpr) -> pl.Expr:\n"
            f'    """{_sentence(doc)}"""\n'
            f'    return _call("{name}", expr)\n'
        )
    out.append(
        '\n\n@pl.api.register_expr_namespace("urn")\nclass UrnNamespace:\n'
        '    """``pl.col(...).urn``: the URN functions on a string expression."""\n\n'
        "    def __init__(self, expr: pl.Expr) -> None:\n        self._expr = expr\n"
    )
    for name, doc in _operations():
        out.append(
            f"\n    def {name}(self) -> pl.Expr:\n"
            f'        """{_sentence(doc)}"""\n'
            f"        return {name}(self._expr)\n"
        )
    return "".join(out)


def spark_functions() -> str:
    names = sorted(["dedup", "register", "udf", *(name for name, _ in _operations())])
    out = [f"__all__ = {names!r}\n".replace("'", '"')]
    for name, doc, _sql, try_sql in _urnkit.OPERATIONS:
        if try_sql is None:
            out.append(
                f"\n\ndef {name}(col: ColumnOrName) -> Column:\n"
                f'    """{_sentence(doc)}"""\n'
                f'    return _call("{name}", col)\n'
            )
        else:
            out.append(
                f"\n\ndef {name}(col: ColumnOrName, *, strict: bool = False) -> Column:\n"
                f'    """{_sentence(doc)[:-1]}; with ``strict=True``, such a value fails the task."""\n'
                f'    return _call("{name}", col, strict)\n'
            )
    return "".join(out)


PARTS: Dict[str, List[Tuple[str, Callable[[], str]]]] = {
    "__init__.py": [("imports", init_imports), ("__all__", init_all)],
    "_urnkit.pyi": [("typed classes", stub_classes)],
    "arrow.py": [("functions", arrow_functions)],
    "polars.py": [("functions", polars_functions)],
    "spark.py": [("functions", spark_functions)],
}


def rendered(text: str, parts: List[Tuple[str, Callable[[], str]]]) -> str:
    for what, render in parts:
        begin = BEGIN.format(what=what)
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(END), re.DOTALL)
        assert pattern.search(text), f"no {begin!r}"
        text = pattern.sub(lambda _: begin + render() + END, text, count=1)
    return text


@pytest.mark.parametrize("name", sorted(PARTS))
def test_generated_parts_are_the_rust_tables(name: str) -> None:
    path = SOURCE / name
    text = path.read_text(encoding="utf-8")
    want = rendered(text, PARTS[name])
    if os.environ.get("URNKIT_BLESS"):
        path.write_text(want, encoding="utf-8")
        return
    assert text == want, f"{name} is not its rendering: bash .ci/bless"


def test_the_installed_package_has_every_class_and_operation() -> None:
    for name in _classes():
        assert getattr(urnkit, name).__name__ == name and name in urnkit.__all__
    for name, _doc in _operations():
        assert callable(getattr(urnkit.arrow, name)) and callable(getattr(urnkit.polars, name))
