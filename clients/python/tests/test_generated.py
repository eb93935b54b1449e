"""The committed generated files are what the generator makes of openapi.json now."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from praxis_server import REPO
from support import openapi_document

from praxis_client import models as m
from praxis_client._operations import OPERATIONS

CLIENT = Path(__file__).resolve().parents[1]
TOOLS = CLIENT / "tools"
PACKAGE = CLIENT / "src" / "praxis_client"
GENERATED = ("models", "_operations")
OPENAPI = REPO / "crates" / "praxis-server" / "openapi.json"


def check(tools: Path = TOOLS) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(tools / "generate.py"), "--check", "--openapi", str(OPENAPI)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_generated_files_are_current() -> None:
    run = check()
    assert run.returncode == 0, run.stderr


def test_check_fails_on_a_stale_missing_or_extra_file(tmp_path: Path) -> None:
    # A copy of the client's layout, so the check can be shown a broken tree.
    (tmp_path / "tools").mkdir()
    shutil.copy(TOOLS / "generate.py", tmp_path / "tools" / "generate.py")
    package = tmp_path / "src" / "praxis_client"
    for name in GENERATED:
        shutil.copytree(PACKAGE / name, package / name, ignore=shutil.ignore_patterns("__pycache__"))
    assert check(tmp_path / "tools").returncode == 0

    stale = package / "_operations" / "attempts.py"
    stale.write_text(stale.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    missing = package / "models" / "common.py"
    missing.unlink()
    extra = [package / "models" / "extra.py", package / "_operations" / "notes.txt", package / "models.py"]
    for path in extra:
        path.write_text("", encoding="utf-8")
    run = check(tmp_path / "tools")
    assert run.returncode == 1
    assert f"stale: {stale}" in run.stderr
    assert f"missing: {missing}" in run.stderr
    for path in extra:
        assert f"extra: {path}" in run.stderr

    # Without --check the generator repairs the tree.
    fix = subprocess.run(
        [sys.executable, str(tmp_path / "tools" / "generate.py"), "--openapi", str(OPENAPI)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert fix.returncode == 0, fix.stderr
    assert not any(path.exists() for path in extra)
    assert check(tmp_path / "tools").returncode == 0


def test_generated_modules_are_split_by_tag_and_short() -> None:
    tags = {op["tags"][0] for item in openapi_document()["paths"].values() for op in item.values()}
    operations = {path.stem for path in (PACKAGE / "_operations").glob("*.py")}
    assert operations == tags | {"__init__"}
    models = {path.stem for path in (PACKAGE / "models").glob("*.py")}
    assert models <= tags | {"__init__", "common"}
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines < 1000, f"{path} has {lines} lines"


def test_models_reexports_every_schema() -> None:
    schemas = openapi_document()["components"]["schemas"]
    assert set(schemas) <= set(m.__all__)
    for name in m.__all__:
        assert hasattr(m, name), name
    assert m.Scope.__module__ == "praxis_client.models.common"


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
