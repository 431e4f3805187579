// Coroutine frames come and go with every awaited Task; recycling them per thread by size
// class keeps the hot path free of malloc. Sanitizer builds use the heap directly, so
// AddressSanitizer still sees every use after free.
#include "galay-ssl/runtime/frame_pool.hpp"

#include <new>

namespace galay::detail {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooling = false;
#else
constexpr bool kPooling = true;
#endif

constexpr std::size_t kGranule = 64;
constexpr std::size_t kClasses = 64;  // frames up to 4 KiB are pooled
constexpr unsigned kMaxCached = 4096;  // per class

struct FreeBlock {
  FreeBlock* next;
};

// Trivially destructible, so it stays usable while other thread_locals are destroyed.
struct Lists {
  FreeBlock* head[kClasses];
  unsigned count[kClasses];
  bool closed;
};
thread_local Lists t_lists{};

struct Drainer {
  Drainer() = default;
  Drainer(const Drainer&) = delete;
  Drainer& operator=(const Drainer&) = delete;
  ~Drainer() {
    for (std::size_t c = 0; c < kClasses; ++c) {
      while (FreeBlock* b = t_lists.head[c]) {
        t_lists.head[c] = b->next;
        ::operator delete(b);
      }
      t_lists.count[c] = 0;
    }
    t_lists.closed = true;
  }
};
thread_local Drainer t_drainer;

std::size_t classOf(std::size_t size) { return (size + kGranule - 1) / kGranule - 1; }

}  // namespace

void* allocateFrame(std::size_t size) {
  const std::size_t c = classOf(size);
  if (!kPooling || c >= kClasses) return ::operator new(size);
  Lists& l = t_lists;
  if (FreeBlock* b = l.head[c]) {
    l.head[c] = b->next;
    --l.count[c];
    return b;
  }
  static_cast<void>(&t_drainer);  // registers the drain at thread exit
  return ::operator new((c + 1) * kGranule);
}

void deallocateFrame(void* block, std::size_t size) noexcept {
  const std::size_t c = classOf(size);
  Lists& l = t_lists;
  if (!kPooling || c >= kClasses || l.closed || l.count[c] >= kMaxCached) {
    ::operator delete(block);
    return;
  }
  auto* b = static_cast<FreeBlock*>(block);
  b->next = l.head[c];
  l.head[c] = b;
  ++l.count[c];
}

}  // namespace galay::detail
