#include "wormnet/tables/shared_weights.hpp"

#include "stopwatch.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet::tables {

SharedWeights::SharedWeights(const Torus& topo, const Communicator& comm)
    : topo_(topo),
      comm_(comm),
      weights_(topo.num_channels(), 0),
      delta_(comm.size() > 1 ? topo.num_channels() : 0, 0) {}

void SharedWeights::add_route(NodeId s, NodeId d, RouteWord w) {
  const ExpandedRoute plan = expand_route(topo_, s, d, w);
  require(plan.ok, "shared weights: a generated route does not expand");
  const bool shared = !delta_.empty();
  for_each_channel(topo_, s, plan, [&](ChannelId c) {
    ++weights_[c.value()];
    if (shared) ++delta_[c.value()];
  });
}

void SharedWeights::add_channels(std::span<const std::uint32_t> channels) {
  const bool shared = !delta_.empty();
  for (std::uint32_t c : channels) {
    ++weights_[c];
    if (shared) ++delta_[c];
  }
}

void SharedWeights::exchange() {
  if (delta_.empty()) return;  // one rank: nothing to share
  const Stopwatch clock;
  std::vector<std::uint64_t> total = delta_;
  comm_.sum(total);
  for (std::size_t c = 0; c < weights_.size(); ++c) weights_[c] += total[c] - delta_[c];
  std::fill(delta_.begin(), delta_.end(), 0);
  ++exchanges_;
  exchange_seconds_ += clock.wall();
  exchange_cpu_seconds_ += clock.cpu();
}

}  // namespace wormnet::tables
