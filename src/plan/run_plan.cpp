#include "wormnet/plan/run_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "wormnet/core/checked_math.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// The plan's values, before any rule on them is checked.
RunPlan derive(const SimConfig& c, const RoutingFunction& routing, const MessageLengths& lengths) {
  const NetworkConfig& n = c.network;
  const MeasureConfig& m = c.measure;
  RunPlan plan;
  plan.vcs = n.vcs > 0 ? n.vcs : routing.vcs_required();
  plan.bubble = routing.needs_bubble() || n.flow_control == FlowControl::kBubble;
  // A flit sent at t reaches the next router's buffer at t + switch allocation + switch +
  // link; a credit sent at t arrives at t + credit latency. Both are >= 1 (validate_values).
  plan.lookahead = static_cast<Cycle>(
      std::min(n.switch_alloc_delay + n.switch_delay + n.link_latency, n.credit_latency));
  plan.window.begin = m.warmup;
  plan.window.length = m.cycles > 0 ? m.cycles - m.warmup : m.measure;
  plan.window.drain_limit = m.drain_limit;
  plan.partition = n.partition;
  plan.routing.name = routing.name();
  plan.routing.description = routing.description();
  plan.routing.vc_classes = routing.vcs_required();
  plan.routing.escape_classes = routing.escape_vcs();
  plan.routing.minimal = routing.minimal();
  plan.routing.needs_bubble = routing.needs_bubble();
  plan.lengths = lengths;
  return plan;
}

/// The rules that need the built network (see make_run_plan()).
void check(const RunPlan& plan, const SimConfig& c, const Topology& topo) {
  const int vcs = plan.vcs;
  if (vcs < plan.routing.vc_classes) {
    throw InputError("--vcs", std::to_string(vcs),
                     "routing " + plan.routing.name + " needs at least " +
                         std::to_string(plan.routing.vc_classes) + " VCs per channel");
  }
  if ((topo.num_ports() + 1) * vcs > 64) {
    throw InputError("--vcs", std::to_string(vcs),
                     "(ports + 1) x VCs must be <= 64; this topology has " +
                         std::to_string(topo.num_ports()) + " ports");
  }
  // A packet enters a ring only when its whole length and, behind it, the longest packet fit
  // in the buffer ahead: the longest packet can enter at all only with buffers of two of them.
  // (In 64 bits: a longest packet of up to 65535 flits.)
  const std::int64_t bubble_depth = 2 * static_cast<std::int64_t>(plan.lengths.longest);
  if (plan.bubble && c.network.buffer_depth < bubble_depth) {
    throw InputError("--buffer", std::to_string(c.network.buffer_depth),
                     "bubble flow control needs buffers for two whole packets: >= " +
                         std::to_string(bubble_depth) + " flits = 2 x the longest packet (" +
                         plan.lengths.longest_from + ": " + std::to_string(plan.lengths.longest) +
                         " flits)");
  }
  for (int h : c.traffic.hotspot_nodes) {
    if (h < 0 || static_cast<std::uint32_t>(h) >= topo.num_nodes()) {
      throw InputError("--hotspot-nodes", std::to_string(h),
                       "node ids must be in [0, " + std::to_string(topo.num_nodes() - 1) + "]");
    }
  }
  if (topo.num_nodes() < 2) {
    throw InputError("--topology", topo.spec(), "needs at least 2 nodes to simulate traffic");
  }
  // Router-cycles (the run's length times the routers, a counter of the summary) fit in 64
  // bits: a run of 2^62 cycles is bounded alone, not times a million routers.
  checked_product({{c.measure.cycles > 0 ? "--cycles" : "--measure", plan.window.drain_end()},
                   {"--topology (routers)", topo.num_nodes()}},
                  UINT64_MAX, "router-cycles (warm-up, measurement and drain limit included)");
}

}  // namespace

MessageLengths traffic_lengths(const TrafficConfig& traffic) {
  return MessageLengths{traffic.length_min, traffic.length_max, "--length-max"};
}

RunPlan make_run_plan(const SimConfig& config, const Topology& topo, const RoutingFunction& routing,
                      const MessageLengths& lengths, const FaultSet* faults) {
  RunPlan plan = derive(config, routing, lengths);
  plan.traffic_nodes =
      faults != nullptr && !faults->empty() ? faults->working_nodes() : topo.num_nodes();
  check(plan, config, topo);
  return plan;
}

RunPlan make_run_plan(const SimConfig& config, const Topology& topo,
                      const RoutingFunction& routing) {
  return make_run_plan(config, topo, routing, traffic_lengths(config.traffic));
}

}  // namespace wormnet
