// Separable VC allocator, output stage. The input stage (each waiting head picks one free
// output VC among its routing options, in the selection policy's order) is done by the
// caller; here every output VC requested by several heads grants one of them in
// round-robin order after the last input VC it granted (a pointer the caller keeps with each
// output VC: OutputUnit::last_grant).
#pragma once

#include <cstdint>

#include "wormnet/router/round_robin.hpp"

namespace wormnet {

class VcAllocator {
 public:
  struct Request {
    std::uint8_t input_vc;   ///< port * vcs + vc within the router
    std::uint8_t output_vc;  ///< port * vcs + vc within the router
    std::uint8_t option;     ///< index of the chosen routing option (for its next state)
  };

  /// Marks in `granted` (one flag per request) the winners; at most one per output VC.
  /// `last(o)` is output VC o's round-robin pointer (a std::uint8_t&: the last input VC it
  /// granted, 63 before any), kept by the caller with the output VC it belongs to.
  template <class LastOf>
  static void arbitrate(const Request* requests, int n, bool* granted, LastOf&& last) {
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
      std::uint8_t& pointer = last(o);
      const int winner = round_robin_pick(contenders, pointer);
      pointer = static_cast<std::uint8_t>(winner);
      for (int m = k; m < n; ++m) {
        if (requests[m].output_vc == o && requests[m].input_vc == winner) granted[m] = true;
      }
    }
  }
};

}  // namespace wormnet
