// SslSocket: an awaitable TLS connection (a non-blocking TCP socket driving an SslEngine).
//
// Every operation is a Task to co_await on the socket's scheduler; a deadline bounds the
// whole operation (kHandshakeTimeout / kTimeout). One recv and one send may be in progress
// at the same time (full duplex, from two coroutines); an SslSocket must not be moved while
// an operation on it is in progress.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "galay-ssl/runtime/socket.hpp"
#include "galay-ssl/runtime/task.hpp"
#include "galay-ssl/ssl_context.hpp"
#include "galay-ssl/ssl_engine.hpp"

namespace galay::ssl {

class SslSocket {
 public:
  static constexpr std::size_t kInBufferSize = 64 * 1024;
  static constexpr std::size_t kOutBufferSize = 72 * 1024;  // 64 KiB of plaintext, sealed

  // A client connection on a new TCP socket of `family`.
  static SslResult<SslSocket> open(const SslContext& ctx, Scheduler& sched, int family = AF_INET);
  // A connection over an already connected socket (e.g. one from Listener::accept).
  static SslResult<SslSocket> adopt(const SslContext& ctx, Socket tcp);
  // The next connection on `listener`, wrapped for a server context (no handshake yet).
  static Task<SslResult<SslSocket>> accept(Listener& listener, const SslContext& ctx,
                                           TimePoint deadline = kNoDeadline);

  SslSocket(SslSocket&&) noexcept = default;
  SslSocket& operator=(SslSocket&&) noexcept = default;

  // TCP connect (TCP_NODELAY is set); kConnectFailed or kTimeout on failure.
  Task<SslResult<void>> connect(SockAddr addr, TimePoint deadline = kNoDeadline);
  // SNI (and host name check when the context verifies the peer); client side, before the
  // handshake.
  SslResult<void> setHostname(const std::string& host) { return engine_.setHostname(host); }
  Task<SslResult<void>> handshake(TimePoint deadline = kNoDeadline);
  // At least one and at most `len` plaintext bytes; kPeerClosed at the end of the stream.
  Task<SslResult<std::size_t>> recv(char* buf, std::size_t len, TimePoint deadline = kNoDeadline);
  // All of `buf`, sealed and handed to the kernel.
  Task<SslResult<std::size_t>> send(const char* buf, std::size_t len,
                                    TimePoint deadline = kNoDeadline);
  // Sends our close_notify (does not wait for the peer's).
  Task<SslResult<void>> shutdown(TimePoint deadline = kNoDeadline);
  void close() noexcept { tcp_.close(); }

  bool isValid() const noexcept { return tcp_.isOpen(); }
  bool isHandshakeCompleted() const noexcept { return engine_.isHandshakeCompleted(); }
  SslEngine& engine() noexcept { return engine_; }
  Socket& tcp() noexcept { return tcp_; }

 private:
  SslSocket(Socket tcp, SslEngine engine);
  Task<SslResult<void>> flush(TimePoint deadline, SslErrorCode failed, SslErrorCode timed_out);

  Socket tcp_;
  SslEngine engine_;
  std::unique_ptr<char[]> in_;
  std::unique_ptr<char[]> out_;
  bool sending_ = false;  // a send owns out_ and the socket's write side
};

}  // namespace galay::ssl
