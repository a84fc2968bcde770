"""Shared fixtures: the inputs (the workspace's test vectors and urn-sql's differential-test
corpus) and Rust's answers for them, from ``urnkit-oracle`` (urn-core called directly)."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

PACKAGE = Path(__file__).resolve().parent.parent
REPO = PACKAGE.parent
TESTDATA = REPO / "testdata"
SCHEMAS = REPO / "schemas"

Answer = Dict[str, Any]


def oracle_path() -> str:
    """The oracle binary: ``$URNKIT_ORACLE`` (set by ci.sh), else built with cargo."""
    given = os.environ.get("URNKIT_ORACLE")
    if given:
        return given
    result = subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "urnkit-oracle",
         "--message-format=json-render-diagnostics"],
        cwd=PACKAGE, check=True, capture_output=True, text=True,
    )
    for line in result.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            return str(message["executable"])
    raise RuntimeError("cargo built no urnkit-oracle executable")


class Oracle:
    """One long-running ``urnkit-oracle answers`` process: a JSON string in, an answer out."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._process = subprocess.Popen(
            [path, "answers"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            encoding="utf-8",
        )
        self._lock = threading.Lock()

    def answer(self, text: str) -> Answer:
        return self.answers([text])[0]

    def answers(self, texts: List[str]) -> List[Answer]:
        """Rust's answers, in order (one batch written and read in a thread, so a large
        batch cannot deadlock on full pipes)."""
        stdin, stdout = self._process.stdin, self._process.stdout
        assert stdin is not None and stdout is not None
        with self._lock:
            writer = threading.Thread(
                target=lambda: (stdin.write("".join(json.dumps(t) + "\n" for t in texts)),
                                stdin.flush()),
            )
            writer.start()
            out = [json.loads(stdout.readline()) for _ in texts]
            writer.join()
        return out

    def corpus(self, proptest_count: int) -> List[str]:
        out = subprocess.run(
            [self.path, "corpus", str(proptest_count)], check=True, capture_output=True,
            text=True, encoding="utf-8",
        ).stdout
        # Lines end at "\n" only (str.splitlines would also split at U+2028 or U+0085, which a
        # JSON string holds unescaped).
        return [json.loads(line) for line in out.split("\n") if line]

    def namespaces(self) -> List[str]:
        """The NIDs of urn-core's ``KnownNamespace::ALL``."""
        out = subprocess.run([self.path, "namespaces"], check=True, capture_output=True, text=True)
        return out.stdout.split()

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)


def with_nulls(inputs: List[str]) -> List[Optional[str]]:
    """The inputs with a null after every seventh."""
    out: List[Optional[str]] = []
    for i, text in enumerate(inputs):
        out.append(text)
        if i % 7 == 0:
            out.append(None)
    return out


def expected(op: str, values: List[Optional[str]], answers: Dict[str, Answer]) -> List[Any]:
    out: List[Any] = []
    for v in values:
        if v is None:
            out.append(None)
            continue
        a = answers[v]
        e = a["error"]
        if op == "is_valid":
            out.append(a["valid"])
        elif op == "check":
            out.append(None if e is None else e["message"])
        elif op == "problem":
            out.append(None if e is None else {"kind": e["kind"], "offset": e["offset"]})
        elif op == "find":
            out.append(a["found"])
        elif op == "repair":
            out.append(a["repaired"])
        elif op.startswith("key_"):
            out.append(a["keys"][op[len("key_"):]] if a["valid"] else None)
        else:
            out.append(a[op] if a["valid"] else None)
    return out


def vector_records(name: str) -> List[Dict[str, Any]]:
    with open(TESTDATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def vector_inputs() -> List[str]:
    """Every ``input``, ``a`` and ``b`` string of ``testdata/*.jsonl``."""
    out: List[str] = []
    files = sorted(TESTDATA.glob("*.jsonl"))
    assert len(files) >= 4, f"test vectors missing in {TESTDATA}"
    for path in files:
        for record in vector_records(path.name):
            out.extend(record[f] for f in ("input", "a", "b") if isinstance(record.get(f), str))
    return out


def equivalence_pairs() -> List[Dict[str, Any]]:
    return vector_records("rfc-equivalence.jsonl") + vector_records("peer-equivalence.jsonl")


_ORACLE: Optional[Oracle] = None


@pytest.fixture(scope="session")
def oracle() -> Iterator[Oracle]:
    global _ORACLE
    _ORACLE = Oracle(oracle_path())
    yield _ORACLE
    _ORACLE.close()


@pytest.fixture(scope="session")
def inputs(oracle: Oracle) -> List[str]:
    """The vectors, then urn-sql's corpus (combinatorial set and 3,000 proptest strings);
    each input once, in a stable order."""
    seen: Dict[str, None] = {}
    for text in vector_inputs() + oracle.corpus(3000):
        seen.setdefault(text, None)
    return list(seen)


@pytest.fixture(scope="session")
def answers(oracle: Oracle, inputs: List[str]) -> Dict[str, Answer]:
    return dict(zip(inputs, oracle.answers(inputs)))
