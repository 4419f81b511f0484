"""Your own app on a free loopback port, in a thread, for the length of a `with` block."""
import contextlib
import socketserver
import threading
from typing import Any, Iterator
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


class _ThreadingWSGIServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


@contextlib.contextmanager
def serve_wsgi(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """Serves a WSGI app (Flask, Django's get_wsgi_application()) on a free port; yields its URL
    (http://127.0.0.1:PORT, no trailing slash). Each request in its own thread; stopped at the block's end."""
    server = make_server(host, 0, app, server_class=_ThreadingWSGIServer, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="scanctl-wsgi", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@contextlib.contextmanager
def serve_asgi(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """serve_wsgi's twin for an ASGI app (FastAPI, Starlette), through uvicorn (Debian's python3-uvicorn)."""
    try:
        import uvicorn  # type: ignore
    except ImportError as error:
        raise RuntimeError("serve_asgi needs uvicorn (apt install python3-uvicorn, or pip install uvicorn)") from error
    import socket

    sock = socket.socket()
    sock.bind((host, 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="scanctl-asgi", daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            threading.Event().wait(0.01)
        yield f"http://{host}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()
