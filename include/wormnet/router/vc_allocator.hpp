// Separable VC allocator, output stage. The input stage (each waiting head picks one free
// output VC among its routing options, in the selection policy's order) is done by the
// caller; here every output VC requested by several heads grants one of them in
// round-robin order after the last input VC it granted.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/router/round_robin.hpp"

namespace wormnet {

class VcAllocator {
 public:
  struct Request {
    std::uint8_t input_vc;   ///< port * vcs + vc within the router
    std::uint8_t output_vc;  ///< port * vcs + vc within the router
    std::uint8_t option;     ///< index of the chosen routing option (for its next state)
  };

  VcAllocator() = default;
  VcAllocator(std::uint32_t routers, std::uint32_t output_vcs_per_router)
      : per_router_(output_vcs_per_router),
        last_(static_cast<std::size_t>(routers) * output_vcs_per_router, 63) {}

  /// Marks in `granted` (one flag per request) the winners; at most one per output VC.
  void arbitrate(std::uint32_t router, const Request* requests, int n, bool* granted) {
    std::uint64_t done = 0;  // output VCs already decided
    for (int k = 0; k < n; ++k) {
      granted[k] = false;
    }
    for (int k = 0; k < n; ++k) {
      const std::uint8_t o = requests[k].output_vc;
      if ((done >> o) & 1U) continue;
      done |= std::uint64_t{1} << o;
      std::uint64_t contenders = 0;
      for (int m = k; m < n; ++m) {
        if (requests[m].output_vc == o) contenders |= std::uint64_t{1} << requests[m].input_vc;
      }
      std::uint8_t& last = last_[router * per_router_ + o];
      const int winner = round_robin_pick(contenders, last);
      last = static_cast<std::uint8_t>(winner);
      for (int m = k; m < n; ++m) {
        if (requests[m].output_vc == o && requests[m].input_vc == winner) granted[m] = true;
      }
    }
  }
  [[nodiscard]] std::size_t bytes() const { return last_.capacity(); }
  /// Round-robin state (checkpoints): the last input VC granted by output VC o.
  [[nodiscard]] std::uint8_t last(std::uint32_t router, std::uint32_t o) const {
    return last_[router * per_router_ + o];
  }
  void set_last(std::uint32_t router, std::uint32_t o, std::uint8_t v) {
    last_[router * per_router_ + o] = v;
  }

 private:
  std::uint32_t per_router_ = 0;
  HugeVector<std::uint8_t> last_;  // last granted input VC per output VC
};

}  // namespace wormnet
