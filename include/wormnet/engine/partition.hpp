// Which rank owns which router. A partition is a pure function of the topology and the
// rank count; the model never depends on it except through which links are remote.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/topology/topology.hpp"

namespace wormnet {

class Partition {
 public:
  Partition() = default;
  /// `owner[n]` = rank of node n, every rank in [0, parts) owning at least one node.
  Partition(std::vector<std::uint16_t> owner, int parts, std::string method);

  /// Contiguous blocks of node ids: slabs along the slowest dimension of a torus/mesh,
  /// stripes of constant x for the honeycomb and honeycomb tori (ids are ordered by x first).
  static Partition blocks(const Topology& topo, int parts);
  /// Geometric partition (the default): for a torus or mesh, boxes from the factorization of
  /// `parts` over the dimensions that cuts the fewest links; for the honeycomb and the
  /// honeycomb tori, stripes of equal node count across the x axis.
  static Partition geometric(const Topology& topo, int parts);
  /// Graph partition by METIS (k-way, minimum edge cut, fixed seed); available when wormnet
  /// was built with libmetis-dev. The same on every rank (METIS is deterministic).
  static Partition metis(const Topology& topo, int parts);
  /// Whether metis() is available in this build.
  static bool metis_available();

  [[nodiscard]] int parts() const { return parts_; }
  [[nodiscard]] int owner(NodeId n) const { return owner_[n.value()]; }
  /// Global ids of the nodes of `part`, ascending.
  [[nodiscard]] std::vector<std::uint32_t> nodes_of(int part) const;
  /// Links whose two ends are on different ranks.
  [[nodiscard]] std::uint64_t edge_cut(const Topology& topo) const;
  [[nodiscard]] const std::string& method() const { return method_; }
  /// Nodes of the largest and of the smallest part.
  [[nodiscard]] std::uint64_t largest_part() const;
  [[nodiscard]] std::uint64_t smallest_part() const;
  [[nodiscard]] const std::vector<std::uint16_t>& owners() const { return owner_; }

 private:
  std::vector<std::uint16_t> owner_;
  int parts_ = 1;
  std::string method_ = "blocks";
};

}  // namespace wormnet
