# memfix for self-hosting: `memfix serve` (webhook, dashboard and a worker on waitress) or `memfix serve --worker`.
# Jobs live in PostgreSQL (with pgvector), so any number of these containers share one database: see compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml README.md infra/constraints.txt ./
COPY core core
COPY handlers handlers
# The tools memfix runs itself (ruff, Biome, Node.js) at the versions its tests run: infra/constraints.txt.
RUN pip install --no-cache-dir --constraint constraints.txt '.[llm]' && useradd --system --home /data memfix && mkdir -p /data \
    && chown memfix /data
USER memfix
WORKDIR /data
EXPOSE 8000
# The .env that one-click App registration writes lives in /data (mount a volume to keep it).
ENV MEMFIX_ENV_FILE=/data/.env
# Healthy: this container's worker reached the database within two minutes and the job queue answers (workers have no
# web server; compose adds --url for the web container).
HEALTHCHECK --interval=30s --timeout=20s --start-period=60s CMD ["memfix", "health"]
ENTRYPOINT ["memfix"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8000"]
