// Command lines, shared TLS settings and the report of the benchmark pairs.
#include "bench_common.hpp"

#include <netdb.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace bench {
namespace {

constexpr const char* kServerUsage =
    "usage: %s <port> <cert_file> <key_file> [backlog=4096]\n"
    "  TLS echo server; port 0 picks a free port. Prints totals on SIGINT/SIGTERM.\n";
constexpr const char* kClientUsage =
    "usage: %s <host> <port> <connections> <requests_per_conn> [payload_bytes=47] [threads=1]"
    " [connect_retries=3]\n"
    "  Each connection sends the payload and reads until it is fully echoed, per request.\n"
    "  Throughput is (bytes sent + received) in MiB (1048576 bytes) per second, printed as MB/s\n"
    "  like the seed. GALAY_SSL_STATS=1 adds I/O counters; GALAY_SSL_CIPHERSUITES overrides\n"
    "  TLS_AES_128_GCM_SHA256.\n";

template <typename T>
bool number(const char* text, T& out, T min, T max, const char* what) {
  const char* end = text + std::strlen(text);
  auto [ptr, ec] = std::from_chars(text, end, out);
  if (ec != std::errc() || ptr != end || out < min || out > max) {
    std::fprintf(stderr, "error: %s must be an integer in [%llu, %llu], got '%s'\n", what,
                 static_cast<unsigned long long>(min), static_cast<unsigned long long>(max), text);
    return false;
  }
  return true;
}

}  // namespace

std::optional<ServerArgs> parseServerArgs(int argc, char** argv) {
  if (argc < 4 || argc > 5) {
    std::fprintf(stderr, kServerUsage, argv[0]);
    return std::nullopt;
  }
  ServerArgs a;
  a.cert = argv[2];
  a.key = argv[3];
  if (!number<std::uint16_t>(argv[1], a.port, 0, 65535, "port")) return std::nullopt;
  if (argc == 5 && !number(argv[4], a.backlog, 1, 1 << 20, "backlog")) return std::nullopt;
  if (a.backlog < 128) a.backlog = 128;
  return a;
}

std::optional<ClientArgs> parseClientArgs(int argc, char** argv) {
  if (argc < 5 || argc > 8) {
    std::fprintf(stderr, kClientUsage, argv[0]);
    return std::nullopt;
  }
  ClientArgs a;
  a.host = argv[1];
  constexpr std::size_t kBig = std::size_t{1} << 40;
  bool ok = number<std::uint16_t>(argv[2], a.port, 1, 65535, "port") &&
            number<std::size_t>(argv[3], a.connections, 1, 1000000, "connections") &&
            number<std::size_t>(argv[4], a.requests, 0, kBig, "requests_per_conn");
  if (ok && argc > 5) ok = number<std::size_t>(argv[5], a.payload, 0, 1 << 30, "payload_bytes");
  if (ok && argc > 6) ok = number<std::size_t>(argv[6], a.threads, 0, 1024, "threads");
  if (ok && argc > 7) ok = number<std::size_t>(argv[7], a.retries, 0, 1000, "connect_retries");
  if (!ok) {
    std::fprintf(stderr, kClientUsage, argv[0]);
    return std::nullopt;
  }
  if (a.payload == 0) a.payload = 1;
  if (a.threads == 0) a.threads = 1;
  if (a.retries == 0) a.retries = 1;
  return a;
}

std::size_t connectionsOf(std::size_t total, std::size_t threads, std::size_t i) {
  return total / threads + (i < total % threads ? 1 : 0);
}

std::string cipherSuites() {
  const char* env = std::getenv("GALAY_SSL_CIPHERSUITES");
  return env != nullptr && *env != '\0' ? env : "TLS_AES_128_GCM_SHA256";
}

bool statsEnabled() {
  const char* env = std::getenv("GALAY_SSL_STATS");
  return env != nullptr && *env != '\0' && std::strcmp(env, "0") != 0;
}

void ClientTotals::merge(const ClientTotals& o) {
  requests += o.requests;
  bytes_sent += o.bytes_sent;
  bytes_received += o.bytes_received;
  errors.connect += o.errors.connect;
  errors.handshake += o.errors.handshake;
  errors.send += o.errors.send;
  errors.recv += o.errors.recv;
  errors.peer_closed += o.errors.peer_closed;
  send_ops += o.send_ops;
  send_bytes += o.send_bytes;
  recv_ops += o.recv_ops;
  recv_bytes += o.recv_bytes;
  recv_chunks += o.recv_chunks;
  if (negotiated.empty()) negotiated = o.negotiated;
}

void printReport(const ClientArgs& a, const ClientTotals& t, double duration_ms, bool with_stats) {
  std::ostream& out = std::cout;
  out << "\nBenchmark Results:\n==================\n";
  out << "Connections: " << a.connections << "\n";
  out << "Requests per connection: " << a.requests << "\n";
  out << "Payload bytes: " << a.payload << "\n";
  out << "Threads: " << a.threads << "\n";
  out << "Total requests: " << t.requests << "\n";
  out << "Total errors: " << t.errors.total() << "\n";
  if (t.errors.total() > 0) {
    out << "Error breakdown: connect=" << t.errors.connect << " handshake=" << t.errors.handshake
        << " send=" << t.errors.send << " recv=" << t.errors.recv
        << " peer_closed=" << t.errors.peer_closed << "\n";
  }
  out << "Total bytes sent: " << t.bytes_sent << "\n";
  out << "Total bytes received: " << t.bytes_received << "\n";
  out << "Duration: " << static_cast<long long>(duration_ms) << " ms\n";
  if (duration_ms > 0) {
    const double rps = static_cast<double>(t.requests) * 1000.0 / duration_ms;
    const double mib = static_cast<double>(t.bytes_sent + t.bytes_received) / 1048576.0;
    out << "Requests/sec: " << rps << "\n";
    out << "Throughput: " << mib * 1000.0 / duration_ms << " MB/s (MiB/s: 1 MB = 1048576 bytes)\n";
  }
  out << "Duration us: " << static_cast<long long>(duration_ms * 1000.0) << "\n";
  out << "TLS: " << (t.negotiated.empty() ? "none" : t.negotiated) << "\n";
  if (with_stats) {
    out << "\nSSL IO Stats (Benchmark-side):\n";
    out << "Send ops: " << t.send_ops << ", send plain bytes: " << t.send_bytes << "\n";
    out << "Recv ops: " << t.recv_ops << ", recv plain bytes: " << t.recv_bytes
        << ", recv chunks: " << t.recv_chunks << "\n";
    if (t.recv_chunks > 0) {
      out << "Avg recv chunk bytes: "
          << static_cast<double>(t.recv_bytes) / static_cast<double>(t.recv_chunks) << "\n";
    }
  }
  out.flush();
}

void printServerTotals(const ServerTotals& t) {
  std::cout << "Final stats:\n"
            << "Total connections: " << t.connections << "\n"
            << "Total bytes received: " << t.bytes_received << "\n"
            << "Total bytes sent: " << t.bytes_sent << "\n";
  std::cout.flush();
}

std::optional<Address> resolveAddress(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0 || found == nullptr) {
    std::fprintf(stderr, "error: cannot resolve %s: %s\n", host.c_str(), gai_strerror(rc));
    return std::nullopt;
  }
  Address out;
  std::memcpy(&out.storage, found->ai_addr, found->ai_addrlen);
  out.len = found->ai_addrlen;
  freeaddrinfo(found);
  return out;
}

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace bench
