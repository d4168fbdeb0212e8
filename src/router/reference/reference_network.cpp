// The reference router's cycle, stage by stage (the rules: reference_network.hpp and
// docs/simulator.md, "The reference router: read this first"). Plain and slow on purpose:
// every router is stepped in every cycle, every stage looks at every VC.
#include "wormnet/router/reference/reference_network.hpp"

#include <algorithm>
#include <numeric>

#include "wormnet/core/error.hpp"
#include "wormnet/core/rng.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet::reference {

namespace {

/// Round robin: among `requesters` (ascending), the first one after `last` (the previous
/// winner), wrapping around to the smallest; the smallest when there was no winner yet.
/// Every requester is then served within one round.
int round_robin(const std::vector<int>& requesters, std::optional<int> last) {
  if (last.has_value()) {
    for (int x : requesters) {
      if (x > *last) return x;
    }
  }
  return requesters.front();
}

/// The id of message `sequence` of `source`: unique over the run and the same on any number
/// of ranks (the source in the high 32 bits, the sequence number in the low 32).
std::uint64_t packet_id(std::uint32_t source, std::uint64_t sequence) {
  return static_cast<std::uint64_t>(source) * (std::uint64_t{1} << 32) +
         sequence % (std::uint64_t{1} << 32);
}

/// Node ids 0 .. N-1: the reference simulates every node (the traffic sources' local index
/// is then the node id).
std::vector<std::uint32_t> every_node(const Topology& topo) {
  std::vector<std::uint32_t> nodes(topo.num_nodes());
  std::iota(nodes.begin(), nodes.end(), 0U);
  return nodes;
}

}  // namespace

ReferenceNetwork::ReferenceNetwork(const SimConfig& config, const ReferenceParams& p,
                                   const Topology& topo, const RoutingFunction& routing,
                                   const DestinationPattern& pattern)
    : topo_(topo),
      routing_(routing),
      ports_(topo.num_ports()),
      vcs_(p.vcs),
      depth_(config.network.buffer_depth),
      classes_(routing.vcs_required()),
      bubble_(p.bubble),
      max_length_(config.traffic.length_max),
      routing_delay_(static_cast<Cycle>(config.network.routing_delay)),
      vc_alloc_delay_(static_cast<Cycle>(config.network.vc_alloc_delay)),
      flit_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                     config.network.switch_delay + config.network.link_latency)),
      eject_delay_(static_cast<Cycle>(config.network.switch_alloc_delay +
                                      config.network.switch_delay +
                                      config.network.ejection_latency)),
      credit_delay_(static_cast<Cycle>(config.network.credit_latency)),
      injection_latency_(static_cast<Cycle>(config.network.injection_latency)),
      selection_(config.network.selection),
      per_vc_bandwidth_(config.network.vc_bandwidth == VcBandwidth::kPerVc),
      ring_tie_(config.network.ring_tie),
      // "tie-draw" in ASCII, so that this key differs from the sources' streams.
      tie_key_(mix64(config.measure.seed ^ 0x7469652D64726177ULL)),
      nodes_(every_node(topo)),
      sources_(nodes_, config.traffic, pattern, p.rate, config.measure.seed, p.measure_begin,
               p.measure_end) {
  // Duato's routing names escape VC classes; its VCs of the other classes are adaptive.
  // Other routings have no escape classes, and no adaptive VCs.
  adaptive_vc_.assign(static_cast<std::size_t>(vcs_), false);
  for (int v = 0; v < vcs_; ++v) {
    const bool escape = ((routing.escape_vcs() >> (v % classes_)) & 1U) != 0;
    adaptive_vc_[static_cast<std::size_t>(v)] = routing.escape_vcs() != 0 && !escape;
  }
  routers_.resize(topo.num_nodes());
  const auto vcs_per_router = static_cast<std::size_t>((ports_ + 1) * vcs_);
  for (std::uint32_t n = 0; n < topo.num_nodes(); ++n) {
    Router& r = routers_[n];
    r.node = n;
    r.inputs.resize(vcs_per_router);
    r.outputs.resize(vcs_per_router);
    // A network output VC starts with a credit per slot of the buffer downstream. The
    // ejection channel needs none: a terminal consumes a flit every cycle (may_cross).
    for (int port = 0; port < ports_; ++port) {
      for (int vc = 0; vc < vcs_; ++vc) {
        r.outputs[static_cast<std::size_t>(vc_number(port, vc))].credits = depth_;
      }
    }
    r.switch_last_vc.resize(static_cast<std::size_t>(ports_ + 1));
    r.switch_last_input.resize(static_cast<std::size_t>(ports_ + 1));
  }
}

