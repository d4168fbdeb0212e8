// The walk of a RankModel whose routers count where packets wait (--congestion: RouterBank's
// counted instances, CongestionCounters). The same templates as the uncounted walk
// (rank_model_walk.hpp), instantiated here, apart from rank_model.cpp: the walk without
// counting holds none of the counting's code, and that unit's inlining stays as it is.
#include "rank_model_walk.hpp"

namespace wormnet {

WORMNET_WALK_COPIES(template, false, true, MaskWidth::kNarrow);

}  // namespace wormnet
