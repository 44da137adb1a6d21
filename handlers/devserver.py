"""`memfix serve`: the same intake and worker in one Flask process."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request

from core.intake import Answer
from core.wiring import Services


def create_app(services: Services, address: str | None = None) -> Flask:
    """`address`: where this server listens (http://host:port), for the URLs it builds when MEMFIX_PUBLIC_URL is
    unset; a request's Host header never builds one."""
    app = Flask("memfix")
    app.config["MEMFIX_ADDRESS"] = address

    @app.post("/webhook")
    def webhook() -> Response:
        limit = services.settings.max_body_bytes
        # Refused before the body is read when its length says so; otherwise read at most one byte more than the
        # limit (chunked bodies too), so no request can make this process hold more.
        if request.content_length is not None and request.content_length > limit:
            answer = Answer(413, {"error": f"payload larger than {limit} bytes"})
        else:
            answer = services.intake.receive(dict(request.headers), request.stream.read(limit + 1))
        return Response(answer.json(), status=answer.status, mimetype="application/json")

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        queue = services.queue
        return {
            "ok": True,
            "pending_jobs": getattr(queue, "pending", None),
            "done_jobs": getattr(queue, "done", None),
            "dead_jobs": len(getattr(queue, "dead", ())),
        }

    from handlers.dashboard import install

    install(app, services)
    return app
