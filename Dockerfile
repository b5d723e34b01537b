# syntax=docker/dockerfile:1
# The local sandbox as a container image (docs/team-sandbox.md). The build stage installs the dependencies
# and bundles the command line; the runtime stage carries only what `ob-console sandbox` reads at run time:
# the bundle, the built validators, the packages the bundle loads lazily, the seed data, the OpenAPI files
# and the SQL migrations. No key, certificate or data is in the image: the sandbox generates its PKI on the
# first start into the PostgreSQL store (--store) and writes the CA bundle and starter kits to /data.

FROM node:24-slim AS build
WORKDIR /app
# Electron is a devDependency of the desktop app, never run here: no binary download.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
# The lifecycle scripts wait for the sources (the "prepare" script builds the command line from them).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node scripts/build-cli.mjs && node scripts/runtime-modules.mjs

FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    OB_CONSOLE_SANDBOX_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/bin ./bin
COPY --from=build /app/out/cli ./out/cli
COPY --from=build /app/out/validators ./out/validators
COPY --from=build /app/out/runtime-modules/node_modules ./node_modules
COPY --from=build /app/resources/local-sandbox ./resources/local-sandbox
COPY --from=build /app/resources/openapi ./resources/openapi
COPY --from=build /app/deploy/healthcheck.mjs ./deploy/healthcheck.mjs
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# base_url (mutual TLS), auth_url, directory.
EXPOSE 8443 8444 8445
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "deploy/healthcheck.mjs", "8445"]
ENTRYPOINT ["node", "bin/ob-console.js"]
CMD ["sandbox", "--bind", "0.0.0.0", "--port", "8443", "--data-dir", "/data"]
