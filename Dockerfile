# SPDX-License-Identifier: MIT
# grundyd as a container image: build, runtime (the default, last-built
# target is `runtime`: it is the final stage) and smoke.
#
#   podman build --format docker -t grundyd:latest .      # or: docker build -t grundyd:latest .
#   podman run --rm --read-only --tmpfs /tmp -p 8080:8080 grundyd:latest
#   podman build --format docker --target smoke .          # builds and tests the runtime image
#
# The runtime image runs as UID/GID 10001, writes nothing outside /tmp (the
# NDJSON batch spool, tmpfile(3), which ignores TMPDIR), listens on
# 0.0.0.0:8080 and is configured by GRUNDYD_* environment variables
# (grundyd --help lists them). `--format docker` keeps the HEALTHCHECK, which
# the OCI image format has no field for. Base images are named in full so
# that podman resolves them without a short-name prompt; they are the
# official debian:bookworm and debian:bookworm-slim.

# ---------------------------------------------------------------------------
# build: compiles the two binaries and the default table file, and installs
# them under /out exactly as `meson install` lays them out for the prefix
# /usr/local: /usr/local/bin/{grundyd,grundy} and
# /usr/local/share/grundyd/grundy.tables, the data directory grundyd falls
# back to when no GRUNDYD_TABLES is set.
FROM docker.io/library/debian:bookworm AS build
# APT_PROXY: an apt proxy URL for the build's apt-get (none by default; not
# kept in any image).
ARG APT_PROXY=
RUN apt-get ${APT_PROXY:+-o Acquire::http::Proxy=$APT_PROXY} update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get ${APT_PROXY:+-o Acquire::http::Proxy=$APT_PROXY} \
      install -y -qq --no-install-recommends \
      build-essential meson ninja-build pkg-config libmicrohttpd-dev libcjson-dev zlib1g-dev python3 >/dev/null \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .dockerignore keeps build trees, tests, node_modules and .git out.
COPY . .
# The table file's sizes are the meson defaults (tables_grundys_values,
# tables_octal_values): the same file scripts/run.sh serves.
RUN meson setup /build --buildtype=release -Dtests=false --prefix=/usr/local >/dev/null \
 && ninja -C /build \
 && meson install -C /build --destdir /out --strip --no-rebuild --quiet \
 && /out/usr/local/bin/grundy tables info /out/usr/local/share/grundyd/grundy.tables >/dev/null

# ---------------------------------------------------------------------------
# runtime: the shared libraries, the two binaries and the table file.
FROM docker.io/library/debian:bookworm-slim AS runtime
ARG APT_PROXY=
RUN apt-get ${APT_PROXY:+-o Acquire::http::Proxy=$APT_PROXY} update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get ${APT_PROXY:+-o Acquire::http::Proxy=$APT_PROXY} \
      install -y -qq --no-install-recommends libmicrohttpd12 libcjson1 zlib1g >/dev/null \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && groupadd --system --gid 10001 grundyd \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin grundyd
COPY --from=build /out/usr/local/ /usr/local/
LABEL org.opencontainers.image.title="grundyd" \
      org.opencontainers.image.description="HTTP/JSON analysis service for combinatorial games" \
      org.opencontainers.image.licenses="MIT"
# Every option of grundyd has a GRUNDYD_* variable; these are the ones the
# image fixes. The table file is named explicitly rather than found.
ENV GRUNDYD_HOST=0.0.0.0 \
    GRUNDYD_PORT=8080 \
    GRUNDYD_TABLES=/usr/local/share/grundyd/grundy.tables
# Numeric, so that Kubernetes' runAsNonRoot can verify it without /etc/passwd.
USER 10001:10001
EXPOSE 8080
# The image's own probe (no curl here): GET /healthz on loopback at
# $GRUNDYD_PORT, 200 within 2 s or unhealthy.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["grundy", "healthcheck", "--timeout", "2"]
# grundyd drains in-flight requests on SIGTERM for --drain-timeout (10 s by
# default): give `docker stop` / `podman stop` a -t longer than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["grundyd"]

# ---------------------------------------------------------------------------
# smoke: the runtime image, tested from inside as its own user (see
# deploy/container/smoke.sh). SMOKE_PORT: the port it serves on during the
# test (a build with --isolation=chroot shares the host's network, so the
# caller picks a free one). SMOKE_RUN: any new value reruns the test instead
# of taking it from the layer cache.
FROM runtime AS smoke
ARG SMOKE_PORT=8080
ARG SMOKE_RUN=0
COPY deploy/container/smoke.sh /usr/local/libexec/grundyd-smoke.sh
RUN echo "smoke run $SMOKE_RUN" && GRUNDYD_PORT=$SMOKE_PORT bash /usr/local/libexec/grundyd-smoke.sh

# The default target: the last stage is what a build without --target gives.
FROM runtime
