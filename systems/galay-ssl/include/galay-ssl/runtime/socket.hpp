// Non-blocking TCP sockets on a Scheduler: awaitable connect, accept, read and send.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <system_error>

#include "galay-ssl/runtime/scheduler.hpp"

namespace galay {

// A resolved socket address.
struct SockAddr {
  sockaddr_storage storage{};
  socklen_t len = 0;
  const sockaddr* get() const noexcept { return reinterpret_cast<const sockaddr*>(&storage); }
  int family() const noexcept { return storage.ss_family; }
};

// `host` (IPv4/IPv6 literal or a name, resolved with getaddrinfo) and `port`.
std::expected<SockAddr, std::error_code> resolve(const std::string& host, std::uint16_t port);

using IoResult = std::expected<std::size_t, std::error_code>;

// Awaiting one socket operation yields the byte count (or accepted descriptor) or an error;
// ETIMEDOUT when its deadline passed, ECANCELED when the socket was closed meanwhile.
class IoAwaiter {
 public:
  IoAwaiter(detail::IoSlot* slot, detail::IoKind kind, char* buf, std::size_t len,
            TimePoint deadline) noexcept
      : deadline_(deadline) {
    op_.kind = kind;
    op_.slot = slot;
    op_.buf = buf;
    op_.len = len;
  }
  void target(const SockAddr& addr) noexcept {
    op_.addr = addr.get();
    op_.addr_len = addr.len;
  }
  bool await_ready() noexcept {
    if (op_.slot == nullptr) {
      op_.err = EBADF;
      return true;
    }
    return op_.slot->owner->attempt(op_);
  }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    op_.slot->owner->park(op_, h, deadline_);
  }
  IoResult await_resume() const noexcept {
    if (op_.err != 0) return std::unexpected(std::error_code(op_.err, std::system_category()));
    return static_cast<std::size_t>(op_.result);
  }

 private:
  detail::IoOp op_{};
  TimePoint deadline_;
};

// Connecting keeps its own copy of the address for as long as the connect is in progress.
class ConnectAwaiter {
 public:
  ConnectAwaiter(detail::IoSlot* slot, const SockAddr& addr, TimePoint deadline) noexcept
      : addr_(addr), io_(slot, detail::IoKind::kConnect, nullptr, 0, deadline) {}
  ConnectAwaiter(const ConnectAwaiter&) = delete;
  ConnectAwaiter& operator=(const ConnectAwaiter&) = delete;
  bool await_ready() noexcept {
    io_.target(addr_);
    return io_.await_ready();
  }
  void await_suspend(std::coroutine_handle<> h) noexcept { io_.await_suspend(h); }
  IoResult await_resume() const noexcept { return io_.await_resume(); }

 private:
  SockAddr addr_;
  IoAwaiter io_;
};

class Socket {
 public:
  Socket() = default;
  // A new non-blocking TCP socket of `family` (AF_INET or AF_INET6).
  static std::expected<Socket, std::error_code> open(Scheduler& s, int family);
  // Takes ownership of `fd` (made non-blocking) and registers it with `s`.
  static std::expected<Socket, std::error_code> adopt(Scheduler& s, int fd);
  Socket(Socket&& other) noexcept;
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() { close(); }

  bool isOpen() const noexcept { return slot_ != nullptr; }
  int fd() const noexcept { return slot_ != nullptr ? slot_->fd : -1; }
  Scheduler* scheduler() const noexcept { return slot_ != nullptr ? slot_->owner : nullptr; }

  ConnectAwaiter connect(const SockAddr& addr, TimePoint deadline = kNoDeadline) noexcept {
    return {slot_, addr, deadline};
  }
  // Reads at most `len` bytes; 0 means the peer closed its side.
  IoAwaiter read(char* buf, std::size_t len, TimePoint deadline = kNoDeadline) noexcept {
    return {slot_, detail::IoKind::kRead, buf, len, deadline};
  }
  // Sends at most `len` bytes (loop for all of them).
  IoAwaiter send(const char* buf, std::size_t len, TimePoint deadline = kNoDeadline) noexcept {
    return {slot_, detail::IoKind::kSend, const_cast<char*>(buf), len, deadline};
  }
  std::error_code setNoDelay(bool on) noexcept;
  // Closes now; an operation parked on this socket completes with ECANCELED.
  void close() noexcept;

 private:
  friend class Listener;
  explicit Socket(detail::IoSlot* slot) noexcept : slot_(slot) {}
  detail::IoSlot* slot_ = nullptr;
};

class Listener {
 public:
  Listener() = default;
  // Binds `addr` (port 0 picks a free one) with SO_REUSEADDR and listens.
  static std::expected<Listener, std::error_code> bind(Scheduler& s, const SockAddr& addr,
                                                       int backlog);
  std::uint16_t port() const noexcept { return port_; }

  class AcceptAwaiter {
   public:
    AcceptAwaiter(detail::IoSlot* slot, TimePoint deadline) noexcept
        : io_(slot, detail::IoKind::kAccept, nullptr, 0, deadline), slot_(slot) {}
    bool await_ready() noexcept { return io_.await_ready(); }
    void await_suspend(std::coroutine_handle<> h) noexcept { io_.await_suspend(h); }
    std::expected<Socket, std::error_code> await_resume() const;

   private:
    IoAwaiter io_;
    detail::IoSlot* slot_;  // the listener's (its scheduler adopts the new connection)
  };
  // The next connection (non-blocking, TCP_NODELAY set).
  AcceptAwaiter accept(TimePoint deadline = kNoDeadline) noexcept {
    return {socket_.slot_, deadline};
  }
  void close() noexcept { socket_.close(); }

 private:
  Socket socket_;
  std::uint16_t port_ = 0;
};

}  // namespace galay
