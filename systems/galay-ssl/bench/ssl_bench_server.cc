// B1-SslBenchServer <port> <cert_file> <key_file> [backlog]: the galay-ssl TLS echo server.
// One scheduler; each connection is a coroutine echoing whatever arrives through a 64 KiB
// buffer. SIGINT/SIGTERM stop it and print the totals.
#include <signal.h>
#include <sys/signalfd.h>

#include <cstdio>
#include <iostream>
#include <memory>

#include "bench_common.hpp"
#include "galay-ssl/galay-ssl.hpp"

using galay::Clock;
using galay::Listener;
using galay::Scheduler;
using galay::Socket;
using galay::Task;
using galay::ssl::SslContext;
using galay::ssl::SslSocket;

namespace {

constexpr auto kHandshakeTimeout = std::chrono::seconds(10);

Task<void> serve(Socket tcp, const SslContext& ctx, bench::ServerTotals& totals) {
  auto sock = SslSocket::adopt(ctx, std::move(tcp));
  if (!sock) co_return;
  auto shaken = co_await sock->handshake(Clock::now() + kHandshakeTimeout);
  if (!shaken) co_return;
  auto buf = std::make_unique_for_overwrite<char[]>(bench::kEchoBufferBytes);
  for (;;) {
    auto got = co_await sock->recv(buf.get(), bench::kEchoBufferBytes);
    if (!got) break;
    totals.bytes_received += *got;
    auto sent = co_await sock->send(buf.get(), *got);
    if (!sent) break;
    totals.bytes_sent += *sent;
  }
}

Task<void> acceptLoop(Scheduler& sched, Listener& listener, const SslContext& ctx,
                      bench::ServerTotals& totals) {
  for (;;) {
    auto tcp = co_await listener.accept();
    if (!tcp) {
      if (tcp.error().value() == ECANCELED || tcp.error().value() == EBADF) co_return;
      std::cerr << "accept: " << tcp.error().message() << "\n";
      co_await galay::sleepFor(sched, std::chrono::milliseconds(10));  // e.g. out of descriptors
      continue;
    }
    ++totals.connections;
    sched.spawn(serve(std::move(*tcp), ctx, totals));
  }
}

Task<void> stopOnSignal(Scheduler& sched, Socket& signals) {
  signalfd_siginfo info{};
  co_await signals.read(reinterpret_cast<char*>(&info), sizeof info);
  sched.stop();
}

}  // namespace

int main(int argc, char** argv) {
  const auto args = bench::parseServerArgs(argc, argv);
  if (!args) return 2;
  ::signal(SIGPIPE, SIG_IGN);
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  ::sigprocmask(SIG_BLOCK, &mask, nullptr);

  auto ctx = SslContext::create(galay::ssl::SslMethod::kTlsServer);
  if (!ctx) {
    std::cerr << "error: " << ctx.error().message() << "\n";
    return 1;
  }
  for (auto step : {ctx->loadCertificate(args->cert), ctx->loadPrivateKey(args->key),
                    ctx->setCipherSuites(bench::cipherSuites())}) {
    if (!step) {
      std::cerr << "error: " << step.error().message() << "\n";
      return 1;
    }
  }
  Scheduler sched;
  auto addr = galay::resolve("0.0.0.0", args->port);
  auto listener = Listener::bind(sched, *addr, args->backlog);
  if (!listener) {
    std::cerr << "error: cannot listen on port " << args->port << ": "
              << listener.error().message() << "\n";
    return 1;
  }
  auto signals = Socket::adopt(sched, ::signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC));
  if (!signals) {
    std::cerr << "error: signalfd: " << signals.error().message() << "\n";
    return 1;
  }
  bench::ServerTotals totals;
  std::cout << "SSL Server listening on port " << listener->port() << std::endl;
  sched.spawn(acceptLoop(sched, *listener, *ctx, totals));
  sched.spawn(stopOnSignal(sched, *signals));
  sched.run();
  bench::printServerTotals(totals);
  return 0;
}
