# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, run with production dependencies only, as a non-root user.
# Node 24 LTS (Node 20 is end of life); the code and tests also run on Node 20.19+ and 22 (package.json engines).
# Not built on the development machine (no Docker engine there): kept deliberately plain.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
# patches/ before npm ci: its postinstall applies them (patch-package, docs/DECISIONS.md 131).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npx remix build

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system grader && useradd --system --gid grader --home /app grader \
  && mkdir -p /data && chown grader:grader /data
COPY --from=prod-deps --chown=grader:grader /app/node_modules ./node_modules
COPY --from=build --chown=grader:grader /app/build ./build
COPY --from=build --chown=grader:grader /app/public ./public
COPY --chown=grader:grader package.json server.ts tsconfig.json ./
COPY --chown=grader:grader app ./app
COPY --chown=grader:grader migrations ./migrations
# The provider simulators: only used when DEMO=1 or DEMO_PROVIDERS allows them; without either the
# server refuses to start until every provider has credentials (docs/OPERATIONS.md).
COPY --chown=grader:grader test/mocks ./test/mocks
USER grader
EXPOSE 3000
VOLUME ["/data"]
# Liveness (the process answers and reaches its database); orchestrators use /readyz for traffic.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# server.ts runs through tsx (a production dependency); SIGTERM reaches it directly for a graceful stop.
CMD ["node", "--import", "tsx", "server.ts"]
