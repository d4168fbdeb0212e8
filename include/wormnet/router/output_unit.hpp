// Output units of all routers of a rank: per output port and VC the credits (free flit
// slots in the downstream input buffer) and the input VC that owns it from head to tail
// (wormhole). Output port P (the last) is the ejection channel: unlimited credits.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/huge_page_allocator.hpp"

namespace wormnet {

class OutputUnit {
 public:
  static constexpr std::uint8_t kFree = 0xFF;

  OutputUnit() = default;
  OutputUnit(std::uint32_t routers, int ports, int vcs, int depth)
      : vcs_per_router_(static_cast<std::uint32_t>(ports * vcs)),
        credits_(static_cast<std::size_t>(routers) * vcs_per_router_,
                 static_cast<std::uint16_t>(depth)),
        owner_(credits_.size(), kFree),
        owner_packet_(credits_.size(), 0) {}

  [[nodiscard]] std::uint32_t index(std::uint32_t router, int local_vc) const {
    return router * vcs_per_router_ + static_cast<std::uint32_t>(local_vc);
  }
  [[nodiscard]] std::uint32_t vcs_per_router() const { return vcs_per_router_; }
  [[nodiscard]] std::uint16_t credits(std::uint32_t o) const { return credits_[o]; }
  /// Router `router`'s credits, indexed by port * vcs + vc.
  [[nodiscard]] const std::uint16_t* credits_row(std::uint32_t router) const {
    return credits_.data() + static_cast<std::size_t>(index(router, 0));
  }
  void take_credit(std::uint32_t o) { --credits_[o]; }
  void return_credit(std::uint32_t o) { ++credits_[o]; }
  void set_credits(std::uint32_t o, std::uint16_t c) { credits_[o] = c; }
  /// Owning input VC (port * vcs + vc within the router), or kFree.
  [[nodiscard]] std::uint8_t owner(std::uint32_t o) const { return owner_[o]; }
  void set_owner(std::uint32_t o, std::uint8_t input_vc) { owner_[o] = input_vc; }
  /// Packet slot of the owner (valid while owned): who streams over the link, for checkpoints.
  [[nodiscard]] std::uint32_t owner_packet(std::uint32_t o) const { return owner_packet_[o]; }
  void set_owner_packet(std::uint32_t o, std::uint32_t slot) { owner_packet_[o] = slot; }
  [[nodiscard]] std::size_t bytes() const {
    return credits_.capacity() * sizeof(std::uint16_t) + owner_.capacity() +
           owner_packet_.capacity() * sizeof(std::uint32_t);
  }

 private:
  std::uint32_t vcs_per_router_ = 0;
  HugeVector<std::uint16_t> credits_;
  HugeVector<std::uint8_t> owner_;
  HugeVector<std::uint32_t> owner_packet_;
};

}  // namespace wormnet
