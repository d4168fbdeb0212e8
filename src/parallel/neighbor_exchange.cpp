#include "wormnet/parallel/neighbor_exchange.hpp"

#include <mpi.h>

#include <cstring>
#include <limits>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {
constexpr std::size_t kHeader = sizeof(std::uint64_t);
constexpr int kTag = 7101;  // the engine's window traffic
}  // namespace

struct NeighborExchange::Requests {
  std::vector<MPI_Request> all;  // receives first, then sends
};

NeighborExchange::NeighborExchange(const Communicator& comm, std::vector<int> peers,
                                   std::vector<std::size_t> send_capacity,
                                   std::vector<std::size_t> recv_capacity)
    : comm_(comm), peers_(std::move(peers)), requests_(std::make_unique<Requests>()) {
  require(send_capacity.size() == peers_.size() && recv_capacity.size() == peers_.size(),
          "neighbor exchange: one capacity per peer");
  MPI_Comm c = *static_cast<const MPI_Comm*>(comm_.native_handle());
  send_.resize(peers_.size());
  recv_.resize(peers_.size());
  requests_->all.resize(2 * peers_.size());
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    require(
        send_capacity[i] + kHeader <= static_cast<std::size_t>(std::numeric_limits<int>::max()) &&
            recv_capacity[i] + kHeader <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
        "neighbor exchange: message larger than 2 GiB");
    send_[i].assign(send_capacity[i] + kHeader, 0);
    recv_[i].assign(recv_capacity[i] + kHeader, 0);
    MPI_Recv_init(recv_[i].data(), static_cast<int>(recv_[i].size()), MPI_BYTE, peers_[i], kTag, c,
                  &requests_->all[i]);
    MPI_Send_init(send_[i].data(), static_cast<int>(send_[i].size()), MPI_BYTE, peers_[i], kTag, c,
                  &requests_->all[peers_.size() + i]);
  }
}

NeighborExchange::~NeighborExchange() {
  if (!MpiSession::active()) return;
  for (MPI_Request& r : requests_->all) {
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
}

std::span<std::uint8_t> NeighborExchange::send_payload(std::size_t i) {
  return {send_[i].data() + kHeader, send_[i].size() - kHeader};
}

void NeighborExchange::set_send_size(std::size_t i, std::size_t bytes) {
  require(bytes + kHeader <= send_[i].size(), "neighbor exchange: message over its capacity");
  const std::uint64_t n = bytes;
  std::memcpy(send_[i].data(), &n, kHeader);
}

void NeighborExchange::exchange() {
  if (requests_->all.empty()) return;
  if (MPI_Startall(static_cast<int>(requests_->all.size()), requests_->all.data()) != MPI_SUCCESS ||
      MPI_Waitall(static_cast<int>(requests_->all.size()), requests_->all.data(),
                  MPI_STATUSES_IGNORE) != MPI_SUCCESS) {
    throw InvariantError("neighbor exchange: MPI_Startall/MPI_Waitall failed");
  }
}

std::span<const std::uint8_t> NeighborExchange::received(std::size_t i) const {
  std::uint64_t n = 0;
  std::memcpy(&n, recv_[i].data(), kHeader);
  require(n + kHeader <= recv_[i].size(), "neighbor exchange: received size over capacity");
  return {recv_[i].data() + kHeader, static_cast<std::size_t>(n)};
}

}  // namespace wormnet
