#!/usr/bin/env python3
"""Talk to Praxis as an agent host does: through MCP, with the official `mcp` package.

Use an agent's own credential, not the admin token. It needs the
capabilities `experience_write` (for `attempts_observe`) and
`experience_read` (for `attempts_assess` and `records_search`) and a grant
for the scope given with `--project` and `--agent` (shared visibility, null
mission); for the defaults, issued offline before `praxis serve`:

    praxis admin issue --tenant default --subject triage-bot \
        --capability experience_write --capability experience_read \
        --grant '{"project_id":"billing-service","mission_id":null,"agent_id":"triage-bot","visibility":"shared"}' \
        | tail -1 > bot-token
    chmod 600 bot-token

Over streamable HTTP (the server's own `/mcp` endpoint):

    python examples/mcp_client.py --url http://127.0.0.1:7878 --token-file bot-token

Over stdio (`praxis mcp` started as a subprocess, proxying to the server):

    python examples/mcp_client.py --stdio --praxis target/debug/praxis \
        --url http://127.0.0.1:7878 --token-file bot-token

The token file is refused, as the `praxis` CLI and `praxis_client` refuse
it, when group or others may access it (`chmod 600` it).

It lists the tools, records a verified negative with `attempts_observe`,
asks `attempts_assess` about the action, and searches experience records.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import stat
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx2
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:7878", help="the Praxis server")
    parser.add_argument("--token-file", required=True, type=Path, help="file holding the bearer token")
    parser.add_argument("--stdio", action="store_true", help="start `praxis mcp` and talk over stdio")
    parser.add_argument("--praxis", default="praxis", help="the praxis binary, for --stdio")
    parser.add_argument("--project", default="billing-service")
    parser.add_argument("--agent", default="triage-bot")
    parser.add_argument("--subject", default="host-17")
    return parser.parse_args(argv)


async def call(session: ClientSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Calls a tool: its structured JSON result. A refusal is a tool error
    whose one text block is the REST API's problem document, as JSON."""
    result = await session.call_tool(tool, arguments)
    if result.is_error:
        text = result.content[0].text if result.content and result.content[0].type == "text" else "{}"
        problem = json.loads(text)
        raise RuntimeError(f"{tool}: {problem.get('status')} {problem.get('code')}: {problem.get('detail')}")
    return dict(result.structured_content or {})


async def run(session: ClientSession, args: argparse.Namespace) -> None:
    await session.initialize()
    tools = await session.list_tools()
    print("tools:", ", ".join(sorted(t.name for t in tools.tools)))
    scope = {"project_id": args.project, "mission_id": None, "agent_id": args.agent, "visibility": "shared"}
    outcome = {
        "case_id": "mcp-example-1",
        "subject": args.subject,
        "action_id": "restart-service",
        "hypothesis_id": "stale-connection-pool",
        "verifier_rule_id": "health-check-200",
        "stage": "active",
        "status": "confirmed_negative",
        "confidence": 950000,
        "rationale": "the health check still failed after the restart",
        "evidence_ids": ["probe-1"],
    }
    observed = await call(session, "attempts_observe", {"scope": scope, "outcome": outcome})
    print("observed:", observed["write"])
    assessed = await call(
        session, "attempts_assess", {"scope": scope, "subject": args.subject, "actions": ["restart-service"]}
    )
    for item in assessed["assessments"]:
        print(f"assess {item['action_id']}: {item['recommendation']}")
    found = await call(session, "records_search", {"scope": scope, "q": "connection pool"})
    print("records found:", len(found["records"]))


def read_token_file(path: Path) -> str:
    """The token in ``path``, refused when group or others may access the file.

    The rule of the `praxis` CLI's `--token-file` and of
    `praxis_client.read_token_file`, inline so that this example needs only `mcp`.
    """
    if os.name == "posix":
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            raise SystemExit(f"token file {path} may be accessed by group or others (mode {mode:o}); chmod 600 it")
    token = path.read_text(encoding="utf-8").strip()
    if not token:
        raise SystemExit(f"token file {path} is empty")
    return token


async def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    token = read_token_file(args.token_file)
    async with AsyncExitStack() as stack:
        if args.stdio:
            server = StdioServerParameters(
                command=args.praxis,
                args=["mcp", "--url", args.url, "--token-file", str(args.token_file)],
            )
            read, write = await stack.enter_async_context(stdio_client(server))
        else:
            http = await stack.enter_async_context(
                httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
            )
            read, write = await stack.enter_async_context(
                streamable_http_client(args.url.rstrip("/") + "/mcp", http_client=http)
            )
        session = await stack.enter_async_context(ClientSession(read, write))
        await run(session, args)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
