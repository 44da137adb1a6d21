# memfix for self-hosting: `memfix serve` (webhook, dashboard and a worker on waitress) or `memfix serve --worker`.
# Jobs live in PostgreSQL (with pgvector), so any number of these containers share one database: see compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY core core
COPY handlers handlers
COPY migrations migrations
COPY infra/github-app-manifest.json infra/github-app-manifest.json
RUN pip install --no-cache-dir '.[llm]' && useradd --system --home /data memfix && mkdir -p /data \
    && chown memfix /data
USER memfix
WORKDIR /data
EXPOSE 8000
# The .env that one-click App registration writes lives in /data (mount a volume to keep it).
ENV MEMFIX_ENV_FILE=/data/.env
HEALTHCHECK CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=5)"
ENTRYPOINT ["memfix"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
