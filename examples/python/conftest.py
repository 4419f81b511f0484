"""pytest fixtures for scanctl: one emulator per run, a webhook receiver, a checkpoint restored after each test.

The emulator is the real binary node_modules/.bin/scanctl (not npx, whose child would outlive it),
started in its own process group and stopped whole at the end. With SCANCTL_BASE_URL set (scanctl
exec, the CI action, compose), that emulator is used instead and nothing is started.
"""
import json
import os
import shlex
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from verify import verify

HERE = Path(__file__).resolve().parent
# How to run scanctl's CLI: the real binary npm ci installed (or SCANCTL_COMMAND, e.g. "docker compose exec -T scanctl scanctl").
SCANCTL = shlex.split(os.environ.get("SCANCTL_COMMAND", str(HERE / "node_modules" / ".bin" / "scanctl")))


def wait_until_ready(base_url, timeout=30.0):
    """GET /_scanctl/health until it answers ready (503 while starting; refused before the port opens)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(base_url + "/_scanctl/health", timeout=5) as answer:
                if json.load(answer)["ready"]:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"scanctl at {base_url} not ready after {timeout} s")
        time.sleep(0.1)


class Scanctl:
    """The emulator's environment contract, and its CLI run against it."""

    def __init__(self, env):
        self.env = env
        self.base_url = env["SCANCTL_BASE_URL"]

    def run(self, *args, ok=(0,)):
        done = subprocess.run(SCANCTL + list(args), env=self.env, capture_output=True, text=True, timeout=120)
        if done.returncode not in ok:
            raise AssertionError(f"scanctl {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done

    def json(self, *args):
        """A --json command's answer: its one object, or the last of its lines (a stream's result)."""
        out = self.run(*args, "--json").stdout.strip()
        try:
            return json.loads(out)
        except json.JSONDecodeError:
            return json.loads(out.splitlines()[-1])


@pytest.fixture(scope="session")
def scanctl():
    if os.environ.get("SCANCTL_BASE_URL"):
        yield Scanctl(dict(os.environ))
        return
    serve = subprocess.Popen(
        SCANCTL + ["serve", "--port", "0", "--json", "--db", ":memory:"],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: stopped whole below
    )
    try:
        ready = json.loads(serve.stdout.readline())  # serve --json: one ready line, nothing before it
        emulator = Scanctl({**os.environ, **ready["env"]})
        wait_until_ready(emulator.base_url)
        yield emulator
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
        serve.stdout.close()


class Receiver(ThreadingHTTPServer):
    """Your backend's webhook endpoint, in miniature: verifies before it parses; fails each event's
    first attempt (HTTP 500) and acknowledges the second (204), so every test plays a retry."""

    def __init__(self, secret):
        self.secret, self.deliveries = secret, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                verified = verify(body, self.headers.get("Service-Signature"), receiver.secret)
                event_id = self.headers.get("Service-Event-Id")
                first = all(d["event_id"] != event_id for d in receiver.deliveries)
                receiver.deliveries.append({"event_id": event_id, "verified": verified, "event": json.loads(body) if verified else None})
                self.send_response(400 if not verified else 500 if first else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/webhooks"


@pytest.fixture(scope="session")
def receiver(scanctl):
    server = Receiver(scanctl.env["SCANCTL_WEBHOOK_SECRET"])
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def checkpoint(scanctl, receiver):
    """The suite's setup, done once, then checkpointed: the state each test starts from."""
    scanctl.run("app", "update", "--webhook-url", receiver.url)
    return scanctl.json("state", "checkpoint", "pytest-setup")["id"]


@pytest.fixture(autouse=True)
def restore(scanctl, receiver, checkpoint):
    """After each test, the whole emulator state (clock and pending deliveries too) goes back to the checkpoint."""
    yield
    scanctl.run("state", "restore", checkpoint)
    receiver.deliveries.clear()
