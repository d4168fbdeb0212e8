// The deadlock detector's per-VC wait stamps: for each input VC of a rank, the low 32 bits of
// the last cycle a flit left it or arrived at it empty. A VC that holds flits and whose stamp
// is `threshold` cycles old has moved nothing for that long. Compared modulo 2^32 (a VC stuck
// for 2^32 cycles would look fresh: by then the detector has long reported it); 4 bytes a VC
// keep the per-cycle cost at one store per move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"

namespace wormnet {

class WaitStamps {
 public:
  WaitStamps() = default;
  /// `vcs` input VCs (InputUnit indices), all stamped at cycle 0.
  explicit WaitStamps(std::size_t vcs) : since_(vcs, 0) {}

  /// Input VC i moved (or started waiting) at cycle t.
  void mark(std::uint32_t i, Cycle t) { since_[i] = static_cast<std::uint32_t>(t); }
  /// Whether input VC i has been quiet for `threshold` cycles (< 2^31) before cycle t.
  [[nodiscard]] bool stuck(std::uint32_t i, Cycle t, Cycle threshold) const {
    return static_cast<std::uint32_t>(t) - since_[i] >= threshold;
  }
  /// The stored stamp (checkpoints).
  [[nodiscard]] std::uint32_t stamp(std::uint32_t i) const { return since_[i]; }
  void set_stamp(std::uint32_t i, std::uint32_t low_bits) { since_[i] = low_bits; }
  [[nodiscard]] std::size_t bytes() const { return since_.capacity() * sizeof(std::uint32_t); }

 private:
  HugeVector<std::uint32_t> since_;
};

}  // namespace wormnet
