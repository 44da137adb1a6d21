"""`memfix serve`: the same intake and worker in one Flask process."""

from __future__ import annotations

from flask import Flask, Response, request

from core.wiring import Services


def create_app(services: Services) -> Flask:
    app = Flask("memfix")

    @app.post("/webhook")
    def webhook() -> Response:
        answer = services.intake.receive(dict(request.headers), request.get_data(cache=False))
        return Response(answer.json(), status=answer.status, mimetype="application/json")

    @app.get("/healthz")
    def healthz() -> dict:
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
