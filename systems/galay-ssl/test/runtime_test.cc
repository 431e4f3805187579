// The coroutine runtime: tasks, the scheduler's timers and task teardown, and Event (socket
// operations are in socket_test.cc).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <vector>

#include "galay-ssl/runtime/event.hpp"
#include "test_support.hpp"

namespace {

using galay::Clock;
using galay::Scheduler;
using galay::Socket;
using galay::Task;
using namespace std::chrono_literals;

Task<int> leaf(int x) { co_return x * 2; }

Task<int> middle(int x) {
  const int a = co_await leaf(x);
  const int b = co_await leaf(a);
  co_return a + b;
}

TEST(Task, ValuesFlowThroughNestedAwaits) {
  Scheduler sched;
  EXPECT_EQ(sched.blockOn(middle(5)), 10 + 20);
}

Task<long> sumSynchronously(int n) {
  long total = 0;
  for (int i = 0; i < n; ++i) total += co_await leaf(1);
  co_return total;
}

TEST(Task, AMillionSynchronousAwaitsDoNotGrowTheStack) {
  Scheduler sched;
  EXPECT_EQ(sched.blockOn(sumSynchronously(1'000'000)), 2'000'000);
}

Task<void> sleeper(Scheduler& sched, std::chrono::milliseconds d, int id, std::vector<int>& order) {
  co_await galay::sleepFor(sched, d);
  order.push_back(id);
}

TEST(Scheduler, TimersFireInDeadlineOrderAndNotEarly) {
  Scheduler sched;
  std::vector<int> order;
  const auto t0 = Clock::now();
  sched.spawn(sleeper(sched, 60ms, 3, order));
  sched.spawn(sleeper(sched, 20ms, 1, order));
  sched.spawn(sleeper(sched, 40ms, 2, order));
  sched.run();
  EXPECT_GE(Clock::now() - t0, 60ms);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sched.liveTasks(), 0u);
}

struct Flag {
  bool* set;
  ~Flag() { *set = true; }
};

Task<void> nap(Scheduler& sched, std::chrono::milliseconds d) { co_await galay::sleepFor(sched, d); }

// Owns its socket, so destroying the frame also closes it through the scheduler.
Task<void> parkedForever(Scheduler& sched, int fd, bool& destroyed) {
  Flag flag{&destroyed};
  Socket sock = Socket::adopt(sched, fd).value();
  char c = 0;
  co_await sock.read(&c, 1);
  ADD_FAILURE() << "the read should never complete";
}

TEST(Scheduler, DestroyingTheSchedulerEndsUnfinishedTasks) {
  bool destroyed = false;
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  {
    Scheduler sched;
    sched.spawn(parkedForever(sched, fds[0], destroyed));
    sched.blockOn(nap(sched, 10ms));
    EXPECT_EQ(sched.liveTasks(), 1u);
    EXPECT_FALSE(destroyed);
  }
  EXPECT_TRUE(destroyed);
  EXPECT_EQ(::send(fds[1], "x", 1, MSG_NOSIGNAL), -1);  // the other end went with the task
  EXPECT_EQ(errno, EPIPE);
  ::close(fds[1]);
}

Task<void> waitFor(galay::Event& e, bool& woke) {
  co_await e.wait();
  woke = true;
}

Task<void> setLater(Scheduler& sched, galay::Event& e) {
  co_await galay::sleepFor(sched, 5ms);
  e.set();
}

TEST(Event, AWaiterResumesAfterSet) {
  Scheduler sched;
  galay::Event e(sched);
  bool woke = false;
  sched.spawn(waitFor(e, woke));
  sched.spawn(setLater(sched, e));
  sched.run();
  EXPECT_TRUE(woke);
  EXPECT_TRUE(e.isSet());
}

}  // namespace
