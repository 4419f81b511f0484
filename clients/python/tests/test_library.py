import json
import os
import subprocess
import sys
import urllib.request

import pytest

import scanctl as lib


def post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return answer.status, json.load(answer)


def test_mints_through_the_teams_own_app(scanctl, app):
    status, body = post(app.url + "/sessions", {"user": "member_1"})
    assert status == 201 and body["token"].startswith("vst_")
    assert scanctl.mint_session("member_1")["session_token"].startswith("vst_")


def test_a_retried_webhook_is_verified_and_acknowledged(scanctl, app):
    run = scanctl.simulate_scan("member_1", play_retries=True)
    assert run["ok"] and run["scan"]["state"] == "recorded"
    [delivery] = run["deliveries"]
    assert [a["status"] for a in delivery["attempts"]] == [500, 204]
    assert [event for event, _ in app.received] == [delivery["event_id"]] * 2
    assert app.received[1][1]["data"]["scan_id"] == run["scan"]["scan_id"]
    assert len(run["clock_moves"]) == 1


def test_each_test_starts_from_the_checkpoint(scanctl, app):
    assert scanctl.deliveries() == []
    assert scanctl.request("GET", f"/_scanctl/apps/{scanctl.app_id}/scans")[1]["data"] == []


def test_a_tampered_body_is_refused(scanctl):
    body = b'{"id":"evt_1"}'
    import hashlib, hmac

    signature = hmac.new(scanctl.webhook_secret.encode(), body, hashlib.sha256).hexdigest()
    assert lib.verify_signature(body, signature, scanctl.webhook_secret)
    assert lib.verify_signature(body.decode(), signature.upper(), scanctl.webhook_secret)
    assert not lib.verify_signature(body + b" ", signature, scanctl.webhook_secret)
    assert not lib.verify_signature(body, None, scanctl.webhook_secret)


def test_wait_for_deliveries_plays_retries_on_the_clock(scanctl, app):
    run = scanctl.simulate_scan("member_2", wait=False)
    scan_id = run["scan"]["scan_id"]
    [attempted] = scanctl.wait_for_deliveries(scan_id=scan_id, until="attempted")
    assert [a["status"] for a in attempted["attempt_log"]] == [500]
    [done] = scanctl.wait_for_deliveries(scan_id=scan_id, play_retries=True)
    assert [a["status"] for a in done["attempt_log"]] == [500, 204]
    with pytest.raises(lib.ScanctlError, match="timed out"):
        scanctl.wait_for_deliveries(scan_id="scn_none", timeout=0.2)


def test_advance_clock_takes_a_duration_or_seconds(scanctl):
    start = scanctl.clock()["offset_ms"]
    assert scanctl.advance_clock("2h")["offset_ms"] - start >= 7_200_000
    assert scanctl.advance_clock(90)["offset_ms"] - start >= 7_290_000


def test_a_session_mint_refused_raises_with_the_status(scanctl):
    with pytest.raises(lib.ScanctlError) as refused:
        scanctl.mint_session("")
    assert refused.value.status == 400


@pytest.mark.scanctl_no_restore
def test_checkpoint_and_restore_by_name(scanctl):
    scanctl.checkpoint("before")
    scanctl.mint_session("member_3")
    assert scanctl.restore("before")["object"] == "checkpoint_restore"


def test_importable_without_pytest():
    code = "import sys; sys.modules['pytest'] = None; import scanctl; print(scanctl.verify_signature(b'', '', 'k'))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_not_found_names_all_four_ways(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCANCTL_")}
    env["PATH"] = "/nonexistent"
    code = "import scanctl\ntry:\n  scanctl.start()\nexcept scanctl.ScanctlNotFound as e:\n  print(e)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    for name in ("SCANCTL_BASE_URL", "SCANCTL_BIN", "PATH", "node_modules/.bin/scanctl"):
        assert name in done.stdout, done.stdout + done.stderr
    env["SCANCTL_BIN"] = str(tmp_path / "missing")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert "SCANCTL_BIN=" in done.stdout and "not an executable" in done.stdout


def test_finds_node_modules_bin_above_the_working_folder(tmp_path):
    bin_dir = tmp_path / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "scanctl").write_text("#!/bin/sh\n")
    (bin_dir / "scanctl").chmod(0o755)
    (tmp_path / "deep").mkdir()
    env_bin = os.environ.pop("SCANCTL_BIN", None)
    path = os.environ.get("PATH", "")
    os.environ["PATH"] = "/nonexistent"
    try:
        assert lib.find_scanctl(str(tmp_path / "deep")) == str(bin_dir / "scanctl")
    finally:
        os.environ["PATH"] = path
        if env_bin is not None:
            os.environ["SCANCTL_BIN"] = env_bin


def test_uses_a_running_emulator_from_scanctl_base_url_and_never_stops_it(scanctl_emulator):
    code = (
        "import scanctl\n"
        "e = scanctl.start()\n"
        "print(e.base_url, e.app_id, e.secret_key[:8], e.pid)\n"
        "e.mint_session('member_9')\n"
        "e.stop()\n"
    )
    env = {**os.environ, "SCANCTL_BASE_URL": scanctl_emulator.base_url}
    for name in ("SCANCTL_APP_ID", "SCANCTL_SECRET_KEY", "SCANCTL_PUBLISHABLE_KEY", "SCANCTL_WEBHOOK_SECRET"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [scanctl_emulator.base_url, scanctl_emulator.app_id, "sk_test_", "None"]
    assert scanctl_emulator.clock()["object"] == "clock"  # still running


def test_a_serve_that_fails_to_start_says_why(tmp_path):
    fake = tmp_path / "scanctl"
    fake.write_text("#!/bin/sh\necho 'scanctl: cannot start: nope' >&2\nexit 2\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "SCANCTL_BASE_URL"}
    env["SCANCTL_BIN"] = str(fake)
    code = "import scanctl\ntry:\n  scanctl.start()\nexcept scanctl.ScanctlError as e:\n  print(e)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert "exited 2 before it was ready" in done.stdout and "cannot start: nope" in done.stdout, done.stdout + done.stderr


def test_the_rate_limit_is_off_as_in_every_test_run(scanctl):
    for n in range(120):  # serve's default is 100 a second per key
        scanctl.mint_session(f"member_{n}")


def test_serve_asgi_runs_an_asgi_app_behind_the_webhook_url(scanctl):
    pytest.importorskip("uvicorn", reason="serve_asgi needs uvicorn (Debian's python3-uvicorn)")
    received = []

    async def app(scope, receive, send):
        assert scope["type"] == "http"
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        ok = lib.verify_signature(body, headers.get("service-signature"), scanctl.webhook_secret)
        received.append((scope["path"], ok, json.loads(body)["type"]))
        await send({"type": "http.response.start", "status": 204 if ok else 400, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    with lib.serve_asgi(app) as url:
        assert url.startswith("http://127.0.0.1:")
        scanctl.set_webhook_url(url + "/asgi-hooks")
        run = scanctl.simulate_scan("member_asgi")
        assert run["ok"]
        [delivery] = run["deliveries"]
        assert [a["status"] for a in delivery["attempts"]] == [204]
    assert received == [("/asgi-hooks", True, "scan.completed")]
    # Stopped at the block's end: the port no longer answers.
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "/asgi-hooks", timeout=2)
