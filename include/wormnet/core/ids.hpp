// Strong identifier types shared by every layer.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace wormnet {

/// A typed integer id: NodeId and ChannelId cannot be mixed up by accident.
/// `Tag` only distinguishes the types; `Rep` is the stored integer.
template <class Tag, class Rep>
class Id {
 public:
  using rep_type = Rep;
  constexpr Id() = default;
  constexpr explicit Id(Rep v) : v_(v) {}
  [[nodiscard]] constexpr Rep value() const { return v_; }
  [[nodiscard]] constexpr bool valid() const { return v_ != std::numeric_limits<Rep>::max(); }
  static constexpr Id invalid() { return Id(std::numeric_limits<Rep>::max()); }
  constexpr auto operator<=>(const Id&) const = default;

 private:
  Rep v_ = std::numeric_limits<Rep>::max();
};

struct NodeTag {};
struct ChannelTag {};

/// A router (one per network node), dense in [0, num_nodes).
using NodeId = Id<NodeTag, std::uint32_t>;
/// A directed channel (node, port) that has a link, dense in [0, num_channels).
using ChannelId = Id<ChannelTag, std::uint32_t>;
/// A network port of a router, dense in [0, num_ports). Injection/ejection are not ports.
using PortId = std::uint8_t;
/// A virtual channel index within one physical channel.
using VcId = std::uint8_t;
/// Simulated time in cycles. One channel moves one flit per cycle.
using Cycle = std::uint64_t;

/// Port value used as "came from the injection channel" in routing requests.
inline constexpr PortId kInjectionPort = 0xFF;
/// Largest number of network ports a router may have (6-D torus: 12).
inline constexpr int kMaxPorts = 12;
/// Largest number of virtual channels per physical channel.
inline constexpr int kMaxVcs = 8;

}  // namespace wormnet

template <class Tag, class Rep>
struct std::hash<wormnet::Id<Tag, Rep>> {
  std::size_t operator()(wormnet::Id<Tag, Rep> id) const noexcept {
    return std::hash<Rep>{}(id.value());
  }
};
