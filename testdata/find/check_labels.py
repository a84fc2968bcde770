#!/usr/bin/env python3
"""Check testdata/find/snippets.jsonl (or real.jsonl): one JSON object a line with the keys
kind, text and urns (and, for copied text, its source); kind one of the known kinds; text one line of 20 to 300 characters;
each URN label a substring of text, found in order, that starts with urn: or is the DOI
after a doi.org/ link (each search starts where the previous
label ended). Prints the counts; exits 1 if any line fails.

Usage: python3 check_labels.py [path]   (default: snippets.jsonl beside this script)
"""

import json
import sys
from collections import Counter
from pathlib import Path

KINDS = ("catalogue", "reference", "readme", "html", "csv", "prose", "log", "xml", "json", "sql",
         "markdown", "bibtex", "code")
KEYS = {"kind", "text", "urns"}


def check_line(raw):
    """The problems of one line (empty when it is fine), and the parsed object or None."""
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as e:
        return [f"not JSON: {e}"], None
    if not isinstance(obj, dict):
        return ["not a JSON object"], None
    problems = []
    if set(obj) - {"source"} != KEYS:
        problems.append(f"keys are {sorted(obj)}, expected {sorted(KEYS)} (and a source)")
        return problems, None
    kind, text, urns = obj["kind"], obj["text"], obj["urns"]
    if kind not in KINDS:
        problems.append(f"kind {kind!r} not one of {', '.join(KINDS)}")
    if not isinstance(text, str):
        return problems + ["text is not a string"], None
    if "\n" in text or "\r" in text:
        problems.append("text holds a line break")
    if not 20 <= len(text) <= 300:
        problems.append(f"text is {len(text)} characters (20 to 300 expected)")
    if not isinstance(urns, list) or not all(isinstance(u, str) for u in urns):
        return problems + ["urns is not a list of strings"], None
    pos = 0
    for urn in urns:
        at = text.find(urn, pos)
        in_doi_link = at >= 0 and text[:at].lower().endswith("doi.org/")
        if not urn[:4].lower() == "urn:" and not in_doi_link:
            problems.append(f"label {urn!r} does not start with urn: and follows no doi.org/")
        if at < 0:
            where = "in text" if urn in text else "after the previous label"
            problems.append(f"label {urn!r} not found {where} (searched from {pos})")
            continue
        pos = at + len(urn)
    return problems, obj


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("snippets.jsonl")
    kinds = Counter()
    total = urn_total = without = failed = 0
    with path.open(encoding="utf-8") as fh:
        for number, raw in enumerate(fh, 1):
            if not raw.strip():
                print(f"{path}:{number}: empty line")
                failed += 1
                continue
            problems, obj = check_line(raw)
            for problem in problems:
                print(f"{path}:{number}: {problem}")
            if problems:
                failed += 1
            if obj is None:
                continue
            total += 1
            kinds[obj["kind"]] += 1
            urn_total += len(obj["urns"])
            without += not obj["urns"]
    print("snippets per kind:")
    for kind in KINDS:
        print(f"  {kind:<10} {kinds[kind]}")
    print(f"total snippets:        {total}")
    print(f"total URNs:            {urn_total}")
    share = f" ({100 * without / total:.1f}%)" if total else ""
    print(f"snippets without URN:  {without}{share}")
    if failed:
        print(f"FAILED: {failed} line(s) with problems")
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
