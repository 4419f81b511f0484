# scanctl's emulator in a container, from the single executable: docs/container.md. Build
# dist/exe/scanctl first (`npm run build:exe`; another platform's: --build-arg EXE=dist/exe/linux-arm64/scanctl).
# Tested by `npm run test:image` (podman), against local stand-ins of both bases (no registry is reachable there).
# The run image: glibc and libstdc++ only, all the executable needs; no shell, package manager, Node or npm.
ARG BASE_IMAGE=gcr.io/distroless/cc-debian12
# Where the image's user and folders are made, since the run image has no shell to make them.
ARG PREP_IMAGE=debian:bookworm-slim

FROM ${PREP_IMAGE} AS prep
ARG EXE=dist/exe/scanctl
COPY ${EXE} /out/usr/local/bin/scanctl
# The user `node` (1000), as the Node-based image had; its cache folder, where the executable unpacks
# its SQLite addon and fixtures once: done here, so a container starts without writing it.
RUN mkdir -p /out/etc /out/data /out/home/node/.cache /out/tmp \
  && chmod 755 /out/usr/local/bin/scanctl && chmod 1777 /out/tmp \
  && printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnode:x:1000:1000::/home/node:/sbin/nologin\n' > /out/etc/passwd \
  && printf 'root:x:0:\nnobody:x:65534:\nnode:x:1000:\n' > /out/etc/group \
  && XDG_CACHE_HOME=/out/home/node/.cache /out/usr/local/bin/scanctl exec --db :memory: -- true \
  && chown -R 1000:1000 /out/data /out/home/node

FROM ${BASE_IMAGE}
COPY --from=prep /out/ /
# SCANCTL_*, CHOICE-27: every address, the documented port, loopback names on any port (a remapped published
# port); a compose service name is added with SCANCTL_ALLOWED_HOSTS=localhost,127.0.0.1,NAME. The heap
# flags are the executable's own (its execArgv): no NODE_OPTIONS, which would make it start twice.
ENV PATH=/usr/local/bin:/usr/bin:/bin \
    HOME=/home/node \
    XDG_CACHE_HOME=/home/node/.cache \
    SCANCTL_HOST=0.0.0.0 \
    SCANCTL_PORT=7226 \
    SCANCTL_DB=/data/scanctl.db \
    SCANCTL_ALLOWED_HOSTS=localhost,127.0.0.1
USER 1000:1000
# The database, its key file, serve.json and an --export-on-exit file (SCANCTL_EXPORT_ON_EXIT=/data/state.json).
WORKDIR /data
VOLUME /data
EXPOSE 7226
# No curl: scanctl asks its own health route (the URL serve records in /data/.scanctl/serve.json).
HEALTHCHECK --interval=5s --timeout=3s --start-period=20s --retries=3 CMD ["scanctl", "health"]
# scanctl is PID 1 and handles SIGTERM itself: serve stops the dispatcher, writes the export, closes the port, exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["scanctl"]
CMD ["serve"]
