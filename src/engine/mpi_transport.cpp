#include "wormnet/engine/mpi_transport.hpp"

#include <cstring>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

constexpr std::size_t kCounts = 2 * sizeof(std::uint64_t);

std::size_t capacity(std::uint64_t links, Cycle window) {
  return kCounts +
         static_cast<std::size_t>(window * links) * (sizeof(RemoteFlit) + sizeof(RemoteCredit));
}

}  // namespace

MpiTransport::MpiTransport(const Communicator& comm, const RankModel& model, Cycle window) {
  const std::vector<int>& peers = model.neighbor_ranks();
  std::vector<std::size_t> send;
  std::vector<std::size_t> recv;
  for (int peer : peers) {
    const std::uint64_t links = model.links_to(peer);  // links are symmetric: same both ways
    send.push_back(capacity(links, window));
    recv.push_back(capacity(links, window));
  }
  exchange_ = std::make_unique<NeighborExchange>(comm, peers, send, recv);
}

void MpiTransport::exchange(RankModel& model) {
  const std::vector<int>& peers = exchange_->peers();
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const Outbox& out = model.outboxes()[static_cast<std::size_t>(peers[i])];
    const std::uint64_t counts[2] = {out.flits.size(), out.credits.size()};
    const std::size_t bytes =
        kCounts + out.flits.size() * sizeof(RemoteFlit) + out.credits.size() * sizeof(RemoteCredit);
    std::span<std::uint8_t> buf = exchange_->send_payload(i);
    require(bytes <= buf.size(), "more flits crossed a cut than the window allows");
    std::memcpy(buf.data(), counts, kCounts);
    if (!out.flits.empty()) {
      std::memcpy(buf.data() + kCounts, out.flits.data(), out.flits.size() * sizeof(RemoteFlit));
    }
    if (!out.credits.empty()) {
      std::memcpy(buf.data() + kCounts + out.flits.size() * sizeof(RemoteFlit), out.credits.data(),
                  out.credits.size() * sizeof(RemoteCredit));
    }
    exchange_->set_send_size(i, bytes);
  }
  exchange_->exchange();
  for (std::size_t i = 0; i < peers.size(); ++i) {
    const std::span<const std::uint8_t> in = exchange_->received(i);
    std::uint64_t counts[2];
    require(in.size() >= kCounts, "short message from a neighbour rank");
    std::memcpy(counts, in.data(), kCounts);
    require(
        in.size() == kCounts + counts[0] * sizeof(RemoteFlit) + counts[1] * sizeof(RemoteCredit),
        "malformed message from a neighbour rank");
    scratch_.flits.resize(counts[0]);
    scratch_.credits.resize(counts[1]);
    if (counts[0] > 0) {
      std::memcpy(scratch_.flits.data(), in.data() + kCounts, counts[0] * sizeof(RemoteFlit));
    }
    if (counts[1] > 0) {
      std::memcpy(scratch_.credits.data(), in.data() + kCounts + counts[0] * sizeof(RemoteFlit),
                  counts[1] * sizeof(RemoteCredit));
    }
    model.receive(scratch_);
  }
}

}  // namespace wormnet
