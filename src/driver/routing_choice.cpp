#include "wormnet/driver/routing_choice.hpp"

#include "wormnet/core/error.hpp"
#include "wormnet/routing/fault_avoiding_routing.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_limits.hpp"

namespace wormnet {

namespace {

/// The routing as it runs on the network: around its faults, when it has any.
std::unique_ptr<RoutingFunction> on_network(std::unique_ptr<RoutingFunction> routing,
                                            const FaultSet* faults) {
  if (faults == nullptr || faults->empty()) return routing;
  return std::make_unique<FaultAvoidingRouting>(std::move(routing), *faults);
}

}  // namespace

LoadedRouting load_routing(const std::string& name, const std::string& tables, const Topology& topo,
                           FlowControl flow, const Communicator& comm, RingTie tie,
                           const FaultSet* faults) {
  LoadedRouting out;
  if (name != "table") {
    if (!tables.empty()) {
      throw InputError("--tables", tables, "a tables file is only read with --routing table");
    }
    out.routing = on_network(make_routing(name, topo, flow, nullptr, tie), faults);
    return out;
  }
  if (tables.empty()) {
    // make_routing names what is missing (and checks that "table" fits the topology).
    out.routing = make_routing(name, topo, flow, nullptr, tie);
  }
  const Torus& torus = tables::require_table_topology(topo, "--topology");
  const FaultSet none;
  tables::LoadedTable loaded =
      tables::load_table_file(tables, "--tables", torus, comm, faults != nullptr ? *faults : none);
  out.table_saturation_rate = loaded.report.metrics.saturation_rate;
  out.table_loads.assign(loaded.report.loads.begin(), loaded.report.loads.end());
  out.routing = on_network(make_routing(name, topo, flow, loaded.table, tie), faults);
  return out;
}

}  // namespace wormnet
