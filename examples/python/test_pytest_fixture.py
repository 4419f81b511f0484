"""The pytest form, with the scanctl_env fixture of conftest.py. Run: python3 -m pytest -q test_pytest_fixture.py"""
from test_scanctl import post_json


def test_mints_a_session(scanctl_env):
    status, session = post_json(scanctl_env["SCANCTL_BASE_URL"] + "/v1/sessions", {"host_user_ref": "member_pytest"}, scanctl_env["SCANCTL_SECRET_KEY"])
    assert status == 201
    assert session["session_token"].startswith("vst_")
