#include "wormnet/parallel/communicator.hpp"

#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <limits>
#include <thread>

#include "wormnet/core/error.hpp"
#include "wormnet/parallel/launcher.hpp"

namespace wormnet {

/// `serial` = no MPI in this process (unit tests, serial tools): one rank, collectives are
/// identities.
struct Communicator::Impl {
  MPI_Comm comm;
  bool serial = false;
};

namespace {

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw InvariantError(std::string("MPI call failed: ") + what);
}

int as_count(std::size_t n) {
  require(n <= static_cast<std::size_t>(std::numeric_limits<int>::max()),
          "MPI message larger than 2^31 elements");
  return static_cast<int>(n);
}

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<std::uint64_t>() {
  return MPI_UINT64_T;
}
template <>
MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}
template <>
MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}

template <class T>
void reduce_in_place(const Communicator::Impl& impl, std::span<T> values, MPI_Op op) {
  if (values.empty() || impl.serial) return;
  MPI_Comm comm = impl.comm;
  check(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), mpi_type<T>(), op, comm),
      "MPI_Allreduce");
}

}  // namespace

Communicator Communicator::world() {
  return Communicator(std::make_shared<Impl>(Impl{MPI_COMM_WORLD}));
}
Communicator Communicator::self() {
  const bool serial = !MpiSession::active();
  return Communicator(std::make_shared<Impl>(Impl{MPI_COMM_SELF, serial}));
}

int Communicator::rank() const {
  if (impl_->serial) return 0;
  int r = 0;
  check(MPI_Comm_rank(impl_->comm, &r), "MPI_Comm_rank");
  return r;
}

int Communicator::size() const {
  if (impl_->serial) return 1;
  int s = 1;
  check(MPI_Comm_size(impl_->comm, &s), "MPI_Comm_size");
  return s;
}

void Communicator::barrier() const {
  if (impl_->serial) return;
  check(MPI_Barrier(impl_->comm), "MPI_Barrier");
}

void Communicator::broadcast(std::vector<std::uint8_t>& bytes, int root) const {
  if (impl_->serial) return;
  std::uint64_t n = bytes.size();
  check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, impl_->comm), "MPI_Bcast");
  bytes.resize(n);
  if (n > 0) {
    check(MPI_Bcast(bytes.data(), as_count(n), MPI_BYTE, root, impl_->comm), "MPI_Bcast");
  }
}

void Communicator::broadcast(std::string& text, int root) const {
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  broadcast(bytes, root);
  text.assign(bytes.begin(), bytes.end());
}

void Communicator::sum(std::span<std::uint64_t> v) const {
  reduce_in_place(*impl_, v, MPI_SUM);
}
void Communicator::sum(std::span<std::int64_t> v) const {
  reduce_in_place(*impl_, v, MPI_SUM);
}
void Communicator::sum(std::span<double> v) const {
  reduce_in_place(*impl_, v, MPI_SUM);
}
void Communicator::max(std::span<std::uint64_t> v) const {
  reduce_in_place(*impl_, v, MPI_MAX);
}
void Communicator::max(std::span<double> v) const {
  reduce_in_place(*impl_, v, MPI_MAX);
}
void Communicator::min(std::span<std::uint64_t> v) const {
  reduce_in_place(*impl_, v, MPI_MIN);
}
void Communicator::min(std::span<double> v) const {
  reduce_in_place(*impl_, v, MPI_MIN);
}
void Communicator::bit_or(std::span<std::uint64_t> v) const {
  reduce_in_place(*impl_, v, MPI_BOR);
}

std::uint64_t Communicator::sum(std::uint64_t v) const {
  sum(std::span<std::uint64_t>(&v, 1));
  return v;
}
std::uint64_t Communicator::max(std::uint64_t v) const {
  max(std::span<std::uint64_t>(&v, 1));
  return v;
}
double Communicator::max(double v) const {
  max(std::span<double>(&v, 1));
  return v;
}
bool Communicator::any(bool v) const {
  return max(std::uint64_t{v ? 1U : 0U}) != 0;
}

