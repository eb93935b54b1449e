"""The committed generated files are what the generator makes of openapi.json now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import openapi_document

from praxis_client._operations import OPERATIONS

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def test_generated_files_are_current() -> None:
    run = subprocess.run(
        [sys.executable, str(TOOLS / "generate.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr


def test_every_operation_has_a_method_and_the_right_retry_class() -> None:
    doc = openapi_document()
    seen = {}
    for item in doc["paths"].values():
        for op in item.values():
            keyed = any(p.get("in") == "header" and p["name"] == "Idempotency-Key" for p in op.get("parameters", []))
            seen[op["operationId"]] = "keyed" if keyed else "safe"
    assert len(seen) >= 66
    assert {k: v[2] for k, v in OPERATIONS.items()} == seen
    for read_only in ("assess", "get_memory", "search_memory", "approve_proposal", "resolve_proposal"):
        assert OPERATIONS[read_only][2] == "safe"
    for write in ("observe", "issue", "set_memory", "create_proposal", "revoke"):
        assert OPERATIONS[write][2] == "keyed"
