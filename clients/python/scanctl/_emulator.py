"""The emulator: found, started (`serve --port 0 --json`), driven over its control plane, stopped whole."""
import atexit
import http.client
import json
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

WHERE = "SCANCTL_BASE_URL (a running emulator), SCANCTL_BIN (the scanctl executable), scanctl on PATH, or node_modules/.bin/scanctl"
CONTROL = "/_scanctl"
OPEN = ("pending", "in_flight")
ENDED = ("succeeded", "failed", "cancelled")


class ScanctlError(Exception):
    """A call the emulator refused (status and error body kept), or an emulator that could not start."""

    def __init__(self, message: str, status: Optional[int] = None, body: Any = None):
        super().__init__(message)
        self.status, self.body = status, body


class ScanctlNotFound(ScanctlError):
    """None of the four ways to reach scanctl gave one."""


def find_scanctl(cwd: Optional[str] = None) -> str:
    """The scanctl executable to start: SCANCTL_BIN, else scanctl on PATH, else node_modules/.bin/scanctl
    in the working folder or one above it. (SCANCTL_BASE_URL, checked by start(), starts nothing.)"""
    named = os.environ.get("SCANCTL_BIN")
    if named:
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            raise ScanctlNotFound(f"SCANCTL_BIN={named} is not an executable file. scanctl is found through {WHERE}.")
        return named
    on_path = shutil.which("scanctl")
    if on_path:
        return on_path
    folder = Path(cwd or os.getcwd()).resolve()
    for place in (folder, *folder.parents):
        candidate = place / "node_modules" / ".bin" / "scanctl"
        if os.access(candidate, os.X_OK):
            return str(candidate)
    raise ScanctlNotFound(
        f"scanctl not found: set SCANCTL_BASE_URL to a running emulator, or SCANCTL_BIN to the scanctl executable, "
        f"or put scanctl on PATH, or install it into node_modules/.bin/scanctl (npm install scanctl). Tried {WHERE}."
    )


def _duration(value: Union[str, int, float]) -> str:
    """'2h', '90s', '15m' as they are; a number is seconds."""
    if isinstance(value, (int, float)):
        return f"{int(round(value * 1000))}ms"
    return value


