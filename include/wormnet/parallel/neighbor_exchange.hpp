// Point-to-point exchange with a fixed set of neighbour ranks through persistent MPI
// requests: the engine's per-window traffic. Every message is a buffer of fixed capacity
// whose first 8 bytes hold the number of payload bytes that follow; capacities are agreed
// from the model (the most that can cross a cut in one window), so a message never
// overflows and the requests can be set up once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "wormnet/parallel/communicator.hpp"

namespace wormnet {

/// What a rank's exchanges sent, summed over its windows: for the weak-scaling figures
/// (docs/scaling.md), which compare per-rank messages and bytes, not time.
struct ExchangeVolume {
  std::uint64_t messages = 0;       ///< sends started (one per peer and window)
  std::uint64_t payload_bytes = 0;  ///< the bytes the sender filled in (without the size word)
  std::uint64_t wire_bytes = 0;     ///< the bytes sent: each message's size class
};

class NeighborExchange {
 public:
  /// `peers` = neighbour ranks; `send_capacity[i]` / `recv_capacity[i]` = payload bytes to /
  /// from peers[i] at most. Both ends must agree on the sizes (send of A->B = recv of B<-A).
  NeighborExchange(const Communicator& comm, std::vector<int> peers,
                   std::vector<std::size_t> send_capacity, std::vector<std::size_t> recv_capacity);
  ~NeighborExchange();
  NeighborExchange(const NeighborExchange&) = delete;
  NeighborExchange& operator=(const NeighborExchange&) = delete;

  [[nodiscard]] const std::vector<int>& peers() const { return peers_; }
  /// Payload area for peers[i]; write at most send_capacity[i] bytes, then set_send_size().
  [[nodiscard]] std::span<std::uint8_t> send_payload(std::size_t i);
  void set_send_size(std::size_t i, std::size_t bytes);
  /// Starts every receive and send (no global barrier: only the neighbours take part). The
  /// send payloads must not change until wait() returns.
  void start();
  /// Waits for everything start() began.
  void wait();
  /// What peers[i] sent in the last start()/wait().
  [[nodiscard]] std::span<const std::uint8_t> received(std::size_t i) const;
  /// What start() has sent since construction.
  [[nodiscard]] const ExchangeVolume& volume() const { return volume_; }

 private:
  struct Requests;
  Communicator comm_;
  std::vector<int> peers_;
  std::vector<std::vector<std::uint8_t>> send_;
  std::vector<std::vector<std::uint8_t>> recv_;
  std::unique_ptr<Requests> requests_;
  ExchangeVolume volume_;
};

}  // namespace wormnet
