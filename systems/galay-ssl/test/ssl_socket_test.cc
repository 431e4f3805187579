// SslSocket end to end on one scheduler: echo sizes, negotiation, verification, peer close,
// timeouts, session resumption and many concurrent connections.
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
using galay::ssl::SslMethod;
using galay::ssl::SslResult;
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

struct Negotiated {
  std::string protocol, cipher, alpn;
  bool reused = false;
  galay::ssl::SslSession session;
};

// Handshake, one 47-byte echo (which also delivers TLS 1.3 session tickets), shutdown.
Task<SslResult<Negotiated>> negotiate(Scheduler& sched, const SslContext& ctx, std::uint16_t port,
                                      galay::ssl::SslSession resume = {}) {
  auto sock = SslSocket::open(ctx, sched);
  if (!sock) co_return std::unexpected(sock.error());
  auto connected = co_await sock->connect(support::loopback(port));
  if (!connected) co_return std::unexpected(connected.error());
  sock->setHostname("localhost");
  if (resume) sock->engine().setSession(resume);
  auto shaken = co_await sock->handshake(Clock::now() + 5s);
  if (!shaken) co_return std::unexpected(shaken.error());
  const std::string ping = support::pattern(47);
  auto sent = co_await sock->send(ping.data(), ping.size());
  if (!sent) co_return std::unexpected(sent.error());
  char buf[64];
  std::size_t got = 0;
  while (got < ping.size()) {
    auto n = co_await sock->recv(buf, sizeof buf, Clock::now() + 5s);
    if (!n) co_return std::unexpected(n.error());
    got += *n;
  }
  Negotiated out{std::string(sock->engine().protocol()), std::string(sock->engine().cipher()),
                 std::string(sock->engine().alpn()), sock->engine().sessionReused(),
                 sock->engine().session()};
  co_await sock->shutdown();
  co_return out;
}

// Serves `n` connections one after another (a listener has one accept in flight at a time).
Task<void> echoServer(galay::Listener& listener, const SslContext& ctx, int n,
                      std::vector<EchoOutcome>& outcomes) {
  outcomes.resize(static_cast<std::size_t>(n));
  for (auto& out : outcomes) co_await support::echoOnce(listener, ctx, out);
}

TEST(SslSocket, NegotiatesTls13WithTheConfiguredSuiteAndAlpn) {
  Scheduler sched;
  auto server = support::serverContext();
  ASSERT_TRUE(server.setAlpn({"h2", "http/1.1"}));
  ASSERT_TRUE(server.setCipherSuites("TLS_AES_128_GCM_SHA256"));
  auto client = support::clientContext(true);
  ASSERT_TRUE(client.setAlpn({"http/1.1"}));
  auto listener = support::listen(sched);
  EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  auto n = sched.blockOn(negotiate(sched, client, listener.port()));
  ASSERT_TRUE(n) << n.error().message();
  EXPECT_EQ(n->protocol, "TLSv1.3");
  EXPECT_EQ(n->cipher, "TLS_AES_128_GCM_SHA256");
  EXPECT_EQ(n->alpn, "http/1.1");
  sched.run();
}

TEST(SslSocket, AClientBoundToTls12GetsTls12) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = SslContext::create(SslMethod::kTls12Client).value();
  auto listener = support::listen(sched);
  EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  auto n = sched.blockOn(negotiate(sched, client, listener.port()));
  ASSERT_TRUE(n) << n.error().message();
  EXPECT_EQ(n->protocol, "TLSv1.2");
  sched.run();
}

TEST(SslSocket, ASessionIsResumed) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = support::clientContext(true);
  auto listener = support::listen(sched);
  std::vector<EchoOutcome> outs;
  sched.spawn(echoServer(listener, server, 2, outs));
  auto first = sched.blockOn(negotiate(sched, client, listener.port()));
  ASSERT_TRUE(first) << first.error().message();
  EXPECT_FALSE(first->reused);
  ASSERT_TRUE(first->session);
  auto second = sched.blockOn(negotiate(sched, client, listener.port(), first->session));
  ASSERT_TRUE(second) << second.error().message();
  EXPECT_TRUE(second->reused);
  sched.run();
}

TEST(SslSocket, ACertificateFromAnotherCaFailsVerification) {
  Scheduler sched;
  const auto server = support::serverContext("rogue.crt", "rogue.key");
  const auto client = support::clientContext(true);
  auto listener = support::listen(sched);
  EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  auto r = sched.blockOn(support::roundTrip(sched, client, listener.port(), "hello"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kVerificationFailed) << r.error().message();
  sched.run();
  ASSERT_FALSE(out.handshake);  // the server got our alert
  EXPECT_EQ(out.handshake.error().code(), SslErrorCode::kHandshakeFailed);
}

TEST(SslSocket, AWrongHostNameFailsVerification) {
  Scheduler sched;
  const auto server = support::serverContext();
  const auto client = support::clientContext(true);
  auto listener = support::listen(sched);
  EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  auto r = sched.blockOn(
      support::roundTrip(sched, client, listener.port(), "hello", "not-localhost.example"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), SslErrorCode::kVerificationFailed) << r.error().message();
  sched.run();
}

TEST(SslSocket, MutualTlsRejectsAClientWithoutACertificate) {
  Scheduler sched;
  auto server = support::serverContext();
  ASSERT_TRUE(server.loadCaFile(support::cert("ca.crt")));
  server.setVerifyMode(galay::ssl::VerifyMode::kPeer | galay::ssl::VerifyMode::kFailIfNoPeerCert);
  auto listener = support::listen(sched);
  std::vector<EchoOutcome> outs;
  sched.spawn(echoServer(listener, server, 2, outs));

  const auto anonymous = support::clientContext(true);
  auto refused = sched.blockOn(support::roundTrip(sched, anonymous, listener.port(), "hi"));
  EXPECT_FALSE(refused);  // TLS 1.3: the client learns it on its first read

  auto with_cert = support::clientContext(true);
  ASSERT_TRUE(with_cert.loadCertificate(support::cert("client.crt")));
  ASSERT_TRUE(with_cert.loadPrivateKey(support::cert("client.key")));
  auto accepted = sched.blockOn(support::roundTrip(sched, with_cert, listener.port(), "hi"));
  ASSERT_TRUE(accepted) << accepted.error().message();
  EXPECT_EQ(*accepted, "hi");
  sched.run();
  ASSERT_FALSE(outs[0].handshake);
  EXPECT_EQ(outs[0].handshake.error().code(), SslErrorCode::kVerificationFailed);
  EXPECT_TRUE(outs[1].handshake);
}

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
