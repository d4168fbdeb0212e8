// The reference router: wormnet's router written as plainly as it can be, the executable
// specification of what the fast engine (RouterBank driven by RankModel) must do, flit for
// flit and credit for credit. A queue per input VC, a record per output VC, one router per
// node, every router stepped in every cycle, and each pipeline stage a function named after
// it (reference_network.cpp, in the order a cycle runs them). No hints, no masks, no layout:
// where the fast code encodes a rule in a trick, this file states the rule.
// docs/simulator.md, "The reference router: read this first", lists the rules in order;
// tests/unit/router/reference_router_test.cpp runs this model against the engine on random
// configurations and stops at the first flit move or credit where they differ.
//
// It reuses what is not the router: the topology, the routing function, the traffic sources
// (which messages each node generates, and when) and the destination patterns.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "wormnet/config/sim_config.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/router/router_events.hpp"
#include "wormnet/routing/routing_function.hpp"
#include "wormnet/topology/topology.hpp"
#include "wormnet/traffic/destination_pattern.hpp"
#include "wormnet/traffic/traffic_sources.hpp"

namespace wormnet::reference {

/// A packet as the network knows it, from its injection to its delivery.
struct PacketRecord {
  std::uint64_t id = 0;  ///< source node x 2^32 + the source's message number (mod 2^32)
  std::uint32_t source = 0;
  std::uint32_t dest = 0;
  int length = 0;        ///< flits
  RouteState state = 0;  ///< the routing's state, set by each VC grant of the head
  int hops = 0;          ///< network output VCs granted to the head so far
  Cycle created = 0;     ///< the message was generated
  Cycle injected = 0;    ///< its head entered the injection buffer
  bool measured = false;
};

/// A flit names its packet and whether it is the packet's first (head) or last (tail) one.
struct Flit {
  std::uint64_t packet = 0;
  bool head = false;
  bool tail = false;
};

/// What the packet at the front of an input VC is doing.
enum class Stage {
  kIdle,          ///< the buffer is empty
  kRouting,       ///< a head at the front, its route known from `ready`
  kWaitingForVc,  ///< a routed head, asking for an output VC every cycle
  kActive,        ///< the packet holds an output VC; its flits may cross from `ready`
};

struct InputVc {
  std::deque<Flit> buffer;  ///< at most `depth` flits, in arrival order
  Stage stage = Stage::kIdle;
  /// kRouting: the cycle the route is known (the head reached the front + the routing
  /// delay); kActive: the first cycle of switch allocation (the grant + the VC allocation
  /// delay).
  Cycle ready = 0;
  std::vector<RouteOption> route;  ///< kWaitingForVc: the routing's options, in its order
  int out_port = 0;                ///< kActive: the output VC the packet holds
  int out_vc = 0;
};

struct OutputVc {
  /// Free slots of the input buffer at the other end of the link (unused on the ejection
  /// port, which never runs out).
  int credits = 0;
  /// The input VC (numbered port x V + vc) whose packet holds this VC from its head's grant
  /// until its tail crosses the switch; none when free.
  std::optional<int> owner;
  /// The VC allocator's round-robin pointer: the input VC it granted last.
  std::optional<int> last_granted;
};

/// The message a router is writing into its injection buffer, a flit per cycle.
struct Injection {
  std::uint64_t packet = 0;
  int vc = 0;
  int written = 0;  ///< flits already in the buffer
  int length = 0;
};

struct Router {
  std::uint32_t node = 0;
  /// Input VCs numbered port x V + vc (input port P is the injection channel); that
  /// numbering is also the order in which the VC allocator's round robin visits them.
  std::vector<InputVc> inputs;
  std::vector<OutputVc> outputs;  ///< numbered likewise; output port P is the ejection channel
  /// The switch allocator's round-robin pointers: per input port the VC that last crossed
  /// from it, per output port the input port that last crossed to it.
  std::vector<std::optional<int>> switch_last_vc;
  std::vector<std::optional<int>> switch_last_input;
  std::optional<Injection> injection;
};

/// The timing and rules of a run, read from its configuration (docs/simulator.md).
struct ReferenceParams {
  int vcs = 1;              ///< VCs per port: --vcs, or what the routing needs (RunPlan::vcs)
  bool bubble = false;      ///< bubble flow control (RunPlan::bubble)
  double rate = 0.0;        ///< offered load, flits/node/cycle
  Cycle measure_begin = 0;  ///< messages created in [begin, end) are labelled (statistics only)
  Cycle measure_end = 0;
};

class ReferenceNetwork {
 public:
  /// Every node of `topo` routed by `routing` under `config`; the sources generate `p.rate`
  /// flits/node/cycle to destinations drawn from `pattern`. All four must outlive it.
  ReferenceNetwork(const SimConfig& config, const ReferenceParams& p, const Topology& topo,
                   const RoutingFunction& routing, const DestinationPattern& pattern);

