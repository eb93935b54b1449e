"""examples/planner_loop.py runs against a live server and shows suppression right."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from praxis_server import REPO, PraxisServer
from support import issue_token, write_token

from praxis_client import Client

PLANNER_SCOPE = {"project_id": "planner-demo", "mission_id": None, "agent_id": "planner-bot", "visibility": "shared"}


def test_planner_loop(praxis_server: PraxisServer, admin: Client, tmp_path: Path) -> None:
    token = issue_token(admin, "planner-bot", ["experience_write", "experience_read", "policy_admin"], [PLANNER_SCOPE])
    token_file = write_token(tmp_path / "planner-token", token)
    run = subprocess.run(
        [sys.executable, str(REPO / "examples" / "planner_loop.py"), "--url", praxis_server.url, "--token-file", str(token_file)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    # Verified negatives (confirmed_negative, and a rejected false positive) suppress.
    assert "SUPPRESSED host-1 restart-service" in lines
    assert "SUPPRESSED host-3 flush-cache" in lines
    # A timeout between two verified negatives neither counts nor breaks the streak.
    assert "SUPPRESSED host-2 rotate-logs" in lines
    # Timeouts, policy blocks and executor crashes never suppress.
    assert "NOT SUPPRESSED host-1 flush-cache despite 4 operational failure(s)" in lines
    assert "NOT SUPPRESSED host-2 flush-cache despite 4 operational failure(s)" in lines
    assert "NOT SUPPRESSED host-3 restart-service despite 4 operational failure(s)" in lines
    assert any(line.startswith("round 2 host-1  restart-service  suppressed") for line in lines)
    assert any("timeout  recorded as transport_failure" in line for line in lines)
    # A second run in the same namespace (new case ids) starts from what the first left.
    again = subprocess.run(
        [sys.executable, str(REPO / "examples" / "planner_loop.py"), "--url", praxis_server.url, "--token-file", str(token_file), "--run", "second"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr
