// The run-time deadlock report: the wait-for edges of every rank's stuck input VCs, gathered
// on rank 0 and searched for a deadlock (verify/wait_for_graph.hpp), the cycle found sent back
// to every rank as VC keys, and each hop described for people.
#pragma once

#include <vector>

#include "wormnet/engine/rank_model.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/stats/run_summary.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Collective. The input VCs of a deadlock at cycle t, in waiting order, each with the
/// channel that feeds it and its VC; empty when there is none. `threshold`: cycles a VC has
/// not moved (the detector's deadlock threshold).
std::vector<DeadlockHop> find_deadlock(const Communicator& comm, const Topology& topo,
                                       const RankModel& model, Cycle t, Cycle threshold);

/// One hop of a report: the input VC `key` (vc_key()) of `topo`, described.
DeadlockHop describe_hop(const Topology& topo, VcKey key);

}  // namespace wormnet
