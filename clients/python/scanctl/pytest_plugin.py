"""The pytest plugin (registered by the pytest11 entry point `scanctl`).

Fixtures:
  scanctl_emulator  session scope: one emulator per process (so one per pytest-xdist worker, each its
                    own port and in-memory database), stopped with its process group at the end.
  scanctl           the same emulator; the first test that asks for it takes a checkpoint (after the
                    session fixtures it uses were set up), and each test is restored to it afterwards.

Options (or the ini keys of the same name with `_`): --scanctl-fixtures FILE, --scanctl-seed N,
--scanctl-frozen-clock, --scanctl-clock-start TIME, --scanctl-db FILE. Marker: scanctl_no_restore.
"""
import os
import signal

import pytest

from ._emulator import Emulator, start

_OPTIONS = [
    ("fixtures", "a fixture file for the emulator (default: scanctl's bundled fixtures)", None),
    ("seed", "draw every id and token from this seed (the same run gives the same bytes)", None),
    ("clock-start", "start the virtual clock at this time (2026-01-01T09:00:00Z)", None),
    ("db", "a SQLite file instead of :memory: (one per xdist worker: the worker id is added)", None),
]


def pytest_addoption(parser):
    group = parser.getgroup("scanctl", "scanctl emulator")
    for name, help, default in _OPTIONS:
        group.addoption(f"--scanctl-{name}", dest=f"scanctl_{name.replace('-', '_')}", default=default, help=help)
        parser.addini(f"scanctl_{name.replace('-', '_')}", help, default=default)
    group.addoption("--scanctl-frozen-clock", dest="scanctl_frozen_clock", action="store_true", default=None,
                    help="the virtual clock moves only when a test moves it")
    parser.addini("scanctl_frozen_clock", "the virtual clock moves only when a test moves it", type="bool", default=False)


def pytest_configure(config):
    config.addinivalue_line("markers", "scanctl_no_restore: leave the emulator's state as this test left it (no restore after it)")
    # A SIGTERM (CI cancelling the job) runs the teardown, and so stops the emulator, as Ctrl+C does.
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        def interrupted(signum, frame):
            raise KeyboardInterrupt("SIGTERM")
        signal.signal(signal.SIGTERM, interrupted)


def _setting(config, name):
    value = config.getoption(f"scanctl_{name}")
    return value if value is not None else config.getini(f"scanctl_{name}")


@pytest.fixture(scope="session")
def scanctl_emulator(request, tmp_path_factory):
    config = request.config
    seed, db = _setting(config, "seed"), _setting(config, "db")
    if db:
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        db = f"{db}.{worker}" if worker else db
    emulator = start(
        fixtures=_setting(config, "fixtures") or None,
        seed=int(seed) if seed not in (None, "") else None,
        frozen_clock=bool(_setting(config, "frozen_clock")),
        clock_start=_setting(config, "clock_start") or None,
        db=db or ":memory:",
    )
    emulator.baseline = None
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture
def scanctl(request, scanctl_emulator: Emulator):
    if scanctl_emulator.baseline is None:
        scanctl_emulator.baseline = scanctl_emulator.checkpoint("pytest-session")
    yield scanctl_emulator
    if request.node.get_closest_marker("scanctl_no_restore") is None:
        scanctl_emulator.restore(scanctl_emulator.baseline)
