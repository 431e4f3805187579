// B1-SslBenchClient <host> <port> <connections> <requests_per_conn> [payload_bytes=47]
//                   [threads=1] [connect_retries=3]
// Connections are split over threads, each with its own scheduler and client context; each
// connection is a coroutine that sends the payload and reads until all of it came back, per
// request. A payload larger than the echo buffer is sent by a helper coroutine while the
// echo is read (as libevent's buffered writes do), so no payload size can fill both socket
// buffers and stall. Prints the seed's report (bench_common.hpp).
#include <signal.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.hpp"
#include "galay-ssl/galay-ssl.hpp"
#include "galay-ssl/runtime/event.hpp"

using galay::Scheduler;
using galay::SockAddr;
using galay::Task;
using galay::ssl::SslContext;
using galay::ssl::SslErrorCode;
using galay::ssl::SslSocket;

namespace {

struct Shared {
  const bench::ClientArgs* args;
  SockAddr addr;
  std::string payload;
  bool stats;
};

struct Sending {
  explicit Sending(Scheduler& s) : finished(s) {}
  galay::Event finished;
  bool failed = false;
};

Task<void> sendConcurrently(SslSocket& sock, const char* data, std::size_t n, Sending& st) {
  auto sent = co_await sock.send(data, n);
  st.failed = !sent;
  st.finished.set();
}

Task<void> runConnection(Scheduler& sched, const SslContext& ctx, const Shared& sh,
                         bench::ClientTotals& t) {
  const bench::ClientArgs& a = *sh.args;
  std::optional<SslSocket> sock;
  for (std::size_t attempt = 0; attempt < a.retries && !sock; ++attempt) {
    if (attempt > 0) co_await galay::sleepFor(sched, std::chrono::milliseconds(10 * attempt));
    auto fresh = SslSocket::open(ctx, sched, sh.addr.family());
    if (!fresh) continue;
    auto connected = co_await fresh->connect(sh.addr);
    if (connected) sock.emplace(std::move(*fresh));
  }
  if (!sock) {
    ++t.errors.connect;
    co_return;
  }
  sock->setHostname(a.host);
  auto shaken = co_await sock->handshake();
  if (!shaken) {
    ++t.errors.handshake;
    co_return;
  }
  if (t.negotiated.empty()) {
    t.negotiated = std::string(sock->engine().protocol()) + " " + std::string(sock->engine().cipher());
  }
  const std::size_t n = a.payload;
  const std::size_t chunk = std::min(bench::kEchoBufferBytes, n);
  auto buf = std::make_unique_for_overwrite<char[]>(chunk);
  for (std::size_t r = 0; r < a.requests; ++r) {
    std::optional<Sending> helper;
    if (n <= bench::kEchoBufferBytes) {
      auto sent = co_await sock->send(sh.payload.data(), n);
      if (!sent) {
        ++t.errors.send;
        co_return;
      }
    } else {
      helper.emplace(sched);
      sched.spawn(sendConcurrently(*sock, sh.payload.data(), n, *helper));
    }
    std::size_t got = 0;
    bool recv_failed = false;
    bool peer_closed = false;
    for (std::size_t loops = 0; got < n; ++loops) {
      if (loops >= bench::kMaxReadLoops) {
        recv_failed = true;
        break;
      }
      auto part = co_await sock->recv(buf.get(), std::min(chunk, n - got));
      ++t.recv_ops;
      if (!part) {
        recv_failed = true;
        peer_closed = part.error() == SslErrorCode::kPeerClosed;
        break;
      }
      ++t.recv_chunks;
      t.recv_bytes += *part;
      got += *part;
    }
    if (helper) {
      if (recv_failed) sock->close();  // a sender still parked completes with ECANCELED
      co_await helper->finished.wait();
    }
    if (recv_failed) {
      if (peer_closed) ++t.errors.peer_closed;
      else ++t.errors.recv;
      co_return;
    }
    if (helper && helper->failed) {
      ++t.errors.send;
      co_return;
    }
    ++t.send_ops;
    t.send_bytes += n;
    t.bytes_sent += n;
    t.bytes_received += got;
    ++t.requests;
  }
  co_await sock->shutdown();
}

void runThread(const Shared& sh, std::size_t connections, bench::ClientTotals& out) {
  auto ctx = SslContext::create(galay::ssl::SslMethod::kTlsClient);
  if (!ctx || !ctx->setCipherSuites(bench::cipherSuites())) {
    std::cerr << "error: cannot create the client TLS context\n";
    out.errors.handshake += connections;
    return;
  }
  static_cast<void>(ctx->loadCaFile(bench::kClientCaFile));  // verify mode None, as the seed
  Scheduler sched;
  for (std::size_t i = 0; i < connections; ++i) sched.spawn(runConnection(sched, *ctx, sh, out));
  sched.run();
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = bench::parseClientArgs(argc, argv);
  if (!args) return 2;
  ::signal(SIGPIPE, SIG_IGN);
  auto addr = galay::resolve(args->host, args->port);
  if (!addr) {
    std::cerr << "error: cannot resolve " << args->host << ": " << addr.error().message() << "\n";
    return 1;
  }
  const Shared shared{&*args, *addr, std::string(args->payload, 'x'), bench::statsEnabled()};
  std::vector<bench::ClientTotals> per_thread(args->threads);
  std::vector<std::thread> threads;
  const double t0 = bench::nowMs();
  for (std::size_t i = 0; i < args->threads; ++i) {
    const std::size_t conns = bench::connectionsOf(args->connections, args->threads, i);
    threads.emplace_back([&shared, conns, &slot = per_thread[i]] { runThread(shared, conns, slot); });
  }
  for (std::thread& th : threads) th.join();
  const double duration_ms = bench::nowMs() - t0;
  bench::ClientTotals totals;
  for (const auto& t : per_thread) totals.merge(t);
  bench::printReport(*args, totals, duration_ms, shared.stats);
  return totals.errors.total() == 0 ? 0 : 1;
}
