#include "wormnet/tables/source_partition.hpp"

#include <cstring>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet::tables {

SourceBlock source_block(std::uint32_t nodes, int rank, int ranks) {
  const auto n = static_cast<std::uint64_t>(nodes);
  return SourceBlock{static_cast<std::uint32_t>(n * static_cast<std::uint64_t>(rank) /
                                                static_cast<std::uint64_t>(ranks)),
                     static_cast<std::uint32_t>(n * static_cast<std::uint64_t>(rank + 1) /
                                                static_cast<std::uint64_t>(ranks))};
}

void share_rows(RouteTable& table, std::span<const NodeId> mine, const Communicator& comm) {
  if (comm.size() == 1) return;
  const std::uint32_t n = table.num_nodes();
  const std::size_t row_bytes = static_cast<std::size_t>(n) * sizeof(RouteWord);
  const std::size_t record = sizeof(std::uint32_t) + row_bytes;
  std::vector<std::uint8_t> bytes(mine.size() * record);
  std::size_t at = 0;
  for (NodeId s : mine) {
    const std::uint32_t id = s.value();
    std::memcpy(bytes.data() + at, &id, sizeof id);
    std::memcpy(bytes.data() + at + sizeof id,
                table.words().data() + static_cast<std::size_t>(id) * n, row_bytes);
    at += record;
  }
  const std::vector<std::uint8_t> all = comm.all_gather(bytes);
  require(all.size() % record == 0, "share_rows: ragged rows");
  for (std::size_t off = 0; off < all.size(); off += record) {
    std::uint32_t id = 0;
    std::memcpy(&id, all.data() + off, sizeof id);
    require(id < n, "share_rows: row of an unknown source");
    std::memcpy(table.words().data() + static_cast<std::size_t>(id) * n,
                all.data() + off + sizeof id, row_bytes);
  }
}

}  // namespace wormnet::tables
