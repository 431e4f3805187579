# Shared by the golang and rust stand-ins: the compilers and tools the official images carry.
FROM benchdash-stand-in/bookworm
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ gcc libc6-dev make pkg-config git curl procps \
 && rm -rf /var/lib/apt/lists/*
