// An epoll scheduler per thread: runs coroutines, completes non-blocking socket operations
// when the kernel says they can progress, and fires timers.
//
// Every descriptor is registered once, edge-triggered, for reading and writing. Each has a
// slot remembering whether it is readable/writable and which operation waits on it; an
// operation is first tried at once, and only when the kernel says "would block" is the
// coroutine parked. When epoll reports readiness the scheduler performs the operation
// itself and resumes the coroutine with its result (no spurious wake-ups). A short read on a
// stream socket clears the readable flag, which saves the read that would return EAGAIN:
// data arriving later raises a new edge. An end of stream does not, so once epoll reported
// the peer's shutdown (EPOLLRDHUP/EPOLLERR) the slot stays readable.
#pragma once

#include <sys/socket.h>

#include <chrono>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "galay-ssl/runtime/task.hpp"

namespace galay {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;
inline constexpr TimePoint kNoDeadline = TimePoint::max();

class Scheduler;

namespace detail {

struct TimerNode {
  static constexpr std::size_t kNotQueued = ~std::size_t{0};
  TimePoint deadline{};
  std::size_t heap_index = kNotQueued;
  void (*fire)(void* owner) = nullptr;
  void* owner = nullptr;
};

enum class IoKind : std::uint8_t { kRead, kSend, kAccept, kConnect };

struct IoSlot;

// One pending socket operation; lives in the awaiting coroutine's frame.
struct IoOp {
  IoKind kind{};
  IoSlot* slot = nullptr;
  char* buf = nullptr;
  std::size_t len = 0;
  const sockaddr* addr = nullptr;
  socklen_t addr_len = 0;
  long result = 0;
  int err = 0;
  bool connect_started = false;
  std::coroutine_handle<> waiter{};
  TimerNode timer{};
};

struct IoSlot {
  int fd = -1;
  std::uint32_t index = 0;
  std::uint32_t generation = 0;
  bool readable = false;
  bool writable = false;
  bool read_closed = false;  // the peer shut down (or reset): end of stream stays readable
  IoOp* reader = nullptr;
  IoOp* writer = nullptr;
  Scheduler* owner = nullptr;
};

struct DetachedPromise;

}  // namespace detail

class Scheduler {
 public:
  // Creates the epoll instance; throws std::system_error when the kernel refuses.
  Scheduler();
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Starts `task` on this scheduler's next turn; it is destroyed with the scheduler if it
  // has not finished by then.
  void spawn(Task<void> task);
  // Runs until every spawned task has finished or stop() is called.
  void run();
  // Makes run() return after the current turn (callable from inside a task).
  void stop() noexcept { stopping_ = true; }
  // Runs `task` to its end (other tasks run meanwhile; stop() does not interrupt it) and
  // returns its result.
  template <typename T>
  T blockOn(Task<T> task);
  // Tasks spawned and not yet finished.
  std::size_t liveTasks() const noexcept { return live_; }

  // -- used by sockets and awaiters ------------------------------------------------------
  // Registers a non-blocking descriptor; the scheduler owns it from now on.
  std::optional<detail::IoSlot*> attach(int fd, std::error_code& error);
  // Deregisters and closes; a parked operation completes with ECANCELED.
  void release(detail::IoSlot* slot) noexcept;
  // Tries the operation now; true when it completed (result or error set).
  bool attempt(detail::IoOp& op) noexcept;
  // Parks `h` until the operation completes or `deadline` passes (ETIMEDOUT).
  void park(detail::IoOp& op, std::coroutine_handle<> h, TimePoint deadline) noexcept;
  void addTimer(detail::TimerNode& node);
  void cancelTimer(detail::TimerNode& node) noexcept;
  // Resumes `h` on the next turn.
  void post(std::coroutine_handle<> h) { ready_.push_back(h); }

 private:
  friend struct detail::DetachedPromise;
  void runReady();
  void pollOnce();
  void dispatch(std::uint64_t key, std::uint32_t events) noexcept;
  void complete(detail::IoOp& op) noexcept;
  void fireTimers() noexcept;
  int pollTimeoutMs() const noexcept;
  void siftUp(std::size_t i) noexcept;
  void siftDown(std::size_t i) noexcept;
  detail::IoSlot& slotAt(std::uint32_t index) noexcept;
  template <typename T>
  static Task<void> capture(Task<T> task, std::optional<T>& out);
  static Task<void> captureVoid(Task<void> task, bool& done);

  int epfd_ = -1;
  bool stopping_ = false;
  std::size_t live_ = 0;
  detail::DetachedPromise* live_head_ = nullptr;  // intrusive list of unfinished spawned tasks
  std::vector<std::coroutine_handle<>> ready_;
  std::vector<std::coroutine_handle<>> running_;
  std::vector<detail::TimerNode*> timers_;  // binary min-heap on deadline
  std::vector<std::unique_ptr<detail::IoSlot[]>> chunks_;
  std::vector<std::uint32_t> free_slots_;
};

// Suspends the calling coroutine until `deadline` (or for `duration`).
class SleepAwaiter {
 public:
  SleepAwaiter(Scheduler& s, TimePoint deadline) : sched_(s) { node_.deadline = deadline; }
  bool await_ready() const noexcept { return node_.deadline <= Clock::now(); }
  void await_suspend(std::coroutine_handle<> h) {
    node_.owner = h.address();
    node_.fire = [](void* owner) { std::coroutine_handle<>::from_address(owner).resume(); };
    sched_.addTimer(node_);
  }
  void await_resume() const noexcept {}

 private:
  Scheduler& sched_;
  detail::TimerNode node_{};
};

inline SleepAwaiter sleepUntil(Scheduler& s, TimePoint deadline) { return {s, deadline}; }
inline SleepAwaiter sleepFor(Scheduler& s, Clock::duration d) { return {s, Clock::now() + d}; }

template <typename T>
Task<void> Scheduler::capture(Task<T> task, std::optional<T>& out) {
  out.emplace(co_await std::move(task));
}

template <typename T>
T Scheduler::blockOn(Task<T> task) {
  if constexpr (std::is_void_v<T>) {
    bool done = false;
    spawn(captureVoid(std::move(task), done));
    for (runReady(); !done; runReady()) pollOnce();
  } else {
    std::optional<T> out;
    spawn(capture(std::move(task), out));
    for (runReady(); !out; runReady()) pollOnce();
    return std::move(*out);
  }
}

}  // namespace galay
