// One route word per Angara route. A route word (route_table.hpp) says how a route splits into
// a first step (FS), the direction-order part and a last step (LS), and the same channels can
// often be split in more than one way: +X +Y is a plain direction-order route, and also an FS
// step +X followed by +Y; +X +Y -X is an FS step +X followed by {+Y, -X}, and also {+X, +Y}
// followed by an LS step -X. The literal routing graph holds every such split as a path of
// its own. The fault-free generators search the canonical graph, which leaves the
// order-preserving FS and LS edges out and so holds each minimal route once. Around faults
// they search the literal graph (a detour needs those edges: FS +X, +Y, -X goes round a failed
// +Y link) and name each route by its canonical word: the first valid split in the order
//   no FS and no LS, FS only, LS only, FS and LS,
// where a split is valid when it is a path of the literal routing graph with `turns`: an FS
// step is one + hop, an LS step one - hop, the direction-order part runs through its
// directions in the Angara order with one sign per dimension, an FS step is followed by a later
// direction or one its node's added turns allow (never directly by the LS step), and an LS
// step follows a direction-order part that ends with an earlier direction or with one whose
// added turn allows it. On a minimal route of a fault-free torus the canonical word is the
// canonical graph's.
#pragma once

#include "wormnet/routing/route_table.hpp"
#include "wormnet/tables/turn_set.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet::tables {

/// The canonical word of the route that word `w` describes from s to d (w must expand, and
/// its channels must have a valid split: every path of the literal routing graph does).
/// Returns kNoRoute when no split is valid.
[[nodiscard]] RouteWord canonical_route(const Torus& topo, const TurnSet& turns, NodeId s, NodeId d,
                                        RouteWord w);

}  // namespace wormnet::tables
