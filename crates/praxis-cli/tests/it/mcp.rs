//! `praxis mcp` run as a real process, speaking MCP on its stdin and
//! stdout: every line it prints is a JSON-RPC message, its tool calls reach
//! the server with the token file's credential (through the checking
//! proxy), and a server that does not answer is a tool error, not a crash.

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use serde_json::{Value, json};

use crate::support::{Server, praxis};

/// A running `praxis mcp` and its pipes.
struct StdioSession {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl StdioSession {
    fn start(url: &str, token_file: &std::path::Path) -> StdioSession {
        let mut child = praxis()
            .args(["mcp", "--url", url, "--token-file"])
            .arg(token_file)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut session = StdioSession {
            child,
            stdin,
            stdout,
            next: 0,
        };
        let init = session.request(
            "initialize",
            &json!({"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "it", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "praxis", "{init}");
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and reads its answer; every line read must be JSON-RPC.
    fn request(&mut self, method: &str, params: &Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "stdout closed"
            );
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|_| panic!("stdout carries only JSON-RPC, not {line:?}"));
            assert_eq!(message["jsonrpc"], "2.0", "{message}");
            if message["id"] == id {
                return message;
            }
        }
    }

    /// Closes stdin and waits: the server ends cleanly when the host leaves.
    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "praxis mcp exited with {status}");
    }
}

/// The problem document of a tool error: its one text block, as JSON.
fn problem(call: &Value) -> Value {
    assert_eq!(call["result"]["isError"], true, "{call}");
    assert!(call["result"].get("structuredContent").is_none(), "{call}");
    let text = call["result"]["content"][0]["text"].as_str().unwrap();
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_stdio_server_proxies_with_the_token_files_credential() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let server = Server::start(&["--data-dir", data.to_str().unwrap()]);
    let mut mcp = StdioSession::start(&server.base, &data.join("admin-token"));
    let tools = mcp.request("tools/list", &json!({}));
    assert_eq!(tools["result"]["tools"].as_array().unwrap().len(), 14);
    // The admin holds credential_admin and policy_admin, not experience_read:
    // the REST API's refusal comes back as a tool error with its code.
    let scope =
        json!({"project_id": "p", "mission_id": null, "agent_id": "a", "visibility": "shared"});
    let call = mcp.request(
        "tools/call",
        &json!({"name": "attempts_assess", "arguments": {"scope": scope, "subject": "s", "actions": ["x"]}}),
    );
    assert_eq!(problem(&call)["code"], "missing_capability", "{call}");
    mcp.finish();
}

#[test]
fn a_server_that_does_not_answer_is_a_tool_error() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, "prx_0123456789abcdef_secret\n").unwrap();
    let mut permissions = std::fs::metadata(&token_file).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o600);
    std::fs::set_permissions(&token_file, permissions).unwrap();
    // Port 9 (discard) on loopback: nothing listens there.
    let mut mcp = StdioSession::start("http://127.0.0.1:9", &token_file);
    let call = mcp.request(
        "tools/call",
        &json!({"name": "memory_get", "arguments": {"scope": {}, "key": "k"}}),
    );
    let problem = problem(&call);
    assert_eq!(problem["code"], "server_unreachable", "{call}");
    assert_eq!(problem["status"], 503, "{call}");
    mcp.finish();
}
