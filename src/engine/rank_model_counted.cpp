// The walk of a RankModel whose routers count where packets wait (--congestion: RouterBank's
// counted instances, CongestionCounters). The same templates as the uncounted walk
// (rank_model_walk.hpp), instantiated here, apart from rank_model.cpp: the walk without
// counting holds none of the counting's code, and that unit's inlining stays as it is.
#include "rank_model_walk.hpp"

namespace wormnet {

template void RankModel::step_blocks<WalkPass::kAll, false, false, true>(std::size_t, std::size_t,
                                                                         Cycle);
template void RankModel::step_blocks<WalkPass::kAll, true, false, true>(std::size_t, std::size_t,
                                                                        Cycle);
template void RankModel::step_blocks<WalkPass::kInterior, false, false, true>(std::size_t,
                                                                              std::size_t, Cycle);
template void RankModel::step_blocks<WalkPass::kInterior, true, false, true>(std::size_t,
                                                                             std::size_t, Cycle);
template void RankModel::step_blocks<WalkPass::kBoundary, false, false, true>(std::size_t,
                                                                              std::size_t, Cycle);
template void RankModel::step_blocks<WalkPass::kBoundary, true, false, true>(std::size_t,
                                                                             std::size_t, Cycle);

}  // namespace wormnet
