// The epoll scheduler's timers: a binary min-heap on deadline, the epoll timeout it implies,
// and firing what is due.
#include "galay-ssl/runtime/scheduler.hpp"

#include <chrono>
#include <climits>
#include <utility>

namespace galay {
namespace {

using detail::TimerNode;

}  // namespace

int Scheduler::pollTimeoutMs() const noexcept {
  if (timers_.empty()) return -1;
  const auto left = timers_.front()->deadline - Clock::now();
  if (left <= Clock::duration::zero()) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return ms > INT_MAX ? INT_MAX : static_cast<int>(ms);
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
