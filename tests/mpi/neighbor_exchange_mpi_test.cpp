// The engine's neighbour exchange (run at 1, 2 and 4 ranks): each rank trades with the ranks
// before and after it on a ring, twice in each size class of the sends (empty, at and around
// each class's bound, the full capacity), the same persistent requests started again each
// round; every byte arrives, from the right peer, with its length; the volume counts every
// message, its payload and the size class it went out in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "wormnet/parallel/communicator.hpp"
#include "wormnet/parallel/neighbor_exchange.hpp"

namespace wormnet {
namespace {

/// Byte k of the message that `from` sends to `to` in round `round`.
std::uint8_t byte_of(int from, int to, int round, std::size_t k) {
  return static_cast<std::uint8_t>(from * 131 + to * 17 + round * 7 + static_cast<int>(k) * 3);
}

TEST(NeighborExchangeMpi, EveryMessageOfEverySizeClassArrives) {
  const Communicator w = Communicator::world();
  const int n = w.size();
  const int me = w.rank();
  if (n < 2) GTEST_SKIP() << "needs 2 or more ranks";
  std::vector<int> peers{(me + n - 1) % n};
  if (n > 2) peers.push_back((me + 1) % n);
  constexpr std::size_t kCapacity = 20000;  // size classes from 128 bytes to the whole buffer
  NeighborExchange ex(w, peers, std::vector<std::size_t>(peers.size(), kCapacity),
                      std::vector<std::size_t>(peers.size(), kCapacity));
  // Payload bytes around the bound of every send class (class bytes 128, 384, 896, 1920,
  // 3968, 8064, 16256, less the 8-byte length header), and the whole capacity.
  const std::size_t sizes[] = {0,    1,    119,  120,  121,   375,   376,   377,
                               887,  888,  889,  1911, 1912,  1913,  3959,  3960,
                               3961, 8055, 8056, 8057, 16247, 16248, 16249, kCapacity};
  // The classes on the wire: 256, 512, ... less a 128-byte margin, then the whole buffer.
  const std::size_t classes[] = {128, 384, 896, 1920, 3968, 8064, 16256, kCapacity + 8};
  std::uint64_t payload = 0;
  std::uint64_t wire = 0;
  int round = 0;
  for (std::size_t bytes : sizes) {
    for (int again = 0; again < 2; ++again) {
      ++round;
      for (std::size_t i = 0; i < peers.size(); ++i) {
        // Each peer gets a length of its own: sizes differ between directions.
        const std::size_t len = std::min(kCapacity, bytes + i * 5);
        std::span<std::uint8_t> out = ex.send_payload(i);
        for (std::size_t k = 0; k < len; ++k) out[k] = byte_of(me, peers[i], round, k);
        ex.set_send_size(i, len);
        payload += len;
        wire += *std::find_if(std::begin(classes), std::end(classes),
                              [&](std::size_t c) { return c >= len + 8; });
      }
      ex.start();
      ex.wait();
      for (std::size_t i = 0; i < peers.size(); ++i) {
        // I am peer j of peers[i] (its next rank is its peer 1), which sent bytes + j * 5.
        const int from = peers[i];
        const std::size_t j = n > 2 && (from + 1) % n == me ? 1 : 0;
        const std::size_t len = std::min(kCapacity, bytes + j * 5);
        const std::span<const std::uint8_t> in = ex.received(i);
        ASSERT_EQ(in.size(), len) << "from " << from << ", round " << round;
        for (std::size_t k = 0; k < len; ++k) {
          ASSERT_EQ(in[k], byte_of(from, me, round, k)) << "byte " << k << " from " << from;
        }
      }
    }
  }
  const ExchangeVolume& v = ex.volume();
  EXPECT_EQ(v.messages, static_cast<std::uint64_t>(round) * peers.size());
  EXPECT_EQ(v.payload_bytes, payload);
  EXPECT_EQ(v.wire_bytes, wire);
}

}  // namespace
}  // namespace wormnet