// --- The cycle ------------------------------------------------------------------------------

void ReferenceNetwork::step(Cycle t) {
  // Routers interact only through links of a cycle or more, so running each stage over all
  // routers before the next stage is the same as running every stage router by router.
  generate_messages(t);
  deliver_links(t);
  for (Router& r : routers_) inject(r, t);
  for (Router& r : routers_) route_heads(r, t);
  for (Router& r : routers_) allocate_virtual_channels(r, t);
  for (Router& r : routers_) traverse_switch(r, t, allocate_switch(r, t));
}

/// 1. The sources put the messages generated up to cycle t into their queues.
void ReferenceNetwork::generate_messages(Cycle t) {
  sources_.generate_until(0, t, [](std::uint32_t) {});
}

/// 2. What links deliver at cycle t: credits to their output VCs, flits into their input
/// buffers.
void ReferenceNetwork::deliver_links(Cycle t) {
  if (auto it = credits_on_links_.find(t); it != credits_on_links_.end()) {
    for (const CreditOnLink& c : it->second) {
      OutputVc& out = routers_[c.node].outputs[static_cast<std::size_t>(vc_number(c.port, c.vc))];
      ++out.credits;
      require(out.credits <= depth_, "reference: more credits than buffer slots");
      if (observer_ != nullptr) {
        observer_->credited(CreditArrival{t, c.node, static_cast<std::uint8_t>(c.port),
                                          static_cast<std::uint8_t>(c.vc)});
      }
    }
    credits_on_links_.erase(it);
  }
  if (auto it = flits_on_links_.find(t); it != flits_on_links_.end()) {
    for (const FlitOnLink& f : it->second) enter_buffer(routers_[f.node], f.port, f.vc, f.flit, t);
    flits_on_links_.erase(it);
  }
}

/// A flit enters input VC (port, vc) of r at cycle t. A head that finds the VC idle is at
/// the front at once: its route is known `routing delay` cycles later.
void ReferenceNetwork::enter_buffer(Router& r, int port, int vc, const Flit& f, Cycle t) {
  InputVc& in = r.inputs[static_cast<std::size_t>(vc_number(port, vc))];
  require(static_cast<int>(in.buffer.size()) < depth_,
          "reference: a flit arrived at a full buffer (sent without a credit)");
  // Duato: an adaptive VC is granted only to an empty downstream buffer, so a head never
  // joins another packet's flits there.
  require(!(f.head && port != terminal() && adaptive(port, vc) && !in.buffer.empty()),
          "reference: a head joined another packet in an adaptive VC");
  in.buffer.push_back(f);
  if (in.stage == Stage::kIdle) {
    require(f.head, "reference: a body flit arrived at an idle input VC");
    in.stage = Stage::kRouting;
    in.ready = t + routing_delay_;
  }
}

