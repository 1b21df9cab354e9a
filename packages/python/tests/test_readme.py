"""The README's notebook session, run cell by cell against the live server, so the example stays
true: each ``In`` cell runs in one shared namespace, and an ``Out`` shown in full (no ``...``) must
be what the cell's last expression (or its printout) gives."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import os
import pathlib
import re
from typing import Any, Dict, List, Optional, Tuple

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
SESSION = README.read_text().split("## A session, cell by cell", 1)[1].split("\n## ", 1)[0]


def cells() -> List[Tuple[str, Optional[str]]]:
    """``(code, shown output)`` of each In cell."""
    found = re.findall(r"```python\n(.*?)```\n```\n(.*?)```", SESSION, re.S)
    return [(code, re.sub(r"^Out\[\d+\]:\s?", "", shown).strip()) for code, shown in found]


def run_cell(code: str, namespace: Dict[str, Any]) -> Tuple[Any, str]:
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(tree, "README", "exec"), namespace)
        value = eval(compile(ast.Expression(last.value), "README", "eval"), namespace) if last else None
    return value, printed.getvalue().strip()


def test_the_readme_session_runs_as_shown(live: Dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DCLEDGER_URL", live["url"])
    monkeypatch.setenv("DCLEDGER_API_KEY", live["api_key"])
    found = cells()
    assert len(found) >= 7
    pandas = importlib.util.find_spec("pandas") is not None
    namespace: Dict[str, Any] = {}
    for index, (code, shown) in enumerate(found, start=1):
        if "frames" in code and not pandas:
            continue  # the pandas cell; test_live.py checks the helpers say what is missing
        value, printed = run_cell(code, namespace)
        if "..." in shown:
            continue
        assert (repr(value) if value is not None else printed) == shown, f"In [{index}]"


def test_the_receiver_example_compiles() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text().split("## Verifying webhooks", 1)[1], re.S)
    assert blocks and "verify(raw, self.headers, SECRET)" in blocks[0]
    compile(blocks[0], "README receiver", "exec")
