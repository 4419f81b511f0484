"""The same setup as a pytest fixture (pytest is not needed by test_scanctl.py, which is unittest).

    def test_mint(scanctl_env):
        ...  # scanctl_env["SCANCTL_BASE_URL"], scanctl_env["SCANCTL_SECRET_KEY"], ...
"""
import pytest

from test_scanctl import start_or_reach, wait_until_ready


@pytest.fixture(scope="session")
def scanctl_env():
    env, serve = start_or_reach()
    wait_until_ready(env["SCANCTL_BASE_URL"])
    yield env
    if serve:
        serve.terminate()
        serve.wait(timeout=10)
