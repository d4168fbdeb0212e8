#include "wormnet/routing/routing_factory.hpp"

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// True when `e` accepts the dimension count of `topo`.
bool dims_fit(const RoutingEntry& e, const Topology& topo) {
  return e.dims == 0 || e.dims == topo.num_dims();
}

/// The routings of `topo` other than `name` (a routing is no alternative to itself).
std::string alternatives(std::string_view name, const Topology& topo) {
  std::string s;
  for (const RoutingEntry& e : routing_registry()) {
    if (e.name != name && e.fits(topo.kind()) && dims_fit(e, topo)) {
      s += (s.empty() ? "" : ", ") + std::string(e.name);
    }
  }
  return s;
}

[[noreturn]] void does_not_fit(std::string_view name, const Topology& topo,
                               const std::string& why) {
  throw InputError("--routing", std::string(name),
                   why + " " + topo.spec() + " (allowed: " + alternatives(name, topo) + ")");
}

/// "a, b or c": the routings that take --ring-tie.
std::string ring_tie_routings() {
  std::vector<std::string_view> names;
  for (const RoutingEntry& e : routing_registry()) {
    if (e.ring_tie) names.push_back(e.name);
  }
  std::string s;
  for (std::size_t i = 0; i < names.size(); ++i) {
    s += std::string(i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + std::string(names[i]);
  }
  return s;
}

}  // namespace

std::unique_ptr<RoutingFunction> make_routing(std::string_view name, const Topology& topo,
                                              FlowControl flow,
                                              std::shared_ptr<const RouteTable> table,
                                              RingTie tie) {
  const RoutingEntry* entry = find_routing(name);
  if (entry == nullptr || !entry->fits(topo.kind())) {
    does_not_fit(name, topo, "is not a routing for");
  }
  const bool drawn = tie != RingTie::kPlus;
  if (drawn && !entry->ring_tie) {
    throw InputError("--ring-tie", tie == RingTie::kRandom ? "random" : "alternating",
                     "has no half-ring ties to draw with routing " + std::string(name) + " on " +
                         topo.spec() + " (allowed: plus; random and alternating need " +
                         ring_tie_routings() + " on a torus)");
  }
  if (!dims_fit(*entry, topo)) {
    does_not_fit(name, topo,
                 "needs a " + std::to_string(entry->dims) + "-D " +
                     std::string(enum_help(topo.kind())) + ", not");
  }
  if (name == "table") {
    if (!table) {
      throw InputError("--tables", "",
                       "routing table needs a tables file (wormnet tables -o FILE)");
    }
    if (&table->topology() != &topo && table->topology().spec() != topo.spec()) {
      throw InputError("--tables", table->topology().spec(),
                       "the routing table was built for another topology than " + topo.spec());
    }
  }
  return entry->make(RoutingBuild{topo, flow == FlowControl::kBubble, drawn, std::move(table)});
}

}  // namespace wormnet
