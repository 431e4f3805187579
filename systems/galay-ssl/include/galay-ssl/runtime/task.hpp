// Task<T>: a lazily started coroutine that is awaited by exactly one other coroutine.
//
// Awaiting a Task starts it at once; if it finishes without suspending, the awaiting
// coroutine carries on without being suspended, so a loop of synchronous awaits never grows
// the stack (no reliance on tail calls, which sanitizer builds do not guarantee). Only when
// the Task really suspends (on I/O or a timer) is the awaiting coroutine resumed from the
// Task's final suspension point. Tasks must not throw: an escaping exception terminates.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <utility>

#include "galay-ssl/runtime/frame_pool.hpp"

namespace galay {

template <typename T = void>
class Task;

namespace detail {

class TaskPromiseBase {
 public:
  static void* operator new(std::size_t size) { return allocateFrame(size); }
  static void operator delete(void* block, std::size_t size) noexcept {
    deallocateFrame(block, size);
  }

  std::suspend_always initial_suspend() const noexcept { return {}; }

  struct FinalAwaiter {
    bool await_ready() const noexcept { return false; }
    template <typename Promise>
    std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> self) const noexcept {
      TaskPromiseBase& p = self.promise();
      return p.resume_when_done ? p.continuation : std::noop_coroutine();
    }
    void await_resume() const noexcept {}
  };
  FinalAwaiter final_suspend() const noexcept { return {}; }
  [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }

  std::coroutine_handle<> continuation{};
  bool resume_when_done = false;
};

template <typename T>
class TaskPromise : public TaskPromiseBase {
 public:
  Task<T> get_return_object() noexcept;
  template <typename U>
  void return_value(U&& value) {
    value_.emplace(std::forward<U>(value));
  }
  T take() { return std::move(*value_); }

 private:
  std::optional<T> value_;
};

template <>
class TaskPromise<void> : public TaskPromiseBase {
 public:
  Task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
  void take() const noexcept {}
};

}  // namespace detail

template <typename T>
class [[nodiscard]] Task {
 public:
  using promise_type = detail::TaskPromise<T>;
  using Handle = std::coroutine_handle<promise_type>;

  Task() = default;
  explicit Task(Handle h) noexcept : h_(h) {}
  Task(Task&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      reset();
      h_ = std::exchange(other.h_, {});
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { reset(); }

  // Whether the coroutine ran to its end (or there is none).
  bool done() const noexcept { return !h_ || h_.done(); }

  struct Awaiter {
    Handle h;
    bool await_ready() const noexcept { return h.done(); }
    bool await_suspend(std::coroutine_handle<> outer) const noexcept {
      h.promise().continuation = outer;
      h.resume();
      if (h.done()) return false;  // finished synchronously: do not suspend the awaiter
      h.promise().resume_when_done = true;
      return true;
    }
    T await_resume() const { return h.promise().take(); }
  };
  Awaiter operator co_await() const& noexcept { return Awaiter{h_}; }
  Awaiter operator co_await() const&& noexcept { return Awaiter{h_}; }

 private:
  void reset() noexcept {
    if (h_) h_.destroy();
    h_ = {};
  }
  Handle h_{};
};

namespace detail {
template <typename T>
Task<T> TaskPromise<T>::get_return_object() noexcept {
  return Task<T>{std::coroutine_handle<TaskPromise<T>>::from_promise(*this)};
}
inline Task<void> TaskPromise<void>::get_return_object() noexcept {
  return Task<void>{std::coroutine_handle<TaskPromise<void>>::from_promise(*this)};
}
}  // namespace detail

}  // namespace galay
