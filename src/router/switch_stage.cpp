#include "wormnet/router/switch_stage.hpp"

#include <bit>

namespace wormnet {

void SwitchStage::rebuild_masks(RouterCore& c) {
  const int vcs = c.params.vcs;
  for (std::uint32_t r = 0; r < c.routers(); ++r) {
    const std::uint64_t active = c.inputs.active(r);
    c.inputs.unblock(r, ~std::uint64_t{0});
    c.inputs.settled(r, ~std::uint64_t{0});
    // Every active VC checks its `ready` once more: whatever it is, the check is exact.
    c.inputs.settle(r, active);
    for (std::uint64_t mask = active; mask != 0; mask &= mask - 1) {
      const int lv = std::countr_zero(mask);
      const std::uint32_t i = c.inputs.index(r, lv);
      const std::uint32_t o = c.outputs.index(r, c.inputs.out_port(i) * vcs + c.inputs.out_vc(i));
      if (c.outputs.credits(o) == 0) c.inputs.block(r, std::uint64_t{1} << lv);
    }
  }
}

template <MaskWidth W>
std::uint64_t SwitchStage::still_settling(RouterCore& c, std::uint32_t r, Cycle t,
                                          std::uint64_t unsure) {
  const std::uint32_t first = c.inputs.index(r, 0);
  std::uint64_t waiting = 0;
  for (std::uint64_t mask = unsure; mask != 0; mask &= mask - 1) {
    const int lv = std::countr_zero(mask);
    if (!c.inputs.template ready_by<W>(first + static_cast<std::uint32_t>(lv), t)) {
      waiting |= std::uint64_t{1} << lv;
    }
  }
  c.inputs.settled<W>(r, unsure & ~waiting);
  return waiting;
}
template std::uint64_t SwitchStage::still_settling<MaskWidth::kNarrow>(RouterCore&, std::uint32_t,
                                                                       Cycle, std::uint64_t);
template std::uint64_t SwitchStage::still_settling<MaskWidth::kWide>(RouterCore&, std::uint32_t,
                                                                     Cycle, std::uint64_t);

void SwitchStage::save(RouterRows& rows, std::uint32_t routers, int ports) const {
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int p = 0; p < ports; ++p) {
      rows.sa_last_vc.push_back(allocator_.last_vc(r, p));
      rows.sa_last_port.push_back(allocator_.last_port(r, p));
    }
  }
}

void SwitchStage::restore(const RouterRows& rows, std::uint32_t routers, int ports) {
  for (std::uint32_t r = 0; r < routers; ++r) {
    for (int p = 0; p < ports; ++p) {
      const std::size_t row = static_cast<std::size_t>(r) * static_cast<std::size_t>(ports) +
                              static_cast<std::size_t>(p);
      allocator_.set_last(r, p, rows.sa_last_vc[row], rows.sa_last_port[row]);
    }
  }
}

}  // namespace wormnet
