// Rules on configuration values. Each broken rule is an InputError naming the option, the
// value and what is allowed; the first one found is thrown (one clear line for the user).
#pragma once

#include "wormnet/config/sim_config.hpp"

namespace wormnet {

/// Rules that need nothing but the values (ranges, orderings).
void validate_values(const SimConfig& config);

// The rules that need the built network are checked where the run's plan is derived from it
// (wormnet/plan/run_plan.hpp).

}  // namespace wormnet
