// Every routing's declarations (arrival classes, translation invariance), on which the
// analyses' merged states and one-destination shortcut rest, checked against its route() by
// brute force over every request on small networks (tests/support/routing_declarations.hpp).
// The routings are taken from the factory's list, so a new routing is checked as soon as it
// is registered. Routings that claim more than holds must be caught.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <utility>

#include "../../support/routing_declarations.hpp"
#include "../../support/symmetry_check.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/routing/angara_routing.hpp"
#include "wormnet/routing/dateline_routing.hpp"
#include "wormnet/routing/double_xy_routing.hpp"
#include "wormnet/routing/double_xy_turn_routing.hpp"
#include "wormnet/routing/honeycomb_symmetries.hpp"
#include "wormnet/routing/minimal_adaptive_routing.hpp"
#include "wormnet/routing/routing_factory.hpp"
#include "wormnet/routing/stojmenovic_routing.hpp"
#include "wormnet/routing/table_routing.hpp"
#include "wormnet/routing/xy_first_routing.hpp"
#include "wormnet/tables/table_generator.hpp"
#include "wormnet/topology/honeycomb_mesh.hpp"
#include "wormnet/topology/honeycomb_torus.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace wormnet {
namespace {

// The honeycomb tori: HT_2 (period 2: the dateline routings keep their VCs under a proper
// subgroup of the translations), HReT(4, 4) (periods 4, 2, 2: only the identity keeps the
// levels) and HRoT(3, 6).
const char* const kTopologies[] = {
    "honeycomb:1",       "honeycomb:2",        "honeycomb:3",
    "mesh:4x3",          "mesh:3x2x3",         "torus:4x4",
    "torus:5x3",         "torus:2x3x4",        "torus:6",
    "torus:4x3x3",       "torus:2x2x3",        "honeycomb-torus:1",
    "honeycomb-torus:2", "honeycomb-rect:4x4", "honeycomb-rhombic:3x6",
    "honeycomb:4"};

void expect_declarations_hold(const Topology& topo, const RoutingFunction& routing) {
  SCOPED_TRACE(routing.name() + " on " + topo.spec());
  EXPECT_EQ(test::check_arrival_classes(topo, routing, ArrivalScope::kPorts), "");
  EXPECT_EQ(test::check_arrival_classes(topo, routing, ArrivalScope::kOptions), "");
  EXPECT_EQ(test::check_destination_classes(topo, routing), "");
  if (const auto* t = dynamic_cast<const Torus*>(&topo)) {
    EXPECT_EQ(test::check_translation(*t, routing), "");
  }
  if (const auto* h = dynamic_cast<const HoneycombTorus*>(&topo)) {
    EXPECT_EQ(test::check_translation(*h, routing), "");
  }
  EXPECT_EQ(test::check_symmetries(topo, routing, ArrivalScope::kPorts), "");
  EXPECT_EQ(test::check_symmetries(topo, routing, ArrivalScope::kOptions), "");
}

TEST(RoutingDeclarations, EveryRoutingOfTheFactoryDeclaresOnlyWhatHolds) {
  int checked = 0;
  for (const char* spec : kTopologies) {
    const auto topo = make_topology(spec);
    for (const std::string& name : routing_names(*topo)) {
      if (name == "table") continue;  // needs a table: below
      for (FlowControl flow : {FlowControl::kCredit, FlowControl::kBubble}) {
        std::unique_ptr<RoutingFunction> routing;
        try {
          routing = make_routing(name, *topo, flow);
        } catch (const InputError&) {
          continue;  // not defined on this topology (west-first beyond 2-D)
        }
        expect_declarations_hold(*topo, *routing);
        ++checked;
      }
      // Half-ring ties drawn per packet: more initial states, which must shift along too.
      if (topo->kind() == TopologyKind::kTorus && takes_ring_tie(name)) {
        const auto drawn =
            make_routing(name, *topo, FlowControl::kCredit, nullptr, RingTie::kRandom);
        expect_declarations_hold(*topo, *drawn);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 40);
}

TEST(RoutingDeclarations, TableRoutingDeclaresOnlyWhatHolds) {
  for (const char* spec : {"torus:4x3", "torus:2x3x2"}) {
    const auto topo = make_topology(spec);
    const auto& t = static_cast<const Torus&>(*topo);
    tables::GeneratorOptions o;
    o.algorithm = tables::TableAlgorithm::kBfs;
    const tables::GeneratedTable g = tables::generate_table(t, o, Communicator::self());
    const TableRouting routing(g.table);
    expect_declarations_hold(t, routing);
  }
}

// --- The checker itself: routings that claim too much are caught ----------------------------

/// Angara claiming that it reads nothing of the arrival (it reads the input port).
class AngaraIgnoringArrival final : public RoutingFunction {
 public:
  explicit AngaraIgnoringArrival(const Torus& t) : inner_(t) {}
  std::string name() const override { return "angara-ignoring-arrival"; }
  int vcs_required() const override { return 1; }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  void route(const RouteRequest& r, RouteOptions& out) const override { inner_.route(r, out); }
  int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }

 private:
  AngaraRouting inner_;
};

/// Dateline claiming that its VCs are translation-invariant too (they depend on the dateline).
class DatelineClaimingFullTranslation final : public RoutingFunction {
 public:
  explicit DatelineClaimingFullTranslation(const Torus& t) : inner_(t) {}
  std::string name() const override { return "dateline-full-translation"; }
  int vcs_required() const override { return 2; }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  void route(const RouteRequest& r, RouteOptions& out) const override { inner_.route(r, out); }
  int arrival_class(ArrivalScope s, PortId p, VcId v) const override {
    return inner_.arrival_class(s, p, v);
  }
  Translation translation_invariance() const override { return Translation::kOptions; }

 private:
  DatelineRouting inner_;
};

/// Dateline claiming that its VC masks ignore the input VC.
class DatelineIgnoringVc final : public RoutingFunction {
 public:
  explicit DatelineIgnoringVc(const Torus& t) : inner_(t) {}
  std::string name() const override { return "dateline-ignoring-vc"; }
  int vcs_required() const override { return 2; }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  void route(const RouteRequest& r, RouteOptions& out) const override { inner_.route(r, out); }
  int arrival_class(ArrivalScope, PortId p, VcId) const override {
    return p == kInjectionPort ? 0 : 1 + p;
  }

 private:
  DatelineRouting inner_;
};

/// A honeycomb routing `Inner` on the mesh, forwarded: the test routings below override only
/// the declarations they claim differently.
template <class Inner>
class HoneycombForwarding : public RoutingFunction {
 public:
  explicit HoneycombForwarding(const HoneycombMesh& h) : inner_(h) {}
  int vcs_required() const override { return inner_.vcs_required(); }
  int state_count() const override { return inner_.state_count(); }
  RouteState initial_state(NodeId s, NodeId d) const override { return inner_.initial_state(s, d); }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  void route(const RouteRequest& r, RouteOptions& out) const override { inner_.route(r, out); }

 protected:
  Inner inner_;
};

/// Improved Double XY claiming one class (it reads the network it arrived in).
class DoubleXyTurnOneClass final : public HoneycombForwarding<DoubleXyTurnRouting> {
 public:
  using HoneycombForwarding::HoneycombForwarding;
  std::string name() const override { return "double-xy-turn-one-class"; }
  int arrival_class(ArrivalScope, PortId, VcId) const override { return 0; }
};

/// Improved Double XY whose destination classes leave out whether a Z+ hop remains (it decides
/// whether network 0 may still be left), or, with `bits` = 15, keep it (the routing's own).
class DoubleXyTurnClasses final : public HoneycombForwarding<DoubleXyTurnRouting> {
 public:
  DoubleXyTurnClasses(const HoneycombMesh& h, int bits) : HoneycombForwarding(h), bits_(bits) {}
  std::string name() const override { return "double-xy-turn-classes"; }
  int arrival_class(ArrivalScope s, PortId p, VcId v) const override {
    return inner_.arrival_class(s, p, v);
  }
  int destination_classes() const override { return 16; }
  int destination_class(NodeId n, NodeId d) const override {
    return inner_.destination_class(n, d) & bits_;
  }

 private:
  int bits_;
};

/// A honeycomb routing claiming symmetries of its own choosing: every motion that `keep`
/// accepts, with Double XY's VC swap under inversion when `swap`.
template <class Inner>
class HoneycombClaiming final : public HoneycombForwarding<Inner> {
 public:
  HoneycombClaiming(const HoneycombMesh& h, bool (*keep)(const HoneycombMotion&), bool swap)
      : HoneycombForwarding<Inner>(h), h_(h), keep_(keep), swap_(swap) {}
  std::string name() const override { return this->inner_.name() + "-claiming"; }
  int arrival_class(ArrivalScope s, PortId p, VcId v) const override {
    return this->inner_.arrival_class(s, p, v);
  }
  std::vector<NetworkSymmetry> symmetries(ArrivalScope) const override {
    std::vector<NetworkSymmetry> out;
    for (const HoneycombMotion& m : honeycomb_motions()) {
      if (keep_(m)) out.push_back(honeycomb_symmetry(h_, m, swap_ && m.invert));
    }
    return out;
  }

 private:
  const HoneycombMesh& h_;
  bool (*keep_)(const HoneycombMotion&);
  bool swap_;
};

bool every_motion(const HoneycombMotion&) {
  return true;
}
bool keeps_z(const HoneycombMotion& m) {
  return m.axis[2] == 2;
}
bool no_inversion(const HoneycombMotion& m) {
  return !m.invert;
}

TEST(RoutingDeclarations, SymmetryClaimsThatDoNotHoldAreCaught) {
  const HoneycombMesh h(3);
  // Stojmenovic's ties go to the lower coordinate: no permutation of the axes keeps them.
  EXPECT_NE(test::check_symmetries(h, HoneycombClaiming<StojmenovicRouting>(h, every_motion, false),
                                   ArrivalScope::kPorts),
            "");
  // Double XY: without the VC swap the inversion maps network 0 onto VC 0 of network 1 ...
  EXPECT_NE(test::check_symmetries(h, HoneycombClaiming<DoubleXyRouting>(h, keeps_z, false),
                                   ArrivalScope::kOptions),
            "");
  // ... which the loads cannot see; Z is its own axis, though.
  EXPECT_EQ(test::check_symmetries(h, HoneycombClaiming<DoubleXyRouting>(h, keeps_z, false),
                                   ArrivalScope::kPorts),
            "");
  EXPECT_NE(test::check_symmetries(h, HoneycombClaiming<DoubleXyRouting>(h, every_motion, true),
                                   ArrivalScope::kPorts),
            "");
  // Improved Double XY: its ports have all 12, its VCs not even the X-Y swap.
  EXPECT_NE(test::check_symmetries(h, HoneycombClaiming<DoubleXyTurnRouting>(h, keeps_z, false),
                                   ArrivalScope::kOptions),
            "");
  // XY-first's zig-zag is X-/Y+: the rotations do not keep it.
  EXPECT_NE(test::check_symmetries(h, HoneycombClaiming<XyFirstRouting>(h, no_inversion, false),
                                   ArrivalScope::kPorts),
            "");
  // Not a group: the X-Y swap without the identity.
  EXPECT_NE(test::check_symmetries(h,
                                   HoneycombClaiming<MinimalAdaptiveRouting>(
                                       h,
                                       [](const HoneycombMotion& m) {
                                         return m.axis == std::array<int, 3>{1, 0, 2} && !m.invert;
                                       },
                                       false),
                                   ArrivalScope::kPorts),
            "");
}

/// A honeycomb-torus routing claiming translation steps of its own choosing within kOptions
/// (and every translation within kPorts, which holds).
class HoneycombTorusStepClaiming final : public RoutingFunction {
 public:
  HoneycombTorusStepClaiming(std::unique_ptr<RoutingFunction> inner, std::array<int, 3> step)
      : inner_(std::move(inner)), step_(step) {}
  std::string name() const override { return inner_->name() + "-claiming"; }
  int vcs_required() const override { return inner_->vcs_required(); }
  int state_count() const override { return inner_->state_count(); }
  RouteState initial_state(NodeId s, NodeId d) const override {
    return inner_->initial_state(s, d);
  }
  bool minimal() const override { return true; }
  std::string description() const override { return ""; }
  void route(const RouteRequest& r, RouteOptions& out) const override { inner_->route(r, out); }
  Translation translation_invariance() const override { return Translation::kOptions; }
  int translation_step(ArrivalScope scope, int k) const override {
    return scope == ArrivalScope::kOptions ? step_[static_cast<std::size_t>(k)] : 1;
  }

 private:
  std::unique_ptr<RoutingFunction> inner_;
  std::array<int, 3> step_;
};

TEST(RoutingDeclarations, HoneycombTorusTranslationClaimsThatDoNotHoldAreCaught) {
  for (const char* spec : {"honeycomb-torus:2"}) {
    SCOPED_TRACE(spec);
    const auto topo = make_topology(spec);
    const auto& h = static_cast<const HoneycombTorus&>(*topo);
    const int p = h.period(0);  // T on every coordinate
    for (const char* name : {"double-xy-dateline", "stojmenovic-dateline", "duato"}) {
      SCOPED_TRACE(name);
      const auto claiming = [&](std::array<int, 3> step) {
        return HoneycombTorusStepClaiming(make_routing(name, h), step);
      };
      // The levels read x and y modulo T: every translation, or one that moves only x by
      // multiples of T, changes some VC ...
      EXPECT_NE(test::check_translation(h, claiming({1, 1, 1})), "");
      EXPECT_NE(test::check_translation(h, claiming({p, 1, 1})), "");
      // ... and a step that does not divide the period is refused.
      EXPECT_NE(test::check_translation(h, claiming({p + 1, p, 1})), "");
      // The routings' own: multiples of T on the dateline coordinates.
      EXPECT_EQ(test::check_translation(h, claiming({p, p, 1})), "");
    }
  }
}

TEST(RoutingDeclarations, ClaimsThatDoNotHoldAreCaught) {
  const Torus t({4, 4}, true);
  EXPECT_NE(test::check_arrival_classes(t, AngaraIgnoringArrival(t), ArrivalScope::kPorts), "");
  EXPECT_NE(test::check_translation(t, DatelineClaimingFullTranslation(t)), "");
  EXPECT_NE(test::check_arrival_classes(t, DatelineIgnoringVc(t), ArrivalScope::kOptions), "");
  // The dateline's ports do ignore the VC: that part of the claim holds.
  EXPECT_EQ(test::check_arrival_classes(t, DatelineIgnoringVc(t), ArrivalScope::kPorts), "");
  const HoneycombMesh h(2);
  EXPECT_NE(test::check_arrival_classes(h, DoubleXyTurnOneClass(h), ArrivalScope::kPorts), "");
  // Destination classes: without the Z bit two destinations of one class route differently.
  EXPECT_NE(test::check_destination_classes(h, DoubleXyTurnClasses(h, 7)), "");
  EXPECT_EQ(test::check_destination_classes(h, DoubleXyTurnClasses(h, 15)), "");
  // Which coordinates a hop reduces, too: leaving out the Y bit is caught.
  EXPECT_NE(test::check_destination_classes(h, DoubleXyTurnClasses(h, 13)), "");
}

}  // namespace
}  // namespace wormnet
