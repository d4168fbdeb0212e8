// The walk of a RankModel whose observer is told of every flit move and credit
// (RankModel::set_router_observer: the reference router's test). The same templates as the
// unobserved walk (rank_model_walk.hpp), instantiated here, apart from rank_model.cpp, so
// that they leave that unit's inlining as it is.
#include "rank_model_walk.hpp"

namespace wormnet {

// A flit of router r crossing its switch at t, and a credit reaching output VC o (an
// OutputUnit index) at t, told to observer_. Out of line: the observed walk only.
void RankModel::observe_move(std::uint32_t r, int in_port, int in_vc, int out_port, int out_vc,
                             Flit f, Cycle t) const {
  observer_->moved(FlitMove{t, bank_.nodes()[r], static_cast<std::uint8_t>(in_port),
                            static_cast<std::uint8_t>(in_vc), static_cast<std::uint8_t>(out_port),
                            static_cast<std::uint8_t>(out_vc), packets_[f.packet()].id, f.head(),
                            f.tail()});
}

void RankModel::observe_credit(std::uint32_t o, Cycle t) const {
  const RouterBank::OutputPlace at = bank_.output_place(o);
  observer_->credited(CreditArrival{t, bank_.nodes()[at.router],
                                    static_cast<std::uint8_t>(bank_.port_of(at.local_vc)),
                                    static_cast<std::uint8_t>(bank_.vc_of(at.local_vc))});
}

WORMNET_WALK_COPIES(template, true, false, MaskWidth::kNarrow);
WORMNET_WALK_COPIES(template, true, true, MaskWidth::kNarrow);
WORMNET_WALK_COPIES(template, true, false, MaskWidth::kWide);
WORMNET_WALK_COPIES(template, true, true, MaskWidth::kWide);

}  // namespace wormnet