/// 3. Injection. A router writes one message at a time into its injection buffer (input
/// port P), one flit per cycle while the buffer has room. It starts the next message of its
/// source queue on the lowest-numbered injection VC whose buffer is empty (so a new packet
/// never waits behind a blocked one), once the message has spent `injection latency` cycles
/// on the injection channel since its creation.
void ReferenceNetwork::inject(Router& r, Cycle t) {
  SourceQueue& queue = sources_.queue(r.node);
  if (!r.injection.has_value()) {
    if (queue.empty()) return;
    std::optional<int> vc;
    for (int v = 0; v < vcs_ && !vc.has_value(); ++v) {
      if (r.inputs[static_cast<std::size_t>(vc_number(terminal(), v))].buffer.empty()) vc = v;
    }
    if (!vc.has_value()) return;
    const Message& m = queue.front();
    if (m.created + injection_latency_ > t) return;
    PacketRecord p;
    p.id = packet_id(r.node, m.sequence);
    p.source = r.node;
    p.dest = m.dest;
    p.length = m.length;
    p.state = routing_.chosen_initial_state(NodeId(p.source), NodeId(p.dest),
                                            initial_choice(p.id, m.sequence));
    p.created = m.created;
    p.injected = t;
    p.measured = m.measured != 0;
    packets_[p.id] = p;
    r.injection = Injection{p.id, *vc, 0, p.length};
    queue.pop();
  }
  Injection& inj = *r.injection;
  const InputVc& in = r.inputs[static_cast<std::size_t>(vc_number(terminal(), inj.vc))];
  if (static_cast<int>(in.buffer.size()) == depth_) return;
  const Flit f{inj.packet, inj.written == 0, inj.written + 1 == inj.length};
  enter_buffer(r, terminal(), inj.vc, f, t);
  ++inj.written;
  if (f.tail) r.injection.reset();
}

/// Which of the routing's initial choices a packet takes (torus rings' half-ring ties, the
/// class dor-balanced draws): alternating by its sequence number with --ring-tie
/// alternating, else by a hash of the seed's key and the packet id. Never by the rank count.
int ReferenceNetwork::initial_choice(std::uint64_t id, std::uint64_t sequence) const {
  const auto choices = static_cast<std::uint64_t>(routing_.initial_choices());
  if (choices == 1) return 0;
  if (ring_tie_ == RingTie::kAlternating) return static_cast<int>(sequence % choices);
  return static_cast<int>(mix64(tie_key_ ^ id) % choices);
}

/// 4. Routing. A head whose routing delay is over learns its options: at its destination
/// the ejection port on any VC (its state unchanged), elsewhere the routing function's
/// (output port, VC classes, next state) steps, in the routing's order of preference.
void ReferenceNetwork::route_heads(Router& r, Cycle t) {
  for (int port = 0; port <= ports_; ++port) {
    for (int vc = 0; vc < vcs_; ++vc) {
      InputVc& in = r.inputs[static_cast<std::size_t>(vc_number(port, vc))];
      if (in.stage != Stage::kRouting || in.ready > t) continue;
      in.route = route_of(r, port, vc, packets_.at(in.buffer.front().packet));
      in.stage = Stage::kWaitingForVc;
    }
  }
}

std::vector<RouteOption> ReferenceNetwork::route_of(const Router& r, int in_port, int in_vc,
                                                    const PacketRecord& p) const {
  if (p.dest == r.node) {
    const auto every_vc = static_cast<VcMask>((1U << vcs_) - 1U);
    return {RouteOption{static_cast<PortId>(terminal()), every_vc, p.state}};
  }
  RouteRequest req;
  req.node = NodeId(r.node);
  req.source = NodeId(p.source);
  req.dest = NodeId(p.dest);
  // The routing sees the VC's class, not the VC: with more VCs than it needs, VC v is of
  // class v mod (the VCs it needs). At the source it sees the injection port and class 0.
  req.in_port = in_port == terminal() ? kInjectionPort : static_cast<PortId>(in_port);
  req.in_vc = in_port == terminal() ? 0 : static_cast<VcId>(in_vc % classes_);
  req.state = p.state;
  RouteOptions options;
  routing_.route(req, options);
  return {options.begin(), options.end()};
}

