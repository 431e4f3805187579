// SslSocket echo on one scheduler: payload sizes over a verified connection and many
// concurrent connections.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using galay::Clock;
using galay::Scheduler;
using galay::Task;
using galay::ssl::SslContext;
using galay::ssl::SslErrorCode;
using galay::ssl::SslSocket;
using namespace std::chrono_literals;
using support::EchoOutcome;

class Echo : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Echo, PayloadComesBackIntactOverAVerifiedConnection) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = support::clientContext(/*verify=*/true);
  auto listener = support::listen(sched);
  EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  const std::string payload = support::pattern(GetParam());
  auto back = sched.blockOn(support::roundTrip(sched, client, listener.port(), payload));
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_TRUE(*back == payload);
  sched.run();
  ASSERT_TRUE(out.finished);
  EXPECT_TRUE(out.handshake);
  EXPECT_EQ(out.echoed, payload.size());
  EXPECT_EQ(out.end, SslErrorCode::kPeerClosed);  // our close_notify
}

INSTANTIATE_TEST_SUITE_P(Sizes, Echo, ::testing::Values(1, 47, 64 * 1024, 1024 * 1024));

Task<void> acceptLoop(Scheduler& sched, galay::Listener& listener, const SslContext& ctx, int n,
                      std::vector<EchoOutcome>& outs) {
  outs.resize(static_cast<std::size_t>(n));
  for (auto& out : outs) {
    auto sock = co_await SslSocket::accept(listener, ctx);
    if (!sock) co_return;
    sched.spawn([](SslSocket s, EchoOutcome& o) -> Task<void> {
      o.handshake = co_await s.handshake(Clock::now() + 10s);
      char buf[4096];
      for (;;) {
        auto got = co_await s.recv(buf, sizeof buf);
        if (!got) break;
        auto sent = co_await s.send(buf, *got);
        if (!sent) break;
        o.echoed += *sent;
      }
      o.finished = true;
    }(std::move(*sock), out));
  }
}

Task<void> client(Scheduler& sched, const SslContext& ctx, std::uint16_t port, int rounds,
                  int& ok) {
  for (int i = 0; i < rounds; ++i) {
    auto r = co_await support::roundTrip(sched, ctx, port, support::pattern(100 + i));
    if (r && r->size() == static_cast<std::size_t>(100 + i)) ++ok;
    else break;
  }
}

TEST(SslSocket, ManyConcurrentConnectionsOnOneScheduler) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto ctx = support::clientContext(true);
  auto listener = support::listen(sched);
  constexpr int kClients = 40;
  constexpr int kRounds = 5;
  std::vector<EchoOutcome> outs;
  sched.spawn(acceptLoop(sched, listener, server, kClients * kRounds, outs));
  int ok = 0;
  for (int c = 0; c < kClients; ++c) sched.spawn(client(sched, ctx, listener.port(), kRounds, ok));
  sched.run();
  EXPECT_EQ(ok, kClients * kRounds);
  std::size_t echoed = 0;
  for (const auto& o : outs) echoed += o.echoed;
  EXPECT_EQ(echoed, static_cast<std::size_t>(kClients) * (kRounds * 100 + kRounds * (kRounds - 1) / 2));
}

}  // namespace
