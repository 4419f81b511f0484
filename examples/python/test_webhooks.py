"""A retried, verified webhook, proven with scanctl. Run: python3 -m pytest -q"""
import json
import urllib.request

from verify import verify


def mint(scanctl, host_user_ref):
    request = urllib.request.Request(
        scanctl.base_url + "/v1/sessions",
        json.dumps({"host_user_ref": host_user_ref}).encode(),
        {"Authorization": f"Bearer {scanctl.env['SCANCTL_SECRET_KEY']}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, json.load(answer)


def test_a_failed_webhook_is_retried_verified_and_acknowledged(scanctl, receiver):
    # --play-retries moves the emulator's clock to each retry when it is due: no sleeping.
    result = scanctl.json("scan", "simulate", "--user", "member_py", "--wait", "--play-retries")
    assert result["ok"] is True
    [log] = result["log"]
    assert [attempt["status"] for attempt in log["attempts"]] == [500, 204]
    # The receiver saw the same event twice, each signature valid.
    assert [(d["event_id"], d["verified"]) for d in receiver.deliveries] == [(log["event_id"], True)] * 2
    assert receiver.deliveries[1]["event"]["data"]["scan_id"] == log["scan_id"]


def test_each_test_starts_from_the_checkpoint(scanctl, receiver):
    # The scan of the test above was rolled back with the rest of the state.
    assert scanctl.json("scan", "list", "--user", "member_py")["data"] == []
    assert receiver.deliveries == []


def test_mints_a_session_with_the_test_secret_key(scanctl):
    status, session = mint(scanctl, "member_py")
    assert status == 201
    assert session["session_token"].startswith("vst_")


def test_a_changed_body_fails_the_signature_check(scanctl):
    import hashlib
    import hmac

    secret = scanctl.env["SCANCTL_WEBHOOK_SECRET"]
    body = b'{"id":"evt_1"}'
    signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    assert verify(body, signature, secret)
    assert not verify(body + b" ", signature, secret)