/// 5. VC allocation, separable. Input side: every routed head asks for one output VC, the
/// selection policy's pick among the free ones its route allows (free_output_vcs). Output
/// side: an output VC asked for by several heads grants the first of them after the one it
/// granted last (round robin over input VC numbers). A granted head's packet holds the
/// output VC until its tail crosses the switch, takes the option's next routing state, and
/// counts a hop when the VC is a network one; its flits may cross the switch `VC
/// allocation delay` cycles later. A head refused asks again in the next cycle.
void ReferenceNetwork::allocate_virtual_channels(Router& r, Cycle t) {
  std::map<int, std::vector<std::pair<int, Candidate>>> asked;  // output VC -> (input, choice)
  for (int port = 0; port <= ports_; ++port) {
    for (int vc = 0; vc < vcs_; ++vc) {
      const InputVc& in = r.inputs[static_cast<std::size_t>(vc_number(port, vc))];
      if (in.stage != Stage::kWaitingForVc) continue;
      const PacketRecord& p = packets_.at(in.buffer.front().packet);
      const std::vector<Candidate> free = free_output_vcs(r, port, in, p);
      if (free.empty()) continue;
      const Candidate& pick = free[select(r, free, p, t)];
      asked[vc_number(pick.port, pick.vc)].emplace_back(vc_number(port, vc), pick);
    }
  }
  for (const auto& [output, heads] : asked) {
    OutputVc& out = r.outputs[static_cast<std::size_t>(output)];
    std::vector<int> inputs;
    for (const auto& head : heads) inputs.push_back(head.first);  // ascending
    const int winner = round_robin(inputs, out.last_granted);
    out.last_granted = winner;
    out.owner = winner;
    const Candidate& won = std::find_if(heads.begin(), heads.end(), [&](const auto& h) {
                             return h.first == winner;
                           })->second;
    InputVc& in = r.inputs[static_cast<std::size_t>(winner)];
    in.stage = Stage::kActive;
    in.out_port = won.port;
    in.out_vc = won.vc;
    in.ready = t + vc_alloc_delay_;
    PacketRecord& p = packets_.at(in.buffer.front().packet);
    p.state = won.next_state;
    if (won.port != terminal()) ++p.hops;
  }
}

/// The output VCs a head at input port `in_port` may take now, in the routing's order of
/// options and, within an option, of VC numbers. A VC qualifies when its route allows it and
///  - no packet holds it (wormhole: an output VC carries one packet from head to tail);
///  - bubble flow control: the buffer behind it has room for the whole packet, plus one
///    more packet of the longest length when the hop enters a ring (bubble_room);
///  - Duato: an adaptive VC only when the buffer behind it is empty (all credits back), so
///    an adaptive queue never holds flits of two packets.
/// With Duato's routing, when some adaptive VC qualifies the escape VCs are left out: the
/// escape VCs are used only when no adaptive VC is free.
std::vector<ReferenceNetwork::Candidate> ReferenceNetwork::free_output_vcs(
    const Router& r, int in_port, const InputVc& in, const PacketRecord& p) const {
  std::vector<Candidate> free;
  for (const RouteOption& option : in.route) {
    for (int vc = 0; vc < vcs_; ++vc) {
      if (!vc_allowed(option, vc)) continue;
      const OutputVc& out = r.outputs[static_cast<std::size_t>(vc_number(option.port, vc))];
      if (out.owner.has_value()) continue;
      if (!bubble_room(r, in_port, option.port, vc, p)) continue;
      if (adaptive(option.port, vc) && out.credits < depth_) continue;
      free.push_back(Candidate{option.port, vc, option.next_state});
    }
  }
  const bool some_adaptive = std::any_of(
      free.begin(), free.end(), [&](const Candidate& c) { return adaptive(c.port, c.vc); });
  if (some_adaptive) {
    std::erase_if(free, [&](const Candidate& c) { return !adaptive(c.port, c.vc); });
  }
  return free;
}

/// Whether VC `vc` of the option's port is one the routing allows: on a network port its
/// class (vc mod the routing's VCs) must be in the option's classes; the ejection option
/// names VCs directly.
bool ReferenceNetwork::vc_allowed(const RouteOption& option, int vc) const {
  const int bit = option.port == terminal() ? vc : vc % classes_;
  return ((option.vcs >> bit) & 1U) != 0;
}

