# Dockerfile: the mazerace dedicated server as a container image (docs/packaging.md).
# Build:  docker build -t mazerace-server .   (podman: podman build --format docker -t mazerace-server .,
#         or podman drops the HEALTHCHECK)
# Run:    docker run -d --name mazerace -p 27910:27910/udp -p 27911:27911/udp -p 27912:27912/udp mazerace-server

# Build stage: the server, bot and puzzle tool only (no SDL, no tests).
FROM debian:12 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake pkg-config \
        libenet-dev libsystemd-dev libmicrohttpd-dev libsqlite3-dev libpq-dev libcurl4-openssl-dev \
        libjson-c-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=Release -DMR_CLIENT=OFF -DMR_TESTS=OFF \
        -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_SYSCONFDIR=/etc \
 && cmake --build /build -j"$(nproc)" \
 && DESTDIR=/out cmake --install /build

# Runtime stage: the server's runtime libraries and nothing else
# (tests/install/dockerfile_test.sh checks this list against ldd of the server).
FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libenet7 libmicrohttpd12 libsystemd0 libcurl4 libjson-c5 libsqlite3-0 libpq5 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 mazerace \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/mazerace --create-home \
        --shell /usr/sbin/nologin mazerace
COPY --from=build /out/usr/bin/mazerace-server /out/usr/bin/mazerace-bot /out/usr/bin/mazerace-gen /usr/bin/
COPY --from=build /out/etc/mazerace/server.conf /etc/mazerace/server.conf
# Numeric, so Kubernetes can check runAsNonRoot without reading /etc/passwd (the restricted Pod Security
# Standard refuses a named user); packaging/agones/fleet.yaml runs it as the same 10001:10001.
USER 10001:10001
WORKDIR /var/lib/mazerace
# Game (ENet), LAN discovery and spectators (ENet, the port CMD sets) over UDP; Prometheus metrics and
# /healthz over TCP.
EXPOSE 27910/udp 27911/udp 27912/udp 9100/tcp
# /healthz over bash's /dev/tcp: the slim image has no curl, and needs none.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/9100 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/mazerace-server"]
CMD ["--metrics", "0.0.0.0:9100", "--spectator-port", "27912"]
