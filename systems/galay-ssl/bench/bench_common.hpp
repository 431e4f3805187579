// What the galay-ssl benchmark pair and the OpenSSL + libevent reference pair share: the
// command lines, the TLS settings both sides of the comparison use, and the report format.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bench {

inline constexpr std::size_t kEchoBufferBytes = 64 * 1024;
inline constexpr int kDefaultBacklog = 4096;
inline constexpr std::size_t kMaxReadLoops = 200000;

struct ServerArgs {
  std::uint16_t port = 0;  // 0: any free port (printed)
  std::string cert;
  std::string key;
  int backlog = kDefaultBacklog;
};

struct ClientArgs {
  std::string host;
  std::uint16_t port = 0;
  std::size_t connections = 0;
  std::size_t requests = 0;  // per connection
  std::size_t payload = 47;
  std::size_t threads = 1;
  std::size_t retries = 3;  // connect attempts
};

// Parse the seed's command lines; on bad input print the problem and the usage to stderr.
std::optional<ServerArgs> parseServerArgs(int argc, char** argv);
std::optional<ClientArgs> parseClientArgs(int argc, char** argv);

// Connections of thread `i` of `threads`: the first `total % threads` threads get one extra.
std::size_t connectionsOf(std::size_t total, std::size_t threads, std::size_t i);

// TLS 1.3 suites both implementations use: $GALAY_SSL_CIPHERSUITES or TLS_AES_128_GCM_SHA256.
std::string cipherSuites();
// The CA file the clients load (relative to the working directory, as in the seed).
inline constexpr const char* kClientCaFile = "certs/ca.crt";
// GALAY_SSL_STATS set, non-empty and not "0".
bool statsEnabled();

struct Errors {
  std::uint64_t connect = 0, handshake = 0, send = 0, recv = 0, peer_closed = 0;
  std::uint64_t total() const { return connect + handshake + send + recv + peer_closed; }
};

struct ClientTotals {
  std::uint64_t requests = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
  Errors errors;
  std::uint64_t send_ops = 0, send_bytes = 0;
  std::uint64_t recv_ops = 0, recv_bytes = 0, recv_chunks = 0;
  std::string negotiated;  // "TLSv1.3 TLS_AES_128_GCM_SHA256" of one connection
  void merge(const ClientTotals& other);
};

// The seed's "Label: value" block on stdout. Throughput counts bytes sent plus received in
// MiB (1048576 bytes) per second, as the seed does, though it labels them MB/s.
void printReport(const ClientArgs& args, const ClientTotals& totals, double duration_ms,
                 bool with_stats);

struct ServerTotals {
  std::uint64_t connections = 0, bytes_received = 0, bytes_sent = 0;
};
void printServerTotals(const ServerTotals& totals);

struct Address {
  sockaddr_storage storage{};
  socklen_t len = 0;
};
// getaddrinfo for the reference client; prints the problem when it fails.
std::optional<Address> resolveAddress(const std::string& host, std::uint16_t port);

// Milliseconds on the monotonic clock.
double nowMs();

}  // namespace bench
