// Output units of all routers of a rank: per output port and VC the credits (free flit
// slots in the downstream input buffer) and the input VC that owns it from head to tail
// (wormhole). Output port P (the last) is the ejection channel: unlimited credits. The
// owner's packet is not stored: its owning input VC holds it (RouterCore::owner_packet).
#pragma once

#include <cstdint>

#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/opaque.hpp"
#include "wormnet/core/prefetch.hpp"
#include "wormnet/router/router_rows.hpp"

namespace wormnet {

class OutputUnit {
 public:
  static constexpr std::uint8_t kFree = RouterRows::kFreeOwner;
  /// Bits of a router's VC masks: a router has at most 64 input VCs.
  static constexpr int kMaskBits = 64;

  OutputUnit() = default;
  OutputUnit(std::uint32_t routers, int ports, int vcs, int depth)
      : vcs_per_router_(static_cast<std::uint32_t>(ports * vcs)),
        router_magic_(~std::uint64_t{0} / vcs_per_router_ + 1),
        vcs_(static_cast<std::size_t>(routers) * vcs_per_router_,
             OutputVc{static_cast<std::uint16_t>(depth), kFree, 63}) {
    // ceil(2^64 / 1) does not fit router_magic_; a router has a network port and the
    // ejection port, so never fewer than 2 output VCs.
    require(vcs_per_router_ >= 2, "an output unit needs at least 2 output VCs per router");
  }

  [[nodiscard]] std::uint32_t index(std::uint32_t router, int local_vc) const {
    return router * vcs_per_router_ + static_cast<std::uint32_t>(local_vc);
  }
  [[nodiscard]] std::uint32_t vcs_per_router() const { return vcs_per_router_; }
  /// The router of output VC o (o / vcs_per_router() without a division: the high word of
  /// o times ceil(2^64 / vcs_per_router()), exact for every 32-bit o; Lemire, Kaser and
  /// Kurz, "Faster remainder by direct computation", 2019). A credit that returns to a full
  /// buffer's output VC finds its router's masks this way.
  [[nodiscard]] std::uint32_t router_of(std::uint32_t o) const {
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::uint32_t>((static_cast<Wide>(router_magic_) * o) >> 64);
  }
  [[nodiscard]] std::uint16_t credits(std::uint32_t o) const { return vcs_[o].credits; }
  void take_credit(std::uint32_t o) { --vcs_[o].credits; }
  /// Returns a credit to output VC o; the bit (within o's router) of the input VC it
  /// unblocks: its owner's, when o had no credit left, else 0 (RouterBank::return_credit
  /// clears that bit of InputUnit::blocked()).
  [[nodiscard]] std::uint64_t return_credit_unblocking(std::uint32_t o) {
    OutputVc& v = vcs_[o];
    // Without a branch: whether the buffer was full is data (often half of the credits come
    // back to an output VC that had none: docs/scaling.md, "Measured figures behind the
    // engine's rules").
    const bool unblocks = (v.credits == 0) & (v.owner != kFree);
    ++v.credits;
    return opaque(std::uint64_t{unblocks}) << mask_shift(v.owner);
  }
  /// The shift of input VC `owner`'s bit in its router's 64-bit VC masks (InputUnit), defined
  /// for kFree too (no shift of 64 bits or more) so that the bit can be computed before the
  /// test whether there is an owner.
  static constexpr int mask_shift(std::uint8_t owner) { return owner % kMaskBits; }
  /// Asks the processor for output VC o's record (a credit is coming). A hint only.
  void prefetch(std::uint32_t o) const { wormnet::prefetch_for_write(&vcs_[o]); }
  /// Asks for every cache line that holds a record of output VCs first..last (first <= last).
  void prefetch_span(std::uint32_t first, std::uint32_t last) const {
    const auto* line = reinterpret_cast<const char*>(
        reinterpret_cast<std::uintptr_t>(&vcs_[first]) & ~std::uintptr_t{63});
    for (const auto* end = reinterpret_cast<const char*>(&vcs_[last]); line <= end; line += 64) {
      wormnet::prefetch_for_write(line);
    }
  }
  void set_credits(std::uint32_t o, std::uint16_t c) { vcs_[o].credits = c; }
  /// Owning input VC (port * vcs + vc within the router), or kFree.
  [[nodiscard]] std::uint8_t owner(std::uint32_t o) const { return vcs_[o].owner; }
  void set_owner(std::uint32_t o, std::uint8_t input_vc) { vcs_[o].owner = input_vc; }
  /// The VC allocator's round-robin pointer of output VC o: the last input VC it granted
  /// (63 before any grant).
  [[nodiscard]] std::uint8_t& last_grant(std::uint32_t o) { return vcs_[o].last_grant; }
  [[nodiscard]] std::uint8_t last_grant(std::uint32_t o) const { return vcs_[o].last_grant; }
  [[nodiscard]] std::size_t bytes() const { return vcs_.capacity() * sizeof(OutputVc); }
  /// Output VCs of the rank (routers x (P + 1) x V).
  [[nodiscard]] std::uint32_t size() const { return static_cast<std::uint32_t>(vcs_.size()); }
  /// Appends every output VC's credits and owner to `rows` (its owner's packet: RouterBank).
  void save(RouterRows& rows) const;
  /// Sets every output VC's credits and owner from `rows` (row r is router r).
  void restore(const RouterRows& rows);

 private:
  /// One output VC: what the VC and switch stages read and write of it share a line (on a
  /// rank of a million routers, four separate arrays cost four misses). 4 bytes: its
  /// owner's packet slot, which only checkpoints and RouterBank::for_each_stream read, is
  /// found at the owning input VC instead (56 bytes less per 3-D torus router).
  struct OutputVc {
    std::uint16_t credits = 0;
    std::uint8_t owner = kFree;
    std::uint8_t last_grant = 63;
  };

  static_assert(sizeof(OutputVc) == 4);

  std::uint32_t vcs_per_router_ = 0;
  std::uint64_t router_magic_ = 0;  ///< ceil(2^64 / vcs_per_router_), for router_of()
  HugeVector<OutputVc> vcs_;
};

}  // namespace wormnet
