# Strategos in a container: slim Python, an unprivileged user, the database on a volume.
#   docker build -t strategos .
#   docker run -d --name strategos --env-file .env -v strategos-data:/data strategos
FROM python:3.11-slim

# Metrics and health, once STRATEGOS_METRICS_PORT is set, listen on every interface of the container: other
# containers of its network scrape them (docs/operating.md, "Metrics and health").
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    STRATEGOS_DATABASE=/data/strategos.db \
    STRATEGOS_METRICS_HOST=0.0.0.0

# FriBiDi lets Pillow's libraqm shape right-to-left names (Arabic, Hebrew) and Devanagari on board pictures.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY renderers ./renderers
RUN pip install . \
    && useradd --create-home --uid 10001 strategos \
    && mkdir -p /data && chown strategos:strategos /data

USER strategos
VOLUME ["/data"]
# SIGTERM lets the bot finish a move in flight and close the database before it exits.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