/// Bubble flow control (rings of one VC class, virtual cut-through): a packet takes a
/// network output VC only when the buffer behind it has room for the whole packet and, when
/// the hop enters a ring, room for one more packet of the longest length (the bubble that
/// keeps a ring from filling up). A hop enters a ring when the output port's dimension is a
/// ring of a torus and the packet does not go on straight (it comes from the terminal, or
/// leaves by another port than the one opposite the port it arrived by).
bool ReferenceNetwork::bubble_room(const Router& r, int in_port, int out_port, int out_vc,
                                   const PacketRecord& p) const {
  if (!bubble_ || out_port == terminal()) return true;
  const bool ring =
      topo_.kind() == TopologyKind::kTorus &&
      static_cast<const Torus&>(topo_).is_ring(Topology::port_dim(static_cast<PortId>(out_port)));
  const bool straight =
      in_port != terminal() && out_port == Topology::reverse_port(static_cast<PortId>(in_port));
  const bool enters_ring = ring && !straight;
  const int free = r.outputs[static_cast<std::size_t>(vc_number(out_port, out_vc))].credits;
  return free >= p.length + (enters_ring ? max_length_ : 0);
}

/// An adaptive VC of Duato's routing: a network VC that is not an escape VC.
bool ReferenceNetwork::adaptive(int port, int vc) const {
  return port != terminal() && adaptive_vc_[static_cast<std::size_t>(vc)];
}

/// The selection policy's pick among a head's candidates (an index into them):
///  - priority: the first (the routing's order);
///  - random: uniform, by a hash of the packet id, its hop count and the cycle (the same
///    draw on any number of ranks);
///  - least-occupied: the one whose output port has the most free slots downstream (the
///    credits of all its VCs), the first among equals.
std::size_t ReferenceNetwork::select(const Router& r, const std::vector<Candidate>& candidates,
                                     const PacketRecord& p, Cycle t) const {
  if (selection_ == SelectionPolicy::kRandom) {
    const std::uint64_t draw =
        mix64(p.id * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(p.hops) + t);
    return static_cast<std::size_t>(draw % candidates.size());
  }
  if (selection_ == SelectionPolicy::kLeastOccupied) {
    std::size_t best = 0;
    int best_free = -1;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      int free = 0;
      for (int vc = 0; vc < vcs_; ++vc) {
        free += r.outputs[static_cast<std::size_t>(vc_number(candidates[k].port, vc))].credits;
      }
      if (free > best_free) {
        best_free = free;
        best = k;
      }
    }
    return best;
  }
  return 0;
}

/// Whether the packet at the front of `in` may send a flit this cycle: it holds an output
/// VC, its VC allocation delay is over, it has a flit, and the buffer behind the output VC
/// has a free slot (a credit; the ejection channel always has room).
bool ReferenceNetwork::may_cross(const Router& r, const InputVc& in, Cycle t) const {
  return in.stage == Stage::kActive && in.ready <= t && !in.buffer.empty() &&
         (in.out_port == terminal() ||
          r.outputs[static_cast<std::size_t>(vc_number(in.out_port, in.out_vc))].credits > 0);
}

