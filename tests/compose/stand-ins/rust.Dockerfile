# rust:X.Y-bookworm: this machine's Rust toolchain (without its docs), as rustup would lay it out.
FROM benchdash-stand-in/bookworm-buildpack
ARG VERSION
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl-dev \
 && rm -rf /var/lib/apt/lists/*
COPY rust /usr/local/rustup/toolchains/${VERSION}-x86_64-unknown-linux-gnu
RUN mkdir -p /usr/local/cargo/bin \
 && for b in /usr/local/rustup/toolchains/*/bin/*; do ln -s "$b" /usr/local/cargo/bin/; done
ENV RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo RUST_VERSION=${VERSION} \
    PATH=/usr/local/cargo/bin:$PATH
