"""Run: python3 -m pytest -q (or -n 4). The scanctl fixture restores the emulator after each test."""
import json
import urllib.request

import scanctl as lib


def test_mints_through_our_app(scanctl, app_url):
    request = urllib.request.Request(app_url + "/sessions", b'{"user": "member_1"}', {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201 and json.load(answer)["token"].startswith("vst_")


def test_a_retried_webhook_is_verified(scanctl, app_url, received):
    run = scanctl.simulate_scan("member_1", play_retries=True)  # moves the clock to the retry
    [delivery] = run["deliveries"]
    assert [attempt["status"] for attempt in delivery["attempts"]] == [500, 204]
    assert [event for event, _ in received] == [delivery["event_id"]] * 2


def test_a_tampered_body_is_refused(scanctl):
    assert not lib.verify_signature(b'{"id":"evt_1"} ', "0" * 64, scanctl.webhook_secret)


def test_each_test_starts_from_the_checkpoint(scanctl, app_url):
    assert scanctl.deliveries() == []
