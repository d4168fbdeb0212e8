#include "wormnet/verify/route_state_graph.hpp"

#include <bit>

#include "wormnet/core/error.hpp"

namespace wormnet {

RouteStateGraph::RouteStateGraph(const Topology& topo, const RoutingFunction& routing, int vcs,
                                 const FaultSet* faults)
    : topo_(topo),
      routing_(routing),
      faults_(faults != nullptr && !faults->empty() ? faults : nullptr),
      vcs_(vcs),
      states_(static_cast<std::uint64_t>(routing.state_count())),
      channel_states_(static_cast<std::uint64_t>(topo.num_channels()) *
                      static_cast<std::uint64_t>(vcs) * states_) {
  const std::uint64_t total =
      channel_states_ + static_cast<std::uint64_t>(topo.num_nodes()) * states_;
  require(total < (1ULL << 32), "route state graph: too many states for 32-bit indices");
  stamp_.assign(total, 0);
  index_.resize(total);
}

void RouteStateGraph::begin(NodeId dest) {
  dest_ = dest;
  source_ = NodeId::invalid();
  ++epoch_;
  if (epoch_ == 0) {  // wrapped: clear the stamps once every 2^32 explorations
    std::fill(stamp_.begin(), stamp_.end(), 0);
    epoch_ = 1;
  }
  keys_.clear();
  terminal_.clear();
  offsets_.clear();
  edges_.clear();
  defect_.clear();
  num_roots_ = 0;
  root_weight_.clear();
}

std::uint32_t RouteStateGraph::intern(std::uint64_t key) {
  if (stamp_[key] == epoch_) return index_[key];
  stamp_[key] = epoch_;
  const auto i = static_cast<std::uint32_t>(keys_.size());
  index_[key] = i;
  keys_.push_back(key);
  return i;
}

void RouteStateGraph::add_root(NodeId source) {
  // Every choice a packet may draw is a root of its own, weighted by its share.
  const int choices = routing_.initial_choices();
  for (int c = 0; c < choices; ++c) {
    const RouteState st = routing_.chosen_initial_state(source, dest_, c);
    if (st >= states_) {
      if (defect_.empty()) defect_ = "initial state out of range at " + topo_.node_label(source);
      return;
    }
    const std::uint32_t i =
        intern(channel_states_ + static_cast<std::uint64_t>(source.value()) * states_ + st);
    if (i == num_roots_) {
      root_weight_.push_back(0.0);
      ++num_roots_;
    }
    root_weight_[i] += 1.0 / choices;
  }
}

void RouteStateGraph::explore(NodeId dest) {
  begin(dest);
  for (std::uint32_t s = 0; s < topo_.num_nodes(); ++s) {
    if (s != dest.value() && (faults_ == nullptr || !faults_->node_failed(NodeId(s)))) {
      add_root(NodeId(s));
    }
  }
  run();
}

void RouteStateGraph::explore(NodeId dest, NodeId source) {
  begin(dest);
  source_ = source;
  add_root(source);
  run();
}

RouteStateGraph::State RouteStateGraph::state(std::uint32_t i) const {
  const std::uint64_t key = keys_[i];
  State s;
  if (key >= channel_states_) {
    s.node = NodeId(static_cast<std::uint32_t>((key - channel_states_) / states_));
    s.channel = ChannelId::invalid();
    s.route_state = static_cast<RouteState>((key - channel_states_) % states_);
  } else {
    s.channel =
        ChannelId(static_cast<std::uint32_t>(key / (static_cast<std::uint64_t>(vcs_) * states_)));
    s.vc = static_cast<VcId>((key / states_) % static_cast<std::uint64_t>(vcs_));
    s.route_state = static_cast<RouteState>(key % states_);
    s.node = topo_.channel_dest(s.channel);
  }
  return s;
}

std::string RouteStateGraph::describe(std::uint32_t i) const {
  const State s = state(i);
  std::string text = s.channel.valid()
                         ? "after " + topo_.channel_label(s.channel) + " vc" + std::to_string(s.vc)
                         : "injected at " + topo_.node_label(s.node);
  return text + " (state " + std::to_string(s.route_state) + ", bound for " +
         topo_.node_label(dest_) + ")";
}

void RouteStateGraph::run() {
  RouteOptions options;
  const VcMask legal = all_vcs(vcs_);
  for (std::uint32_t i = 0; i < keys_.size(); ++i) {
    offsets_.push_back(static_cast<std::uint32_t>(edges_.size()));
    const State s = state(i);
    if (s.node == dest_) {
      terminal_.push_back(1);
      continue;
    }
    terminal_.push_back(0);
    RouteRequest request;
    request.node = s.node;
    request.source = source_;
    request.dest = dest_;
    request.in_port =
        s.channel.valid() ? Topology::reverse_port(topo_.channel_port(s.channel)) : kInjectionPort;
    request.in_vc = s.vc;
    request.state = s.route_state;
    options.clear();
    routing_.route(request, options);
    if (options.empty() && defect_.empty()) defect_ = "dead end " + describe(i);
    const double option_share = options.empty() ? 0.0 : 1.0 / options.size();
    for (const RouteOption& o : options) {
      const ChannelId c =
          o.port < topo_.num_ports() ? topo_.channel(s.node, o.port) : ChannelId::invalid();
      if (c.valid() && faults_ != nullptr && faults_->channel_failed(c)) {
        if (defect_.empty()) {
          defect_ = "a step over the failed channel " + topo_.channel_label(c) + " " + describe(i);
        }
        continue;
      }
      if (!c.valid() || o.vcs == 0 || (o.vcs & ~legal) != 0 || o.next_state >= states_) {
        if (defect_.empty()) {
          defect_ = "illegal step (port " + std::to_string(o.port) + ", vcs " +
                    std::to_string(o.vcs) + ") " + describe(i);
        }
        continue;
      }
      const double share = option_share / std::popcount(o.vcs);
      for (int v = 0; v < vcs_; ++v) {
        if (!((o.vcs >> v) & 1U)) continue;
        const std::uint64_t key =
            (static_cast<std::uint64_t>(c.value()) * static_cast<std::uint64_t>(vcs_) +
             static_cast<std::uint64_t>(v)) *
                states_ +
            o.next_state;
        const std::uint32_t to = intern(key);
        edges_.push_back(Edge{to, share});
      }
    }
  }
  offsets_.push_back(static_cast<std::uint32_t>(edges_.size()));
}

}  // namespace wormnet
