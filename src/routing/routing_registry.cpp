#include "wormnet/routing/routing_registry.hpp"

#include "wormnet/routing/routing_names.hpp"

#include <algorithm>

#include "wormnet/core/error.hpp"

#include "wormnet/routing/angara_routing.hpp"
#include "wormnet/routing/dateline_routing.hpp"
#include "wormnet/routing/destination_dateline_routing.hpp"
#include "wormnet/routing/dimension_order_routing.hpp"
#include "wormnet/routing/double_xy_dateline_routing.hpp"
#include "wormnet/routing/double_xy_routing.hpp"
#include "wormnet/routing/double_xy_turn_routing.hpp"
#include "wormnet/routing/duato_routing.hpp"
#include "wormnet/routing/minimal_adaptive_routing.hpp"
#include "wormnet/routing/ring_class_routing.hpp"
#include "wormnet/routing/stojmenovic_routing.hpp"
#include "wormnet/routing/table_routing.hpp"
#include "wormnet/routing/torus_stojmenovic_routing.hpp"
#include "wormnet/routing/west_first_routing.hpp"
#include "wormnet/routing/xy_first_routing.hpp"

namespace wormnet {

namespace {

constexpr TopologyKind kHoneycomb = TopologyKind::kHoneycomb;
constexpr TopologyKind kMesh = TopologyKind::kMesh;
constexpr TopologyKind kTorus = TopologyKind::kTorus;
constexpr TopologyKind kHoneycombTorus = TopologyKind::kHoneycombTorus;

const HoneycombMesh& honeycomb(const RoutingBuild& b) {
  return static_cast<const HoneycombMesh&>(b.topo);
}
const HoneycombTorus& honeycomb_torus(const RoutingBuild& b) {
  return static_cast<const HoneycombTorus&>(b.topo);
}
const Torus& torus(const RoutingBuild& b) {
  return static_cast<const Torus&>(b.topo);
}

/// Duato's routing: the topology's deadlock-free escape routing plus one adaptive VC.
std::unique_ptr<RoutingFunction> duato(const RoutingBuild& b) {
  std::unique_ptr<RoutingFunction> escape;
  switch (b.topo.kind()) {
    case kHoneycomb:
      escape = std::make_unique<DoubleXyRouting>(honeycomb(b));
      break;
    case kMesh:
      escape = std::make_unique<DimensionOrderRouting>(torus(b), false);
      break;
    case kTorus:
      escape = std::make_unique<DestinationDatelineRouting>(torus(b));
      break;
    case kHoneycombTorus:
      try {
        escape = std::make_unique<DoubleXyDatelineRouting>(honeycomb_torus(b));
      } catch (const InputError& e) {
        // The user asked for duato: the refusal names it, and its escape routing's own
        // reason (its VCs), and the one adaptive VC duato adds.
        throw InputError(e.option(), "duato",
                         "its escape routing double-xy-dateline " + e.allowed() +
                             "; duato adds one adaptive VC to those");
      }
      break;
  }
  return std::make_unique<DuatoRouting>(b.topo, std::move(escape));
}

// Each kind's routings appear in this order in --help, `info` and the README.
const std::vector<RoutingEntry> kRegistry = {
    {routing_name::kStojmenovic,
     {kHoneycomb, kHoneycombTorus},
     0,
     false,
     "1",
     "Stojmenovic's minimal routing (on honeycomb tori: to the nearest image); cyclic, the "
     "paper's negative example",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       if (b.topo.kind() == kHoneycombTorus) {
         return std::make_unique<TorusStojmenovicRouting>(honeycomb_torus(b), false);
       }
       return std::make_unique<StojmenovicRouting>(honeycomb(b));
     }},
    {routing_name::kXyFirst,
     {kHoneycomb},
     0,
     false,
     "1",
     "X-Y+ first turn model, non-minimal",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<XyFirstRouting>(honeycomb(b));
     }},
    {routing_name::kDoubleXy,
     {kHoneycomb},
     0,
     false,
     "2",
     "Double XY: two networks, VCs on X and Y",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DoubleXyRouting>(honeycomb(b));
     }},
    {routing_name::kDoubleXyTurn,
     {kHoneycomb},
     0,
     false,
     "2",
     "Double XY with the turn-model improvement (docs/routing/double-xy-turn.md)",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DoubleXyTurnRouting>(honeycomb(b));
     }},
    {routing_name::kStojmenovicDateline,
     {kHoneycombTorus},
     0,
     false,
     "levels (3 on HT_T)",
     "Stojmenovic's routing with dateline VCs only: still cyclic but on the four smallest tori",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<TorusStojmenovicRouting>(honeycomb_torus(b), true);
     }},
    {routing_name::kDoubleXyDateline,
     {kHoneycombTorus},
     0,
     false,
     "2 x levels (6 on HT_T)",
     "Double XY networks x dateline levels",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DoubleXyDatelineRouting>(honeycomb_torus(b));
     }},
    {routing_name::kMinimalAdaptive,
     {kHoneycomb, kHoneycombTorus},
     0,
     false,
     "1",
     "every minimal step allowed: the negative control",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       if (b.topo.kind() == kHoneycombTorus) {
         return std::make_unique<MinimalAdaptiveRouting>(honeycomb_torus(b));
       }
       return std::make_unique<MinimalAdaptiveRouting>(honeycomb(b));
     }},
    {routing_name::kXy,
     {kMesh},
     0,
     false,
     "1",
     "dimension order",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DimensionOrderRouting>(torus(b), b.bubble, b.drawn);
     }},
    {routing_name::kWestFirst,
     {kMesh},
     2,
     false,
     "1",
     "the west-first turn model (2-D meshes only)",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<WestFirstRouting>(torus(b));
     }},
    {routing_name::kDor,
     {kTorus},
     0,
     true,
     "1",
     "dimension order; `--flow-control bubble` for the rings",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DimensionOrderRouting>(torus(b), b.bubble, b.drawn);
     }},
    {routing_name::kDorDateline,
     {kTorus},
     0,
     true,
     "2",
     "dimension order, VC 1 from the wrap link on",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DatelineRouting>(torus(b), b.drawn);
     }},
    {routing_name::kDorDatelineDest,
     {kTorus},
     0,
     false,
     "2",
     "dimension order, the VC chosen from the destination: VC 0 while the way ahead wraps",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<DestinationDatelineRouting>(torus(b));
     }},
    {routing_name::kDorRingClass,
     {kTorus},
     0,
     true,
     "2",
     "dimension order, the class chosen at ring entry: 1 if the route wraps",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<RingClassRouting>(torus(b), RingClassPolicy::kWrap, b.drawn);
     }},
    {routing_name::kDorBooksim,
     {kTorus},
     0,
     true,
     "2",
     "BookSim's `dim_order_torus`: as `dor-ring-class` going +, mirrored going -",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<RingClassRouting>(torus(b), RingClassPolicy::kBookSim, b.drawn);
     }},
    {routing_name::kDorBalanced,
     {kTorus},
     0,
     true,
     "2",
     "two datelines, Cray's partition: wrap -> class 1, middle -> class 0, otherwise the class "
     "the packet drew",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<RingClassRouting>(torus(b), RingClassPolicy::kBalanced, b.drawn);
     }},
    {routing_name::kAngara,
     {kTorus},
     0,
     false,
     "1",
     "direction order with the direction-bit rule, bubble flow control",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<AngaraRouting>(torus(b));
     }},
    {routing_name::kTable,
     {kTorus},
     0,
     false,
     "1",
     "a routing table of `wormnet tables` (`--tables FILE`), bubble flow control",
     [](const RoutingBuild& b) -> std::unique_ptr<RoutingFunction> {
       return std::make_unique<TableRouting>(b.table);
     }},
    {routing_name::kDuato,
     {kHoneycomb, kMesh, kTorus, kHoneycombTorus},
     0,
     false,
     "escape's + 1",
     "fully adaptive minimal on one extra VC over the escape routing `double-xy`, `xy`, "
     "`dor-dateline-dest` or `double-xy-dateline` (docs/duato.md)",
     duato},
};

}  // namespace

bool RoutingEntry::fits(TopologyKind kind) const {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::span<const RoutingEntry> routing_registry() {
  return kRegistry;
}

const RoutingEntry* find_routing(std::string_view name) {
  for (const RoutingEntry& e : kRegistry) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

bool takes_ring_tie(std::string_view routing) {
  const RoutingEntry* e = find_routing(routing);
  return e != nullptr && e->ring_tie;
}

std::vector<std::string> routing_names(TopologyKind kind) {
  std::vector<std::string> names;
  for (const RoutingEntry& e : kRegistry) {
    if (e.fits(kind)) names.emplace_back(e.name);
  }
  return names;
}

std::vector<std::string> routing_names(const Topology& topo) {
  return routing_names(topo.kind());
}

std::string routing_catalog() {
  std::string s;
  for (const TopologyKind kind : {kHoneycomb, kMesh, kTorus, kHoneycombTorus}) {
    s += std::string(s.empty() ? "" : "; ") + std::string(enum_help(kind)) + ":";
    const auto names = routing_names(kind);
    for (std::size_t i = 0; i < names.size(); ++i) s += (i ? ", " : " ") + names[i];
  }
  return s;
}

}  // namespace wormnet
