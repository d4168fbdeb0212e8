// Link weights shared by the ranks of a rank-parallel table generator. Each rank routes its
// own sources and adds its routes to its copy of the weights at once (so on one rank the
// generator is exactly the sequential algorithm); exchange() then sums every rank's
// additions since the previous exchange into everyone's copy with one allreduce. Between
// exchanges a rank does not see the routes the other ranks chose, which is the only way the
// parallel tables differ from the one-rank tables. The number of sources a rank routes
// between exchanges is the generator's --sync option.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/route_table.hpp"

namespace wormnet::tables {

class SharedWeights {
 public:
  SharedWeights(const Torus& topo, const Communicator& comm);

  /// Global weights as of the last exchange plus this rank's additions since.
  [[nodiscard]] std::span<const std::uint64_t> current() const { return weights_; }
  /// Adds one to every link of the route of (s, d).
  void add_route(NodeId s, NodeId d, RouteWord w);
  /// Adds one to every channel listed.
  void add_channels(std::span<const std::uint32_t> channels);
  /// Collective: every rank's additions since the last exchange reach every rank.
  void exchange();
  [[nodiscard]] std::uint64_t exchanges() const { return exchanges_; }
  /// Wall and CPU time spent in exchange(), waiting for the other ranks included (seconds;
  /// a rank that waits in MPI may poll, which counts as CPU).
  [[nodiscard]] double exchange_seconds() const { return exchange_seconds_; }
  [[nodiscard]] double exchange_cpu_seconds() const { return exchange_cpu_seconds_; }

 private:
  const Torus& topo_;
  Communicator comm_;
  std::vector<std::uint64_t> weights_;
  std::vector<std::uint64_t> delta_;
  std::uint64_t exchanges_ = 0;
  double exchange_seconds_ = 0.0;
  double exchange_cpu_seconds_ = 0.0;
};

}  // namespace wormnet::tables
