import os

import pytest
import scanctl

from app import app


@pytest.fixture(scope="session")
def app_url(scanctl_emulator):
    os.environ.update(scanctl_emulator.env)  # the app reads SCANCTL_* as it would in production
    with scanctl.serve_wsgi(app) as url:
        scanctl_emulator.set_webhook_url(url + "/webhooks")
        yield url


@pytest.fixture(autouse=True)
def received():
    yield app.received
    app.received.clear()
