#include "wormnet/tables/study_systems.hpp"

#include "wormnet/core/rng.hpp"

namespace wormnet::tables {

std::vector<std::vector<int>> study_systems(int dims, int count, int min_size, int max_size,
                                            std::uint64_t seed) {
  RandomStream draw(seed, static_cast<std::uint64_t>(dims));
  std::vector<std::vector<int>> out(static_cast<std::size_t>(count));
  for (auto& sizes : out) {
    for (int d = 0; d < dims; ++d) {
      sizes.push_back(static_cast<int>(draw.uniform_int(static_cast<std::uint64_t>(min_size),
                                                        static_cast<std::uint64_t>(max_size))));
    }
  }
  return out;
}

}  // namespace wormnet::tables
