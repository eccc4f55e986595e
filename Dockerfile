# syntax=docker/dockerfile:1
# Zixue in production: Node 24, ffmpeg, the built front end, run as the unprivileged `node` user.
# docs/deploy.md explains the layout this image runs in (compose.yaml starts it locally).

# ---- build: all dependencies, the front-end build ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx react-router build && node scripts/precompress.ts

# ---- runtime dependencies only ----
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  APP_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/app/data \
  BUILD_DIR=/app/build
WORKDIR /app
# The server runs its TypeScript sources directly (Node 24 strips the types); no dev tools in the image.
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/build ./build
COPY --chown=root:root package.json ./
COPY --chown=root:root server ./server
COPY --chown=root:root shared ./shared
COPY --chown=root:root app ./app
COPY --chown=root:root scripts ./scripts
# Only the data folder is writable (transcoding scratch space; the embedded database when DATABASE_URL is unset).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/main.ts"]
