"""What every fake HTTP server shares: a real server on 127.0.0.1, an ephemeral port, a background thread."""

from __future__ import annotations

import threading
from typing import Any, Self

from werkzeug.serving import WSGIRequestHandler, make_server


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, *args: Any, **kwargs: Any) -> None:  # tests read .requests instead
        pass


class FakeServer:
    """Subclasses set `self.app` (a WSGI app) in their constructor; `with Sub() as s:` serves it at `s.url`."""

    name = "fake"
    app: Any

    def start(self, fd: int | None = None) -> Self:
        """On an ephemeral port of 127.0.0.1, or on the listening socket `fd` (one a parent process bound)."""
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True, request_handler=_QuietHandler, fd=fd)
        # a short poll interval makes stop() quick; shutdown() waits for the next poll
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02},
                                        name=self.name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if getattr(self, "_server", None) is not None:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(timeout=5)
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.port}"  # werkzeug's .port: also set on an inherited socket
