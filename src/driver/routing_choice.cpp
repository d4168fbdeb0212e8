#include "wormnet/driver/routing_choice.hpp"

#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_limits.hpp"

namespace wormnet {

LoadedRouting load_routing(const std::string& name, const std::string& tables, const Topology& topo,
                           FlowControl flow, const Communicator& comm, RingTie tie) {
  LoadedRouting out;
  if (name != "table") {
    if (!tables.empty()) {
      throw InputError("--tables", tables, "a tables file is only read with --routing table");
    }
    out.routing = make_routing(name, topo, flow, nullptr, tie);
    return out;
  }
  if (tables.empty()) {
    // make_routing names what is missing (and checks that "table" fits the topology).
    out.routing = make_routing(name, topo, flow, nullptr, tie);
  }
  const Torus& torus = tables::require_table_topology(topo, "--topology");
  tables::LoadedTable loaded = tables::load_table_file(tables, "--tables", torus, comm);
  out.table_saturation_rate = loaded.report.metrics.saturation_rate;
  out.table_loads.assign(loaded.report.loads.begin(), loaded.report.loads.end());
  out.routing = make_routing(name, topo, flow, loaded.table, tie);
  return out;
}

}  // namespace wormnet
