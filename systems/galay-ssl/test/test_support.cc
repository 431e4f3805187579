#include "test_support.hpp"

#include <chrono>
#include <memory>
#include <vector>

#include "galay-ssl/runtime/event.hpp"

namespace support {

using galay::Clock;
using galay::ssl::SslError;
using galay::ssl::SslSocket;
using namespace std::chrono_literals;

std::string cert(const char* name) { return std::string(GALAY_SSL_TEST_CERTS) + "/" + name; }

SslContext serverContext(const char* crt, const char* key) {
  auto ctx = SslContext::create(galay::ssl::SslMethod::kTlsServer).value();
  ctx.loadCertificate(cert(crt)).value();
  ctx.loadPrivateKey(cert(key)).value();
  return ctx;
}

SslContext clientContext(bool verify) {
  auto ctx = SslContext::create(galay::ssl::SslMethod::kTlsClient).value();
  if (verify) {
    ctx.loadCaFile(cert("ca.crt")).value();
    ctx.setVerifyMode(galay::ssl::VerifyMode::kPeer);
  }
  return ctx;
}

galay::SockAddr loopback(std::uint16_t port) { return galay::resolve("127.0.0.1", port).value(); }

galay::Listener listen(Scheduler& sched) {
  return galay::Listener::bind(sched, loopback(0), 64).value();
}

std::string pattern(std::size_t n) {
  std::string out(n, '\0');
  std::uint32_t x = 2463534242u;
  for (char& c : out) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x & 0xff);
  }
  return out;
}

Task<void> echoOnce(galay::Listener& listener, const SslContext& ctx, EchoOutcome& out) {
  auto sock = co_await SslSocket::accept(listener, ctx, Clock::now() + 10s);
  if (!sock) {
    out.handshake = std::unexpected(sock.error());
    out.finished = true;
    co_return;
  }
  out.handshake = co_await sock->handshake(Clock::now() + 10s);
  if (out.handshake) {
    std::vector<char> buf(64 * 1024);
    for (;;) {
      auto got = co_await sock->recv(buf.data(), buf.size(), Clock::now() + 10s);
      if (!got) {
        out.end = got.error().code();
        break;
      }
      auto sent = co_await sock->send(buf.data(), *got, Clock::now() + 10s);
      if (!sent) {
        out.end = sent.error().code();
        break;
      }
      out.echoed += *sent;
    }
  }
  out.finished = true;
}

namespace {

Task<void> sendAll(SslSocket& sock, const std::string& payload, SslResult<std::size_t>& result,
                   galay::Event& done) {
  result = co_await sock.send(payload.data(), payload.size(), Clock::now() + 10s);
  done.set();
}

}  // namespace

Task<SslResult<std::string>> roundTrip(Scheduler& sched, const SslContext& ctx,
                                       std::uint16_t port, const std::string& payload,
                                       std::string host) {
  auto sock = SslSocket::open(ctx, sched);
  if (!sock) co_return std::unexpected(sock.error());
  auto connected = co_await sock->connect(loopback(port), Clock::now() + 5s);
  if (!connected) co_return std::unexpected(connected.error());
  auto named = sock->setHostname(host);
  if (!named) co_return std::unexpected(named.error());
  auto shaken = co_await sock->handshake(Clock::now() + 5s);
  if (!shaken) co_return std::unexpected(shaken.error());
  SslResult<std::size_t> sent = 0;
  galay::Event done(sched);
  sched.spawn(sendAll(*sock, payload, sent, done));
  std::string back;
  std::vector<char> buf(64 * 1024);
  SslResult<std::string> outcome;
  while (back.size() < payload.size()) {
    auto got = co_await sock->recv(buf.data(), buf.size(), Clock::now() + 10s);
    if (!got) {
      outcome = std::unexpected(got.error());
      sock->close();
      break;
    }
    back.append(buf.data(), *got);
  }
  co_await done.wait();
  if (!outcome) co_return outcome;
  if (!sent) co_return std::unexpected(sent.error());
  auto closed = co_await sock->shutdown(Clock::now() + 5s);
  if (!closed) co_return std::unexpected(closed.error());
  co_return back;
}

}  // namespace support
