// Private to the scheduler's translation units (scheduler.cc, scheduler_io.cc,
// scheduler_timers.cc): layout of the I/O slot table, shared by the run loop's teardown and
// the reactor.
#pragma once

#include <cstdint>

namespace galay {
namespace detail {

// Slots live in fixed chunks of kChunkSize, so a slot's address never changes; an index is
// (chunk << kChunkBits) | offset.
inline constexpr std::uint32_t kChunkBits = 10;
inline constexpr std::uint32_t kChunkSize = 1u << kChunkBits;

}  // namespace detail
}  // namespace galay
