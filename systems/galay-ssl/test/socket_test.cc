// The scheduler's socket operations: plain TCP echo and end of stream, deadlines, refused
// connect, close while parked, and slot reuse.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "test_support.hpp"

namespace {

using galay::Clock;
using galay::Scheduler;
using galay::Socket;
using galay::Task;
using namespace std::chrono_literals;

Task<void> echoPlain(galay::Listener& listener, std::string& seen) {
  auto accepted = co_await listener.accept();
  if (!accepted) co_return;
  Socket peer = std::move(*accepted);
  char buf[4096];
  for (;;) {
    auto got = co_await peer.read(buf, sizeof buf);
    if (!got || *got == 0) break;
    seen.append(buf, *got);
    std::size_t off = 0;
    while (off < *got) {
      auto sent = co_await peer.send(buf + off, *got - off);
      if (!sent) co_return;
      off += *sent;
    }
  }
}

Task<std::string> talkPlain(Scheduler& sched, std::uint16_t port, std::string message) {
  Socket sock = Socket::open(sched, AF_INET).value();
  auto connected = co_await sock.connect(support::loopback(port));
  if (!connected) co_return std::string("connect failed");
  std::size_t off = 0;
  while (off < message.size()) {
    auto sent = co_await sock.send(message.data() + off, message.size() - off);
    if (!sent) co_return std::string("send failed");
    off += *sent;
  }
  std::string back(message.size(), '\0');
  std::size_t got = 0;
  while (got < back.size()) {
    auto n = co_await sock.read(back.data() + got, back.size() - got);
    if (!n || *n == 0) break;
    got += *n;
  }
  back.resize(got);
  co_return back;
}

TEST(Socket, PlainTcpEchoAndEndOfStream) {
  Scheduler sched;
  auto listener = support::listen(sched);
  std::string seen;
  sched.spawn(echoPlain(listener, seen));
  const std::string message = support::pattern(300'000);
  EXPECT_EQ(sched.blockOn(talkPlain(sched, listener.port(), message)), message);
  sched.run();  // the server sees end of stream once the client socket is gone
  EXPECT_EQ(seen, message);
}

Task<galay::IoResult> readWithDeadline(Socket& sock, Clock::duration d) {
  char c = 0;
  co_return co_await sock.read(&c, 1, Clock::now() + d);
}

Task<galay::IoResult> connectSocket(Socket& sock, std::uint16_t port) {
  auto addr = support::loopback(port);
  co_return co_await sock.connect(addr);
}

TEST(Socket, ReadTimesOutAtItsDeadline) {
  Scheduler sched;
  auto listener = support::listen(sched);
  Socket client = Socket::open(sched, AF_INET).value();
  ASSERT_TRUE(sched.blockOn(connectSocket(client, listener.port())));
  const auto t0 = Clock::now();
  auto r = sched.blockOn(readWithDeadline(client, 50ms));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().value(), ETIMEDOUT);
  EXPECT_GE(Clock::now() - t0, 50ms);
  EXPECT_LT(Clock::now() - t0, 5s);
}

Task<galay::IoResult> connectTo(Scheduler& sched, std::uint16_t port) {
  Socket sock = Socket::open(sched, AF_INET).value();
  auto addr = support::loopback(port);
  co_return co_await sock.connect(addr);
}

TEST(Socket, ConnectToAClosedPortIsRefused) {
  Scheduler sched;
  std::uint16_t port = 0;
  {
    auto listener = support::listen(sched);
    port = listener.port();
  }
  auto r = sched.blockOn(connectTo(sched, port));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().value(), ECONNREFUSED);
}

Task<void> readInto(Socket& sock, galay::IoResult& out) {
  char c = 0;
  out = co_await sock.read(&c, 1);
}

Task<void> closeLater(Scheduler& sched, Socket& sock) {
  co_await galay::sleepFor(sched, 10ms);
  sock.close();
}

TEST(Socket, ClosingWakesAParkedReadWithECANCELED) {
  Scheduler sched;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  Socket reader = Socket::adopt(sched, fds[0]).value();
  galay::IoResult out = 0;
  sched.spawn(readInto(reader, out));
  sched.spawn(closeLater(sched, reader));
  sched.run();
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().value(), ECANCELED);
  ::close(fds[1]);
}

Task<void> acceptN(galay::Listener& listener, int n, int& accepted) {
  for (int i = 0; i < n; ++i) {
    auto peer = co_await listener.accept();
    if (peer) ++accepted;
  }
}

TEST(Socket, SlotsAreReusedAcrossThousandsOfConnections) {
  Scheduler sched;
  auto listener = support::listen(sched);
  int accepted = 0;
  constexpr int kConnections = 3000;  // several slot chunks' worth of open/close
  sched.spawn(acceptN(listener, kConnections, accepted));
  int ok = 0;
  for (int i = 0; i < kConnections; ++i) ok += sched.blockOn(connectTo(sched, listener.port())) ? 1 : 0;
  sched.run();
  EXPECT_EQ(ok, kConnections);
  EXPECT_EQ(accepted, kConnections);
}

}  // namespace
