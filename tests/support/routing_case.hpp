// A topology and a routing function built from their command-line names, kept together so that
// the routing (which refers to the topology) never outlives it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet::test {

struct RoutingCase {
  std::unique_ptr<Topology> topo;  // declared first: destroyed after the routing
  std::unique_ptr<RoutingFunction> routing;
  [[nodiscard]] int vcs() const { return routing->vcs_required(); }
  [[nodiscard]] std::string label() const { return routing->name() + " on " + topo->spec(); }
};

inline RoutingCase make_case(std::string_view topology, std::string_view routing,
                             FlowControl flow = FlowControl::kCredit,
                             RingTie tie = RingTie::kPlus) {
  RoutingCase c;
  c.topo = make_topology(topology);
  c.routing = make_routing(routing, *c.topo, flow, nullptr, tie);
  return c;
}

}  // namespace wormnet::test
