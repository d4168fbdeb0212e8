#include "wormnet/engine/mpi_transport.hpp"

#include <cstring>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

// A message: three counts (flits, head records, credits), then the three arrays.
constexpr std::size_t kCounts = 3 * sizeof(std::uint64_t);

/// The largest message: every link to the peer carrying its window's limit of flits (each a
/// head with its packet record, at worst) and of credits.
std::size_t capacity(std::uint64_t links, std::uint64_t per_link) {
  return kCounts + static_cast<std::size_t>(links * per_link) *
                       (sizeof(RemoteFlit) + sizeof(Packet) + sizeof(RemoteCredit));
}

template <class T>
std::uint8_t* put(std::uint8_t* at, const std::vector<T>& items) {
  if (!items.empty()) std::memcpy(at, items.data(), items.size() * sizeof(T));
  return at + items.size() * sizeof(T);
}

template <class T>
const std::uint8_t* take(const std::uint8_t* at, std::uint64_t n, std::vector<T>& items) {
  items.resize(n);
  if (n > 0) std::memcpy(items.data(), at, n * sizeof(T));
  return at + n * sizeof(T);
}

std::size_t message_bytes(std::uint64_t flits, std::uint64_t heads, std::uint64_t credits) {
  return kCounts + flits * sizeof(RemoteFlit) + heads * sizeof(Packet) +
         credits * sizeof(RemoteCredit);
}

}  // namespace

MpiTransport::MpiTransport(const Communicator& comm, const RankModel& model, Cycle window) {
  const std::vector<int>& peers = model.neighbor_ranks();
  std::vector<std::size_t> send;
  std::vector<std::size_t> recv;
  for (int peer : peers) {
    // Links are symmetric and every rank runs the same model: both ends agree on the size.
    const std::size_t bytes = capacity(model.links_to(peer), model.crossing_limit(window));
    send.push_back(bytes);
    recv.push_back(bytes);
  }
  exchange_ = std::make_unique<NeighborExchange>(comm, peers, send, recv);
}

void MpiTransport::start(RankModel& model) {
  require(!pending_, "transport: start() while the previous window is in flight");
  const std::vector<int>& peers = exchange_->peers();
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const Outbox& out = model.outboxes()[static_cast<std::size_t>(peers[i])];
    const std::uint64_t counts[3] = {out.flits.size(), out.heads.size(), out.credits.size()};
    const std::size_t bytes = message_bytes(counts[0], counts[1], counts[2]);
    std::span<std::uint8_t> buf = exchange_->send_payload(i);
    require(bytes <= buf.size(), "more flits crossed a cut than the window allows");
    std::memcpy(buf.data(), counts, kCounts);
    put(put(put(buf.data() + kCounts, out.flits), out.heads), out.credits);
    exchange_->set_send_size(i, bytes);
  }
  for (Outbox& out : model.outboxes()) out.clear();
  exchange_->start();
  pending_ = true;
}

void MpiTransport::finish(RankModel& model) {
  if (!pending_) return;
  exchange_->wait();
  pending_ = false;
  const std::vector<int>& peers = exchange_->peers();
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const std::span<const std::uint8_t> in = exchange_->received(i);
    std::uint64_t counts[3];
    require(in.size() >= kCounts, "short message from a neighbour rank");
    std::memcpy(counts, in.data(), kCounts);
    require(in.size() == message_bytes(counts[0], counts[1], counts[2]),
            "malformed message from a neighbour rank");
    take(take(take(in.data() + kCounts, counts[0], scratch_.flits), counts[1], scratch_.heads),
         counts[2], scratch_.credits);
    model.receive(scratch_);
  }
}

}  // namespace wormnet
