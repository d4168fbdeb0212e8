// What this process holds in memory, as the kernel counts it (for the run's memory line).
#pragma once

#include <cstdint>

namespace wormnet {

/// The peak resident memory of this process so far, bytes (getrusage).
[[nodiscard]] std::uint64_t peak_resident_bytes();

/// Anonymous memory of this process in transparent huge pages now, bytes (AnonHugePages of
/// /proc/self/smaps_rollup; 0 where the kernel does not say).
[[nodiscard]] std::uint64_t huge_page_bytes();

}  // namespace wormnet
