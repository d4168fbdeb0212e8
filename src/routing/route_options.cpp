// RouteOptions' refusal of a routing that offers more steps than it holds, out of line: the
// check in add() is a branch never taken, and the throw stays out of the routing's code.
#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/routing/routing_function.hpp"

namespace wormnet {

void RouteOptions::too_many() {
  throw InvariantError("routing: a routing function offered more than " +
                       std::to_string(kCapacity) +
                       " steps at one hop (RouteOptions::kCapacity, two per port): a bug in "
                       "that routing");
}

}  // namespace wormnet
