// The state of a rank's routers in checkpoint form: one row per router (in the order of the
// routers saved), every value independent of the partition, packets named by their global
// id. Each unit of the router writes and reads its own fields (InputUnit, OutputUnit, the
// stages); RouterBank::save() and restore() walk them. A checkpoint stores these rows as they
// are (io/checkpoint_layout.hpp), so a change of a field's meaning is a change of the
// checkpoint layout (its version: io/checkpoint_file.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace wormnet {

struct RouterRows {
  /// No packet (a free output VC, no injection in progress).
  static constexpr std::uint64_t kNoPacket = ~std::uint64_t{0};
  /// ovc_owner of a free output VC (OutputUnit::kFree).
  static constexpr std::uint8_t kFreeOwner = 0xFF;

  // Per router x (P + 1) x V input VCs (InputUnit).
  std::vector<std::uint64_t> ivc_ready;  ///< first cycle of the VC's next stage
  /// Low 32 bits of the last cycle a flit left the VC or arrived at it empty (for the
  /// deadlock detector).
  std::vector<std::uint32_t> ivc_since;
  /// count | stage << 16 | out_port << 24 | out_vc << 32 (ivc_meta_of(), buffered())
  std::vector<std::uint64_t> ivc_meta;
  // Per router x (P + 1) x V x B, flits in FIFO order from the front (count of them valid).
  std::vector<std::uint64_t> flit_packet;  ///< packet id, kNoPacket past the count
  std::vector<std::uint8_t> flit_kind;     ///< Flit::kind()
  // Per router x (P + 1) x V output VCs (OutputUnit; va_last: VcAllocationStage).
  std::vector<std::uint32_t> ovc_credits;
  std::vector<std::uint8_t> ovc_owner;    ///< owning input VC or OutputUnit::kFree
  std::vector<std::uint64_t> ovc_packet;  ///< owner's packet id, or kNoPacket
  std::vector<std::uint8_t> va_last;      ///< VC allocator round robin
  // Per router x (P + 1) x V input VCs, then output VCs: where packets wait
  // (CongestionCounters' accumulators, modulo 2^64; zeros when --congestion is off).
  std::vector<std::uint64_t> cong_vc_wait;
  std::vector<std::uint64_t> cong_credit_wait;
  std::vector<std::uint64_t> cong_held;
  std::vector<std::uint64_t> cong_occupancy;
  std::vector<std::uint64_t> cong_flits;         ///< per output VC
  std::vector<std::uint64_t> cong_window_flits;  ///< per output VC, since the last window
  /// Per input VC: its blocked time at the last window's end (CongestionCounters::blocked_mark).
  std::vector<std::uint64_t> cong_blocked_mark;
  // Per router x (P + 1) ports (SwitchStage).
  std::vector<std::uint8_t> sa_last_vc;
  std::vector<std::uint8_t> sa_last_port;
  // Per router (InjectionStage).
  std::vector<std::uint64_t> injection;  ///< x4: packet id (or kNoPacket), sent, length, vc

  /// An input VC's packed fields, as ivc_meta holds them.
  [[nodiscard]] static std::uint64_t ivc_meta_of(std::uint32_t count, std::uint8_t stage,
                                                 std::uint8_t out_port, std::uint8_t out_vc) {
    return static_cast<std::uint64_t>(count) | static_cast<std::uint64_t>(stage) << 16 |
           static_cast<std::uint64_t>(out_port) << 24 | static_cast<std::uint64_t>(out_vc) << 32;
  }
  /// Flits buffered at input VC row `row` (router x (P + 1) x V + port x V + vc).
  [[nodiscard]] std::uint32_t buffered(std::size_t row) const {
    return static_cast<std::uint32_t>(ivc_meta[row] & 0xFFFF);
  }
  /// Whether output VC row `row` is owned by a packet.
  [[nodiscard]] bool owned(std::size_t row) const { return ovc_owner[row] != kFreeOwner; }
  /// Whether every input VC's packed fields are within the routers' shape (P network ports,
  /// V VCs, B flits a buffer); a damaged or foreign checkpoint may hold others.
  [[nodiscard]] bool in_range(std::uint32_t ports, std::uint32_t vcs, std::uint32_t depth) const {
    for (const std::uint64_t meta : ivc_meta) {
      if ((meta & 0xFFFF) > depth || ((meta >> 16) & 0xFF) > 2 || ((meta >> 24) & 0xFF) > ports ||
          ((meta >> 32) & 0xFF) >= vcs) {
        return false;
      }
    }
    return true;
  }
};

/// The global packet id of a PacketTable slot (save: the caller also notes which slots it
/// must list).
using PacketIdOf = std::function<std::uint64_t(std::uint32_t slot)>;
/// The PacketTable slot of packet `id` as found at input VC `local_vc` (port * vcs + vc) of
/// router `router` on restore: a packet whose flits lie on several runs of routers of the
/// rank has a record, and a slot, per run.
using PacketSlotOf =
    std::function<std::uint32_t(std::uint32_t router, std::uint32_t local_vc, std::uint64_t id)>;

}  // namespace wormnet
