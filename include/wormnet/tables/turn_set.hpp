// The turns that the CDG augmentation adds to an Angara torus: per node v and arrival
// direction i, the directions j (before i in the Angara order) in which a packet that came
// into v going i may leave. They are the non-standard first steps (i and j both +: an FS
// step i, then j) and last steps (i and j both -: the direction-order part ends with i, then
// the LS step j) of the paper's routing graph.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/tables/direction.hpp"

namespace wormnet::tables {

class TurnSet {
 public:
  /// No node, no turn (the plain direction-order routing graph).
  TurnSet() = default;
  TurnSet(std::uint32_t nodes, int dims);

  [[nodiscard]] bool empty() const { return masks_.empty(); }
  [[nodiscard]] int dims() const { return dims_; }
  /// Bit j set: arrival direction `in` may turn to direction j at node v.
  [[nodiscard]] std::uint16_t at(NodeId v, Direction in) const {
    return masks_.empty() ? std::uint16_t{0}
                          : masks_[static_cast<std::size_t>(v.value()) * 2 * dims_ +
                                   static_cast<std::size_t>(in)];
  }
  void add(NodeId v, Direction in, Direction out);
  /// Turns in total.
  [[nodiscard]] std::uint64_t count() const;
  /// The masks, [node * 2n + arrival direction] (for the tables file).
  [[nodiscard]] std::span<const std::uint16_t> masks() const { return masks_; }
  [[nodiscard]] std::span<std::uint16_t> masks() { return masks_; }
  bool operator==(const TurnSet&) const = default;

 private:
  int dims_ = 0;
  std::vector<std::uint16_t> masks_;
};

}  // namespace wormnet::tables