std::optional<bool> Communicator::any_within(bool v, double seconds) const {
  if (impl_->serial || size() == 1) return v;
  int mine = v ? 1 : 0;
  int all = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(&mine, &all, 1, MPI_INT, MPI_LOR, impl_->comm, &request), "MPI_Iallreduce");
  if (seconds <= 0) {
    check(MPI_Wait(&request, MPI_STATUS_IGNORE), "MPI_Wait");
    return all != 0;
  }
  const double deadline = MPI_Wtime() + seconds;
  int done = 0;
  while (true) {
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done != 0) return all != 0;
    if (MPI_Wtime() > deadline) return std::nullopt;  // the request is left: the job ends
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::vector<std::uint8_t> Communicator::gather(std::span<const std::uint8_t> mine, int root,
                                               std::vector<std::uint64_t>* counts) const {
  if (impl_->serial) {
    if (counts != nullptr) *counts = {mine.size()};
    return {mine.begin(), mine.end()};
  }
  const int n = size();
  const int me = rank();
  std::uint64_t my_count = mine.size();
  std::vector<std::uint64_t> all(static_cast<std::size_t>(n), 0);
  check(MPI_Gather(&my_count, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, root, impl_->comm),
        "MPI_Gather");
  std::vector<int> recv_counts(static_cast<std::size_t>(n), 0);
  std::vector<int> displs(static_cast<std::size_t>(n), 0);
  std::vector<std::uint8_t> out;
  if (me == root) {
    std::uint64_t total = 0;
    for (int r = 0; r < n; ++r) {
      recv_counts[static_cast<std::size_t>(r)] = as_count(all[static_cast<std::size_t>(r)]);
      displs[static_cast<std::size_t>(r)] = as_count(total);
      total += all[static_cast<std::size_t>(r)];
    }
    out.resize(total);
    if (counts != nullptr) *counts = all;
  }
  check(MPI_Gatherv(mine.data(), as_count(mine.size()), MPI_BYTE, out.data(), recv_counts.data(),
                    displs.data(), MPI_BYTE, root, impl_->comm),
        "MPI_Gatherv");
  return out;
}

std::vector<std::uint8_t> Communicator::all_gather(std::span<const std::uint8_t> mine) const {
  if (impl_->serial) return {mine.begin(), mine.end()};
  const int n = size();
  std::uint64_t my_count = mine.size();
  std::vector<std::uint64_t> all(static_cast<std::size_t>(n), 0);
  check(MPI_Allgather(&my_count, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, impl_->comm),
        "MPI_Allgather");
  std::vector<int> recv_counts(static_cast<std::size_t>(n));
  std::vector<int> displs(static_cast<std::size_t>(n));
  std::uint64_t total = 0;
  for (int r = 0; r < n; ++r) {
    recv_counts[static_cast<std::size_t>(r)] = as_count(all[static_cast<std::size_t>(r)]);
    displs[static_cast<std::size_t>(r)] = as_count(total);
    total += all[static_cast<std::size_t>(r)];
  }
  std::vector<std::uint8_t> out(total);
  check(MPI_Allgatherv(mine.data(), as_count(mine.size()), MPI_BYTE, out.data(), recv_counts.data(),
                       displs.data(), MPI_BYTE, impl_->comm),
        "MPI_Allgatherv");
  return out;
}

void Communicator::abort(int code) const {
  if (!impl_->serial) MPI_Abort(impl_->comm, code);
  std::abort();
}

const void* Communicator::native_handle() const {
  return &impl_->comm;
}

MpiSession::MpiSession(int* argc, char*** argv) {
  // Shared memory for ranks on one machine; a process started alone without Open MPI's
  // daemon, in a session directory of its own (mpi_start_settings() says why), or with the
  // daemon where no directory can be made (Open MPI's own files may say where it can). Every
  // rank reads the same variables, so all choose alike; the user's settings win (no overwrite).
  if (!started_by_launcher()) {
    session_dir_ = own_session_dir();
    if (!make_session_dir(session_dir_)) session_dir_.clear();
  }
  for (const MpiStartSetting& s : mpi_start_settings(process_environment, session_dir_)) {
    setenv(s.name.c_str(), s.value.c_str(), 0);
  }
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
  // MPI_Finalize removes it; a user's own jobfam directory took its place when set (empty
  // and unused then).
  if (!session_dir_.empty()) rmdir(session_dir_.c_str());
}

bool MpiSession::active() {
  int initialized = 0;
  int finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

}  // namespace wormnet
