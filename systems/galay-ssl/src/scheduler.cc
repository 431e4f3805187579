// The epoll scheduler's task side: spawned-task lifetime, the run loop and its ready queue
// (the reactor is in scheduler_io.cc, the timer heap in scheduler_timers.cc; see scheduler.hpp).
#include "galay-ssl/runtime/scheduler.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>

#include "scheduler_internal.hpp"

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

using detail::kChunkSize;
using detail::TimerNode;

constexpr int kMaxEvents = 256;

detail::DetachedPromise::Handle runDetached(Scheduler& /*s*/, Task<void> task) {
  co_await std::move(task);
}

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

}  // namespace galay
