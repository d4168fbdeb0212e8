// The plain walk (unobserved, uncounted: rank_model.cpp holds its narrow copy) for routers
// whose headers hold 64-bit masks and whose VCs 12-byte states (MaskWidth::kWide: more than 16
// input VCs a router, buffers over 255 flits, or RouterParams::wide_masks), in a unit of its
// own so that neither copy changes the other's inlining.
#include "rank_model_walk.hpp"

namespace wormnet {

WORMNET_WALK_COPIES(template, false, false, MaskWidth::kWide);

}  // namespace wormnet
