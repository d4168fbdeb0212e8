// Output units of all routers of a rank: per output port and VC the credits (free flit
// slots in the downstream input buffer) and the input VC that owns it from head to tail
// (wormhole). Output port P (the last) is the ejection channel: unlimited credits.
#pragma once

#include <cstdint>

#include "wormnet/core/huge_page_allocator.hpp"

namespace wormnet {

class OutputUnit {
 public:
  static constexpr std::uint8_t kFree = 0xFF;

  OutputUnit() = default;
  OutputUnit(std::uint32_t routers, int ports, int vcs, int depth)
      : vcs_per_router_(static_cast<std::uint32_t>(ports * vcs)),
        vcs_(static_cast<std::size_t>(routers) * vcs_per_router_,
             OutputVc{0, static_cast<std::uint16_t>(depth), kFree, 63}) {}

  [[nodiscard]] std::uint32_t index(std::uint32_t router, int local_vc) const {
    return router * vcs_per_router_ + static_cast<std::uint32_t>(local_vc);
  }
  [[nodiscard]] std::uint32_t vcs_per_router() const { return vcs_per_router_; }
  [[nodiscard]] std::uint16_t credits(std::uint32_t o) const { return vcs_[o].credits; }
  void take_credit(std::uint32_t o) { --vcs_[o].credits; }
  void return_credit(std::uint32_t o) { ++vcs_[o].credits; }
  void set_credits(std::uint32_t o, std::uint16_t c) { vcs_[o].credits = c; }
  /// Owning input VC (port * vcs + vc within the router), or kFree.
  [[nodiscard]] std::uint8_t owner(std::uint32_t o) const { return vcs_[o].owner; }
  void set_owner(std::uint32_t o, std::uint8_t input_vc) { vcs_[o].owner = input_vc; }
  /// The VC allocator's round-robin pointer of output VC o: the last input VC it granted
  /// (63 before any grant).
  [[nodiscard]] std::uint8_t& last_grant(std::uint32_t o) { return vcs_[o].last_grant; }
  [[nodiscard]] std::uint8_t last_grant(std::uint32_t o) const { return vcs_[o].last_grant; }
  /// Packet slot of the owner (valid while owned): who streams over the link, for checkpoints.
  [[nodiscard]] std::uint32_t owner_packet(std::uint32_t o) const { return vcs_[o].owner_packet; }
  void set_owner_packet(std::uint32_t o, std::uint32_t slot) { vcs_[o].owner_packet = slot; }
  [[nodiscard]] std::size_t bytes() const { return vcs_.capacity() * sizeof(OutputVc); }

 private:
  /// One output VC: what the VC and switch stages read and write of it share a line (on a
  /// rank of a million routers, four separate arrays cost four misses).
  struct OutputVc {
    std::uint32_t owner_packet = 0;
    std::uint16_t credits = 0;
    std::uint8_t owner = kFree;
    std::uint8_t last_grant = 63;
  };

  std::uint32_t vcs_per_router_ = 0;
  HugeVector<OutputVc> vcs_;
};

}  // namespace wormnet
