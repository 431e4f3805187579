// Per-thread recycling of coroutine frames: a steady-state co_await allocates nothing.
#pragma once

#include <cstddef>

namespace galay::detail {

// A block of at least `size` bytes for a coroutine frame (taken from this thread's free list
// when one of the same size class is cached).
void* allocateFrame(std::size_t size);

// Returns a frame block to this thread's free list (or to the heap when the list is full).
void deallocateFrame(void* block, std::size_t size) noexcept;

}  // namespace galay::detail