/// 6. Switch allocation: which input VCs send a flit this cycle (their input VC numbers).
/// With --vc-bandwidth per-vc every VC that may cross does (each VC is a channel of its
/// own). Otherwise separable, input first, at most one flit per input port and per output
/// port: each input port offers the first of its VCs that may cross after the one that
/// crossed last (round robin over VC numbers); each output port takes the first of the
/// input ports that offer it a flit after the one it took last (round robin over port
/// numbers). Only a winner moves its input port's pointer: an input port whose offer was
/// refused offers the same VC again.
std::vector<int> ReferenceNetwork::allocate_switch(Router& r, Cycle t) {
  std::vector<int> winners;
  if (per_vc_bandwidth_) {
    for (int i = 0; i < static_cast<int>(r.inputs.size()); ++i) {
      if (may_cross(r, r.inputs[static_cast<std::size_t>(i)], t)) winners.push_back(i);
    }
    return winners;
  }
  std::map<int, std::vector<int>> offers;  // output port -> input ports offering it a flit
  std::vector<int> offered_vc(static_cast<std::size_t>(ports_ + 1));
  for (int port = 0; port <= ports_; ++port) {
    std::vector<int> ready;
    for (int vc = 0; vc < vcs_; ++vc) {
      if (may_cross(r, r.inputs[static_cast<std::size_t>(vc_number(port, vc))], t)) {
        ready.push_back(vc);
      }
    }
    if (ready.empty()) continue;
    const int vc = round_robin(ready, r.switch_last_vc[static_cast<std::size_t>(port)]);
    offered_vc[static_cast<std::size_t>(port)] = vc;
    offers[r.inputs[static_cast<std::size_t>(vc_number(port, vc))].out_port].push_back(port);
  }
  for (const auto& [out_port, ports] : offers) {
    const int port = round_robin(ports, r.switch_last_input[static_cast<std::size_t>(out_port)]);
    const int vc = offered_vc[static_cast<std::size_t>(port)];
    r.switch_last_input[static_cast<std::size_t>(out_port)] = port;
    r.switch_last_vc[static_cast<std::size_t>(port)] = vc;
    winners.push_back(vc_number(port, vc));
  }
  return winners;
}

/// 7. Switch traversal: each winner's front flit leaves its buffer. Onto the link it takes
/// a credit of its output VC and arrives `switch allocation + switch + link` cycles later at
/// the neighbour's input port that faces back (Topology::reverse_port), on the same VC; to
/// the ejection port it is delivered, the packet when it is the tail, `switch allocation +
/// switch + ejection latency` cycles later. Leaving a network input port, it sends a credit
/// back upstream that arrives `credit latency` cycles later. A tail frees the output VC; the
/// next packet's head, if one waits behind it, is then at the front and is routed `routing
/// delay` cycles later.
void ReferenceNetwork::traverse_switch(Router& r, Cycle t, const std::vector<int>& winners) {
  for (int i : winners) {
    const int in_port = i / vcs_;
    const int in_vc = i % vcs_;
    InputVc& in = r.inputs[static_cast<std::size_t>(i)];
    const Flit f = in.buffer.front();
    in.buffer.pop_front();
    OutputVc& out = r.outputs[static_cast<std::size_t>(vc_number(in.out_port, in.out_vc))];
    if (observer_ != nullptr) {
      observer_->moved(FlitMove{t, r.node, static_cast<std::uint8_t>(in_port),
                                static_cast<std::uint8_t>(in_vc),
                                static_cast<std::uint8_t>(in.out_port),
                                static_cast<std::uint8_t>(in.out_vc), f.packet, f.head, f.tail});
    }
    if (in.out_port == terminal()) {
      if (f.tail) {
        const PacketRecord p = packets_.at(f.packet);
        packets_.erase(f.packet);
        if (on_delivery_) on_delivery_(p, t + eject_delay_);
      }
    } else {
      --out.credits;
      const PortId link = static_cast<PortId>(in.out_port);
      flits_on_links_[t + flit_delay_].push_back(
          FlitOnLink{topo_.neighbor(NodeId(r.node), link).value(), Topology::reverse_port(link),
                     in.out_vc, f});
    }
    if (in_port != terminal()) {
      const PortId link = static_cast<PortId>(in_port);
      credits_on_links_[t + credit_delay_].push_back(CreditOnLink{
          topo_.neighbor(NodeId(r.node), link).value(), Topology::reverse_port(link), in_vc});
    }
    if (f.tail) {
      out.owner.reset();
      if (in.buffer.empty()) {
        in.stage = Stage::kIdle;
      } else {
        require(in.buffer.front().head, "reference: a packet's flits are not contiguous");
        in.stage = Stage::kRouting;
        in.ready = t + routing_delay_;
      }
    }
  }
}

std::uint64_t ReferenceNetwork::flits_in_network() const {
  std::uint64_t n = 0;
  for (const Router& r : routers_) {
    for (const InputVc& in : r.inputs) n += in.buffer.size();
  }
  for (const auto& [cycle, flits] : flits_on_links_) n += flits.size();
  return n;
}

}  // namespace wormnet::reference
