"""The team's own Flask app, in miniature: its backend mints sessions and takes the service's webhooks."""
import json
import os
import urllib.request

import flask
import scanctl

app = flask.Flask(__name__)
app.received = []  # (event id, event) of each verified delivery


@app.post("/sessions")
def sessions():
    request = urllib.request.Request(
        os.environ["SCANCTL_BASE_URL"] + "/v1/sessions",
        json.dumps({"host_user_ref": flask.request.json["user"]}).encode(),
        {"Authorization": "Bearer " + os.environ["SCANCTL_SECRET_KEY"], "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return {"token": json.load(answer)["session_token"]}, 201


@app.post("/webhooks")
def webhooks():
    body = flask.request.get_data()  # the raw bytes: verified before parsing
    if not scanctl.verify_signature(body, flask.request.headers.get("Service-Signature"), os.environ["SCANCTL_WEBHOOK_SECRET"]):
        return "", 400
    event = flask.request.headers["Service-Event-Id"]
    first = event not in [seen for seen, _ in app.received]
    app.received.append((event, json.loads(body)))
    return ("", 500) if first else ("", 204)  # fails each event's first attempt: every test plays a retry
