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

// Persistent sends come in size classes: a window usually carries a few flits, far below
// the buffer's capacity (everything that could cross the cut in one window), and sending the
// whole buffer each window would move kilobytes per cycle and, above the MPI library's eager
// limit, add a rendezvous round trip to every window (measured: about 5 us per window on the
// 64x64 torus at 2 ranks, and no overlap: the handshake needs both ranks inside MPI). Classes
// double from 256 bytes, each less a margin for the library's own message header: eager limits are
// powers of two that include that header (OpenMPI's shared-memory transport: 4 KiB), so a message
// of a class just under one stays eager.
constexpr std::size_t kSmallestClass = 256;
constexpr std::size_t kHeaderMargin = 128;

struct NeighborExchange::Requests {
  std::vector<MPI_Request> recvs;               // one per peer, full capacity
  std::vector<std::vector<MPI_Request>> sends;  // per peer: one per size class, ascending
  std::vector<std::vector<std::size_t>> sizes;  // per peer: the bytes of each class
  std::vector<MPI_Request> active;              // this window's: receives, then sends
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
  requests_->recvs.resize(peers_.size());
  requests_->sends.resize(peers_.size());
  requests_->sizes.resize(peers_.size());
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    require(
        send_capacity[i] + kHeader <= static_cast<std::size_t>(std::numeric_limits<int>::max()) &&
            recv_capacity[i] + kHeader <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
        "neighbor exchange: message larger than 2 GiB");
    send_[i].assign(send_capacity[i] + kHeader, 0);
    recv_[i].assign(recv_capacity[i] + kHeader, 0);
    MPI_Recv_init(recv_[i].data(), static_cast<int>(recv_[i].size()), MPI_BYTE, peers_[i], kTag, c,
                  &requests_->recvs[i]);
    // Size classes share the one send buffer: only one of them is started per window.
    std::vector<std::size_t>& sizes = requests_->sizes[i];
    for (std::size_t b = kSmallestClass; b - kHeaderMargin < send_[i].size(); b *= 2) {
      sizes.push_back(b - kHeaderMargin);
    }
    sizes.push_back(send_[i].size());
    requests_->sends[i].resize(sizes.size());
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      MPI_Send_init(send_[i].data(), static_cast<int>(sizes[k]), MPI_BYTE, peers_[i], kTag, c,
                    &requests_->sends[i][k]);
    }
  }
  requests_->active.reserve(2 * peers_.size());
}

NeighborExchange::~NeighborExchange() {
  if (!MpiSession::active()) return;
  for (MPI_Request& r : requests_->recvs) {
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  }
  for (std::vector<MPI_Request>& classes : requests_->sends) {
    for (MPI_Request& r : classes) {
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    }
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

void NeighborExchange::start() {
  if (peers_.empty()) return;
  // Receives are posted for the full capacity (a shorter message is fine); each send uses the
  // smallest size class that holds its header and payload. Persistent request handles stay
  // valid when complete (MPI_Waitall only makes them inactive), so copies can be started.
  std::vector<MPI_Request>& active = requests_->active;
  active.assign(requests_->recvs.begin(), requests_->recvs.end());
  for (std::size_t i = 0; i < peers_.size(); ++i) {
    std::uint64_t n = 0;
    std::memcpy(&n, send_[i].data(), kHeader);
    const std::vector<std::size_t>& sizes = requests_->sizes[i];
    std::size_t k = 0;
    while (sizes[k] < n + kHeader) ++k;  // the last class is the whole buffer: always fits
    active.push_back(requests_->sends[i][k]);
    volume_.payload_bytes += n;
    volume_.wire_bytes += sizes[k];
  }
  volume_.messages += peers_.size();
  if (MPI_Startall(static_cast<int>(active.size()), active.data()) != MPI_SUCCESS) {
    throw InvariantError("neighbor exchange: MPI_Startall failed");
  }
}

void NeighborExchange::wait() {
  std::vector<MPI_Request>& active = requests_->active;
  if (active.empty()) return;
  if (MPI_Waitall(static_cast<int>(active.size()), active.data(), MPI_STATUSES_IGNORE) !=
      MPI_SUCCESS) {
    throw InvariantError("neighbor exchange: MPI_Waitall failed");
  }
  active.clear();
}

std::span<const std::uint8_t> NeighborExchange::received(std::size_t i) const {
  std::uint64_t n = 0;
  std::memcpy(&n, recv_[i].data(), kHeader);
  require(n + kHeader <= recv_[i].size(), "neighbor exchange: received size over capacity");
  return {recv_[i].data() + kHeader, static_cast<std::size_t>(n)};
}

}  // namespace wormnet
