// SslSocket handshakes: negotiated version, suite and ALPN, session resumption, and
// certificate verification (another CA, wrong host name, mutual TLS).
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

}  // namespace
