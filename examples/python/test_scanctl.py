"""A Python test suite against scanctl: standard library only (unittest, urllib, hmac).

Reaches the emulator named by the environment contract (SCANCTL_BASE_URL and the keys: set by
`scanctl exec`, the CI action or compose), or starts one (`scanctl serve --json`) when it is not
set; waits on its health route; mints a session; plays a scan with `scanctl scan simulate`; and
checks that the webhook arrived signed, with Python's own HMAC. Run: python3 -m unittest -v
"""
import hashlib
import hmac
import json
import os
import shlex
import subprocess
import threading
import time
import unittest
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# How to run scanctl's CLI (it plays the phone: `scan simulate`); e.g. "docker compose exec -T scanctl scanctl".
SCANCTL = shlex.split(os.environ.get("SCANCTL_COMMAND", "npx --yes scanctl"))


def start_or_reach():
    """The contract's variables, from the environment or from a serve started now (then also its process)."""
    if os.environ.get("SCANCTL_BASE_URL"):
        return dict(os.environ), None
    serve = subprocess.Popen(SCANCTL + ["serve", "--port", "0", "--json", "--db", ":memory:"], stdout=subprocess.PIPE, text=True)
    ready = json.loads(serve.stdout.readline())  # serve --json: one ready line, nothing before it
    return {**os.environ, **ready["env"]}, serve


def wait_until_ready(base_url, timeout=30.0):
    """GET /_scanctl/health until it answers 200 (503 while starting; refused before the port opens)."""
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


def verify(body: bytes, signature: str, secret: str) -> bool:
    """Service-Signature: hex HMAC-SHA256 of the raw body bytes, keyed with the whsec_ secret."""
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature or "")


def post_json(url, body, bearer):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, json.load(answer)


class Receiver(ThreadingHTTPServer):
    """Your backend's webhook endpoint, in miniature: verifies before it parses."""

    def __init__(self, secret):
        self.secret, self.events = secret, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                if not verify(body, self.headers.get("Service-Signature"), receiver.secret):
                    self.send_response(400)
                else:
                    receiver.events.append(json.loads(body))
                    self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}/webhooks"


class ScanctlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.env, cls.serve = start_or_reach()
        cls.base_url = cls.env["SCANCTL_BASE_URL"]
        wait_until_ready(cls.base_url)
        cls.receiver = Receiver(cls.env["SCANCTL_WEBHOOK_SECRET"])
        cls.scanctl("app", "update", "--webhook-url", cls.receiver.url)

    @classmethod
    def tearDownClass(cls):
        cls.receiver.shutdown()
        if cls.serve:
            cls.serve.terminate()
            cls.serve.wait(timeout=10)

    @classmethod
    def scanctl(cls, *args):
        done = subprocess.run(SCANCTL + list(args), env=cls.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise AssertionError(f"scanctl {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done.stdout

    def test_mints_a_session_with_the_test_secret_key(self):
        status, session = post_json(self.base_url + "/v1/sessions", {"host_user_ref": "member_py"}, self.env["SCANCTL_SECRET_KEY"])
        self.assertEqual(status, 201)
        self.assertTrue(session["session_token"].startswith("vst_"))

    def test_a_simulated_scan_sends_a_signed_webhook(self):
        out = self.scanctl("scan", "simulate", "--user", "member_py", "--wait", "--json")
        scan_id = json.loads(out.splitlines()[0])["scan_id"]
        events = [e for e in self.receiver.events if e["data"]["scan_id"] == scan_id]
        self.assertEqual([e["type"] for e in events], ["scan.completed"])

    def test_a_changed_body_fails_the_signature_check(self):
        body = b'{"id":"evt_1"}'
        signature = hmac.new(self.env["SCANCTL_WEBHOOK_SECRET"].encode(), body, hashlib.sha256).hexdigest()
        self.assertTrue(verify(body, signature, self.env["SCANCTL_WEBHOOK_SECRET"]))
        self.assertFalse(verify(body + b" ", signature, self.env["SCANCTL_WEBHOOK_SECRET"]))


if __name__ == "__main__":
    unittest.main()
