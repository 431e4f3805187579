// SslSocket: the engine's want-read / pending-output loop over a non-blocking socket.
#include "galay-ssl/ssl_socket.hpp"

#include <cerrno>
#include <utility>

namespace galay::ssl {
namespace {

SslError ioFailure(const std::error_code& e, SslErrorCode failed, SslErrorCode timed_out) {
  return SslError(e.value() == ETIMEDOUT ? timed_out : failed, 0, e.value());
}

}  // namespace

SslSocket::SslSocket(Socket tcp, SslEngine engine)
    : tcp_(std::move(tcp)),
      engine_(std::move(engine)),
      in_(std::make_unique_for_overwrite<char[]>(kInBufferSize)),
      out_(std::make_unique_for_overwrite<char[]>(kOutBufferSize)) {}

SslResult<SslSocket> SslSocket::open(const SslContext& ctx, Scheduler& sched, int family) {
  auto tcp = Socket::open(sched, family);
  if (!tcp) return std::unexpected(SslError(SslErrorCode::kConnectFailed, 0, tcp.error().value()));
  return adopt(ctx, std::move(*tcp));
}

SslResult<SslSocket> SslSocket::adopt(const SslContext& ctx, Socket tcp) {
  auto engine = SslEngine::create(ctx);
  if (!engine) return std::unexpected(engine.error());
  return SslSocket(std::move(tcp), std::move(*engine));
}

Task<SslResult<SslSocket>> SslSocket::accept(Listener& listener, const SslContext& ctx,
                                             TimePoint deadline) {
  auto tcp = co_await listener.accept(deadline);
  if (!tcp) {
    co_return std::unexpected(ioFailure(tcp.error(), SslErrorCode::kConnectFailed,
                                        SslErrorCode::kTimeout));
  }
  co_return adopt(ctx, std::move(*tcp));
}

Task<SslResult<void>> SslSocket::connect(SockAddr addr, TimePoint deadline) {
  auto done = co_await tcp_.connect(addr, deadline);
  if (!done) {
    co_return std::unexpected(ioFailure(done.error(), SslErrorCode::kConnectFailed,
                                        SslErrorCode::kTimeout));
  }
  tcp_.setNoDelay(true);
  co_return SslResult<void>{};
}

Task<SslResult<void>> SslSocket::flush(TimePoint deadline, SslErrorCode failed,
                                       SslErrorCode timed_out) {
  while (std::size_t n = engine_.takeOutput(out_.get(), kOutBufferSize)) {
    std::size_t off = 0;
    while (off < n) {
      auto sent = co_await tcp_.send(out_.get() + off, n - off, deadline);
      if (!sent) co_return std::unexpected(ioFailure(sent.error(), failed, timed_out));
      off += *sent;
    }
  }
  co_return SslResult<void>{};
}

Task<SslResult<void>> SslSocket::handshake(TimePoint deadline) {
  for (;;) {
    SslIoResult step = engine_.handshake();
    if (engine_.pendingOutput() > 0) {
      // On failure this carries our alert to the peer; that delivery is best effort.
      auto sent = co_await flush(deadline, SslErrorCode::kHandshakeFailed,
                                 SslErrorCode::kHandshakeTimeout);
      if (!sent && step.status != SslStatus::kError) co_return std::unexpected(sent.error());
    }
    if (step.status == SslStatus::kOk) co_return SslResult<void>{};
    if (step.status != SslStatus::kWantRead) co_return std::unexpected(step.error);
    auto got = co_await tcp_.read(in_.get(), kInBufferSize, deadline);
    if (!got) {
      co_return std::unexpected(ioFailure(got.error(), SslErrorCode::kHandshakeFailed,
                                          SslErrorCode::kHandshakeTimeout));
    }
    if (*got == 0) co_return std::unexpected(SslError(SslErrorCode::kPeerClosed));
    engine_.feed(in_.get(), *got);
  }
}

Task<SslResult<std::size_t>> SslSocket::recv(char* buf, std::size_t len, TimePoint deadline) {
  if (len == 0) co_return std::size_t{0};
  for (;;) {
    SslIoResult r = engine_.read(buf, len);
    // Post-handshake messages (key update, alerts); a send in progress takes them along.
    if (!sending_ && engine_.pendingOutput() > 0) {
      auto sent = co_await flush(deadline, SslErrorCode::kWriteFailed, SslErrorCode::kTimeout);
      if (!sent && r.status == SslStatus::kWantRead) co_return std::unexpected(sent.error());
    }
    if (r.status == SslStatus::kOk) co_return r.bytes;
    if (r.status != SslStatus::kWantRead) co_return std::unexpected(r.error);
    auto got = co_await tcp_.read(in_.get(), kInBufferSize, deadline);
    if (!got) {
      co_return std::unexpected(ioFailure(got.error(), SslErrorCode::kReadFailed,
                                          SslErrorCode::kTimeout));
    }
    if (*got == 0) co_return std::unexpected(SslError(SslErrorCode::kPeerClosed));
    engine_.feed(in_.get(), *got);
  }
}

Task<SslResult<std::size_t>> SslSocket::send(const char* buf, std::size_t len,
                                             TimePoint deadline) {
  SslIoResult sealed = engine_.write(buf, len);
  if (sealed.status != SslStatus::kOk) co_return std::unexpected(sealed.error);
  // Inline flush: this is the hot path of every echo, one frame fewer per call.
  sending_ = true;
  while (std::size_t n = engine_.takeOutput(out_.get(), kOutBufferSize)) {
    std::size_t off = 0;
    while (off < n) {
      auto sent = co_await tcp_.send(out_.get() + off, n - off, deadline);
      if (!sent) {
        sending_ = false;
        co_return std::unexpected(ioFailure(sent.error(), SslErrorCode::kWriteFailed,
                                            SslErrorCode::kTimeout));
      }
      off += *sent;
    }
  }
  sending_ = false;
  co_return len;
}

Task<SslResult<void>> SslSocket::shutdown(TimePoint deadline) {
  SslIoResult r = engine_.shutdown();
  auto sent = co_await flush(deadline, SslErrorCode::kShutdownFailed, SslErrorCode::kTimeout);
  if (!sent) co_return std::unexpected(sent.error());
  if (r.status == SslStatus::kError) co_return std::unexpected(r.error);
  co_return SslResult<void>{};
}

}  // namespace galay::ssl
