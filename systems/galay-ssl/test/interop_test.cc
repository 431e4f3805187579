// Handshake both ways against an independent peer: plain blocking OpenSSL (socket BIOs) on
// its own thread, with galay-ssl as the client and as the server.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "test_support.hpp"

namespace {

using galay::Scheduler;

void setTimeouts(int fd) {
  const timeval tv{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

// A blocking listener on 127.0.0.1 (port in `port`).
int blockingListener(std::uint16_t& port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sin{};
  sin.sin_family = AF_INET;
  sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&sin), sizeof sin) != 0 || listen(fd, 4) != 0) {
    close(fd);
    return -1;
  }
  socklen_t len = sizeof sin;
  getsockname(fd, reinterpret_cast<sockaddr*>(&sin), &len);
  port = ntohs(sin.sin_port);
  return fd;
}

struct PeerReport {
  bool handshake = false;
  std::string received;
  std::string protocol;
};

// One connection: SSL_accept, echo until the client closes.
void blockingEchoServer(int listen_fd, SSL_CTX* ctx, PeerReport& report) {
  const int fd = accept(listen_fd, nullptr, nullptr);
  if (fd < 0) return;
  setTimeouts(fd);
  SSL* ssl = SSL_new(ctx);
  SSL_set_fd(ssl, fd);
  if (SSL_accept(ssl) == 1) {
    report.handshake = true;
    report.protocol = SSL_get_version(ssl);
    char buf[16384];
    int n = 0;
    while ((n = SSL_read(ssl, buf, sizeof buf)) > 0) {
      report.received.append(buf, static_cast<std::size_t>(n));
      if (SSL_write(ssl, buf, n) != n) break;
    }
  }
  SSL_free(ssl);
  close(fd);
}

TEST(Interop, GalayClientTalksToABlockingOpenSslServer) {
  const auto server_ctx = support::serverContext();
  std::uint16_t port = 0;
  const int listen_fd = blockingListener(port);
  ASSERT_GE(listen_fd, 0);
  PeerReport report;
  std::thread peer(blockingEchoServer, listen_fd, server_ctx.native(), std::ref(report));
  const std::string payload = support::pattern(100'000);
  {
    Scheduler sched;
    const auto client = support::clientContext(true);
    auto back = sched.blockOn(support::roundTrip(sched, client, port, payload));
    ASSERT_TRUE(back) << back.error().message();
    EXPECT_TRUE(*back == payload);
  }
  peer.join();
  close(listen_fd);
  EXPECT_TRUE(report.handshake);
  EXPECT_EQ(report.protocol, "TLSv1.3");
  EXPECT_TRUE(report.received == payload);
}

// Connect, verify the server (CA + host name), send, read the echo, close_notify.
void blockingClient(std::uint16_t port, const std::string& payload, PeerReport& report) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  SSL_CTX_load_verify_locations(ctx, support::cert("ca.crt").c_str(), nullptr);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  setTimeouts(fd);
  sockaddr_in sin{};
  sin.sin_family = AF_INET;
  sin.sin_port = htons(port);
  sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  SSL* ssl = SSL_new(ctx);
  SSL_set_tlsext_host_name(ssl, "localhost");
  SSL_set1_host(ssl, "localhost");
  SSL_set_fd(ssl, fd);
  if (connect(fd, reinterpret_cast<sockaddr*>(&sin), sizeof sin) == 0 && SSL_connect(ssl) == 1) {
    report.handshake = true;
    report.protocol = SSL_get_version(ssl);
    std::size_t sent = 0;
    while (sent < payload.size()) {
      // small writes keep both directions moving, as the server echoes as it reads
      const int chunk = static_cast<int>(std::min<std::size_t>(8192, payload.size() - sent));
      if (SSL_write(ssl, payload.data() + sent, chunk) != chunk) break;
      sent += static_cast<std::size_t>(chunk);
      char buf[16384];
      while (report.received.size() < sent) {
        const int n = SSL_read(ssl, buf, sizeof buf);
        if (n <= 0) break;
        report.received.append(buf, static_cast<std::size_t>(n));
      }
    }
    SSL_shutdown(ssl);
  }
  SSL_free(ssl);
  close(fd);
  SSL_CTX_free(ctx);
}

TEST(Interop, ABlockingOpenSslClientTalksToAGalayServer) {
  Scheduler sched;
  const auto server = support::serverContext();
  auto listener = support::listen(sched);
  support::EchoOutcome out;
  sched.spawn(support::echoOnce(listener, server, out));
  const std::string payload = support::pattern(100'000);
  PeerReport report;
  std::thread peer(blockingClient, listener.port(), std::cref(payload), std::ref(report));
  sched.run();
  peer.join();
  EXPECT_TRUE(report.handshake);
  EXPECT_EQ(report.protocol, "TLSv1.3");
  EXPECT_TRUE(report.received == payload);
  ASSERT_TRUE(out.handshake);
  EXPECT_EQ(out.echoed, payload.size());
  EXPECT_EQ(out.end, support::SslErrorCode::kPeerClosed);
}

}  // namespace
