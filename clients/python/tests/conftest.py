"""A team's own Flask app, behind the emulator's webhook URL: what the library's tests drive."""
import json
import os
import urllib.request

import flask
import pytest

import scanctl as lib


def team_app(emulator):
    """Mints through the service (the backend's job) and takes webhooks: verified first, the first
    attempt of each event failed (500), the second acknowledged (204)."""
    app = flask.Flask("team")
    app.received = []

    @app.post("/sessions")
    def sessions():
        request = urllib.request.Request(
            emulator.base_url + "/v1/sessions", json.dumps({"host_user_ref": flask.request.json["user"]}).encode(),
            {"Authorization": f"Bearer {emulator.secret_key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as answer:
            return {"token": json.load(answer)["session_token"]}, 201

    @app.post("/webhooks")
    def webhooks():
        body = flask.request.get_data()
        if not lib.verify_signature(body, flask.request.headers.get("Service-Signature"), emulator.webhook_secret):
            return "", 400
        event = flask.request.headers["Service-Event-Id"]
        first = event not in [e for e, _ in app.received]
        app.received.append((event, json.loads(body)))
        return ("", 500) if first else ("", 204)

    return app


@pytest.fixture(scope="session")
def app(scanctl_emulator):
    app = team_app(scanctl_emulator)
    with lib.serve_wsgi(app) as url:
        app.url = url
        scanctl_emulator.set_webhook_url(url + "/webhooks")
        yield app


@pytest.fixture(autouse=True)
def forget(app):
    yield
    app.received.clear()


@pytest.fixture(scope="session", autouse=True)
def record_emulator(scanctl_emulator):
    """With SCANCTL_TEST_RECORD set, each worker writes its emulator's pid and URL there (the npm suite
    checks there were four, that they differ, and that none is left)."""
    folder = os.environ.get("SCANCTL_TEST_RECORD")
    if folder:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(os.path.join(folder, f"{worker}.json"), "w") as f:
            json.dump({"worker": worker, "pid": scanctl_emulator.pid, "base_url": scanctl_emulator.base_url}, f)
    yield
