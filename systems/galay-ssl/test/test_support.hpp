// Shared pieces of the test suites: certificates, contexts, a one-connection echo server and
// a client round trip, all on one Scheduler.
#pragma once

#include <cstdint>
#include <string>

#include "galay-ssl/galay-ssl.hpp"

namespace support {

using galay::Scheduler;
using galay::Task;
using galay::ssl::SslContext;
using galay::ssl::SslErrorCode;
using galay::ssl::SslResult;

// Path of a generated certificate file (scripts/gen-certs.sh).
std::string cert(const char* name);
// A server context with `crt`/`key`; throws (failing the test) when loading fails.
SslContext serverContext(const char* crt = "server.crt", const char* key = "server.key");
// A client context; with `verify`, the test CA is trusted and the peer is verified.
SslContext clientContext(bool verify);
galay::SockAddr loopback(std::uint16_t port);
galay::Listener listen(Scheduler& sched);
// Deterministic non-uniform bytes.
std::string pattern(std::size_t n);

struct EchoOutcome {
  SslResult<void> handshake = std::unexpected(galay::ssl::SslError(SslErrorCode::kUnknown));
  std::size_t echoed = 0;
  SslErrorCode end = SslErrorCode::kSuccess;
  bool finished = false;
};
// Accepts one connection, handshakes and echoes until the stream ends or fails.
Task<void> echoOnce(galay::Listener& listener, const SslContext& ctx, EchoOutcome& out);

// Connects to 127.0.0.1:`port` (SNI `host`), sends `payload` while reading its echo (full
// duplex), then shuts down. Returns what came back.
Task<SslResult<std::string>> roundTrip(Scheduler& sched, const SslContext& ctx,
                                       std::uint16_t port, const std::string& payload,
                                       std::string host = "localhost");

}  // namespace support
