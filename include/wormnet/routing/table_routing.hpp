// Table-driven routing: every packet follows the route its source's table holds for its
// destination, as the Angara router copies the table entry into the header flit. The
// packet state is the hop index (how many hops the packet has made), so each router reads
// the next port from the route without any per-router table. One VC; inside rings,
// deadlock freedom comes from bubble flow control (the tables layer proves the dependencies
// between rings acyclic).
#pragma once

#include <memory>

#include "wormnet/routing/route_table.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/routing/routing_names.hpp"

namespace wormnet {

class TableRouting final : public RoutingFunction {
 public:
  /// The table must hold a route for every pair (checked when it is loaded; a pair whose
  /// route cannot be expanded gets no allowed step, which the verifier reports).
  explicit TableRouting(std::shared_ptr<const RouteTable> table);

  [[nodiscard]] std::string name() const override { return routing_name::kTable; }
  [[nodiscard]] int vcs_required() const override { return 1; }
  /// Hop indices 0 .. longest route.
  [[nodiscard]] int state_count() const override { return max_hops_ + 1; }
  [[nodiscard]] bool source_dependent() const override { return true; }
  /// False for a pair without a route (kNoRoute: a table made around faults leaves the pairs
  /// without a legal route so).
  [[nodiscard]] bool claims(NodeId src, NodeId dst) const override {
    return src == dst || table_->word(src, dst) != kNoRoute;
  }
  [[nodiscard]] bool needs_bubble() const override { return true; }
  /// True when every route of the table is as long as the distance of its pair.
  [[nodiscard]] bool minimal() const override { return minimal_; }
  /// route() reads the source, the destination and the hop index (state), never the arrival.
  [[nodiscard]] int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
  [[nodiscard]] std::string description() const override {
    return "routing table: one Angara route (first step, direction order, last step) per "
           "pair, 1 VC, bubble flow control in rings";
  }
  void route(const RouteRequest& request, RouteOptions& out) const override;

  [[nodiscard]] const RouteTable& table() const { return *table_; }

 private:
  std::shared_ptr<const RouteTable> table_;
  int max_hops_ = 0;
  bool minimal_ = true;
};

}  // namespace wormnet
