"""A live ``praxis serve`` for tests: start, stop and restart on one data dir and port.

Reusable by any test suite that needs a real server (the client tests here,
MCP tests later)::

    server = PraxisServer.launch(tmp_path)
    try:
        ...  # server.url, server.admin_token
    finally:
        server.stop()
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[3]


def praxis_bin() -> Path:
    """The ``praxis`` binary: ``$PRAXIS_BIN``, else under ``$CARGO_TARGET_DIR`` or ``target``."""
    explicit = os.environ.get("PRAXIS_BIN")
    if explicit:
        return Path(explicit)
    target = Path(os.environ.get("CARGO_TARGET_DIR") or REPO / "target")
    return target / "debug" / "praxis"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PraxisServer:
    """One ``praxis serve`` process over a data dir, on a fixed loopback port."""

    def __init__(
        self,
        data_dir: Path,
        *,
        port: int | None = None,
        binary: Path | None = None,
        extra_args: Sequence[str] = (),
        log_file: Path | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.binary = binary or praxis_bin()
        self.extra_args = list(extra_args)
        self.log_file = log_file or self.data_dir.parent / f"{self.data_dir.name}-serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    @classmethod
    def launch(cls, data_dir: Path, **kwargs: object) -> PraxisServer:
        server = cls(data_dir, **kwargs)  # type: ignore[arg-type]
        server.start()
        return server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def admin_token_file(self) -> Path:
        return self.data_dir / "admin-token"

    @property
    def admin_token(self) -> str:
        return self.admin_token_file.read_text(encoding="utf-8").strip()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 60.0) -> None:
        """Starts the server and waits until ``GET /readyz`` answers 200."""
        if self.running:
            return
        if not self.binary.exists():
            raise FileNotFoundError(
                f"{self.binary} is missing: build it with `cargo build -p praxis-cli --bin praxis` "
                "or point PRAXIS_BIN at it"
            )
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_file, "ab")
        try:
            self.process = subprocess.Popen(
                [
                    str(self.binary),
                    "serve",
                    "--data-dir",
                    str(self.data_dir),
                    "--listen",
                    f"127.0.0.1:{self.port}",
                    *self.extra_args,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        finally:
            log.close()
        self.wait_ready(timeout)

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"praxis serve exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
        raise TimeoutError(f"praxis serve not ready after {timeout}s:\n{self.log_tail()}")

    def stop(self, *, kill: bool = False, timeout: float = 20.0) -> None:
        """Stops the server (SIGTERM, or SIGKILL with ``kill``); the data dir stays."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.process = None

    def restart(self, *, kill: bool = False) -> None:
        """Stops and starts again on the same data dir and port."""
        self.stop(kill=kill)
        self.start()

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])
