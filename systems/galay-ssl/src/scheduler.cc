// The epoll scheduler: ready queue, readiness dispatch, timers (see scheduler.hpp).
#include "galay-ssl/runtime/scheduler.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

namespace galay {
namespace detail {

// The coroutine that owns a spawned Task; linked into its scheduler's list while alive.
struct DetachedPromise {
  DetachedPromise(Scheduler& s, Task<void>& /*task*/) : sched(&s) {
    next = s.live_head_;
    if (next != nullptr) next->prev = this;
    s.live_head_ = this;
    ++s.live_;
  }
  DetachedPromise(const DetachedPromise&) = delete;
  DetachedPromise& operator=(const DetachedPromise&) = delete;
  ~DetachedPromise() {
    if (prev != nullptr) prev->next = next;
    else sched->live_head_ = next;
    if (next != nullptr) next->prev = prev;
    --sched->live_;
  }
  static void* operator new(std::size_t size) { return allocateFrame(size); }
  static void operator delete(void* block, std::size_t size) noexcept {
    deallocateFrame(block, size);
  }
  struct Handle {
    using promise_type = DetachedPromise;
    std::coroutine_handle<DetachedPromise> h;
  };
  Handle get_return_object() noexcept {
    return {std::coroutine_handle<DetachedPromise>::from_promise(*this)};
  }
  std::suspend_always initial_suspend() const noexcept { return {}; }
  std::suspend_never final_suspend() const noexcept { return {}; }
  void return_void() const noexcept {}
  [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }

  Scheduler* sched;
  DetachedPromise* prev = nullptr;
  DetachedPromise* next = nullptr;
};

}  // namespace detail
}  // namespace galay

namespace galay {
namespace {

using detail::IoKind;
using detail::IoOp;
using detail::IoSlot;
using detail::TimerNode;

constexpr std::uint32_t kChunkBits = 10;
constexpr std::uint32_t kChunkSize = 1u << kChunkBits;
constexpr int kMaxEvents = 256;

detail::DetachedPromise::Handle runDetached(Scheduler& /*s*/, Task<void> task) {
  co_await std::move(task);
}

void onOpTimeout(void* owner) {
  auto& op = *static_cast<IoOp*>(owner);
  if (op.slot->reader == &op) op.slot->reader = nullptr;
  if (op.slot->writer == &op) op.slot->writer = nullptr;
  op.err = ETIMEDOUT;
  op.waiter.resume();
}

bool isReadKind(IoKind k) { return k == IoKind::kRead || k == IoKind::kAccept; }

}  // namespace

Scheduler::Scheduler() : epfd_(::epoll_create1(EPOLL_CLOEXEC)) {
  if (epfd_ < 0) throw std::system_error(errno, std::system_category(), "epoll_create1");
  ready_.reserve(64);
  running_.reserve(64);
}

Scheduler::~Scheduler() {
  for (TimerNode* n : timers_) n->heap_index = TimerNode::kNotQueued;
  timers_.clear();
  for (auto& chunk : chunks_) {
    for (std::uint32_t i = 0; i < kChunkSize; ++i) chunk[i].reader = chunk[i].writer = nullptr;
  }
  ready_.clear();
  while (live_head_ != nullptr) {
    std::coroutine_handle<detail::DetachedPromise>::from_promise(*live_head_).destroy();
  }
  ::close(epfd_);
}

void Scheduler::spawn(Task<void> task) { post(runDetached(*this, std::move(task)).h); }

void Scheduler::run() {
  stopping_ = false;
  while (true) {
    runReady();
    if (stopping_ || live_ == 0) break;
    pollOnce();
  }
}

Task<void> Scheduler::captureVoid(Task<void> task, bool& done) {
  co_await std::move(task);
  done = true;
}

void Scheduler::runReady() {
  while (!ready_.empty()) {
    running_.swap(ready_);
    for (std::coroutine_handle<> h : running_) h.resume();
    running_.clear();
  }
}

void Scheduler::pollOnce() {
  epoll_event events[kMaxEvents];
  const int timeout = ready_.empty() ? pollTimeoutMs() : 0;
  const int n = ::epoll_wait(epfd_, events, kMaxEvents, timeout);
  for (int i = 0; i < n; ++i) dispatch(events[i].data.u64, events[i].events);
  if (!timers_.empty()) fireTimers();
}

int Scheduler::pollTimeoutMs() const noexcept {
  if (timers_.empty()) return -1;
  const auto left = timers_.front()->deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
}

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

// -- timers (binary min-heap; each node knows its index so cancel is O(log n)) -------------

void Scheduler::addTimer(TimerNode& node) {
  node.heap_index = timers_.size();
  timers_.push_back(&node);
  siftUp(node.heap_index);
}

void Scheduler::cancelTimer(TimerNode& node) noexcept {
  const std::size_t i = node.heap_index;
  if (i == TimerNode::kNotQueued) return;
  node.heap_index = TimerNode::kNotQueued;
  TimerNode* last = timers_.back();
  timers_.pop_back();
  if (last == &node) return;
  timers_[i] = last;
  last->heap_index = i;
  siftUp(i);
  siftDown(last->heap_index);
}

void Scheduler::fireTimers() noexcept {
  const TimePoint now = Clock::now();
  while (!timers_.empty() && timers_.front()->deadline <= now) {
    TimerNode* node = timers_.front();
    cancelTimer(*node);
    node->fire(node->owner);
  }
}

void Scheduler::siftUp(std::size_t i) noexcept {
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (timers_[parent]->deadline <= timers_[i]->deadline) break;
    std::swap(timers_[parent], timers_[i]);
    timers_[parent]->heap_index = parent;
    timers_[i]->heap_index = i;
    i = parent;
  }
}

void Scheduler::siftDown(std::size_t i) noexcept {
  const std::size_t n = timers_.size();
  for (;;) {
    std::size_t smallest = i;
    for (std::size_t c = 2 * i + 1; c <= 2 * i + 2 && c < n; ++c) {
      if (timers_[c]->deadline < timers_[smallest]->deadline) smallest = c;
    }
    if (smallest == i) return;
    std::swap(timers_[smallest], timers_[i]);
    timers_[smallest]->heap_index = smallest;
    timers_[i]->heap_index = i;
    i = smallest;
  }
}

}  // namespace galay
