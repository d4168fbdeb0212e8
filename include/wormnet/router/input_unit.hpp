// Input units of all routers of a rank (structure of arrays): per input port and VC a FIFO
// of B flits and the packet-level state of the VC at its front. Input port P (the last) is
// the injection channel from the local terminal.
#pragma once

#include <cstdint>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/core/huge_page_allocator.hpp"
#include "wormnet/core/ids.hpp"
#include "wormnet/router/flit.hpp"

namespace wormnet {

/// Stage of the packet at the front of an input VC.
enum class VcStage : std::uint8_t {
  kIdle,    ///< no head at the front
  kWaitVc,  ///< head at the front: route computation, then VC allocation from `ready`
  kActive,  ///< output VC granted: flits compete for the switch from `ready`
};

struct InputVcState {
  Cycle ready = 0;          ///< first cycle of the next stage
  std::uint16_t head = 0;   ///< ring-buffer index of the front flit
  std::uint16_t count = 0;  ///< flits buffered
  VcStage stage = VcStage::kIdle;
  std::uint8_t out_port = 0;  ///< granted output port (kActive)
  std::uint8_t out_vc = 0;    ///< granted output VC (kActive)
};

class InputUnit {
 public:
  InputUnit() = default;
  /// `routers` local routers, `ports` input ports each (network ports + injection), `vcs`
  /// VCs per port, `depth` flits per VC buffer.
  InputUnit(std::uint32_t routers, int ports, int vcs, int depth)
      : vcs_per_router_(static_cast<std::uint32_t>(ports * vcs)),
        depth_(static_cast<std::uint32_t>(depth)),
        state_(static_cast<std::size_t>(routers) * vcs_per_router_),
        flits_(state_.size() * depth_),
        nonempty_(routers, 0),
        waiting_(routers, 0),
        active_(routers, 0) {}

  /// Index of (router, port, vc) over all input VCs of the rank.
  [[nodiscard]] std::uint32_t index(std::uint32_t router, int local_vc) const {
    return router * vcs_per_router_ + static_cast<std::uint32_t>(local_vc);
  }
  [[nodiscard]] InputVcState& state(std::uint32_t i) { return state_[i]; }
  [[nodiscard]] const InputVcState& state(std::uint32_t i) const { return state_[i]; }
  [[nodiscard]] const Flit& front(std::uint32_t i) const {
    return flits_[i * depth_ + state_[i].head];
  }
  [[nodiscard]] Flit& front(std::uint32_t i) { return flits_[i * depth_ + state_[i].head]; }
  /// The k-th flit from the front (k < count).
  [[nodiscard]] const Flit& at(std::uint32_t i, std::uint32_t k) const {
    const std::uint32_t pos = state_[i].head + k;
    return flits_[i * depth_ + (pos >= depth_ ? pos - depth_ : pos)];
  }
  [[nodiscard]] bool full(std::uint32_t i) const { return state_[i].count >= depth_; }
  /// Bit (port * vcs + vc) set when that input VC holds flits.
  [[nodiscard]] std::uint64_t nonempty(std::uint32_t router) const { return nonempty_[router]; }
  /// Bit set when that input VC's front packet waits for VC allocation (kWaitVc).
  [[nodiscard]] std::uint64_t waiting(std::uint32_t router) const { return waiting_[router]; }
  /// Bit set when that input VC holds an output VC (kActive).
  [[nodiscard]] std::uint64_t active(std::uint32_t router) const { return active_[router]; }

  /// Moves an input VC to `stage`, keeping the per-router stage masks in step.
  void set_stage(std::uint32_t router, int local_vc, VcStage stage) {
    state_[index(router, local_vc)].stage = stage;
    const std::uint64_t bit = std::uint64_t{1} << local_vc;
    waiting_[router] = stage == VcStage::kWaitVc ? waiting_[router] | bit : waiting_[router] & ~bit;
    active_[router] = stage == VcStage::kActive ? active_[router] | bit : active_[router] & ~bit;
  }

  void push(std::uint32_t router, int local_vc, const Flit& f) {
    const std::uint32_t i = index(router, local_vc);
    InputVcState& s = state_[i];
    require(s.count < depth_, "input buffer overflow: a flit arrived without a credit");
    const std::uint32_t pos = static_cast<std::uint32_t>(s.head) + s.count;  // no division:
    flits_[i * depth_ + (pos >= depth_ ? pos - depth_ : pos)] = f;           // pos < 2 depth
    ++s.count;
    nonempty_[router] |= std::uint64_t{1} << local_vc;
  }
  Flit pop(std::uint32_t router, int local_vc) {
    const std::uint32_t i = index(router, local_vc);
    InputVcState& s = state_[i];
    const Flit f = flits_[i * depth_ + s.head];
    s.head = static_cast<std::uint16_t>(s.head + 1U == depth_ ? 0U : s.head + 1U);
    --s.count;
    if (s.count == 0) nonempty_[router] &= ~(std::uint64_t{1} << local_vc);
    return f;
  }
  [[nodiscard]] std::uint32_t depth() const { return depth_; }
  [[nodiscard]] std::uint32_t vcs_per_router() const { return vcs_per_router_; }
  [[nodiscard]] std::size_t bytes() const {
    return state_.capacity() * sizeof(InputVcState) + flits_.capacity() * sizeof(Flit) +
           (nonempty_.capacity() + waiting_.capacity() + active_.capacity()) *
               sizeof(std::uint64_t);
  }

 private:
  std::uint32_t vcs_per_router_ = 0;
  std::uint32_t depth_ = 1;
  HugeVector<InputVcState> state_;
  HugeVector<Flit> flits_;
  HugeVector<std::uint64_t> nonempty_;
  HugeVector<std::uint64_t> waiting_;
  HugeVector<std::uint64_t> active_;
};

}  // namespace wormnet
