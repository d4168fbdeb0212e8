// The random tori of the Angara paper's Figure 5 study: systems of 2, 3 and 4 dimensions,
// each dimension size uniform in [2, 8] (a size-2 dimension is a mesh link), 49, 339 and
// 1,173 of them in the paper. Drawn from a seeded stream per dimension count, so a study is
// reproducible and a smaller study with the same seed is a prefix of a larger one.
#pragma once

#include <cstdint>
#include <vector>

namespace wormnet::tables {

/// `count` systems of `dims` dimensions, sizes uniform in [min_size, max_size].
std::vector<std::vector<int>> study_systems(int dims, int count, int min_size, int max_size,
                                            std::uint64_t seed);

}  // namespace wormnet::tables
