// The routing interface: written once, consumed unchanged by the simulator (which output
// ports and VCs may this head flit take?), the deadlock verifier (which channel dependencies
// exist?), the load analysis (how many routes cross each channel?) and the table generators.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "wormnet/core/ids.hpp"
#include "wormnet/topology/topology.hpp"

namespace wormnet {

/// Set of virtual channels as a bit mask (bit v = VC v).
using VcMask = std::uint8_t;
/// Per-packet routing state, carried by the head flit; its meaning belongs to the routing
/// function (e.g. the Double XY virtual network). Values lie in [0, state_count()).
using RouteState = std::uint32_t;

/// What a router knows when a head flit asks for its route.
struct RouteRequest {
  NodeId node;                      ///< current router
  NodeId source;                    ///< packet source (only for source_dependent() routings)
  NodeId dest;                      ///< packet destination, never equal to node
  PortId in_port = kInjectionPort;  ///< port the head arrived on; kInjectionPort at the source
  VcId in_vc = 0;                   ///< VC it arrived on (0 at injection)
  RouteState state = 0;             ///< packet routing state
};

/// One allowed step: leave on `port` using any VC in `vcs`; the packet's state becomes
/// `next_state`.
struct RouteOption {
  PortId port;
  VcMask vcs;
  RouteState next_state;
};

/// The allowed steps, in the routing function's priority order (the first is preferred).
/// At most kCapacity of them: two per port (Duato's adaptive step on a port and an escape
/// step on it with another next state), which no routing of the registry exceeds. A routing
/// that adds more is a bug in that routing: add() refuses it with an InvariantError rather
/// than write past the array (and the callers' arrays sized from kCapacity, such as the VC
/// allocator's candidates). The check is a compare of a register with a constant and a
/// branch never taken, once per step offered (no measurable cost: docs/simulator.md).
class RouteOptions {
 public:
  static constexpr int kCapacity = 2 * kMaxPorts;
  void clear() { size_ = 0; }
  void add(PortId port, VcMask vcs, RouteState next_state = 0) {
    if (size_ >= kCapacity) [[unlikely]] {
      too_many();
    }
    items_[static_cast<std::size_t>(size_++)] = RouteOption{port, vcs, next_state};
  }
  [[nodiscard]] int size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  /// Adds VCs to option i (same port, same next state); i < size().
  void add_vcs(int i, VcMask vcs) {
    assert(i >= 0 && i < size_);
    auto& o = items_[static_cast<std::size_t>(i)];
    o.vcs = static_cast<VcMask>(o.vcs | vcs);
  }
  [[nodiscard]] const RouteOption& operator[](int i) const {
    return items_[static_cast<std::size_t>(i)];
  }
  [[nodiscard]] const RouteOption* begin() const { return items_.data(); }
  [[nodiscard]] const RouteOption* end() const { return items_.data() + size_; }

 private:
  /// Throws the InvariantError of a routing that offers more than kCapacity steps.
  [[noreturn, gnu::cold, gnu::noinline]] static void too_many();

  std::array<RouteOption, kCapacity> items_;  // only [0, size_) is meaningful
  int size_ = 0;
};

/// What must agree between two requests that differ only in where the head arrived (see
/// RoutingFunction::arrival_class()).
enum class ArrivalScope : std::uint8_t {
  kPorts,    ///< the options' ports, their number, order and next states (VC masks may differ)
  kOptions,  ///< the whole result, VC masks included
};

/// Translation symmetry of a routing on a torus or a honeycomb torus (see
/// RoutingFunction::translation_invariance()).
enum class Translation : std::uint8_t {
  kNone,     ///< none declared (always correct)
  kPorts,    ///< initial_state() and the options' ports (number, order, next states)
  kOptions,  ///< initial_state() and the whole result, VC masks included
};

/// A symmetry of the network (an automorphism: it maps links onto links) with a relabelling
/// of the VCs: node n goes to node[n], the channel leaving n by port p to the channel leaving
/// node[n] by port[p], and its VC v to VC vc[p][v].
struct NetworkSymmetry {
  std::vector<NodeId> node;                               ///< [node] -> image
  std::array<PortId, kMaxPorts> port{};                   ///< [port] -> image port
  std::array<std::array<VcId, kMaxVcs>, kMaxPorts> vc{};  ///< [port][vc] -> image VC
};

/// A routing function R(node, dest, input channel, state) -> allowed (port, VC set) steps.
/// Contract: route() is a pure function of the request (no hidden state, no randomness);
/// unless source_dependent(), it must not read request.source (the verifier explores states
/// per destination and merges sources). Every option's port must have a link.
class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Virtual channels per physical channel that this routing needs.
  [[nodiscard]] virtual int vcs_required() const = 0;
  /// Number of distinct packet states (states are 0 .. state_count()-1).
  [[nodiscard]] virtual int state_count() const { return 1; }
  /// State of a new packet from src to dst.
  [[nodiscard]] virtual RouteState initial_state(NodeId /*src*/, NodeId /*dst*/) const { return 0; }
  /// Number of equally likely choices a new packet draws from (1 = no choice). A routing that
  /// lets each packet pick, say, the direction of a half-ring tie encodes the pick in the
  /// initial state; the simulator draws the choice from the packet's identity (never from a
  /// shared generator, so results do not depend on the rank count), the verifier explores
  /// every choice and the load analysis splits a pair's unit evenly over them.
  [[nodiscard]] virtual int initial_choices() const { return 1; }
  /// State of a new packet from src to dst that drew `choice` in [0, initial_choices()).
  [[nodiscard]] virtual RouteState chosen_initial_state(NodeId src, NodeId dst,
                                                        int /*choice*/) const {
    return initial_state(src, dst);
  }
  /// Fills `out` with the allowed steps at request.node (!= request.dest).
  virtual void route(const RouteRequest& request, RouteOptions& out) const = 0;
  /// True when the routing reads request.source beyond initial_state() (table routing).
  [[nodiscard]] virtual bool source_dependent() const { return false; }
  /// Whether the routing claims to deliver from src to dst. Every routing claims every pair
  /// but a table made around faults, which leaves the pairs without a legal route unclaimed
  /// (docs/tables.md section 8; only a source-dependent routing may claim less): the
  /// analyses check the claimed pairs, and traffic must not need the others.
  [[nodiscard]] virtual bool claims(NodeId /*src*/, NodeId /*dst*/) const { return true; }
  /// True when deadlock freedom inside rings relies on bubble flow control rather than on
  /// the channel dependency graph (Angara, torus DOR with bubble flow control).
  [[nodiscard]] virtual bool needs_bubble() const { return false; }
  /// Escape VC classes of an adaptive routing with escape channels (Duato): the classes of
  /// its deadlock-free escape sub-function; the others are adaptive. 0 for every other
  /// routing. `verify` then proves deadlock freedom by Duato's condition (escape
  /// sub-function connected, extended channel dependency graph acyclic), and the simulator
  /// prefers free adaptive VCs and hands an adaptive VC to a new packet only when its
  /// downstream buffer is empty.
  [[nodiscard]] virtual VcMask escape_vcs() const { return 0; }
  /// True when every allowed step is along a minimal path.
  [[nodiscard]] virtual bool minimal() const = 0;
  /// One-line description with the paper reference, for `wormnet info` and the docs.
  [[nodiscard]] virtual std::string description() const = 0;

