// Event: a one-shot signal one coroutine can wait for on the same scheduler (e.g. to join a
// spawned helper before the state it uses goes away).
#pragma once

#include <coroutine>
#include <utility>

#include "galay-ssl/runtime/scheduler.hpp"

namespace galay {

class Event {
 public:
  explicit Event(Scheduler& sched) noexcept : sched_(sched) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  // Wakes the waiter (on the scheduler's next turn); later waits complete at once.
  void set() {
    if (set_) return;
    set_ = true;
    if (waiter_) sched_.post(std::exchange(waiter_, {}));
  }
  bool isSet() const noexcept { return set_; }

  struct Awaiter {
    Event& e;
    bool await_ready() const noexcept { return e.set_; }
    void await_suspend(std::coroutine_handle<> h) noexcept { e.waiter_ = h; }
    void await_resume() const noexcept {}
  };
  // Suspends until set(); one waiter at a time.
  Awaiter wait() noexcept { return Awaiter{*this}; }

 private:
  Scheduler& sched_;
  std::coroutine_handle<> waiter_{};
  bool set_ = false;
};

}  // namespace galay
