// SslSocket failures: peer close with and without close_notify, a peer going away or staying
// silent during the handshake, recv timeout, and a refused connect.
#include <gtest/gtest.h>

#include <chrono>

#include "test_support.hpp"

namespace {

using galay::Clock;
using galay::Scheduler;
using galay::Task;
using galay::ssl::SslContext;
using galay::ssl::SslErrorCode;
using galay::ssl::SslResult;
using galay::ssl::SslSocket;
using namespace std::chrono_literals;

// Server side of the close tests: handshake, then end the connection with or without
// close_notify.
Task<void> handshakeThenClose(galay::Listener& listener, const SslContext& ctx, bool notify) {
  auto sock = co_await SslSocket::accept(listener, ctx);
  if (!sock) co_return;
  auto shaken = co_await sock->handshake(Clock::now() + 5s);
  if (shaken && notify) co_await sock->shutdown();
  sock->close();
}

Task<SslResult<std::size_t>> handshakeThenRecv(Scheduler& sched, const SslContext& ctx,
                                               std::uint16_t port, Clock::duration wait) {
  auto sock = SslSocket::open(ctx, sched);
  auto connected = co_await sock->connect(support::loopback(port));
  if (!connected) co_return std::unexpected(connected.error());
  auto shaken = co_await sock->handshake(Clock::now() + 5s);
  if (!shaken) co_return std::unexpected(shaken.error());
  char buf[16];
  co_return co_await sock->recv(buf, sizeof buf, Clock::now() + wait);
}

class PeerClose : public ::testing::TestWithParam<bool> {};

TEST_P(PeerClose, RecvReportsPeerClosed) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = support::clientContext(false);
  auto listener = support::listen(sched);
  sched.spawn(handshakeThenClose(listener, server, /*notify=*/GetParam()));
  auto r = sched.blockOn(handshakeThenRecv(sched, client, listener.port(), 5s));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kPeerClosed) << r.error().message();
}

INSTANTIATE_TEST_SUITE_P(WithAndWithoutCloseNotify, PeerClose, ::testing::Bool());

// Accepts, reads what the client sends (its ClientHello) without answering, waits `d` and
// closes (a FIN, since nothing is left unread).
Task<void> acceptAndStaySilent(Scheduler& sched, galay::Listener& listener, Clock::duration d) {
  auto peer = co_await listener.accept();
  if (!peer) co_return;
  char buf[4096];
  co_await peer->read(buf, sizeof buf);
  co_await galay::sleepFor(sched, d);
}

TEST(SslSocket, APeerGoingAwayDuringTheHandshakeIsPeerClosed) {
  Scheduler sched;
  const auto client = support::clientContext(false);
  auto listener = support::listen(sched);
  sched.spawn(acceptAndStaySilent(sched, listener, 100ms));
  auto r = sched.blockOn(handshakeThenRecv(sched, client, listener.port(), 5s));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kPeerClosed);
}

Task<SslResult<void>> handshakeWithin(Scheduler& sched, const SslContext& ctx, std::uint16_t port,
                                      Clock::duration limit) {
  auto sock = SslSocket::open(ctx, sched);
  auto connected = co_await sock->connect(support::loopback(port));
  if (!connected) co_return std::unexpected(connected.error());
  co_return co_await sock->handshake(Clock::now() + limit);
}

TEST(SslSocket, ASilentPeerTimesTheHandshakeOut) {
  Scheduler sched;
  const auto client = support::clientContext(false);
  auto listener = support::listen(sched);
  sched.spawn(acceptAndStaySilent(sched, listener, 10s));  // ended with the scheduler
  const auto t0 = Clock::now();
  auto r = sched.blockOn(handshakeWithin(sched, client, listener.port(), 100ms));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kHandshakeTimeout);
  EXPECT_GE(Clock::now() - t0, 100ms);
  EXPECT_LT(Clock::now() - t0, 5s);
}

Task<void> handshakeThenIdle(Scheduler& sched, galay::Listener& listener, const SslContext& ctx) {
  auto sock = co_await SslSocket::accept(listener, ctx);
  if (!sock) co_return;
  co_await sock->handshake(Clock::now() + 5s);
  co_await galay::sleepFor(sched, 500ms);
}

TEST(SslSocket, ARecvWithNothingToReadTimesOut) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = support::clientContext(false);
  auto listener = support::listen(sched);
  sched.spawn(handshakeThenIdle(sched, listener, server));
  auto r = sched.blockOn(handshakeThenRecv(sched, client, listener.port(), 50ms));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kTimeout);
  sched.run();
}

TEST(SslSocket, ConnectingToAClosedPortIsAConnectError) {
  Scheduler sched;
  const auto client = support::clientContext(false);
  std::uint16_t port = 0;
  {
    auto listener = support::listen(sched);
    port = listener.port();
  }
  auto r = sched.blockOn(support::roundTrip(sched, client, port, "x"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kConnectFailed);
  EXPECT_EQ(r.error().sysErrno(), ECONNREFUSED);
}

}  // namespace