  // Declarations that let the analyses (verify/) merge routing states that route() cannot
  // tell apart. The defaults claim nothing and are always correct; a routing that declares
  // more than holds would get wrong loads or a wrong verdict, so
  // tests/unit/routing/routing_declarations_test.cpp checks every routing of the factory
  // against route() by brute force.

  /// A class of the arrival (in_port, in_vc; in_port = kInjectionPort at the source) such
  /// that two requests that differ only in arrivals of one class get the same result within
  /// `scope`. Classes are small non-negative integers (below 256); the default gives every
  /// arrival its own.
  [[nodiscard]] virtual int arrival_class(ArrivalScope /*scope*/, PortId in_port,
                                          VcId in_vc) const {
    return in_port == kInjectionPort ? 0 : 1 + in_port * kMaxVcs + in_vc;
  }
  /// Destination classes: route() reads request.dest only through destination_class(node,
  /// dest), so two requests that differ only in destinations of one class at their node
  /// (neither the node itself) get the same result, VC masks included. Then the verifier
  /// routes each (node, arrival class, state, destination class) once for all destinations
  /// (verify/destination_block_pass.hpp). Classes are 0 .. destination_classes() - 1, at most
  /// 256; 0 classes (the default): none declared.
  [[nodiscard]] virtual int destination_classes() const { return 0; }
  [[nodiscard]] virtual int destination_class(NodeId /*node*/, NodeId /*dest*/) const { return 0; }
  /// On a torus: whether moving the node, the destination and the source together by one
  /// hop along any ring dimension (wrap-around, size > 2) leaves the initial states (of every
  /// initial choice) and route() unchanged within the given scope. Then every channel of one
  /// direction carries the same load (kPorts), and the dependencies repeat along the rings
  /// (kOptions), so one destination stands for all. Only ring dimensions count (a mesh has none).
  /// On a honeycomb torus: the same for every translation of the lattice that moves coordinate
  /// k by a multiple of translation_step(scope, k), within kPorts (declared kPorts or kOptions)
  /// and within kOptions (declared kOptions). Then one destination per class of those
  /// translations stands for its class.
  [[nodiscard]] virtual Translation translation_invariance() const { return Translation::kNone; }
  /// On a honeycomb torus, which translations translation_invariance() speaks of within
  /// `scope`: those that move lattice coordinate k (0 = x, 1 = y, 2 = z) by a multiple of this
  /// step, a divisor of HoneycombTorus::period(k) (so that the torus' own wraparound is among
  /// them), the kOptions step a multiple of the kPorts one. 1 (the default): every translation.
  /// A routing whose VCs depend on coordinates modulo their periods (the dateline levels)
  /// declares the periods for kOptions. Not read on other topologies.
  [[nodiscard]] virtual int translation_step(ArrivalScope /*scope*/, int /*coordinate*/) const {
    return 1;
  }
  /// A group of network symmetries g (the identity among them, closed under composition)
  /// that the routing's flows commute with, within `scope`: the flow toward destination g(d)
  /// on channel g(c) (and VC g(v), for kOptions) equals the flow toward d on c (VC v), and a
  /// dependency (c, v) -> (c', v') toward d is one (g(c), g(v)) -> (g(c'), g(v')) toward g(d).
  /// Then one destination per orbit gives every load (kPorts) or every dependency (kOptions).
  /// Empty (the default): none claimed. Checked by brute force on small networks against the
  /// flows of every destination (tests/support/routing_declarations.hpp).
  [[nodiscard]] virtual std::vector<NetworkSymmetry> symmetries(ArrivalScope /*scope*/) const {
    return {};
  }
};

/// All VCs below n: mask with bits 0..n-1 set.
constexpr VcMask all_vcs(int n) {
  return static_cast<VcMask>((1U << n) - 1U);
}

}  // namespace wormnet
