"""The README's Python blocks run, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any, Dict, List

from conftest import PACKAGE


def blocks() -> List[str]:
    text = (PACKAGE / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def test_every_block_runs() -> None:
    found = blocks()
    assert len(found) == 6
    for code in found:
        namespace: Dict[str, Any] = {"__name__": "readme"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102
        # A block that prints says what: `# row …` lines, or a comment on the print line.
        printed = out.getvalue().splitlines()
        said = [line[2:] for line in code.splitlines() if line.startswith("# row")]
        said += [line.split("# ", 1)[1] for line in code.splitlines()
                 if line.lstrip().startswith("print(") and "# " in line]
        assert printed == said


def test_commented_results() -> None:
    """The lines ending in `# <expression value>` hold."""
    checked = []
    for code in blocks():
        namespace: Dict[str, Any] = {"__name__": "readme"}
        lines = code.splitlines()
        for i, line in enumerate(lines):
            match = re.match(r"^(?P<expr>[^#=\s][^#]*?)\s+# (?P<value>[\[\('].*|True|False)$", line)
            if match and not line.startswith(("import", "from", "for", "try", "except")):
                exec(compile("\n".join(lines[:i]), "README.md", "exec"), namespace)  # noqa: S102
                value = eval(match["expr"], namespace)  # noqa: S307
                assert repr(value) == match["value"], line
                checked.append(line)
                namespace = {"__name__": "readme"}
    assert len(checked) >= 5, checked
