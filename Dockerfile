# scanctl's emulator in a container: docs/container.md. Tested by `npm run test:image` (podman).
# The Node base image; the test builds a local stand-in shaped like it (no registry is reachable there).
ARG NODE_IMAGE=node:24-bookworm-slim

# Build: the whole dev install, the build, then only the production packages. better-sqlite3 ships
# its addon prebuilt inside the package, so nothing compiles and no compiler is needed in any stage.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY fixtures ./fixtures
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund
# The addon this platform loads (glibc or musl, this architecture) is all the run stage needs of
# better-sqlite3's prebuilds; its SQLite sources are for building from source. Then a load check.
RUN cd node_modules/better-sqlite3 && rm -rf deps src binding.gyp \
  && find prebuilds -type f ! -name "linux-$(node -p process.arch).node" ! -name "linuxmusl-$(node -p process.arch).node" -delete \
  && cd /app && node -e "new (require('better-sqlite3'))(':memory:').close()"

# Run: the built package and its production dependencies, owned by root, run as `node` (1000).
FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/fixtures ./fixtures
COPY --from=build /app/node_modules ./node_modules
RUN ln -s /app/bin/scanctl.js /usr/local/bin/scanctl && mkdir -p /data && chown node:node /data
# Node's heap flags, as the launcher gives serve outside the image (docs/performance.md#memory):
# set here so every node in the container has them and the launcher starts Node only once.
# SCANCTL_*, CHOICE-27: every address, the documented port, loopback names on any port (a remapped published
# port); a compose service name is added with SCANCTL_ALLOWED_HOSTS=localhost,127.0.0.1,NAME.
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=1024" \
    SCANCTL_HOST=0.0.0.0 \
    SCANCTL_PORT=7226 \
    SCANCTL_DB=/data/scanctl.db \
    SCANCTL_ALLOWED_HOSTS=localhost,127.0.0.1
USER node
# The database, its key file, serve.json and an --export-on-exit file (SCANCTL_EXPORT_ON_EXIT=/data/state.json).
WORKDIR /data
VOLUME /data
EXPOSE 7226
# No curl: scanctl asks its own health route (the URL serve records in /data/.scanctl/serve.json).
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["scanctl", "health"]
# node is PID 1 and handles SIGTERM itself: serve stops the dispatcher, writes the export, closes the port, exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/bin/scanctl.js"]
CMD ["serve"]
