# Autoscope's image: Next's standalone build served by scripts/serve.mjs, on a distroless Node.js, as a numeric
# non-root user, with a read-only root filesystem. Writable at run time: /data (history; a PersistentVolumeClaim), /app/.next/cache
# and /tmp (emptyDirs) — deploy/ mounts them. test/integration/image.test.ts runs what the final stage runs,
# from this file's COPY/ENV/USER lines, on a read-only copy as an unprivileged user.
#
# The two stages use the same Node.js major: better-sqlite3's native module is built for the Node that runs it.

FROM node:22-bookworm-slim AS build
# Build tools for better-sqlite3 when its prebuilt binary cannot be fetched; they stay in this stage. Debian's jemalloc
# (the same Debian 12 as the runtime's) is copied to an architecture-neutral path for the runtime stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ libjemalloc2 \
 && mkdir /jemalloc \
 && cp "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" /jemalloc/ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY package.json package-lock.json ./
# `npm ci` rejects this lockfile (docs/toolchain.md, trap 1); `npm install` keeps the locked versions.
RUN npm install --no-audit --no-fund
COPY . .
ENV NEXT_TELEMETRY_DISABLED=1
RUN npx next build

# No shell, no package manager, no compiler: only Node.js and the files copied below (all owned by root).
FROM gcr.io/distroless/nodejs22-debian12:nonroot AS runtime
WORKDIR /app
# The standalone server carries only the node_modules its code uses (no dev dependencies), better-sqlite3's
# native module among them; the static assets and public/ are served by it from these paths.
COPY --from=build /src/.next/standalone ./
COPY --from=build /src/.next/static ./.next/static
COPY --from=build /src/public ./public
# Autoscope's server: Next's handler (from the standalone output) behind the fast path for the hot JSON reads.
COPY --from=build /src/scripts/serve.mjs ./serve.mjs
# jemalloc in place of glibc's malloc, returning freed pages within a second from a background thread: with glibc the
# memory the watches, zlib and the threads' messages free stays resident in holes (~140 MiB at 100,000 autoscalers,
# ~1.4 KiB of RSS an autoscaler; docs/performance.md, 2026-11-28 seventh session).
COPY --from=build /jemalloc/libjemalloc.so.2 /usr/lib/libjemalloc.so.2
# HOST is the address serve.mjs binds, and tells Autoscope it is not on loopback, so it insists on a sign-in
# mode (AUTOSCOPE_AUTH; deploy/ sets it). (Not HOSTNAME, Next's server.js name: Kubernetes sets it to the pod's.)
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    AUTOSCOPE_DATA_DIR=/data \
    AUTOSCOPE_METRICS_HOST=0.0.0.0 \
    AUTOSCOPE_METRICS_PORT=9464 \
    NEXT_MANUAL_SIG_HANDLE=1 \
    NEXT_TELEMETRY_DISABLED=1 \
    LD_PRELOAD=/usr/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0
USER 65532:65532
EXPOSE 3000 9464
VOLUME ["/data"]
# The image's entrypoint is node; SIGTERM reaches it directly (no shell in between) and exits 0.
CMD ["serve.mjs"]
