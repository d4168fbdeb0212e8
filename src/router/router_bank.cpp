#include "wormnet/router/router_bank.hpp"

namespace wormnet {

void RouterBank::save(RouterRows& rows, Cycle now, const PacketIdOf& id_of) const {
  core_.inputs.save(rows, now, id_of);
  core_.outputs.save(rows, id_of);
  VcAllocationStage::save(core_, rows);
  switch_.save(rows, routers(), params().ports + 1);
  InjectionStage::save(core_, rows, id_of);
}

void RouterBank::restore(const RouterRows& rows, const PacketSlotOf& slot_of) {
  core_.clear();
  core_.inputs.restore(rows, slot_of);
  core_.outputs.restore(rows, slot_of);
  VcAllocationStage::restore(core_, rows);
  switch_.restore(rows, routers(), params().ports + 1);
  InjectionStage::restore(core_, rows, slot_of);
  SwitchStage::rebuild_masks(core_);  // from the stages and credits just restored
}

}  // namespace wormnet
