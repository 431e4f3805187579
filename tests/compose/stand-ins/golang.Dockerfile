# golang:X.Y-bookworm: this machine's Go toolchain.
FROM benchdash-stand-in/bookworm-buildpack
ARG VERSION
COPY go /usr/local/go
ENV GOLANG_VERSION=${VERSION} GOTOOLCHAIN=local GOPATH=/go PATH=/go/bin:/usr/local/go/bin:$PATH
WORKDIR /go
