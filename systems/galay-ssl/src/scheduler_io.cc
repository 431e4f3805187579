// The epoll scheduler's reactor: the I/O slot table (attach / release), the non-blocking
// attempt of each socket operation, parking and completion, and readiness dispatch.
#include "galay-ssl/runtime/scheduler.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>

#include "scheduler_internal.hpp"

namespace galay {
namespace {

using detail::IoKind;
using detail::IoOp;
using detail::IoSlot;
using detail::kChunkBits;
using detail::kChunkSize;

void onOpTimeout(void* owner) {
  auto& op = *static_cast<IoOp*>(owner);
  if (op.slot->reader == &op) op.slot->reader = nullptr;
  if (op.slot->writer == &op) op.slot->writer = nullptr;
  op.err = ETIMEDOUT;
  op.waiter.resume();
}

bool isReadKind(IoKind k) { return k == IoKind::kRead || k == IoKind::kAccept; }

}  // namespace

IoSlot& Scheduler::slotAt(std::uint32_t index) noexcept {
  return chunks_[index >> kChunkBits][index & (kChunkSize - 1)];
}

std::optional<IoSlot*> Scheduler::attach(int fd, std::error_code& error) {
  if (free_slots_.empty()) {
    const auto base = static_cast<std::uint32_t>(chunks_.size() * kChunkSize);
    chunks_.push_back(std::make_unique<IoSlot[]>(kChunkSize));
    for (std::uint32_t i = kChunkSize; i > 0; --i) free_slots_.push_back(base + i - 1);
  }
  const std::uint32_t index = free_slots_.back();
  IoSlot& s = slotAt(index);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;
  ev.data.u64 = index | (static_cast<std::uint64_t>(s.generation) << 32);
  if (::epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    error = std::error_code(errno, std::system_category());
    return std::nullopt;
  }
  free_slots_.pop_back();
  s.fd = fd;
  s.index = index;
  s.readable = s.writable = true;  // optimistic: the first attempt finds out
  s.read_closed = false;
  s.reader = s.writer = nullptr;
  s.owner = this;
  return &s;
}

void Scheduler::release(IoSlot* slot) noexcept {
  if (slot == nullptr || slot->fd < 0) return;
  ::epoll_ctl(epfd_, EPOLL_CTL_DEL, slot->fd, nullptr);
  ::close(slot->fd);
  slot->fd = -1;
  ++slot->generation;
  for (IoOp* op : {slot->reader, slot->writer}) {
    if (op == nullptr) continue;
    op->err = ECANCELED;
    cancelTimer(op->timer);
    post(op->waiter);
  }
  slot->reader = slot->writer = nullptr;
  free_slots_.push_back(slot->index);
}

bool Scheduler::attempt(IoOp& op) noexcept {
  IoSlot& s = *op.slot;
  switch (op.kind) {
    case IoKind::kRead:
      if (!s.readable) return false;
      for (;;) {
        const ssize_t n = ::read(s.fd, op.buf, op.len);
        if (n > 0) {
          if (static_cast<std::size_t>(n) < op.len && !s.read_closed) s.readable = false;
          op.result = n;
          return true;
        }
        if (n == 0) return true;  // end of stream
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          s.readable = false;
          return false;
        }
        op.err = errno;
        return true;
      }
    case IoKind::kSend:
      if (!s.writable) return false;
      for (;;) {
        const ssize_t n = ::send(s.fd, op.buf, op.len, MSG_NOSIGNAL);
        if (n >= 0) {
          if (static_cast<std::size_t>(n) < op.len) s.writable = false;
          op.result = n;
          return true;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          s.writable = false;
          return false;
        }
        op.err = errno;
        return true;
      }
    case IoKind::kAccept:
      if (!s.readable) return false;
      for (;;) {
        const int fd = ::accept4(s.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
          op.result = fd;
          return true;
        }
        if (errno == EINTR || errno == ECONNABORTED) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          s.readable = false;
          return false;
        }
        op.err = errno;
        return true;
      }
    case IoKind::kConnect:
      if (!op.connect_started) {
        op.connect_started = true;
        if (::connect(s.fd, op.addr, op.addr_len) == 0) return true;
        if (errno == EINPROGRESS || errno == EINTR) {
          s.writable = false;
          return false;
        }
        op.err = errno;
        return true;
      }
      if (!s.writable) return false;
      {
        int so_error = 0;
        socklen_t len = sizeof so_error;
        if (::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) so_error = errno;
        if (so_error != 0) {
          op.err = so_error;
          return true;
        }
        sockaddr_storage peer{};
        socklen_t peer_len = sizeof peer;
        if (::getpeername(s.fd, reinterpret_cast<sockaddr*>(&peer), &peer_len) == 0) return true;
        if (errno != ENOTCONN) {
          op.err = errno;
          return true;
        }
        s.writable = false;  // a stale readiness event: still connecting
        return false;
      }
  }
  return false;
}

void Scheduler::park(IoOp& op, std::coroutine_handle<> h, TimePoint deadline) noexcept {
  op.waiter = h;
  if (isReadKind(op.kind)) op.slot->reader = &op;
  else op.slot->writer = &op;
  if (deadline != kNoDeadline) {
    op.timer.deadline = deadline;
    op.timer.owner = &op;
    op.timer.fire = onOpTimeout;
    addTimer(op.timer);
  }
}

void Scheduler::complete(IoOp& op) noexcept {
  if (!attempt(op)) return;
  if (op.slot->reader == &op) op.slot->reader = nullptr;
  if (op.slot->writer == &op) op.slot->writer = nullptr;
  cancelTimer(op.timer);
  op.waiter.resume();
}

void Scheduler::dispatch(std::uint64_t key, std::uint32_t events) noexcept {
  const auto index = static_cast<std::uint32_t>(key);
  const auto generation = static_cast<std::uint32_t>(key >> 32);
  IoSlot& s = slotAt(index);
  if (s.generation != generation || s.fd < 0) return;  // closed since the event was queued
  if ((events & (EPOLLRDHUP | EPOLLERR)) != 0) s.read_closed = true;
  if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
    s.readable = true;
    if (s.reader != nullptr) complete(*s.reader);
    if (s.generation != generation) return;
  }
  if ((events & (EPOLLOUT | EPOLLHUP | EPOLLERR)) != 0) {
    s.writable = true;
    if (s.writer != nullptr) complete(*s.writer);
  }
}

}  // namespace galay