class _Process:
    """serve in its own process group and its own temporary folder (its serve.json goes there); stdin is a
    pipe only this process holds, so serve stops by itself if this process dies (--stop-on-stdin-close)."""

    def __init__(self, command: str, args: Sequence[str], timeout: float):
        self.folder = tempfile.mkdtemp(prefix="scanctl-")
        self.stderr = open(os.path.join(self.folder, "stderr.log"), "w+b")
        argv = [command, "serve", "--port", "0", "--json", "--stop-on-stdin-close", *args]
        try:
            self.popen = subprocess.Popen(
                argv, cwd=self.folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                start_new_session=True,
            )
        except OSError as error:
            self._cleanup()
            raise ScanctlError(f"cannot start {command}: {error}") from error
        lines: "queue.Queue[Optional[bytes]]" = queue.Queue()

        def drain():  # the ready line, then whatever else serve prints, so its stdout never fills up
            first = True
            for line in self.popen.stdout:
                if first:
                    lines.put(line)
                    first = False
            if first:
                lines.put(None)

        threading.Thread(target=drain, name="scanctl-stdout", daemon=True).start()
        atexit.register(self.stop)
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise ScanctlError(f"{' '.join(argv)} printed no ready line within {timeout} s: {self._stderr_text()}")
        if line is None:
            code = self.popen.wait()
            message = f"{' '.join(argv)} exited {code} before it was ready: {self._stderr_text()}"
            self.stop()
            raise ScanctlError(message)
        try:
            self.ready = json.loads(line)
        except json.JSONDecodeError:
            self.stop()
            raise ScanctlError(f"{' '.join(argv)} printed {line[:200]!r}, not its JSON ready line")
        if self.ready.get("object") != "serve_ready":
            self.stop()
            raise ScanctlError(f"{' '.join(argv)} printed {line[:200]!r}, not its ready line")

    def _stderr_text(self) -> str:
        self.stderr.flush()
        self.stderr.seek(0)
        return self.stderr.read()[-2000:].decode(errors="replace").strip() or "(nothing on stderr)"

    def stop(self) -> None:
        """SIGTERM to the whole group, SIGKILL after 10 s; the folder removed. Safe to call twice."""
        popen = getattr(self, "popen", None)
        if popen is not None and popen.returncode is None:
            for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
                try:
                    os.killpg(popen.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    popen.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        if popen is not None:
            for stream in (popen.stdin, popen.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            # The group, once more: a child serve started itself would be in it too.
            try:
                os.killpg(popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._cleanup()
        atexit.unregister(self.stop)

    def _cleanup(self) -> None:
        try:
            self.stderr.close()
        except OSError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


class Emulator:
    """A running emulator: its URL and the default app's test credentials, and its control plane."""

    def __init__(self, base_url: str, app_id: str, secret_key: str, publishable_key: str, webhook_secret: str, process: Optional[_Process] = None):
        self.base_url = base_url.rstrip("/")
        self.app_id, self.secret_key, self.publishable_key, self.webhook_secret = app_id, secret_key, publishable_key, webhook_secret
        self._process = process
        parsed = urllib.parse.urlsplit(self.base_url)
        self._host, self._port = parsed.hostname, parsed.port or 80
        self._local = threading.local()
        self._cookie: Optional[str] = None

    @property
    def pid(self) -> Optional[int]:
        """The emulator's process id, when this library started it (None for SCANCTL_BASE_URL)."""
        return self._process.popen.pid if self._process else None

    @property
    def env(self) -> Dict[str, str]:
        """The environment contract, for a process of yours that reads SCANCTL_* (scanctl exec sets the same)."""
        return {
            "SCANCTL_BASE_URL": self.base_url,
            "SCANCTL_APP_ID": self.app_id,
            "SCANCTL_SECRET_KEY": self.secret_key,
            "SCANCTL_PUBLISHABLE_KEY": self.publishable_key,
            "SCANCTL_WEBHOOK_SECRET": self.webhook_secret,
        }

    # HTTP: one kept-alive connection per thread.
    def request(self, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None, ok: Sequence[int] = ()) -> Tuple[int, Any, Any]:
        """One call; its status, parsed JSON body and headers. A status outside 2xx (and `ok`) raises ScanctlError."""
        data = None if body is None else json.dumps(body).encode()
        sent = {"content-type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        for attempt in (1, 2):
            connection = getattr(self._local, "connection", None)
            if connection is None:
                connection = self._local.connection = http.client.HTTPConnection(self._host, self._port, timeout=130)
            try:
                connection.request(method, path, data, sent)
                answer = connection.getresponse()
                raw = answer.read()
                break
            except (http.client.HTTPException, ConnectionError, OSError):
                connection.close()
                self._local.connection = None
                if attempt == 2:
                    raise
        parsed = json.loads(raw) if raw else None
        if not (200 <= answer.status < 300 or answer.status in ok):
            error = parsed.get("error", {}) if isinstance(parsed, dict) else {}
            raise ScanctlError(
                f"{method} {path} answered {answer.status} {error.get('code', '')}: {error.get('message', raw[:300])}",
                answer.status, parsed,
            )
        return answer.status, parsed, answer.headers

    def _json(self, method: str, path: str, body: Any = None, **kw) -> Any:
        return self.request(method, path, body, **kw)[1]

    # State.
    def checkpoint(self, name: Optional[str] = None) -> str:
        """Keeps the whole state (every table, the clock, pending deliveries); returns its id."""
        return self._json("POST", f"{CONTROL}/state/checkpoints", {"name": name} if name else None)["id"]

    def restore(self, checkpoint: str) -> Dict[str, Any]:
        """Puts the state back as the checkpoint (id or name) holds it."""
        return self._json("POST", f"{CONTROL}/state/checkpoints/{urllib.parse.quote(checkpoint)}/restore")

    # The service, as your backend calls it.
    def mint_session(self, user: str, **fields: Any) -> Dict[str, Any]:
        """POST /v1/sessions with the test secret key; the 201 body (session_token, expires_at...)."""
        return self._json("POST", "/v1/sessions", {"host_user_ref": user, **fields}, headers={"authorization": f"Bearer {self.secret_key}"})

    # The device side and webhooks.
    def simulate_scan(self, user: str, outcome: str = "completed", play_retries: bool = False, wait: bool = True, timeout: float = 10.0) -> Dict[str, Any]:
        """Plays one scan of `user` as the SDK does; with `wait`, returns once its deliveries are acknowledged
        (or cannot be), `play_retries` moving the clock to each retry. Returns {"scan", "deliveries" (each with
        its "attempts"), "ok", "reason", "clock_moves"}."""
        run = self._json(
            "POST", f"{CONTROL}/apps/{self.app_id}/scans/simulate",
            {"host_user_ref": user, "outcome": outcome, "wait": wait, "play_retries": play_retries, "timeout_ms": int(timeout * 1000)},
        )
        waited = run["wait"] or {}
        return {
            "scan": run["scan"],
            "deliveries": waited.get("log") or [],
            "ok": waited.get("ok", True),
            "reason": waited.get("reason"),
            "clock_moves": waited.get("clock_moves", []),
        }

    def deliveries(self, **query: Any) -> List[Dict[str, Any]]:
        """The app's deliveries, newest first (filters: scan_id, event_id, host_user_ref, status, limit)."""
        query = {"app_id": self.app_id, "limit": 1000, **{k: v for k, v in query.items() if v is not None}}
        return self._json("GET", f"{CONTROL}/webhooks/deliveries?{urllib.parse.urlencode(query)}")["data"]

    def wait_for_deliveries(self, scan_id: Optional[str] = None, event_id: Optional[str] = None, host_user_ref: Optional[str] = None,
                            until: str = "acknowledged", count: int = 1, play_retries: bool = False, timeout: float = 10.0) -> List[Dict[str, Any]]:
        """Waits until at least `count` matching deliveries exist and each reached `until` (attempted,
        acknowledged, exhausted, settled); returns them with their attempts. `play_retries` moves the clock
        to each retry once the failed attempt before it is recorded. Raises ScanctlError when one cannot
        get there, or after `timeout` real seconds."""
        deadline = time.monotonic() + timeout
        reached = {
            "attempted": lambda d: d["attempts"] >= 1,
            "acknowledged": lambda d: d["status"] == "succeeded",
            "exhausted": lambda d: d["status"] == "failed",
            "settled": lambda d: d["status"] in ENDED,
        }[until]
        while True:
            found = self.deliveries(scan_id=scan_id, event_id=event_id, host_user_ref=host_user_ref)
            if len(found) >= count and all(reached(d) for d in found):
                return [self._json("GET", f"{CONTROL}/webhooks/deliveries/{d['id']}") for d in found]
            stuck = [d for d in found if d["status"] in ENDED and not reached(d)]
            if stuck:
                d = stuck[0]
                raise ScanctlError(f"delivery {d['id']} ended {d['status']} after {d['attempts']} attempts: it can no longer be {until}")
            if play_retries and self._play_next_retry(found):
                continue
            if time.monotonic() > deadline:
                raise ScanctlError(f"timed out after {timeout} s waiting for {count} deliveries to be {until}: {[(d['id'], d['status']) for d in found]}")
            time.sleep(0.01)

    def _play_next_retry(self, found: List[Dict[str, Any]]) -> bool:
        due = sorted(d["next_attempt_at"] for d in found if d["status"] == "pending" and d["attempts"] > 0 and d.get("next_attempt_at"))
        if not due:
            return False
        now = self._json("GET", f"{CONTROL}/clock")["now"]
        if due[0] <= now:
            return False
        status, _, _ = self.request("POST", f"{CONTROL}/clock/set", {"time": due[0]}, ok=(400,))
        return status == 200

    def advance_clock(self, duration: Union[str, int, float]) -> Dict[str, Any]:
        """Moves the virtual clock forward ('2h', '90s', or seconds), playing what falls due on the way."""
        return self._json("POST", f"{CONTROL}/clock/advance", {"duration": _duration(duration)})

    def clock(self) -> Dict[str, Any]:
        return self._json("GET", f"{CONTROL}/clock")

    def set_webhook_url(self, url: Optional[str]) -> Dict[str, Any]:
        """Where the app's webhooks go (the portal's setting); the app as the portal shows it."""
        if self._cookie is None:
            account = self._json("GET", f"{CONTROL}/apps/{self.app_id}")["account_id"]
            _, _, headers = self.request("POST", f"{CONTROL}/portal/login", {"account_id": account})
            self._cookie = headers["set-cookie"].split(";", 1)[0]
        app = self._json("PATCH", f"/v1/apps/{self.app_id}", {"webhook_url": url}, headers={"cookie": self._cookie})
        if app.get("webhook_secret"):
            self.webhook_secret = app["webhook_secret"]
        return app

    def stop(self) -> None:
        """Stops the emulator this library started, with its whole process group; a SCANCTL_BASE_URL one is left running."""
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
        if self._process:
            self._process.stop()

    def __enter__(self) -> "Emulator":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def _attach(base_url: str) -> Emulator:
    """An emulator someone else runs (scanctl exec, CI's service): its credentials from the environment,
    else from its control plane."""
    env = os.environ
    probe = Emulator(base_url, "", "", "", "")
    app_id = env.get("SCANCTL_APP_ID") or probe._json("GET", f"{CONTROL}/info")["default_app_id"]
    secret, publishable, whsec = env.get("SCANCTL_SECRET_KEY"), env.get("SCANCTL_PUBLISHABLE_KEY"), env.get("SCANCTL_WEBHOOK_SECRET")
    if not (secret and publishable):
        keys = probe._json("GET", f"{CONTROL}/apps/{app_id}/fixture-keys").get("test") or {}
        secret, publishable = secret or keys.get("secret", ""), publishable or keys.get("publishable", "")
    if not whsec:
        whsec = (probe._json("GET", f"{CONTROL}/apps/{app_id}/webhook-secret") or {}).get("webhook_secret") or ""
    probe.stop()
    return Emulator(base_url, app_id, secret, publishable, whsec)


def start(fixtures: Optional[str] = None, seed: Optional[int] = None, frozen_clock: bool = False, clock_start: Optional[str] = None,
          db: str = ":memory:", rate_limit: int = 0, args: Sequence[str] = (), timeout: float = 60.0) -> Emulator:
    """An emulator for this process: the one SCANCTL_BASE_URL names (never stopped by us), else a new
    `scanctl serve --port 0 --json --db :memory:` (or `db`), ready once its JSON ready line arrived.
    The rate limit is off (0) as in every scanctl test run (CHOICE-2): a fast suite meets no 429 it did not ask for."""
    base_url = os.environ.get("SCANCTL_BASE_URL")
    if base_url:
        return _attach(base_url)
    extra: List[str] = ["--db", db if db == ":memory:" else os.path.abspath(db), "--rate-limit", str(rate_limit)]
    if fixtures:
        extra += ["--fixtures", os.path.abspath(fixtures)]
    if seed is not None:
        extra += ["--seed", str(seed)]
    if frozen_clock:
        extra.append("--frozen-clock")
    if clock_start:
        extra += ["--clock-start", clock_start]
    process = _Process(find_scanctl(), [*extra, *args], timeout)
    ready = process.ready
    return Emulator(
        ready["base_url"], ready["app_id"], ready.get("test_secret_key") or "", ready.get("test_publishable_key") or "",
        ready["env"].get("SCANCTL_WEBHOOK_SECRET", ""), process,
    )
