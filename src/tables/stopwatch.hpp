#pragma once
// Wall-clock and process-CPU time since a point, for the generators' per-rank time split
// (GenerationStats): waiting in an exchange shows as wall time without CPU time.

#include <chrono>
#include <ctime>

namespace wormnet::tables {

class Stopwatch {
 public:
  Stopwatch() : wall_(std::chrono::steady_clock::now()), cpu_(std::clock()) {}

  /// Seconds of wall-clock time since construction.
  [[nodiscard]] double wall() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
  }
  /// Seconds of this process's CPU time (all threads) since construction.
  [[nodiscard]] double cpu() const {
    return static_cast<double>(std::clock() - cpu_) / static_cast<double>(CLOCKS_PER_SEC);
  }

 private:
  std::chrono::steady_clock::time_point wall_;
  std::clock_t cpu_;
};

}  // namespace wormnet::tables