  /// Simulates cycle t (the cycles must come in order from 0).
  void step(Cycle t);
  /// Puts message m into the source queue of `node` (hand-worked cases), to be injected
  /// like a generated one.
  void enqueue(std::uint32_t node, const Message& m) { sources_.queue(node).push(m); }

  /// Told of every flit move and credit arrival (may be null).
  void set_observer(RouterObserver* observer) { observer_ = observer; }
  /// Told of every packet delivered (its tail left the ejection channel) and the cycle.
  using DeliveryObserver = std::function<void(const PacketRecord&, Cycle)>;
  void set_delivery_observer(DeliveryObserver f) { on_delivery_ = std::move(f); }

  [[nodiscard]] const Router& router(std::uint32_t node) const { return routers_[node]; }
  /// Flits in buffers and on links.
  [[nodiscard]] std::uint64_t flits_in_network() const;

 private:
  /// A flit or a credit on a link, and where it arrives.
  struct FlitOnLink {
    std::uint32_t node;
    int port;
    int vc;
    Flit flit;
  };
  struct CreditOnLink {
    std::uint32_t node;
    int port;
    int vc;
  };
  /// A head's choice of output VC, before the output VC's arbiter decides.
  struct Candidate {
    int port;
    int vc;
    RouteState next_state;
  };

  // The stages of a cycle, in order (reference_network.cpp).
  void generate_messages(Cycle t);
  void deliver_links(Cycle t);
  void inject(Router& r, Cycle t);
  void route_heads(Router& r, Cycle t);
  void allocate_virtual_channels(Router& r, Cycle t);
  std::vector<int> allocate_switch(Router& r, Cycle t);
  void traverse_switch(Router& r, Cycle t, const std::vector<int>& winners);

  // The rules the stages apply.
  void enter_buffer(Router& r, int port, int vc, const Flit& f, Cycle t);
  [[nodiscard]] std::vector<RouteOption> route_of(const Router& r, int in_port, int in_vc,
                                                  const PacketRecord& p) const;
  [[nodiscard]] std::vector<Candidate> free_output_vcs(const Router& r, int in_port,
                                                       const InputVc& in,
                                                       const PacketRecord& p) const;
  [[nodiscard]] bool vc_allowed(const RouteOption& option, int vc) const;
  [[nodiscard]] bool bubble_room(const Router& r, int in_port, int out_port, int out_vc,
                                 const PacketRecord& p) const;
  [[nodiscard]] bool adaptive(int port, int vc) const;
  [[nodiscard]] std::size_t select(const Router& r, const std::vector<Candidate>& candidates,
                                   const PacketRecord& p, Cycle t) const;
  [[nodiscard]] bool may_cross(const Router& r, const InputVc& in, Cycle t) const;
  [[nodiscard]] int initial_choice(std::uint64_t id, std::uint64_t sequence) const;
  [[nodiscard]] int terminal() const { return ports_; }
  [[nodiscard]] int vc_number(int port, int vc) const { return port * vcs_ + vc; }

  const Topology& topo_;
  const RoutingFunction& routing_;
  int ports_;                      ///< network ports P; port P is the terminal's
  int vcs_;                        ///< V
  int depth_;                      ///< flits per input VC buffer
  int classes_;                    ///< the routing's VC classes: VC v is of class v mod classes_
  std::vector<bool> adaptive_vc_;  ///< [vc]: an adaptive VC of Duato's routing (none elsewhere)
  bool bubble_;
  int max_length_;           ///< the longest packet (the bubble), flits
  Cycle routing_delay_;      ///< head at the front -> route known
  Cycle vc_alloc_delay_;     ///< VC grant -> first switch allocation
  Cycle flit_delay_;         ///< switch won -> next router's buffer (sa + st + link)
  Cycle eject_delay_;        ///< switch won -> delivered (sa + st + ejection latency)
  Cycle credit_delay_;       ///< flit left a buffer -> its credit reaches the output VC
  Cycle injection_latency_;  ///< message created -> its head may enter the router
  SelectionPolicy selection_;
  bool per_vc_bandwidth_;
  RingTie ring_tie_;
  std::uint64_t tie_key_;  ///< the seed's key for drawing among initial choices

  std::vector<std::uint32_t> nodes_;  ///< 0 .. N-1 (the traffic sources' local = global ids)
  TrafficSources sources_;
  std::vector<Router> routers_;
  std::map<std::uint64_t, PacketRecord> packets_;            ///< by id, from injection to delivery
  std::map<Cycle, std::vector<FlitOnLink>> flits_on_links_;  ///< by arrival cycle
  std::map<Cycle, std::vector<CreditOnLink>> credits_on_links_;  ///< by arrival cycle
  RouterObserver* observer_ = nullptr;
  DeliveryObserver on_delivery_;
};

}  // namespace wormnet::reference
