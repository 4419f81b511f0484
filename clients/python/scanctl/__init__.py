"""Test against the scanctl emulator from Python: the standard library only (pytest is optional).

    from scanctl import start, verify_signature, serve_wsgi

    with start() as emulator:               # SCANCTL_BASE_URL, else SCANCTL_BIN, else scanctl on PATH,
        emulator.mint_session("member_1")   # else node_modules/.bin/scanctl
"""
from ._emulator import Emulator, ScanctlError, ScanctlNotFound, find_scanctl, start
from ._servers import serve_asgi, serve_wsgi
from ._signature import verify_signature

__all__ = [
    "Emulator",
    "ScanctlError",
    "ScanctlNotFound",
    "find_scanctl",
    "serve_asgi",
    "serve_wsgi",
    "start",
    "verify_signature",
]
__version__ = "0.1.0"
