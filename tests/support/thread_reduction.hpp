// A ShareReduction whose parts are threads of one process, for testing an analysis split over
// shares (AnalysisShare) without MPI: every collective meets at a barrier.
#pragma once

#include <algorithm>
#include <barrier>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "wormnet/verify/routing_analysis.hpp"

namespace wormnet::test {

/// The reductions of AnalysisShare parts run as threads of one process.
class ThreadReduction final : public ShareReduction {
 public:
  struct Shared {
    explicit Shared(int n) : parts(n), sync(n) {}
    int parts;
    std::barrier<> sync;
    std::mutex lock;
    std::vector<std::uint64_t> acc;
    std::vector<std::string> texts;
  };
  ThreadReduction(Shared& shared, int part) : s_(shared), part_(part) {}
  void sum(std::span<std::uint64_t> v) const override {
    combine(v, [](std::uint64_t a, std::uint64_t b) { return a + b; });
  }
  void max(std::span<std::uint64_t> v) const override {
    combine(v, [](std::uint64_t a, std::uint64_t b) { return std::max(a, b); });
  }
  void bit_or(std::span<std::uint64_t> v) const override {
    combine(v, [](std::uint64_t a, std::uint64_t b) { return a | b; });
  }
  std::vector<std::string> gather(const std::string& text) const override {
    if (part_ == 0) s_.texts.assign(static_cast<std::size_t>(s_.parts), "");
    s_.sync.arrive_and_wait();
    s_.texts[static_cast<std::size_t>(part_)] = text;
    s_.sync.arrive_and_wait();
    std::vector<std::string> all = s_.texts;
    s_.sync.arrive_and_wait();
    return all;
  }

 private:
  template <class Op>
  void combine(std::span<std::uint64_t> v, Op op) const {
    if (part_ == 0) s_.acc.assign(v.begin(), v.end());
    s_.sync.arrive_and_wait();
    if (part_ != 0) {
      const std::lock_guard<std::mutex> g(s_.lock);
      for (std::size_t i = 0; i < v.size(); ++i) s_.acc[i] = op(s_.acc[i], v[i]);
    }
    s_.sync.arrive_and_wait();
    std::copy(s_.acc.begin(), s_.acc.end(), v.begin());
    s_.sync.arrive_and_wait();
  }
  Shared& s_;
  int part_;
};

}  // namespace wormnet::test
